#!/bin/sh
# Every --json output is valid UTF-8 and valid against its schema
# (src/cli/doc/*.schema.json, installed beside the man page), checked by a
# strict parser and python3-jsonschema; a file name that is not UTF-8
# still gives valid UTF-8.
# usage: tests/json/run.sh HTA TMPDIR; ends with "N passed, N failed".
set -u
HTA=$1
tmp=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
doc=$root/src/cli/doc
pass=0
fail=0
cd "$root" || exit 1
# Debian's python3-jsonschema (what CI and a fresh box install) when it
# is there: it resolves references differently from newer releases.
PY=python3
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null && PY=/usr/bin/python3
validate() { # name schema file
    if "$PY" - "$2" "$3" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1], encoding="utf-8"))
raw = open(sys.argv[2], "rb").read()
doc = json.loads(raw.decode("utf-8", "strict"))
jsonschema.validators.validator_for(schema).check_schema(schema)
jsonschema.validate(doc, schema, cls=jsonschema.validators.validator_for(schema))
PY
    then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL json: $1"; fi
}
n=0
run() { # schema command...
    schema=$1
    shift
    n=$((n + 1))
    "$@" >"$tmp/out$n.json" 2>/dev/null
    validate "$*" "$doc/$schema.schema.json" "$tmp/out$n.json"
}
head -400 instances/swim/FB-2010_samples_24_times_1hr_0.tsv >"$tmp/swim.tsv"
run solve "$HTA" solve instances/example.txt --algo rr,fsy,ilp,brute --json
run solve "$HTA" solve instances/zipf-1k.txt --algo rr,fsy,ilp --json
run solve "$HTA" solve instances/example.txt --algo ilp --ilp-max-tasks 1 --json
run solve "$HTA" solve instances/example.txt --algo rr --rr-runs 5 --json
run solve "$HTA" solve instances/zipf-1k.txt --algo fsy,close --json
run solve "$HTA" solve instances/sat-uf20-01.txt --algo close --json
printf 'p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n' >"$tmp/u2.cnf"
"$HTA" gen sat "$tmp/u2.cnf" -o "$tmp/u2.txt"
run solve "$HTA" solve "$tmp/u2.txt" --algo fsy,sat --json
run solve "$HTA" solve "$tmp/u2.txt" --algo rr,exact --json
# a file name that is not UTF-8 (0xff), and one with quotes and a tab
bad=$(printf "$tmp/na\377me \"q\"\t.txt")
cp instances/example.txt "$bad"
run solve "$HTA" solve "$bad" --json
run eval "$HTA" eval instances/example.txt tests/data/example.asg --json
# N locality levels: per-level counts in every row, skipped two-level rows
run solve "$HTA" solve instances/racks-tiny.txt --algo rr,hadoop,fsy,exact --json
run solve "$HTA" solve instances/hdfs-pods-1k.txt --algo hadoop,fsy,ilp --json
"$HTA" solve instances/racks-tiny.txt --algo brute -o "$tmp/rt.asg" >/dev/null
run eval "$HTA" eval instances/racks-tiny.txt "$tmp/rt.asg" --json
run eval "$HTA" eval instances/racks-tiny.txt "$tmp/rt.asg" --exact --json
run capacity "$HTA" capacity tests/data/wang10.txt --json
run capacity "$HTA" capacity tests/data/wang10.txt --method lp --json
run capacity "$HTA" capacity --from-instance instances/example.txt --rate 0.1 --rates 1,0.5 --json
"$HTA" gen cluster gbpandas --servers 100 --types 60 --topology 10,5 --seed 2 -o "$tmp/g.txt"
run capacity "$HTA" capacity "$tmp/g.txt" --json
"$HTA" gen jobs --jobs 10 --machines 2 --map exp:2 --reduce exp:2 --seed 3 --tasks 2 -o "$tmp/j.txt"
run flowtime "$HTA" flowtime "$tmp/j.txt" -n 2 --json --classes
run flowtime "$HTA" flowtime "$tmp/j.txt" -n 2 --mode non-preemptive --json
run flowtime "$HTA" flowtime "$tmp/j.txt" --sweep 0.5,0.9,0.2 --json
run flowtime "$HTA" flowtime "$tmp/j.txt" -n 1 --exact-max-vars 1 --json
run sim "$HTA" sim tests/data/wang10.txt --slots 3000 --load 0.9 --json
run sim "$HTA" sim "$tmp/g.txt" --slots 2000 --service lognormal --slots-per-unit 5 --json
run sim "$HTA" sim tests/data/wang10.txt --slots 3000 --arrivals jobs --job-size exp:3 --load 0.5 --json
run sim "$HTA" sim tests/data/wang10.txt --slots 2000 --sweep 0.5,1.5,0.5 --policy jsq-maxweight,gb-pandas --json
run sim "$HTA" sim tests/data/wang10.txt --slots 2000 --load 3 --max-backlog 500 --json
run sim "$HTA" sim tests/data/wang10.txt --slots 2000 --batches 4 --json
# a policy of one's own: its name in the rows (hta-policy(7))
${CC:-cc} -std=c11 -O2 -fPIC -shared -Iinclude \
    src/online/examples/random_local.c -o "$tmp/rl.so"
run sim "$HTA" sim tests/data/wang10.txt --slots 2000 --policy-lib "$tmp/rl.so" --json
run reduce-place "$HTA" reduce-place --jobs 2000 --json
run reduce-place "$HTA" reduce-place instances/slots/fig1.txt -K 2 --reducers fixed:4 --jobs 2000 --sweep 0.2,0.6,0.2 --policy rhc,threshold --json
run reduce-place "$HTA" reduce-place --jobs-trace "$tmp/swim.tsv" --batches 3 --json
echo "$pass passed, $fail failed"
