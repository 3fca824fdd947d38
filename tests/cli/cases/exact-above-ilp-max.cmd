$HTA solve instances/sat-random-v8-unsat.txt --algo fsy,exact --sat-generic --ilp-max-tasks 100 --time-limit 4 --no-timing | awk '/^(close|ilp|sat) /{print $1} /^(fsy|best) /{print $1, $2, $3}'
