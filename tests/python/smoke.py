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


class Fcfs:  # a policy of one's own (hta-policy(7)), its view, its errors
    name = "mine"
    queues_per_server = 0
    shared_queues = 1

    def route(self, task, view):
        view.replicas(view.type(task))
        view.push(view.shared(), task)

    def serve(self, server, view):
        return view.pop(view.shared())


class Gb(Fcfs):
    name = "gb-mine"
    queues_per_server = -1
    shared_queues = 0
    level_queues = True
    workloads = True
    own_work = True

    def route(self, task, view):
        m = view.least(view.replicas(view.type(task))[0], 1)[0]
        view.push(view.queue(m, 0), task)

    def serve(self, server, view):
        return view.pop(view.queue(server, 0)) if view.len(
            view.queue(server, 0)) else None


class Bad(Fcfs):
    name = "bad"

    def serve(self, server, view):
        if view.slot > 5:
            raise KeyError(server)
        return super().serve(server, view)


rows = hta.sim(c, slots=300, batches=2, policies=[Fcfs(), Gb(), "fcfs"],
               threads=2)["policies"]
assert rows[0]["delay"] == rows[2]["delay"]
try:
    hta.sim(c, slots=300, batches=2, policies=[Bad()])
except KeyError as e:
    assert e.hta_reports
j = hta.gen_jobs(jobs=20, machines=2)
assert len(hta.flowtime(j, 2)["policies"]) == 5
sat = hta.gen_sat(vars=5, clauses=12, seed=3)
hta.solve(sat, algos="fsy,sat", time_limit=10)
rp = hta.reduce_place(jobs=400, batches=4)
assert len(rp["policies"]) == 5
print("smoke: ok")
