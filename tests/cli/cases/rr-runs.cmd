$HTA solve instances/example.txt --algo rr --rr-runs 25 --seed 7 --no-timing
