"""The README's recipes for a sweep past one machine, run on this one
(issue 69): a sweep split by load with GNU parallel, or as a Slurm job
array's tasks, gives CSV files that, concatenated with one header, are
the whole sweep's CSV byte for byte (sim, flowtime, reduce-place)."""
import os
import shutil
import subprocess

import pytest

HTA = os.environ.get("HTA")


def run(*args, cwd):
    subprocess.run([HTA, *map(str, args)], check=True, cwd=cwd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def concatenated(parts):
    out = parts[0].read_bytes().split(b"\n", 1)[0] + b"\n"
    for p in parts:
        out += p.read_bytes().split(b"\n", 1)[1]
    return out


CASES = {
    "sim": (["sim", "c.txt", "--slots", "3000", "--seed", "3"],
            "--load", ["0.5", "0.6", "0.7", "0.8", "0.9", "1", "1.1"],
            "0.5,1.1,0.1"),
    "flowtime": (["flowtime", "j.txt", "--no-timing", "-p",
                  "srpt,fifo,fair"],
                 "--load", ["0.4", "0.55", "0.7", "0.85"], "0.4,0.85,0.15"),
    "reduce-place": (["reduce-place", "--slots", "120", "--jobs", "400",
                      "--no-timing"], "--lambda",
                     ["0.2", "0.3", "0.4", "0.5"], "0.2,0.5,0.1"),
}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("split")
    run("gen", "cluster", "wang", "--servers", "40", "--data-servers", "20",
        "-o", "c.txt", cwd=d)
    run("gen", "jobs", "--jobs", "400", "--machines", "5", "--seed", "2",
        "-o", "j.txt", cwd=d)
    return d


@pytest.mark.parametrize("name", CASES)
def test_gnu_parallel_split_is_the_whole_sweep(work, name):
    base, opt, loads, sweep = CASES[name]
    d = work / f"par-{name}"
    d.mkdir()
    for f in ("c.txt", "j.txt"):
        shutil.copy(work / f, d / f)
    run(*base, "--sweep", sweep, "--csv", "whole.csv", cwd=d)
    # the README's line, with this machine as the only host
    subprocess.run(["parallel", "-j2", HTA, *base, opt, "{}", "--csv",
                    "part-{}.csv", ":::", *loads], check=True, cwd=d,
                   stdout=subprocess.DEVNULL)
    parts = [d / f"part-{x}.csv" for x in loads]
    assert concatenated(parts) == (d / "whole.csv").read_bytes()


def test_slurm_array_split_is_the_whole_sweep(work):
    base, opt, loads, sweep = CASES["sim"]
    d = work / "slurm"
    d.mkdir()
    shutil.copy(work / "c.txt", d / "c.txt")
    run(*base, "--sweep", sweep, "--csv", "whole.csv", cwd=d)
    # the README's sweep.sh, each array task as Slurm would start it
    script = d / "sweep.sh"
    script.write_text(
        "#!/bin/bash\n"
        f"loads=({' '.join(loads)})\n"
        f"\"$HTA\" {' '.join(base)} --load "
        "${loads[$SLURM_ARRAY_TASK_ID]} "
        "--csv part-$SLURM_ARRAY_TASK_ID.csv\n")
    for k in range(len(loads)):
        subprocess.run(["bash", str(script)], check=True, cwd=d,
                       env={**os.environ, "HTA": HTA,
                            "SLURM_ARRAY_TASK_ID": str(k)},
                       stdout=subprocess.DEVNULL)
    parts = [d / f"part-{k}.csv" for k in range(len(loads))]
    assert concatenated(parts) == (d / "whole.csv").read_bytes()
