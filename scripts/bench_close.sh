#!/bin/sh
# Gap closing: hta solve --algo fsy,close on HDFS-like instances (Zipf
# s = 1 and 1.5 hot spots, uniform placements; 10^3 .. 10^6 tasks on
# m/100 servers; w_rem constant 3 or affine 3 + 10^-4 r; seeds 1..3).
# Per instance: fsy's makespan, the lower bound, close's status,
# makespan and seconds, and the whole command's seconds; then the counts.
# Figures only.  BENCH_CLOSE_MAX (default 1000000) caps the sizes.
# usage: scripts/bench_close.sh BUILD
set -eu
build=${1:-build}
hta=$build/hta
dir=$build/bench/close
max=${BENCH_CLOSE_MAX:-1000000}
mkdir -p "$dir"
printf '%-22s %10s %10s  %-11s %10s %8s %8s\n' instance fsy bound close \
    makespan "close s" "whole s"
for m in 1000 10000 100000 1000000; do
    [ "$m" -le "$max" ] || continue
    n=$((m / 100))
    for fam in z1 z15 u; do
        case $fam in
        z1) place="--zipf 1" ;;
        z15) place="--zipf 1.5" ;;
        *) place="" ;;
        esac
        for cost in c a; do
            case $cost in
            c) w="--w-rem 3" ;;
            *) w="--w-rem-affine 3,0.0001" ;;
            esac
            for seed in 1 2 3; do
                name=$fam-$m-$cost-$seed
                f=$dir/$name.txt
                # shellcheck disable=SC2086
                [ -f "$f" ] || "$hta" gen hdfs --tasks $m --servers $n $place $w \
                    --seed $seed -o "$f"
                start=$(date +%s.%N)
                "$hta" solve "$f" --algo fsy,close --json -q >"$dir/out.json"
                end=$(date +%s.%N)
                python3 - "$dir/out.json" "$name" "$start" "$end" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
rows = {row["algorithm"]: row for row in r["results"]}
f, c = rows["fsy"], rows["close"]
fmt = lambda x: "-" if x is None else "%.6g" % x
print("%-22s %10s %10s  %-11s %10s %8.3f %8.3f" % (
    sys.argv[2], fmt(f["makespan"]), fmt(r["lower_bound"]), c["status"],
    fmt(c["makespan"]), c["seconds"], float(sys.argv[4]) - float(sys.argv[3])))
EOF
            done
        done
    done
done | tee "$dir/table.txt"
echo
echo "== counts (status of close: skipped = fsy already met the bound)"
awk 'NR > 0 { split($1, p, "-"); k = p[1] " " p[3]; c[k " " $4]++ }
     END { for (x in c) print x, c[x] }' "$dir/table.txt" | sort
