#!/bin/sh
# make install into a temporary DESTDIR: every file in place, a C program
# built against the installed library with `pkg-config --cflags --libs
# hta` gives what `hta solve` prints, the man page documents every option
# each command's --help lists, and make uninstall leaves nothing.
# usage: tests/install/run.sh HTA TMPDIR; ends with "N passed, N failed".
set -u
HTA=$1
tmp=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
check() {
    name=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL install: $name"; fi
}
dest=$tmp/dest
build=$tmp/build
make -s -C "$root" BUILD="$build" install DESTDIR="$dest" PREFIX=/usr \
    >"$tmp/install.log" 2>&1
check "make install" [ $? -eq 0 ]
for f in bin/hta lib/libhta.a include/hta/solve.h include/hta/instance.h \
    share/man/man1/hta.1 lib/pkgconfig/hta.pc \
    share/bash-completion/completions/hta share/doc/hta/LICENSE; do
    check "installed $f" [ -f "$dest/usr/$f" ]
done
check "hta.pc names the prefix" grep -q '^prefix=/usr$' "$dest/usr/lib/pkgconfig/hta.pc"

# a program against the installed library, through pkg-config
flags=$(PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
    pkg-config --cflags --libs hta)
check "pkg-config --cflags --libs hta" [ -n "$flags" ]
# shellcheck disable=SC2086
cc -std=c11 -o "$tmp/prog" "$root/tests/install/solve_example.c" $flags 2>"$tmp/cc.log"
check "builds against the installed library" [ $? -eq 0 ]
for i in example.txt zipf-1k.txt hdfs-rack-1k.txt; do
    got=$("$tmp/prog" "$root/instances/$i")
    want=$("$HTA" solve "$root/instances/$i" | sed -n 's/^best [a-z]* \([^ ]*\) \(proven\|within\).*/best \1 \2/p' |
        sed 's/ within$/ open/')
    check "library = command on $i ($got / $want)" [ "$got" = "$want" ]
done

# the man page documents every option of every command's --help
man=$dest/usr/share/man/man1/hta.1
for c in solve eval capacity sim flowtime import "gen hdfs" "gen sat" \
    "gen random3sat" "gen cluster" "gen rr-replica" "gen rr-worst" \
    "gen jobs"; do
    # shellcheck disable=SC2086
    for o in $("$HTA" $c --help | grep -oE '^  (-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]*'); do
        check "man page names hta $c $o" grep -qE -- "(fB|[^a-zA-Z-])$o([^a-z-]|\$)" "$man"
    done
done

# the completion script loads and completes commands and options
# (bash-completion is a test dependency: scripts/deps.sh)
complete_words() { # words...: what the completion offers for the last one
    bash -c ". /usr/share/bash-completion/bash_completion; . '$dest/usr/share/bash-completion/completions/hta'; COMP_WORDS=($*); COMP_CWORD=$(($# - 1)); COMP_LINE='$*'; COMP_POINT=\${#COMP_LINE}; PATH='$(dirname "$HTA")':\$PATH; _hta; echo \${COMPREPLY[*]}" 2>&1
}
out=$(complete_words hta so)
check "completion of 'hta so' ($out)" [ "$out" = solve ]
out=$(complete_words hta gen clu)
check "completion of 'hta gen clu' ($out)" [ "$out" = cluster ]
out=$(complete_words hta solve --time-l)
check "completion of 'hta solve --time-l' ($out)" [ "$out" = --time-limit ]
out=$(complete_words hta flowtime x.txt --policy as)
check "completion of 'hta flowtime x --policy as' ($out)" [ "$out" = asrpt ]
out=$(complete_words hta reduce-place --policy rhc-)
check "completion of 'hta reduce-place --policy rhc-' ($out)" [ "$out" = rhc-adaptive ]
out=$(complete_words hta reduce-place --k-)
check "completion of 'hta reduce-place --k-' ($out)" [ "$out" = --k-limit ]
out=$(complete_words hta import swim x.tsv --slot)
check "completion of 'hta import swim x --slot' ($out)" [ "$out" = --slot-seconds ]

make -s -C "$root" BUILD="$build" uninstall DESTDIR="$dest" PREFIX=/usr \
    >>"$tmp/install.log" 2>&1
left=$(find "$dest" -type f | head -5)
check "make uninstall leaves no file ($left)" [ -z "$left" ]
echo "$pass passed, $fail failed"
