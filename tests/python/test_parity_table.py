"""Parity of the command line and the package, option by option (issue
58): a table of every command and every option `hta CMD --help` lists,
each row naming the Python argument of the same name that does the
same, or why the option has none (how the command prints or where it
writes, which a function returning values does not need).  The test
fails on an option the table does not know, on a Python argument no row
names, and on every row whose case gives other numbers from the two
sides.  What is not bound yet is listed in GAPS, and must be exactly
that list: binding an option removes its row from GAPS, a new option of
either side fails until it is in the table."""
import inspect
import json
import os
import re
import subprocess
import warnings

import numpy as np
import pytest

import hta
from jsonsame import same

# How a command prints or where it writes, not what it computes: the
# package returns the values instead.
PRINT = "presentation: the package returns the report as values"
PICTURE = ("presentation: a chart of the sweep, whose points are the "
           "returned report's")
TABLE_OUT = ("presentation: the report as CSV rows (pandas.DataFrame of "
             "the returned report)")
OUT = "output file: the package returns the object (write() writes it)"

# command -> {option: ("function", "argument") or a reason}
TABLE = {
    "solve": {
        "algo": ("solve", "algos"), "seed": ("solve", "seed"),
        "rr-runs": ("solve", "rr_runs"), "maxflow": ("solve", "maxflow"),
        "no-prune": ("solve", "no_prune"), "no-jump": ("solve", "no_jump"),
        "trace": "diagnostic print of fsy's sweep on stderr",
        "literal-balance": ("solve", "literal_balance"),
        "time-limit": ("solve", "time_limit"),
        "ilp-max-tasks": ("solve", "ilp_max_tasks"),
        "verbose": "GLPK's own progress on stderr",
        "write-cnf": ("solve", "write_cnf"),
        "sat-generic": ("solve", "sat_generic"),
        "write-lp": ("solve", "write_lp"),
        "ilp-engine": ("solve", "ilp_engine"),
        "ilp-plain": ("solve", "ilp_plain"),
        "ilp-naive": ("solve", "ilp_naive"),
        "json": PRINT, "output": "the best assignment is the report's "
                                 "'assignment' array",
        "plot": "presentation: a picture of the loads, which evaluate() "
                "returns for the caller's plotting",
        "no-timing": PRINT, "quiet": PRINT,
    },
    "eval": {"json": PRINT, "loads": "the loads and per-server counts are "
                                     "always in the result",
             "exact": ("evaluate", "exact"),
             "time-limit": ("evaluate", "time_limit"),
             "plot": "presentation: a picture of the loads, which "
                     "evaluate() returns for the caller's plotting"},
    "gen hdfs": {
        "tasks": ("gen_hdfs", "tasks"), "servers": ("gen_hdfs", "servers"),
        "replicas": ("gen_hdfs", "replicas"), "zipf": ("gen_hdfs", "zipf"),
        "policy": ("gen_hdfs", "policy"), "racks": ("gen_hdfs", "racks"),
        "w-loc": ("gen_hdfs", "w_loc"), "w-rem": ("gen_hdfs", "w_rem"),
        "w-rem-affine": ("gen_hdfs", "w_rem"),
        "w-rack": ("gen_hdfs", "w_rack"),
        "w-rack-affine": ("gen_hdfs", "w_rack"),
        "w-pod": ("gen_hdfs", "w_pod"), "w-pod-affine": ("gen_hdfs", "w_pod"),
        "pods": ("gen_hdfs", "pods"), "seed": ("gen_hdfs", "seed"),
        "output": OUT,
    },
    "gen jobs": {
        "jobs": ("gen_jobs", "jobs"), "machines": ("gen_jobs", "machines"),
        "load": ("gen_jobs", "load"), "map": ("gen_jobs", "map"),
        "reduce": ("gen_jobs", "reduce"), "tasks": ("gen_jobs", "tasks"),
        "map-only": ("gen_jobs", "map_only"), "seed": ("gen_jobs", "seed"),
        "output": "the package returns the trace (Jobs.write writes it)",
    },
    "gen cluster": {
        "servers": ("gen_cluster", "servers"),
        "data-servers": ("gen_cluster", "data_servers"),
        "types": ("gen_cluster", "types"),
        "replicas": ("gen_cluster", "replicas"),
        "total": ("gen_cluster", "total"), "load": ("gen_cluster", "load"),
        "rates": ("gen_cluster", "rates"),
        "topology": ("gen_cluster", "topology"),
        "seed": ("gen_cluster", "seed"),
        "output": "the package returns the cluster (Cluster.write writes "
                  "it)",
    },
    "gen random3sat": {"vars": ("gen_sat", "vars"),
                       "clauses": ("gen_sat", "clauses"),
                       "seed": ("gen_sat", "seed"),
                       "output": "the formula goes straight into gen_sat's "
                                 "instance"},
    "gen sat": {"output": OUT, "model": ("sat_witness", "model")},
    "gen rr-replica": {"servers": ("gen_rr_replica", "servers"),
                       "tasks": "rr-worst's (the command refuses it here)",
                       "extra": ("gen_rr_replica", "extra"), "output": OUT},
    "gen rr-worst": {"servers": ("gen_rr_worst", "servers"),
                     "tasks": ("gen_rr_worst", "tasks"),
                     "extra": "rr-replica's (the command refuses it here)",
                     "output": OUT},
    "import": {
        "w-loc": ("import_fsck", "w_loc"), "w-rem": ("import_fsck", "w_rem"),
        "w-rem-affine": ("import_fsck", "w_rem"),
        "w-rack": ("import_fsck", "w_rack"),
        "w-rack-affine": ("import_fsck", "w_rack"),
        "w-pod": ("import_fsck", "w_pod"),
        "w-pod-affine": ("import_fsck", "w_pod"),
        "strict": ("import_fsck", "strict"),
        "rack-depth": ("import_fsck", "rack_depth"),
        "block-mb": ("import_swim", "block_mb"),
        "slot-seconds": ("import_swim", "slot_seconds"),
        "reducer-mb": ("import_swim", "reducer_mb"), "output": OUT,
    },
    "capacity": {
        "method": ("capacity", "method"),
        "interior": ("capacity", "interior"),
        "decomposition": ("capacity", "decomposition"), "json": PRINT,
        "verbose": "GLPK's own progress on stderr", "quiet": PRINT,
        "from-instance": ("Cluster.from_instance", "instance"),
        "rate": ("Cluster.from_instance", "rate"),
        "rates": ("Cluster.from_instance", "rates"),
        "topology": ("Cluster.from_instance", "topology"),
    },
    "sim": {
        "policy": ("sim", "policies"), "slots": ("sim", "slots"),
        "warmup": ("sim", "warmup"), "batches": ("sim", "batches"),
        "load": ("sim", "load"), "seed": ("sim", "seed"),
        "arrivals": ("sim", "arrivals"), "job-size": ("sim", "job_size"),
        "jobs-trace": ("sim", "jobs_trace"),
        "time-scale": ("sim", "time_scale"), "block-mb": ("sim", "block_mb"),
        "subqueues": ("sim", "subqueues"), "delay": ("sim", "delay"),
        "service": ("sim", "service"), "cv": ("sim", "cv"),
        "slots-per-unit": ("sim", "slots_per_unit"),
        "sweep": ("sim", "sweep"), "trace-file": ("sim", "trace_file"),
        "trace-every": ("sim", "trace_every"),
        "max-backlog": ("sim", "max_backlog"),
        "threads": ("sim", "threads"),
        "json": PRINT, "no-timing": PRINT, "quiet": PRINT,
        "plot": PICTURE, "csv": TABLE_OUT,
        "policy-lib": "a policy compiled as a shared library; Python passes "
                      "its own policy objects in policies (hta-policy(7))",
    },
    "flowtime": {
        "machines": ("flowtime", "machines"),
        "policy": ("flowtime", "policies"), "load": ("flowtime", "load"),
        "sweep": ("flowtime", "sweep"), "mode": ("flowtime", "mode"),
        "exact-max-vars": ("flowtime", "exact_max_vars"),
        "time-limit": ("flowtime", "time_limit"),
        "classes": "presentation: the report always has the means by "
                   "job size",
        "stepwise": ("flowtime", "stepwise"),
        "threads": ("flowtime", "threads"),
        "no-timing": PRINT, "json": PRINT, "verbose": "GLPK's own progress "
        "on stderr", "quiet": PRINT, "plot": PICTURE, "csv": TABLE_OUT,
    },
    "reduce-place": {
        "policy": ("reduce_place", "policies"),
        "lambda": ("reduce_place", "lam"),
        "k-limit": ("reduce_place", "k_limit"),
        "slots": ("reduce_place", "slots"),
        "costs": ("reduce_place", "costs"), "jobs": ("reduce_place", "jobs"),
        "warmup": ("reduce_place", "warmup"),
        "batches": ("reduce_place", "batches"),
        "reducers": ("reduce_place", "reducers"),
        "data": ("reduce_place", "data"),
        "window": ("reduce_place", "window"),
        "seed": ("reduce_place", "seed"),
        "sweep": ("reduce_place", "sweep"),
        "jobs-trace": ("reduce_place", "jobs_trace"),
        "reducer-mb": ("reduce_place", "reducer_mb"),
        "threads": ("reduce_place", "threads"),
        "json": PRINT, "no-timing": PRINT, "plot": PICTURE,
        "csv": TABLE_OUT,
    },
    "decode": {},
}

