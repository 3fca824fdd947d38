$HTA --version
