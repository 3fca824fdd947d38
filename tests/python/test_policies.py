"""Policies written in Python (hta-policy(7)) against the built-ins: the
examples users read (src/online/examples/policies.py: JSQ-MaxWeight,
JSQ-Priority, FCFS) must give every field of the built-ins' reports but
the name and the seconds, on Wang's set-up, GB-PANDAS' (four levels) and
the bundled priority-unstable cluster, for two seeds and two loads; a
wrong tie rule must not.  The plug-in Priority is reported growing where
the built-in is.  Exceptions raised in a policy end hta.sim with that
exception; a broken rule raises ValueError with the simulator's words;
bad policy objects are refused before any run; the view dies with its
call; threads and sweeps give the same numbers."""
import importlib.util
import pathlib

import pytest

import hta

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "policies", ROOT / "src" / "online" / "examples" / "policies.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)


@pytest.fixture(scope="module")
def clusters(tmp_path_factory):
    d = tmp_path_factory.mktemp("clusters")
    out = {"pu": hta.Cluster.read(
        str(ROOT / "instances" / "clusters" / "priority-unstable.txt"))}
    for name, args in [("wang", ["wang", "--servers", "100",
                                 "--data-servers", "80"]),
                       ("gb", ["gbpandas", "--servers", "200", "--load",
                               "0.5", "--seed", "2"])]:
        import os
        import subprocess
        hta_cmd = os.environ.get("HTA", str(ROOT / "build" / "hta"))
        subprocess.run([hta_cmd, "gen", "cluster", *args, "-o",
                        str(d / name)], check=True)
        out[name] = hta.Cluster.read(str(d / name))
    return out


def strip(row):
    return {k: v for k, v in row.items() if k not in ("policy", "seconds")}


PAIRS = [("jsq-maxweight", P.JSQMaxWeight), ("priority", P.Priority),
         ("gb-pandas", P.GBPandas), ("fcfs", P.FCFS)]


@pytest.mark.parametrize("name", ["wang", "gb", "pu"])
@pytest.mark.parametrize("seed", [1, 2])
def test_same_as_builtins(clusters, name, seed):
    for builtin, cls in PAIRS:
        rep = hta.sim(clusters[name], policies=[builtin, cls()], slots=800,
                      sweep=(0.7, 0.95, 0.25), seed=seed)
        for point in rep:
            a, b = point["policies"]
            assert b["policy"] == cls.name
            assert a["arrived"] > 50
            assert strip(a) == strip(b), (builtin, point["load"])


@pytest.mark.parametrize("name", ["wang", "gb"])
def test_jobs_as_builtins(clusters, name):
    for job_size in ("fixed:10", "exp:3"):
        kw = dict(slots=800, sweep=(0.6, 0.9, 0.3), arrivals="jobs",
                  job_size=job_size)
        fair = hta.sim(clusters[name], policies=["fair", P.Fair()], **kw)
        delay = hta.sim(clusters[name], policies=["delay"], delay=(3, 5),
                        **kw)
        mine = hta.sim(clusters[name], policies=[P.Delay(3, 5)], **kw)
        for f, d, m in zip(fair, delay, mine):
            a, b = f["policies"]
            assert a["jobs_done"] > 10
            assert strip(a) == strip(b), ("fair", job_size, f["load"])
            assert strip(d["policies"][0]) == strip(m["policies"][0]), \
                ("delay", job_size, d["load"])


class Scan(P.JSQMaxWeight):
    """JSQ-MaxWeight with the example's own scan of the replicas' lengths
    (shortest_local, the tie rule written out) instead of view.shortest."""
    name = "scan"

    def route(self, task, view):
        m, n = P.shortest_local(view, task)
        common = view.shared()
        view.push(common if view.len(common) < n else view.queue(m), task)


@pytest.mark.parametrize("name", ["wang", "gb", "pu"])
def test_view_shortest_is_the_scan(clusters, name):
    """view.shortest gives what the scan gives, ties drawn alike: the
    built-in's output."""
    rep = hta.sim(clusters[name], policies=["jsq-maxweight", Scan(),
                                            P.JSQMaxWeight()],
                  slots=800, sweep=(0.7, 0.95, 0.25))
    for point in rep:
        a, b, c = point["policies"]
        assert a["arrived"] > 50
        assert strip(a) == strip(b) == strip(c), point["load"]


