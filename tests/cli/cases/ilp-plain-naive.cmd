$HTA solve instances/example.txt --algo ilp --ilp-plain --ilp-naive --no-timing --json
