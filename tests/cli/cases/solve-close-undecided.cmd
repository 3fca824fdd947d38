$HTA solve instances/sat-uf20-01.txt --algo close,fsy --no-timing
