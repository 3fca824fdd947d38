#!/bin/sh
# The online simulator against Wang et al. (INFOCOM 2013) and GB-PANDAS:
# 1. Wang's Section V set-up (1000 servers, data on 800 with 3 replicas,
#    alpha 0.8, gamma 0.2, boundary 680): mean task delay with 95%
#    intervals against the total arrival rate, every task-level policy;
# 2. heavy traffic (Wang Section IV) on the set-up scaled down to 10 and
#    100 servers (same rate ratios): eps * E[number in system] against
#    eps = capacity - lambda for JSQ-MaxWeight, next to the limit
#    (sigma^2 + nu^2)/2 (sigma^2 = lambda for Poisson arrivals, nu^2 =
#    sum_m alpha_m (1 - alpha_m) = 0.16 M), and eps * E[tasks waiting];
# 3. GB-PANDAS' Section 5 set-up (5000 servers, 4 levels, log-normal
#    service with mean = standard deviation, 10 slots per time unit):
#    mean delay against rho*;
# 4. job arrivals on Wang's set-up (geometric jobs of mean 10 tasks):
#    task and job delay of jsq-maxweight, fair, delay and fcfs at small and
#    middle rates, without and with per-job sub-queues (--subqueues, as in
#    Wang's simulation; rows "+sub");
# 5. the FB-2009 SWIM day (instances/swim) on 600 servers (racks of 20,
#    rates 1, 0.5, 0.25; a slot is a minute, a task one 64 MB block): job
#    delay median, 95th and 99th percentile by job size, every policy.
# Every point is an independent run: scripts/run_parallel.sh runs them
# through GNU parallel on this host's processors, or over hosts with
# HTA_HOSTS=host1,host2 (the repository at the same path on each).
# usage: scripts/sim_experiments.sh [BUILD] [SCALE]   (SCALE multiplies
# the slots, default 1; writes BUILD/experiments/sim-*)
set -eu
build=${1:-build}
scale=${2:-1}
hta=$build/hta
out=$build/experiments
mkdir -p "$out/sim-runs"
runs=$out/sim-runs
run_all() { # the command file: one run a line (scripts/run_parallel.sh)
    sh "$(dirname "$0")/run_parallel.sh" "$1"
}
summary='import json, sys
r = json.load(open(sys.argv[1]))
for p in r["policies"]:
    print(sys.argv[2], p["policy"], "%.4f %.4f %.4f %s" % (p["delay"], p["delay_ci"],
          p["number"], "stable" if p["stable"] else "growing"))'
: >"$runs/cmds"
# 1. Wang
"$hta" gen cluster wang --total 680 -o "$out/sim-wang.txt"
for t in 400 450 500 550 600 630 650 660 670 675; do
    load=$(python3 -c "print($t / 680)")
    echo "$hta sim --threads 1 $out/sim-wang.txt --load $load --slots $((40000 * scale)) --json -q >$runs/wang-$t.json" >>"$runs/cmds"
done
# 2. heavy traffic, M = 10 and 100
for M in 10 100; do
    D=$((M * 8 / 10))
    cap=$(python3 -c "print($D * 0.8 + ($M - $D) * 0.2)")
    "$hta" gen cluster wang --servers $M --data-servers $D --total "$cap" -o "$out/sim-ht-$M.txt"
    epss="2 1 0.5 0.25 0.1"
    [ "$M" = 10 ] && epss="$epss 0.05 0.025"
    for eps in $epss; do
        load=$(python3 -c "print(($cap - $eps) / $cap)")
        slots=$(python3 -c "print(int(max(200000, 800 * ($cap + 0.16 * $M) / $eps ** 2) * $scale))")
        echo "$hta sim --threads 1 $out/sim-ht-$M.txt --policy jsq-maxweight --load $load --slots $slots --json -q >$runs/ht-$M-$eps.json" >>"$runs/cmds"
    done
done
# 3. GB-PANDAS
"$hta" gen cluster gbpandas --load 1 -o "$out/sim-gb.txt"
rho=$("$hta" capacity "$out/sim-gb.txt" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["rho"])')
for r in 0.5 0.7 0.8 0.9 0.95; do
    load=$(python3 -c "print($r / $rho)")
    echo "$hta sim --threads 1 $out/sim-gb.txt --load $load --service lognormal --slots-per-unit 10 --slots $((20000 * scale)) --json -q >$runs/gb-$r.json" >>"$runs/cmds"
done
# 4. Wang with job arrivals
for t in 100 200 300 400 500; do
    load=$(python3 -c "print($t / 680)")
    echo "$hta sim --threads 1 $out/sim-wang.txt --arrivals jobs --job-size exp:10 --load $load --slots $((40000 * scale)) --json -q >$runs/wjobs-$t.json" >>"$runs/cmds"
    echo "$hta sim --threads 1 $out/sim-wang.txt --arrivals jobs --job-size exp:10 --subqueues --policy jsq-maxweight,priority,gb-pandas --load $load --slots $((40000 * scale)) --json -q >$runs/wjobs-sub-$t.json" >>"$runs/cmds"
