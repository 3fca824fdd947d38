#!/bin/sh
# Builds the libFuzzer harnesses (clang, ASan+UBSan) and runs each for
# SECONDS on its corpus in tests/fuzz/corpus/<target> (new inputs that add
# coverage are kept there).  Crashes are saved as tests/fuzz/crash-*.
# usage: scripts/fuzz.sh SECONDS [TARGET...]
set -eu
seconds=${1:-60}
shift || true
targets=${*:-"instance assignment cluster cnf model fsck"}
build=build-fuzz
mkdir -p "$build"
srcs=$(ls src/*/*.c | grep -v "^src/cli/")
flags="-g -O1 -std=c11 -Iinclude -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags igraph) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
for t in $targets; do
    clang $flags -DTARGET_$t=1 tests/fuzz/fuzz.c $srcs $(pkg-config --libs igraph) -lglpk -lm -o "$build/fuzz-$t"
done
for t in $targets; do
    mkdir -p "tests/fuzz/corpus/$t"
    "$build/fuzz-$t" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
        -artifact_prefix=tests/fuzz/crash-$t- -print_final_stats=1 \
        "tests/fuzz/corpus/$t" >"$build/fuzz-$t.log" 2>&1 || {
        echo "fuzz-$t: FAILED (see $build/fuzz-$t.log)"
        tail -n 30 "$build/fuzz-$t.log"
        exit 1
    }
    echo "fuzz-$t: $(grep -E 'stat::number_of_executed_units' "$build/fuzz-$t.log" | awk '{print $2}') runs, $(grep -oE 'cov: [0-9]+' "$build/fuzz-$t.log" | tail -n 1)"
done
