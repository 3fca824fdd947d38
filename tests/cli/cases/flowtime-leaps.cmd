# Leaping from event to event and stepping slot by slot print the same
# report, both scenarios, on long jobs (most slots leapt over).
cd "$TMP" && $HTA gen jobs --jobs 150 --machines 4 --load 0.9 --map exp:300 --reduce exp:200 --tasks 3 --seed 7 -o j.txt &&
for m in preemptive non-preemptive; do
    $HTA flowtime j.txt -n 4 --mode $m --no-timing --json -q >leap.json &&
    $HTA flowtime j.txt -n 4 --mode $m --no-timing --json -q --stepwise >step.json &&
    cmp leap.json step.json && echo "$m: the same report" && grep -o '"total": [0-9]*' leap.json
done
