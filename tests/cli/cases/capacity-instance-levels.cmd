# capacity --from-instance on an N-level instance takes the instance's own
# racks and pods (the levels hta solve prices): N rates, no --topology
# (refused with exit 2, as fewer rates are).
$HTA capacity --from-instance instances/hdfs-pods-1k.txt --rate 0.01 --rates 1,0.8,0.6,0.4 --quiet | head -n 4
$HTA capacity --from-instance instances/hdfs-pods-1k.txt --rate 0.01 --rates 1,0.8,0.6,0.4 --method lp --quiet | grep '^rho'
$HTA capacity --from-instance instances/hdfs-pods-1k.txt --rate 0.01 --rates 1,0.8,0.6,0.4 --topology 10,3 2>&1; echo "exit $?"
$HTA capacity --from-instance instances/hdfs-pods-1k.txt --rate 0.01 --rates 1,0.5 2>&1; echo "exit $?"
