#!/bin/sh
# The README's tour runs as printed: every "$ build/hta ..." line of its
# shell blocks is run (build/hta replaced by HTA) in a temporary
# directory, in order, and its output must be the lines the README shows
# under it, the seconds column of the tables excepted.  Ends with "N
# passed, N failed".
# usage: tests/readme.sh HTA TMPDIR
set -u
HTA=$1
tmp=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case "$HTA" in /*) ;; *) HTA=$root/$HTA ;; esac
mkdir -p "$tmp/readme"
HTA=$HTA ROOT=$root /usr/bin/python3 - "$root/README.md" "$tmp/readme" <<'PY'
import os, re, subprocess, sys
readme, work = sys.argv[1], sys.argv[2]
hta, root = os.environ["HTA"], os.environ["ROOT"]
text = open(readme).read()
blocks = re.findall(r"```\n(\$ build/hta.*?)```", text, re.S)
def mask(lines):
    """The tables' seconds column (the token under 'seconds') as S."""
    out, col = [], None
    for l in lines:
        toks = l.split()
        if "seconds" in toks:
            col = toks.index("seconds")
        elif col is not None and len(toks) > col and re.fullmatch(r"[0-9.]+", toks[col]):
            toks[col] = "S"
            l = " ".join(toks)
        elif col is not None:
            col = None
        out.append(" ".join(l.split()))
    return out
passed = failed = 0
for b in blocks:
    cmds = []
    for l in b.rstrip("\n").split("\n"):
        if l.startswith("$ "):
            cmds.append([l[2:], []])
        else:
            cmds[-1][1].append(l)
    for cmd, want in cmds:
        line = cmd.replace("build/hta", hta, 1)
        line = line.replace("instances/", root + "/instances/")
        r = subprocess.run(line, shell=True, cwd=work, capture_output=True, text=True)
        got = r.stdout.rstrip("\n").split("\n") if r.stdout else []
        if r.returncode == 0 and mask(got) == mask(want):
            passed += 1
        else:
            failed += 1
            print("FAIL readme: %s (exit %d)" % (cmd, r.returncode))
            for g, w in zip(mask(got) + [""] * len(want), mask(want) + [""] * len(got)):
                if g != w:
                    print("  got:  %s\n  want: %s" % (g, w))
                    break
if len(blocks) < 5:
    failed += 1
    print("FAIL readme: %d tour blocks, expected 5 or more" % len(blocks))
print("%d passed, %d failed" % (passed, failed))
PY
