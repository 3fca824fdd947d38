"""The package gives the command's numbers on the same inputs and seeds:
solve on the bundled suite (from the file and from numpy arrays), the
capacity region, the simulator and flow time, every field compared except
the seconds and the path."""
import os
import subprocess

import numpy as np
import pytest

import hta
from jsonsame import same


def run_cli(*args):
    subprocess.run([os.environ["HTA"], *map(str, args)], check=True,
                   capture_output=True)


def suite_files(root):
    for line in (root / "instances" / "SUITE.tsv").read_text().splitlines():
        if line and not line.startswith(("#", "@")):
            yield line.split("\t")[0]




def test_solve_suite(cli, root):
    files = list(suite_files(root))
    assert len(files) >= 15
    for f in files:
        path = root / "instances" / f
        want = cli("solve", path, "--algo", "rr,fsy,hadoop", "--json")
        inst = hta.Instance.read(str(path))
        got = hta.solve(inst, algos=("rr", "fsy", "hadoop"))
        same(want, got, f)
        # the best assignment evaluates to the best makespan
        ev = hta.evaluate(inst, got["assignment"])
        assert ev["makespan"] == got["best"]["makespan"], f
        # the same instance from its arrays: the same report
        again = hta.Instance.from_arrays(
            inst.offsets, inst.servers, inst.n, inst.w_loc, inst.w_rem,
            racks=inst.racks if inst.levels > 2 else None,
            w_levels=inst.w_levels)
        same(want, hta.solve(again, algos="rr,fsy,hadoop"), f + " (arrays)")


@pytest.mark.parametrize("name", ["example.txt", "racks-tiny.txt",
                                  "hdfs-pods-1k.txt"])
def test_solve_exact(cli, root, name):
    path = root / "instances" / name
    want = cli("solve", path, "--algo", "fsy,exact", "--json")
    got = hta.solve(hta.Instance.read(str(path)), algos=("fsy", "exact"))
    same(want, got, name)
    assert got["best"]["proven_optimal"]


def test_randomized_rr(cli, root):
    path = root / "instances" / "zipf-1k.txt"
    want = cli("solve", path, "--algo", "rr", "--seed", 7, "--rr-runs", 5,
               "--json")
    got = hta.solve(hta.Instance.read(str(path)), algos="rr", seed=7,
                    rr_runs=5)
    same(want, got, "rr seed 7")


def test_gen_hdfs(cli, root, tmp_path):
    f = tmp_path / "g.txt"
    cli_args = ["gen", "hdfs", "--tasks", 500, "--servers", 40, "--racks", 4,
                "--policy", "rack-aware", "--zipf", 1.2, "--w-rack", 1.5,
                "--w-rem", 3, "--seed", 4, "-o", f]
    run_cli(*cli_args)
    want = hta.Instance.read(str(f))
    got = hta.gen_hdfs(500, 40, racks=4, policy="rack-aware", zipf=1.2,
                       w_rack=1.5, w_rem=3, seed=4)
    assert got.m == want.m and got.n == want.n and got.levels == 3
    assert np.array_equal(got.offsets, want.offsets)
    assert np.array_equal(got.servers, want.servers)
    assert got.racks == want.racks and got.w_levels == want.w_levels
    # written by the package, read back: the same instance
    g = tmp_path / "w.txt"
    got.write(str(g))
    back = hta.Instance.read(str(g))
    assert np.array_equal(back.servers, got.servers)
    assert back.racks == got.racks


def test_capacity_and_sim(cli, tmp_path):
    for kind in ("random", "wang"):
        f = tmp_path / f"{kind}.cl"
        run_cli("gen", "cluster", kind, "-o", f)
        c = hta.Cluster.read(str(f))
        g = hta.gen_cluster(kind)
        assert np.array_equal(c.arrival_rates, g.arrival_rates)
        want = cli("capacity", f, "--json", "--quiet")
        same(want, hta.capacity(c), f"capacity {kind}")
        same(cli("capacity", f, "--json", "--quiet", "--method", "lp"),
             hta.capacity(c, method="lp"), f"capacity lp {kind}")
        want = cli("sim", f, "--slots", 2000, "--load", 0.8, "--seed", 3,
                   "--json", "--quiet")
        got = hta.sim(c, slots=2000, load=0.8, seed=3)
        same(want, got, f"sim {kind}")


