#!/bin/sh
# Plug-in policies from the command line (hta sim --policy-lib): the
# plug-ins of builtins.c (JSQ-MaxWeight twice: through the view's
# shortest local queue and scanning the replicas, JSQ-Priority, GB-PANDAS, FCFS,
# fair sharing and delay scheduling written again
# from their rules) built as shared libraries must print what the
# built-ins print, byte for byte but the name, on Wang's set-up,
# GB-PANDAS' (four levels) and the bundled priority-unstable cluster, for
# two seeds, three loads and three arrival processes; the mutant tie rule
# must not; the plug-in Priority is reported growing where the built-in
# is.  Then the libraries that must be refused, with exit 3 and their
# words: not a library, no entry, another ABI, a table the gate refuses.
# usage: tests/plugins/run.sh HTA TMPDIR
set -u
hta=$1
tmp=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); printf 'FAIL %s\n' "$1"; }
cc=${CC:-cc}
build() { # out.so source [flags]
    src=$2 out=$1
    shift 2
    $cc -std=c11 -O2 -fPIC -shared -I"$root/include" "$@" "$src" -o "$out" \
        2>"$tmp/cc.err" || { ko "cannot build $out: $(head -1 "$tmp/cc.err")"; }
}
for i in 1 2 3 4 5 6 7 8; do
    build "$tmp/p$i.so" "$root/tests/plugins/builtins.c" -DHTA_PLUGIN=$i
done
"$hta" gen cluster wang --servers 200 --data-servers 160 -o "$tmp/wang.txt"
"$hta" gen cluster gbpandas --servers 500 --load 0.5 --seed 2 -o "$tmp/gb.txt"
cp "$root/instances/clusters/priority-unstable.txt" "$tmp/pu.txt"

# the report with the policy's name made one word
same_as() { # builtin plugin-name lib cluster args...
    s_b=$1 s_p=$2 s_lib=$3 s_cl=$4
    shift 4
    # shellcheck disable=SC2086
    "$hta" sim "$s_cl" --policy "$s_b" --no-timing -q "$@" ${builtin_extra:-} \
        >"$tmp/a" 2>&1
    "$hta" sim "$s_cl" --policy plugin --policy-lib "$s_lib" --no-timing -q \
        "$@" >"$tmp/b" 2>&1
    sed -E "s/^$s_b +/NAME /" "$tmp/a" >"$tmp/a1"
    sed -E "s/^$s_p +/NAME /" "$tmp/b" >"$tmp/b1"
    grep -q '^NAME ' "$tmp/a1" && cmp -s "$tmp/a1" "$tmp/b1"
}
for cl in wang gb pu; do
    for seed in 1 2; do
        for arr in "" "--arrivals bernoulli --load 0.5" \
            "--arrivals jobs --subqueues --load 0.25"; do
            args="--seed $seed --slots 2000"
            [ -n "$arr" ] && args="$args $arr" || args="$args --sweep 0.7,0.95,0.125"
            # shellcheck disable=SC2086
            for pair in "jsq-maxweight my-jsq p1" "jsq-maxweight my-jsq-scan p8" \
                "priority my-priority p2" \
                "fcfs my-fcfs p3" "gb-pandas my-gb-pandas p5"; do
                set -- $pair
                if same_as "$1" "$2" "$tmp/$3.so" "$tmp/$cl.txt" $args; then
                    ok
                else
                    ko "$2 differs from $1 on $cl.txt ($args)"
                    diff "$tmp/a1" "$tmp/b1" | head -5
                fi
            done
        done
    done
done
# fair sharing and delay scheduling (job arrivals; my-delay's skips are
# --delay 3,5)
for cl in wang gb; do
    for js in fixed:10 exp:3; do
        args="--arrivals jobs --job-size $js --slots 2000 --sweep 0.6,0.9,0.3"
        # shellcheck disable=SC2086
        if same_as fair my-fair "$tmp/p6.so" "$tmp/$cl.txt" $args; then ok
        else ko "my-fair differs from fair on $cl.txt ($args)"; fi
        # shellcheck disable=SC2086
        builtin_extra="--delay 3,5" # the built-in's skips, the plug-in's own
        # shellcheck disable=SC2086
        if same_as delay my-delay "$tmp/p7.so" "$tmp/$cl.txt" $args; then ok
        else ko "my-delay differs from delay on $cl.txt ($args)"; fi
        builtin_extra=""
    done
