# hdfs fsck -racks with --w-rack: the racks become a locality level; the
# same output without -racks is refused with the datanode that lacks one.
$HTA import fsck tests/data/fsck/hadoop2-racks.txt --w-rack 2 | grep -v '^task\|^name'
$HTA import fsck tests/data/fsck/hadoop2-locations.txt --w-rack 2
echo "exit $?"
