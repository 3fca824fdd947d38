# eval --exact on the paper's w_rem(r) on racks (issue 70): affine remote
# costs above a constant rack level, proven by close's slot search at the
# level bound; solve's exact portfolio reaches the same optimum.
cd "$TMP" && $HTA gen hdfs --tasks 1000 --servers 30 --replicas 3 --zipf 1.8 --racks 5 --policy rack-aware --w-rem-affine 3,0.001 --w-rack 1.5 --seed 7 -o F && $HTA solve F --algo fsy -o A >/dev/null && $HTA eval F A --exact --time-limit 10 | tail -n 1 && $HTA solve F --algo fsy,exact --time-limit 10 | tail -n 1
