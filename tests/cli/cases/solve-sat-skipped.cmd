cd "$TMP" && $HTA gen hdfs --tasks 30 --servers 5 --w-rem-affine 2,0.5 --seed 3 -o a.txt && $HTA solve a.txt --algo fsy,sat --no-timing
