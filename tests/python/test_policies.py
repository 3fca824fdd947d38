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


class AsideThenTake(P.Fair):
    """Fair sharing with the first job set aside before its task is
    taken: the job comes back in order, so it is fair sharing still.
    Taking a set-aside job's last task corrupted the heap (a SIGSEGV of
    the interpreter, issue 71)."""
    name = "aside-take"

    def serve(self, server, view):
        job = view.job_first()
        if job is None:
            return None
        view.job_aside(job)
        return view.take(view.job_best(job, server, view.levels)[0])


class TakeElsewhere(P.Fair):
    """Takes the task job_best found local to another server; counts the
    true levels at the serving server (the run must measure those)."""
    name = "take-elsewhere"

    def start(self, view):
        self.count = [0] * (view.levels + 1)

    def serve(self, server, view):
        job = view.job_first()
        if job is None:
            return None
        best = view.job_best(job, (server + 1) % view.servers, 1)
        if best is None:
            best = view.job_best(job, server, view.levels)
        task = best[0]
        self.count[view.level(view.type(task), server)] += 1
        return view.take(task)


@pytest.mark.parametrize("size", ["fixed:1", "fixed:3"])
def test_aside_then_take_is_fair(clusters, size):
    kw = dict(slots=800, sweep=(0.6, 0.95, 0.35), arrivals="jobs",
              job_size=size)
    for point in hta.sim(clusters["wang"],
                         policies=["fair", AsideThenTake()], **kw):
        a, b = point["policies"]
        assert a["jobs_done"] > 10
        assert strip(a) == strip(b), (size, point["load"])


def test_take_elsewhere_measured_at_the_server(clusters):
    pol = TakeElsewhere()
    rep = hta.sim(clusters["wang"], policies=[pol], slots=800, load=0.9,
                  arrivals="jobs", job_size="fixed:3")
    row = rep["policies"][0]
    total = sum(pol.count)
    assert total > 500 and pol.count[1] < 0.9 * total
    assert row["levels"] == pytest.approx(
        [c / total for c in pol.count[1:]], abs=1e-12)


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
    once (each call its own copy of one object): the same reports as one
    after the other."""
    import copy
    import threading
    shared = P.Priority()
    def call(pol):
        return hta.sim(clusters["gb"], policies=[pol, P.GBPandas()],
                       slots=400, sweep=(0.6, 0.9, 0.3), threads=2)
    alone = call(shared)
    got = [None, None]
    def run(i):
        got[i] = call(copy.deepcopy(shared))
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
    (("len", (2 ** 70,)), ValueError,
     "len: expected a queue in 0..0, found 1180591620717411303424"),
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


# ---- a hostile caller of the view: every argument, every method ----

class Probe(P.JSQMaxWeight):
    """Calls one view method with the arguments given, in route (a queue
    per server and a shared one, so that j and i have a range)."""
    name = "probe"
    call = ("len", (0,))
    swallow = False

    def route(self, task, view):
        try:
            getattr(view, self.call[0])(*self.call[1])
        except (TypeError, ValueError):
            if not self.swallow:
                raise
        super().route(task, view)


def probe(cluster, call, swallow=False):
    """The exception hta.sim raises for the probe's call."""
    cls = type("ProbeOf", (Probe,), {"call": call, "swallow": swallow})
    with pytest.raises((TypeError, ValueError)) as e:
        hta.sim(cluster, policies=[cls()], slots=50)
    return e.value


# every argument of every method: (name, arguments, the C type's kind)
SIGNATURES = [
    ("len", ("queue",)), ("push", ("queue", "task")), ("pop", ("queue",)),
    ("type", ("task",)), ("arrival", ("task",)), ("job", ("task",)),
    ("replicas", ("type",)), ("level", ("type", "server")),
    ("group", ("server", "level")), ("span", ("level", "group")),
    ("longest", ("server", "level")), ("shortest", ("type", "j")),
    ("least", ("server", "level")), ("workload", ("server",)),
    ("push_job", ("task",)), ("job_best", ("job", "server", "level")),
    ("take", ("task",)), ("job_aside", ("job",)), ("job_mark", ("job",)),
    ("set_job_mark", ("job", "mark")), ("below", ("bound",)),
    ("queue", ("server", "j")), ("shared", ("i",)), ("rate", ("level",)),
    ("idle", ("server",)), ("job_running", ("job",)),
]
NARROW = ("server", "level", "j", "i")  # int32 / int in C (bound: uint32)


