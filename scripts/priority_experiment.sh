#!/bin/sh
# GB-PANDAS (Yekkehkhany et al.): "JSQ-Priority is not even throughput
# optimal for more locality levels".  On instances/clusters/priority-
# unstable.txt (four levels, rho* = 0.888 by hta capacity, its header says
# why) JSQ-MaxWeight, JSQ-Priority and GB-PANDAS run 2*10^6 slots for
# SEEDS seeds: each run's throughput against the arrival rate, the number
# in system at the end, the verdict; the deficit of each policy with a 95%
# interval over the seeds; and the number in system along seed 1's path
# as an SVG.  Writes BUILD/experiments/priority-unstable.{dat,svg}.
# usage: scripts/priority_experiment.sh [BUILD] [SEEDS]
set -eu
build=${1:-build}
seeds=${2:-5}
hta=$build/hta
cl=instances/clusters/priority-unstable.txt
out=$build/experiments
mkdir -p "$out/priority-runs"
runs=$out/priority-runs
rho=$("$hta" capacity "$cl" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["rho"])')
: >"$runs/cmds"
for s in $(seq "$seeds"); do
    trace=""
    [ "$s" = 1 ] && trace="--trace-file $runs/trace.csv --trace-every 5000"
    echo "$hta sim --threads 1 $cl --slots 2000000 -p jsq-maxweight,priority,gb-pandas --seed $s --json -q $trace >$runs/s$s.json" >>"$runs/cmds"
done
sh "$(dirname "$0")/run_parallel.sh" "$runs/cmds"
PYTHONPATH="$(dirname "$0")" PYTHONDONTWRITEBYTECODE=1 python3 - "$runs" "$seeds" "$rho" >"$out/priority-unstable.dat" <<'PY'
import json, statistics, sys
from ci95 import ci
runs, seeds, rho = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
print("# rho* %.4f; seed policy throughput arrival_rate deficit in_system verdict" % rho)
deficit = {}
for s in range(1, seeds + 1):
    r = json.load(open("%s/s%d.json" % (runs, s)))
    for p in r["policies"]:
        d = r["rate"] - p["throughput"]
        deficit.setdefault(p["policy"], []).append(d)
        print(s, p["policy"], "%.5f" % p["throughput"], "%.4f" % r["rate"],
              "%.5f" % d, p["in_system"], p["verdict"])
for pol, ds in deficit.items():
    m = statistics.mean(ds)
    h = ci(ds)
    print("# %s: deficit %.5f +- %.5f tasks a slot over %d seeds" % (pol, m, h, len(ds)))
PY
cat "$out/priority-unstable.dat"
awk -F, 'NR > 1 {print > "'"$runs"'/trace-" $2 ".dat"}' "$runs/trace.csv"
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal svg size 800,450 noenhanced
set datafile separator ","
set output "$out/priority-unstable.svg"
set title "four levels, rho* = $rho: number in system (seed 1)"
set xlabel "slot"
set ylabel "tasks in system"
set logscale y
set key top left
plot for [p in "jsq-maxweight priority gb-pandas"] "$runs/trace-".p.".dat" using 3:4 with lines title p
GP
    echo "plot: $out/priority-unstable.svg"
fi
