"""Sweeps on any executor (issue 69): hta.sim, hta.flowtime and
hta.reduce_place with executor= give the one-process sweep's reports
(seconds aside) for any number of workers, on thread and process pools
and on a real distributed engine (Dask's LocalCluster: worker processes,
TCP on localhost), a worker killed mid-sweep included; the executor's
refusals, failures and Ctrl-C as documented."""
import importlib.util
import multiprocessing
import os
import pathlib
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import distributed

import hta
from jsonsame import no_seconds


ROOT = pathlib.Path(__file__).resolve().parents[2]




CLUSTER = hta.gen_cluster("wang", servers=40, data_servers=20, seed=3)
JOBS = hta.gen_jobs(jobs=300, machines=5, load=0.7, tasks=3, seed=2)


def sweeps(executor):
    """The three sweeps, each on executor (None: one process)."""
    return [
        hta.sim(CLUSTER, sweep=(0.5, 1.1, 0.1), slots=4000, seed=4,
                executor=executor),
        hta.flowtime(JOBS, sweep=(0.4, 0.9, 0.1), policies="srpt,fifo,fair",
                     executor=executor),
        hta.reduce_place(slots=120, sweep=(0.2, 0.5, 0.1), jobs=400,
                         executor=executor),
    ]


@pytest.fixture(scope="module")
def local():
    return no_seconds(sweeps(None))


@pytest.mark.parametrize("workers", [1, 3])
def test_thread_pools_give_the_one_process_reports(local, workers):
    with ThreadPoolExecutor(workers) as ex:
        assert no_seconds(sweeps(ex)) == local


def test_a_process_pool_gives_the_one_process_reports(local):
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=ctx) as ex:
        assert no_seconds(sweeps(ex)) == local


def test_loads_are_the_steps_decimals(local):
    assert [r["load"] for r in local[0]] == [0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
                                             1.1]
    assert [r["lambda"] for r in local[2]] == [0.2, 0.3, 0.4, 0.5]
    rows = hta.records(local[0])
    assert rows[0]["load"] == 0.5 and rows[-1]["load"] == 1.1
    # every sweep's records carry their point (flowtime's and
    # reduce-place's raised KeyError before)
    rows = hta.records(local[1])
    assert [r["load_asked"] for r in rows[::3]] == [0.4, 0.5, 0.6, 0.7,
                                                    0.8, 0.9]
    assert all("finish" not in r and r["machines"] >= 1 for r in rows)
    rows = hta.records(local[2])
    assert sorted({r["lambda"] for r in rows}) == [0.2, 0.3, 0.4, 0.5]
    assert len(rows) == 4 * len(local[2][0]["policies"])


def test_a_policy_object_of_python_on_a_thread_pool():
    # each task has its own copy: the objects of one call are not shared
    # between the pool's threads (hta.sim refuses a busy object)
    spec = importlib.util.spec_from_file_location(
        "policies", ROOT / "src" / "online" / "examples" / "policies.py")
    P = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(P)
    p = P.JSQMaxWeight()
    one = hta.sim(CLUSTER, policies=[p, "fcfs"], sweep=(0.5, 0.7, 0.1),
                  slots=3000, seed=2)
    with ThreadPoolExecutor(3) as ex:
        many = hta.sim(CLUSTER, policies=[p, "fcfs"], sweep=(0.5, 0.7, 0.1),
                       slots=3000, seed=2, executor=ex)
    assert no_seconds(many) == no_seconds(one)


# ---- refusals, before any task ----

class Counting(ThreadPoolExecutor):
    def __init__(self, fail_at=None):
        super().__init__(2)
        self.n = 0
        self.fail_at = fail_at

    def submit(self, fn, *args, **kw):
        self.n += 1
        if self.n == self.fail_at:
            def boom(*a):
                raise ValueError("the worker's own error")
            fn = boom
        return super().submit(fn, *args, **kw)


