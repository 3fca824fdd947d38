#!/bin/sh
# The Python package's overhead: hta.solve (rr,fsy) on an instance built
# by hta.Instance.from_arrays from numpy arrays, against the C library
# call on the same arrays (scripts/bench_api.c: hta_instance_build +
# hta_solve) and against the command on the same file (`hta solve`,
# which parses the text).  HDFS placements of 10^5 and 10^6 tasks;
# medians of 7 runs interleaved, fresh processes; the arrays are made
# before the clock starts on both sides.  Figures only.
# Then pickling at 10^6 tasks against Instance.read of the same file,
# and sweeps on an executor (Dask) against one worker and threads=.
# usage: scripts/bench_python.sh BUILD
set -eu
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for family in "10^5 tasks, 10^3 servers|--tasks 100000 --servers 1000" \
              "10^6 tasks, 10^4 servers|--tasks 1000000 --servers 10000"; do
    name=${family%%|*}
    # shellcheck disable=SC2086
    "$build/hta" gen hdfs ${family#*|} --zipf 1.2 --seed 1 -o "$tmp/i.txt"
    : >"$tmp/runs"
    for _ in 1 2 3 4 5 6 7; do
        echo "c $("$build/bench_api" "$tmp/i.txt")" >>"$tmp/runs"
        PYTHONPATH=$build/python /usr/bin/python3 - "$tmp/i.txt" >>"$tmp/runs" <<'PY'
import sys, time
import hta
src = hta.Instance.read(sys.argv[1])
off, srv, n, wl, wr = src.offsets, src.servers, src.n, src.w_loc, src.w_rem
t0 = time.monotonic()
inst = hta.Instance.from_arrays(off, srv, n, wl, wr)
t1 = time.monotonic()
rep = hta.solve(inst)
t2 = time.monotonic()
print("py %.6f %.6f %g" % (t1 - t0, t2 - t1, rep["best"]["makespan"]))
PY
        /usr/bin/time -f "%e" -o "$tmp/t" "$build/hta" solve "$tmp/i.txt" >/dev/null
        echo "cli 0 $(cat "$tmp/t") -" >>"$tmp/runs"
    done
    /usr/bin/python3 - "$tmp/runs" "$name" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def med(kind):
    return statistics.median(float(r[1]) + float(r[2]) for r in rows if r[0] == kind)
bests = {r[3] for r in rows if r[0] != "cli"}
c, py, cli = med("c"), med("py"), med("cli")
print(f"{sys.argv[2]}: C library (build + solve) {c:.3f} s, Python "
      f"(from_arrays + solve) {py:.3f} s, command (parse + solve, whole "
      f"process) {cli:.3f} s; Python/C {py / c:.3f}x, command/Python "
      f"{cli / py:.2f}x; best makespans {sorted(bests)}")
PY
done

# Pickling (issue 69): an instance of 10^6 tasks (three levels, racks)
# pickled and unpickled against Instance.read of its file; medians of 5
# in one process, bytes beside the file's.
"$build/hta" gen hdfs --tasks 1000000 --servers 10000 --zipf 1.2 --racks 100 \
    --policy rack-aware --w-rack 1.5 --w-rem-affine 3,0.00001 --seed 1 \
    -o "$tmp/p.txt"
PYTHONPATH=$build/python /usr/bin/python3 - "$tmp/p.txt" <<'PY'
import os, pickle, statistics, sys, time
import hta
def med(f):
    ts = []
    for _ in range(5):
        t0 = time.monotonic()
        r = f()
        ts.append(time.monotonic() - t0)
    return statistics.median(ts), r
tr, inst = med(lambda: hta.Instance.read(sys.argv[1]))
td, data = med(lambda: pickle.dumps(inst, pickle.HIGHEST_PROTOCOL))
tl, back = med(lambda: pickle.loads(data))
assert back.m == inst.m and back.levels == inst.levels
print(f"pickle, 10^6 tasks (3 levels, affine w_rem): Instance.read "
      f"{tr:.3f} s, pickle.dumps {td:.3f} s ({td / tr:.2f}x), pickle.loads "
      f"{tl:.3f} s ({tl / tr:.2f}x); {len(data) / 1e6:.1f} MB pickled, "
      f"file {os.path.getsize(sys.argv[1]) / 1e6:.1f} MB")
PY

# Sweeps on an executor (issue 69): a 40-point sim sweep on a Dask
# LocalCluster of one and of two single-threaded worker processes
# (medians of 3, side by side; target: two workers at least 1.8x one on
# a quiet 2-core machine), and the executor path's overhead at small
# points (40 points of 10^3 slots: ThreadPoolExecutor(1) against
# threads=1; target: within 10%).
# (a file, not standard input: Dask's worker processes start by spawn,
# which imports the main module from its path)
cat >"$tmp/dask_bench.py" <<'PY'
import statistics, time
import hta
from concurrent.futures import ThreadPoolExecutor
from distributed import Client, LocalCluster

def timed(f, runs=3):
    ts = []
    for _ in range(runs):
        t0 = time.monotonic()
        f()
        ts.append(time.monotonic() - t0)
    return statistics.median(ts)

if __name__ == "__main__":
    c = hta.gen_cluster("wang", servers=100, data_servers=50, seed=1)
    kw = dict(sweep=(0.5, 0.89, 0.01), slots=20000, seed=3)
    clients = {}
    for w in (1, 2):
        cl = LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                          dashboard_address=":0", silence_logs=50)
        clients[w] = (cl, Client(cl))
    ex1, ex2 = (clients[w][1].get_executor() for w in (1, 2))
    t1 = timed(lambda: hta.sim(c, executor=ex1, **kw))
    t2 = timed(lambda: hta.sim(c, executor=ex2, **kw))
    print(f"40-point sim sweep (2*10^4 slots a point) on Dask LocalCluster: "
          f"1 worker {t1:.2f} s, 2 workers {t2:.2f} s, {t1 / t2:.2f}x")
    small = dict(sweep=(0.5, 0.89, 0.01), slots=1000, seed=3)
    tt = timed(lambda: hta.sim(c, threads=1, **small), 5)
    with ThreadPoolExecutor(1) as ex:
        te = timed(lambda: hta.sim(c, executor=ex, **small), 5)
    print(f"40 points of 10^3 slots, one thread: threads=1 {tt:.3f} s, "
          f"executor=ThreadPoolExecutor(1) {te:.3f} s ({te / tt:.2f}x)")
    for cl, client in clients.values():
        client.close()
        cl.close()
PY
PYTHONPATH=$build/python /usr/bin/python3 "$tmp/dask_bench.py"
