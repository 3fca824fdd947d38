#!/bin/sh
# GB-PANDAS' Fig. 4 claim (Yekkehkhany et al.: GB-PANDAS about twice as
# fast as JSQ-MaxWeight at high load) on the paper's set-up and on a hot
# spot: `hta gen cluster gbpandas` (5000 servers, racks of 50, pods of 10
# racks, rates 1, 0.9, 0.6, 0.25, log-normal service with mean = standard
# deviation, 10 slots a unit), its load as generated ("uniform") and with
# the types whose first replica lies in racks 0-4 ten times as busy
# ("hotspot", the paper's "when hot-spots occur"), each scaled to rho* in
# 0.5 .. 0.95 by hta capacity; JSQ-MaxWeight, Priority and GB-PANDAS,
# 2000 units a run, SEEDS seeds.  Prints, per load and rho*, each
# policy's mean delay (units) with a 95% interval over the seeds, its
# throughput deficit (arrival rate - throughput, tasks a slot) and its
# verdicts, and JSQ-MaxWeight's delay over GB-PANDAS'; an SVG of the
# delays (log scale), one panel per load.
# usage: scripts/gbpandas_hotspot.sh [BUILD] [SEEDS]
set -eu
build=${1:-build}
seeds=${2:-3}
hta=$build/hta
out=$build/experiments
runs=$out/gbpandas-runs
mkdir -p "$runs"
"$hta" gen cluster gbpandas --load 1 -o "$runs/uniform.txt"
awk '/^type / { if (int($3 / 50) < 5) $2 = $2 * 10 } { print }' \
    "$runs/uniform.txt" >"$runs/hotspot.txt"
: >"$runs/cmds"
for load in uniform hotspot; do
    rho=$("$hta" capacity "$runs/$load.txt" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["rho"])')
    echo "$rho" >"$runs/$load.rho"
    for r in 0.5 0.7 0.8 0.9 0.95; do
        scale=$(python3 -c "print($r / $rho)")
        for s in $(seq "$seeds"); do
            echo "$hta sim --threads 1 $runs/$load.txt --load $scale --service lognormal --slots-per-unit 10 --slots 20000 -p jsq-maxweight,priority,gb-pandas --seed $s --json -q >$runs/$load-$r-$s.json" >>"$runs/cmds"
        done
    done
done
sh "$(dirname "$0")/run_parallel.sh" "$runs/cmds"
PYTHONPATH="$(dirname "$0")" PYTHONDONTWRITEBYTECODE=1 python3 - "$runs" "$seeds" >"$out/gbpandas-hotspot.dat" <<'PY'
import json, statistics, sys
from ci95 import ci
runs, seeds = sys.argv[1], int(sys.argv[2])
print("# load rho* policy delay_units ci deficit ci verdicts  (%d seeds, 2000 units)" % seeds)
for load in ("uniform", "hotspot"):
    for r in ("0.5", "0.7", "0.8", "0.9", "0.95"):
        by = {}
        for s in range(1, seeds + 1):
            j = json.load(open("%s/%s-%s-%d.json" % (runs, load, r, s)))
            for p in j["policies"]:
                d = by.setdefault(p["policy"], {"delay": [], "deficit": [], "verdict": []})
                d["delay"].append(p["delay"])  # in units (--slots-per-unit)
                d["deficit"].append(j["rate"] - p["throughput"])
                d["verdict"].append(p["verdict"])
        for pol, d in by.items():
            v = {x: d["verdict"].count(x) for x in set(d["verdict"])}
            print("%s %s %s %.4g %.3g %.4g %.3g %s" % (
                load, r, pol, statistics.mean(d["delay"]), ci(d["delay"]),
                statistics.mean(d["deficit"]), ci(d["deficit"]),
                ",".join("%s:%d" % kv for kv in sorted(v.items()))))
        ratio = [a / b for a, b in zip(by["jsq-maxweight"]["delay"], by["gb-pandas"]["delay"])]
        print("# %s %s jsq-maxweight / gb-pandas delay: %.3g +- %.3g" % (load, r, statistics.mean(ratio), ci(ratio)))
PY
cat "$out/gbpandas-hotspot.dat"
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal svg size 1000,450 noenhanced
set output "$out/gbpandas-hotspot.svg"
set multiplot layout 1,2 title "GB-PANDAS' set-up, mean delay (units) with 95% intervals over $seeds seeds"
set logscale y
set xlabel "rho*"
set ylabel "mean delay (units)"
set key top left
set title "load as generated (uniform)"
plot for [p in "jsq-maxweight priority gb-pandas"] "< grep '^uniform .* ".p." ' $out/gbpandas-hotspot.dat" using 2:4:5 with yerrorlines title p
set title "hot spot: racks 0-4's types 10x"
plot for [p in "jsq-maxweight priority gb-pandas"] "< grep '^hotspot .* ".p." ' $out/gbpandas-hotspot.dat" using 2:4:5 with yerrorlines title p
unset multiplot
GP
    echo "plot: $out/gbpandas-hotspot.svg"
fi