# What issue 58 still has to bind (the test fails when this list is not
# exactly the table's GAP rows).
GAPS = set()

# The functions' inputs that are not options (the commands' positional
# arguments).
POSITIONAL = {"sat_witness": {"cnf"}, "solve": {"instance"}, "evaluate": {"instance", "assignment"},
              "sim": {"cluster"}, "capacity": {"cluster"},
              "flowtime": {"jobs"}, "import_fsck": {"path"},
              "import_swim": {"path"}, "gen_cluster": {"kind"},
              "reduce_place": {"slots_file"}, "gen_sat": {"cnf"}}


def cli_options(command):
    out = subprocess.run([os.environ["HTA"], *command.split(), "--help"],
                         capture_output=True, text=True).stdout
    return {m.group(1) for m in
            re.finditer(r"^\s+(?:-[a-zA-Z], )?--([a-z0-9-]+)", out, re.M)}


def test_the_table_knows_every_option_of_every_command():
    size = 0
    for command, rows in TABLE.items():
        assert cli_options(command) == set(rows), command
        size += len(rows)
    bound = sum(isinstance(r, tuple) for rows in TABLE.values()
                for r in rows.values())
    gaps = {(c, o) for c, rows in TABLE.items() for o, r in rows.items()
            if r == "GAP"}
    assert gaps == GAPS
    print(f"parity table: {len(TABLE)} commands, {size} options: {bound} "
          f"bound, {size - bound - len(gaps)} presentation, "
          f"{len(gaps)} not yet")


