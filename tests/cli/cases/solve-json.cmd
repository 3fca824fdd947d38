$HTA solve instances/example.txt --json --no-timing
