"""Gaps for any assignment (issue 60, offline part): `hta eval` and
`hta.evaluate` report the lower bound hta solve prints and the gap to it,
and with --exact / exact=True the optimum hta solve's exact portfolio
proves from the assignment, and the gap to it.  Oracles: brute force on
tiny two- and three-level instances (every assignment tried), `hta solve
--json`'s bound, and the command against the package, field by field."""
import json
import os
import subprocess

import numpy as np
import pytest

import hta

HTA = os.environ["HTA"]


def run(*args, check=True):
    return subprocess.run([HTA, *map(str, args)], check=check,
                          capture_output=True, text=True)


def tiny(tmp_path, seed, levels):
    p = tmp_path / f"i{seed}.txt"
    extra = ["--racks", 2, "--policy", "rack-aware", "--w-rack", 1.5] \
        if levels == 3 else []
    run("gen", "hdfs", "--tasks", 7, "--servers", 4, "--replicas", 2,
        "--zipf", 1.2, "--seed", seed, *extra, "-o", p)
    return p


@pytest.mark.parametrize("levels", [2, 3])
def test_exact_gap_against_brute_force(tmp_path, levels):
    rng = np.random.default_rng(59 + levels)
    for seed in range(1, 13):
        path = tiny(tmp_path, seed, levels)
        brute = json.loads(run("solve", path, "--algo", "brute",
                               "--json").stdout)
        opt = brute["best"]["makespan"]
        assert brute["best"]["proven_optimal"]
        inst = hta.Instance.read(str(path))
        # a random assignment (any server, replica or not) and the optimum
        for a in (rng.integers(0, 4, size=7),
                  hta.solve(inst, algos="brute")["assignment"]):
            asg = tmp_path / "a.txt"
            asg.write_text("hta-assignment 1\n" + "".join(
                f"{t} {s}\n" for t, s in enumerate(a)))
            rep = json.loads(run("eval", path, asg, "--exact", "--json")
                             .stdout)
            span = rep["makespan"]
            ex = rep["exact"]
            assert ex["proven_optimal"] and ex["optimum"] == opt, seed
            assert ex["results"][0]["algorithm"] == "given"
            assert ex["results"][0]["makespan"] == span
            assert ex["gap_optimum"] == pytest.approx((span - opt) / opt)
            assert rep["lower_bound"] <= opt + 1e-9
            assert rep["gap"] == pytest.approx(
                (span - rep["lower_bound"]) / rep["lower_bound"])
            text = run("eval", path, asg, "--exact").stdout
            if span == opt:
                assert "the assignment is optimal" in text
            else:
                assert f"{100 * (span - opt) / opt:.2f}% above it" in text
            got = hta.evaluate(inst, a, exact=True)
            for k in ("makespan", "lower_bound", "lower_bound_source",
                      "gap"):
                assert got[k] == rep[k], k
            for k in ("best", "proven_optimal", "optimum", "gap_optimum"):
                assert got["exact"][k] == ex[k], k
            assert [(r["algorithm"], r["status"], r["makespan"])
                    for r in got["exact"]["results"]] == \
                [(r["algorithm"], r["status"], r["makespan"])
                 for r in ex["results"]]


def test_bound_is_solves(root, tmp_path):
    """Without --exact: the bound of hta solve (flow on two levels, level
    flow on N), the gap to it, in text and JSON, and in Python."""
    for name in ("zipf-1k.txt", "hdfs-racks-1k.txt"):
        path = root / "instances" / name
        asg = tmp_path / "a.txt"
        run("solve", path, "--algo", "hadoop", "-o", asg)
        want = json.loads(run("solve", path, "--algo", "hadoop",
                              "--json").stdout)
        rep = json.loads(run("eval", path, asg, "--json").stdout)
        assert "exact" not in rep
        assert rep["lower_bound"] == want["lower_bound"]
        assert rep["lower_bound_source"] == want["lower_bound_source"]
        assert rep["gap"] == want["results"][0]["gap"]
        text = run("eval", path, asg).stdout
        assert f"gap {100 * rep['gap']:.2f}%" in text
        inst = hta.Instance.read(str(path))
        got = hta.evaluate(inst, hta.solve(inst, algos="hadoop")
                           ["assignment"])
        assert (got["lower_bound"], got["gap"]) == \
            (rep["lower_bound"], rep["gap"])


