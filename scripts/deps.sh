#!/bin/sh
# Installs the Debian packages hta needs, only those missing.
# usage: scripts/deps.sh build|test|bench
set -eu
build="gcc make pkg-config libigraph-dev libglpk-dev"
test="$build libcmocka-dev picosat valgrind python3"
bench="$test coinor-cbc gnuplot-nox hyperfine time"
fuzz="$test clang libclang-rt-dev"
case "${1:-build}" in
build) want=$build ;;
test) want=$test ;;
bench) want=$bench ;;
fuzz) want=$fuzz ;;
*) echo "usage: $0 build|test|bench|fuzz" >&2; exit 2 ;;
esac
missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
