$HTA solve instances/example.txt --algo rr,ilp --no-timing
