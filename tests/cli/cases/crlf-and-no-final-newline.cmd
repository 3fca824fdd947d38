cd "$TMP" && printf "hta-instance 1\r\ntasks 2\r\nservers 2\r\nw_loc 1\r\nw_rem 3\r\ntask 0 0 1\r\ntask 1 0" > i.txt && $HTA solve i.txt --no-timing
