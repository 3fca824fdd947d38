$HTA solve instances/zipf-1k.txt --algo fsy,close --no-timing -o "$TMP/a.txt" && $HTA eval instances/zipf-1k.txt "$TMP/a.txt"
