$HTA solve instances/example.txt --algo fsy --write-cnf x.cnf
