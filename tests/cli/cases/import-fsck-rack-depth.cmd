# Racks two names deep (/dc1/rack1) with --w-rack alone: refused at the
# datanode's line, saying what prices the first name (--w-pod) and what
# keeps the last one (--rack-depth 1); with --rack-depth 1 the paths are
# cut to /rackN and the instance solves; with --w-pod both names are
# levels (issue 71).
$HTA import fsck tests/data/fsck/racks-two-deep.txt --w-rack 1.5
echo "exit $?"
$HTA import fsck tests/data/fsck/racks-two-deep.txt --w-rack 1.5 --rack-depth 1 -o "$TMP/i" && grep -v '^task\|^name\|^#' "$TMP/i" && $HTA solve "$TMP/i" --algo brute --no-timing | tail -n 2
$HTA import fsck tests/data/fsck/racks-two-deep.txt --w-rack 1.5 --w-pod 2 | grep '^w_level\|^rack 0'
$HTA import fsck tests/data/fsck/racks-two-deep.txt --rack-depth 1 | grep '^w_level\|^rack 0'