class WrongTies(P.JSQMaxWeight):
    """The first of the tied queues instead of a draw: a mutant."""
    name = "wrong-ties"

    def route(self, task, view):
        servers = view.replicas(view.type(task))
        lens = [view.len(view.queue(m)) for m in servers]
        m = servers[lens.index(min(lens))]
        common = view.shared()
        view.push(common if view.len(common) < min(lens) else view.queue(m),
                  task)


def test_mutant_differs(clusters):
    rep = hta.sim(clusters["wang"], policies=["jsq-maxweight", WrongTies()],
                  slots=800, load=0.9)
    a, b = rep["policies"]
    assert strip(a) != strip(b)


def test_unstable_as_builtin(clusters):
    rep = hta.sim(clusters["pu"], policies=["priority", P.Priority(),
                                            P.JSQMaxWeight()],
                  slots=60000, batches=20)
    v = [p["verdict"] for p in rep["policies"]]
    assert v == ["growing", "growing", "stable"]


def test_threads_and_sweeps_agree(clusters):
    pols = lambda: ["priority", P.Priority(), P.FCFS()]
    one = hta.sim(clusters["gb"], policies=pols(), slots=500,
                  sweep=(0.6, 0.9, 0.3), threads=1)
    two = hta.sim(clusters["gb"], policies=pols(), slots=500,
                  sweep=(0.6, 0.9, 0.3), threads=3)
    assert [[strip(p) for p in r["policies"]] for r in one] == \
           [[strip(p) for p in r["policies"]] for r in two]


class Boom(P.FCFS):
    name = "boom"

    def route(self, task, view):
        if view.slot >= 50:
            raise KeyError("no room")
        super().route(task, view)


def test_exception_ends_the_run(clusters):
    with pytest.raises(KeyError) as e:
        hta.sim(clusters["wang"], policies=["fcfs", Boom()], slots=500)
    notes = getattr(e.value, "__notes__", [])
    assert any("policy 'boom' in route(task" in n and "at slot 50" in n
               for n in notes), notes
    # what the runs had: fcfs whole, boom cut at its 49 whole slots
    reps = e.value.hta_reports
    assert len(reps) == 1
    a, b = reps[0]["policies"]
    assert (a["policy"], a["slots"], a["cut"]) == ("fcfs", 500, False)
    assert (b["policy"], b["slots"], b["cut"]) == ("boom", 49, True)
    # the same 49 slots as fcfs's first 49: its sample path
    c = hta.sim(clusters["wang"], policies=["fcfs"], slots=49, warmup=4,
                batches=2)["policies"][0]
    assert b["arrived"] >= c["arrived"]


class PushTwice(P.FCFS):
    name = "push-twice"

    def route(self, task, view):
        view.push(view.shared(), task)
        view.push(view.shared(), task)


class TakesNothing(P.FCFS):
    name = "takes-nothing"

    def serve(self, server, view):
        view.pop(view.shared())
        return None


class ReturnsJunk(P.FCFS):
    name = "junk"

    def serve(self, server, view):
        return "a task"


@pytest.mark.parametrize("cls,exc,words", [
    (PushTwice, ValueError, "policy push-twice: route(task 0) pushed its "
                            "task twice"),
    (TakesNothing, ValueError, "policy takes-nothing: serve(server 0) took "
                               "task 0 and returned none"),
    (ReturnsJunk, TypeError, "expected the task taken (view.pop) or None, "
                             "found str"),
])
def test_broken_rules(clusters, cls, exc, words):
    with pytest.raises(exc) as e:
        hta.sim(clusters["wang"], policies=[cls()], slots=200)
    assert words in str(e.value)


class Keeper(P.FCFS):
    name = "keeper"

    def route(self, task, view):
        self.view = view
        super().route(task, view)


def test_view_dies_with_its_call(clusters):
    k = Keeper()
    hta.sim(clusters["pu"], policies=[k], slots=100)
    with pytest.raises(RuntimeError, match="outside the call"):
        k.view.len(0)


