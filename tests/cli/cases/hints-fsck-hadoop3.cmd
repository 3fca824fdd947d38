# Hadoop 3's fsck report can start at its first file line, without the
# "Connecting to namenode" header: solve still says what it is and that
# hta import fsck reads it (issue 71); a file of block lines alike.
$HTA solve tests/data/fsck/hadoop3-locations.txt 2>&1
echo "exit $?"
sed -n 2p tests/data/fsck/hadoop3-locations.txt > "$TMP/blocks.txt" && $HTA eval "$TMP/blocks.txt" tests/data/example.asg 2>&1 | sed "s|$TMP/||g"
