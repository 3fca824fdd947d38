#!/bin/sh
# The flow-time policies on 10^6 jobs over 100 machines (load 0.9, exp(20)
# map and reduce work, 1..4 reduce tasks): jobs per second of each policy,
# median of 3 runs, both scenarios; then the exact program's size limit:
# columns and seconds on growing random traces; then leaping from event to
# event against stepping slot by slot (--stepwise), side by side, on the
# 10^6-job trace (an event nearly every slot: the leap must not lose),
# long jobs (10^3 jobs of exp(10^4) map, exp(5000) reduce on 10 machines)
# and the FB-2010 day on one machine.  Figures only.
# usage: scripts/bench_flowtime.sh BUILD
set -eu
build=${1:-build}
hta=$build/hta
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$hta" gen jobs --jobs 1000000 --machines 100 --load 0.9 --map exp:20 \
    --reduce exp:20 --tasks 4 --seed 1 -o "$tmp/j.txt"
echo "10^6 jobs, 100 machines, load 0.9; seconds per policy (median of 3) and jobs/s"
for mode in preemptive non-preemptive; do
    for _ in 1 2 3; do
        "$hta" flowtime "$tmp/j.txt" -n 100 --mode "$mode" --json -q \
            --policy srpt,asrpt,fifo,fair
    done | python3 -c '
import json, sys, statistics
runs = [json.loads(l) for l in sys.stdin]
for i, p in enumerate(runs[0]["policies"]):
    s = statistics.median(r["policies"][i]["seconds"] for r in runs)
    print("  %-15s %-6s %7.3f s  %10.0f jobs/s" % (sys.argv[1], p["policy"], s, runs[0]["jobs"] / s))' "$mode"
done
s=$(date +%s.%N)
"$hta" flowtime "$tmp/j.txt" -n 100 --policy srpt,asrpt,fifo,fair -q >/dev/null
e=$(date +%s.%N)
echo "whole command (parse + 4 policies): $(awk -v s="$s" -v e="$e" "BEGIN { printf \"%.3f\", e - s }") s"
echo "exact program (GLPK), random traces at load 0.8 on 2 machines, exp(2) map, exp(3) reduce:"
for jobs in 5 10 15 20 30; do
    "$hta" gen jobs --jobs "$jobs" --machines 2 --load 0.8 --map exp:2 \
        --reduce exp:3 --tasks 2 --seed 1 -o "$tmp/s.txt"
    for mode in preemptive non-preemptive; do
        "$hta" flowtime "$tmp/s.txt" -n 2 --mode "$mode" --policy asrpt,exact \
            --time-limit 60 --exact-max-vars 1000000 --json -q | python3 -c '
import json, sys
p = json.load(sys.stdin); e = p["exact"]
print("  %3s jobs %-15s %7d columns  %-10s %6.2f s" % (sys.argv[1], sys.argv[2], e["columns"], e["status"], e["seconds"]))' "$jobs" "$mode"
    done
done
echo "leaping (default) against --stepwise, medians of 3 interleaved runs, seconds:"
"$hta" gen jobs --jobs 1000 --machines 10 --load 0.9 --map exp:10000 \
    --reduce exp:5000 --tasks 4 --seed 1 -o "$tmp/long.txt"
"$hta" import swim instances/swim/FB-2010_samples_24_times_1hr_0.tsv \
    -o "$tmp/fb.txt"
side() { # label trace machines mode policies
    for _ in 1 2 3; do
        for f in leap step; do
            g=; [ "$f" = step ] && g=--stepwise
            printf '%s ' "$f"
            "$hta" flowtime "$2" -n "$3" --mode "$4" --policy "$5" --json -q $g |
                python3 -c '
import json, sys
print(" ".join("%s %.4f" % (p["policy"], p["seconds"]) for p in json.load(sys.stdin)["policies"]))'
        done
    done | python3 -c '
import sys, statistics, collections
d = collections.defaultdict(list)
for l in sys.stdin:
    w = l.split()
    for i in range(1, len(w), 2):
        d[(w[i], w[0])].append(float(w[i + 1]))
for p in dict.fromkeys(k[0] for k in d):
    a = statistics.median(d[(p, "leap")]); b = statistics.median(d[(p, "step")])
    print("  %-34s %-6s leap %8.3f  step %8.3f  step/leap %8.2f" % (sys.argv[1], p, a, b, b / max(a, 1e-4)))' "$1"
}
for mode in preemptive non-preemptive; do
    side "10^6 jobs, 100 machines, $mode" "$tmp/j.txt" 100 $mode srpt,asrpt,fifo,fair
    side "long jobs, 10 machines, $mode" "$tmp/long.txt" 10 $mode srpt,asrpt,fifo,fair
done
side "FB-2010 day, 1 machine" "$tmp/fb.txt" 1 preemptive srpt,asrpt,fifo
echo "  FB-2010 day, 1 machine, fair (one run each):"
for g in "" --stepwise; do
    "$hta" flowtime "$tmp/fb.txt" -n 1 --policy fair --json -q $g | python3 -c '
import json, sys
p = json.load(sys.stdin)["policies"][0]
print("    %-12s %8.2f s" % (sys.argv[1] or "leap", p["seconds"]))' "$g"
done
