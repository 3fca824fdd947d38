$HTA solve instances/zipf-10k.txt --algo fsy,close,ilp --no-timing
