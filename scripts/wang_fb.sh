#!/bin/sh
# Wang et al.'s Figs. 3-4 (INFOCOM 2013) with the job sizes of the
# Facebook workloads their parameters mimic: naive fair sharing turning
# at a total rate of 350, JSQ-MaxWeight at 630 (the boundary is 680),
# and at light load JSQ-MaxWeight about halving fair sharing's job delay
# with about the same task delay.
#
# Set-up: `hta gen cluster wang --total 680` (1000 servers, data on 800
# with 3 replicas, local rate 0.8, remote 0.2); Poisson job arrivals, a
# job's size drawn from the map-task counts of a SWIM day
# (instances/swim: one task per 64 MiB block of input, at least one; an
# empirical `table:` file), its tasks' data placed by the type rates;
# JSQ-MaxWeight with the paper's per-job sub-queues (--subqueues), fair
# sharing, and delay scheduling (not in the paper) at light load; runs of
# SLOTS slots (the paper's 250,000), SEEDS seeds, common random numbers
# within a seed.  Writes BUILD/experiments/wang-fb.dat and wang-fb.svg:
# 1. per trace, policy and total rate: task and job delay (slots) with
#    95% intervals over the seeds, the throughput and the verdicts;
# 2. the turning point: each policy's throughput at an offered rate of
#    816 (1.2 x the boundary; 5,000 slots), what it serves at most;
# 3. the light-load ratios JSQ-MaxWeight / fair of the job and the task
#    delay, per seed (paired: the same arrivals), with 95% intervals.
# usage: scripts/wang_fb.sh [BUILD] [SEEDS] [SLOTS] [TRACES]
#   (TRACES: a list of SWIM day names, default "FB-2009 FB-2010")
set -eu
build=${1:-build}
seeds=${2:-3}
slots=${3:-250000}
traces=${4:-FB-2009 FB-2010}
hta=$build/hta
out=$build/experiments
runs=$out/wang-fb-runs
mkdir -p "$runs"
"$hta" gen cluster wang --total 680 -o "$runs/wang.txt"
: >"$runs/cmds"
for tr in $traces; do
    # SIZE COUNT rows: the day's map-task counts, ceil(input / 64 MiB), at
    # least 1 (as `hta sim --jobs-trace` counts them).
    awk -F '\t' '{ m = $4 / 67108864; t = int(m); if (t < m) t++;
                   if (t < 1) t = 1; c[t]++ }
                 END { for (t in c) print t, c[t] }' \
        "instances/swim/${tr}_samples_24_times_1hr_0.tsv" | sort -n \
        >"$runs/$tr.sizes"
    common="--arrivals jobs --job-size table:$runs/$tr.sizes --slots $slots --json -q --threads 1"
    for s in $(seq "$seeds"); do
        for t in 100 200 300 350 375 400; do
            load=$(python3 -c "print($t / 680)")
            echo "$hta sim $runs/wang.txt $common -p fair --load $load --seed $s >$runs/$tr-fair-$t-$s.json" >>"$runs/cmds"
        done
        for t in 100 200 300; do
            load=$(python3 -c "print($t / 680)")
            echo "$hta sim $runs/wang.txt $common -p delay --load $load --seed $s >$runs/$tr-delay-$t-$s.json" >>"$runs/cmds"
        done
        for t in 100 200 300 350 400 500 600 630 650 670; do
            load=$(python3 -c "print($t / 680)")
            echo "$hta sim $runs/wang.txt $common -p jsq-maxweight --subqueues --load $load --seed $s >$runs/$tr-jsq-maxweight-$t-$s.json" >>"$runs/cmds"
        done
        for p in fair delay jsq-maxweight; do
            sub=
            [ "$p" = jsq-maxweight ] && sub=--subqueues
            echo "$hta sim $runs/wang.txt --arrivals jobs --job-size table:$runs/$tr.sizes --slots 5000 --json -q --threads 1 -p $p $sub --load 1.2 --seed $s >$runs/$tr-$p-sat-$s.json" >>"$runs/cmds"
        done
    done
