$HTA reduce-place --slots 200 --jobs 3000 --sweep 0.2,0.6,0.2 --policy greedy,random,rhc --json --no-timing
