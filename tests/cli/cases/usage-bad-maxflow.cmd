$HTA solve instances/example.txt --algo fsy --maxflow magic
