#!/bin/sh
# Builds the libFuzzer harnesses (clang, ASan+UBSan) and runs each for
# SECONDS.  The tracked seed corpus (tests/fuzz/corpus/<target>) is never
# rewritten: each run works on a copy under build-fuzz/corpus/<target>,
# and new interesting inputs stay there (add one to the tracked corpus
# deliberately, by hand).  Crashes are saved as build-fuzz/crash-*.
# usage: scripts/fuzz.sh SECONDS [TARGET...]
set -eu
seconds=${1:-60}
shift || true
targets=${*:-"instance assignment cluster cnf model fsck solve capacity jobs swim slots"}
build=build-fuzz
mkdir -p "$build"
srcs=$(ls src/*/*.c | grep -v "^src/cli/\|^src/python/")
common="-g -O1 -std=c11 -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DHTA_CHECKED $(pkg-config --cflags igraph) -fno-sanitize-recover=undefined"
san="address,undefined,float-cast-overflow"
# The library once (instrumented for coverage, not linked with libFuzzer's
# main), two files at a time; then each harness, which alone depends on
# its TARGET_ macro (it was the whole library again per target: 21 s
# each, eleven times).
mkdir -p "$build/obj"
export common san build
printf '%s\n' $srcs | xargs -P 2 -I{} sh -c \
    'clang $common -fsanitize=fuzzer-no-link,$san -c "$1" -o "$build/obj/$(echo "$1" | tr / _).o"' _ {}
objs=$(for f in $srcs; do printf '%s ' "$build/obj/$(echo "$f" | tr / _).o"; done)
for t in $targets; do
    # shellcheck disable=SC2086
    clang $common -fsanitize=fuzzer,$san -DTARGET_$t=1 tests/fuzz/fuzz.c $objs $(pkg-config --libs igraph) -lglpk -lcadical -lstdc++ -lm -pthread -o "$build/fuzz-$t"
done
# the harnesses' private input files (removed at exit; a crashed run's
# stays here, beside its crash-* file, not in /tmp)
tmp=$(pwd)/$build/tmp
mkdir -p "$tmp"
for t in $targets; do
    # seeds: the tracked corpus of the target (solve: the instance
    # corpus, capacity: the cluster corpus)
    case $t in solve) seed=instance ;; capacity) seed=cluster ;; *) seed=$t ;; esac
    work="$build/corpus/$t"
    mkdir -p "$work"
    cp -n tests/fuzz/corpus/"$seed"/* "$work"/ 2>/dev/null || true
    TMPDIR="$tmp" "$build/fuzz-$t" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
        -rss_limit_mb=2048 -artifact_prefix="$build/crash-$t-" \
        -print_final_stats=1 "$work" >"$build/fuzz-$t.log" 2>&1 || {
        echo "fuzz-$t: FAILED (see $build/fuzz-$t.log)"
        tail -n 30 "$build/fuzz-$t.log"
        exit 1
    }
    echo "fuzz-$t: $(grep -E 'stat::number_of_executed_units' "$build/fuzz-$t.log" | awk '{print $2}') runs, $(grep -oE 'cov: [0-9]+' "$build/fuzz-$t.log" | tail -n 1), corpus $(ls "$work" | wc -l) inputs"
done