def test_signatures_cover_the_view():
    methods = {m for m in dir(hta.View) if not m.startswith("_")} - {
        "servers", "levels", "types", "slot", "queued",
        "queues_per_server", "shared_queues", "job_first"}
    assert methods == {name for name, _ in SIGNATURES}


@pytest.mark.parametrize("name,params", SIGNATURES)
def test_every_argument_names_the_value_given(clusters, name, params):
    """A value beyond the C type of any argument (beyond int64; beyond
    int32 for servers, levels and queue indices) is refused with the
    view's words naming the value the caller passed, never "found -1"
    nor OverflowError; the run ends with the same words when the policy
    swallows the exception."""
    for i, kind in enumerate(params):
        bigs = [2 ** 70, -(2 ** 70)] + \
            ([2 ** 32, 2 ** 40] if kind == "bound" else
             [2 ** 40, 2 ** 31, -(2 ** 31) - 1] if kind in NARROW else [])
        for big in bigs:
            args = [{"level": 2, "bound": 1}.get(k, 0) for k in params]
            args[i] = big
            for swallow in (False, True):
                e = probe(clusters["wang"], (name, tuple(args)), swallow)
                assert type(e) is ValueError, (name, args)
                words = str(e)
                assert words.startswith(f"policy probe: {name}: expected "), \
                    words
                assert words.endswith(f"found {big}") or \
                    f"found {big} and" in words or \
                    f"and {big}" in words, words


@pytest.mark.parametrize("call,words", [
    (("level", (0, 2 ** 40)),
     "policy probe: level: expected a server in 0..99, found 1099511627776"),
    (("group", (0, 5000)),
     "policy probe: group: expected a level in 2..2, found 5000"),
    (("group", (2 ** 31, 2)),
     "policy probe: group: expected a server in 0..99, found 2147483648"),
    (("shortest", (0, -5)),
     "policy probe: shortest: expected a queue of a server in 0..0, "
     "found -5"),
    (("rate", (2 ** 40,)),
     "policy probe: rate: expected a level in 1..2, found 1099511627776"),
    (("idle", (2 ** 31,)),
     "policy probe: idle: expected a server in 0..99, found 2147483648"),
    (("span", (2, 2 ** 63)),
     "policy probe: span: expected a group in 0..0, found "
     "9223372036854775808"),
    (("below", (-1,)),
     "policy probe: below: expected a bound in 1..4294967295, found -1"),
    (("queue", (0, 2 ** 64)),
     "policy probe: queue: expected a server in 0..99 and a queue in 0..0, "
     "found 0 and 18446744073709551616"),
])
def test_out_of_range_says_the_value(clusters, call, words):
    assert str(probe(clusters["wang"], call)) == words


def _np_ints(x):
    import numpy as np
    out = [np.dtype(t).type(x) for t in
           (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
            np.uint32, np.uint64, np.intc, np.uintc, np.longlong,
            np.ulonglong)]
    for t in ("<i2", ">i2", "<u4", ">u4", "<i8", ">i8", ">u8"):
        out.append(np.array(x, dtype=t))  # 0-d, either byte order
    return out


def test_numpy_integers_bools_and_floats(clusters):
    """Every numpy integer width, signedness and byte order is an
    integer; bools, floats, NaN and arrays of more than one value are
    refused with the view's words; nothing crashes."""
    import numpy as np
    ok = type("Ok", (Probe,), {})
    for x, one in zip(_np_ints(0), _np_ints(1)):
        for call in [("len", (x,)), ("level", (x, x)), ("rate", (one,)),
                     ("shortest", (x, x)), ("queue", (x, x)),
                     ("replicas", (x,)), ("below", (one,))]:
            ok.call = call
            hta.sim(clusters["wang"], policies=[ok()], slots=50)
    e = probe(clusters["wang"], ("len", (np.array(2 ** 40, dtype=">i8"),)))
    assert str(e) == ("policy probe: len: expected a queue in 0..100, "
                      "found 1099511627776")
    e = probe(clusters["wang"], ("idle", (np.uint64(2 ** 64 - 1),)))
    assert str(e) == ("policy probe: idle: expected a server in 0..99, "
                      "found 18446744073709551615")
    for x, tname in [(True, "bool"), (np.bool_(False), "numpy.bool_"),
                     (np.array(True), "numpy.ndarray"),
                     (float("nan"), "float"), (np.float64("nan"),
                                               "numpy.float64"),
                     (1.0, "float"), (np.array([0, 1]), "numpy.ndarray"),
                     ([1], "list"), (None, "NoneType"), ("0", "str")]:
        for name, args in [("len", (x,)), ("level", (0, x)),
                           ("shortest", (0, x)), ("rate", (x,)),
                           ("queue", (x,)), ("shared", (x,)),
                           ("below", (x,)), ("replicas", (x,)),
                           ("set_job_mark", (0, x))]:
            e = probe(clusters["wang"], (name, args))
            assert type(e) is TypeError
            assert str(e) == f"{name}: expected an integer, found {tname}"


