$HTA solve instances/example.txt --algo rr -o "$TMP/a.txt" >/dev/null && $HTA eval instances/example.txt "$TMP/a.txt" --json
