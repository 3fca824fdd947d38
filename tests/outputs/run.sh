#!/bin/sh
# Outputs lose nothing: special files written through, symlinks followed,
# modes kept, read-only targets and inputs refused, nothing created on
# error, temporary files removed on a signal, stdout errors reported.
# Every case runs in a temporary directory (a FIFO and symlinks there,
# never real /dev entries), as root and, when root, again as 'nobody'.
# usage: tests/outputs/run.sh HTA TMPDIR; ends with "N passed, N failed".
set -u
HTA=$1
# Our own directory, which 'nobody' may traverse (the caller's may not).
base=$(mktemp -d "${TMPDIR:-/tmp}/hta-outputs.XXXXXX")
chmod 755 "$base"
trap 'rm -rf "$base"' EXIT
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
check() { # name condition...
    name=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL outputs: $name ($who)"; fi
}

# as_user CMD...: runs CMD as the current user, or as nobody.
as() {
    if [ "$who" = root ] || [ "$(id -u)" -ne 0 ]; then "$@"; else
        setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
    fi
}

gen() { as "$HTA" gen hdfs --tasks 20 --servers 5 --seed 1 "$@"; }

run_cases() {
    dir=$base/$who
    mkdir -p "$dir"
    chmod 777 "$dir"
    cd "$dir" || exit 1

    # a FIFO is written through, and stays a FIFO
    rm -f fifo got
    mkfifo fifo
    chmod 666 fifo
    cat fifo >got &
    reader=$!
    gen -o fifo
    code=$?
    wait $reader
    check "fifo written through" [ $code -eq 0 ]
    check "fifo stays a fifo" [ -p fifo ]
    check "fifo carried the instance" grep -q '^hta-instance 1' got

    # a symlink is followed: the target is replaced, the link kept
    rm -f link target.txt
    echo old >target.txt
    chmod 666 target.txt
    ln -s target.txt link
    gen -o link
    check "symlink kept" [ -L link ]
    check "symlink target rewritten" grep -q '^hta-instance 1' target.txt

    # a dangling symlink is refused, and stays as it was
    rm -f dangling
    ln -s nowhere/x dangling
    gen -o dangling 2>err
    check "dangling symlink refused" [ $? -eq 4 ]
    check "dangling symlink kept" [ -L dangling ]

    # an existing file keeps its mode
    rm -f m600
    as sh -c 'echo old >m600 && chmod 600 m600'
    gen -o m600
    check "mode 0600 kept" [ "$(stat -c %a m600)" = 600 ]
    check "0600 file rewritten" grep -q '^hta-instance 1' m600

    # a read-only file is refused (root too) and left unchanged
    rm -f ro
    as sh -c 'echo old >ro && chmod 444 ro'
    gen -o ro 2>err
    check "read-only refused" [ $? -eq 4 ]
    check "read-only unchanged" [ "$(cat ro)" = old ]

    # an output naming the input is refused, the input unchanged
    gen -o in.txt
    sum=$(cksum <in.txt)
    as "$HTA" solve in.txt -o in.txt >/dev/null 2>err
    check "output = input refused" [ $? -eq 2 ]
    check "input unchanged" [ "$(cksum <in.txt)" = "$sum" ]
    ln -sf in.txt alias.txt
    as "$HTA" solve in.txt -o alias.txt >/dev/null 2>err
    check "output = input through a symlink refused" [ $? -eq 2 ]

    # one bad output: no output created at all
    rm -f p.asg
    as "$HTA" solve in.txt -o p.asg --plot nodir/x.svg >out 2>err
    check "bad --plot directory: exit 4" [ $? -eq 4 ]
    check "bad --plot directory: -o not created" [ ! -e p.asg ]
    check "bad --plot directory: nothing on stdout" [ ! -s out ]

    # a directory is no output
    mkdir -p adir
    gen -o adir 2>err
    check "directory refused" [ $? -eq 4 ]

    # no temporary file is left behind by any of these
    check "no temporary files" [ -z "$(ls | grep '\.tmp\.')" ]
}

who=root
[ "$(id -u)" -eq 0 ] || who=$(id -un)
run_cases
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
    id nobody >/dev/null 2>&1; then
    who=nobody
    run_cases
