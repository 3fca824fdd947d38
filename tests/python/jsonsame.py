"""The comparisons of the parity tests: the command's JSON against the
package's values, field by field; and two of the package's reports
(no_seconds)."""
import math

import numpy as np


def no_seconds(x):
    """x without its "seconds" (timings differ run to run) and with
    arrays as lists, for == between two reports of the package."""
    if isinstance(x, dict):
        return {k: no_seconds(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [no_seconds(v) for v in x]
    if isinstance(x, np.ndarray):
        return x.tolist()
    return x


def same(a, b, where):
    """Equal JSON-like values, floats exactly, seconds and paths skipped
    (and the package's assignment and finish arrays, which JSON does not
    carry)."""
    if isinstance(a, dict):
        assert isinstance(b, dict), where
        keys = set(a) - {"seconds", "path"}
        assert keys == set(b) - {"seconds", "path", "assignment",
                                 "finish"}, where
        for k in keys:
            same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            assert a is None and b is None, where
        else:
            assert float(a) == float(b) or (math.isnan(a) and math.isnan(b)), \
                f"{where}: {a} != {b}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"
