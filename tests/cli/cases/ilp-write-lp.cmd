cd "$TMP" && $HTA gen hdfs --tasks 6 --servers 3 --replicas 2 --seed 2 -o i.txt && $HTA solve i.txt --algo ilp --ilp-plain --write-lp m.lp --no-timing >/dev/null && ls && cat m.lp