@pytest.mark.parametrize("attrs,exc,words", [
    ({"name": "FCFS"}, ValueError, "expected a policy name of 1 to 32"),
    ({"name": "fcfs"}, ValueError, "found 'fcfs', a built-in's"),
    ({"name": 3}, TypeError, "policy name: expected a str"),
    ({"name": "ok\x00evil"}, ValueError, "found 'ok?evil'"),
    ({"name": "a" * 40}, ValueError, "expected a policy name of 1 to 32"),
    ({"name": "balanced-pandas"}, ValueError, "a built-in's"),
    ({"queues_per_server": -2}, ValueError, "policy queues_per_server"),
    ({"workloads": True}, ValueError, "HTA_POLICY_WORKLOADS weighs"),
    ({"queues_per_server": 0, "shared_queues": 0}, ValueError,
     "at least one queue"),
    ({"lengths": True, "queues_per_server": 0, "shared_queues": 1},
     ValueError, "HTA_POLICY_LENGTHS orders queue 0"),
    ({"shared_queues": float("nan")}, TypeError, "shared_queues"),
])
def test_bad_policy_objects(clusters, attrs, exc, words):
    cls = type("Custom", (P.FCFS,), attrs)
    with pytest.raises(exc, match=None) as e:
        hta.sim(clusters["pu"], policies=[cls()], slots=100)
    assert words in str(e.value)


def test_not_a_policy(clusters):
    with pytest.raises(TypeError):
        hta.sim(clusters["pu"], policies=[object()], slots=100)
    with pytest.raises(TypeError, match="expected a list"):
        hta.sim(clusters["pu"], policies=P.FCFS(), slots=100)
    with pytest.raises(ValueError, match="twice"):
        hta.sim(clusters["pu"], policies=[P.FCFS(), P.FCFS()], slots=100)


# ---- the tutorial (hta-policy(7)): its example files and its output ----

def _man_block(after):
    """The lines of hta-policy.7.scd's example block after the line
    `after`, up to the block's end."""
    text = (ROOT / "src" / "cli" / "doc" / "hta-policy.7.scd").read_text()
    lines = text.split("\n")
    i = lines.index(after) + 1
    out = []
    while lines[i] != "```":
        out.append(lines[i])
        i += 1
    return out


def test_tutorial_python_output(tmp_path):
    import os
    import subprocess
    import sys
    hta_cmd = os.environ.get("HTA", str(ROOT / "build" / "hta"))
    subprocess.run([hta_cmd, "gen", "cluster", "wang", "-o",
                    str(tmp_path / "wang.txt")], check=True)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(hta.__file__) + "/..")
    got = subprocess.run(
        [sys.executable, str(ROOT / "src/online/examples/random_local.py"),
         str(tmp_path / "wang.txt")], check=True, capture_output=True,
        text=True, env=env).stdout.splitlines()
    want = _man_block("$ python3 src/online/examples/random_local.py "
                      "wang.txt")
    assert got == want
    # the tutorial's policy is under 40 lines (class and its run)
    src = (ROOT / "src/online/examples/random_local.py").read_text()
    assert len(src.splitlines()) < 40
    # and the page shows it as the file has it, docstring aside
    body = src.split('"""', 2)[2].splitlines()
    page = (ROOT / "src/cli/doc/hta-policy.7.scd").read_text()
    for line in body:
        if line.strip() and "__main__" not in line:
            assert line.strip() in page, line


def test_tutorial_c_is_the_python(tmp_path):
    """random_local.c through --policy-lib and random_local.py through
    hta.sim: the same policy, the same numbers."""
    import json
    import os
    import subprocess
    spec = importlib.util.spec_from_file_location(
        "random_local", ROOT / "src/online/examples/random_local.py")
    rl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rl)
    cc = os.environ.get("CC", "cc")
    so = tmp_path / "rl.so"
    subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror",
                    "-fPIC", "-shared", "-I", str(ROOT / "include"),
                    str(ROOT / "src/online/examples/random_local.c"), "-o",
                    str(so)], check=True)
    hta_cmd = os.environ.get("HTA", str(ROOT / "build" / "hta"))
    for cl in ("wang", "pu"):
        path = tmp_path / cl
        if cl == "wang":
            subprocess.run([hta_cmd, "gen", "cluster", "wang", "--servers",
                            "100", "--data-servers", "80", "-o", str(path)],
                           check=True)
        else:
            path = ROOT / "instances" / "clusters" / "priority-unstable.txt"
        out = json.loads(subprocess.run(
            [hta_cmd, "sim", str(path), "--policy", "plugin", "--policy-lib",
             str(so), "--slots", "3000", "--load", "0.8", "--json", "-q"],
            check=True, capture_output=True, text=True).stdout)
        rep = hta.sim(hta.Cluster.read(str(path)),
                      policies=[rl.RandomLocal()], slots=3000, load=0.8)
        a, b = out["policies"][0], rep["policies"][0]
        assert a["policy"] == "random-local"
        assert strip(a) == strip(b)


