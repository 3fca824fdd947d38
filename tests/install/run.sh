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
for f in bin/hta lib/libhta.a lib/libhta.so.0 include/hta/hta.h \
    include/hta/solve.h include/hta/instance.h \
    share/man/man1/hta.1 share/man/man1/hta-solve.1 share/man/man1/hta-sim.1 \
    share/man/man5/hta-formats.5 share/man/man7/hta-policy.7 \
    lib/pkgconfig/hta.pc \
    share/bash-completion/completions/hta share/doc/hta/LICENSE; do
    check "installed $f" [ -f "$dest/usr/$f" ]
done
check "hta.pc names the prefix" grep -q '^prefix=/usr$' "$dest/usr/lib/pkgconfig/hta.pc"
check "libhta.so links to the soname" [ "$(readlink "$dest/usr/lib/libhta.so")" = libhta.so.0 ]
check "libhta.so.0's soname" sh -c "objdump -p '$dest/usr/lib/libhta.so.0' | grep -q 'SONAME *libhta.so.0'"
# the shared library exports what the public headers declare, nothing else
sh "$root/scripts/exports.sh" "$dest/usr/include/hta" | sed -n 's/^    \(hta_[a-z0-9_]*\);$/\1/p' >"$tmp/declared"
nm -D --defined-only "$dest/usr/lib/libhta.so.0" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort >"$tmp/exported"
check "libhta.so.0 exports exactly the public API ($(wc -l <"$tmp/exported") symbols)" cmp -s "$tmp/declared" "$tmp/exported"
check "every installed header includes installed ones only" sh -c "! grep -hE '#include \"' '$dest/usr/include/hta/'*.h | grep -qv '\"hta/'"

# a program against the installed library, through pkg-config
flags=$(PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
    pkg-config --cflags --libs hta)
check "pkg-config --cflags --libs hta" [ -n "$flags" ]
# shellcheck disable=SC2086
cc -std=c11 -o "$tmp/prog" "$root/tests/install/solve_example.c" $flags 2>"$tmp/cc.log"
check "builds against the installed shared library" [ $? -eq 0 ]
check "the program needs libhta.so.0" sh -c "objdump -p '$tmp/prog' | grep -q 'NEEDED *libhta.so.0'"
# shellcheck disable=SC2086
cc -std=c11 -o "$tmp/prog_static" "$root/tests/install/solve_example.c" \
    $(echo " $flags " | sed 's| -lhta | |') "$dest/usr/lib/libhta.a" $(echo " $flags " | sed -n 's|.* -lhta \(.*\)|\1|p') 2>>"$tmp/cc.log"
check "builds against the installed static library" [ $? -eq 0 ]
# the same program as C++, every public header included (extern "C")
# shellcheck disable=SC2086
c++ -std=c++11 -Wall -Wextra -Werror -x c++ -include hta/hta.h -o "$tmp/prog_cxx" \
    "$root/tests/install/solve_example.c" $flags 2>>"$tmp/cc.log"
check "builds as C++ against every installed header" [ $? -eq 0 ]
for i in example.txt zipf-1k.txt hdfs-rack-1k.txt; do
    got_cxx=$(LD_LIBRARY_PATH="$dest/usr/lib" "$tmp/prog_cxx" "$root/instances/$i")
    got=$(LD_LIBRARY_PATH="$dest/usr/lib" "$tmp/prog" "$root/instances/$i")
    got_static=$("$tmp/prog_static" "$root/instances/$i")
    want=$("$HTA" solve "$root/instances/$i" | sed -n 's/^best [a-z]* \([^ ]*\) \(proven\|within\).*/best \1 \2/p' |
        sed 's/ within$/ open/')
    check "shared library = command on $i ($got / $want)" [ "$got" = "$want" ]
    check "static library = command on $i ($got_static / $want)" [ "$got_static" = "$want" ]
    check "C++ program = command on $i ($got_cxx / $want)" [ "$got_cxx" = "$want" ]
done

