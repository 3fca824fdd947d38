# The paper's family with Q = 4, H = L = 0 (tests/unit/test_flowtime.c):
# FIFO starts the long reduce task at once and pays 2Q+2 + Q(2Q+3) = 54;
# the optimum serves the small jobs first.
cd "$TMP" && printf 'hta-jobs 1\njob 1 1 9\njob 2 1 1\njob 4 1 1\njob 6 1 1\njob 8 1 1\n' >a.txt && $HTA flowtime a.txt -n 1 --mode non-preemptive --no-timing
