"""JSQ-MaxWeight, JSQ-Priority, GB-PANDAS, fair sharing, delay scheduling
and FCFS written in Python against hta's
policy interface (hta-policy(7)).  Each one routes and serves as the
built-in of the same rules does, drawing its ties from the view's routing
stream, so `hta.sim` reports the same numbers for both, digit for digit
(tests/python/test_policies.py checks it).

Run:  python3 policies.py CLUSTER   (e.g. from `hta gen cluster wang`)
"""
import sys

import hta


def shortest_local(view, task):
    """The shortest queue 0 among the task's replicas, uniform among ties:
    what view.shortest(view.type(task)) answers, in one call."""
    servers = view.replicas(view.type(task))
    lens = [view.len(view.queue(m)) for m in servers]
    best = min(lens)
    ties = [m for m, n in zip(servers, lens) if n == best]
    m = ties[0] if len(ties) == 1 else ties[view.below(len(ties))]
    return m, best


class JSQMaxWeight:
    """Wang et al.: a queue per server and a common one."""
    name = "py-jsq"
    queues_per_server = 1
    shared_queues = 1
    own_work = True      # an idle server with an empty queue takes nothing
    level_queues = True  # queue 0 of a server holds its local tasks

    def route(self, task, view):
        m, n = view.shortest(view.type(task))  # = shortest_local(view, task)
        common = view.shared()
        view.push(common if view.len(common) < n else view.queue(m), task)

    def serve(self, server, view):
        own, common = view.queue(server), view.shared()
        mine, theirs = view.len(own), view.len(common)
        if mine and view.rate(1) * mine >= view.rate(view.levels) * theirs:
            return view.pop(own)
        return view.pop(common) if theirs else None


class Priority:
    """JSQ-Priority: join the shortest local queue; an idle server serves
    its own, else the longest queue of its rack, pod, ..., cluster."""
    name = "py-priority"
    lengths = True       # the simulator keeps the groups' length orders
    level_queues = True

    def route(self, task, view):
        view.push(view.queue(shortest_local(view, task)[0]), task)

    def serve(self, server, view):
        if view.len(view.queue(server)):
            return view.pop(view.queue(server))
        for level in range(2, view.levels + 1):
            m = view.longest(server, level)
            if m is not None:
                return view.pop(view.queue(m))
        return None


class GBPandas:
    """Balanced-Pandas / GB-PANDAS: a queue per level on each server;
    route to the least W_m / alpha_level(m) (W_m the queued work), ties
    to the more local level, then the lesser tie; serve local first."""
    name = "py-gb-pandas"
    queues_per_server = -1   # one a level
    own_work = True
    level_queues = True      # queue n - 1 holds level-n tasks
    workloads = True         # the simulator keeps W_m and its min-tree

    def route(self, task, view):
        servers = view.replicas(view.type(task))
        levels = view.levels
        wmin = view.least(0, levels)[1]
        best = (None, float("inf"), 0, levels + 1)  # server, score, tie, n
        n = 1
        while n <= levels and best[1] > wmin * (1 / view.rate(n)):
            inv = 1 / view.rate(n)
            seen = set()
            for r in servers[:1] if n == levels else servers:
                if 1 < n < levels:
                    g = view.group(r, n)
                    if g in seen:
                        continue    # replicas sharing a group ask once
                    seen.add(g)
                m, w, tie = view.least(r, n)
                score = w * inv
                if score < best[1] or (score == best[1] and n == best[3]
                                       and tie < best[2]):
                    best = (m, score, tie, n)
            n += 1
        view.push(view.queue(best[0], best[3] - 1), task)

    def serve(self, server, view):
        for n in range(view.levels):
            if view.len(view.queue(server, n)):
                return view.pop(view.queue(server, n))
        return None


class Fair:
    """Naive fair sharing (job arrivals): the job with the fewest running
    tasks gets the server; it runs a local task if it has one, else
    any."""
    name = "py-fair"
    queues_per_server = 0
    shared_queues = 1
    jobs = True          # the simulator keeps the jobs' queued tasks

    def route(self, task, view):
        view.push_job(task)

    def serve(self, server, view):
        job = view.job_first()
        if job is None:
            return None
        return view.take(view.job_best(job, server, view.levels)[0])


class Delay(Fair):
    """Delay scheduling (Zaharia et al.), skips d1 before rack-local and
    d1 + d2 before remote tasks (hta sim --delay D1,D2)."""
    name = "py-delay"

    def __init__(self, d1=3, d2=5):
        self.d1, self.d2 = d1, d2

    def serve(self, server, view):
        levels = view.levels
        while (job := view.job_first()) is not None:
            skips = view.job_mark(job)
            allowed = (levels if skips >= self.d1 + self.d2 else
                       (levels - 1 if levels > 2 else levels)
                       if skips >= self.d1 else 1)
            best = view.job_best(job, server, allowed)
            if best is not None:
                if best[1] == 1:
                    view.set_job_mark(job, 0)
                return view.take(best[0])
            view.set_job_mark(job, skips + 1)
            view.job_aside(job)     # the next job in fair-share order
        return None


class FCFS:
    """Hadoop's FIFO: one queue, any idle server takes its head."""
    name = "py-fcfs"
    queues_per_server = 0
    shared_queues = 1

    def route(self, task, view):
        view.push(view.shared(), task)

    def serve(self, server, view):
        return view.pop(view.shared())


if __name__ == "__main__":
    cluster = hta.Cluster.read(sys.argv[1])
    report = hta.sim(cluster, policies=["jsq-maxweight", JSQMaxWeight()],
                     slots=5000, load=0.9)
    for row in report["policies"]:
        print(f'{row["policy"]:14} delay {row["delay"]:.3f} '
              f'{row["verdict"]}')