@pytest.fixture
def python_takes_sigint():
    """Ctrl-C as an interactive Python has it (make test runs in the
    background, where SIGINT is ignored)."""
    import signal
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_ends_python_policies(clusters, python_takes_sigint,
                                     threads):
    """Ctrl-C 0.5 s into runs of Python policies (whole: minutes) ends
    the call within a second or two with hta.Interrupted carrying the
    runs so far, as for the built-ins."""
    import os
    import signal
    import threading
    import time
    t0 = time.monotonic()
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(hta.Interrupted) as e:
        hta.sim(clusters["wang"], policies=[P.JSQMaxWeight(), P.Priority()],
                slots=10**7, threads=threads)
    timer.join()
    assert time.monotonic() - t0 < 2.5
    rows = e.value.result["policies"]
    assert rows and rows[-1]["cut"] and 0 < rows[-1]["slots"] < 10**7


def test_two_python_threads_at_once(clusters):
    """hta.sim with Python policies called from two Python threads at
    once (one object shared by both): the same reports as one after the
    other."""
    import threading
    shared = P.Priority()
    def call():
        return hta.sim(clusters["gb"], policies=[shared, P.GBPandas()],
                       slots=400, sweep=(0.6, 0.9, 0.3), threads=2)
    alone = call()
    got = [None, None]
    def run(i):
        got[i] = call()
    ts = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    key = lambda reps: [[strip(p) for p in r["policies"]] for r in reps]
    assert key(got[0]) == key(alone) and key(got[1]) == key(alone)


class Hostile(P.FCFS):
    """Calls one view function with the arguments given, in route."""
    name = "hostile"
    call = ("len", (-1,))

    def route(self, task, view):
        getattr(view, self.call[0])(*self.call[1])
        super().route(task, view)


@pytest.mark.parametrize("call,exc,words", [
    (("len", (-1,)), ValueError, "len: expected a queue"),
    (("len", (2 ** 40,)), ValueError, "len: expected a queue"),
    (("len", (2 ** 70,)), OverflowError, ""),
    (("len", (1.5,)), TypeError, "expected an integer, found float"),
    (("len", (float("nan"),)), TypeError, "expected an integer, found float"),
    (("level", (0, 2 ** 40)), ValueError, "level: expected a server"),
    (("longest", (0, 2 ** 40)), ValueError, "longest"),
    (("group", (2 ** 40, 2)), ValueError, "group: expected a server"),
    (("rate", (-5,)), ValueError, "rate"),
    (("idle", (-(2 ** 40),)), ValueError, "idle"),
    (("type", (10 ** 12,)), ValueError, "type"),
    (("shortest", (2 ** 40,)), ValueError, "shortest: expected a type"),
    (("shortest", (-1,)), ValueError, "shortest: expected a type"),
    (("shortest", (float("nan"),)), TypeError,
     "expected an integer, found float"),
    (("shortest", (0, 1)), ValueError, "shortest needs a queue per server"),
    (("shortest", (0, 1, 2)), TypeError, "shortest(type, j=0)"),
])
def test_hostile_view_arguments(clusters, call, exc, words):
    """Out-of-range, huge, float and NaN arguments to the view raise with
    the view's words; the interpreter lives on."""
    cls = type("H", (Hostile,), {"call": call})
    with pytest.raises(exc) as e:
        hta.sim(clusters["wang"], policies=[cls()], slots=50)
    assert words in str(e.value)
