$HTA import fsck tests/data/fsck/missing.txt
