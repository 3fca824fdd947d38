$HTA solve instances/example.txt -o
