#!/bin/sh
# The whole test suite: unit tests (cmocka), the bad-input corpus, the CLI
# golden tests, the SAT-solver oracle and the bundled suite.
# usage: tests/run.sh BUILD_DIR [--valgrind] [--cbc CBC_BUILD_DIR]
# --valgrind runs only the corpus and the CLI tests, with hta under
# valgrind memcheck (any error or leak exits 99, which fails the check).
# --cbc also runs a build made with CBC=yes (the optional MIP engine): its
# unit tests and the CLI cases of tests/cli/cbc/.
# The checks are jobs (jobs_list below) shared by one worker per processor;
# HTA_TEST_TIMES=FILE writes each job's seconds there, the longest first.
# Ends with "N passed, N failed"; exits 1 when anything failed.
set -u
build=${1:-build}
shift
mode=""
cbc=""
while [ $# -gt 0 ]; do
    case $1 in
    --valgrind) mode=--valgrind ;;
    --cbc) cbc=${2:?--cbc needs a build directory}; shift ;;
    *) echo "usage: tests/run.sh BUILD_DIR [--valgrind] [--cbc DIR]" >&2; exit 2 ;;
    esac
    shift
done
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
HTA="$root/$build/hta"
HTA_CBC=${cbc:+$root/$cbc/hta}
pass=0
fail=0
tmp=$(mktemp -d)
workers=""
trap '[ -z "$workers" ] || kill $workers 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
# hta under valgrind: a wrapper script named NAME in $tmp.
wrap() { # name binary
    cat >"$tmp/$1" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect "$2" "\$@"
WRAP
    chmod +x "$tmp/$1"
}
if [ "$mode" = "--valgrind" ]; then
    wrap hta "$HTA"
    HTA="$tmp/hta"
    if [ -n "$HTA_CBC" ]; then
        wrap hta-cbc "$HTA_CBC"
        HTA_CBC="$tmp/hta-cbc"
    fi
fi
export HTA
HTA_PYTHON=$root/$build/python # the Python package of this build
export HTA_PYTHON

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); printf 'FAIL %s\n' "$1"; }

# 1. Unit tests: every cmocka test counts; a build without them (a plain
# `make`) is a failure, not a silent skip.
if [ "$mode" != "--valgrind" ] && ! ls "$build"/tests/test_* >/dev/null 2>&1; then
    ko "no unit tests in $build/tests: run 'make test', which builds them"
fi
unit_test() { # binary
    out="$tmp/unit.$job.out"
    "$1" >"$out" 2>&1
    code=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$out")
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$out")
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-0}))
    if [ "$code" -ne 0 ] || [ -z "$p$f" ]; then
        [ -n "$f" ] || fail=$((fail + 1))
        printf 'FAIL %s (exit %s)\n' "$1" "$code"
        grep -E 'ERROR|FAILED|LINE|ERROR SUMMARY|runtime error|Sanitizer' "$out" | head -20
    fi
}
has_cbc() { "$1" --version 2>/dev/null | grep -q '^CBC [0-9]'; }

# 2. Bad-input corpus: exit code and first line of stderr.
bad_inputs() { # PART/PARTS (tests/part.sh)
part=$1
. tests/part.sh
tab=$(printf '\t')
while IFS="$tab" read -r want cmd msg; do
    case "$want" in ''|'#'*) continue ;; esac
    mine || continue
    # shellcheck disable=SC2086
    "$HTA" $cmd >"$tmp/bad.$job.out" 2>"$tmp/bad.$job.err"
    code=$?
    got=$(head -n 1 "$tmp/bad.$job.err")
    if [ "$code" = "$want" ] && [ "$got" = "$msg" ] && [ ! -s "$tmp/bad.$job.out" ]; then
        ok
    else
        ko "bad input: hta $cmd"
        printf '  exit %s (want %s)\n  got:  %s\n  want: %s\n' "$code" "$want" "$got" "$msg"
    fi
done < tests/bad/cases.tsv
}

