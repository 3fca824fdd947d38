$HTA capacity instances/clusters/priority-unstable.txt && $HTA sim instances/clusters/priority-unstable.txt --slots 300000 -p jsq-maxweight,priority,gb-pandas --no-timing -q
