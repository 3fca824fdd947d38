$HTA solve instances/example.txt --algo fsy --ilp-engine cbc; echo "exit $?"; $HTA solve instances/example.txt --algo ilp --ilp-engine gurobi
