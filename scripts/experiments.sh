#!/bin/sh
# Round robin vs fsy vs the optimum (exact ILP) as the replication factor
# grows 1..5 and as w_rem/w_loc grows: mean and worst makespan ratio over
# seeds, a table and a gnuplot plot.  Theorem 4.2/4.3 predict a
# multiplicative gap for round robin (up to w_rem/w_loc), Theorem 5.4 an
# additive one for fsy.
# usage: scripts/experiments.sh [BUILD] [SEEDS]   (writes BUILD/experiments/)
set -eu
build=${1:-build}
seeds=${2:-10}
hta=$build/hta
out=$build/experiments
mkdir -p "$out"
ratios() { # args for hta gen hdfs: prints "rr/opt fsy/opt" per seed
    for seed in $(seq "$seeds"); do
        "$hta" gen hdfs "$@" --seed "$seed" -o "$out/i.txt"
        "$hta" solve "$out/i.txt" --algo rr,fsy,ilp --time-limit 20 --json |
            awk '/"algorithm": "rr"/ { match($0, /"makespan": [0-9.e+-]+/); rr = substr($0, RSTART + 12, RLENGTH - 12) }
                 /"algorithm": "fsy"/ { match($0, /"makespan": [0-9.e+-]+/); f = substr($0, RSTART + 12, RLENGTH - 12) }
                 /"algorithm": "ilp"/ { match($0, /"makespan": [0-9.e+-]+/); o = substr($0, RSTART + 12, RLENGTH - 12) }
                 END { print rr / o, f / o }'
    done
}
summary() { # x: prints "x mean_rr max_rr mean_fsy max_fsy"
    awk -v x="$1" '{ r += $1; f += $2; if ($1 > mr) mr = $1; if ($2 > mf) mf = $2; n++ }
        END { printf "%s %.4f %.4f %.4f %.4f\n", x, r / n, mr, f / n, mf }'
}
echo "# replicas  rr/opt mean  max  fsy/opt mean  max   (120 tasks, 12 servers, Zipf 1, w_rem 3, $seeds seeds)" >"$out/replication.dat"
for d in 1 2 3 4 5; do
    ratios --tasks 120 --servers 12 --replicas "$d" --zipf 1 | summary "$d" >>"$out/replication.dat"
done
echo "# w_rem/w_loc  rr/opt mean  max  fsy/opt mean  max   (120 tasks, 12 servers, Zipf 1, 2 replicas)" >"$out/wrem.dat"
for c in 1.5 2 3 5 8; do
    ratios --tasks 120 --servers 12 --replicas 2 --zipf 1 --w-rem "$c" | summary "$c" >>"$out/wrem.dat"
done
cat "$out/replication.dat" "$out/wrem.dat"
gnuplot <<GP
set terminal pngcairo size 1200,500 noenhanced
set output "$out/rr-vs-fsy.png"
set multiplot layout 1,2 title "makespan / optimum (exact ILP), 120 tasks on 12 servers, Zipf(1) placements"
set grid
set key top right
set xlabel "replicas per block (w_rem/w_loc = 3)"
set ylabel "makespan / optimum"
plot "$out/replication.dat" using 1:2 with linespoints title "round robin, mean", \
     "" using 1:3 with linespoints dashtype 2 title "round robin, worst", \
     "" using 1:4 with linespoints title "fsy, mean", \
     "" using 1:5 with linespoints dashtype 2 title "fsy, worst"
set xlabel "w_rem / w_loc (2 replicas)"
plot "$out/wrem.dat" using 1:2 with linespoints title "round robin, mean", \
     "" using 1:3 with linespoints dashtype 2 title "round robin, worst", \
     "" using 1:4 with linespoints title "fsy, mean", \
     "" using 1:5 with linespoints dashtype 2 title "fsy, worst", \
     x title "w_rem/w_loc (Theorem 4.2's bound)" dashtype 3
unset multiplot
GP
echo "plot: $out/rr-vs-fsy.png"
