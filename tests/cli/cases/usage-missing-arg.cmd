$HTA solve
