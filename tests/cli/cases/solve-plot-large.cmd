# beyond 1000 servers the picture groups them: small, and says so
cd "$TMP" && $HTA gen hdfs --tasks 60000 --servers 30000 --zipf 1 --seed 5 -o i.txt && $HTA solve i.txt --algo fsy --plot p.svg > /dev/null && [ "$(wc -c < p.svg)" -lt 1000000 ] && echo "under 1 MB" && grep -o "in 1000 groups of about 30" p.svg && grep -c "<g class=\"bar\"" p.svg
