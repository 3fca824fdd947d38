cd "$TMP" && $HTA gen hdfs --tasks 100000 --servers 1000 --zipf 1.5 --seed 1 --w-rem 3 -o z.txt && $HTA solve z.txt --algo fsy,exact --no-timing -o a.txt && $HTA eval z.txt a.txt | head -n 1