done
# the oracle catches a wrong tie rule
if same_as jsq-maxweight my-jsq-mutant "$tmp/p4.so" "$tmp/wang.txt" \
    --slots 2000 --load 0.9; then
    ko "the mutant tie rule gives the built-in's output"
else
    ok
fi
# GB-PANDAS' counter-example: growing, as the built-in
"$hta" sim "$tmp/pu.txt" --policy priority,plugin --policy-lib "$tmp/p2.so" \
    --slots 200000 -q --json >"$tmp/pu.json"
v=$(python3 -c 'import json,sys; print(" ".join(p["verdict"] for p in json.load(open(sys.argv[1]))["policies"]))' "$tmp/pu.json")
[ "$v" = "growing growing" ] && ok || ko "priority-unstable: verdicts '$v'"

# refusals: exit code and the first line of stderr
refused() { # code words args...
    code=$1 words=$2
    shift 2
    "$hta" sim "$tmp/wang.txt" --slots 100 -q "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    first=$(head -1 "$tmp/err")
    if [ "$got" -eq "$code" ] && [ ! -s "$tmp/out" ] &&
        case $first in *"$words"*) true ;; *) false ;; esac; then
        ok
    else
        ko "$* : exit $got, '$first' (expected $code, '$words')"
    fi
}
cat >"$tmp/noentry.c" <<'C'
int hta_something_else(void);
int hta_something_else(void) { return 0; }
C
cat >"$tmp/oldabi.c" <<'C'
#include "hta/policy.h"
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return 0; }
C
cat >"$tmp/badname.c" <<'C'
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; return hta_view_push(v, 0, t); }
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static const hta_policy p = {HTA_POLICY_ABI, "fcfs", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
cat >"$tmp/nopush.c" <<'C'
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; (void)v; (void)t; return 0; }
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static const hta_policy p = {HTA_POLICY_ABI, "lazy", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
for f in noentry oldabi badname nopush; do
    build "$tmp/$f.so" "$tmp/$f.c"
done
printf 'not a library\n' >"$tmp/text.so"
refused 3 "text.so: error: expected a shared library of a policy, found one that does not load" \
    --policy-lib "$tmp/text.so"
refused 3 "noentry.so: error: expected the entry symbol hta_policy_entry" \
    --policy-lib "$tmp/noentry.so"
refused 3 "oldabi.so: error: expected a policy of ABI 1, found none" \
    --policy-lib "$tmp/oldabi.so"
refused 3 "badname.so: error: expected a policy name of its own, found 'fcfs', a built-in's" \
    --policy-lib "$tmp/badname.so"
refused 3 "error: policy lazy: route(task 0) queued no task" \
    --policy-lib "$tmp/nopush.so" --policy plugin
refused 2 "--policy plugin names --policy-lib's policy: give --policy-lib" \
    --policy plugin
refused 4 "missing.so: error: cannot open: No such file or directory" \
    --policy-lib "$tmp/missing.so"
# Libraries that are not what they claim (issue 71): each refused with
# exit 3 and its words before any of its code runs, where it can be told.
mkfifo "$tmp/fifo.so"
refused_in() { # seconds code words args...: as refused, within a time
    secs=$1
    shift
    t0=$(date +%s)
    refused "$@"
    [ $(($(date +%s) - t0)) -le "$secs" ] || ko "$* took over $secs s"
}
refused_in 5 3 "fifo.so: error: expected a shared library of a policy (a regular file), found a FIFO" \
    --policy-lib "$tmp/fifo.so"
refused 3 "error: expected a shared library of a policy (a regular file), found a directory" \
    --policy-lib "$tmp"
head -c 4096 "$tmp/p1.so" >"$tmp/cut.so"
refused 3 "cut.so: error: expected a shared library of a policy, found a truncated or damaged one (segment" \
    --policy-lib "$tmp/cut.so"
# damaged program headers: none; a loadable segment whose memory size
# wraps; the dynamic segment outside every loadable one (both killed hta
# inside dlopen)
python3 - "$tmp/p1.so" "$tmp" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
phoff, = struct.unpack_from("<Q", data, 32)
phnum, = struct.unpack_from("<H", data, 56)
def patched(name, fix):
    d = bytearray(data)
    fix(d)
    open(sys.argv[2] + "/" + name, "wb").write(d)
def header(d, kind):
    for i in range(phnum):
        if struct.unpack_from("<I", d, phoff + 56 * i)[0] == kind:
            return phoff + 56 * i
patched("nophdr.so", lambda d: struct.pack_into("<H", d, 56, 0))
patched("memwrap.so", lambda d: struct.pack_into(
    "<Q", d, header(d, 1) + 40, 0xffffffffffffff00))
patched("dynout.so", lambda d: struct.pack_into(
    "<Q", d, header(d, 2) + 16, 0xdeadbeef000))
PY
refused 3 "nophdr.so: error: expected a shared library of a policy, found a damaged one (0 program headers" \
    --policy-lib "$tmp/nophdr.so"
refused 3 "memwrap.so: error: expected a shared library of a policy, found a damaged one (segment" \
    --policy-lib "$tmp/memwrap.so"
refused 3 "dynout.so: error: expected a shared library of a policy, found a damaged one (the dynamic segment" \
    --policy-lib "$tmp/dynout.so"
cat >"$tmp/dataentry.c" <<'C'
const long hta_policy_entry[4] = {1, 2, 3, 4};
C
cat >"$tmp/wildtable.c" <<'C'
#include "hta/policy.h"
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return (const hta_policy *)(void *)16; }
C
cat >"$tmp/wildroute.c" <<'C'
#include <string.h>
#include "hta/policy.h"
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static hta_policy p = {HTA_POLICY_ABI, "wild", 0, 1, 0, 0, 0, 0, sv, 0};
static const long data[4] = {0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) {
    (void)abi;
    const void *d = data;
    memcpy(&p.route, &d, sizeof d); /* route points at data */
    return &p;
}
C
cat >"$tmp/wildname.c" <<'C'
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; return hta_view_push(v, 0, t); }
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static const hta_policy p = {HTA_POLICY_ABI, (const char *)(void *)32, 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
cat >"$tmp/escname.c" <<'C'
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; return hta_view_push(v, 0, t); }
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static const hta_policy p = {HTA_POLICY_ABI, "a\033[31mb\nc", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
# plug-ins that crash in serve: a fault and an abort
cat >"$tmp/crash.c" <<'C'
#include <stdlib.h>
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; return hta_view_push(v, 0, t); }
static int64_t sv(void *s, hta_view *v, int32_t m) {
    (void)s; (void)m;
    if (hta_view_slot(v) > 50) {
#ifdef ABORT
        abort();
#else
        volatile int *z = 0;
        return *z;
#endif
    }
    return hta_view_pop(v, 0);
}
static const hta_policy p = {HTA_POLICY_ABI, "crash", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
for f in dataentry wildtable wildroute wildname escname crash; do
    build "$tmp/$f.so" "$tmp/$f.c"
done
build "$tmp/abort.so" "$tmp/crash.c" -DABORT
refused 3 "dataentry.so: error: expected the entry symbol hta_policy_entry to be a function, found data" \
    --policy-lib "$tmp/dataentry.so"
refused 3 "wildtable.so: error: expected hta_policy_entry to return a policy table, found an address that cannot be read" \
    --policy-lib "$tmp/wildtable.so"
refused 3 "wildroute.so: error: expected the table's route to be a function, found an address in no executable segment" \
    --policy-lib "$tmp/wildroute.so"
refused 3 "wildname.so: error: expected a policy name of 1 to 32 of a-z, 0-9, '-' and '_', found an address that cannot be read" \
    --policy-lib "$tmp/wildname.so"
# a name's control bytes reach no terminal: quoted as the readers quote
refused 3 "escname.so: error: expected a policy name of 1 to 32 of a-z, 0-9, '-' and '_', found 'a?[31mb?c'" \
    --policy-lib "$tmp/escname.so"
# the library is an input: an output naming it is refused, the library
# kept
cp "$tmp/p1.so" "$tmp/mine.so"
refused 2 "output '$tmp/mine.so' is the input '$tmp/mine.so'" \
    --policy plugin --policy-lib "$tmp/mine.so" --csv "$tmp/mine.so"
cmp -s "$tmp/p1.so" "$tmp/mine.so" && ok || ko "the library was changed"
# a name set to the command line's word for it
cat >"$tmp/plugname.c" <<'C'
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; return hta_view_push(v, 0, t); }
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static const hta_policy p = {HTA_POLICY_ABI, "plugin", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
# a plug-in that changes its table during the run (flags, name): the
# run reads the copy checked before it
cat >"$tmp/mutate.c" <<'C'
#include "hta/policy.h"
static hta_policy pol;
static int r(void *s, hta_view *v, int64_t t) {
    (void)s;
    if (hta_view_slot(v) == 20) {
        pol.flags = HTA_POLICY_JOBS;
        pol.name = "x\033[2J\n";
        return hta_view_push_job(v, t);
    }
    return hta_view_push(v, 0, t);
}
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static hta_policy pol = {HTA_POLICY_ABI, "mutate", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &pol; }
C
# a plug-in that calls exit(0) mid-run: status 1 and the words, no
# file left
cat >"$tmp/exits.c" <<'C'
#include <stdlib.h>
#include "hta/policy.h"
static int r(void *s, hta_view *v, int64_t t) { (void)s; if (hta_view_slot(v) > 50) exit(0); return hta_view_push(v, 0, t); }
static int64_t sv(void *s, hta_view *v, int32_t m) { (void)s; (void)m; return hta_view_pop(v, 0); }
static const hta_policy p = {HTA_POLICY_ABI, "exits", 0, 1, 0, 0, 0, r, sv, 0};
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi) { (void)abi; return &p; }
C
for f in plugname mutate exits; do
    build "$tmp/$f.so" "$tmp/$f.c"
