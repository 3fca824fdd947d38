$HTA solve instances/zipf-3k-c1.5.txt --algo fsy,exact --ilp-max-tasks 100 --no-timing | awk '/^(fsy|close|ilp|sat|best) /{print $1, $2, $3}'