# pip: the package built by pip in a venv (Debian's python3, its numpy
# through --system-site-packages, no index), from the tree and against
# the library installed above (pkg-config); __version__ is the command's
if /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null; then
    want=$("$HTA" solve "$root/instances/example.txt" | sed -n 's/^best [a-z]* \([^ ]*\) .*/\1/p')
    ver=$("$HTA" --version | sed -n '1s/^hta //p')
    for how in tree installed; do
        venv=$tmp/venv-$how
        /usr/bin/python3 -m venv --system-site-packages "$venv" >"$tmp/venv.log" 2>&1
        if [ $how = tree ]; then
            # in the build make install just made: pip's make (the same
            # rules and flags) finds it up to date instead of compiling
            # the library a second time (40 s of the suite's 100)
            HTA_BUILD=$build "$venv/bin/pip" install -q --no-build-isolation \
                --no-index "$root/src/python" >"$tmp/pip-$how.log" 2>&1
        else
            HTA_USE_INSTALLED=1 PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" \
                PKG_CONFIG_SYSROOT_DIR="$dest" "$venv/bin/pip" install -q \
                --no-build-isolation --no-index "$root/src/python" >"$tmp/pip-$how.log" 2>&1
        fi
        check "pip install ./src/python ($how)" [ $? -eq 0 ]
        got=$(cd "$tmp" && "$venv/bin/python" -c "import hta; print(hta.__version__, format(hta.solve(hta.Instance.read('$root/instances/example.txt'))['best']['makespan'], 'g'))" 2>>"$tmp/pip-$how.log")
        check "pip's package ($how): version and best ($got / $ver $want)" [ "$got" = "$ver $want" ]
        # the command on the environment's PATH: make's binary (the
        # tree's build, or the one installed), its manual pages found
        # by hta help and by man from the environment (issue 69)
        made=$build/hta
        [ $how = installed ] && made=$dest/usr/bin/hta
        carried=$(echo "$venv"/lib/python3*/site-packages/hta/_prefix/bin/hta)
        check "pip's hta ($how) is make's binary" cmp -s "$carried" "$made"
        got=$("$venv/bin/hta" --version | sed -n 1p)
        check "pip's hta --version ($how): $got" [ "$got" = "hta $ver" ]
        got=$(cd "$tmp" && "$venv/bin/hta" solve "$root/instances/example.txt" | sed -n 's/^best [a-z]* \([^ ]*\) .*/\1/p')
        check "pip's hta solve ($how): $got / $want" [ "$got" = "$want" ]
        "$venv/bin/hta" sim >/dev/null 2>&1
        check "pip's hta passes the exit status on (usage: 2)" [ $? -eq 2 ]
        got=$(PATH="$venv/bin:$PATH" MANPAGER=cat MANWIDTH=80 hta help policy 2>&1 | grep -c 'hta-policy - writing a map-task scheduling policy')
        check "pip's hta help policy shows hta-policy(7) ($how)" [ "$got" = 1 ]
        got=$(env -u MANPATH PATH="$venv/bin:$PATH" man -w hta-solve 2>&1)
        check "man finds hta-solve(1) in the environment ($how): $got" [ "$got" = "$venv/share/man/man1/hta-solve.1" ]
        (cd "$tmp" && "$venv/bin/hta" gen cluster wang --servers 20 --data-servers 10 -o "$tmp/pipc.txt" &&
            "$venv/bin/hta" sim "$tmp/pipc.txt" --slots 500 -q >/dev/null) 2>>"$tmp/pip-$how.log"
        check "pip's hta gen cluster and sim ($how)" [ $? -eq 0 ]
    done
else
    check "python3-venv is installed (scripts/deps.sh test)" false
fi

# the Python package, installed where Debian's python3 finds it
pyd=$dest/usr/lib/python3/dist-packages
check "installed the Python package" [ -f "$pyd/hta/__init__.py" ]
got=$(cd "$tmp" && PYTHONPATH=$pyd /usr/bin/python3 -c "import hta; r = hta.solve(hta.Instance.read('$root/instances/zipf-1k.txt')); print(r['best']['makespan'], hta.__file__.startswith('$pyd'))" 2>&1)
want=$("$HTA" solve "$root/instances/zipf-1k.txt" --json | /usr/bin/python3 -c "import json, sys; print(float(json.load(sys.stdin)['best']['makespan']), True)")
check "the installed package = command ($got / $want)" [ "$got" = "$want" ]

