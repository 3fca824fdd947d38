$HTA solve instances/example.txt --algo rr,xyz
