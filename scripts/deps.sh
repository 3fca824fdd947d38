#!/bin/sh
# Installs the Debian packages hta needs, only those missing; the first
# command on a fresh Debian 12, where there is no make, no compiler and
# maybe no sudo.  As root it runs apt-get; otherwise sudo when there is
# one; otherwise it prints the exact apt-get line to run and exits 1.
# usage: scripts/deps.sh build|cbc|test|bench|fuzz|fresh-box
# (cbc: build plus CBC's library, for make CBC=yes)
set -eu
build="gcc g++ make pkg-config libigraph-dev libglpk-dev libcadical-dev scdoc python3-dev python3-numpy"
test="$build coinor-libcbc-dev libcmocka-dev picosat glpk-utils valgrind python3 python3-venv python3-pip python3-setuptools python3-jsonschema python3-pytest python3-hypothesis python3-pandas python3-matplotlib python3-distributed python3-tqdm bash-completion parallel man-db"
bench="$test coinor-cbc gnuplot-nox hyperfine time parallel python3-scipy"
fuzz="$test clang libclang-rt-dev"
case "${1:-build}" in
build) want=$build ;;
cbc) want="$build coinor-libcbc-dev" ;;
test) want=$test ;;
bench) want=$bench ;;
fuzz) want=$fuzz ;;
fresh-box) want="debootstrap" ;;
*) echo "usage: $0 build|cbc|test|bench|fuzz|fresh-box" >&2; exit 2 ;;
esac
missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "hta: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "hta: these Debian packages are missing and this user cannot install them" >&2
    echo "(not root, no sudo).  As root, run:" >&2
    echo "    apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
