"""hta: task assignment and scheduling with data locality, from Python.

A thin layer over hta's C library (libhta.so.0, beside this package): the
same algorithms and the same numbers as the ``hta`` command, with numpy
arrays in and out and no text round-trip.

Offline (Fischer, Su and Yin, SPAA 2010, and N locality levels)::

    import hta
    inst = hta.gen_hdfs(tasks=1000, servers=50, zipf=1.5, seed=1)
    rep = hta.solve(inst, algos=("rr", "fsy", "exact"), time_limit=10)
    rep["best"], rep["assignment"]          # numpy int32, one server per task
    hta.evaluate(inst, rep["assignment"])["loads"]

Online: ``hta.Cluster`` and ``hta.capacity`` (the capacity region of Wang
et al. and GB-PANDAS), ``hta.sim`` (the map-task schedulers),
``hta.Jobs`` and ``hta.flowtime`` (map-then-reduce flow time, Zheng,
Shroff and Sinha).

Errors raise exceptions: ``hta.ParseError`` (a ValueError with ``path``
and ``line``) for a bad file, ValueError and TypeError for bad arguments,
MemoryError, OSError.  Long calls release the GIL; Ctrl-C during one
raises ``hta.Interrupted`` (a KeyboardInterrupt) whose ``result`` holds
what the call had when it stopped (the best assignment so far for
``solve``).
"""

from . import _hta

__version__ = _hta.version()

__all__ = [
    "Instance", "Cluster", "Jobs", "ParseError", "Error", "Interrupted",
    "solve", "evaluate", "gen_hdfs", "gen_cluster", "gen_jobs",
    "capacity", "sim", "flowtime", "reduce_place", "gen_sat", "records",
    "import_fsck", "import_swim", "__version__",
]

Instance = _hta.Instance
Cluster = _hta.Cluster
Jobs = _hta.Jobs
Error = _hta.Error
ParseError = _hta.ParseError
ParseError.__doc__ = ("A malformed input file: a ValueError whose path and "
                      "line say where (line 0: the file as a whole).")
