# the envelope once more at the best the bisection found: HDFS Zipf 1,
# affine w_rem, 10^4 tasks; the first refutation (against fsy's 116.22)
# stops at 115.9983, the bisection finds 116, and "< 116" is refuted:
# proven optimal; the certificate is that refutation, infeasible for glpsol
cd "$TMP" && $HTA gen hdfs --tasks 10000 --servers 100 --zipf 1 --seed 1 --w-rem-affine 3,0.0001 -o z.txt && $HTA solve z.txt --algo fsy,close --write-lp e.lp --no-timing | grep -E '^(close|lower|best)' && head -n 1 e.lp && glpsol --lp e.lp | grep -c 'NO PRIMAL FEASIBLE SOLUTION'
