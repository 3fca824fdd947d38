$HTA solve instances/example.txt --seed -4
