#!/bin/sh
# Reproduces the capacity results of the papers and plots them (gnuplot):
#  - Wang et al., Section V: 1000 machines, data uniformly on 800,
#    alpha = 0.8, gamma = 0.2: rho* against the total arrival rate; the
#    boundary sits at 800*0.8 + 200*0.2 = 680 tasks per slot;
#  - GB-PANDAS, Section 5: 5000 servers, racks of 50, 10 racks per pod,
#    rates 1, 0.9, 0.6, 0.25: rho* against the mean arrival rate per server.
# usage: scripts/capacity_plots.sh [BUILD]   (writes BUILD/experiments/)
set -eu
build=${1:-build}
hta=$build/hta
out=$build/experiments
mkdir -p "$out"
rho() { "$hta" capacity "$1" --json | sed -n 's/.*"rho": \([0-9.e+-]*\).*/\1/p'; }

: >"$out/wang.dat"
# 21 points from well inside to past the boundary (680)
for total in $(seq 400 20 800); do
    "$hta" gen cluster wang --total "$total" -o "$out/wang.txt"
    echo "$total $(rho "$out/wang.txt")" >>"$out/wang.dat"
done
echo "Wang et al. (1000 machines, data on 800): total rate, rho*"
cat "$out/wang.dat"

: >"$out/gbpandas.dat"
# 24 points up to and past the boundary (about 0.994 per server); the
# placement (seed 1) is the same at every load
for load in $(seq 0.05 0.05 1.2); do
    "$hta" gen cluster gbpandas --load "$load" --seed 1 -o "$out/gbpandas.txt"
    echo "$load $(rho "$out/gbpandas.txt")" >>"$out/gbpandas.dat"
done
echo "GB-PANDAS (5000 servers, 4 levels): mean arrival rate per server, rho*"
cat "$out/gbpandas.dat"
awk '{ printf "capacity: %.4f tasks per server per slot (load / rho*)\n", $1 / $2 }' \
    "$out/gbpandas.dat" | tail -n 1
awk '$2 < 1 { inside++ } $2 > 1 { outside++ } END { printf "%d points inside, %d outside the region\n", inside, outside }' \
    "$out/gbpandas.dat"

gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set output "$out/wang.png"
set title "Capacity region (Wang et al.): 1000 machines, data on 800, alpha 0.8, gamma 0.2"
set xlabel "total arrival rate (tasks per slot)"
set ylabel "rho* (max server utilisation)"
set grid
set arrow from 680, graph 0 to 680, graph 1 nohead dashtype 2
set label "680" at 682, graph 0.05
set key top left
plot "$out/wang.dat" using 1:2 with linespoints title "rho* (flow method)", 1 title "boundary rho* = 1" dashtype 3
set output "$out/gbpandas.png"
set title "Capacity region (GB-PANDAS): 5000 servers, racks of 50, pods of 10 racks"
set xlabel "mean arrival rate per server (tasks per slot)"
unset arrow
unset label
set key top left
plot "$out/gbpandas.dat" using 1:2 with linespoints title "rho* (aggregated LP)", 1 title "boundary rho* = 1" dashtype 3
GP
echo "plots: $out/wang.png $out/gbpandas.png"
