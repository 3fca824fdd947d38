#!/bin/sh
# --threads changes how fast, never what: hta sim, flowtime and
# reduce-place print the same bytes (and sim the same trace file) for
# 1, 2, 3 and 8 threads, over sweeps of several points and policies; an
# out-of-range --threads is a usage error before any work.  Ends with
# "N passed, N failed".
# usage: tests/threads/run.sh HTA TMPDIR
set -u
HTA=$1
tmp=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$HTA" in /*) ;; *) HTA=$root/$HTA ;; esac
pass=0
fail=0
check() { # name command...
    name=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL threads: $name"; fi
}
"$HTA" gen cluster wang --servers 60 --data-servers 48 --total 30 -o "$tmp/w.txt"
"$HTA" gen jobs --jobs 400 --machines 8 --load 0.8 --seed 5 -o "$tmp/j.txt"
"$HTA" gen jobs --jobs 12 --machines 2 --load 0.7 --seed 6 --map uniform:1:3 --reduce uniform:1:3 --tasks 2 -o "$tmp/small.txt"
same() { # name: the command (after the name) with --threads 1, 2, 3, 8
    name=$1
    shift
    "$@" --threads 1 >"$tmp/one.out" 2>&1
    code1=$?
    for n in 2 3 8; do
        "$@" --threads $n >"$tmp/n.out" 2>&1
        code=$?
        check "$name: --threads $n exits as --threads 1 ($code, $code1)" [ "$code" = "$code1" ]
        check "$name: --threads $n prints the bytes of --threads 1" cmp -s "$tmp/one.out" "$tmp/n.out"
    done
    check "$name ran (exit $code1)" [ "$code1" = 0 ]
}
same "sim sweep" "$HTA" sim "$tmp/w.txt" --slots 3000 --sweep 0.5,0.9,0.2 --no-timing
same "sim sweep json" "$HTA" sim "$tmp/w.txt" --slots 3000 --sweep 0.5,0.9,0.2 --no-timing --json
same "sim jobs" "$HTA" sim "$tmp/w.txt" --slots 2000 --arrivals jobs --subqueues --no-timing --json
same "sim unstable" "$HTA" sim "$tmp/w.txt" --slots 3000 --load 3 --max-backlog 5000 --no-timing
same "flowtime sweep" "$HTA" flowtime "$tmp/j.txt" --sweep 0.5,0.9,0.2 --no-timing --classes
same "flowtime exact" "$HTA" flowtime "$tmp/small.txt" -n 2 --no-timing --json
same "reduce-place sweep" "$HTA" reduce-place --sweep 0.2,0.8,0.2 --jobs 4000 --no-timing
same "reduce-place sweep json" "$HTA" reduce-place "$root/instances/slots/fig1.txt" --sweep 0.2,0.6,0.2 -K 2 --reducers fixed:4 --jobs 3000 --no-timing --json
# the trace file: the runs' traces in the runs' order
for n in 1 2 5; do
    "$HTA" sim "$tmp/w.txt" --slots 2000 --sweep 0.5,0.9,0.4 --no-timing --trace-file "$tmp/t$n.csv" --trace-every 7 >/dev/null 2>&1
done
check "sim --trace-file written" [ -s "$tmp/t1.csv" ]
check "sim --trace-file: the same bytes for 2 threads" cmp -s "$tmp/t1.csv" "$tmp/t2.csv"
check "sim --trace-file: the same bytes for 5 threads" cmp -s "$tmp/t1.csv" "$tmp/t5.csv"
# the experiment scripts' runner: the same files through GNU parallel on
# this host as a host list (HTA_HOSTS=:, --sshlogin :), through its local
# jobs, and one after the other; a failing command fails it
mkdir -p "$tmp/par"
: >"$tmp/par/cmds"
for l in 0.2 0.4 0.6 0.8; do
    echo "$HTA reduce-place --threads 1 --lambda $l --jobs 2000 --json --no-timing >rp-$l.json" >>"$tmp/par/cmds"
    (cd "$tmp/par" && "$HTA" reduce-place --lambda $l --jobs 2000 --json --no-timing >"direct-$l.json")
done
for how in hosts local; do
    rm -f "$tmp/par"/rp-*.json
    if [ $how = hosts ]; then
        (cd "$tmp/par" && HTA_HOSTS=: sh "$root/scripts/run_parallel.sh" cmds)
    else
        (cd "$tmp/par" && HTA_HOSTS= sh "$root/scripts/run_parallel.sh" cmds)
    fi
    check "run_parallel ($how) exits 0" [ $? -eq 0 ]
    for l in 0.2 0.4 0.6 0.8; do
        check "run_parallel ($how): rp-$l.json as run directly" cmp -s "$tmp/par/rp-$l.json" "$tmp/par/direct-$l.json"
    done
done
echo "false" >>"$tmp/par/cmds"
(cd "$tmp/par" && HTA_HOSTS=: sh "$root/scripts/run_parallel.sh" cmds) >/dev/null 2>&1
check "run_parallel: a failing command fails it" [ $? -ne 0 ]
command -v parallel >/dev/null 2>&1
check "GNU parallel is installed (scripts/deps.sh test)" [ $? -eq 0 ]
# out of range: a usage error, nothing run
for c in "sim $tmp/w.txt" "flowtime $tmp/j.txt -n 2" "reduce-place"; do
    for bad in 0 1025 two; do
        # shellcheck disable=SC2086
        "$HTA" $c --threads $bad >"$tmp/bad.out" 2>&1
        check "hta $c --threads $bad: exit 2" [ $? -eq 2 ]
        check "hta $c --threads $bad: says so" grep -q -- "--threads" "$tmp/bad.out"
    done
done
echo "$pass passed, $fail failed"
