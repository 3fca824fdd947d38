$HTA solve instances/example.txt --algo ilp --time-limit abc