def test_refusals_come_first_with_the_commands_words():
    with Counting() as ex:
        with pytest.raises(ValueError, match="slots: expected an integer"):
            hta.sim(CLUSTER, sweep=(0.5, 0.7, 0.1), slots=1, executor=ex)
        with pytest.raises(ValueError, match="policies"):
            hta.sim(CLUSTER, sweep=(0.5, 0.7, 0.1), policies="nope",
                    executor=ex)
        with pytest.raises(ValueError, match="give threads or executor"):
            hta.sim(CLUSTER, sweep=(0.5, 0.7, 0.1), threads=2, executor=ex)
        with pytest.raises(ValueError, match="trace_file: not with executor"):
            hta.sim(CLUSTER, load=0.5, trace_file="/nonexistent/t.csv",
                    executor=ex)
        with pytest.raises(ValueError, match="k_limit|slots"):
            hta.reduce_place(slots=6, sweep=(0.2, 0.4, 0.1), executor=ex)
        with pytest.raises(ValueError, match="exactly one of machines"):
            hta.flowtime(JOBS, executor=ex)
        assert ex.n == 0
    for bad in (3, "pool", ThreadPoolExecutor):
        with pytest.raises(TypeError, match="executor: expected a "
                           "concurrent.futures.Executor"):
            hta.sim(CLUSTER, load=0.5, executor=bad)
    with pytest.raises(TypeError, match="progress: expected True"):
        with ThreadPoolExecutor(1) as ex:
            hta.sim(CLUSTER, load=0.5, executor=ex, progress="yes")


def test_a_task_that_fails_names_its_load():
    with Counting(fail_at=2) as ex:
        with pytest.raises(ValueError, match="the worker's own error") as e:
            hta.sim(CLUSTER, sweep=(0.5, 0.7, 0.1), slots=2000, executor=ex)
    assert "hta.sim: raised by the point at load 0.6" in e.value.__notes__


def test_progress_counts_the_points():
    seen = []
    with ThreadPoolExecutor(2) as ex:
        hta.reduce_place(slots=120, sweep=(0.2, 0.5, 0.1), jobs=200,
                         executor=ex,
                         progress=lambda p: seen.append((p["phase"],
                                                         p["done"],
                                                         p["total"])))
    assert seen == [("points", k, 4) for k in (1, 2, 3, 4)]


def test_ctrl_c_cancels_the_pending_and_keeps_the_done():
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with ThreadPoolExecutor(1) as ex:
            first = []

            def poke(p):
                if p["done"] == 1:
                    first.append(time.monotonic())
                    os.kill(os.getpid(), signal.SIGINT)
            with pytest.raises(hta.Interrupted) as e:
                hta.sim(CLUSTER, sweep=(0.5, 1.0, 0.1), slots=20000,
                        executor=ex, progress=poke)
            t = time.monotonic()
        done = e.value.result
        assert 1 <= len(done) < 6
        assert [r["load"] for r in done] == [0.5, 0.6, 0.7, 0.8,
                                             0.9][:len(done)]
        # the pending ones were cancelled: the pool ended at once
        assert t - first[0] < 5
    finally:
        signal.signal(signal.SIGINT, old)


# ---- Dask: a real distributed engine on localhost ----

def local_cluster(workers):
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                    processes=True, dashboard_address=":0",
                                    silence_logs=50)


@pytest.fixture(scope="module")
def dask():
    cluster = local_cluster(2)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_gives_the_one_process_reports(local, dask):
    assert no_seconds(sweeps(dask.get_executor())) == local


def test_dask_reschedules_a_killed_workers_points(dask):
    pids = sorted(dask.run(os.getpid).values())
    assert len(pids) == 2
    kw = dict(sweep=(0.5, 1.2, 0.1), slots=40000, seed=8)
    one = hta.sim(CLUSTER, **kw)
    killed = []

    def kill(p):
        if p["done"] == 1:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(p["total"])
    got = hta.sim(CLUSTER, executor=dask.get_executor(), progress=kill, **kw)
    assert killed == [8] and no_seconds(got) == no_seconds(one)
    # the nanny started another worker in its place
    deadline = time.monotonic() + 30
    while len(dask.run(os.getpid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pids[0] not in dask.run(os.getpid).values()


def test_a_worker_without_hta_is_named():
    # workers whose path holds a copy of the package, then the copy gone
    pkg = os.path.dirname(hta.__file__)
    tmp = tempfile.mkdtemp()
    shutil.copytree(pkg, os.path.join(tmp, "hta"))
    old_path, old_env = sys.path[:], os.environ.get("PYTHONPATH")
    sys.path[:] = [tmp] + [p for p in sys.path
                           if os.path.realpath(p) !=
                           os.path.realpath(os.path.dirname(pkg))]
    os.environ["PYTHONPATH"] = tmp
    try:
        cluster = local_cluster(1)
    finally:
        sys.path[:] = old_path
        if old_env is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old_env
        shutil.rmtree(tmp)
    client = distributed.Client(cluster)
    try:
        with pytest.raises(RuntimeError, match="hta.sim: a worker of the "
                           "executor cannot import hta .*install hta where "
                           "the workers run"):
            hta.sim(CLUSTER, sweep=(0.5, 0.7, 0.1), slots=2000,
                    executor=client.get_executor())
    finally:
        client.close()
        cluster.close()
