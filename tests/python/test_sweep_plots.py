"""The sweep pictures and tables of `hta sim`, `flowtime` and
`reduce-place` (issue 59): every point of `--plot` is the value the
command's JSON reports for that load and policy, drawn where the axis
puts it, with its 95% interval; runs still growing are hollow; the
capacity boundary rho* = 1 of sim is marked at the load X where
X * rho*(1) = 1; every row of `--csv` is the JSON's row, digit for
digit.  The outputs follow the rules of every output (refused when they
name an input or standard output, nothing written on an error)."""
import csv
import json
import math
import re
import os
import subprocess
import xml.etree.ElementTree as ET

import pytest

SVG = "{http://www.w3.org/2000/svg}"
HTA = os.environ["HTA"]


def run(*args, check=True):
    return subprocess.run([HTA, *map(str, args)], check=check,
                          capture_output=True, text=True)


def svg_points(path):
    """{(series, x): (y, ci or None, hollow)}, checking each circle sits
    where the y axis (read from its ticks) puts the value."""
    root = ET.parse(path).getroot()
    log = root.get("data-yscale") == "log"
    ticks = [(float(e.get("data-value")), float(e.get("y1")))
             for e in root.iter(SVG + "line") if e.get("class") == "tick"]
    f = (lambda v: math.log10(v)) if log else (lambda v: v)
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    scale = (y0 - y1) / (f(v1) - f(v0))
    pts = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") != "point":
            continue
        y = float(g.get("data-y"))
        cy = float(re.fullmatch(r"translate\(([-0-9.]+),([-0-9.]+)\)",
                                g.get("transform")).group(2))
        assert cy == pytest.approx(y0 - (f(y) - f(v0)) * scale, abs=0.02)
        ci = g.get("data-ci")
        pts[(g.get("data-series"), float(g.get("data-x")))] = (
            y, float(ci) if ci is not None else None,
            g.get("data-hollow") == "1")
    marks = [float(e.get("data-x")) for e in root.iter(SVG + "line")
             if e.get("class") == "mark"]
    return pts, marks, log


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(s):
    return float(s) if s != "" else None


def test_sim_sweep_plot_and_csv_are_the_report(tmp_path):
    cl = tmp_path / "w.txt"
    run("gen", "cluster", "wang", "--servers", 200, "--data-servers", 160,
        "-o", cl)
    svg, tab = tmp_path / "s.svg", tmp_path / "s.csv"
    rep = json.loads(run("sim", cl, "--sweep", "0.8,1.1,0.1", "--slots",
                         4000, "--no-timing", "-q", "--json", "--plot", svg,
                         "--csv", tab).stdout)
    pts, marks, log = svg_points(svg)
    rows = csv_rows(tab)
    assert len(rep) == 4 and len(rows) == 4 * 4
    assert log  # fcfs is far above the others
    hollow = 0
    for point, k in zip(rep, range(4)):
        load = [0.8, 0.9, 1.0, 1.1][k]
        assert point["rho"] == pytest.approx(load * rep[2]["rho"], rel=1e-9)
        for p in point["policies"]:
            y, ci, h = pts[(p["policy"], load)]
            assert y == p["delay"] and ci == p["delay_ci"]
            assert h == (p["verdict"] in ("growing", "unstable"))
            hollow += h
            row = rows.pop(0)
            assert row["policy"] == p["policy"]
            assert float(row["load"]) == load
            assert float(row["rho"]) == point["rho"]
            for key in ("delay", "delay_ci", "number", "number_ci",
                        "throughput", "utilisation", "little_gap"):
                assert float(row[key]) == p[key], key
            assert [float(row[f"level_{n + 1}"]) for n in
                    range(point["levels"])] == p["levels"]
            assert row["verdict"] == p["verdict"]
            assert int(row["slots"]) == p["slots"]
    assert len(pts) == 16 and hollow >= 4  # fcfs grows everywhere
    # the boundary: rho* is linear in the load, 1 at load / rho
    assert marks == [pytest.approx(1.0 / rep[2]["rho"], rel=1e-12)]


def test_sim_single_load_and_boundary_off_the_chart(tmp_path):
    cl = tmp_path / "w.txt"
    run("gen", "cluster", "wang", "--servers", 100, "--data-servers", 80,
        "-o", cl)
    svg, tab = tmp_path / "s.svg", tmp_path / "s.csv"
    rep = json.loads(run("sim", cl, "--load", 0.3, "--slots", 2000,
                         "-p", "priority,jsq-maxweight", "--json",
                         "--plot", svg, "--csv", tab, "-q").stdout)
    pts, marks, _ = svg_points(svg)
    assert marks == []  # rho* = 1 at load 3.3: named, not drawn
    text = svg.read_text()
    # wang's default rate is the capacity: rho* = 1 at load 1
    assert "capacity boundary rho* = 1 at 1, off the chart" in text
    assert {s for s, _ in pts} == {"priority", "jsq-maxweight"}
    assert len(csv_rows(tab)) == 2
    assert pts[("priority", 0.3)][0] == rep["policies"][0]["delay"]


