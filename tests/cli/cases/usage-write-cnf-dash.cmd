$HTA solve instances/example.txt --algo sat --write-cnf -
