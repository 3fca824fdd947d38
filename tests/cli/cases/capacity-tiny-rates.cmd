# every method normalises before solving: arrival rates of 1e-300 give the
# same rho* and bottleneck by flow, gflow, LP and plain LP (the LP said 0
# before)
for m in flow gflow lp plain; do $HTA capacity tests/fuzz/corpus/cluster/tiny-rates-1e-300 --method $m --json | sed 's/"method": "[a-z]*", //'; done | sort -u
