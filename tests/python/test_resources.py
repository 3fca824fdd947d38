"""No leaks: 10^4 solve and 10^3 sim and capacity calls keep the process's
memory flat; Ctrl-C (SIGINT) during a long call raises hta.Interrupted
within a second, carrying what the call had."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import hta


@pytest.fixture(autouse=True)
def python_takes_sigint():
    """Ctrl-C as an interactive Python has it, whatever the test runner
    inherited (a background job ignores SIGINT, and so does hta then)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_memory_flat():
    inst = hta.gen_hdfs(40, 8, zipf=1.2, seed=5)
    lv = hta.gen_hdfs(40, 8, racks=2, policy="rack-aware", w_rack=1.5,
                      seed=5)
    c = hta.gen_cluster("random")

    def work(k):
        for i in range(k):
            rep = hta.solve(inst if i % 2 else lv, algos="rr,fsy,hadoop")
            hta.evaluate(inst, rep["assignment"] if i % 2 else
                         np.zeros(40, dtype=np.int32))
            hta.Instance.from_arrays(inst.offsets, inst.servers, inst.n)
            if i % 10 == 0:
                hta.sim(c, policies="gb-pandas", slots=200, batches=2)
                hta.capacity(c)
            try:
                hta.Instance.from_arrays(inst.offsets, inst.servers, 1)
            except ValueError:
                pass
    work(2000)
    before = rss_kib()
    work(10000)
    grown = rss_kib() - before
    assert grown < 4096, f"RSS grew by {grown} KiB over 10^4 calls"


def interrupt_after(seconds):
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_ctrl_c_solve(root):
    # an ILP GLPK does not finish in a minute (the 3SAT reduction of
    # SATLIB uf20-01 with its proof taking longer than the budget)
    inst = hta.gen_hdfs(3000, 100, zipf=1.0, seed=1,
                        w_rem=("affine", 3, 0.0001))
    t0 = time.monotonic()
    interrupt_after(0.5)
    try:
        hta.solve(inst, algos="fsy,ilp", time_limit=60)
    except hta.Interrupted as e:
        elapsed = time.monotonic() - t0
        rep = e.result
        assert isinstance(e, KeyboardInterrupt)
        assert rep["interrupted"]
        assert rep["assignment"] is not None  # fsy's, the best so far
        assert hta.evaluate(inst, rep["assignment"])["makespan"] == \
            rep["best"]["makespan"]
        assert elapsed < 1.5, elapsed
    else:
        raise AssertionError("no Interrupted")


def test_ctrl_c_sim():
    c = hta.gen_cluster("gbpandas")
    t0 = time.monotonic()
    interrupt_after(0.3)
    try:
        hta.sim(c, policies="gb-pandas", slots=10**8)
    except hta.Interrupted as e:
        assert time.monotonic() - t0 < 1.3
        rows = e.result["policies"]
        assert rows[-1]["cut"] and 0 < rows[-1]["slots"] < 10**8
    else:
        raise AssertionError("no Interrupted")


def test_python_sigint_handler_restored():
    # after a call, Ctrl-C is Python's KeyboardInterrupt again
    hta.solve(hta.gen_hdfs(10, 4))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("SIGINT did not raise KeyboardInterrupt")


def test_ignored_sigint_stays_ignored():
    # a process ignoring SIGINT: hta does not take it over
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    c = hta.gen_cluster("random")
    t = interrupt_after(0.2)
    rows = hta.sim(c, policies="gb-pandas", slots=40000)["policies"]
    # the signal lands while SIGINT is still ignored, even when the run
    # ended first (else it would reach the next test's call)
    t.join()
    assert not rows[0]["cut"] and rows[0]["slots"] == 40000
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_gil_released():
    # another thread runs while a long call is in C
    c = hta.gen_cluster("random")
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)
    th = threading.Thread(target=ticker)
    th.start()
    hta.sim(c, policies="gb-pandas", slots=60000)
    stop.set()
    th.join()
    assert len(ticks) > 5