def test_every_argument_is_an_option_of_the_same_name():
    names = {}
    for rows in TABLE.values():
        for opt, row in rows.items():
            if isinstance(row, tuple):
                names.setdefault(row[0], set()).add(row[1])
                # the same name, '-' as '_' (the few Python-spelt ones:
                # algos, policies, lam, and w_rem for both forms of a cost)
                assert row[1] in (opt.replace("-", "_"), "algos",
                                  "policies", "lam") or \
                    opt.endswith("-affine") or \
                    (opt, row[1]) == ("from-instance", "instance"), \
                    (opt, row)
    for fn, args in names.items():
        obj = hta
        for part in fn.split("."):
            obj = getattr(obj, part)
        if fn == "Cluster.from_instance":  # a C method: its documented form
            continue
        params = set(inspect.signature(obj).parameters)
        # the notebook's own: a sweep's points on an executor, its bar
        # (the command line splits a sweep with GNU parallel or Slurm)
        extra = params - args - POSITIONAL.get(fn, set()) - \
            {"executor", "progress"}
        assert not extra, f"{fn} has arguments no option names: {extra}"


def run(*args):
    return subprocess.run([os.environ["HTA"], *map(str, args)], check=True,
                          capture_output=True, text=True).stdout




# (instance, options, arguments): fsy's on a Zipf instance, the exact
# engines' on ones they prove at once
SOLVE_CASES = [
    (["--algo", "rr,fsy"], {"algos": "rr,fsy"}),
    (["--algo", "rr", "--seed", "5", "--rr-runs", "3"],
     {"algos": "rr", "seed": 5, "rr_runs": 3}),
    (["--maxflow", "igraph"], {"maxflow": "igraph"}),
    (["--no-prune"], {"no_prune": True}),
    (["--no-jump"], {"no_jump": True}),
    (["--literal-balance"], {"literal_balance": True}),
    (["--algo", "fsy,sat", "--sat-generic", "--time-limit", "30"],
     {"algos": "fsy,sat", "sat_generic": True, "time_limit": 30}),
    (["--algo", "fsy,sat"], {"algos": "fsy,sat"}),
    (["--algo", "fsy,ilp", "--ilp-plain"],
     {"algos": "fsy,ilp", "ilp_plain": True}),
    (["--algo", "fsy,ilp", "--ilp-naive", "--ilp-engine", "glpk"],
     {"algos": "fsy,ilp", "ilp_naive": True, "ilp_engine": "glpk"}),
    (["--algo", "fsy,ilp", "--ilp-max-tasks", "5"],
     {"algos": "fsy,ilp", "ilp_max_tasks": 5}),
]


@pytest.mark.parametrize("cli_args, kw", SOLVE_CASES)
def test_solve_options(root, cli_args, kw):
    exact = any(a in ("ilp", "sat") for a in kw.get("algos", "").split(","))
    path = root / "instances" / ("example.txt" if exact else "zipf-1k.txt")
    want = json.loads(run("solve", path, *cli_args, "--json"))
    got = hta.solve(hta.Instance.read(str(path)), **kw)
    same(want, got, " ".join(cli_args))


def test_eval_counts(root, tmp_path):
    path = root / "instances" / "racks-tiny.txt"
    a = tmp_path / "a.txt"
    run("solve", path, "--algo", "hadoop", "-o", a)
    want = json.loads(run("eval", path, a, "--json"))
    inst = hta.Instance.read(str(path))
    got = hta.evaluate(inst, hta.solve(inst, algos="hadoop")["assignment"])
    for k in ("makespan", "total", "local", "remote", "w_rem_r", "argmax"):
        assert want[k] == got[k], k
    assert [s["local"] for s in want["servers"]] == list(got["server_local"])
    assert [s["remote"] for s in want["servers"]] == \
        list(got["server_remote"])
    assert [s["load"] for s in want["servers"]] == list(got["loads"])
    if "levels" in want:
        assert [s["levels"] for s in want["servers"]] == \
            got["server_levels"].tolist()
        assert [x["tasks"] for x in want["levels"]] == list(got["per_level"])
        assert [x["cost"] for x in want["levels"]] == \
            list(got["level_costs"])


def same_instance(a, b):
    assert (a.m, a.n, a.w_loc, a.w_rem, a.levels, a.w_levels) == \
        (b.m, b.n, b.w_loc, b.w_rem, b.levels, b.w_levels)
    assert np.array_equal(a.offsets, b.offsets)
    assert np.array_equal(a.servers, b.servers)
    assert (a.names, a.task_names, a.racks) == \
        (b.names, b.task_names, b.racks)


GEN_HDFS_CASES = [
    (["--tasks", 300, "--servers", 30, "--replicas", 2, "--zipf", 1.1,
      "--w-loc", 2, "--w-rem", "3,4,5", "--seed", 9],
     dict(tasks=300, servers=30, replicas=2, zipf=1.1, w_loc=2,
          w_rem=(3, 4, 5), seed=9)),
    (["--tasks", 200, "--servers", 40, "--policy", "rack-aware", "--racks",
      8, "--pods", 2, "--w-rem-affine", "3,0.01", "--w-rack-affine",
      "1.5,0.001", "--w-pod-affine", "2,0.002"],
     dict(tasks=200, servers=40, policy="rack-aware", racks=8, pods=2,
          w_rem=("affine", 3, 0.01), w_rack=("affine", 1.5, 0.001),
          w_pod=("affine", 2, 0.002))),
    (["--tasks", 100, "--servers", 20, "--policy", "rack-aware", "--racks",
      4, "--w-rack", "1.5,2", "--pods", 2, "--w-pod", 2.5],
     dict(tasks=100, servers=20, policy="rack-aware", racks=4,
          w_rack=(1.5, 2), pods=2, w_pod=2.5)),
]