fi

# Standard output write errors: one message, exit 4.
cd "$base" || exit 1
who=stdout
for c in "--version" "--help" "solve $root/instances/example.txt" \
    "eval $root/instances/example.txt $root/tests/data/example.asg" \
    "gen cluster random" "gen hdfs --tasks 5 --servers 3" \
    "capacity $root/tests/data/wang10.txt" "solve --help" \
    "reduce-place $root/instances/slots/fig1.txt -K 2 --reducers fixed:2 --jobs 500"; do
    # shellcheck disable=SC2086
    "$HTA" $c >/dev/full 2>err
    code=$?
    check "stdout full: hta $c exits 4" [ $code -eq 4 ]
    check "stdout full: hta $c says so" grep -q '^<stdout>: error: write error: No space left on device' err
done

# signal_after SIG SECONDS CMD...: runs CMD in the background, sends it
# SIG after SECONDS; its exit code in $code.
signal_after() {
    sig=$1 after=$2
    shift 2
    "$@" &
    pid=$!
    sleep "$after"
    kill -"$sig" $pid
    wait $pid 2>/dev/null
    code=$?
}

# A signal during a long write removes the temporary file (the file is
# made at the start; 3·10^6 tasks were written whole in 0.34 s, before
# the signal at 0.3 s came, in 4 runs of 5: 10^7 take 1.1 s).
who=signal
rm -f big.txt
signal_after TERM 0.3 "$HTA" gen hdfs --tasks 10000000 --servers 1000 \
    --seed 1 -o big.txt
check "SIGTERM: dies of the signal ($code)" [ $code -eq 143 ]
check "SIGTERM: no output" [ ! -e big.txt ]
check "SIGTERM: no temporary file" [ -z "$(ls | grep 'big.txt.tmp')" ]

# A signal before hta solve has any assignment to write (close alone on
# a growing top finds its first after seconds): the report of what was
# found, the signal's exit code, nothing written.
who=no-assignment
rm -f top.txt top.asg
"$HTA" gen hdfs --tasks 100000 --servers 10000 --replicas 3 --zipf 2.2 \
    --racks 1000 --policy rack-aware --w-rem-affine 3,0.01 --w-rack 1.5 \
    --seed 7 -o top.txt
signal_after TERM 1 "$HTA" solve top.txt --algo close -o top.asg --json \
    >rep.json 2>err
check "solve cut before an assignment: exit 143 ($code)" [ $code -eq 143 ]
check "solve cut before an assignment: says so" \
    grep -qx 'hta solve: interrupted before an output could be made: nothing written' err
check "solve cut before an assignment: nothing written" [ ! -e top.asg ]
check "solve cut before an assignment: the report" \
    grep -q '"interrupted": true' rep.json
rm -f top.txt top.asg rep.json err

# Other signals whose default ends the process (SIGUSR1, a CPU or
# file-size limit, SIGALRM, SIGTRAP) remove the temporary files too.
who=signals
"$HTA" gen cluster wang --servers 200 --data-servers 160 -o sigw.txt
for sig in USR1 XCPU XFSZ ALRM TRAP; do
    rm -rf sigo && mkdir sigo
    signal_after $sig 0.5 "$HTA" sim sigw.txt --slots 2000000 -q \
        --plot sigo/p.svg --csv sigo/c.csv --trace-file sigo/t.csv \
        >/dev/null 2>&1
    check "SIG$sig: dies of the signal ($code)" [ $code -gt 128 ]
    check "SIG$sig: no file left" [ -z "$(ls -A sigo)" ]
done
rm -rf sigo sigw.txt

# A write error names its cause: a FIFO whose reader leaves after 10
# bytes (SIGPIPE ignored, as under a supervisor), each writer of a file.
who=write-error
rm -f wfifo
mkfifo wfifo
for what in "gen cluster gbpandas" "gen jobs --jobs 100000" "gen hdfs --tasks 100000 --servers 100"; do
    (trap '' PIPE; head -c 10 wfifo >/dev/null & sleep 0.2
     # shellcheck disable=SC2086
     "$HTA" $what -o wfifo 2>err; echo $? >code)
    check "$what: exit 4" [ "$(cat code)" = 4 ]
    check "$what: the cause named" grep -q '^wfifo: error: write error: Broken pipe$' err
