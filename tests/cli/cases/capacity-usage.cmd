$HTA capacity
