"""Every call of the package once, small, for memcheck (make valgrind runs
it under valgrind with PYTHONMALLOC=malloc): prints "smoke: ok"."""
import numpy as np

import hta

inst = hta.gen_hdfs(60, 8, zipf=1.2, seed=1)
rep = hta.solve(inst, algos="rr,fsy,hadoop,exact", time_limit=10)
assert hta.evaluate(inst, rep["assignment"])["makespan"] == \
    rep["best"]["makespan"]
lv = hta.gen_hdfs(60, 8, racks=2, policy="rack-aware", w_rack=1.5, pods=0,
                  seed=2)
rep = hta.solve(lv, algos="fsy,hadoop,ilp", time_limit=10)
again = hta.Instance.from_arrays(lv.offsets, lv.servers, lv.n, lv.w_loc,
                                 lv.w_rem, racks=lv.racks,
                                 w_levels=lv.w_levels)
assert again.levels == 3
for bad in (lambda: hta.Instance.from_arrays([0, 1], [5], 2),
            lambda: hta.Instance.from_arrays([0.0, 1.0], [0], 2),
            lambda: hta.Instance.read("/nonexistent"),
            lambda: hta.solve(inst, algos="nope")):
    try:
        bad()
    except (TypeError, ValueError, OSError):
        pass
c = hta.Cluster.from_instance(lv, 0.05, [1, 0.5, 0.2])
assert hta.capacity(c)["rho"] > 0
c = hta.gen_cluster("random")
hta.capacity(c, method="lp")
rows = hta.sim(c, slots=300, batches=2)["policies"]
assert len(rows) == 4
j = hta.gen_jobs(jobs=20, machines=2)
assert len(hta.flowtime(j, 2)["policies"]) == 5
sat = hta.gen_sat(vars=5, clauses=12, seed=3)
hta.solve(sat, algos="fsy,sat", time_limit=10)
rp = hta.reduce_place(jobs=400, batches=4)
assert len(rp["policies"]) == 5
print("smoke: ok")
