$HTA solve instances/example.txt --algo ilp --ilp-max-tasks 5 --no-timing