@pytest.mark.parametrize("cli_args, kw", GEN_HDFS_CASES)
def test_gen_hdfs_options(tmp_path, cli_args, kw):
    f = tmp_path / "g.txt"
    run("gen", "hdfs", *cli_args, "-o", f)
    same_instance(hta.Instance.read(str(f)), hta.gen_hdfs(**kw))


def test_gen_jobs_options(tmp_path):
    f = tmp_path / "j.txt"
    run("gen", "jobs", "--jobs", 50, "--machines", 3, "--load", 0.5,
        "--map", "uniform:1:5", "--reduce", "fixed:7", "--tasks", 3,
        "--map-only", 0.25, "--seed", 8, "-o", f)
    want = hta.Jobs.read(str(f))
    got = hta.gen_jobs(jobs=50, machines=3, load=0.5, map="uniform:1:5",
                       reduce="fixed:7", tasks=3, map_only=0.25, seed=8)
    for k in ("arrival", "map_work", "reduce_work"):
        assert np.array_equal(getattr(want, k), getattr(got, k)), k


GEN_CLUSTER_CASES = [
    (["wang", "--servers", 50, "--data-servers", 40, "--replicas", 2,
      "--seed", 3], dict(servers=50, data_servers=40, replicas=2, seed=3)),
    (["random", "--servers", 30, "--types", 45, "--replicas", 3, "--load",
      0.4, "--rates", "0.9,0.5,0.2", "--topology", 5],
     dict(servers=30, types=45, replicas=3, load=0.4, rates=(0.9, 0.5, 0.2),
          topology=[5])),
    (["gbpandas", "--servers", 200, "--total", 60, "--topology", "20,5"],
     dict(servers=200, total=60, topology=(20, 5))),
]


@pytest.mark.parametrize("cli_args, kw", GEN_CLUSTER_CASES)
def test_gen_cluster_options(tmp_path, cli_args, kw):
    f = tmp_path / "c.txt"
    run("gen", "cluster", *cli_args, "-o", f)
    want = hta.Cluster.read(str(f))
    got = hta.gen_cluster(cli_args[0], **kw)
    assert np.array_equal(want.arrival_rates, got.arrival_rates)
    same(json.loads(run("capacity", f, "--json", "--quiet")),
         hta.capacity(got), " ".join(map(str, cli_args)))


def test_gen_cluster_refusals_are_the_commands():
    for cli_args, kw in [
            (["wang", "--servers", 10, "--data-servers", 11],
             dict(servers=10, data_servers=11)),
            (["random", "--rates", "0.2,0.8"], dict(rates=[0.2, 0.8])),
            (["random", "--total", 5, "--load", 1], dict(total=5, load=1)),
            (["wang", "--servers", 10, "--data-servers", 8, "--replicas", 9],
             dict(servers=10, data_servers=8, replicas=9))]:
        r = subprocess.run([os.environ["HTA"], "gen", "cluster",
                            *map(str, cli_args)], capture_output=True,
                           text=True)
        assert r.returncode == 2
        words = r.stderr.split(": ", 1)[1].split(" (usage:")[0]
        with pytest.raises(ValueError) as e:
            hta.gen_cluster(cli_args[0], **kw)
        assert str(e.value) == words


def test_import_fsck_options(root, tmp_path):
    data = root / "tests" / "data" / "fsck" / "hadoop2-racks.txt"
    for cli_args, kw in [
            ([], {}),
            (["--w-loc", 2, "--w-rem", "3,5", "--strict"],
             dict(w_loc=2, w_rem=(3, 5), strict=True)),
            (["--w-rem-affine", "4,0.5", "--w-rack", 2],
             dict(w_rem=("affine", 4, 0.5), w_rack=2)),
            (["--w-rem-affine", "3,0.2", "--w-rack-affine", "2,0.1"],
             dict(w_rem=("affine", 3, 0.2), w_rack=("affine", 2, 0.1)))]:
        f = tmp_path / "i.txt"
        run("import", "fsck", data, *cli_args, "-o", f)
        same_instance(hta.Instance.read(str(f)),
                      hta.import_fsck(str(data), **kw))


