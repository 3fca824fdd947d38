# N locality levels (w_level lines): rows priced per level, fsy refilled
# rack-aware (5 -> 4 on the hot server of racks-tiny), hadoop's greedy,
# brute force the optimum, the two-level engines skipped with the reason.
$HTA solve instances/racks-tiny.txt --algo rr,hadoop,fsy,exact | sed 's/ [0-9]*\.[0-9]\{3\}  / T  /'
$HTA solve instances/hdfs-pods-1k.txt --algo hadoop,fsy,close | sed 's/ [0-9]*\.[0-9]\{3\}  / T  /'
