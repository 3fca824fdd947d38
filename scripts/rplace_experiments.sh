#!/bin/sh
# ReduceTask placement against Tan, Meng, Zhang (INFOCOM 2013), Section
# V-B, Fig. 9: 1000 reduce slots with costs Uniform[1, 100], 50,000 jobs,
# mu = 1, lambda 0.2 .. 0.6, R uniform on 1..10, X uniform on 1..100;
# the savings of greedy, threshold, rhc and rhc-adaptive against random
# and against greedy.  What the paper leaves open is swept one at a time
# around the base point (K = 10, w = 100, lambda 0.6):
# 1. the base sweep over lambda;
# 2. K, the most jobs holding slots (2, 5, 10, 50, 100);
# 3. w, rhc-adaptive's window (1, 10, 100, 1000);
# 4. the laws of X and R (X exponential or Pareto, R fixed);
# 5. the costs: Uniform[0, 100], and a topology of uneven racks;
# 6. the SWIM Facebook days (X = shuffle GiB, R = ceil(shuffle / 1 GiB)
#    at most 100), times scaled to lambda 0.3 and 0.6.
# Every point is an independent run: scripts/run_parallel.sh runs them
# through GNU parallel on this host's processors, or over hosts with
# HTA_HOSTS=host1,host2 (the repository at the same path on each).
# usage: scripts/rplace_experiments.sh [BUILD] [SEEDS]   (writes
# BUILD/experiments/rplace-*; SEEDS independent seeds per point, default 5)
set -eu
build=${1:-build}
seeds=${2:-5}
hta=$build/hta
out=$build/experiments
runs=$out/rplace-runs
mkdir -p "$runs"
run_all() { # the command file: one run a line (scripts/run_parallel.sh)
    sh "$(dirname "$0")/run_parallel.sh" "$1"
}
: >"$runs/cmds"
point() { # name args...: one run per seed
    name=$1
    shift
    for s in $(seq "$seeds"); do
        echo "$hta reduce-place --threads 1 $* --seed $s --json --no-timing >$runs/$name-s$s.json" >>"$runs/cmds"
    done
}
# 1. the base sweep
for l in 0.2 0.3 0.4 0.5 0.6; do
    point "base-$l" --lambda $l
done
# 2. K
for K in 2 5 10 50 100; do
    point "K-$K" --lambda 0.6 -K $K
done
# the plot's curves: each assumption changed alone, over lambda
for l in 0.2 0.3 0.4 0.5 0.6; do
    point "curve-Xexp-$l" --lambda $l --data exp:50 --policy random,greedy,rhc,rhc-adaptive
    point "curve-costs0-$l" --lambda $l --costs 0,100 --policy random,greedy,rhc,rhc-adaptive
    point "curve-R5-$l" --lambda $l --reducers fixed:5 --policy random,greedy,rhc,rhc-adaptive
    point "curve-K2-$l" --lambda $l -K 2 --policy random,greedy,threshold
    point "curve-K5-$l" --lambda $l -K 5 --policy random,greedy,threshold
done
# 3. the window
for w in 1 10 100 1000; do
    point "w-$w" --lambda 0.6 --window $w --policy random,greedy,rhc,rhc-adaptive
done
# 4. the laws of X and R
point "X-exp" --lambda 0.6 --data exp:50 --policy random,greedy,rhc,rhc-adaptive
point "X-pareto" --lambda 0.6 --data pareto:1.5:20 --policy random,greedy,rhc,rhc-adaptive
point "R-fixed5" --lambda 0.6 --reducers fixed:5
# 5. the costs
point "costs-0" --lambda 0.6 --costs 0,100
python3 - "$out/rplace-topology.txt" <<'PY'
import random, sys
random.seed(7)
# 500 nodes of 2 slots in racks of 2..40 nodes, racks in pods of 4
f = open(sys.argv[1], "w")
f.write("# 500 nodes, 2 slots each, uneven racks in pods of 4 racks\nhta-slots 1\nhops 1 2 3\n")
v = r = 0
while v < 500:
    size = min(random.randint(2, 40), 500 - v)
    for _ in range(size):
        f.write("node n%d 2 r%d p%d\n" % (v, r, r // 4))
        v += 1
    r += 1
PY
point "topology" "$out/rplace-topology.txt" --lambda 0.6
# 6. the SWIM days
for day in 2009 2010; do
    for l in 0.3 0.6; do
        point "swim$day-$l" --jobs-trace instances/swim/FB-${day}_samples_24_times_1hr_0.tsv --lambda $l
    done
done
run_all "$runs/cmds"
# Summaries: per point and policy, the mean over seeds of the savings
# (each run's own 95% half-width, the largest over seeds, in brackets).
python3 - "$runs" "$out" "$seeds" <<'PY'
import glob, json, os, sys
runs, out, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
pol = ["greedy", "threshold", "rhc", "rhc-adaptive"]
def load(name):
    rs = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(runs, name + "-s*.json")))]
    return rs
def cell(rs, p, key):
    v = [q[key] for r in rs for q in r["policies"] if q["policy"] == p]
    c = [q[key + "_ci"] for r in rs for q in r["policies"] if q["policy"] == p]
    if not v:
        return "-"
    return "%.2f (%.2f)" % (sum(v) / len(v), max(c))