def test_import_fsck_rack_depth(root, tmp_path):
    """Racks two names deep (issue 71): --rack-depth keeps the last names,
    the same instance from both sides; refused with --w-rack alone at the
    datanode's line, the same words and line from both; --rack-depth
    against the levels priced, the command's words."""
    data = root / "tests" / "data" / "fsck" / "racks-two-deep.txt"
    for cli_args, kw in [
            (["--w-rack", 1.5, "--rack-depth", 1],
             dict(w_rack=1.5, rack_depth=1)),
            (["--rack-depth", 1], dict(rack_depth=1)),
            (["--w-rack", 1.5, "--w-pod", 2], dict(w_rack=1.5, w_pod=2))]:
        f = tmp_path / "i.txt"
        run("import", "fsck", data, *cli_args, "-o", f)
        got = hta.import_fsck(str(data), **kw)
        same_instance(hta.Instance.read(str(f)), got)
        assert got.racks[0] == ("/rack1" if "rack_depth" in kw
                                else "/dc1/rack1")
    r = subprocess.run([os.environ["HTA"], "import", "fsck", data,
                        "--w-rack", "1.5"], capture_output=True, text=True)
    assert r.returncode == 3
    with pytest.raises(hta.ParseError) as e:
        hta.import_fsck(str(data), w_rack=1.5)
    assert e.value.line == 4
    assert r.stderr.strip() == f"{data}:4: error: {e.value.args[0]}"
    assert "give --w-pod for the pod level (the first name), or " \
        "--rack-depth 1 to keep the last name" in r.stderr
    r = subprocess.run([os.environ["HTA"], "import", "fsck", data,
                        "--w-rack", "1.5", "--rack-depth", "2"],
                       capture_output=True, text=True)
    words = r.stderr.split(": ", 1)[1].split(" (usage:")[0]
    with pytest.raises(ValueError) as e:
        hta.import_fsck(str(data), w_rack=1.5, rack_depth=2)
    assert str(e.value) == words == (
        "--rack-depth: expected 1 (--w-rack prices one name, the rack), "
        "found 2")
    with pytest.raises(ValueError) as e:
        hta.import_fsck(str(data), rack_depth=7)
    assert str(e.value) == "rack_depth: expected an integer in [1, 6]"


@pytest.mark.parametrize("name", ["missing.txt", "count-mismatch.txt",
                                  "hadoop3-locations.txt"])
def test_import_fsck_warns_as_the_command(root, tmp_path, name):
    """MISSING blocks and headers whose block count disagrees: the same
    warnings, word for word, as UserWarnings."""
    data = root / "tests" / "data" / "fsck" / name
    r = subprocess.run([os.environ["HTA"], "import", "fsck", data, "-o",
                        tmp_path / "i.txt"], capture_output=True, text=True)
    said = r.stderr.splitlines()
    assert said and all(": warning: " in l for l in said)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        hta.import_fsck(str(data))
    assert [str(x.message) for x in w] == said


def test_import_swim_options(root, tmp_path):
    data = root / "instances" / "swim" / "FB-2009_samples_24_times_1hr_0.tsv"
    f = tmp_path / "j.txt"
    run("import", "swim", data, "--block-mb", 128, "--slot-seconds", 30,
        "--reducer-mb", 512, "-o", f)
    want = hta.Jobs.read(str(f))
    got = hta.import_swim(str(data), block_mb=128, slot_seconds=30,
                          reducer_mb=512)
    assert want.n == got.n
    for k in ("arrival", "map_work", "reduce_work"):
        assert np.array_equal(getattr(want, k), getattr(got, k)), k


SIM_CASES = [
    (["--policy", "fcfs,priority", "--slots", 3000, "--warmup", 500,
      "--batches", 10, "--load", 0.7, "--seed", 4, "--max-backlog", 100000],
     dict(policies="fcfs,priority", slots=3000, warmup=500, batches=10,
          load=0.7, seed=4, max_backlog=100000)),
    (["--sweep", "0.5,0.9,0.2", "--threads", 2, "--slots", 2000,
      "--service", "lognormal", "--cv", 2],
     dict(sweep=(0.5, 0.9, 0.2), threads=2, slots=2000, service="lognormal",
          cv=2)),
    (["--arrivals", "bernoulli", "--service", "deterministic", "--slots",
      2000, "--load", 0.5, "-p", "gb-pandas"],
     dict(arrivals="bernoulli", service="deterministic", slots=2000,
          load=0.5, policies=["balanced-pandas"])),
    (["--arrivals", "jobs", "--job-size", "uniform:1:6", "--subqueues",
      "--delay", "3,2", "--slots", 3000, "--load", 0.6],
     dict(arrivals="jobs", job_size="uniform:1:6", subqueues=True,
          delay=(3, 2), slots=3000, load=0.6)),
    (["--slots-per-unit", 4, "--service", "exponential", "--slots", 4000],
     dict(slots_per_unit=4, service="exponential", slots=4000)),
]


@pytest.mark.parametrize("cli_args, kw", SIM_CASES)
def test_sim_options(tmp_path, cli_args, kw):
    f = tmp_path / "c.txt"
    run("gen", "cluster", "random", "--servers", 30, "--types", 30,
        "--rates", "0.9,0.5,0.2", "--topology", 5, "-o", f)
    want = json.loads(run("sim", f, *cli_args, "--json", "--quiet"))
    same(want, hta.sim(hta.Cluster.read(str(f)), **kw),
         " ".join(map(str, cli_args)))


def test_sim_jobs_trace(root, tmp_path):
    f = tmp_path / "c.txt"
    run("gen", "cluster", "wang", "--servers", 40, "--data-servers", 30,
        "-o", f)
    trace = root / "instances" / "swim" / "FB-2009_samples_24_times_1hr_0.tsv"
    args = ["--arrivals", "jobs", "--jobs-trace", trace, "--time-scale", 40,
            "--block-mb", 256, "--slots", 3000, "-p", "fcfs,fair"]
    want = json.loads(run("sim", f, *args, "--json", "--quiet"))
    got = hta.sim(hta.Cluster.read(str(f)), arrivals="jobs",
                  jobs_trace=str(trace), time_scale=40, block_mb=256,
                  slots=3000, policies="fcfs,fair")
    same(want, got, "jobs trace")


