$HTA gen cluster wang --servers 10 --data-servers 8 --total 6.8 -o "$TMP/c.txt" && $HTA capacity "$TMP/c.txt" --json && $HTA capacity "$TMP/c.txt" --method lp --json
