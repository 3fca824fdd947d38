# servers beyond the named ones (the idle tail) are evaluated like any
# other: task 1 on server 5 of 6, of which the library keeps 3 working
cd "$TMP" && printf 'hta-instance 1\ntasks 2\nservers 6\nw_loc 1\nw_rem 3\ntask 0 0\ntask 1 0\n' > i.txt && printf 'hta-assignment 1\n0 0\n1 5\n' > a.txt && $HTA eval i.txt a.txt --loads && $HTA eval i.txt a.txt --json | head -c 120 && echo && $HTA solve i.txt --algo rr,fsy,brute --no-timing