@pytest.mark.parametrize("cli_args, kw", [
    (["--job-size", "fixed:3"], dict(job_size="fixed:3")),
    (["--subqueues"], dict(subqueues=True)),
    (["--arrivals", "jobs", "-p", "fcfs", "--delay", 3],
     dict(arrivals="jobs", policies="fcfs", delay=3)),
    (["--cv", 2], dict(cv=2)), (["--load", 1, "--sweep", "1,2,1"],
                                dict(load=1, sweep=(1, 2, 1))),
    (["-p", "fair"], dict(policies="fair")),
    (["-p", "gb-pandas,balanced-pandas"],
     dict(policies="gb-pandas,balanced-pandas")),
    (["--slots", 100, "--warmup", 90], dict(slots=100, warmup=90)),
    (["--time-scale", 2], dict(time_scale=2)),
    (["--arrivals", "bernoulli", "--load", 5],
     dict(arrivals="bernoulli", load=5)),
    (["--arrivals", "jobs", "--subqueues", "-p", "fair,delay"],
     dict(arrivals="jobs", subqueues=True, policies=["fair", "delay"])),
    (["--arrivals", "jobs", "--job-size", "fixed:2", "--jobs-trace",
      "SWIM"], dict(arrivals="jobs", job_size="fixed:2", jobs_trace="SWIM")),
    (["--arrivals", "jobs", "--jobs-trace", "SWIM", "--load", 2],
     dict(arrivals="jobs", jobs_trace="SWIM", load=2)),
    (["--slots", 1000, "--batches", 990, "--warmup", 20],
     dict(slots=1000, batches=990, warmup=20)),
    (["--load", 2e5], dict(load=2e5)),
])
def test_sim_refuses_what_the_command_refuses(root, tmp_path, cli_args, kw):
    """The same refusals with the same words (the library's
    hta_sim_ask_check and hta_sim_setup_make for both)."""
    f = tmp_path / "c.txt"
    run("gen", "cluster", "random", "--servers", 10, "--types", 10,
        "--rates", "1e4,2e3", "-o", f)
    trace = str(root / "instances" / "swim" /
                "FB-2009_samples_24_times_1hr_0.tsv")
    cli_args = [trace if a == "SWIM" else a for a in cli_args]
    kw = {k: trace if v == "SWIM" else v for k, v in kw.items()}
    r = subprocess.run([os.environ["HTA"], "sim", str(f), "-q",
                        *map(str, cli_args)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    words = r.stderr.split(": ", 1)[1].split(" (usage:")[0]
    with pytest.raises(ValueError) as e:
        hta.sim(hta.Cluster.read(str(f)), **kw)
    assert str(e.value) == words


def test_gen_rr(tmp_path):
    for cli_args, fn, kw in [
            (["rr-replica", "--servers", 9], "gen_rr_replica",
             dict(servers=9)),
            (["rr-replica", "--servers", 9, "--extra"], "gen_rr_replica",
             dict(servers=9, extra=True)),
            (["rr-worst", "--servers", 8, "--tasks", 45], "gen_rr_worst",
             dict(servers=8, tasks=45))]:
        f = tmp_path / "i.txt"
        run("gen", *cli_args, "-o", f)
        same_instance(hta.Instance.read(str(f)), getattr(hta, fn)(**kw))
    with pytest.raises(ValueError):
        hta.gen_rr_worst(8, 49)  # M <= N(N-2), as the command refuses


def test_capacity_options(root, tmp_path):
    f = tmp_path / "c.txt"
    run("gen", "cluster", "random", "--servers", 30, "--types", 40,
        "--rates", "0.9,0.5,0.2", "--topology", 5, "-o", f)
    c = hta.Cluster.read(str(f))
    for args, kw in [(["--method", "lp", "--interior"],
                      dict(method="lp", interior=True)),
                     (["--method", "plain"], dict(method="plain"))]:
        same(json.loads(run("capacity", f, *args, "--json", "--quiet")),
             hta.capacity(c, **kw), " ".join(args))
    dec = tmp_path / "d.txt"
    run("capacity", f, "--method", "lp", "--decomposition", dec, "--quiet")
    rows = [l.split() for l in dec.read_text().splitlines()
            if l and not l.startswith(("#", "hta-"))]
    got = hta.capacity(c, method="lp", decomposition=True)["decomposition"]
    assert [int(r[0]) for r in rows] == list(got["type"])
    assert [int(r[1]) for r in rows] == list(got["server"])
    assert [float(r[2]) for r in rows] == list(got["rate"])
    assert [int(r[3]) for r in rows] == list(got["level"])
    inst = root / "instances" / "racks-tiny.txt"
    for args, kw in [(["--rate", 0.3, "--rates", "1,0.5,0.2"],
                      dict(rate=0.3, rates=[1, 0.5, 0.2])),
                     (["--rate", 0.1, "--rates", "0.8,0.2"],
                      dict(rate=0.1, rates=[0.8, 0.2]))]:
        two = inst if len(kw["rates"]) == 3 else \
            root / "instances" / "example.txt"
        want = json.loads(run("capacity", "--from-instance", two, *args,
                              "--json", "--quiet"))
        got = hta.capacity(hta.Cluster.from_instance(
            hta.Instance.read(str(two)), **kw))
        same(want, got, " ".join(map(str, args)))


def test_cluster_and_jobs_write(tmp_path):
    c = hta.gen_cluster("gbpandas", servers=100, topology=(10, 5), seed=2)
    c.write(str(tmp_path / "c.txt"), comment="a\nb")
    back = hta.Cluster.read(str(tmp_path / "c.txt"))
    assert np.array_equal(back.arrival_rates, c.arrival_rates)
    assert (tmp_path / "c.txt").read_text().startswith("# a\n# b\n")
    j = hta.gen_jobs(jobs=40, seed=3)
    j.write(str(tmp_path / "j.txt"), comment="x\ny")
    back = hta.Jobs.read(str(tmp_path / "j.txt"))
    assert np.array_equal(back.arrival, j.arrival)
    assert np.array_equal(back.reduce_work, j.reduce_work)


def test_sat_witness_and_decode(root, tmp_path):
    """gen sat --model and decode, both ways round the reduction."""
    cnf = root / "tests" / "data" / "satlib" / "uf20-01.cnf"
    inst_f, a_f, model_f, w_f = (tmp_path / n for n in
                                 ("s.txt", "a.txt", "m.txt", "w.txt"))
    run("gen", "sat", cnf, "-o", inst_f)
    run("solve", inst_f, "--algo", "fsy,exact", "-o", a_f)
    model_f.write_text(run("decode", cnf, a_f))
    run("gen", "sat", cnf, "--model", model_f, "-o", w_f)
    want = [int(l.split()[1]) for l in w_f.read_text().splitlines()
            if l and l[0].isdigit()]
    got = hta.sat_witness(str(cnf), str(model_f))
    assert list(got) == want
    assert hta.evaluate(hta.gen_sat(str(cnf)), got)["makespan"] == 3
    a = [int(l.split()[1]) for l in a_f.read_text().splitlines()
         if l and l[0].isdigit()]
    v = [int(x) for l in model_f.read_text().splitlines()
         if l.startswith("v") for x in l.split()[1:] if x != "0"]
    model = hta.decode(str(cnf), np.array(a))
    assert [(1 if model[abs(x)] else -1) * abs(x) for x in v] == v
    # an assignment of makespan above 3 proves nothing (exit 5)
    worse = hta.solve(hta.gen_sat(str(cnf)), algos="rr")["assignment"]
    r = subprocess.run([os.environ["HTA"], "decode", str(cnf), "-"],
                       input="hta-assignment 1\n" + "".join(
                           f"{t} {s}\n" for t, s in enumerate(worse)),
                       capture_output=True, text=True)
    assert hta.evaluate(hta.gen_sat(str(cnf)), worse)["makespan"] > 3
    assert r.returncode == 5, r.stderr
    assert hta.decode(str(cnf), worse) is None


def test_solve_writes_the_commands_models(root, tmp_path):
    zipf = root / "instances" / "zipf-1k.txt"
    ex = root / "instances" / "example.txt"
    sat = root / "instances" / "sat-uf20-01.txt"
    thm = root / "instances" / "thm41-extra-8.txt"
    racks = root / "instances" / "racks-tiny.txt"
    # written by both: the first three; refused by both: the last two
    for path, algos, opt, kw in [
            (ex, "fsy,ilp", "--write-lp", "write_lp"),
            (sat, "rr,sat", "--write-cnf", "write_cnf"),
            (thm, "rr,sat", "--write-cnf", "write_cnf"),
            (racks, "rr,sat", "--write-cnf", "write_cnf"),
            (zipf, "rr,close", "--write-lp", "write_lp")]:
        a, b = tmp_path / "cli.out", tmp_path / "py.out"
        r = subprocess.run([os.environ["HTA"], "solve", str(path), "--algo",
                            algos, opt, str(a)], capture_output=True,
                           text=True)
        if path in (ex, sat, thm):
            assert r.returncode == 0, r.stderr
            hta.solve(hta.Instance.read(str(path)), algos=algos,
                      **{kw: str(b)})
            assert a.read_bytes() == b.read_bytes(), (algos, opt)
        else:  # nothing built: both refuse and write nothing
            assert r.returncode == 2
            with pytest.raises(ValueError, match=kw):
                hta.solve(hta.Instance.read(str(path)), algos=algos,
                          **{kw: str(b)})
            assert not b.exists()
        for f in (a, b):
            if f.exists():
                f.unlink()


def test_sim_trace_file(tmp_path):
    f = tmp_path / "c.txt"
    run("gen", "cluster", "random", "--servers", 20, "--types", 20,
        "-o", f)
    a, b = tmp_path / "cli.csv", tmp_path / "py.csv"
    run("sim", f, "--slots", 3000, "--sweep", "0.5,0.9,0.4", "-p",
        "fcfs,priority", "--trace-file", a, "--trace-every", 7,
        "--threads", 2, "--quiet")
    hta.sim(hta.Cluster.read(str(f)), slots=3000, sweep=(0.5, 0.9, 0.4),
            policies="fcfs,priority", trace_file=str(b), trace_every=7,
            threads=2)
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_text().splitlines()) == 1 + 4 * (3000 // 7)


# (jobs of the trace, options, arguments): the exact program on a trace
# it proves at once
FT_CASES = [
    (6, ["-n", 3, "-p", "srpt,fifo,exact", "--exact-max-vars", 100000,
         "--time-limit", 30], dict(machines=3, policies="srpt,fifo,exact",
                                   exact_max_vars=100000, time_limit=30)),
    (25, ["--load", 0.6, "--mode", "non-preemptive", "--stepwise"],
     dict(load=0.6, mode="non-preemptive", stepwise=True)),
    (25, ["--sweep", "0.3,0.9,0.3", "--threads", 2, "-p",
          "srpt,asrpt,fair"],
     dict(sweep=(0.3, 0.9, 0.3), threads=2, policies="srpt,asrpt,fair")),
]


@pytest.mark.parametrize("njobs, cli_args, kw", FT_CASES)
def test_flowtime_options(tmp_path, njobs, cli_args, kw):
    f = tmp_path / "j.txt"
    run("gen", "jobs", "--jobs", njobs, "--machines", 3, "--tasks", 2,
        "--map", "uniform:1:4", "--reduce", "uniform:1:4", "--seed", 9,
        "-o", f)
    want = json.loads(run("flowtime", f, *cli_args, "--json", "--quiet"))
    if njobs == 6:  # the case of the exact program: it proves
        assert want["exact"]["status"] == "optimal"
    same(want, hta.flowtime(hta.Jobs.read(str(f)), **kw),
         " ".join(map(str, cli_args)))


@pytest.mark.parametrize("cli_args, kw", [
    (["-n", 2, "--load", 0.5], dict(machines=2, load=0.5)),
    (["--mode", "non-preemptive", "-p", "dsrpt", "-n", 2],
     dict(mode="non-preemptive", policies="dsrpt", machines=2)),
    (["-n", 2, "-p", "fifo", "--time-limit", 5],
     dict(machines=2, policies="fifo", time_limit=5)),
    (["--load", 1.5], dict(load=1.5)),
    (["--sweep", "0.9,0.3,0.1"], dict(sweep=(0.9, 0.3, 0.1))),
])
def test_flowtime_refuses_what_the_command_refuses(tmp_path, cli_args, kw):
    f = tmp_path / "j.txt"
    run("gen", "jobs", "--jobs", 10, "-o", f)
    r = subprocess.run([os.environ["HTA"], "flowtime", str(f),
                        *map(str, cli_args)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    with pytest.raises(ValueError):
        hta.flowtime(hta.Jobs.read(str(f)), **kw)


RPLACE_CASES = [
    (["--sweep", "0.2,0.6,0.2", "--threads", 2, "--jobs", 3000],
     dict(sweep=(0.2, 0.6, 0.2), threads=2, jobs=3000)),
    (["--jobs-trace", "SWIM", "--reducer-mb", 256, "--lambda", 0.5,
      "--slots", 400, "--policy", "random,greedy,rhc-adaptive", "--window",
      50, "--warmup", 100, "--batches", 10],
     dict(jobs_trace="SWIM", reducer_mb=256, lam=0.5, slots=400,
          policies=["random", "greedy", "rhc-adaptive"], window=50,
          warmup=100, batches=10)),
    (["--jobs-trace", "SWIM", "--sweep", "0.3,0.5,0.2", "--costs", "2,9",
      "--k-limit", 4, "--seed", 11],
     dict(jobs_trace="SWIM", sweep=(0.3, 0.5, 0.2), costs=(2, 9), k_limit=4,
          seed=11)),
]


@pytest.mark.parametrize("cli_args, kw", RPLACE_CASES)
def test_reduce_place_options(root, cli_args, kw):
    trace = str(root / "instances" / "swim" /
                "FB-2009_samples_24_times_1hr_0.tsv")
    cli_args = [trace if a == "SWIM" else a for a in cli_args]
    kw = {k: trace if v == "SWIM" else v for k, v in kw.items()}
    want = json.loads(run("reduce-place", *cli_args, "--json"))
    same(want, hta.reduce_place(**kw), " ".join(map(str, cli_args)))


def test_reduce_place_refusals_are_the_commands(root):
    trace = str(root / "instances" / "swim" /
                "FB-2009_samples_24_times_1hr_0.tsv")
    for cli_args, kw in [
            (["--reducer-mb", 64], dict(reducer_mb=64)),
            (["--jobs-trace", trace, "--jobs", 100],
             dict(jobs_trace=trace, jobs=100)),
            (["--jobs-trace", trace, "--policy", "optimal", "--slots", 10],
             dict(jobs_trace=trace, policies=["optimal"], slots=10)),
            (["--policy", "optimal", "--slots", 31],
             dict(policies=["optimal"], slots=31)),
            (["--window", 5, "--policy", "rhc"],
             dict(window=5, policies=["rhc"])),
            (["--costs", "5,1"], dict(costs=(5, 1))),
            (["--jobs", 10], dict(jobs=10)),
            (["--slots", 20], dict(slots=20)),
            (["--jobs-trace", trace, "--k-limit", 2000],
             dict(jobs_trace=trace, k_limit=2000)),
            (["--jobs-trace", trace, "--warmup", 100000],
             dict(jobs_trace=trace, warmup=100000)),
            (["--data", "exp:5"], dict(data="exp:5")),
            (["--reducers", "exp:5"], dict(reducers="exp:5"))]:
        r = subprocess.run([os.environ["HTA"], "reduce-place",
                            *map(str, cli_args)], capture_output=True,
                           text=True)
        assert r.returncode == 2, (cli_args, r.stderr)
        words = r.stderr.split(": ", 1)[1].split(" (usage:")[0]
        with pytest.raises(ValueError) as e:
            hta.reduce_place(**kw)
        assert str(e.value) == words, cli_args