ParseError.message = property(lambda self: self.args[0])
ParseError.path = property(lambda self: self.args[1])
ParseError.line = property(lambda self: self.args[2])
ParseError.__str__ = lambda self: (
    f"{self.args[1]}:{self.args[2]}: error: {self.args[0]}"
    if len(self.args) == 3 else str(self.args))


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a long call; ``result`` is what the call had then
    (solve: its report with the best assignment so far; sim, flowtime:
    the rows finished and the cut one)."""

    def __init__(self, result):
        super().__init__("interrupted")
        self.result = result


def solve(instance, algos=("rr", "fsy"), time_limit=60.0, seed=None,
          rr_runs=None, ilp_max_tasks=20000, maxflow="incremental",
          ilp_engine=None, no_prune=False, no_jump=False,
          literal_balance=False, sat_generic=False, ilp_plain=False,
          ilp_naive=False):
    """Runs the algorithms of ``hta solve`` on an instance.

    algos: names among rr, fsy, hadoop, ilp, brute, close, sat, exact (a
    sequence or "rr,fsy"), run in order; time_limit: seconds for the exact
    engines; seed / rr_runs: randomized round robin (as --seed, --rr-runs);
    the other arguments are the command's options of the same names
    (``hta solve --help``).

    Returns the report of ``hta solve --json`` as a dict (instance,
    lower_bound, lower_bound_source, guarantee, results: one dict per row
    with algorithm, status, makespan, local, remote, [per_level], gap,
    seconds, note; best: algorithm, makespan, proven_optimal;
    interrupted) plus ``assignment``: the best assignment, a numpy int32
    array owned by the caller.  Ctrl-C raises Interrupted with this
    report as its result.
    """
    rep = _hta.solve(instance, algos, time_limit, seed, rr_runs,
                     ilp_max_tasks, maxflow, ilp_engine, no_prune, no_jump,
                     literal_balance, sat_generic, ilp_plain, ilp_naive)
    if rep["interrupted"]:
        raise Interrupted(rep)
    return rep


def evaluate(instance, assignment):
    """The makespan of an assignment (one server id per task, any integer
    array) and what ``hta eval --json`` reports: total, local, remote,
    w_rem_r, argmax, per_level and level_costs (arrays over levels
    1..N), and per declared server (numpy arrays, indexed by server id as
    ``instance.names`` is) loads, server_local and server_remote (on N
    levels, remote counts every task not local)."""
    return _hta.evaluate(instance, assignment)


def gen_hdfs(tasks, servers, replicas=3, zipf=0.0, racks=0,
             policy="uniform", w_loc=1.0, w_rem=3.0, w_rack=None, pods=0,
             w_pod=None, seed=1):
    """An HDFS-like placement (``hta gen hdfs``): replicas per task on
    servers drawn uniformly or by Zipf popularity (zipf > 0), or HDFS's
    rack-aware policy (policy="rack-aware", racks >= 2).  w_rack (and
    w_pod with pods) make it an N-level instance."""
    return _hta.gen_hdfs(tasks, servers, replicas, zipf, racks, policy,
                         w_loc, w_rem, w_rack, pods, w_pod, seed)


def import_fsck(path, w_loc=1.0, w_rem=3.0, w_rack=None, w_pod=None,
                strict=False):
    """An instance from the output of ``hdfs fsck <path> -files -blocks
    -locations [-racks]`` (``hta import fsck``): a task per block, a
    server per datanode, the block ids, datanodes and racks as names
    (``Instance.task_names``, ``names``, ``racks``).  Costs as in
    ``from_arrays``; w_rack (and w_pod) make the racks locality levels.
    A MISSING block (no replica) is left out with a ``UserWarning``
    naming its line, or with strict a ParseError."""
    import warnings
    inst, missing = _hta.import_fsck(path, w_loc, w_rem, w_rack, w_pod,
                                     strict)
    for line in missing:
        warnings.warn(f"{path}:{line}: warning: MISSING block (no replica) "
                      "left out", stacklevel=2)
    return inst


def import_swim(path, block_mb=64.0, slot_seconds=10.0, reducer_mb=1024.0):
    """A job trace (``Jobs``) from a SWIM workload (``hta import swim``):
    a job submitted at s seconds arrives in slot floor(s / slot_seconds)
    + 1, its map work is ceil(input / block_mb) units, its reduce work
    ceil(shuffle / block_mb) units over ceil(shuffle / reducer_mb)
    tasks."""
    return _hta.import_swim(path, block_mb, slot_seconds, reducer_mb)


def gen_sat(cnf=None, vars=0, clauses=0, seed=1):
    """FSY's 3SAT reduction (``hta gen sat`` / ``gen random3sat``): the
    instance of a DIMACS formula (cnf: a path), or of a uniform random
    3-CNF of `vars` variables and `clauses` clauses; its optimum is 3
    when the formula is satisfiable, 4 otherwise (Theorem 3.1)."""
    return _hta.gen_sat(cnf, vars, clauses, seed)


def gen_cluster(kind, servers=None, data_servers=None, types=None,
                replicas=None, total=None, load=None, rates=None,
                topology=None, seed=1):
    """The clusters of the papers (``hta gen cluster``): "wang" (Wang et
    al., Section V), "gbpandas" (GB-PANDAS, Section 5) or "random", each
    parameter None for the set-up's default, as the command's options of
    the same names: servers, data_servers (wang), types, replicas, total
    or load (the total arrival rate, or per server), rates (service rates
    by level, strictly decreasing), topology (servers per rack, racks per
    pod, ...: 2 + len(topology) rates)."""
    return _hta.gen_cluster(kind, servers, data_servers, types, replicas,
                            total, load, rates, topology, seed)


def gen_jobs(jobs=1000, machines=10, load=0.7, map="exp:10",
             reduce="exp:10", tasks=1, map_only=0.0, seed=1):
    """Random MapReduce jobs (``hta gen jobs``): Poisson arrivals at the
    rate that loads `machines` machines to `load`, map and reduce work
    from the distributions ("fixed:V", "uniform:LO:HI", "exp:MEAN",
    "pareto:SHAPE:MIN", "table:FILE"), reduce work over 1..tasks tasks."""
    return _hta.gen_jobs(jobs, machines, load, map, reduce, tasks, map_only,
                         seed)


def capacity(cluster, method="auto"):
    """rho*, the least utilisation every server can meet (``hta
    capacity --json``): servers, types, levels, total_rate, method, rho,
    status (inside, boundary, outside), headroom, bottlenecks (level,
    group, name)."""
    return _hta.capacity(cluster, method)


def sim(cluster, policies=("jsq-maxweight", "priority", "gb-pandas", "fcfs"),
        slots=100000, load=1.0, seed=1, warmup=None, batches=30):
    """Simulates map-task schedulers on a cluster (``hta sim``, Poisson
    arrivals, geometric service) with common random numbers: one dict per
    policy with the fields of ``hta sim --json`` (delay, number,
    throughput, levels, verdict, ...).  Ctrl-C raises Interrupted with the
    rows so far."""
    rows, interrupted = _hta.sim(cluster, policies, slots, load, seed,
                                 warmup, batches)
    if interrupted:
        raise Interrupted(rows)
    return rows


def flowtime(jobs, machines, policies=None, mode="preemptive"):
    """Total flow time of a job trace on `machines` machines under the
    policies (srpt, dsrpt, asrpt, fifo, fair; default all), mode
    "preemptive" (work divisible per slot) or "non-preemptive" (a started
    reduce task keeps its machine), as ``hta flowtime``'s options of the
    same names: one dict per policy with total, mean, slots, last, cut,
    seconds and finish (the completion slot of every job, numpy
    int64)."""
    if mode not in ("preemptive", "non-preemptive"):
        raise ValueError("mode: expected 'preemptive' or 'non-preemptive', "
                         f"found {mode!r}")
    rows, interrupted = _hta.flowtime(jobs, machines, policies,
                                      mode == "preemptive")
    if interrupted:
        raise Interrupted(rows)
    return rows


def reduce_place(slots_file=None, slots=1000, costs=(1.0, 100.0),
                 policies=None, lam=0.4, k_limit=10, jobs=50000, warmup=None,
                 batches=30, window=100, seed=1, data="uniform:1:100",
                 reducers="uniform:1:10"):
    """ReduceTask placement (``hta reduce-place``, Tan, Meng and Zhang):
    Poisson jobs (rate lam, service rate 1, at most k_limit holding
    slots), each with data X and R ReduceTasks drawn from the
    distributions, placed on the reduce slots of slots_file (an
    hta-slots file) or of `slots` i.i.d. uniform costs in `costs`, by
    each policy (random, greedy, threshold, rhc, rhc-adaptive; default
    all; optimal, the decision process' optimum, for at most 30 slots
    and a bounded law of data) on the same sample path.  Returns the dict of ``hta
    reduce-place --json``: slots, costs, the queue's figures, and per
    policy its fetching cost and its saving against random and greedy."""
    rep, interrupted = _hta.reduce_place(
        slots_file, slots, tuple(costs), policies, lam, k_limit, jobs,
        warmup, batches, window, seed, data,
        reducers)
    if interrupted:
        raise Interrupted(rep)
    return rep


def records(report):
    """The rows of a solve report (or a list of sim/flowtime rows) as a
    list of flat dicts, which pandas.DataFrame takes as it is."""
    if isinstance(report, dict) and "results" in report:
        return [dict(r) for r in report["results"]]
    return [{k: v for k, v in r.items() if k not in ("finish",)}
            for r in report]
