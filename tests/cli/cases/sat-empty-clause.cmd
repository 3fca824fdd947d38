cd "$TMP" && printf "p cnf 2 2\n1 2 0\n0\n" > f.cnf && $HTA gen sat f.cnf -o i.txt && $HTA solve i.txt --algo fsy,ilp --no-timing | tail -n 1
