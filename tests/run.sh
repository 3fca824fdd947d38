#!/bin/sh
# The whole test suite: unit tests (cmocka), the bad-input corpus, the CLI
# golden tests, the SAT-solver oracle and the bundled suite.
# usage: tests/run.sh BUILD_DIR [--valgrind] [--cbc CBC_BUILD_DIR]
# --valgrind runs only the corpus and the CLI tests, with hta under
# valgrind memcheck (any error or leak exits 99, which fails the check).
# --cbc also runs a build made with CBC=yes (the optional MIP engine): its
# unit tests and the CLI cases of tests/cli/cbc/.
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
bg_pid=""
trap '[ -z "$bg_pid" ] || kill "$bg_pid" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
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

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); printf 'FAIL %s\n' "$1"; }

# 1. Unit tests: every cmocka test counts; a build without them (a plain
# `make`) is a failure, not a silent skip.
if [ "$mode" != "--valgrind" ] && ! ls "$build"/tests/test_* >/dev/null 2>&1; then
    ko "no unit tests in $build/tests: run 'make test', which builds them"
fi
unit_tests() { # build_dir
for t in "$1"/tests/test_*; do
    [ "$mode" = "--valgrind" ] && break
    [ -x "$t" ] || continue
    out="$tmp/unit.out"
    "$t" >"$out" 2>&1
    code=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$out")
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$out")
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-0}))
    if [ "$code" -ne 0 ] || [ -z "$p$f" ]; then
        [ -n "$f" ] || fail=$((fail + 1))
        printf 'FAIL %s (exit %s)\n' "$t" "$code"
        grep -E 'ERROR|FAILED|LINE|ERROR SUMMARY|runtime error|Sanitizer' "$out" | head -20
    fi
done
}
has_cbc() { "$1" --version 2>/dev/null | grep -q '^CBC [0-9]'; }
unit_all() { # both builds' unit tests
    unit_tests "$build"
    if [ -n "$cbc" ] && has_cbc "$root/$cbc/hta"; then
        unit_tests "$cbc"
    fi
}

# 2. Bad-input corpus: exit code and first line of stderr.
bad_inputs() {
tab=$(printf '\t')
while IFS="$tab" read -r want cmd msg; do
    case "$want" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    "$HTA" $cmd >"$tmp/bad.out" 2>"$tmp/bad.err"
    code=$?
    got=$(head -n 1 "$tmp/bad.err")
    if [ "$code" = "$want" ] && [ "$got" = "$msg" ] && [ ! -s "$tmp/bad.out" ]; then
        ok
    else
        ko "bad input: hta $cmd"
        printf '  exit %s (want %s)\n  got:  %s\n  want: %s\n' "$code" "$want" "$got" "$msg"
    fi
done < tests/bad/cases.tsv
}

# Sections 1 and 2 (section 2 alone under valgrind, which skips the unit
# tests) run in the background on a machine with two processors or more,
# beside sections 3-9, which take about as long: their output and counts
# join at the end.  One process at a time each side, so a test never
# shares the machine with more than one other.
first() {
    if [ "$mode" != "--valgrind" ]; then
        unit_all
    fi
    bad_inputs
}
# sections 1 and 2 from the background: their output, their counts
join_first() {
    [ -n "$bg_pid" ] || return 0
    wait "$bg_pid"
    bg_pid=""
    cat "$tmp/first.log"
    if read -r p f <"$tmp/first.counts" 2>/dev/null; then
        pass=$((pass + p))
        fail=$((fail + f))
    else
        ko "sections 1 and 2 in the background ended without their counts"
    fi
}
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "$cpus" -ge 2 ]; then
    (pass=0 fail=0; first; echo "$pass $fail" >"$tmp/first.counts") \
        >"$tmp/first.log" 2>&1 &
    bg_pid=$!
else
    first
fi

# 3. CLI golden tests: NAME.cmd is run by sh from the repository root with
# $HTA and $TMP set; stdout must equal NAME.out, stderr NAME.err (if
# present), the exit code NAME.code (default 0).
cli_cases() { # dir
for c in "$1"/*.cmd; do
    name=${c%.cmd}
    work="$tmp/$(basename "$name")"
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
done
}
cli_cases tests/cli/cases

# 3b. The optional CBC engine: tests/cli/cbc/ for a build made with
# CBC=yes, tests/cli/nocbc/ (the refusals) for one without; and with --cbc
# a second build, with CBC: its unit tests (the engines against brute
# force and each other) and tests/cli/cbc/.
if has_cbc "$root/$build/hta"; then
    cli_cases tests/cli/cbc
else
    cli_cases tests/cli/nocbc
fi
if [ -n "$cbc" ]; then
    if has_cbc "$root/$cbc/hta"; then
        saved=$HTA
        HTA=$HTA_CBC
        cli_cases tests/cli/cbc
        HTA=$saved
    else
        ko "$cbc/hta is not a build with CBC (make CBC=yes)"
    fi
fi

if [ "$mode" = "--valgrind" ]; then
    join_first
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

# A sub-suite ending with "N passed, N failed": its failures are shown and
# its counts added (no closing line counts as one failure).
suite() { # name script
    mkdir -p "$tmp/$1"
    sh "$2" "$HTA" "$tmp/$1" >"$tmp/$1.out" 2>&1
    grep '^FAIL' "$tmp/$1.out"
    p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/$1.out")
    f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/$1.out")
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-1}))
}

# 4. Theorem 3.1 with picosat as the oracle.
suite sat tests/sat/run.sh
# 5. The bundled suite's recorded values.
suite instances tests/instances/check.sh
# 6. Outputs: special files, symlinks, modes, signals, stdout errors.
suite outputs tests/outputs/run.sh
# 7. Out of memory at every allocation: exit 1, never a signal.
suite oom tests/oom/run.sh
# 8. make install / uninstall, the library through pkg-config, the man page.
suite install tests/install/run.sh
# 9. Every --json output against its schema, as strict UTF-8.
suite json tests/json/run.sh

join_first
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
