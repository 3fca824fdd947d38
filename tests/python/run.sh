#!/bin/sh
# The Python package's tests (pytest, Debian's python3): the package built
# beside HTA (its build's python/), the command HTA as the oracle of the
# numbers.  Ends with "N passed, N failed".
# usage: tests/python/run.sh HTA TMPDIR
set -u
HTA=$1
tmp=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
pkg=${HTA_PYTHON:-$(cd "$(dirname "$HTA")" && pwd)/python}
case "$HTA" in /*) ;; *) HTA=$root/$HTA ;; esac
out=$tmp/pytest.out
PYTHONPATH=$pkg HTA=$HTA PYTHONDONTWRITEBYTECODE=1 \
    /usr/bin/python3 -m pytest -q -p no:cacheprovider "$root/tests/python" \
    >"$out" 2>&1
code=$?
# "3 failed, 40 passed in 2.1s" or "40 passed in 2.1s"
p=$(grep -oE '[0-9]+ passed' "$out" | tail -1 | cut -d' ' -f1)
f=$(grep -oE '[0-9]+ (failed|error)' "$out" | awk '{s += $1} END {print s + 0}')
if [ "$code" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
    f=1
fi
if [ "${f:-0}" -ne 0 ]; then
    echo "FAIL python: pytest exit $code"
    grep -E '^(FAILED|ERROR|E  )' "$out" | head -30
fi
echo "${p:-0} passed, ${f:-0} failed"
