# N locality levels (w_level lines): rows priced per level, fsy refilled
# rack-aware (5 -> 4 on the hot server of racks-tiny), hadoop's greedy,
# close's slot search undecided at the bound 3.5 (the optimum is 4: not a
# proof), brute force the optimum, sat skipped with the reason.
$HTA solve instances/racks-tiny.txt --algo rr,hadoop,fsy,exact | sed 's/ [0-9]*\.[0-9]\{3\}  / T  /'
$HTA solve instances/hdfs-pods-1k.txt --algo hadoop,fsy,close | sed 's/ [0-9]*\.[0-9]\{3\}  / T  /'
