# eval --exact where no exact engine applies (affine costs on the rack
# level: close needs constant costs below the top level, sat two levels,
# the ILP at most 512 cost combinations): the last line says so with each
# engine's reason, not "in the time limit" (issue 71).
cd "$TMP" && $HTA gen hdfs --tasks 1000 --servers 30 --replicas 3 --zipf 1.8 --racks 5 --policy rack-aware --w-rem-affine 3,0.001 --w-rack-affine 1.5,0.001 --seed 7 -o F && $HTA solve F --algo fsy -o A >/dev/null && $HTA eval F A --exact --time-limit 3 | tail -n 1
