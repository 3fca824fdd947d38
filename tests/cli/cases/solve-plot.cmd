cd "$TMP" && $HTA solve "$OLDPWD/instances/thm41-extra-8.txt" --algo rr,fsy --plot p.svg --no-timing > /dev/null && grep -c "<rect" p.svg && grep -o "makespan [0-9.]*" p.svg | head -1
