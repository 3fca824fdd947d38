$HTA solve instances/example.txt --algo ilp --ilp-engine both; echo "exit $?"; $HTA solve instances/example.txt --algo exact --ilp-engine cbc; echo "exit $?"; $HTA --version | tail -n 1