done
# 5. the FB-2009 day
"$hta" gen cluster gbpandas --servers 600 --types 600 --topology 20 --rates 1,0.5,0.25 --load 1 -o "$out/sim-fb.txt"
echo "$hta sim --threads 1 $out/sim-fb.txt --arrivals jobs --jobs-trace instances/swim/FB-2009_samples_24_times_1hr_0.tsv --time-scale 60 --slots 3000 --warmup 0 --json -q >$runs/fb2009.json" >>"$runs/cmds"
run_all "$runs/cmds"
{
    echo "# total_rate policy delay ci number verdict (Wang set-up, boundary 680)"
    for t in 400 450 500 550 600 630 650 660 670 675; do
        python3 -c "$summary" "$runs/wang-$t.json" "$t"
    done
} >"$out/sim-wang.dat"
{
    echo "# M eps eps*E[N] limit (sigma^2+nu^2)/2 verdict eps*E[Q] (Q: waiting, N - busy servers) eps*LB (LB: Wang's lower bound (sigma^2+nu^2+eps^2)/(2 eps) - M/2) (JSQ-MaxWeight)"
    for M in 10 100; do
        D=$((M * 8 / 10))
        epss="2 1 0.5 0.25 0.1"
        [ "$M" = 10 ] && epss="$epss 0.05 0.025"
        for eps in $epss; do
            python3 -c '
import json, sys
M, eps = int(sys.argv[2]), float(sys.argv[3])
cap = 0.8 * (M * 8 // 10) + 0.2 * (M - M * 8 // 10)
p = json.load(open(sys.argv[1]))["policies"][0]
s2 = cap - eps + 0.16 * M  # sigma^2 + nu^2
print(M, eps, "%.4f %.4f %s %.4f %.4f" % (eps * p["number"], s2 / 2, "stable" if p["stable"] else "growing", eps * (p["number"] - p["utilisation"] * M), (s2 + eps * eps) / 2 - eps * M / 2))' \
                "$runs/ht-$M-$eps.json" "$M" "$eps"
        done
    done
} >"$out/sim-heavy.dat"
{
    echo "# rho* policy delay(units) ci number verdict (GB-PANDAS set-up, log-normal cv 1)"
    for r in 0.5 0.7 0.8 0.9 0.95; do
        python3 -c "$summary" "$runs/gb-$r.json" "$r"
    done
} >"$out/sim-gb.dat"
{
    echo "# total_rate policy task_delay job_delay job_ci verdict (Wang set-up, jobs of geometric(10) tasks)"
    jobrow='import json, sys
r = json.load(open(sys.argv[1]))
for p in r["policies"]:
    print(sys.argv[2], p["policy"] + sys.argv[3], "%.3f %.3f %.3f %s" % (p["delay"], p["job_delay"], p["job_delay_ci"], "stable" if p["stable"] else "growing"))'
    for t in 100 200 300 400 500; do
        python3 -c "$jobrow" "$runs/wjobs-$t.json" "$t" ""
        python3 -c "$jobrow" "$runs/wjobs-sub-$t.json" "$t" "+sub"
    done
} >"$out/sim-wang-jobs.dat"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print("# FB-2009 day, 600 servers: job delay (minutes) median/95th/99th by job size (map tasks); jobs done of", r["policies"][0]["jobs"])
for p in r["policies"]:
    print(p["policy"], p["jobs_done"], " ".join("%s:%d:%.3g/%.3g/%.3g" % (c["size"], c["jobs"], c["p50"], c["p95"], c["p99"]) for c in p["job_classes"]))'     "$runs/fb2009.json" >"$out/sim-fb2009.dat"
cat "$out/sim-wang.dat" "$out/sim-heavy.dat" "$out/sim-gb.dat" "$out/sim-wang-jobs.dat" "$out/sim-fb2009.dat"
gnuplot <<GP
set terminal pngcairo size 1500,500 noenhanced
set output "$out/sim.png"
set multiplot layout 1,3
set title "Wang et al. set-up: mean delay (slots)"
set xlabel "total arrival rate (boundary 680)"
set logscale y
set key top left
plot for [p in "jsq-maxweight priority gb-pandas"] "< grep ' ".p." ' $out/sim-wang.dat" using 1:3:4 with yerrorlines title p
unset logscale y
set title "heavy traffic, JSQ-MaxWeight: eps * E[N]"
set xlabel "eps"
set logscale x
plot "< awk '\$1 == 10' $out/sim-heavy.dat" using 2:3 with linespoints title "M = 10", \
     "< awk '\$1 == 10' $out/sim-heavy.dat" using 2:4 with lines dashtype 2 title "(sigma^2+nu^2)/2, M = 10", \
     "< awk '\$1 == 100' $out/sim-heavy.dat" using 2:3 with linespoints title "M = 100", \
     "< awk '\$1 == 100' $out/sim-heavy.dat" using 2:4 with lines dashtype 2 title "(sigma^2+nu^2)/2, M = 100", \
     "< awk '\$1 == 10' $out/sim-heavy.dat" using 2:7 with lines dashtype 3 title "eps * lower bound, M = 10", \
     "< awk '\$1 == 100' $out/sim-heavy.dat" using 2:7 with lines dashtype 3 title "eps * lower bound, M = 100"
unset logscale x
set title "GB-PANDAS set-up: mean delay (time units)"
set xlabel "rho*"
set logscale y
plot for [p in "jsq-maxweight priority gb-pandas fcfs"] "< grep ' ".p." ' $out/sim-gb.dat" using 1:3:4 with yerrorlines title p
unset multiplot
GP
echo "plot: $out/sim.png"
