# fsy meets the bound: --algo exact still prints its row, saying what proved it
cd "$TMP" && $HTA gen hdfs --tasks 100 --servers 10 --seed 2 -o u.txt && $HTA solve u.txt --algo fsy,exact --no-timing && $HTA solve u.txt --algo fsy,exact --json --no-timing | grep -o '"algorithm": "exact", "status": "optimal"'
