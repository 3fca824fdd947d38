# gen hdfs with rack and pod costs: rack paths, w_level lines, four levels;
# costs that fall with closeness are refused before anything is written.
$HTA gen hdfs --tasks 6 --servers 8 --racks 4 --pods 2 --policy rack-aware --w-rack 1.5 --w-pod 2 --w-rem 3 --seed 2
$HTA gen hdfs --tasks 6 --servers 8 --racks 4 --policy rack-aware --w-rack-affine 1.5,0.5 --w-rem 3 --seed 2 -o "$TMP/x.txt"
echo "exit $?"
ls "$TMP"
