$HTA solve instances/zipf-3k-c1.5.txt --algo fsy,ilp --ilp-engine cbc --no-timing -o "$TMP/a.txt" && $HTA eval instances/zipf-3k-c1.5.txt "$TMP/a.txt" | head -n 1