def test_flowtime(cli, tmp_path):
    f = tmp_path / "j.txt"
    run_cli("gen", "jobs", "--jobs", 60, "--machines", 4, "--seed", 5,
            "-o", f)
    j = hta.Jobs.read(str(f))
    g = hta.gen_jobs(jobs=60, machines=4, seed=5)
    assert np.array_equal(j.arrival, g.arrival)
    assert np.array_equal(j.map_work, g.map_work)
    assert np.array_equal(j.reduce_work, g.reduce_work)
    want = cli("flowtime", f, "-n", 4, "--json")
    got = hta.flowtime(j, 4)
    same(want, got, "flowtime")
    for r in got["policies"]:
        assert r["finish"].dtype == np.int64 and len(r["finish"]) == 60
        assert int((r["finish"] - j.arrival + 1).sum()) == r["total"]


def test_gen_sat(root, tmp_path):
    for cnf in ("uf20-01.cnf", "uf100-01.cnf"):
        f = tmp_path / "i.txt"
        run_cli("gen", "sat", root / "tests/data/satlib" / cnf, "-o", f)
        want = hta.Instance.read(str(f))
        got = hta.gen_sat(str(root / "tests/data/satlib" / cnf))
        assert np.array_equal(got.offsets, want.offsets)
        assert np.array_equal(got.servers, want.servers)
        assert (got.w_loc, got.w_rem) == (want.w_loc, want.w_rem)
    c = tmp_path / "r.cnf"
    run_cli("gen", "random3sat", "--vars", 8, "--clauses", 30, "--seed", 2,
            "-o", c)
    run_cli("gen", "sat", c, "-o", f)
    want = hta.Instance.read(str(f))
    got = hta.gen_sat(vars=8, clauses=30, seed=2)
    assert np.array_equal(got.servers, want.servers)
    # Theorem 3.1: optimum 3 if and only if satisfiable (uf20-01 is)
    rep = hta.solve(hta.gen_sat(str(root / "tests/data/satlib/uf20-01.cnf")),
                    algos="fsy,exact", time_limit=60)
    assert rep["best"] == {"algorithm": rep["best"]["algorithm"],
                           "makespan": 3.0, "proven_optimal": True}


def test_reduce_place(cli, root):
    want = cli("reduce-place", "--jobs", 4000, "--seed", 3, "--json")
    got = hta.reduce_place(jobs=4000, seed=3)
    same(want, got, "reduce-place")
    f = root / "instances/slots/fig1.txt"
    want = cli("reduce-place", f, "--jobs", 3000, "--reducers",
               "uniform:1:2", "--k-limit", 2, "--lambda", 0.6, "--policy",
               "random,greedy,rhc", "--json")
    got = hta.reduce_place(str(f), jobs=3000, reducers="uniform:1:2",
                           k_limit=2, lam=0.6,
                           policies=["random", "greedy", "rhc"])
    same(want, got, "reduce-place fig1")
    # the optimal policy and its decision process' bounds
    want = cli("reduce-place", "--slots", 8, "--jobs", 3000, "--reducers",
               "fixed:1", "--data", "uniform:1:9", "--k-limit", 2,
               "--lambda", 0.5, "--policy", "greedy,optimal", "--json")
    got = hta.reduce_place(slots=8, jobs=3000, reducers="fixed:1",
                           data="uniform:1:9", k_limit=2, lam=0.5,
                           policies=["greedy", "optimal"])
    assert "optimal_cost_lo" in want
    same(want, got, "reduce-place optimal")