def table(title, names, labels, f):
    f.write("\n%s\n\n| point | N | " % title + " | ".join(
        "%s vs random | %s vs greedy" % (p, p) for p in pol) + " |\n")
    f.write("|---" * (2 + 2 * len(pol)) + "|\n")
    for name, label in zip(names, labels):
        rs = load(name)
        n = sum(r["number"] for r in rs) / len(rs)
        f.write("| %s | %.2f | " % (label, n) + " | ".join(
            "%s | %s" % (cell(rs, p, "vs_random"), cell(rs, p, "vs_greedy"))
            for p in pol) + " |\n")
with open(os.path.join(out, "rplace.md"), "w") as f:
    f.write("Savings in percent, mean of %d seeds (largest 95%% half-width); N = mean jobs in system\n" % seeds)
    ls = ["0.2", "0.3", "0.4", "0.5", "0.6"]
    table("1. Fig. 9 set-up (K = 10, w = 100), lambda", ["base-" + l for l in ls], ls, f)
    Ks = ["2", "5", "10", "50", "100"]
    table("2. K at lambda 0.6", ["K-" + k for k in Ks], Ks, f)
    ws = ["1", "10", "100", "1000"]
    table("3. window w at lambda 0.6", ["w-" + w for w in ws], ws, f)
    table("4. laws of X and R at lambda 0.6", ["base-0.6", "X-exp", "X-pareto", "R-fixed5"],
          ["X uniform:1:100", "X exp:50", "X pareto:1.5:20", "R fixed:5"], f)
    table("5. costs at lambda 0.6", ["base-0.6", "costs-0", "topology"],
          ["Uniform[1,100]", "Uniform[0,100]", "topology, uneven racks"], f)
    table("6. SWIM days (1000 slots Uniform[1,100], K = 10)",
          ["swim2009-0.3", "swim2009-0.6", "swim2010-0.3", "swim2010-0.6"],
          ["FB-2009, lambda 0.3", "FB-2009, lambda 0.6", "FB-2010, lambda 0.3", "FB-2010, lambda 0.6"], f)
def mean(name, p, key):
    v = [q[key] for r in load(name) for q in r["policies"] if q["policy"] == p]
    return sum(v) / len(v)
with open(os.path.join(out, "rplace-curves.dat"), "w") as f:
    f.write("# lambda: rhc vs greedy (base, X exp:50, costs [0,100], R fixed:5); threshold vs greedy (K = 2, 5, 10)\n")
    for l in ["0.2", "0.3", "0.4", "0.5", "0.6"]:
        f.write("%s %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n" % (
            l, mean("base-" + l, "rhc", "vs_greedy"), mean("curve-Xexp-" + l, "rhc", "vs_greedy"),
            mean("curve-costs0-" + l, "rhc", "vs_greedy"), mean("curve-R5-" + l, "rhc", "vs_greedy"),
            mean("curve-K2-" + l, "threshold", "vs_greedy"), mean("curve-K5-" + l, "threshold", "vs_greedy"),
            mean("base-" + l, "threshold", "vs_greedy")))
with open(os.path.join(out, "rplace-base.dat"), "w") as f:
    f.write("# lambda " + " ".join("%s_vs_random %s_vs_greedy" % (p, p) for p in pol) + "\n")
    for l in ["0.2", "0.3", "0.4", "0.5", "0.6"]:
        rs = load("base-" + l)
        row = [l]
        for p in pol:
            for key in ("vs_random", "vs_greedy"):
                v = [q[key] for r in rs for q in r["policies"] if q["policy"] == p]
                row.append("%.4f" % (sum(v) / len(v)))
        f.write(" ".join(row) + "\n")
PY
cat "$out/rplace.md"
if command -v gnuplot >/dev/null; then
    gnuplot <<EOF
set terminal pngcairo size 1350,420 noenhanced
set output "$out/rplace.png"
set multiplot layout 1,3
set xlabel "job arrival rate lambda (mu = 1)"
set key bottom right
set grid
set ylabel "saving against random (%)"
plot "$out/rplace-base.dat" using 1:2 with linespoints title "greedy", \
     "" using 1:4 with linespoints title "threshold (K = 10)", \
     "" using 1:6 with linespoints title "rhc", \
     "" using 1:8 with linespoints title "rhc-adaptive (w = 100)"
set ylabel "saving against greedy (%)"
set key top left
set title "rhc, one assumption changed at a time"
set key inside left top Left reverse font ",9"
set yrange [-1:*]
plot "$out/rplace-curves.dat" using 1:2 with linespoints title "base: X U{1..100}, R U{1..10}, costs U[1,100]", \
     "" using 1:3 with linespoints title "X exp:50", \
     "" using 1:4 with linespoints title "costs U[0,100]", \
     "" using 1:5 with linespoints title "R fixed:5", \
     "$out/rplace-base.dat" using 1:9 with linespoints title "rhc-adaptive, base"
set title "threshold by K (jobs holding slots at most)"
set key bottom right
set yrange [*:*]
plot "$out/rplace-curves.dat" using 1:6 with linespoints title "K = 2", \
     "" using 1:7 with linespoints title "K = 5", \
     "" using 1:8 with linespoints title "K = 10"
unset multiplot
EOF
    echo "plot: $out/rplace.png"
fi
