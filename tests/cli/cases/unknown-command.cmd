$HTA frobnicate 2>&1 | head -n 1; exit 0
