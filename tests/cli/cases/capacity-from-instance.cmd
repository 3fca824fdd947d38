$HTA capacity --from-instance instances/example.txt --rate 0.1 --rates 1,0.25