# 3. CLI golden tests: NAME.cmd is run by sh from the repository root with
# $HTA and $TMP set; stdout must equal NAME.out, stderr NAME.err (if
# present), the exit code NAME.code (default 0).
cli_case() { # NAME.cmd
    c=$1
    name=${c%.cmd}
    work="$tmp/cli.$job"
    mkdir -p "$work/tmp"
    TMP="$work/tmp" sh "$c" >"$work/stdout" 2>"$work/stderr"
    code=$?
    want=0
    [ -f "$name.code" ] && want=$(cat "$name.code")
    good=1
    [ "$code" = "$want" ] || { good=0; printf '  exit %s, want %s\n' "$code" "$want"; }
    diff -u "$name.out" "$work/stdout" >"$work/diff" || { good=0; cat "$work/diff"; }
    if [ -f "$name.err" ]; then
        diff -u "$name.err" "$work/stderr" >"$work/diff" || { good=0; cat "$work/diff"; }
    elif grep -Eq 'runtime error|Sanitizer|LeakSanitizer' "$work/stderr"; then
        good=0
        cat "$work/stderr"
    fi
    if [ $good = 1 ]; then ok; else ko "cli: $name"; fi
}
# The cases that take longest under valgrind (20 to 60 s), first.
slow_cases="flowtime-small fsy-engines-agree interrupt-ilp interrupt-term"
cli_cases() { # dir: one job a case, the slow ones first
    for c in $slow_cases; do
        [ -f "$1/$c.cmd" ] && echo "cli_case $1/$c.cmd"
    done
    for c in "$1"/*.cmd; do
        case " $slow_cases " in *" $(basename "$c" .cmd) "*) continue ;; esac
        echo "cli_case $c"
    done
}
# --cbc's cases, with its build's hta
cli_case_cbc() { # NAME.cmd
    HTA=$HTA_CBC
    cli_case "$1"
}

# A sub-suite ending with "N passed, N failed": its failures are shown and
# its counts added (no closing line counts as one failure).
suite() { # name script [PART/PARTS]
    mkdir -p "$tmp/$1"
    sh "$2" "$HTA" "$tmp/$1" ${3:+"$3"} >"$tmp/$1.out" 2>&1
    grep '^FAIL' "$tmp/$1.out"
    p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/$1.out")
    f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/$1.out")
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-1}))
}

# The jobs, one shell command a line, the longest first (HTA_TEST_TIMES
# below), so that the workers end together; the long sub-suites in parts.
parts() { # name script N
    k=0
    while [ "$k" -lt "$3" ]; do
        echo "suite $1.$k $2 $k/$3"
        k=$((k + 1))
    done
}
slow_units="sim satdec instance plugin sat flowtime envelope"
cbc_ok=0 # --cbc names a build with CBC
if [ -n "$cbc" ] && has_cbc "$root/$cbc/hta"; then
    cbc_ok=1
fi
jobs_list() {
    if [ "$mode" != "--valgrind" ]; then
        # The longest jobs first (make test on 2 cores: python 70 s,
        # install 59, signals 38, test_sim 30, plugins 30, satdec 25): a
        # long job started last would end alone.
        # 11. The Python package (pytest): the command's numbers, errors
        # as exceptions, random arrays, memory, Ctrl-C.  For the builds
        # that make it (make test's; the sanitizers' tree has none: an
        # ASan extension needs an ASan interpreter).
        if [ -f "$HTA_PYTHON/hta/__init__.py" ]; then
            echo "suite python tests/python/run.sh"
        fi
        # 8. make install / uninstall, pkg-config, the man page.
        echo "suite install tests/install/run.sh"
        # 10. Signals end the online commands' long phases within a
        # second; what a cut or unstable run prints is honest.
        echo "suite signals tests/signals/run.sh"
        # 10c2. Plug-in policies from shared libraries against the
        # built-ins, byte for byte; the libraries refused.
        echo "suite plugins tests/plugins/run.sh"
        # 1. Unit tests, one binary a job (both builds' with --cbc): the
        # slowest first (under the sanitizers: instance, satdec, CBC's
        # ilp, sim, sat, envelope, 96 to 28 s)
        for t in $slow_units; do
            [ -x "$build/tests/test_$t" ] && echo "unit_test $build/tests/test_$t"
        done
        if [ "$cbc_ok" = 1 ]; then
            for t in "$cbc"/tests/test_*; do
                [ -x "$t" ] && echo "unit_test $t"
            done
        fi
        # 4. Theorem 3.1 with picosat as the oracle.
        parts sat tests/sat/run.sh 4
        # 7. Out of memory at every allocation: exit 1, never a signal.
        parts oom tests/oom/run.sh 4
        for t in "$build"/tests/test_*; do
            case " $slow_units " in *" ${t##*/test_} "*) continue ;; esac
            [ -x "$t" ] && echo "unit_test $t"
        done
        # 5. The bundled suite's recorded values.
        parts instances tests/instances/check.sh 2
        # 6. Outputs: special files, symlinks, modes, signals, stdout errors.
        echo "suite outputs tests/outputs/run.sh"
        # 9. Every --json output against its schema, as strict UTF-8.
        echo "suite json tests/json/run.sh"
        # 10b. The README's tour, line for line.
        echo "suite readme tests/readme.sh"
        # 10c. --threads: the same bytes for every number of threads.
        echo "suite threads tests/threads/run.sh"
        # 10c3. close on N levels against the N-level ILP (GLPK).
        echo "suite levels tests/levels/run.sh"
        # 10d. The experiment scripts' shared intervals (scripts/ci95.py).
        echo "suite scripts tests/scripts/run.sh"
    fi
    # 3b. The optional CBC engine: tests/cli/cbc/ for a build made with
    # CBC=yes, tests/cli/nocbc/ (the refusals) for one without; and with
    # --cbc a second build, with CBC: tests/cli/cbc/ with its hta (its unit
    # tests are above: the engines against brute force and each other).
    if has_cbc "$root/$build/hta"; then
        cli_cases tests/cli/cbc
    else
        cli_cases tests/cli/nocbc
    fi
    if [ -n "$cbc" ]; then
        if [ "$cbc_ok" = 1 ]; then
            for c in tests/cli/cbc/*.cmd; do
                echo "cli_case_cbc $c"
            done
        else
            echo "ko '$cbc/hta is not a build with CBC (make CBC=yes)'"
        fi
    fi
    cli_cases tests/cli/cases
    # 12. The Python package under memcheck (once: with the corpus).
    if [ "$mode" = "--valgrind" ]; then
        echo "suite python_memcheck tests/python/memcheck.sh"
    fi
    # 2. Bad-input corpus: exit code and first line of stderr (under
    # valgrind 240 s in all: in parts).
    for k in 0 1 2 3 4 5; do
        echo "bad_inputs $k/6"
    done
}

# The workers: one per processor (at most 4), each taking the next job no
# other has taken (mkdir is the claim); a job runs in a subshell with its
# own counts, output and scratch names ($job).  The outputs and counts
# are gathered in the list's order at the end: the output does not depend
# on which worker ran what.
jobs_list >"$tmp/jobs"
worker() {
    n=0
    while IFS= read -r cmd; do
        n=$((n + 1))
        mkdir "$tmp/claim.$n" 2>/dev/null || continue
        [ -z "${HTA_TEST_TIMES:-}" ] || t0=$(date +%s.%N)
        # shellcheck disable=SC2030 # the job's own counts, written out
        (pass=0 fail=0 job=$n; eval "$cmd"; echo "$pass $fail" >"$tmp/job.$n.counts") \
            >"$tmp/job.$n.log" 2>&1
        [ -z "${HTA_TEST_TIMES:-}" ] ||
            echo "$t0 $(date +%s.%N) $cmd" >"$tmp/job.$n.time"
    done <"$tmp/jobs"
}
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$cpus" -ge 1 ] 2>/dev/null || cpus=1
[ "$cpus" -le 4 ] || cpus=4
w=1
while [ "$w" -lt "$cpus" ]; do
    worker &
    workers="$workers $!"
    w=$((w + 1))
done
worker
for p in $workers; do
    wait "$p"
done
workers=""
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    cat "$tmp/job.$n.log" 2>/dev/null
    if read -r p f <"$tmp/job.$n.counts" 2>/dev/null; then
        # shellcheck disable=SC2031 # the main shell's counts
        pass=$((pass + p))
        fail=$((fail + f))
    else
        ko "job ended without its counts: $cmd"
    fi
done <"$tmp/jobs"
# HTA_TEST_TIMES=FILE: each job's seconds, the longest first (for the
# order of jobs_list)
if [ -n "${HTA_TEST_TIMES:-}" ]; then
    cat "$tmp"/job.*.time | awk '{printf "%8.2f %s\n", $2 - $1, substr($0, index($0, $3))}' |
        sort -rn >"$HTA_TEST_TIMES"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