done
rm -f wfifo err code

# A command's outputs fail as a set (issue 71): when one cannot be
# written, none is replaced or created.  sim's trace file is cut by the
# file-size limit (SIGXFSZ ignored: EFBIG) while its chart and CSV, small,
# could be written: both old files stay, no temporary file is left.
who=set
rm -rf set && mkdir set && cd set || exit 1
"$HTA" gen cluster wang --servers 40 --data-servers 32 -o w.txt
echo old-svg >e.svg
echo old-csv >c.csv
(ulimit -f 100; trap '' XFSZ
 exec "$HTA" sim w.txt --slots 4000 --sweep 0.5,0.9,0.4 -q --trace-file t.txt \
     --plot e.svg --csv c.csv) >out 2>err
code=$?
check "set: the trace's write error exits 4" [ $code -eq 4 ]
check "set: the cause named" grep -q '^t.txt: error: write error: File too large' err
check "set: the chart unchanged" [ "$(cat e.svg)" = old-svg ]
check "set: the CSV unchanged" [ "$(cat c.csv)" = old-csv ]
check "set: no trace, no temporary file" [ "$(ls | sort | tr '\n' ' ')" = "c.csv e.svg err out w.txt " ]
check "set: nothing on stdout" [ ! -s out ]
# reduce-place, flowtime: the chart cut (a limit of 512 bytes): the CSV
# not created, nothing printed (reduce-place printed its report)
"$HTA" gen jobs --jobs 40 --machines 2 --tasks 2 --seed 3 -o j.txt
for cmd in "reduce-place --slots 100 --jobs 300 --batches 3 --sweep 0.2,0.4,0.2" \
    "flowtime j.txt --sweep 0.5,0.9,0.4"; do
    rm -f e.svg n.csv
    # shellcheck disable=SC2086
    n=$( (ulimit -f 1; trap '' XFSZ
          exec "$HTA" $cmd --plot e.svg --csv n.csv 2>err) | wc -c)
    check "set: ${cmd%% *}: nothing printed, nothing created" \
        [ "$n" -eq 0 ] && [ ! -e e.svg ] && [ ! -e n.csv ] && [ "$(ls | grep -c tmp)" -eq 0 ]
    check "set: ${cmd%% *}: the chart's error named" grep -q '^e.svg: error: write error: File too large' err
done
# solve's assignment and chart as a set: the chart cut, the assignment
# stays as it was
"$HTA" gen hdfs --tasks 200 --servers 10 --zipf 1 --seed 3 -o z.txt
echo old >a.txt
echo old-svg >e.svg
(ulimit -f 2; trap '' XFSZ
 exec "$HTA" solve z.txt --algo rr -o a.txt --plot e.svg) >out 2>err
code=$?
check "set: solve's chart cut exits 4" [ $code -eq 4 ]
check "set: solve's chart error names its cause" grep -q '^e.svg: error: write error: File too large' err
check "set: solve's assignment unchanged" [ "$(cat a.txt)" = old ]
check "set: solve's chart unchanged" [ "$(cat e.svg)" = old-svg ]
check "set: solve leaves no temporary file" [ "$(ls | grep -c tmp)" -eq 0 ]
# two outputs are one file however spelled, existing or not: refused
# before any work (usage, exit 2)
mkdir -p sub
for pair in "x.out ./x.out" "x.out sub/../x.out" "x.out $PWD/x.out"; do
    set -- $pair
    rm -f x.out
    "$HTA" reduce-place --slots 100 --jobs 300 --batches 3 --csv "$1" --plot "$2" >out 2>err
    code=$?
    check "same output '$1' '$2': exit 2" [ $code -eq 2 ]
    check "same output '$1' '$2': the words" grep -q "two outputs name the same file '$1'" err
    check "same output '$1' '$2': nothing made" [ ! -e x.out ]
done
cd .. || exit 1

echo "$pass passed, $fail failed"