def test_flowtime_sweep_plot_and_csv(tmp_path):
    jobs = tmp_path / "j.txt"
    run("gen", "jobs", "--jobs", 12, "--machines", 2, "--load", 0.8,
        "--seed", 2, "-o", jobs)
    svg, tab = tmp_path / "f.svg", tmp_path / "f.csv"
    rep = json.loads(run("flowtime", jobs, "--sweep", "0.5,0.9,0.2",
                         "--no-timing", "-q", "--json", "--plot", svg,
                         "--csv", tab, "--time-limit", 30).stdout)
    pts, marks, _ = svg_points(svg)
    rows = csv_rows(tab)
    assert marks == []
    n = 0
    for point in rep:
        x = point["load"]
        lb = pts[("lower bound", x)]
        assert lb[0] == point["lower_bound"] / point["jobs"]
        for p in point["policies"]:
            y, ci, hollow = pts[(p["policy"], x)]
            assert y == p["total"] / point["jobs"] and ci is None
            assert not hollow
            row = rows.pop(0)
            assert (row["policy"], int(row["total_flow"])) == \
                (p["policy"], p["total"])
            assert float(row["load"]) == x
            assert int(row["machines"]) == point["machines"]
            assert float(row["lower_bound"]) == point["lower_bound"]
            assert num(row["ratio_lb"]) == pytest.approx(p["ratio_lb"])
            n += 1
        ex = point["exact"]
        if ex and ex["status"] in ("optimal", "time-limit"):
            y, _, hollow = pts[("exact", x)]
            assert y == ex["value"] / point["jobs"]
            assert hollow == (ex["status"] != "optimal")
            row = rows.pop(0)
            assert row["policy"] == "exact" and row["status"] == ex["status"]
            n += 1
    # the exact program is solved at the two lighter loads, skipped (too
    # large) at the third: no point, and no legend entry
    assert rows == [] and n == 3 * 5 + 2
    assert sum(s == "exact" for s, _ in pts) == 2


def test_reduce_place_sweep_plot_and_csv(tmp_path):
    svg, tab = tmp_path / "r.svg", tmp_path / "r.csv"
    rep = json.loads(run("reduce-place", "--sweep", "0.2,0.8,0.3", "--jobs",
                         3000, "--no-timing", "--json",
                         "--plot", svg, "--csv", tab).stdout)
    pts, _, log = svg_points(svg)
    rows = csv_rows(tab)
    assert log  # random costs tens of times greedy
    assert len(rows) == 3 * 5 == len(pts)
    for point in rep:
        for p in point["policies"]:
            y, ci, hollow = pts[(p["policy"], point["lambda"])]
            assert (y, ci, hollow) == (p["cost"], p["cost_ci"], False)
            row = rows.pop(0)
            assert row["policy"] == p["policy"]
            for key in ("cost", "cost_ci", "vs_random", "vs_greedy",
                        "mean_rank"):
                assert float(row[key]) == p[key], key
            assert float(row["number"]) == point["number"]


@pytest.mark.parametrize("cmd", ["sim", "flowtime", "reduce-place"])
def test_sweep_outputs_follow_the_output_rules(tmp_path, cmd):
    inp = tmp_path / "in.txt"
    if cmd == "sim":
        run("gen", "cluster", "wang", "--servers", 50, "--data-servers", 40,
            "-o", inp)
        base = ["sim", inp, "--slots", 500, "-q"]
    elif cmd == "flowtime":
        run("gen", "jobs", "--jobs", 20, "--machines", 2, "-o", inp)
        base = ["flowtime", inp, "-n", 2, "-q"]
    else:
        inp.write_text("# hta-slots 1\ncosts 1 2 3 4\n")
        base = ["reduce-place", inp, "--jobs", 500]
    before = inp.read_bytes()
    for opt in ("--plot", "--csv"):
        r = run(*base, opt, "-", check=False)
        assert r.returncode == 2 and "standard output" in r.stderr
        r = run(*base, opt, inp, check=False)
        assert r.returncode == 2 and r.stdout == ""
        assert inp.read_bytes() == before
    same = tmp_path / "o"
    r = run(*base, "--plot", same, "--csv", same, check=False)
    assert r.returncode == 2 and not same.exists()
    # an error after the outputs were opened leaves nothing
    missing = tmp_path / "no-such-dir" / "x.svg"
    r = run(*base, "--plot", missing, check=False)
    assert r.returncode != 0 and not missing.exists()


def test_coinciding_lines_stay_apart_without_colour(tmp_path):
    # issue 69: a dash pattern and a marker per policy, not colour alone
    # (two policies with the same delays drew one line over the other)
    c = tmp_path / "c.txt"
    run("gen", "cluster", "wang", "--servers", "30", "--data-servers", "15",
        "-o", c)
    svg = tmp_path / "s.svg"
    run("sim", c, "--sweep", "0.5,0.8,0.1", "--slots", "1500", "--plot", svg,
        "-q")
    root = ET.parse(svg).getroot()
    dash = {e.get("data-series"): e.get("stroke-dasharray")
            for e in root.iter(SVG + "polyline") if e.get("class") == "series"}
    mark = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") == "point":
            m = [e for e in g if e.tag != SVG + "title"][0]
            shape = (m.tag, re.sub(r"[-0-9.]+", "N", m.get("d") or ""))
            mark.setdefault(g.get("data-series"), set()).add(shape)
    assert len(dash) >= 4 and set(dash) == set(mark)
    assert all(len(v) == 1 for v in mark.values())
    looks = {(dash[s], min(mark[s])) for s in dash}
    assert len(looks) == len(dash)
    assert len({min(v) for v in mark.values()}) == len(dash)
