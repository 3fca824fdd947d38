# the comment line reproduces the file: every parameter, rates and topology
# included, and running it gives the same bytes
cd "$TMP" && $HTA gen cluster random --servers 12 --types 5 --rates 1,0.5,0.2 --topology 4 --seed 3 -o c.txt && head -n 1 c.txt && cmd=$(sed -n '1s/^# hta //p' c.txt) && $HTA $cmd -o d.txt && cmp c.txt d.txt && echo "same bytes"
