#!/bin/sh
# Theorem 3.1 end to end, with picosat as the oracle: for random 3-CNF near
# the satisfiability threshold and the SATLIB uf20 files,
#   picosat SAT   => Lemma 3.4's witness has makespan <= 3, the exact ILP
#                    optimum is <= 3, and `hta decode` of the ILP's
#                    assignment is a model (checked by picosat again);
#   picosat UNSAT => the exact ILP optimum is > 3.
# Prints one "ok"/"FAIL" line per formula and "N passed, N failed".
# usage: tests/sat/run.sh HTA TMPDIR [PART/PARTS] (tests/part.sh)
set -u
hta=$1
tmp=$2
part=${3:-0/1}
pass=0
fail=0
. "$(dirname "$0")/../part.sh"
check() { # formula name
    f=$1
    name=$2
    sed '/^%/,$d' "$f" >"$tmp/p.cnf" # picosat does not read SATLIB's '%'
    picosat "$tmp/p.cnf" >"$tmp/model" 2>&1
    verdict=$(head -n 1 "$tmp/model")
    "$hta" gen sat "$f" -o "$tmp/inst" 2>/dev/null || { echo "FAIL $name: gen sat"; fail=$((fail + 1)); return; }
    "$hta" solve "$tmp/inst" --algo ilp --time-limit 120 --json -o "$tmp/a" >"$tmp/json" 2>&1
    status=$(sed -n 's/.*"algorithm": "ilp", "status": "\([a-z_]*\)", "makespan": \([0-9.]*\).*/\1 \2/p' "$tmp/json")
    case "$verdict" in
    "s SATISFIABLE")
        "$hta" gen sat "$f" --model "$tmp/model" -o "$tmp/w" &&
            span=$("$hta" eval "$tmp/inst" "$tmp/w" | sed -n 's/^makespan \([0-9.]*\).*/\1/p') &&
            [ "$span" -le 3 ] &&
            [ "$status" = "optimal 3" ] &&
            "$hta" decode "$f" "$tmp/a" >"$tmp/decoded" &&
            units=$(sed -n 's/^v //p' "$tmp/decoded" | tr ' ' '\n' | grep -v '^0*$') &&
            { printf '%s\n' "$units" | awk -v f="$tmp/p.cnf" '
                { u[NR] = $1 }
                END {
                    while ((getline line < f) > 0) {
                        if (line ~ /^p cnf/) { split(line, h, " +"); printf "p cnf %d %d\n", h[3], h[4] + NR }
                        else print line
                    }
                    for (i = 1; i <= NR; i++) print u[i], 0
                }'; } >"$tmp/check.cnf" &&
            picosat "$tmp/check.cnf" 2>/dev/null | head -n 1 | grep -qx "s SATISFIABLE"
        ok=$?
        ;;
    "s UNSATISFIABLE")
        [ "$status" = "optimal 4" ]
        ok=$?
        ;;
    *) ok=1 ;;
    esac
    if [ $ok -eq 0 ]; then
        pass=$((pass + 1))
        echo "ok   $name: ${verdict#s } and ilp $status"
    else
        fail=$((fail + 1))
        echo "FAIL $name: picosat '$verdict', ilp '$status'"
    fi
}
for v in 5 6 7 8 9 10 11 12; do
    c=$((v * 426 / 100))
    for seed in 1 2; do
        mine || continue
        "$hta" gen random3sat --vars "$v" --clauses "$c" --seed "$seed" -o "$tmp/r.cnf"
        check "$tmp/r.cnf" "random3sat v=$v c=$c seed=$seed"
    done
done
for f in uf20-01 uf20-02 uf20-03; do
    mine || continue
    check "tests/data/satlib/$f.cnf" "$f"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
