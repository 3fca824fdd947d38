#!/bin/sh
# The Python package under valgrind memcheck (make valgrind): smoke.py
# calls every entry point once; any memory error or definite leak whose
# stack passes through hta's sources (src/: the extension or libhta) fails.
# Python's and numpy's own (an interpreter never frees its modules) are
# not hta's: their frames have no source under src/.
# usage: tests/python/memcheck.sh HTA TMPDIR (HTA_PYTHON: the package dir)
set -u
tmp=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
log=$tmp/memcheck.log
PYTHONPATH=$HTA_PYTHON PYTHONMALLOC=malloc PYTHONDONTWRITEBYTECODE=1 \
    valgrind --leak-check=full --show-leak-kinds=definite \
    --num-callers=40 --fullpath-after= \
    /usr/bin/python3 "$root/tests/python/smoke.py" >"$tmp/smoke.out" 2>"$log"
code=$?
# records: blocks of "==pid== " lines between blank "==pid== " lines
bad=$(awk -v src="$root/src/" '
    /^==[0-9]+== $/ { if (rec != "" && hit && err) { print rec; n++ } rec = ""; hit = 0; err = 0; next }
    /^==[0-9]+== / { rec = rec "\n" $0
                     if (index($0, src)) hit = 1
                     if ($0 ~ /Invalid|uninitialised|definitely lost|Mismatched|overlap|Syscall param/) err = 1 }
    END { if (rec != "" && hit && err) print rec }' "$log")
if [ "$code" -eq 0 ] && grep -q '^smoke: ok$' "$tmp/smoke.out" && [ -z "$bad" ]; then
    echo "1 passed, 0 failed"
else
    echo "FAIL python memcheck (exit $code)"
    tail -3 "$tmp/smoke.out"
    echo "$bad" | head -60
    echo "0 passed, 1 failed"
fi
