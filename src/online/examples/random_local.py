"""random-local for hta.sim (hta-policy(7)): a task joins the queue of a
replica drawn at random; an idle server serves its own queue, else the
longest of its rack, pod, ..., cluster.  As random_local.c, same numbers.
Run: python3 random_local.py wang.txt  (hta gen cluster wang -o wang.txt)"""
import sys

import hta


class RandomLocal:
    name = "random-local-py"
    lengths = True       # keep the groups' servers ordered by queue length
    level_queues = True  # queue 0 of a server holds its local tasks only

    def route(self, task, view):
        servers = view.replicas(view.type(task))
        m = servers[view.below(len(servers))]
        view.push(view.queue(m), task)

    def serve(self, server, view):
        if view.len(view.queue(server)):
            return view.pop(view.queue(server))
        for level in range(2, view.levels + 1):
            m = view.longest(server, level)
            if m is not None:
                return view.pop(view.queue(m))
        return None      # nothing queued anywhere: stay idle


if __name__ == "__main__":
    cluster = hta.Cluster.read(sys.argv[1])
    report = hta.sim(cluster, load=0.9, slots=20000,
                     policies=["jsq-maxweight", "priority", RandomLocal()])
    print(f"rho* = {report['rho']:.3f}")
    for row in report["policies"]:
        print(f'{row["policy"]:16} delay {row["delay"]:9.3f} '
              f'+- {row["delay_ci"]:.3f}  {row["verdict"]}')
