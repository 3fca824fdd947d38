#!/bin/sh
# Capacity benchmark: wall time and peak memory of hta capacity for 1000
# servers with 10^4 and 10^5 task types (two levels) and the GB-PANDAS
# set-up (four levels): flow (Newton on igraph max flows), aggregated LP by
# simplex and by interior point.  Figures only.
# usage: scripts/bench_capacity.sh [BUILD] [TIMEOUT_SECONDS]
set -u
build=${1:-build}
limit=${2:-600}
hta=$build/hta
dir=$build/bench/capacity
mkdir -p "$dir"
[ -f "$dir/t4.txt" ] || "$hta" gen cluster random --servers 1000 --types 10000 --replicas 3 --total 700 --seed 1 -o "$dir/t4.txt"
[ -f "$dir/t5.txt" ] || "$hta" gen cluster random --servers 1000 --types 100000 --replicas 3 --total 700 --seed 1 -o "$dir/t5.txt"
[ -f "$dir/gb.txt" ] || "$hta" gen cluster gbpandas --load 0.5 --seed 1 -o "$dir/gb.txt"
run() { # file args...
    file=$1
    shift
    /usr/bin/time -o "$dir/time" -f '%e %M' timeout "$limit" "$hta" capacity "$file" --json "$@" >"$dir/out" 2>/dev/null
    r=$(tail -n 1 "$dir/time")
    rho=$(sed -n 's/.*"rho": \([0-9.e+-]*\).*/\1/p' "$dir/out")
    set -- $r
    printf '%8.2f s %7.1f MB  rho* %-20s' "$1" "$(awk "BEGIN { print $2 / 1024 }")" "${rho:-(timeout)}"
}
echo "time limit ${limit}s per run"
for f in t4 t5; do
    printf '%-4s flow      ' "$f"; run "$dir/$f.txt" --method flow; echo
    printf '%-4s simplex   ' "$f"; run "$dir/$f.txt" --method lp; echo
    printf '%-4s interior  ' "$f"; run "$dir/$f.txt" --method lp --interior; echo
done
printf 'gb   simplex   '; run "$dir/gb.txt" --method lp; echo
printf 'gb   interior  '; run "$dir/gb.txt" --method lp --interior; echo
