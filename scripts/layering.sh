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
# The command line uses the public API only (include/hta/) and its own
# headers; a public header includes public headers only.
bad=$(grep -nE '#include "[a-z]+/' src/cli/*.[ch] | grep -v '#include "hta/')
if [ -n "$bad" ]; then
    echo "layering: the command line includes internal headers:"
    echo "$bad"
    exit 1
fi
bad=$(grep -nE '#include "' include/hta/*.h | grep -v '#include "hta/')
if [ -n "$bad" ]; then
    echo "layering: a public header includes a non-public one:"
    echo "$bad"
    exit 1
fi
# A subsystem never reaches into another's folder: internal headers come
# from its own folder or from core/ (what every layer shares).  One pair
# is layered: exact/ (the engines that prove, and the portfolio that runs
# them) stands on offline/ (the paper's algorithms, bounds, max-cover,
# refill) and may include its headers; offline/ never includes exact/.
bad=$(for d in src/*/; do
    dn=$(basename "$d")
    below=""
    [ "$dn" = exact ] && below="|offline"
    grep -HnE '#include "[a-z]+/' "$d"*.[ch] 2>/dev/null |
        grep -vE "#include \"(hta|core|$dn$below)/"
done)
if [ -n "$bad" ]; then
    echo "layering: a subsystem includes another's internal header:"
    echo "$bad"
    exit 1
fi
