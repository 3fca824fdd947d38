#!/bin/sh
# Benchmarks of hta (figures only, nothing asserted).  Run by `make bench`.
# usage: scripts/bench.sh [BUILD_DIR]
set -eu
build=${1:-build}
hta=$build/hta
dir=$build/bench
mkdir -p "$dir"
runs=${BENCH_RUNS:-5}

gen() { # name args...
    name=$1
    shift
    [ -f "$dir/$name.txt" ] || "$hta" gen hdfs "$@" -o "$dir/$name.txt"
}
gen u4 --tasks 10000 --servers 100 --seed 1
gen u5 --tasks 100000 --servers 1000 --seed 1
gen u6 --tasks 1000000 --servers 10000 --seed 1
gen z5 --tasks 100000 --servers 1000 --zipf 1 --seed 1
gen z5n --tasks 100000 --servers 100000 --zipf 1 --seed 1
gen z5s --tasks 100000 --servers 1000 --zipf 2 --seed 1
gen f6 --tasks 1000000 --servers 10 --seed 1
gen z6 --tasks 1000000 --servers 10000 --zipf 1 --seed 1
gen z6s2 --tasks 1000000 --servers 10000 --zipf 2 --seed 1
gen z6n --tasks 1000000 --servers 1000000 --zipf 1 --seed 1
gen u6n --tasks 1000000 --servers 1000000 --seed 1
gen r6 --tasks 1000000 --servers 10000 --policy rack-aware --racks 100 --seed 1
# 10^7 tasks (305 MB of text) only with BENCH_LARGE=1
large=""
if [ "${BENCH_LARGE:-0}" = 1 ]; then
    gen u7 --tasks 10000000 --servers 100000 --seed 1
    large=u7
fi

echo "== fsy phases (seconds, median of $runs runs; this machine: $(nproc) cores)"
echo "family    tasks     servers   parse      fsy    cover  balance    bound  inc-sweep  taus   igraph-sweep  makespan, bound, fsy/parse (processor of each fsy)"
for f in u4:igraph-sweep u5:igraph-sweep u6:igraph-one z5:igraph-sweep z5n:igraph-sweep z5s:igraph-sweep f6:none z6:none z6s2:none z6n:none u6n:none r6:none ${large:+$large:none}; do
    name=${f%%:*}
    printf '%-9s ' "$name"
    "$build/bench_fsy" "$dir/$name.txt" "$runs" "${f#*:}"
done

echo
echo "== hta solve --algo fsy, whole command (wall seconds median of $runs, peak RSS)"
for name in u4 u5 u6 z5 z5n z5s f6 z6 z6s2 z6n u6n r6 $large; do
    times=""
    for i in $(seq "$runs"); do
        t=$( { /usr/bin/time -f '%e %M' "$hta" solve "$dir/$name.txt" --algo fsy >/dev/null; } 2>&1 | tail -n 1)
        times="$times$t
"
    done
    printf '%s' "$times" | sort -n | awk -v n="$name" -v r="$runs" \
        'NR == int((r + 1) / 2) { printf "%-5s %6.2f s  %8.1f MB\n", n, $1, $2 / 1024 }'
done

echo
echo "== the reader alone (one thread, two) against the digits loop (every byte looked at"
echo "   once, every number converted, nothing stored or checked: bench_fsy FILE RUNS digits)"
echo "   and wc -l on the same file from the page cache (MB/s, median of $runs)"
for name in u6 z6 $large; do
    f="$dir/$name.txt"
    mb=$(wc -c <"$f" | awk '{print $1 / 1048576}')
    wc_t=$(for i in $(seq "$runs"); do /usr/bin/time -f '%e' wc -l "$f" 2>&1 >/dev/null | tail -n 1; done | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
    one_t=$("$build/bench_fsy" "$f" "$runs" none 1 | awk '{print $3}')
    two_t=$("$build/bench_fsy" "$f" "$runs" none 2 | awk '{print $3}')
    dig_t=$("$build/bench_fsy" "$f" "$runs" digits | awk '{print $1}')
    awk -v n="$name" -v mb="$mb" -v w="$wc_t" -v a="$one_t" -v b="$two_t" -v g="$dig_t" \
        'BEGIN { printf "%-5s %6.1f MB  reader %5.0f MB/s (%.3f s), two threads %5.0f MB/s (%.3f s)  digits %5.0f MB/s (%.3f s)  ",
                        n, mb, mb / a, a, mb / b, b, mb / g, g;
                 if (w > 0) printf "wc -l %5.0f MB/s (%.2f s)\n", mb / w, w;
                 else printf "wc -l under the timer'"'"'s 0.01 s\n" }'
done
