cd "$TMP" && printf "p cnf 3 1\n1 2 3 0\n" > f.cnf && $HTA gen sat f.cnf -o i.txt && $HTA solve i.txt --algo rr -o a.txt >/dev/null && $HTA eval i.txt a.txt | head -n 1 && $HTA decode f.cnf a.txt
