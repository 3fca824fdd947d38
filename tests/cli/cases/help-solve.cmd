$HTA solve --help | head -n 1
