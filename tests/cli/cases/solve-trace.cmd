$HTA solve instances/example.txt --algo fsy --trace --no-timing --maxflow igraph --no-prune >/dev/null
