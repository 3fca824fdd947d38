$HTA import fsck tests/data/fsck/hadoop2-racks.txt | tail -n 12