def exact_report(tmp_path, *gen):
    """hta eval --exact (1 s) of hadoop's assignment on `hta gen hdfs`
    GEN's instance: the JSON report."""
    path = tmp_path / "r.txt"
    run("gen", "hdfs", *gen, "-o", path)
    asg = tmp_path / "a.txt"
    run("solve", path, "--algo", "hadoop", "-o", asg)
    return json.loads(run("eval", path, asg, "--exact", "--time-limit", 1,
                          "--json").stdout)


def test_not_proven_in_the_time_says_so(root, tmp_path):
    """A three-level instance hta cannot close in a second (close's count
    flow and slot search leave 13.5 open, GLPK needs 2.7 s): the best
    found and the bound, no optimum claimed."""
    rep = exact_report(tmp_path, "--tasks", 10000, "--servers", 800,
                       "--zipf", 2, "--racks", 200, "--policy", "rack-aware",
                       "--w-rem", 3, "--w-rack", 1.5, "--seed", 2)
    ex = rep["exact"]
    assert not ex["proven_optimal"]
    assert ex["optimum"] is None and ex["gap_optimum"] is None
    assert rep["lower_bound"] < ex["best"] <= rep["makespan"]
    assert ex["why_not_proven"] == "time limit"
    text = run("eval", tmp_path / "r.txt", tmp_path / "a.txt", "--exact",
               "--time-limit", 1).stdout
    assert "optimum not proven in the time limit: between" in text


def test_no_engine_applies_says_why(tmp_path):
    """Affine costs on the rack level (issue 71): close needs constant
    costs below the top level, sat two levels, the ILP at most 512 cost
    combinations; every engine is skipped at once, and eval says so with
    each one's reason (the rows' notes), not "in the time limit";
    hta.evaluate the same words."""
    path = tmp_path / "f.txt"
    run("gen", "hdfs", "--tasks", 1000, "--servers", 30, "--replicas", 3,
        "--zipf", 1.8, "--racks", 5, "--policy", "rack-aware",
        "--w-rem-affine", "3,0.001", "--w-rack-affine", "1.5,0.001",
        "--seed", 7, "-o", path)
    asg = tmp_path / "a.txt"
    run("solve", path, "--algo", "fsy", "-o", asg)
    why = ("no exact engine applies: close (3 levels: the slot search "
           "needs a constant cost on every level below the top; not "
           "applied), ilp (skipped: the 3 levels' costs have more than 512 "
           "combinations of values), sat (3 levels: the decision's encoding "
           "has two levels; not applied)")
    ex = json.loads(run("eval", path, asg, "--exact", "--time-limit", 3,
                        "--json").stdout)["exact"]
    assert not ex["proven_optimal"] and ex["why_not_proven"] == why
    text = run("eval", path, asg, "--exact", "--time-limit", 3).stdout
    assert text.split("\n")[-2] == \
        "optimum not proven: between 34 and 35 (given); " + why
    inst = hta.Instance.read(str(path))
    a = hta.solve(inst, algos="fsy")["assignment"]
    got = hta.evaluate(inst, a, exact=True, time_limit=3)["exact"]
    assert got["why_not_proven"] == why and not got["proven_optimal"]
    # proven: no reason
    small = tiny(tmp_path, 1, 3)
    inst = hta.Instance.read(str(small))
    got = hta.evaluate(inst, hta.solve(inst, algos="brute")["assignment"],
                       exact=True)["exact"]
    assert got["proven_optimal"] and got["why_not_proven"] is None


