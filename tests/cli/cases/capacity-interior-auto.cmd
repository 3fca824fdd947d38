# --interior on a two-level cluster selects the LP (it used to be ignored)
$HTA capacity tests/data/wang10.txt --interior | sed -n 2p
