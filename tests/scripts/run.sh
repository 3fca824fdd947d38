#!/bin/sh
# The experiment scripts' shared pieces.  scripts/ci95.py: its t975
# against Student's quantile found independently (the density integrated
# by Simpson's rule, the quantile by bisection) for 1..30 degrees of
# freedom (the table, 3 decimals) and 31..400 (the expansion), and its
# interval's coverage of a normal mean over 4,000 seeded samples of 4
# (binomial 3-sigma band around 0.95).  Ends with "N passed, N failed".
# usage: tests/scripts/run.sh HTA TMPDIR
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
PYTHONPATH="$root/scripts" PYTHONDONTWRITEBYTECODE=1 python3 - <<'PY'
import math
import random

from ci95 import ci, t975

passed = failed = 0


def check(name, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL scripts: " + name)


def cdf(t, df, n=4000):
    """Student's distribution function at t >= 0: 1/2 plus the density's
    integral over [0, t] by Simpson's rule on n intervals."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) \
        / math.sqrt(df * math.pi)
    f = lambda u: c * (1 + u * u / df) ** (-(df + 1) / 2)
    h = t / n
    s = f(0) + f(t) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    return 0.5 + s * h / 3


def quantile(df):
    lo, hi = 1.0, 20.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if cdf(mid, df) < 0.975:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


worst_table = max(abs(t975(df) - quantile(df)) for df in range(1, 31))
check("t975 table within 6e-4 of the quantile (worst %.2g)" % worst_table,
      worst_table <= 6e-4)
worst_exp = max(abs(t975(df) - quantile(df))
                for df in (31, 32, 35, 40, 50, 60, 80, 120, 200, 400))
check("t975 expansion within 2e-4 of the quantile (worst %.2g)" % worst_exp,
      worst_exp <= 2e-4)
check("t975 decreases in df",
      all(t975(df + 1) < t975(df) for df in range(1, 500)))
try:
    t975(0)
    check("t975(0) raises", False)
except ValueError:
    check("t975(0) raises", True)
check("ci of one value is NaN", math.isnan(ci([3.0])))
rng = random.Random(7)
trials = 4000
hits = 0
for _ in range(trials):
    xs = [rng.gauss(10.0, 2.0) for _ in range(4)]
    m = sum(xs) / 4
    hits += abs(m - 10.0) <= ci(xs)
band = 3 * math.sqrt(0.95 * 0.05 / trials)
check("ci covers a normal mean 95%% of the time (%.4f)" % (hits / trials),
      abs(hits / trials - 0.95) <= band)
print("%d passed, %d failed" % (passed, failed))
PY
