$HTA solve instances/example.txt --frobnicate
