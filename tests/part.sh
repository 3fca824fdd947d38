# shellcheck shell=sh disable=SC2154 # part: set by the script that sources this
# Sourced by the sub-suites that can run in parts (tests/run.sh gives each
# part to a worker): with $part = K/N (0 <= K < N), `mine` is true for
# the K-th check of every N, counting the calls from 0.  Default 0/1: all.
part_k=${part%/*}
part_n=${part#*/}
case "$part_k/$part_n" in
*[!0-9/]* | /* | */ | */*/*)
    echo "part must be K/N, found $part" >&2
    exit 2
    ;;
esac
if [ "$part_n" -lt 1 ] || [ "$part_k" -ge "$part_n" ]; then
    echo "part must be K/N with 0 <= K < N, found $part" >&2
    exit 2
fi
part_i=0
mine() {
    part_i=$((part_i + 1))
    [ $(( (part_i - 1) % part_n )) -eq "$part_k" ]
}
