#!/bin/sh
# Out of memory never ends in a signal: every command runs with a
# failing-malloc shim (tests/oom/failmalloc.c) that lets the first N
# allocations through and fails every later one, for N = 0, 1, 2, ... up
# to where the command no longer runs out; each run must exit 0, or 1 with
# "out of memory" on stderr.  (Not under the sanitizers, whose runtime
# must come first in the process.)
# usage: tests/oom/run.sh HTA TMPDIR [PART/PARTS] (tests/part.sh); ends
# with "N passed, N failed".
set -u
HTA=$1
tmp=$2
part=${3:-0/1}
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
. "$root/tests/part.sh"
if ldd "$HTA" 2>/dev/null | grep -q 'libasan\|libubsan'; then
    echo "oom: the sanitizer build cannot take an LD_PRELOAD shim; make test runs these"
    echo "0 passed, 0 failed"
    exit 0
fi
shim=$tmp/failmalloc.so
cc -shared -fPIC -O1 -o "$shim" "$root/tests/oom/failmalloc.c" -ldl || {
    echo "FAIL oom: cannot build the shim"
    echo "0 passed, 1 failed"
    exit 1
}
cd "$root" || exit 1
"$HTA" solve instances/example.txt --algo rr -o "$tmp/a.asg" >/dev/null
"$HTA" gen hdfs --tasks 30 --servers 6 --zipf 1 --w-rem 3 --seed 4 -o "$tmp/z.txt"
"$HTA" gen random3sat --vars 6 --clauses 20 --seed 2 -o "$tmp/f.cnf"
"$HTA" gen cluster gbpandas --servers 40 --types 40 --topology 5,2 --load 0.6 -o "$tmp/g4.txt"

# One command: every N until a run completes without running out.
sweep() {
    mine || return 0
    name=$1
    shift
    n=0
    while :; do
        HTA_FAIL_AFTER=$n LD_PRELOAD=$shim "$@" >"$tmp/out" 2>"$tmp/err"
        code=$?
        if [ $code -eq 0 ]; then
            break
        elif [ $code -eq 1 ] && grep -q 'out of memory' "$tmp/err"; then
            :
        else
            fail=$((fail + 1))
            echo "FAIL oom: $name with $n allocations: exit $code: $(head -c 200 "$tmp/err")"
            return
        fi
        # every N up to 200, then sparser (a run takes thousands)
        if [ $n -lt 200 ]; then n=$((n + 1)); else n=$((n + n / 7 + 1)); fi
        if [ $n -gt 2000000 ]; then
            fail=$((fail + 1))
            echo "FAIL oom: $name never completes"
            return
        fi
    done
    pass=$((pass + 1))
}

