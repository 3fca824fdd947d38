$HTA --version | tail -n 1
