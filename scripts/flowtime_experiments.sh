#!/bin/sh
# Zheng, Shroff, Sinha (INFOCOM 2013) on hta flowtime:
# 1. both Facebook days (instances/swim, imported at 64 MiB blocks, 10 s
#    slots, 1 GiB of shuffle per reduce task) through every policy on a
#    cluster sized so that the load is 0.5, 0.7 and 0.9, both scenarios:
#    flow times by job-size class and the ratio to the SRPT bound;
# 2. the efficiency ratio on long i.i.d. runs (the theorem's setting):
#    ASRPT / lower bound and / SRPT against the load, plotted;
# 3. exact optima on small random traces: each policy / F*.
# usage: scripts/flowtime_experiments.sh [BUILD]   (writes BUILD/experiments/)
set -eu
build=${1:-build}
hta=$build/hta
out=$build/experiments
mkdir -p "$out"
for day in 2009 2010; do
    "$hta" import swim instances/swim/FB-${day}_samples_24_times_1hr_0.tsv \
        -o "$out/fb$day.txt"
    for mode in preemptive non-preemptive; do
        echo "== FB-$day, $mode"
        "$hta" flowtime "$out/fb$day.txt" --sweep 0.5,0.9,0.2 --mode "$mode" \
            --policy srpt,asrpt,fifo,fair --classes -q
    done
done | tee "$out/flowtime-swim.txt"
# 2. efficiency ratio against the load, 100 machines, 10^5 jobs
echo "# load  asrpt/lb  asrpt/srpt  dsrpt/srpt  fifo/lb  fair/lb  (10^5 jobs, 100 machines, exp(20) map and reduce, 1..4 tasks, preemptive)" >"$out/flowtime-ratio.dat"
for load in 0.3 0.4 0.5 0.6 0.7 0.8 0.9 0.95; do
    "$hta" gen jobs --jobs 100000 --machines 100 --load "$load" --map exp:20 \
        --reduce exp:20 --tasks 4 --seed 1 -o "$out/ft.txt"
    "$hta" flowtime "$out/ft.txt" --machines 100 --policy srpt,dsrpt,asrpt,fifo,fair --json -q |
        python3 -c '
import json, sys
p = json.load(sys.stdin)
r = {x["policy"]: x for x in p["policies"]}
print(sys.argv[1], *("%.4f" % v for v in (r["asrpt"]["ratio_lb"], r["asrpt"]["ratio_srpt"],
      r["dsrpt"]["ratio_srpt"], r["fifo"]["ratio_lb"], r["fair"]["ratio_lb"])))' "$load" \
        >>"$out/flowtime-ratio.dat"
done
cat "$out/flowtime-ratio.dat"
# 3. policies against the exact optimum, 40 small traces per scenario
echo "# scenario  mean and max of policy / F* over 40 traces (8 jobs, 2 machines, load 0.8): asrpt fifo fair; srpt/F*" >"$out/flowtime-exact.dat"
for mode in preemptive non-preemptive; do
    for seed in $(seq 40); do
        "$hta" gen jobs --jobs 8 --machines 2 --load 0.8 --map exp:2 \
            --reduce exp:3 --tasks 2 --seed "$seed" -o "$out/small.txt"
        "$hta" flowtime "$out/small.txt" -n 2 --mode "$mode" \
            --policy srpt,asrpt,fifo,fair,exact --json -q |
            python3 -c '
import json, sys
p = json.load(sys.stdin)
assert p["exact"]["status"] == "optimal", p["exact"]
r = {x["policy"]: x["ratio_exact"] for x in p["policies"]}
print(r["asrpt"], r["fifo"], r["fair"], r["srpt"])'
    done | awk -v m="$mode" '{ for (i = 1; i <= 4; i++) { s[i] += $i; if ($i > x[i]) x[i] = $i } n++ }
        END { printf "%s", m; for (i = 1; i <= 4; i++) printf "  %.4f %.4f", s[i] / n, x[i]; print "" }' \
        >>"$out/flowtime-exact.dat"
done
cat "$out/flowtime-exact.dat"
gnuplot <<GP
set terminal pngcairo size 900,550 noenhanced
set output "$out/flowtime-ratio.png"
set title "total flow time / lower bound, 10^5 jobs on 100 machines (preemptive)"
set xlabel "load"
set ylabel "ratio"
set key top left
set grid
plot "$out/flowtime-ratio.dat" using 1:2 with linespoints title "asrpt / max(SRPT, sum of job bounds)", \
     "" using 1:3 with linespoints title "asrpt / SRPT", \
     "" using 1:4 with linespoints title "dsrpt / SRPT", \
     "" using 1:5 with linespoints title "fifo / lower bound", \
     "" using 1:6 with linespoints title "fair / lower bound", \
     2 with lines dashtype 2 title "2 (Theorem: ASRPT within 2 of the optimum)"
GP
echo "plot: $out/flowtime-ratio.png"