sweep "solve rr,fsy,brute" "$HTA" solve instances/example.txt --algo rr,fsy,brute
sweep "solve ilp (GLPK runs)" "$HTA" solve "$tmp/z.txt" --algo ilp --ilp-plain
sweep "solve fsy igraph" "$HTA" solve "$tmp/z.txt" --algo fsy --maxflow igraph
sweep "solve -o --plot --json" "$HTA" solve instances/example.txt -o "$tmp/o.asg" --plot "$tmp/o.svg" --json
sweep "eval" "$HTA" eval instances/example.txt "$tmp/a.asg" --json
sweep "gen hdfs" "$HTA" gen hdfs --tasks 50 --servers 7 --policy rack-aware --racks 7 -o "$tmp/g.txt"
sweep "gen cluster" "$HTA" gen cluster random --servers 20 --types 30
sweep "gen sat" "$HTA" gen sat "$tmp/f.cnf" -o "$tmp/s.txt"
sweep "capacity flow" "$HTA" capacity tests/data/wang10.txt
sweep "capacity lp" "$HTA" capacity tests/data/wang10.txt --method lp --decomposition "$tmp/d.txt"
sweep "capacity plain" "$HTA" capacity tests/data/wang10.txt --method plain
sweep "capacity flow, 4 levels" "$HTA" capacity "$tmp/g4.txt" --decomposition "$tmp/d4.txt"
sweep "import fsck" "$HTA" import fsck tests/data/fsck/hadoop2-racks.txt -o "$tmp/i.txt"
"$HTA" gen jobs --jobs 6 --machines 2 --tasks 2 --seed 3 -o "$tmp/j.txt"
"$HTA" gen cluster gbpandas --servers 20 --types 10 --topology 5,2 --load 0.5 -o "$tmp/gc.txt"
head -40 instances/swim/FB-2009_samples_24_times_1hr_0.tsv >"$tmp/swim.tsv"
sweep "sim" "$HTA" sim tests/data/wang10.txt --slots 300 --batches 3
sweep "sim levels" "$HTA" sim "$tmp/gc.txt" --slots 200 --batches 3 --json
sweep "sim jobs" "$HTA" sim tests/data/wang10.txt --arrivals jobs --job-size fixed:3 --slots 300 --batches 3 --policy fair,delay,gb-pandas
sweep "sim sub-queues" "$HTA" sim tests/data/wang10.txt --arrivals jobs --job-size table:tests/data/jobsizes.tsv --subqueues --slots 300 --batches 3 --policy jsq-maxweight,fcfs
sweep "reduce-place" "$HTA" reduce-place --slots 100 --jobs 300 --batches 3 --json
sweep "reduce-place topology" "$HTA" reduce-place instances/slots/fig1.txt -K 2 --reducers fixed:2 --jobs 200 --batches 3
sweep "reduce-place trace" "$HTA" reduce-place --jobs-trace "$tmp/swim.tsv" -K 2 --batches 3
sweep "gen jobs" "$HTA" gen jobs --jobs 20 --tasks 3 -o "$tmp/g.txt"
sweep "import swim" "$HTA" import swim "$tmp/swim.tsv" -o "$tmp/s.txt"
sweep "flowtime preemptive" "$HTA" flowtime "$tmp/j.txt" -n 2 --classes
sweep "flowtime non-preemptive" "$HTA" flowtime "$tmp/j.txt" -n 2 --mode non-preemptive --json
# Memory follows what was read, not a header count: a 70-byte file that
# declares 2^24 servers solves, writes and plots within 100 MB of address
# space (it took 1.25 GB when every declared server was materialised).
if mine; then
    printf 'hta-instance 1\ntasks 1\nservers 16777216\nw_loc 1\nw_rem 3\ntask 0 0\n' >"$tmp/big-n.txt"
    if (ulimit -v 100000 && "$HTA" solve "$tmp/big-n.txt" --algo rr,fsy,ilp,brute \
        -o "$tmp/big-n.asg" --plot "$tmp/big-n.svg" >/dev/null &&
        "$HTA" solve "$tmp/big-n.txt" --algo rr --rr-runs 3 >/dev/null &&
        "$HTA" eval "$tmp/big-n.txt" "$tmp/big-n.asg" >/dev/null); then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL oom: 2^24 declared servers need more than 100 MB"
    fi
fi
# The same bytes for any --threads (issue 59): a sweep's runs share the
# memory, so 64 threads fit where 2 do.  Before, under 4 GB of address
# space, sim's default backlog (per processor, not per run in flight) and
# flowtime's 50 runs at once on 10^6 jobs ended "out of memory".  Each
# sim run goes to its backlog bound: with 2 threads, two runs of 2.7
# million tasks each at once (the bound of 2 runs in flight); with 64,
# 132 runs, 64 at a time, at the bound of 64.  Loads of 2 and more reach
# the bound in a few thousand slots (at 1.3 to 1.62, 132 runs to the
# bound of 2 in flight took ten minutes and showed nothing more).
if mine; then
    "$HTA" gen cluster wang -o "$tmp/wang.txt"
    "$HTA" gen jobs --jobs 1000000 --machines 100 --load 0.8 --seed 1 -o "$tmp/j6.txt"
    for t in 2 64; do
        if [ $t = 2 ]; then
            what="--load 3 --policy jsq-maxweight,priority"
        else
            what="--sweep 2.0,2.32,0.01"
        fi
        # shellcheck disable=SC2086
        if (ulimit -v 4000000 &&
            "$HTA" sim "$tmp/wang.txt" $what --threads $t \
                --slots 20000 -q --no-timing >"$tmp/sim$t.out" 2>"$tmp/err" &&
            "$HTA" flowtime "$tmp/j6.txt" --sweep 0.5,0.95,0.05 --threads $t \
                -q --no-timing >"$tmp/ft$t.out" 2>>"$tmp/err"); then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL oom: sweeps with --threads $t under 4 GB: $(head -c 200 "$tmp/err")"
        fi
    done
    # the runs hit the backlog bound (2.7 million with 2 in flight, the
    # 2 threads' share), the flow times are the same bytes for both
    if [ "$(grep -c 'unstable (2666666 tasks' "$tmp/sim2.out")" -eq 2 ] &&
        [ "$(grep -c unstable "$tmp/sim64.out")" -eq 132 ] &&
        cmp -s "$tmp/ft2.out" "$tmp/ft64.out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL oom: sweeps with 2 and 64 threads: the bound not reached or the bytes differ"
    fi
fi
echo "$pass passed, $fail failed"
