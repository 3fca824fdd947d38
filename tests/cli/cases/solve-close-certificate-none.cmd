$HTA solve instances/zipf-1k.txt --algo fsy,close --write-lp "$TMP/e.lp" --no-timing >/dev/null; echo "exit $?"; test ! -e "$TMP/e.lp"
