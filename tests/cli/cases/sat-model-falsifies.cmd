cd "$TMP" && printf "p cnf 3 2\n1 -2 3 0\n-1 2 0\n" > f.cnf && printf "v 1 -2 -3 0\n" > m.txt && $HTA gen sat f.cnf --model m.txt -o w.txt; code=$?; ls; exit $code
