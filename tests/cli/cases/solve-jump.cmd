# the jump: as many servers as tasks, some holding no replica, so the
# degrees bound f(1) below m and a cover of every task at tau 2 is an
# optimum (proven by the flow bound); --no-jump keeps the sweep's own
# cover, of the same makespan; both assignments evaluate to 2
cd "$TMP" && $HTA gen hdfs --tasks 300 --servers 300 --seed 3 -o i.txt && $HTA solve i.txt --algo fsy,ilp --no-timing -o a.txt && $HTA eval i.txt a.txt && $HTA solve i.txt --algo fsy --no-jump --no-timing -o b.txt && $HTA eval i.txt b.txt && ! cmp -s a.txt b.txt && $HTA solve i.txt --algo fsy --no-timing --trace 2>&1 >/dev/null
