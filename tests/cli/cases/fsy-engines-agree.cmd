# fsy's makespan does not depend on the max-flow engine (regression:
# zipf-1k gave 13 with incremental, 12 with igraph), on the bundled suite.
for f in instances/*.txt; do a=$($HTA solve "$f" --algo fsy --maxflow incremental --json | sed -n 's/.*"algorithm": "fsy".*"makespan": \([^,]*\),.*/\1/p'); b=$($HTA solve "$f" --algo fsy --maxflow igraph --json | sed -n 's/.*"algorithm": "fsy".*"makespan": \([^,]*\),.*/\1/p'); [ -n "$a" ] && [ "$a" = "$b" ] && echo "$f same" || echo "$f DIFFERENT: $a $b"; done
