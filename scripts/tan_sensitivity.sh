#!/bin/sh
# Tan, Meng, Zhang (INFOCOM 2013), Fig. 9: receding horizon saves "up to
# 22%" over greedy.  What the paper leaves open, swept: the law of the
# intermediate data X (uniform 1..100, exponential of mean 50, Pareto of
# shape 1.5 and 1.2 from 10), the scarcity of the slots (200 or 1000
# i.i.d. uniform costs for K = 10 jobs of up to 10 ReduceTasks: 2 or 10
# times what the jobs can hold) and the arrival rate lambda 0.2..0.9;
# JOBS jobs a point, one seed (batch-means intervals, paired on one
# sample path).  Writes BUILD/experiments/tan-sensitivity.{dat,svg}: the
# saving of rhc over greedy in percent with its 95% interval, and the
# points where it reaches 22%.
# usage: scripts/tan_sensitivity.sh [BUILD] [JOBS]
set -eu
build=${1:-build}
jobs=${2:-100000}
hta=$build/hta
out=$build/experiments
runs=$out/tan-runs
mkdir -p "$runs"
laws="uniform:1:100 exp:50 pareto:1.5:10 pareto:1.2:10"
: >"$runs/cmds"
for x in $laws; do
    for s in 200 1000; do
        echo "$hta reduce-place --threads 1 --data $x --slots $s -K 10 --sweep 0.2,0.9,0.1 --jobs $jobs -p random,greedy,rhc --json --no-timing >$runs/$x-$s.json" >>"$runs/cmds"
    done
done
sh "$(dirname "$0")/run_parallel.sh" "$runs/cmds"
python3 - "$runs" "$laws" >"$out/tan-sensitivity.dat" <<'PY'
import json, sys
runs, laws = sys.argv[1], sys.argv[2].split()
print("# row law slots lambda rhc_vs_greedy_pct ci95")
row = 0
best = []
for x in laws:
    for s in (200, 1000):
        for r in json.load(open("%s/%s-%d.json" % (runs, x, s))):
            p = [q for q in r["policies"] if q["policy"] == "rhc"][0]
            print(row, x, s, "%.1f" % r["lambda"], "%.2f" % p["vs_greedy"],
                  "%.2f" % p["vs_greedy_ci"])
            if p["vs_greedy"] >= 22:
                best.append("%s, %d slots, lambda %.1f: %.1f +- %.1f%%" %
                            (x, s, r["lambda"], p["vs_greedy"], p["vs_greedy_ci"]))
        row += 1
print("# at least 22%%: %s" % ("; ".join(best) if best else "nowhere"))
PY
cat "$out/tan-sensitivity.dat"
if command -v gnuplot >/dev/null; then
    labels=$(i=0; for x in $laws; do for s in 200 1000; do printf '"%s, %s slots" %d, ' "$x" "$s" $i; i=$((i + 1)); done; done | sed 's/, $//')
    gnuplot <<GP
set terminal svg size 900,500 noenhanced
set output "$out/tan-sensitivity.svg"
set title "rhc's saving over greedy (%), K = 10, R uniform 1..10; the paper: up to 22"
set xlabel "lambda"
set ytics ($labels)
set yrange [-0.5:7.5]
set xrange [0.15:0.95]
set cblabel "saving %"
set cbrange [-10:30]
set palette defined (-5 "white", 0 "light-blue", 22 "orange", 35 "red")
plot "$out/tan-sensitivity.dat" using 4:1:5 with image notitle, \
     "" using 4:1:(sprintf("%.0f+-%.0f", \$5, \$6)) with labels font ",8" notitle
GP
    echo "plot: $out/tan-sensitivity.svg"
fi
