"""The README's recipes for a sweep past one machine, run on this one
(issue 69): a sweep split by load with GNU parallel, or as a Slurm job
array's tasks, gives CSV files that, concatenated with one header, are
the whole sweep's CSV byte for byte (sim, flowtime, reduce-place)."""
import os
import re
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


PLOT_OPTS = {"sim": "--plot", "flowtime": "--plot", "reduce-place": "--plot"}
WORDS = re.compile(rb'^<text class="(title|subtitle|ylabel)".*\n', re.M)


@pytest.mark.parametrize("name", CASES)
def test_hta_plot_of_the_parts_is_the_whole_sweeps_chart(work, name):
    # issue 69: the parts' CSV files, in any order, redraw the chart the
    # whole sweep's --plot draws (the words the CSV lacks aside: title,
    # subtitle, sim's y label)
    base, opt, loads, sweep = CASES[name]
    d = work / f"plot-{name}"
    d.mkdir()
    for f in ("c.txt", "j.txt"):
        shutil.copy(work / f, d / f)
    run(*base, "--sweep", sweep, "--plot", "whole.svg", "--csv", "whole.csv",
        cwd=d)
    for x in loads:
        run(*base, opt, x, "--csv", f"part-{x}.csv", cwd=d)
    parts = [f"part-{x}.csv" for x in reversed(loads)]
    run("plot", *parts, "-o", "parts.svg", cwd=d)
    run("plot", "whole.csv", "-o", "one.svg", cwd=d)
    whole = WORDS.sub(b"", (d / "whole.svg").read_bytes())
    assert WORDS.sub(b"", (d / "parts.svg").read_bytes()) == whole
    assert WORDS.sub(b"", (d / "one.svg").read_bytes()) == whole
    assert whole.count(b'class="point"') >= len(loads) * 2


def refused(d, *args):
    r = subprocess.run([HTA, "plot", *args], cwd=d, capture_output=True,
                       text=True)
    return r.returncode, r.stderr.strip()


def test_hta_plot_refuses_what_is_not_a_sweep(work):
    d = work / "bad"
    d.mkdir()
    shutil.copy(work / "c.txt", d / "c.txt")
    shutil.copy(work / "j.txt", d / "j.txt")
    run("sim", "c.txt", "--sweep", "0.5,0.7,0.1", "--slots", "1500", "--csv",
        "s.csv", cwd=d)
    run("flowtime", "j.txt", "--load", "0.6", "--csv", "f.csv", cwd=d)
    run("sim", "c.txt", "--load", "0.6", "--slots", "1500", "--csv",
        "p.csv", cwd=d)
    s = (d / "s.csv").read_text().split("\n")
    (d / "cut.csv").write_text("\n".join(l.rsplit(",", 1)[0] for l in s))
    (d / "dup.csv").write_text("\n".join(s[:3] + s[2:]))
    (d / "nan.csv").write_text("\n".join([s[0], s[1].replace(",", ",x", 1)]
                                         + s[2:]))
    (d / "nul.csv").write_bytes(b"load,rho\x00\n")
    # a load past the commands' (0, 1e6] (before: a chart of x="inf"),
    # and a delay of 1e308 (before: a y axis written without end)
    (d / "huge.csv").write_text("\n".join([s[0], "1e308" + s[1][3:]]))
    (d / "neg.csv").write_text("\n".join([s[0], "-0.5" + s[1][3:]]))
    (d / "nanx.csv").write_text("\n".join([s[0], "nan" + s[1][3:]]))
    big = s[1].split(",")
    big[3] = big[4] = "1e308"
    (d / "big.csv").write_text("\n".join([s[0], ",".join(big)]) + "\n")
    (d / "empty.csv").write_text("")
    cases = [
        (("s.csv", "f.csv"), "f.csv:1: error: expected the first file's "
         "header, found 'load,load_asked,machines,"),
        (("cut.csv",), "cut.csv:1: error: expected the header of hta sim, "
         "flowtime or reduce-place --csv, found 'load,rho,policy,delay,"),
        (("dup.csv",), "dup.csv:4: error: expected each policy once at load "
         "0.5, found 'priority' again (line 3)"),
        (("s.csv", "p.csv"), "p.csv:2: error: expected each load once, "
         "found 0.6 again (first at s.csv:6)"),
        (("nan.csv",), "nan.csv:2: error: expected rho, found 'x"),
        (("nul.csv",), "nul.csv:1: error: expected text, found a NUL byte"),
        (("empty.csv",), "empty.csv:1: error: expected the header of hta "
         "sim, flowtime or reduce-place --csv, found the end of the file"),
        (("missing.csv",), "missing.csv: error: cannot open"),
        (("huge.csv",), "huge.csv:2: error: expected a load in (0, 1e6], "
         "found '1e308'"),
        (("neg.csv",), "neg.csv:2: error: expected a load in (0, 1e6], "
         "found '-0.5'"),
        (("nanx.csv",), "nanx.csv:2: error: expected a load in (0, 1e6], "
         "found 'nan'"),
    ]
    for files, says in cases:
        code, err = refused(d, *files, "-o", "out.svg")
        assert code in (3, 4) and err.startswith(says), (files, err)
        assert not (d / "out.svg").exists()
    r = subprocess.run([HTA, "plot", "big.csv", "-o", "-"], cwd=d,
                       capture_output=True, timeout=30, check=True)
    assert r.stdout.endswith(b"</svg>\n") and len(r.stdout) < 100000
    code, err = refused(d, "s.csv", "-o", "s.csv")
    assert code == 2 and "output 's.csv' is the input 's.csv'" in err
    code, err = refused(d, "s.csv")
    assert code == 2 and "expected -o FILE.svg" in err


def test_sweep_loads_are_pythons_and_the_commands(work):
    # found by the hostile review: a STEP written with 34 decimals gave
    # the command 0.30000000000000004 and Python 0.3 (the decimals are
    # now the shortest text of the doubles, as Python's repr, on both)
    import hta
    for sweep in ("0.1,0.3,0.1000000000000000055511151231257827",
                  "0.1,0.7,0.1", "0.05,0.35,0.15", "1e-1,3e-1,1e-1"):
        d = work / "loads"
        d.mkdir(exist_ok=True)
        run("reduce-place", "--slots", "100", "--jobs", "100", "--sweep",
            sweep, "--policy", "greedy", "--csv", "r.csv", "--no-timing",
            cwd=d)
        got = [float(l.split(",")[0]) for l in
               (d / "r.csv").read_text().split("\n")[1:] if l]
        a, b, step = (float(x) for x in sweep.split(","))
        assert got == hta._sweep(a, b, step), sweep
        assert all(repr(x) == repr(round(x, 12)) for x in got), got
