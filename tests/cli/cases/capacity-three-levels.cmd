cd "$TMP" && printf "hta-cluster 1\nservers 4\nrates 1 0.5 0.25\ntopology 2\ntype 1 0\n" > c.txt && $HTA capacity c.txt --decomposition d.txt && cat d.txt && $HTA capacity c.txt --method flow
