# The ILP on N levels (ilplev.h): hdfs-racks-1k proven at the bound 21
# (the refill's makespan), racks-tiny's model written and solved by
# glpsol on its own (constant costs per level: one piece, the whole
# problem; its optimum 4 is brute force's).
$HTA solve instances/hdfs-racks-1k.txt --algo fsy,ilp --no-timing | grep -E '^(ilp|lower|best)'
cd "$TMP" && $HTA solve "$OLDPWD/instances/racks-tiny.txt" --algo ilp --ilp-plain --write-lp m.lp --no-timing | grep -E '^(ilp|best)' && head -n 1 m.lp && glpsol --lp m.lp -o sol.txt >/dev/null && grep '^Objective' sol.txt
