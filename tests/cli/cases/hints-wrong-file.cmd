# a file of another kind than the command reads: what it is and what reads it
$HTA solve tests/data/fsck/hadoop2-racks.txt 2>&1
$HTA solve instances/swim/FB-2009_samples_24_times_1hr_0.tsv 2>&1
$HTA solve tests/data/satlib/uf20-01.cnf 2>&1
$HTA solve instances/clusters/priority-unstable.txt 2>&1
$HTA sim instances/example.txt 2>&1
$HTA flowtime instances/clusters/priority-unstable.txt -n 2 2>&1
# a first line of data that says nothing known: no note
$HTA solve tests/bad/garbage.txt 2>&1
(root=$(pwd) && cd "$TMP" && $HTA solve "$root/instances/example.txt" -o a.asg > /dev/null && $HTA eval a.asg "$root/instances/example.txt" 2>&1)
