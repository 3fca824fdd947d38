#!/bin/sh
# Checks the recorded values of the bundled suite (instances/SUITE.tsv):
# rr, fsy, best makespan, lower bound and proof status of
# `hta solve --algo rr,fsy,ilp`.  Lines starting with '@' are generated
# (too large to commit): the same seed must give the recorded sha256, and
# only rr and fsy run on them.  Ends with "N passed, N failed".
# usage: tests/instances/check.sh HTA TMPDIR [PART/PARTS] (tests/part.sh)
set -u
hta=$1
tmp=$2
part=${3:-0/1}
pass=0
fail=0
. "$(dirname "$0")/../part.sh"
tab=$(printf '\t')
while IFS="$tab" read -r file origin tasks servers rr fsy best lb proven; do
    case "$file" in ''|'#'*) continue ;; esac
    mine || continue
    algos=rr,fsy,ilp
    limit="--time-limit 60"
    path=instances/$file
    if [ "${file#@}" != "$file" ]; then
        file=${file#@}
        path=$tmp/$file
        # shellcheck disable=SC2086
        "$hta" gen hdfs ${origin%|*} -o "$path"
        sum=$(sha256sum "$path" | cut -c1-16)
        if [ "$sum" != "${origin#*|}" ]; then
            echo "FAIL $file: sha256 $sum, recorded ${origin#*|}"
            fail=$((fail + 1))
            continue
        fi
        algos=rr,fsy
        limit=""
    fi
    got=$("$hta" solve "$path" --algo "$algos" $limit --json |
        awk '
            /"instance"/ { match($0, /"tasks": [0-9]+/); t = substr($0, RSTART + 9, RLENGTH - 9)
                           match($0, /"servers": [0-9]+/); s = substr($0, RSTART + 11, RLENGTH - 11) }
            /"lower_bound"/ { match($0, /"lower_bound": [0-9.e+-]+/); lb = substr($0, RSTART + 15, RLENGTH - 15) }
            /"algorithm": "rr"/ { match($0, /"makespan": [0-9.e+-]+/); rr = substr($0, RSTART + 12, RLENGTH - 12) }
            /"algorithm": "fsy"/ { match($0, /"makespan": [0-9.e+-]+/); fsy = substr($0, RSTART + 12, RLENGTH - 12) }
            /"best"/ { match($0, /"makespan": [0-9.e+-]+/); best = substr($0, RSTART + 12, RLENGTH - 12)
                       proven = ($0 ~ /"proven_optimal": true/) ? "true" : "false" }
            END { printf "%s %s %s %s %s %s %s", t, s, rr, fsy, best, lb, proven }')
    want="$tasks $servers $rr $fsy $best $lb $proven"
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $file: got '$got', recorded '$want'"
    fi
done < instances/SUITE.tsv
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
