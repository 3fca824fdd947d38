#!/bin/sh
# The paper's w_rem(r) on racks (issue 70), side by side with HiGHS:
# HDFS rack-aware placements (hta gen hdfs --policy rack-aware), racks of
# 10 servers, m / n = 10 tasks per server, Zipf 1.4, 1.8 and 2.2, remote
# cost 3 + b r with b = 0.0005 and 0.01, three levels (w_rack 1.5) and
# four (pods of 10 racks, w_pod 2), seed 7; 10^3, 10^4 and 10^5 tasks,
# and 10^6 at Zipf 1.8.  hta solve --algo fsy,exact with the time limit
# (status: optimal, or open with the bound), wall seconds, best; then
# HiGHS 1.2 through scipy.optimize.milp on an independent model of the
# same file (scripts/highs_top.py, written from hta-formats(5)) where its
# model has at most 2·10^5 columns (10^3 tasks), with the same time
# limit, and the ratio of the two times where both prove.  Figures only,
# nothing asserted.
# usage: scripts/bench_exact_top.sh [BUILD] [SECONDS]
# BENCH_EXACT_ONLY=REGEX runs only the instances whose name matches.
set -u
build=${1:-build}
limit=${2:-60}
hta=$build/hta
dir=$build/bench/exact-top
mkdir -p "$dir"
here=$(dirname "$0")
highs=0
py=python3 # the first Python with SciPy (Debian's, where another comes first)
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import scipy.optimize' 2>/dev/null; then
        py=$p
        highs=1
        break
    fi
done

echo "w_rem(r) on racks: hta fsy,exact against HiGHS (scipy.optimize.milp), ${limit}s each"
[ $highs = 1 ] || echo "(scipy is not installed: HiGHS not run)"
printf '%-28s %-22s %8s %8s | %-11s %8s %8s %8s | %s\n' instance "hta" seconds best HiGHS seconds best bound "HiGHS/hta"
for m in 1000 10000 100000 1000000; do
    n=$((m / 10))
    for z in 1.4 1.8 2.2; do
        [ $m = 1000000 ] && [ $z != 1.8 ] && continue
        for b in 0.0005 0.01; do
            for L in 3 4; do
                name=top-$m-z$z-b$b-L$L
                [ -n "${BENCH_EXACT_ONLY:-}" ] &&
                    ! printf '%s' "$name" | grep -Eq "$BENCH_EXACT_ONLY" && continue
                f=$dir/$name.txt
                pods=""
                [ $L = 4 ] && pods="--pods $((n / 100 > 0 ? n / 100 : 1)) --w-pod 2"
                # shellcheck disable=SC2086
                [ -f "$f" ] || "$hta" gen hdfs --tasks $m --servers $n --replicas 3 --zipf $z --racks $((n / 10)) --policy rack-aware --w-rem-affine 3,$b --w-rack 1.5 $pods --seed 7 -o "$f"
                start=$(date +%s.%N)
                out=$(timeout $((limit * 3 + 30)) "$hta" solve "$f" --algo fsy,exact --time-limit "$limit" --json -q 2>/dev/null)
                end=$(date +%s.%N)
                res=$(printf '%s' "$out" | python3 "$here/solve_status.py" 2>/dev/null)
                set -- ${res:-error -}
                hsec=$(awk "BEGIN { print $end - $start }")
                printf '%-28s %-22s %8.2f %8s | ' "$name" "$1" "$hsec" "$2"
                hst=$1
                if [ $highs = 1 ] && [ $m -le 1000 ]; then
                    set -- $(timeout $((limit * 3 + 60)) "$py" "$here/highs_top.py" "$f" "$limit" 200000 2>/dev/null || echo error - - -)
                    ratio=-
                    case $hst in optimal*)
                        [ "$1" = optimal ] && ratio=$(awk "BEGIN { printf \"%.0fx\", $2 / ($hsec > 0.001 ? $hsec : 0.001) }") ;;
                    esac
                    printf '%-11s %8s %8s %8s | %s\n' "$1" "$2" "$3" "$4" "$ratio"
                else
                    printf '%-11s %8s %8s %8s | %s\n' "not run" - - - -
                fi
            done
        done
    done
done
