#!/bin/sh
# Rewrites the expected outputs of CLI golden tests from the current binary.
# Review `git diff tests/cli` afterwards: every change must be intended.
# usage: tests/cli/regen.sh [BUILD_DIR] [NAME...]
# NAME is a case of tests/cli/cases/, or DIR/NAME for tests/cli/DIR/
# (cbc/NAME needs a build with CBC=yes, nocbc/NAME one without).
set -u
build=${1:-build}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
HTA="$root/$build/hta"
export HTA
if [ $# -gt 0 ]; then names="$*"; else
    names=$(for c in tests/cli/cases/*.cmd; do basename "${c%.cmd}"; done)
fi
for name in $names; do
    case $name in
    */*) base=tests/cli/$name ;;
    *) base=tests/cli/cases/$name ;;
    esac
    tmp=$(mktemp -d)
    TMP="$tmp" sh "$base.cmd" >"$base.out" 2>"$base.err"
    code=$?
    rm -rf "$tmp"
    if [ "$code" -ne 0 ]; then echo "$code" >"$base.code"; else rm -f "$base.code"; fi
    [ -s "$base.err" ] || rm -f "$base.err"
done