done
sh "$(dirname "$0")/run_parallel.sh" "$runs/cmds"
PYTHONPATH="$(dirname "$0")" PYTHONDONTWRITEBYTECODE=1 python3 - "$runs" "$seeds" "$slots" "$traces" >"$out/wang-fb.dat" <<'PY'
import json, statistics, sys
from ci95 import ci
runs, seeds, slots, traces = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
def load(tr, p, t, s):
    return json.load(open("%s/%s-%s-%s-%d.json" % (runs, tr, p, t, s)))["policies"][0]
grid = {"fair": (100, 200, 300, 350, 375, 400), "delay": (100, 200, 300),
        "jsq-maxweight": (100, 200, 300, 350, 400, 500, 600, 630, 650, 670)}
print("# 1. trace policy total_rate task_delay ci job_delay ci throughput verdicts "
      "(slots; %d seeds of %d slots; intervals over the seeds)" % (seeds, slots))
for tr in traces:
    for p, ts in grid.items():
        for t in ts:
            r = [load(tr, p, t, s) for s in range(1, seeds + 1)]
            d = [x["delay"] for x in r]
            j = [x["job_delay"] for x in r]
            v = [x["verdict"] for x in r]
            print("%s %s %d %.4g %.3g %.4g %.3g %.1f %s" % (
                tr, p, t, statistics.mean(d), ci(d), statistics.mean(j), ci(j),
                statistics.mean(x["throughput"] for x in r),
                ",".join("%s:%d" % (k, v.count(k)) for k in sorted(set(v)))))
print()
print()
print("# 2. trace policy saturation_throughput ci local_fraction (offered 816 = 1.2 x 680, 5000 slots)")
for tr in traces:
    for p in grid:
        r = [load(tr, p, "sat", s) for s in range(1, seeds + 1)]
        th = [x["throughput"] for x in r]
        print("%s %s %.1f %.3g %.3f" % (tr, p, statistics.mean(th), ci(th),
                                        statistics.mean(x["levels"][0] for x in r)))
print()
print()
print("# 3. trace total_rate job_delay_ratio ci task_delay_ratio ci (jsq-maxweight / fair, paired by seed)")
for tr in traces:
    for t in (100, 200, 300):
        a = [load(tr, "jsq-maxweight", t, s) for s in range(1, seeds + 1)]
        b = [load(tr, "fair", t, s) for s in range(1, seeds + 1)]
        jr = [x["job_delay"] / y["job_delay"] for x, y in zip(a, b)]
        tr_ = [x["delay"] / y["delay"] for x, y in zip(a, b)]
        print("%s %d %.3f %.3g %.3f %.3g" % (tr, t, statistics.mean(jr), ci(jr),
                                             statistics.mean(tr_), ci(tr_)))
PY
cat "$out/wang-fb.dat"
gnuplot <<GP
set terminal svg size 1200,480 noenhanced
set output "$out/wang-fb.svg"
set multiplot layout 1,2
set xlabel "total arrival rate (tasks a slot; boundary 680)"
set logscale y
set key top left
set arrow from 350, graph 0 to 350, graph 1 nohead dashtype 2
set arrow from 630, graph 0 to 630, graph 1 nohead dashtype 2
set label "paper: fair turns" at 352, graph 0.95
set label "paper: JSQ-MW turns" at 560, graph 0.9
set title "mean task delay (slots), 95% intervals over seeds"
plot for [p in "fair jsq-maxweight delay"] for [tr in "$traces"] \
     "< awk -v t=" . tr . " -v p=" . p . " '/^# 2/ { exit } \$1 == t && \$2 == p' $out/wang-fb.dat" \
     using 3:4:5 with yerrorlines title tr . " " . p
set title "mean job delay (slots), 95% intervals over seeds"
plot for [p in "fair jsq-maxweight delay"] for [tr in "$traces"] \
     "< awk -v t=" . tr . " -v p=" . p . " '/^# 2/ { exit } \$1 == t && \$2 == p' $out/wang-fb.dat" \
     using 3:6:7 with yerrorlines title tr . " " . p
unset multiplot
GP
echo "wrote $out/wang-fb.dat, $out/wang-fb.svg"