# every command's page documents every option its --help lists
for c in solve eval capacity sim flowtime reduce-place import decode plot \
    "gen hdfs" "gen sat" "gen random3sat" "gen cluster" "gen rr-replica" \
    "gen rr-worst" "gen jobs"; do
    man=$dest/usr/share/man/man1/hta-${c%% *}.1
    check "a page for hta $c" [ -f "$man" ]
    # shellcheck disable=SC2086
    for o in $("$HTA" $c --help | grep -oE '^  (-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]*'); do
        check "hta-${c%% *}(1) names hta $c $o" grep -qE -- "(fB|[^a-zA-Z-])$o([^a-z-]|\$)" "$man"
        # and lists it as an entry of its own (issue 59): a line that
        # starts with it (after its short form), names no other long
        # option, and is followed by the entry's indented text
        scd=$root/src/cli/doc/hta-${c%% *}.1.scd
        check "hta-${c%% *}(1) has an entry of its own for hta $c $o" \
            awk -v o="$o" 'BEGIN { re = "^([*]-[a-zA-Z][*], )?[*]" o "[*]( |$)" }
                prev && /^\t/ { found = 1 } { prev = 0 }
                $0 ~ re && gsub(/[*]--/, "&") == 1 { prev = 1 }
                END { exit !found }' "$scd"
    done
done
# every page the overview and the pages name is installed
npages=0
for p in $(cat "$dest"/usr/share/man/man[157]/hta*.[157] | grep -oE 'hta-[a-z-]+(\\f[RP])?\([157]\)' | sed 's/\\f[RP]//; s/[()]/ /g' | tr ' ' '.' | sed 's/\.*$//; s/\.\.*/./' | sort -u); do
    npages=$((npages + 1))
    check "the page $p is installed" [ -f "$dest/usr/share/man/man${p##*.}/$p" ]
done
check "the pages name 12 pages ($npages)" [ "$npages" -eq 12 ]
# every page renders without scdoc's markup left as text (issue 59:
# "D1+_D2_", "K*_X_" in hta-sim(1), "k+_R_" in hta-reduce-place(1)): no
# _word_ or *word* that man did not turn into italics or bold
if command -v man >/dev/null 2>&1; then
    for page in "$dest"/usr/share/man/man[157]/hta*.[157]; do
        left=$(MANWIDTH=200 man -l "$page" 2>/dev/null |
            grep -P '(^|[^A-Za-z0-9_])_[^_\s]+_(?![A-Za-z0-9])|(^|\s)\*[A-Za-z][A-Za-z-]*\*' | head -3)
        check "$(basename "$page") renders without stray markup: $left" [ -z "$left" ]
    done
fi
# --help's pointers resolve: each page it names is installed
for c in solve eval capacity sim reduce-place flowtime decode "gen hdfs" "import fsck"; do
    for p in $("$HTA" $c --help | grep -oE 'hta-[a-z-]+\([157]\)' | sort -u); do
        f=${p%(*}; n=${p#*(}; n=${n%)}
        check "hta $c --help names $p, installed" [ -f "$dest/usr/share/man/man$n/$f.$n" ]
    done
done
# hta help CMD: the installed page through man where man is on PATH (a
# stand-in that prints its arguments), else the command's --help
mkdir -p "$tmp/fakeman" "$tmp/noman"
printf '#!/bin/sh\necho "man $*"\n' >"$tmp/fakeman/man"
chmod +x "$tmp/fakeman/man"
got=$(PATH=$tmp/fakeman "$dest/usr/bin/hta" help sim)
check "hta help sim runs man on hta-sim.1 ($got)" [ "$got" = "man -l $dest/usr/share/man/man1/hta-sim.1" ]
got=$(PATH=$tmp/fakeman "$dest/usr/bin/hta" help formats)
check "hta help formats runs man on hta-formats.5 ($got)" [ "$got" = "man -l $dest/usr/share/man/man5/hta-formats.5" ]
got=$(PATH=$tmp/fakeman "$dest/usr/bin/hta" help policy)
check "hta help policy runs man on hta-policy.7 ($got)" [ "$got" = "man -l $dest/usr/share/man/man7/hta-policy.7" ]
got=$(PATH=$tmp/noman "$dest/usr/bin/hta" help sim | cksum)
want=$("$dest/usr/bin/hta" sim --help | cksum)
check "hta help sim without man is sim --help" [ "$got" = "$want" ]

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
