#!/bin/sh
# Runs a file of independent commands, one a line, as the experiment
# scripts write them: through GNU parallel when it is installed, on this
# host's processors, or with HTA_HOSTS over hosts (GNU parallel's
# --sshlogin list: "host1,host2", "8/host3" for 8 jobs there, ":" for this
# host), each command in this directory on every host (the repository at
# the same path everywhere, a shared file system: the commands read and
# write files under it); without parallel, one after the other.  Stops at
# the first command that fails, with its status.
# usage: [HTA_HOSTS=LIST] scripts/run_parallel.sh CMDFILE
set -eu
cmds=$1
if command -v parallel >/dev/null 2>&1; then
    if [ -n "${HTA_HOSTS:-}" ]; then
        exec parallel --will-cite --halt now,fail=1 --sshlogin "$HTA_HOSTS" \
            --workdir "$PWD" <"$cmds"
    fi
    exec parallel --will-cite --halt now,fail=1 -j "$(nproc)" <"$cmds"
fi
exec sh -e "$cmds"
