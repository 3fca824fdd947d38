$HTA solve instances/example.txt -o "$TMP/a.txt" --no-timing >/dev/null && cat "$TMP/a.txt" && $HTA eval instances/example.txt "$TMP/a.txt"
