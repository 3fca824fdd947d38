$HTA --version | head -n 3
