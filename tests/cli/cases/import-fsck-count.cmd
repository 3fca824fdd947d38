# A file header whose "N block(s)" disagrees with the block lines under
# it (a cut or edited fsck output) is a warning at the header's line; the
# blocks read are imported.
$HTA import fsck tests/data/fsck/count-mismatch.txt
