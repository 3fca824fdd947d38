#!/bin/sh
# The version script of libhta.so: the functions and variables the public
# headers (include/hta/*.h) declare are global, everything else local.
# A declaration is a line at the top level (no indent, not a typedef, not
# static inline) naming hta_x( or an extern hta_x.
# usage: scripts/exports.sh INCLUDE_DIR > hta.map
set -eu
names=$(cat "$1"/*.h |
    grep -vE '^(typedef|static|#| |\*|/\*|\})' |
    grep -oE '(\bhta_[a-z0-9_]+\(|^extern .*\bhta_[a-z0-9_]+(\[[A-Z0-9_]*\])?;)' |
    grep -oE 'hta_[a-z0-9_]+' | sort -u)
echo "HTA_0 {"
echo "  global:"
for n in $names; do
    echo "    $n;"
done
echo "  local: *;"
echo "};"
