#!/bin/sh
# Exact-solver benchmark: which instances are proven optimal within a time
# limit, by hta (compact model + fsy incumbent + flow bound), by plain GLPK
# on the compact model, by plain GLPK on the naive m*n model, and by
# COIN-OR CBC on the compact model written by --write-lp.
# Prints a table; asserts nothing.  usage: scripts/bench_ilp.sh [BUILD] [SECONDS]
set -u
build=${1:-build}
limit=${2:-10}
hta=$build/hta
dir=$build/bench/ilp
mkdir -p "$dir"

# status and wall seconds of one hta run
run_hta() { # file args...
    f=$1
    shift
    start=$(date +%s.%N)
    out=$(timeout $((limit * 3 + 30)) "$hta" solve "$f" --algo ilp --time-limit "$limit" --json "$@" 2>/dev/null)
    end=$(date +%s.%N)
    st=$(printf '%s' "$out" | sed -n 's/.*"algorithm": "ilp", "status": "\([a-z_]*\)".*/\1/p')
    span=$(printf '%s' "$out" | sed -n 's/.*"algorithm": "ilp", "status": "[a-z_]*", "makespan": \([0-9.e+-]*\).*/\1/p')
    printf '%-10s %6.2f %-6s' "${st:-error}" "$(awk "BEGIN { print $end - $start }")" "${span:--}"
}

run_cbc() { # file
    lp=$dir/cbc.lp
    rm -f "$lp"
    "$hta" solve "$1" --algo ilp --ilp-plain --time-limit 0 --write-lp "$lp" >/dev/null 2>&1
    start=$(date +%s.%N)
    out=$(timeout $((limit * 12 + 30)) cbc "$lp" -sec "$limit" -solve -quit 2>&1)
    end=$(date +%s.%N)
    case "$out" in
    *"Optimal solution found"*) st=optimal ;;
    *"Stopped on time"*) st=time_limit ;;
    *infeasible*) st=infeasible? ;;
    *) st=other ;;
    esac
    obj=$(printf '%s' "$out" | sed -n 's/^Objective value: *\([0-9.e+-]*\).*/\1/p' | head -n 1)
    printf '%-10s %6.2f %-6s' "$st" "$(awk "BEGIN { print $end - $start }")" "${obj:--}"
}

echo "time limit ${limit}s per run; status, wall seconds, makespan"
printf '%-28s %-24s %-24s %-24s %-24s\n' instance "hta (default)" "glpk plain compact" "glpk plain naive" "cbc compact"
for spec in "100 10 0" "1000 100 0" "10000 100 0" "100 10 1" "1000 100 1" "3000 30 1" "10000 100 1" "1000 100 1.5" "3000 100 1.5" "10000 300 1.5"; do
    set -- $spec
    for c in 3 1.5; do
        name=m$1-n$2-zipf$3-c$c
        f=$dir/$name.txt
        [ -f "$f" ] || "$hta" gen hdfs --tasks "$1" --servers "$2" --zipf "$3" --w-rem "$c" --seed 1 -o "$f"
        printf '%-28s ' "$name"
        run_hta "$f"; printf ' | '
        run_hta "$f" --ilp-plain; printf ' | '
        if [ "$(( $1 * $2 ))" -le 1000000 ]; then run_hta "$f" --ilp-plain --ilp-naive; else printf '%-24s' "(m*n > 10^6)"; fi
        printf ' | '
        run_cbc "$f"
        echo
    done
done
