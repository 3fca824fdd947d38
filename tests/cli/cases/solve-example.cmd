$HTA solve instances/example.txt --algo rr,fsy,brute --no-timing