class CachesReplicas(Probe):
    """replicas(1) first, then the call: the cache must not answer a
    float or a list."""
    def route(self, task, view):
        view.replicas(1)
        super().route(task, view)


@pytest.mark.parametrize("arg,words", [
    (1.0, "replicas: expected an integer, found float"),
    ([1], "replicas: expected an integer, found list"),
    (True, "replicas: expected an integer, found bool"),
])
def test_replicas_checks_before_its_cache(clusters, arg, words):
    cls = type("C", (CachesReplicas,), {"call": ("replicas", (arg,))})
    with pytest.raises(TypeError) as e:
        hta.sim(clusters["wang"], policies=[cls()], slots=50)
    assert str(e.value) == words


def test_replicas_same_tuple_for_numpy(clusters):
    import numpy as np
    seen = []

    class Same(P.FCFS):
        name = "same"

        def route(self, task, view):
            if not seen:
                seen.append((view.replicas(1), view.replicas(np.int64(1)),
                             view.replicas(np.array(1, dtype=">u2"))))
            super().route(task, view)
    hta.sim(clusters["wang"], policies=[Same()], slots=50)
    a, b, c = seen[0]
    assert a == b == c and a


@pytest.mark.parametrize("attrs,call,words", [
    ({"queues_per_server": 1, "shared_queues": 0}, ("shared", ()),
     "policy probe: shared: the policy has no shared queue (its "
     "shared_queues is 0)"),
    ({"queues_per_server": 0, "shared_queues": 1}, ("queue", (0,)),
     "policy probe: queue: the policy has no queue per server (its "
     "queues_per_server is 0)"),
])
def test_no_such_queues(clusters, attrs, call, words):
    cls = type("NoQ", (Probe,), dict(attrs, call=call, own_work=False,
                                     level_queues=False))
    with pytest.raises(ValueError) as e:
        hta.sim(clusters["wang"], policies=[cls()], slots=50)
    assert str(e.value) == words


class Returns(P.FCFS):
    """FCFS whose serve returns conv(the task popped)."""
    name = "returns"

    def serve(self, server, view):
        k = view.pop(view.shared())
        return None if k is None else self.conv(k)


def test_serve_returns_numpy_integers(clusters):
    """serve's return is an integer as the view's arguments are: numpy's
    of every width and byte order give FCFS's numbers."""
    import numpy as np
    want = strip(hta.sim(clusters["wang"], policies=[P.FCFS()],
                         slots=300)["policies"][0])
    for conv in (np.int64, np.uint64, np.int32, np.uint32, np.intc,
                 lambda k: np.array(k, dtype=">i8"),
                 lambda k: np.array(k, dtype="<u4")):
        cls = type("R", (Returns,), {"conv": staticmethod(conv)})
        got = hta.sim(clusters["wang"], policies=[cls()], slots=300)
        assert strip(got["policies"][0]) == want, conv


@pytest.mark.parametrize("conv,exc,found", [
    (float, TypeError, "float"),
    (lambda k: float("nan"), TypeError, "float"),
    (lambda k: np_scalar("float64", k), TypeError, "numpy.float64"),
    (bool, TypeError, "bool"),
    (lambda k: np_scalar("bool_", 1), TypeError, "numpy.bool_"),
    (lambda k: -1, ValueError, "-1"),
    (lambda k: 2 ** 70, ValueError, "1180591620717411303424"),
    (lambda k: np_scalar("uint64", 2 ** 64 - 1), ValueError,
     "18446744073709551615"),
])
def test_serve_refuses_what_is_no_task(clusters, conv, exc, found):
    cls = type("R", (Returns,), {"conv": staticmethod(conv)})
    with pytest.raises(exc) as e:
        hta.sim(clusters["wang"], policies=[cls()], slots=50)
    assert str(e.value) == ("serve(server 0): expected the task taken "
                            f"(view.pop) or None, found {found}")


