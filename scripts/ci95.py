"""95% confidence intervals over independent replications (seeds), for
the experiment scripts' summaries: the half-width t_{0.975, n-1} s / sqrt(n)
of Student's interval for the mean of n >= 2 values.

t_{0.975, df} is the published table (Abramowitz and Stegun, Table 26.10)
for df <= 30 and the Cornish-Fisher expansion of Student's quantile in
1/df (A&S 26.7.5, four terms) above it, within 2e-4 there; the scripts'
own replications are 3 to 5, but SEEDS is the user's.  tests/scripts/
checks t975 against Student's distribution function integrated
numerically.

Use from a script's embedded Python:
    PYTHONPATH=$(dirname "$0") python3 - ... <<'PY'
    from ci95 import ci
"""
import math
import statistics

_TABLE = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
          2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
          2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
          2.048, 2.045, 2.042)
_Z975 = 1.959963984540054


def t975(df):
    """The 0.975 quantile of Student's t with df >= 1 degrees of freedom."""
    if df < 1:
        raise ValueError("t975: df must be at least 1, got %r" % (df,))
    if df <= len(_TABLE):
        return _TABLE[df - 1]
    z = _Z975
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3
          - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def ci(xs):
    """The half-width of the 95% interval for the mean of xs; NaN for
    fewer than two values."""
    xs = list(xs)
    if len(xs) < 2:
        return float("nan")
    return t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
