# eval on N levels: the tasks and the cost in force at each level.
$HTA eval instances/racks-tiny.txt tests/data/racks-tiny.asg --loads