def test_no_engine_decided_says_why(tmp_path):
    """Every task on one server of 100 in racks of 10, w_rem 3 + 0.001 r
    (a hostile caller's instance): the growing top's pieces pass 4096 at
    every target, so close ends undecided in a fraction of a second and
    the ILP is skipped; eval says the engines gave up, with each one's
    status and reason, not "in the time limit" (it was: after 1% of
    it); hta.evaluate the same words."""
    path = tmp_path / "skew.txt"
    path.write_text("hta-instance 1\ntasks 10000\nservers 100\nw_loc 1\n"
                    "w_rem affine 3 0.001\nw_level 2 1.5\n" +
                    "".join(f"task {t} 0\n" for t in range(10000)) +
                    "".join(f"rack {s} /r{s // 10}\n" for s in range(100)))
    asg = tmp_path / "a.txt"
    run("solve", path, "--algo", "fsy", "-o", asg)
    ex = json.loads(run("eval", path, asg, "--exact", "--time-limit", 20,
                        "--json").stdout)["exact"]
    why = ex["why_not_proven"]
    assert not ex["proven_optimal"]
    assert why.startswith("no exact engine decided: close undecided (")
    assert "(a target unsearched: its pieces pass 4096)" in why
    assert ("ilp (skipped: the 3 levels' costs have more than 512 "
            "combinations of values, and the growing top's pieces below "
            "the incumbent pass 4096)") in why
    assert sum(r["seconds"] for r in ex["results"]) < 10
    text = run("eval", path, asg, "--exact", "--time-limit", 20).stdout
    last = text.split("\n")[-2]
    assert last.startswith("optimum not proven: between ")
    assert last.endswith("; " + why)
    inst = hta.Instance.read(str(path))
    a = hta.solve(inst, algos="fsy")["assignment"]
    got = hta.evaluate(inst, a, exact=True, time_limit=20)["exact"]
    assert got["why_not_proven"] == why


def test_growing_top_proven_alike(tmp_path):
    """The paper's w_rem(r) on racks (issue 70): hta eval --exact and
    hta.evaluate(exact=True) reach the same optimum, below the fsy
    assignment's 35, and solve's exact portfolio proves it too."""
    path = tmp_path / "f.txt"
    run("gen", "hdfs", "--tasks", 1000, "--servers", 30, "--replicas", 3,
        "--zipf", 1.8, "--racks", 5, "--policy", "rack-aware",
        "--w-rem-affine", "3,0.001", "--w-rack", 1.5, "--seed", 7, "-o", path)
    asg = tmp_path / "a.txt"
    run("solve", path, "--algo", "fsy", "-o", asg)
    ex = json.loads(run("eval", path, asg, "--exact", "--time-limit", 10,
                        "--json").stdout)["exact"]
    inst = hta.Instance.read(str(path))
    a = hta.solve(inst, algos="fsy")["assignment"]
    got = hta.evaluate(inst, a, exact=True, time_limit=10)["exact"]
    assert ex["proven_optimal"] and got["proven_optimal"]
    assert ex["optimum"] == got["optimum"] < 35
    rep = hta.solve(inst, algos="fsy,exact", time_limit=10)
    assert rep["best"]["proven_optimal"]
    assert rep["best"]["makespan"] == ex["optimum"]


def test_rack_instance_of_issue_61_proven(root, tmp_path):
    """The rack-aware instance GLPK's old model left open at 120 s: close
    proves 101 (the slots meet the level flow bound) within a second."""
    rep = exact_report(tmp_path, "--tasks", 10000, "--servers", 100,
                       "--replicas", 3, "--zipf", 1.5, "--racks", 10,
                       "--policy", "rack-aware", "--w-rack", 1.5, "--seed", 3)
    ex = rep["exact"]
    assert ex["proven_optimal"] and ex["optimum"] == 101
    assert rep["lower_bound"] == 101 and rep["makespan"] == 113


def test_refusals(root, tmp_path):
    path = root / "instances" / "example.txt"
    asg = tmp_path / "a.txt"
    run("solve", path, "-o", asg)
    r = run("eval", path, asg, "--time-limit", 5, check=False)
    assert r.returncode == 2 and "--exact" in r.stderr and not r.stdout
    inst = hta.Instance.read(str(path))
    a = hta.solve(inst)["assignment"]
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="time_limit"):
            hta.evaluate(inst, a, exact=True, time_limit=bad)


def test_time_limit_needs_exact(root, tmp_path):
    """time_limit without exact=True is the command's --time-limit
    without --exact: refused with its words."""
    path = root / "instances" / "example.txt"
    asg = tmp_path / "a.txt"
    run("solve", path, "-o", asg)
    r = run("eval", path, asg, "--time-limit", 5, check=False)
    words = r.stderr.split(": ", 1)[1].split(" (usage:")[0]
    inst = hta.Instance.read(str(path))
    a = hta.solve(inst)["assignment"]
    for kw in ({"time_limit": 5}, {"time_limit": 60.0},
               {"exact": False, "time_limit": 1}):
        with pytest.raises(ValueError) as e:
            hta.evaluate(inst, a, **kw)
        assert str(e.value) == words == "--time-limit applies to --exact only"
    assert "exact" not in hta.evaluate(inst, a)
    assert hta.evaluate(inst, a, exact=True, time_limit=5)["exact"]["best"]
