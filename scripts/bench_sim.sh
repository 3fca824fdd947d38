#!/bin/sh
# Tasks simulated per second per core for each policy of hta sim, on
# Wang et al.'s set-up (1000 servers, data on 800 with 3 replicas, alpha
# 0.8, gamma 0.2) and GB-PANDAS' (5000 servers, racks of 50, 10 racks per
# pod, 5000 types, log-normal service with mean = standard deviation, 10
# slots per time unit), both at 95% of capacity; median of 5 runs, one
# process at a time, with the slowest and fastest run (this machine's
# noise).  Then the peak memory at 10x the slots (it must not
# grow with them).  Figures only.
# usage: scripts/bench_sim.sh BUILD
set -eu
build=${1:-build}
hta=$build/hta
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$hta" gen cluster wang --total 646 -o "$tmp/wang.txt"
"$hta" gen cluster gbpandas --load 1 -o "$tmp/gb0.txt"
rho=$("$hta" capacity "$tmp/gb0.txt" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rho"])')
load=$(python3 -c "print(0.95 / $rho)")
bench() { # name cluster slots args...
    name=$1 cl=$2 slots=$3
    shift 3
    for p in jsq-maxweight priority gb-pandas fcfs; do
        for r in 1 2 3 4 5; do
            "$hta" sim "$cl" --policy "$p" --slots "$slots" --json -q "$@"
        done | python3 -c '
import json, sys, statistics
runs = [json.loads(l)["policies"][0] for l in sys.stdin]
s = statistics.median(r["seconds"] for r in runs)
n = statistics.median(r["arrived"] for r in runs)
lo, hi = max(r["seconds"] for r in runs), min(r["seconds"] for r in runs)
print("  %-8s %-14s %8d slots %11d tasks %7.3f s %10.3g tasks/s (%.3g .. %.3g)" % (sys.argv[1], runs[0]["policy"], runs[0]["slots"], n, s, n / s, n / lo, n / hi))' "$name"
    done
}
echo "tasks per second per core (median of 5, slowest .. fastest run), 95% of capacity:"
bench wang "$tmp/wang.txt" 20000
bench gbpandas "$tmp/gb0.txt" 20000 --load "$load" --service lognormal --slots-per-unit 10
# Time per slot must follow the events, not the servers: the same
# arrival rate (500 tasks a slot, 1000 types of 3 replicas) on 10^4, 10^5
# and 10^6 servers, jsq-maxweight and gb-pandas; median of 3 runs.
# Plug-in policies (hta/policy.h): the C plug-ins of tests/plugins/
# builtins.c, built here as shared libraries, against the built-ins on
# the same sample path (their outputs are identical: tests/plugins/
# run.sh), interleaved, one process at a time, --threads 1, median of 5;
# JSQ-MaxWeight on Wang's set-up (my-jsq through the view's shortest
# local queue, my-jsq-scan reading each replica's length itself),
# Priority and GB-PANDAS on GB-PANDAS'.  Target: 1.3x.
# Then a Python plug-in (src/online/examples/policies.py): decisions (a
# route per arrival and a serve per task started) per second; target
# 10^5.
cc=${CC:-cc}
for i in 1 2 5 8; do
    $cc -std=c11 -O2 -fPIC -shared -Iinclude -DHTA_PLUGIN=$i \
        tests/plugins/builtins.c -o "$tmp/p$i.so"
done
echo "C plug-in against the built-in, seconds (median of 5, interleaved, --threads 1):"
plug() { # name builtin lib cluster args...
    name=$1 b=$2 lib=$3 cl=$4
    shift 4
    for r in 1 2 3 4 5; do
        "$hta" sim "$cl" --policy "$b,plugin" --policy-lib "$lib" --json -q \
            --threads 1 "$@"
    done | python3 -c '
import json, sys, statistics
runs = [json.loads(l)["policies"] for l in sys.stdin]
b = statistics.median(r[0]["seconds"] for r in runs)
p = statistics.median(r[1]["seconds"] for r in runs)
same = all({k: v for k, v in r[0].items() if k not in ("policy", "seconds")} ==
           {k: v for k, v in r[1].items() if k not in ("policy", "seconds")}
           for r in runs)
print("  %-8s %-14s %7.3f s  %-14s %7.3f s  %5.2fx  %s" % (sys.argv[1],
      runs[0][0]["policy"], b, runs[0][1]["policy"], p, p / b,
      "same output" if same else "OUTPUT DIFFERS"))' "$name"
}
plug wang jsq-maxweight "$tmp/p1.so" "$tmp/wang.txt" --slots 20000
plug wang jsq-maxweight "$tmp/p8.so" "$tmp/wang.txt" --slots 20000
plug gbpandas priority "$tmp/p2.so" "$tmp/gb0.txt" --slots 20000 \
    --load "$load" --service lognormal --slots-per-unit 10
plug gbpandas gb-pandas "$tmp/p5.so" "$tmp/gb0.txt" --slots 20000 \
    --load "$load" --service lognormal --slots-per-unit 10
echo "Python plug-in, decisions per second (routes + tasks started), median of 3:"
PYTHONPATH=$build/python /usr/bin/python3 - "$tmp/wang.txt" <<'PY'
import importlib.util, statistics, sys
import hta
spec = importlib.util.spec_from_file_location(
    "policies", "src/online/examples/policies.py")
P = importlib.util.module_from_spec(spec)
spec.loader.exec_module(P)
c = hta.Cluster.read(sys.argv[1])
for cls in (P.JSQMaxWeight, P.Priority, P.GBPandas, P.FCFS):
    rates, secs = [], []
    for r in range(3):
        row = hta.sim(c, policies=[cls()], slots=1000, load=0.95,
                      threads=1)["policies"][0]
        decisions = row["arrived"] + row["departed"]
        rates.append(decisions / row["seconds"])
        secs.append(row["seconds"])
    print("  wang     %-14s %9.3g decisions/s (%.2f s a run)" %
          (row["policy"], statistics.median(rates), statistics.median(secs)))
PY
echo "seconds per slot at 500 tasks a slot, by servers (median of 3; ratio to 10^4):"
for p in jsq-maxweight gb-pandas; do
    base=""
    for m in 10000 100000 1000000; do
        "$hta" gen cluster random --servers $m --types 1000 --total 500 --seed 1 -o "$tmp/r$m.txt"
        s=$(for r in 1 2 3; do
                "$hta" sim "$tmp/r$m.txt" --policy $p --slots 20000 --json -q
            done | python3 -c '
import json, sys, statistics
runs = [json.loads(l)["policies"][0] for l in sys.stdin]
print("%.3e" % statistics.median(r["seconds"] / r["slots"] for r in runs))')
        [ -n "$base" ] || base=$s
        python3 -c "print('  %-14s %8d servers %10s s/slot %6.2fx' % ('$p', $m, '$s', $s / $base))"
    done
done
echo "peak resident memory, gb-pandas on GB-PANDAS set-up, 2*10^4 and 2*10^5 slots:" >&2
for slots in 20000 200000; do
    /usr/bin/time -f "  $slots slots: %M KB" "$hta" sim "$tmp/gb0.txt" --policy gb-pandas \
        --slots "$slots" --load "$load" --service lognormal --slots-per-unit 10 -q >/dev/null
done
# A cluster that declares 2^24 servers but places its 50 types on the
# first 100: peak memory of capacity and of sim (each policy with
# per-server structures, 2000 slots) beside the 100-server cluster with
# the same types, on two levels and on four (racks of 10, pods of 5).
# The target is 2x: capacity works on the touched servers and groups
# (src/capacity/touch.h), sim keeps what it never touched as zero pages
# (src/online/README.md, "Memory").  The ratio is printed, not asserted.
echo "peak resident memory, 2^24 declared servers (types on 100) vs 100 servers:" >&2
"$hta" gen cluster random --servers 100 --types 50 --total 20 --seed 1 -o "$tmp/c100.txt"
"$hta" gen cluster random --servers 100 --types 50 --total 20 --seed 1 \
    --topology 10,5 --rates 0.9,0.5,0.3,0.1 -o "$tmp/d100.txt"
for shape in c d; do
    sed 's/^servers 100$/servers 16777216/' "$tmp/${shape}100.txt" >"$tmp/${shape}24.txt"
    levels=2
    [ "$shape" = d ] && levels=4
    for what in capacity gb-pandas jsq-maxweight priority; do
        set -- "$what"
        [ "$what" = capacity ] || set -- sim --slots 2000 --policy "$what" -q
        a=$(/usr/bin/time -f "%M" "$hta" "$@" "$tmp/${shape}100.txt" 2>&1 >/dev/null | tail -n 1)
        b=$(/usr/bin/time -f "%M" "$hta" "$@" "$tmp/${shape}24.txt" 2>&1 >/dev/null | tail -n 1)
        python3 -c "print('  %d levels %-14s 100 servers %8d KB, 2^24 declared %9d KB, %6.2fx' % ($levels, '$what', $a, $b, $b / $a))" >&2
    done
done
# --threads: a sweep of 8 loads (one policy) is 8 runs; the target is
# 2 processors at least 1.8x faster than 1, the same bytes.  Wall time of
# the whole command, --threads 1 against --threads 2, interleaved, median
# of 3; the outputs compared.
echo "whole command, jsq-maxweight sweep of 8 loads on Wang's set-up, 20000 slots: --threads 1 vs 2, median of 3:"
for r in 1 2 3; do
    for th in 1 2; do
        /usr/bin/time -f "$th %e" "$hta" sim "$tmp/wang.txt" --slots 20000 \
            -p jsq-maxweight --sweep 0.5,0.85,0.05 --threads "$th" -q \
            2>&1 >"$tmp/sweep-$th.txt" | tail -n 1
    done
    cmp -s "$tmp/sweep-1.txt" "$tmp/sweep-2.txt" || echo "differ 1"
done | python3 -c '
import sys, statistics
t = {}
for l in sys.stdin:
    k, v = l.split()
    t.setdefault(k, []).append(float(v))
if "differ" in t:
    print("  outputs DIFFER between --threads 1 and 2")
one, two = statistics.median(t["1"]), statistics.median(t["2"])
print("  --threads 1 %.2f s, --threads 2 %.2f s: %.2fx, outputs identical" % (one, two, one / two) if "differ" not in t else "")'
