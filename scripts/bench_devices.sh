#!/bin/sh
# Does each performance device pay for itself?  The release build against
# a build without it: huge-page placement and hints (HTA_NO_HUGE,
# src/core/mem.c), the one device left (a prefault thread and max-cover's
# software prefetches were measured here and removed).  `hta
# solve --algo fsy`, the whole command in fresh processes (wall seconds
# by the clock around it), on three HDFS families: 10^6 uniform, 10^6
# Zipf 1.5 with 2 replicas, 10^7 uniform; medians of 7 interleaved runs,
# each build's ratio to the release one (above 1: the device helps; a
# device stays where it wins 10% on some family and loses on none).
# Figures only.
# usage: scripts/bench_devices.sh BUILD
set -eu
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in "huge|-DHTA_NO_HUGE"; do
    make -s --no-print-directory BUILD="$build/dev-${v%%|*}" OPT="${v#*|}" \
        "$build/dev-${v%%|*}/hta" >/dev/null
done
i=0
for family in "10^6 x 10^4 uniform|--tasks 1000000 --servers 10000" \
              "10^6 x 10^3 Zipf 1.5, 2 replicas|--tasks 1000000 --servers 1000 --zipf 1.5 --replicas 2" \
              "10^7 x 10^5 uniform|--tasks 10000000 --servers 100000"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$build/hta" gen hdfs ${family#*|} --seed 1 -o "$tmp/f$i.txt"
    python3 - "$build" "$tmp/f$i.txt" "${family%%|*}" <<'PY'
import statistics, subprocess, sys, time
build, path, name = sys.argv[1:4]
bins = {"release": f"{build}/hta", "huge": f"{build}/dev-huge/hta"}
runs = {k: [] for k in bins}
for _ in range(7):
    for k, b in bins.items():
        t0 = time.perf_counter()
        subprocess.run([b, "solve", path, "--algo", "fsy"],
                       stdout=subprocess.DEVNULL, check=True)
        runs[k].append(time.perf_counter() - t0)
base = statistics.median(runs["release"])
out = [f"release {base:.3f} s"]
for k in ("huge",):
    m = statistics.median(runs[k])
    out.append(f"without {k} {m:.3f} s ({m / base:.3f}x)")
print(f"{name}: " + ", ".join(out))
PY
    rm -f "$tmp/f$i.txt"
done