def np_scalar(t, x):
    import numpy as np
    return getattr(np, t)(x)


# ---- one policy object, one run at a time ----

class Overlap(P.FCFS):
    """FCFS recording how many of its route calls are under way at once;
    its first call waits for `go` (the other thread's turn)."""
    name = "overlap"

    def __init__(self):
        import threading
        self.inside = self.most = self.calls = 0
        self.first, self.go = threading.Event(), threading.Event()

    def route(self, task, view):
        self.inside += 1
        self.most = max(self.most, self.inside)
        self.calls += 1
        if self.calls == 1:
            self.first.set()
            self.go.wait(10)
        super().route(task, view)
        self.inside -= 1


def test_one_object_in_two_calls_at_once(clusters):
    """hta-policy(7): the runs of one Python policy object go one at a
    time.  A second hta.sim call given the object while a first call on
    another thread runs it is refused at once (RuntimeError naming it),
    before any of its runs: its route calls never overlap.  Once the
    first call is over the object runs again."""
    import threading
    pol = Overlap()
    first = {}

    def call():
        first["rep"] = hta.sim(clusters["wang"], policies=[pol], slots=200)
    t = threading.Thread(target=call)
    t.start()
    assert pol.first.wait(10)
    try:
        with pytest.raises(RuntimeError) as e:
            hta.sim(clusters["wang"], policies=["fcfs", pol], slots=200)
    finally:
        pol.go.set()
        t.join()
    assert str(e.value) == (
        "policies: policy 'overlap' is in the runs of another hta.sim "
        "call, and the runs of one policy object go one at a time: give "
        "each call its own object (copy.deepcopy)")
    assert pol.most == 1
    assert first["rep"]["policies"][0]["slots"] == 200
    again = hta.sim(clusters["wang"], policies=[pol], slots=100)
    assert again["policies"][0]["policy"] == "overlap" and pol.most == 1


def test_one_object_nested_or_after_an_error(clusters):
    """A policy calling hta.sim with itself from its route is refused
    (it would run beside itself), and an object whose run raised is free
    for the next call."""
    class Nested(P.FCFS):
        name = "nested"

        def route(self, task, view):
            hta.sim(clusters["wang"], policies=[self], slots=10)
    n = Nested()
    with pytest.raises(RuntimeError, match="policy 'nested' is in the runs"):
        hta.sim(clusters["wang"], policies=[n], slots=50)
    b = Boom()
    for _ in range(2):
        with pytest.raises(KeyError):
            hta.sim(clusters["wang"], policies=[b], slots=100)


def test_one_object_twice_in_one_call(clusters):
    pol = P.FCFS()
    with pytest.raises(ValueError) as e:
        hta.sim(clusters["pu"], policies=[pol, "fcfs", pol], slots=100)
    assert str(e.value) == "policies: policy 'py-fcfs' given twice"
    with pytest.raises(ValueError) as e:
        hta.sim(clusters["pu"], policies=[pol, P.FCFS()], slots=100)
    assert str(e.value) == ("policies: name 'py-fcfs' given twice (two "
                            "policies of that name)")
    hta.sim(clusters["pu"], policies=[pol], slots=100)  # not left claimed


def test_one_object_in_a_forked_child(clusters):
    """A child forked while a thread runs the object is not in that
    call: the object runs there (the claim is its parent's)."""
    import os
    import threading
    pol = Overlap()
    t = threading.Thread(target=lambda: hta.sim(clusters["wang"],
                                                policies=[pol], slots=100))
    t.start()
    try:
        assert pol.first.wait(10)
        pid = os.fork()
        if pid == 0:  # the child: route no longer waits
            pol.calls = 1
            code = 1
            try:
                rep = hta.sim(clusters["wang"], policies=[pol], slots=100)
                code = 0 if rep["policies"][0]["slots"] == 100 else 1
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        with pytest.raises(RuntimeError, match="in the runs of another"):
            hta.sim(clusters["wang"], policies=[pol], slots=100)
    finally:
        pol.go.set()
        t.join()
