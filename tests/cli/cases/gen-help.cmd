$HTA gen --help
