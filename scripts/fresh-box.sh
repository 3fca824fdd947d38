#!/bin/sh
# Checks the README's promise on a fresh Debian 12: a minimal debootstrap
# root (no make, no compiler, no sudo, as a container image is) gets a copy
# of the committed tree and runs the README's first two commands exactly
# as the README prints them.  First, as 'nobody', the set-up must stop
# with the apt-get line to run.  Needs root (chroot); takes minutes.
# usage: scripts/fresh-box.sh [KEEP_DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "fresh-box: needs root (debootstrap, chroot)" >&2; exit 2; }
sh "$top/scripts/deps.sh" fresh-box
keep=${1:-}
box=${keep:-$(mktemp -d /tmp/hta-fresh-box.XXXXXX)}
# mktemp makes it 0700: the root of the box must be readable by 'nobody'
chmod 755 "$box"
cleanup() {
    umount "$box/dev/shm" 2>/dev/null || true
    umount "$box/proc" 2>/dev/null || true
    [ -n "$keep" ] || rm -rf "$box"
}
trap cleanup EXIT
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$box" >"$box.log" 2>&1 || {
    tail -20 "$box.log"; echo "fresh-box: debootstrap failed"; exit 1; }
rm -f "$box.log"
echo "fresh-box: minimal bookworm in $(( $(date +%s) - t0 )) s"
for tool in make cc gcc sudo; do
    if chroot "$box" sh -c "command -v $tool" >/dev/null 2>&1; then
        echo "fresh-box: the fresh root already has $tool"; exit 1
    fi
done
mkdir -p "$box/hta"
(cd "$top" && git archive HEAD) | tar -x -C "$box/hta"
cp /etc/resolv.conf "$box/etc/resolv.conf"
mount -t proc proc "$box/proc"
# POSIX semaphores for Python's multiprocessing (Dask's worker processes
# in the suite), as a container has them
mkdir -p "$box/dev/shm"
mount -t tmpfs shm "$box/dev/shm"
chmod 755 "$box/hta"

# The README's two commands, as printed: the first two indented lines.
cmds=$(sed -n '1,12p' "$top/README.md" | sed -n 's/^    \(.*\)$/\1/p' | sed 's/ *#.*$//' | head -n 2)
demo=$(echo "$cmds" | sed -n 1p)
test=$(echo "$cmds" | sed -n 2p)
[ -n "$demo" ] && [ -n "$test" ] || { echo "fresh-box: no commands at the top of the README"; exit 1; }

# Without root or sudo: a clear message naming the packages, exit 1.
chown -R nobody "$box/hta"
out=$(chroot --userspec=nobody:nogroup "$box" sh -c "cd /hta && $demo" 2>&1) && {
    echo "fresh-box: '$demo' as nobody succeeded without the packages"; exit 1; }
echo "$out" | grep -q 'apt-get install -y --no-install-recommends.*gcc.*make' || {
    echo "fresh-box: as nobody, no apt-get line in:"; echo "$out"; exit 1; }
echo "fresh-box: as nobody: the apt-get line to run, exit 1"
chown -R root "$box/hta"

# The README's Python blocks, each as printed, with Debian's python3
# and the package the first command built (nothing else installed);
# the scale section's Dask recipe after the test command (which installs
# Dask), on a cluster of this box in place of the scheduler's address.
readme_python() { # demo|test
    /usr/bin/python3 - "$top/README.md" "$box/hta/readme-blocks" "$1" <<'PY'
import os, re, sys
text = open(sys.argv[1]).read()
os.makedirs(sys.argv[2], exist_ok=True)
for f in os.listdir(sys.argv[2]):
    os.remove(os.path.join(sys.argv[2], f))
for i, b in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
    dask = "distributed" in b
    if dask != (sys.argv[3] == "test"):
        continue
    b = b.replace('Client("tcp://scheduler:8786")',
                  'Client(__import__("distributed").LocalCluster('
                  'n_workers=2, threads_per_worker=1, processes=True, '
                  'dashboard_address=":0", silence_logs=50))')
    if dask:  # spawned workers import the main module: guard it
        b = "if __name__ == '__main__':\n" + "".join(
            "    " + l + "\n" for l in b.splitlines())
    open(os.path.join(sys.argv[2], "block%d.py" % i), "w").write(b)
PY
    for b in "$box"/hta/readme-blocks/block*.py; do
        chroot "$box" sh -c "cd /hta && PYTHONPATH=build/python python3 readme-blocks/$(basename "$b")" \
            >"$box/py.log" 2>&1 || {
            cat "$box/py.log"; echo "fresh-box: README's Python $(basename "$b") failed"; exit 1; }
        echo "fresh-box: README's Python $(basename "$b"): $(tail -n 1 "$box/py.log")"
    done
}

for c in "$demo" "$test"; do
    t0=$(date +%s)
    echo "fresh-box: \$ $c"
    chroot "$box" sh -c "cd /hta && $c" >"$box/out.log" 2>&1 || {
        tail -40 "$box/out.log"; echo "fresh-box: '$c' failed"; exit 1; }
    tail -n 3 "$box/out.log"
    echo "fresh-box: '$c' in $(( $(date +%s) - t0 )) s"
    [ "$c" = "$demo" ] && readme_python demo
done
readme_python test
grep -q '^[0-9]* passed, 0 failed$' "$box/out.log" || { echo "fresh-box: no clean closing line"; exit 1; }
# the Python package the test command built, with Debian's python3
chroot "$box" sh -c "cd /hta && PYTHONPATH=build/python python3 -c 'import hta; r = hta.solve(hta.Instance.read(\"instances/example.txt\")); print(\"python: best\", r[\"best\"][\"makespan\"])'" ||
    { echo "fresh-box: the Python package does not import"; exit 1; }
# pip, as the README says: a venv, the package built from the tree with
# Debian's tools and no index, imported and run outside the tree
chroot "$box" sh -c "cd /hta && python3 -m venv --system-site-packages /venv &&
    /venv/bin/pip install -q --no-build-isolation --no-index ./src/python" >"$box/pip.log" 2>&1 || {
    tail -30 "$box/pip.log"; echo "fresh-box: pip install ./src/python failed"; exit 1; }
got=$(chroot "$box" sh -c "cd / && /venv/bin/python -c 'import hta; print(hta.__version__, hta.solve(hta.Instance.read(\"/hta/instances/example.txt\"))[\"best\"][\"makespan\"])'")
want="$(chroot "$box" sh -c "/hta/build/hta --version" | sed -n '1s/^hta //p') 3.0"
[ "$got" = "$want" ] || { echo "fresh-box: pip's package says '$got', expected '$want'"; exit 1; }
echo "fresh-box: pip install in a venv: $got"
# and its command, make's binary, with its pages
got=$(chroot "$box" sh -c "/venv/bin/hta --version" | sed -n 1p)
[ "$got" = "hta ${want% *}" ] || { echo "fresh-box: pip's hta says '$got'"; exit 1; }
echo "fresh-box: pip's hta command: $got"
echo "fresh-box: both README commands work on a fresh Debian 12"
