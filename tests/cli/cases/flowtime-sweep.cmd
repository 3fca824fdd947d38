cd "$TMP" && $HTA gen jobs --jobs 2000 --machines 10 --load 0.8 --seed 2 -o j.txt && $HTA flowtime j.txt --sweep 0.5,0.9,0.2 --policy srpt,dsrpt,asrpt,fifo,fair --no-timing
