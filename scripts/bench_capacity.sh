#!/bin/sh
# Capacity benchmark: wall time and peak memory of hta capacity for 1000
# servers with 10^4 and 10^5 task types (two levels) and the GB-PANDAS
# set-up (four levels; 5000 servers and types, then 5*10^4 and 5*10^5
# with the same racks of 50 and pods of 10 racks): flow (Newton on max
# flows: Dinic for two levels, generalized flows for four), gflow on two
# levels, aggregated LP by simplex and by interior point.  Figures only.
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
for k in 50000 500000; do
    [ -f "$dir/gb$k.txt" ] || "$hta" gen cluster gbpandas --load 0.5 --servers $k --types $k --seed 1 -o "$dir/gb$k.txt"
done
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
    printf '%-9s %-9s' "$f" flow; run "$dir/$f.txt" --method flow; echo
    printf '%-9s %-9s' "$f" gflow; run "$dir/$f.txt" --method gflow; echo
    printf '%-9s %-9s' "$f" simplex; run "$dir/$f.txt" --method lp; echo
    printf '%-9s %-9s' "$f" interior; run "$dir/$f.txt" --method lp --interior; echo
done
printf '%-9s %-9s' gb flow; run "$dir/gb.txt" --method flow; echo
printf '%-9s %-9s' gb simplex; run "$dir/gb.txt" --method lp; echo
printf '%-9s %-9s' gb interior; run "$dir/gb.txt" --method lp --interior; echo
printf '%-9s %-9s' gb50000 flow; run "$dir/gb50000.txt" --method flow; echo
printf '%-9s %-9s' gb50000 simplex; run "$dir/gb50000.txt" --method lp; echo
printf '%-9s %-9s' gb500000 flow; run "$dir/gb500000.txt" --method flow; echo
