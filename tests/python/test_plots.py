"""The pictures are right (issue 59): every bar of `--plot` is its
server's load as `hta eval --json` computes it, stacked from each level's
work (the level's cost in force times the server's tasks at that level),
the tallest bar reaches the makespan line, and the legend has one entry
per level.  Two, three and four levels, grouped bars past 1000 servers,
and names on the axis where the instance has them.  Before, on N levels
every non-local task was drawn at w_rem: the README's rack instance had a
bar at load 179 (off the canvas) under a makespan of 101."""
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    return subprocess.run([os.environ["HTA"], *map(str, args)], check=True,
                          capture_output=True, text=True).stdout


def parse(path):
    root = ET.parse(path).getroot()
    ticks = [(float(e.get("data-value")), float(e.get("y1")))
             for e in root.iter(SVG + "line") if e.get("class") == "tick"]
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    scale = (y0 - y1) / (v1 - v0)  # pixels per unit of load
    bars = [g for g in root.iter(SVG + "g") if g.get("class") == "bar"]
    span = [e for e in root.iter(SVG + "line")
            if e.get("class") == "makespan"][0]
    legend = [e for e in root if e.tag == SVG + "rect" and
              e.get("width") == "12"]
    return root, y0, scale, bars, span, legend


def check(path, ev, levels, grouped=False):
    root, y0, scale, bars, span, legend = parse(path)
    assert len(legend) == levels
    assert float(span.get("data-value")) == ev["makespan"]
    loads = [s["load"] for s in ev["servers"]]
    top = y0
    colours = set()
    for g in bars:
        rects = list(g.iter(SVG + "rect"))
        height = sum(float(r.get("height")) for r in rects)
        load = float(g.get("data-load"))
        assert height / scale == pytest.approx(load, rel=1e-4, abs=1e-3)
        if not grouped:
            s = int(g.get("data-server"))
            assert load == loads[s]
            # each level's rect is its work: cost in force x tasks there
            counts = ev["servers"][s].get(
                "levels", [ev["servers"][s]["local"],
                           ev["servers"][s]["remote"]])
            costs = [x["cost"] for x in ev["levels"]] if "levels" in ev \
                else [1.0, ev["w_rem_r"]]
            work = [c * k for c, k in zip(costs, counts) if c * k > 0]
            assert [float(r.get("height")) / scale for r in rects] == \
                pytest.approx(work, rel=1e-4, abs=1e-3)
        for r in rects:
            colours.add(r.get("fill"))
            top = min(top, float(r.get("y")))
    assert len(colours) <= levels
    # the tallest bar is the makespan (grouped: the group's peak line)
    if grouped:
        peak = max(float(g.get("data-peak")) for g in bars)
        assert peak == ev["makespan"]
    else:
        assert (y0 - top) / scale == pytest.approx(ev["makespan"],
                                                   rel=1e-4, abs=1e-3)
    assert float(span.get("y1")) == pytest.approx(top, abs=0.01) or grouped
    return root


CASES = [
    # (gen hdfs arguments, levels)
    (["--tasks", 600, "--servers", 30, "--zipf", 1.2, "--seed", 4], 2),
    (["--tasks", 3000, "--servers", 40, "--replicas", 2, "--racks", 4,
      "--policy", "rack-aware", "--zipf", 2, "--w-rem", 3, "--w-rack", 1.5,
      "--seed", 1], 3),
    (["--tasks", 2000, "--servers", 48, "--racks", 8, "--pods", 2,
      "--policy", "rack-aware", "--zipf", 1.5, "--w-rem", 4, "--w-rack", 1.5,
      "--w-pod", 2.5, "--seed", 2], 4),
]


@pytest.mark.parametrize("gen, levels", CASES)
@pytest.mark.parametrize("algo", ["hadoop", "fsy"])
def test_bars_are_the_evaluators_loads(tmp_path, gen, levels, algo):
    inst, asg, svg = tmp_path / "i.txt", tmp_path / "a.txt", tmp_path / "p.svg"
    run("gen", "hdfs", *gen, "-o", inst)
    run("solve", inst, "--algo", algo, "-o", asg, "--plot", svg)
    ev = json.loads(run("eval", inst, asg, "--json"))
    check(svg, ev, levels)
    # hta eval --plot draws the same bars
    svg2 = tmp_path / "e.svg"
    run("eval", inst, asg, "--plot", svg2)
    check(svg2, ev, levels)


def test_grouped_bars_past_1000_servers(tmp_path):
    inst, asg, svg = tmp_path / "i.txt", tmp_path / "a.txt", tmp_path / "p.svg"
    run("gen", "hdfs", "--tasks", 20000, "--servers", 2500, "--racks", 50,
        "--policy", "rack-aware", "--w-rack", 2, "--seed", 3, "-o", inst)
    run("solve", inst, "--algo", "hadoop", "-o", asg, "--plot", svg)
    ev = json.loads(run("eval", inst, asg, "--json"))
    root = check(svg, ev, 3, grouped=True)
    bars = [g for g in root.iter(SVG + "g") if g.get("class") == "bar"]
    assert len(bars) == 1000
    assert sum(int(g.get("data-servers")) for g in bars) == 2500
    assert os.path.getsize(svg) < 1_000_000


def test_names_on_the_axis(root, tmp_path):
    inst = root / "instances" / "fsck-hadoop2-racks.txt"
    asg, svg = tmp_path / "a.txt", tmp_path / "p.svg"
    run("solve", inst, "--algo", "fsy", "-o", asg, "--plot", svg)
    ev = json.loads(run("eval", inst, asg, "--json"))
    tree = check(svg, ev, 3)
    labels = [t.text for t in tree.iter(SVG + "text")
              if t.get("transform", "").endswith("rotate(-60)")]
    names = {s["name"] for s in ev["servers"]}
    assert len(labels) == len(names) and set(labels) == names
    titles = [t.text for t in tree.iter(SVG + "title")]
    assert all(re.match(r"server \d+ \(.+\): load", t) for t in titles)


def test_labels_stay_off_the_bars(root, tmp_path):
    # issue 69: "lower bound" sat on the heaviest bars, at the left end
    for name in ("zipf-1k.txt", "example.txt"):
        inst = root / "instances" / name
        asg, svg = tmp_path / "a.txt", tmp_path / "p.svg"
        run("solve", inst, "--algo", "rr", "-o", asg, "--plot", svg)
        tree, y0, scale, bars, span, legend = parse(svg)
        right = max(float(r.get("x")) + float(r.get("width"))
                    for g in bars for r in g.iter(SVG + "rect"))
        labels = [t for t in tree.iter(SVG + "text")
                  if t.get("class") in ("makespan", "lower-bound")]
        assert {t.get("class") for t in labels} == {"makespan",
                                                   "lower-bound"}
        assert all(float(t.get("x")) > right for t in labels)
        assert float(tree.get("width")) - right >= 90  # room for them
