#!/bin/sh
# N locality levels (issue: racks in the offline optimizer): hta solve
# --algo fsy on one HDFS rack-aware placement of 10^6 tasks on 10^4
# servers, racks of 40, pods of 10 racks, priced with four levels (local
# 1, rack 1.5, pod 2, elsewhere 3) and the same file without its
# w_level lines (FSY's two levels, racks ignored): the fsy row's seconds,
# the whole command's and its peak memory, medians of 7 runs interleaved
# two-level, four-level, and the four-level lower bound of the same run.
# Two placements: 3 replicas (every task local: the refill is skipped at
# the bound) and 2 replicas with Zipf s = 1.5 hot spots (1.5% of the
# tasks not local: the refill runs).  Figures only.
# usage: scripts/bench_levels.sh BUILD
set -eu
build=${1:-build}
hta=$build/hta
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one() { # file: "row_seconds whole_seconds peak_kb lower_bound"
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$hta" solve "$1" --algo fsy --json -q >"$tmp/out.json"
    python3 - "$tmp/out.json" "$tmp/time" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e, m = open(sys.argv[2]).read().split()[-2:]
print(d["results"][0]["seconds"], e, m, d["lower_bound"])
PY
}
for family in "3 replicas, uniform|--replicas 3" "2 replicas, Zipf 1.5|--replicas 2 --zipf 1.5"; do
    name=${family%%|*}
    # shellcheck disable=SC2086
    "$hta" gen hdfs --tasks 1000000 --servers 10000 ${family#*|} --policy rack-aware \
        --racks 250 --pods 25 --w-rack 1.5 --w-pod 2 --w-rem 3 --seed 1 -o "$tmp/four.txt"
    grep -v '^w_level\|^rack' "$tmp/four.txt" >"$tmp/two.txt"
    : >"$tmp/runs"
    for _ in 1 2 3 4 5 6 7; do
        echo "two $(one "$tmp/two.txt")" >>"$tmp/runs"
        echo "four $(one "$tmp/four.txt")" >>"$tmp/runs"
    done
    python3 - "$tmp/runs" "$name" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def med(kind, i):
    return statistics.median(float(r[i]) for r in rows if r[0] == kind)
t2, t4 = med("two", 1), med("four", 1)
w2, w4 = med("two", 2), med("four", 2)
m2, m4 = med("two", 3), med("four", 3)
lb = [r[4] for r in rows if r[0] == "four"][0]
print("%s, 10^6 tasks x 10^4 servers, racks of 40, pods of 10 racks:" % sys.argv[2])
print("  fsy row     two levels %.3f s, four levels %.3f s: %.2fx" % (t2, t4, t4 / t2))
print("  whole solve two levels %.2f s, four levels %.2f s: %.2fx" % (w2, w4, w4 / w2))
print("  peak RSS    two levels %.1f MB, four levels %.1f MB: %.2fx" % (m2 / 1024, m4 / 1024, m4 / m2))
print("  four-level lower bound %s (in the same run)" % lb)
PY
done