done
refused 3 "plugname.so: error: expected a policy name of its own, found 'plugin', the command line's name" \
    --policy-lib "$tmp/plugname.so"
refused 3 "error: policy mutate: push_job needs the flag HTA_POLICY_JOBS" \
    --policy plugin --policy-lib "$tmp/mutate.so"
mkdir -p "$tmp/out.exits"
"$hta" sim "$tmp/wang.txt" --slots 2000 -q --policy plugin --policy-lib "$tmp/exits.so" \
    --csv "$tmp/out.exits/c.csv" --plot "$tmp/out.exits/p.svg" >/dev/null 2>"$tmp/err"
code=$?
if [ $code -eq 1 ] && grep -q 'a plug-in ended the process (exit) during its run' "$tmp/err" &&
    [ -z "$(ls -A "$tmp/out.exits")" ]; then
    ok
else
    ko "a plug-in's exit(0): exit $code, '$(head -1 "$tmp/err")', left '$(ls -A "$tmp/out.exits")'"
fi
# a plug-in that crashes: the command dies of its signal, and no output
# or temporary file is left beside the outputs (--trace-file, --csv,
# --plot), as on Ctrl-C
for lib in crash abort; do
    mkdir -p "$tmp/out.$lib"
    (
        ulimit -c 0
        exec "$hta" sim "$tmp/wang.txt" --slots 2000 -q --policy plugin \
            --policy-lib "$tmp/$lib.so" --trace-file "$tmp/out.$lib/t.txt" \
            --csv "$tmp/out.$lib/c.csv" --plot "$tmp/out.$lib/p.svg"
    ) >/dev/null 2>"$tmp/err"
    code=$?
    left=$(ls -A "$tmp/out.$lib")
    want=139
    [ "$lib" = abort ] && want=134
    # under AddressSanitizer its handler, run after hta's, reports the
    # fault and exits 1
    if [ "$lib" = crash ] && ldd "$hta" 2>/dev/null | grep -q libasan &&
        grep -q 'AddressSanitizer: SEGV' "$tmp/err"; then
        want=1
    fi
    if [ "$code" -eq "$want" ] && [ -z "$left" ]; then
        ok
    else
        ko "$lib plug-in: exit $code (expected $want), left '$left'"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
