#!/bin/sh
# The library (every folder of src/ but cli/) never includes from the
# command line above it, and only cli/ prints (no printf/puts to stdout in
# the library).  Run by `make test`; exits 1 naming the offending lines.
set -u
cd "$(dirname "$0")/.." || exit 1
bad=$(grep -nE '#include "(cli|report|plot)\.h"|#include "\.\./cli/' \
    $(ls -d src/*/ | grep -v '^src/cli/' | sed 's|$|*.[ch]|') 2>/dev/null)
if [ -n "$bad" ]; then
    echo "layering: the library includes from src/cli/:"
    echo "$bad"
    exit 1
fi
