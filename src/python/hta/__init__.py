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

import os

from . import _hta

__version__ = _hta.version()

# a forked child runs none of its parent's hta.sim calls: its policy
# objects are free (hta.sim refuses an object in another call's runs)
os.register_at_fork(after_in_child=_hta._forget_policies)

__all__ = [
    "Instance", "Cluster", "View", "Jobs", "ParseError", "Error", "Interrupted",
    "solve", "evaluate", "gen_hdfs", "gen_cluster", "gen_jobs",
    "capacity", "sim", "flowtime", "reduce_place", "gen_sat", "records",
    "import_fsck", "import_swim", "gen_rr_replica", "gen_rr_worst",
    "sat_witness", "decode", "plot", "Chart",
    "__version__",
]

Instance = _hta.Instance
Cluster = _hta.Cluster
View = _hta.View
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
          ilp_naive=False, write_cnf=None, write_lp=None, progress=None):
    """Runs the algorithms of ``hta solve`` on an instance.

    algos: names among rr, fsy, hadoop, ilp, brute, close, sat, exact (a
    sequence or "rr,fsy"), run in order; time_limit: seconds for the exact
    engines; seed / rr_runs: randomized round robin (as --seed, --rr-runs);
    write_cnf, write_lp: paths for sat's CNF and the LP models, written
    as the command writes them (ValueError when the run built none);
    progress: True (a bar, or a line on stderr) or a callable taking the
    library's reports (a dict: phase "fsy" or "ilp", elapsed, best,
    bound, count), at most four a second, as the command's line on a
    terminal; an exception it raises ends the call with it; the other
    arguments are the command's options of the same names (``hta solve
    --help``).

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
                     literal_balance, sat_generic, ilp_plain, ilp_naive,
                     write_cnf, write_lp, _progress_of(progress))
    if rep["interrupted"]:
        raise Interrupted(rep)
    return rep


def evaluate(instance, assignment, exact=False, time_limit=None):
    """The makespan of an assignment (one server id per task, any integer
    array) and what ``hta eval --json`` reports: total, local, remote,
    w_rem_r, argmax, per_level and level_costs (arrays over levels
    1..N), and per declared server (numpy arrays, indexed by server id as
    ``instance.names`` is) loads, server_local and server_remote (on N
    levels, remote counts every task not local) and server_levels (its
    tasks at each level, a servers x levels array; on two levels local
    and remote); lower_bound, lower_bound_source and gap (to the bound:
    how far above the optimum at most).

    exact=True (``hta eval --exact``) adds "exact": hta solve's exact
    portfolio started from the assignment, within time_limit seconds
    (default 60; as the command's --time-limit, only with exact=True):
    results (the solve rows, the first "given"), best, proven_optimal,
    optimum (when proven), gap_optimum, why_not_proven (None when
    proven, else hta eval's words: "time limit", "interrupted", "no
    exact engine applies: " or, when the engines that ran gave up before
    the time, "no exact engine decided: ", and each engine's reason) and
    interrupted.
    So a heuristic
    of one's own is one call away from "how far from optimal":

        rep = hta.evaluate(inst, my_assignment, exact=True)
        print(rep["exact"]["gap_optimum"], rep["gap"])

    Ctrl-C during the exact run raises Interrupted with the report."""
    rep = _hta.evaluate(instance, assignment, exact, time_limit)
    if exact and rep["exact"]["interrupted"]:
        raise Interrupted(rep)
    return rep


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
                strict=False, rack_depth=None):
    """An instance from the output of ``hdfs fsck <path> -files -blocks
    -locations [-racks]`` (``hta import fsck``): a task per block, a
    server per datanode, the block ids, datanodes and racks as names
    (``Instance.task_names``, ``names``, ``racks``).  Costs as in
    ``from_arrays``; w_rack (and w_pod) make the racks locality levels,
    each rack path needing one name (/rack; two, /pod/rack, with w_pod);
    rack_depth=N keeps the last N names of every rack path (1 reads
    /dc1/rack3 as /rack3), N the levels priced when w_rack is given.
    A MISSING block (no replica) is left out with a ``UserWarning``
    naming its line, or with strict a ParseError; a file whose header's
    "N block(s)" disagrees with its block lines gets a ``UserWarning``
    too (the command's warnings, word for word)."""
    import warnings
    inst, notes = _hta.import_fsck(path, w_loc, w_rem, w_rack, w_pod,
                                   strict, rack_depth)
    for line, text in notes:
        warnings.warn(f"{os.fsdecode(path)}:{line}: warning: {text}",
                      stacklevel=2)
    return inst


def import_swim(path, block_mb=64.0, slot_seconds=10.0, reducer_mb=1024.0):
    """A job trace (``Jobs``) from a SWIM workload (``hta import swim``):
    a job submitted at s seconds arrives in slot floor(s / slot_seconds)
    + 1, its map work is ceil(input / block_mb) units, its reduce work
    ceil(shuffle / block_mb) units over ceil(shuffle / reducer_mb)
    tasks."""
    return _hta.import_swim(path, block_mb, slot_seconds, reducer_mb)


def sat_witness(cnf, model):
    """Lemma 3.4 (``hta gen sat FORMULA --model MODEL``): the assignment
    of makespan <= 3 on the reduction instance of the DIMACS formula at
    cnf (``gen_sat(cnf)``) that the satisfying truth assignment in the
    file model ("v ... 0" lines) gives; ValueError naming the clause the
    model falsifies."""
    return _hta.sat_witness(cnf, model)


def decode(cnf, assignment):
    """Lemmas 3.5-3.10 (``hta decode``): from an assignment of makespan
    <= 3 on the reduction instance of the formula at cnf, the truth
    assignment it encodes, checked against every clause (numpy int8
    over variables 0..nvars: 1 true, 0 false, entry 0 unused); None
    when the makespan exceeds 3 (the command's exit 5: such an
    assignment proves nothing)."""
    return _hta.decode(cnf, assignment)


def gen_rr_replica(servers, extra=False):
    """Theorem 4.1's pair (``hta gen rr-replica``): the identity
    placement on `servers` servers, with extra a second replica of the
    last task on server 0."""
    return _hta.gen_rr("replica", servers, 0, extra)


def gen_rr_worst(servers, tasks):
    """Theorem 4.3's placement (``hta gen rr-worst``), tasks <= servers *
    (servers - 2): round robin's worst case, floor(m/n) w_rem against the
    optimum ceil(m/n) w_loc."""
    return _hta.gen_rr("worst", servers, tasks, False)


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
    or load (the total arrival rate, or per server), rates (service rates,
    one per locality level, strictly decreasing: local first, remote
    last), topology (servers per rack, racks per pod, ...): a topology of
    k numbers needs k + 2 rates, as topology=[50, 10] with rates=[1, 0.9,
    0.6, 0.25] (local, rack, pod, remote)."""
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


def capacity(cluster, method="auto", interior=False, decomposition=False,
             progress=None):
    """rho*, the least utilisation every server can meet (``hta
    capacity --json``): servers, types, levels, total_rate, method, rho,
    status (inside, boundary, outside), headroom, bottlenecks (level,
    group, name).  interior: the LP by interior point (lp, plain), as
    --interior; decomposition: also the work of every type at every
    server that serves it at rho* (``--decomposition FILE``'s rows), as
    arrays type, server, rate, level.  A cluster from an instance (the
    command's --from-instance, --rate, --rates, --topology) is
    ``Cluster.from_instance(instance, rate, rates, topology)``.
    progress: as hta.solve's (phase "capacity", per Newton step)."""
    return _hta.capacity(cluster, method, interior, decomposition,
                         _progress_of(progress))


def _decimals(x):
    """The decimals of x as Python writes it (0.25: 2, 1e-05: 5, 15.0:
    1), at most 17: the command counts them in the option's text."""
    text = repr(float(x))
    mant, _, exp = text.lower().partition("e")
    frac = len(mant.partition(".")[2])
    return max(0, min(17, frac - (int(exp) if exp else 0)))


def _sweep(a, b, step):
    """The loads of ``--sweep A,B,STEP``, as the command computes them:
    A + k STEP to the decimals of A and STEP (1.0, 1.7, 0.1 ends at 1.7,
    not 1.7000000000000002), so that a sweep split over hosts has the
    loads of the whole sweep."""
    if not (0 < a <= 1e6 and 0 < b <= 1e6 and 0 < step <= 1e6):
        raise ValueError("sweep: expected A,B,STEP in (0, 1e6]")
    if b < a:
        raise ValueError(f"sweep: A,B,STEP needs A <= B, found {a},{b},"
                         f"{step}")
    dec = max(_decimals(a), _decimals(step))
    loads, k = [], 0
    while a + k * step <= b * (1 + 1e-12):
        if len(loads) == 64:
            raise ValueError("sweep: at most 64 loads")
        loads.append(float(f"{a + k * step:.{dec}f}"))
        k += 1
    return loads


def _executor_of(executor, threads, extra=()):
    """executor checked: an object with submit (a concurrent.futures
    Executor, Dask's Client.get_executor()), not with threads."""
    if executor is None:
        return None
    if isinstance(executor, type):
        raise TypeError("executor: expected a concurrent.futures.Executor "
                        f"(an object with submit), found the class "
                        f"{executor.__name__} (an instance is one: "
                        f"{executor.__name__}())")
    if not callable(getattr(executor, "submit", None)):
        raise TypeError("executor: expected a concurrent.futures.Executor "
                        "(an object with submit), found "
                        f"{type(executor).__name__}")
    if threads is not None:
        raise ValueError("give threads or executor, not both (threads: "
                         "runs at once in this process; executor: a point "
                         "a task)")
    for name, value in extra:
        if value is not None:
            raise ValueError(f"{name}: not with executor (the points run "
                             "in other processes)")
    return executor


def _on_executor(executor, call, fn, items, progress=None):
    """fn(*args) for every (label, args) of items on executor, each a
    task; the reports in the items' order (each fn returns (reports,
    interrupted)).  Ctrl-C cancels what is pending and raises Interrupted
    with the reports done; a task's exception is raised here with a note
    naming its point (a worker without hta: RuntimeError saying so)."""
    import concurrent.futures as cf
    futs = []
    try:
        for _, args in items:
            f = executor.submit(fn, *args)
            if not isinstance(f, cf.Future):
                if hasattr(f, "cancel"):
                    f.cancel()
                raise TypeError("executor: expected its submit to return a "
                                "concurrent.futures.Future, found "
                                f"{type(f).__name__}")
            futs.append(f)
        if progress is not None:
            for k, _ in enumerate(cf.as_completed(futs)):
                progress({"phase": "points", "done": k + 1,
                          "total": len(futs)})
        out = []
        for (label, _), f in zip(items, futs):
            try:
                reps, interrupted = f.result()
            except ModuleNotFoundError as e:
                if (e.name or "").split(".")[0] == "hta":
                    raise RuntimeError(
                        f"{call}: a worker of the executor cannot import "
                        f"hta ({e}): install hta where the workers run"
                    ) from e
                e.add_note(f"{call}: raised by the point at {label}")
                raise
            except Exception as e:
                e.add_note(f"{call}: raised by the point at {label}")
                raise
            out.extend(reps)
            if interrupted:
                raise KeyboardInterrupt
        return out
    except BaseException as e:
        for f in futs:
            f.cancel()
        if isinstance(e, KeyboardInterrupt):
            done = []
            for f in futs:
                if f.done() and not f.cancelled() and \
                        f.exception() is None:
                    done.extend(f.result()[0])
            raise Interrupted(done) from None
        raise


def _progress_of(progress):
    """progress: None (nothing shown), a callable taking a dict, or True
    (a tqdm bar when tqdm is installed, else a line on stderr, at most
    four a second as the command's).  The dict: for a sweep on an
    executor {"phase": "points", "done", "total"}; for a long call of
    the library its report {"phase" ("fsy", "ilp", "capacity", "sim",
    ...), "elapsed", "best", "bound", "count"} (None where it has
    none)."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    if progress is not True:
        raise TypeError("progress: expected True, a callable (taking a "
                        f"dict) or None, found {type(progress).__name__}")
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    state = {}

    def show(p):
        if p["phase"] == "points":
            if tqdm is not None:
                if "bar" not in state:
                    state["bar"] = tqdm(total=p["total"], unit="point")
                state["bar"].update(p["done"] - state["bar"].n)
                if p["done"] == p["total"]:
                    state["bar"].close()
                return
            line = f"{p['done']}/{p['total']} points"
        else:
            extra = "".join(f", {k} {p[k]:.6g}" for k in ("best", "bound")
                            if p.get(k) is not None)
            count = "" if p.get("count") is None else f", {p['count']}"
            line = f"{p['phase']} {p['elapsed']:.1f} s{count}{extra}"
            if tqdm is not None:
                if "bar" not in state:
                    state["bar"] = tqdm(total=None, bar_format="{desc}")
                state["bar"].set_description_str(line)
                return
        import sys
        print(f"hta: {line}", file=sys.stderr)
    return show


def _sim_point(cluster, policies, x, opts):
    """One load of a sweep (None: the cluster's own), a task of
    hta.sim(executor=...)."""
    return _hta.sim(cluster, policies, None if x is None else [x], *opts,
                    1, None, None)


def _ft_point(jobs, pols, n, x, opts):
    """One machine count of a flowtime sweep (executor=), asked as load
    x (None: machines given)."""
    return _hta.flowtime(jobs, pols, [n], *opts, 1, None,
                         None if x is None else [x])


def _rp_point(x, kw):
    """One rate of a reduce-place sweep (executor=)."""
    return _hta.reduce_place(lambdas=None if x is None else [x], threads=1,
                             **kw)


def _own(policies):
    """Each task's own policy objects (a thread pool's tasks would share
    them, which hta.sim refuses): a deep copy, names as they are."""
    import copy
    if policies is None or isinstance(policies, str):
        return policies
    return copy.deepcopy(policies)


def _rates(one, sweep, option):
    """The rates asked: [one], sweep=(A, B, STEP)'s, or None (the
    command's default); both given is the command's refusal."""
    if one is not None and sweep is not None:
        raise ValueError(f"give {option} or --sweep, not both")
    if one is not None:
        return [one]
    if sweep is not None:
        a, b, step = (float(x) for x in sweep)
        return _sweep(a, b, step)
    return None


def _int_in(name, x, lo, hi):
    import operator
    try:
        v = operator.index(x)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, found "
                        f"{type(x).__name__}") from None
    if not lo <= v <= hi:
        raise ValueError(f"{name}: expected an integer in [{lo}, {hi}], "
                         f"found {v}")
    return v


def sim(cluster, policies=None, slots=None, load=None, seed=None,
        warmup=None, batches=None, arrivals=None, job_size=None,
        jobs_trace=None, time_scale=None, block_mb=None, subqueues=False,
        delay=None, service=None, cv=None, slots_per_unit=None,
        sweep=None, max_backlog=None, threads=None, trace_file=None,
        trace_every=None, executor=None, progress=None):
    """Simulates the map-task schedulers on a cluster (``hta sim``) with
    common random numbers.  The arguments are the command's options of
    the same names (``hta sim --help``), each taking the command's
    default when not given: policies (names or "a,b", and policies of
    your own: objects with route(task, view) and serve(server, view),
    hta-policy(7); default every built-in that applies), slots, load (or sweep=(A, B, STEP)), seed, warmup
    (default a tenth), batches, arrivals ("poisson", "bernoulli",
    "jobs"), job_size (a distribution, "fixed:10") or jobs_trace (a SWIM
    file, with time_scale and block_mb), subqueues, delay ((D1, D2)),
    service ("geometric", "lognormal" with cv, "exponential",
    "deterministic"), slots_per_unit, max_backlog, threads (runs at once;
    the result is the same for every number), trace_file (the sample
    paths as CSV: load,policy,slot,number_in_system, every trace_every
    slots, default a thousandth of the run).  The command's rules between
    the options hold, with its words (the library's hta_sim_ask_check).

    Returns the report of ``hta sim --json``: a dict (servers, types,
    levels, rate, rho, slots, warmup, batches, slots_per_unit, arrivals,
    service, subqueues, seed, policies: one dict per policy with delay,
    number, throughput, levels, verdict, ...; interrupted), or with sweep
    a list of them, one per load.  Ctrl-C raises Interrupted with the
    reports so far; an exception raised by a policy of yours ends the
    call with that exception, the reports up to it in its hta_reports.

    executor: any concurrent.futures.Executor (a thread or process pool,
    Dask's Client.get_executor()), each load a task (threads= is for one
    process: give one or the other); the reports come back in load
    order, the same as the one-process call's (seconds aside) for any
    number of workers.  The objects travel pickled; paths (jobs_trace,
    a table: job size) are read where the task runs.  Ctrl-C cancels
    what is pending and raises Interrupted with the points done; a
    task's exception is raised with a note naming its load.  progress:
    True (a tqdm bar, or a line on stderr) or a callable taking a dict:
    with executor the points done ({"phase": "points", "done",
    "total"}), else the simulator's reports (as hta.solve's).

    The runs of one policy object go one at a time: those of one call
    take turns, and a call given an object that another call is running
    (on another thread, or from the policy's own route) raises
    RuntimeError before any run; give each call its own copy
    (copy.deepcopy)."""
    loads = _rates(load, sweep, "--load")
    ex = _executor_of(executor, threads, [("trace_file", trace_file),
                                          ("trace_every", trace_every)])
    bar = _progress_of(progress)
    if ex is not None:
        opts = (slots, warmup, batches, seed, arrivals, service, cv,
                slots_per_unit, job_size, jobs_trace, time_scale, block_mb,
                subqueues, delay, max_backlog)
        _hta.sim(cluster, policies, loads, *opts, 1, None, None, True)
        reps = _on_executor(ex, "hta.sim", _sim_point, [
            (f"load {x:g}" if x is not None else "the cluster's load",
             (cluster, _own(policies), x, opts))
            for x in (loads or [None])], bar)
        return reps if sweep is not None else reps[0]
    reps, interrupted = _hta.sim(
        cluster, policies, loads, slots, warmup, batches, seed, arrivals,
        service, cv, slots_per_unit, job_size, jobs_trace, time_scale,
        block_mb, subqueues, delay, max_backlog, threads, trace_file,
        trace_every, False, bar)
    out = reps if sweep is not None else (reps[0] if reps else None)
    if interrupted:
        raise Interrupted(out)
    return out


_FT_POLICIES = ("srpt", "dsrpt", "asrpt", "fifo", "fair", "exact")


def flowtime(jobs, machines=None, policies=None, mode="preemptive",
             load=None, sweep=None, exact_max_vars=None, time_limit=None,
             stepwise=False, threads=None, executor=None, progress=None):
    """Total flow time of a job trace under the policies (``hta
    flowtime``; Zheng, Shroff and Sinha), as the command's options of the
    same names: machines, or load (the machines that load needs), or
    sweep=(A, B, STEP) over loads; mode "preemptive" (work divisible per
    slot) or "non-preemptive" (a started reduce task keeps its machine);
    policies among srpt (the relaxation: a lower bound), dsrpt
    (preemptive only), asrpt, fifo, fair and exact (the time-indexed
    program, when it has at most exact_max_vars columns, default 2000,
    within time_limit seconds, default 60); default all; stepwise: the
    reference engine, slot by slot; threads: runs at once; executor
    and progress: a point a task, as hta.sim's.

    Returns the report of ``hta flowtime --json``: a dict (jobs, work,
    span, machines, mode, load (the machine count's), load_asked (the
    load asked, a sweep's A + k STEP to the decimals of A and STEP; None
    with machines), lower_bound, job_bound_sum, interrupted,
    policies: per policy total, mean, the ratios to SRPT, to the lower
    bound and to the optimum, mean flow time by job size, and finish, the
    completion slot of every job as numpy int64; exact), or with sweep a
    list of them, one per load.  Ctrl-C raises Interrupted with the
    points so far."""
    if mode not in ("preemptive", "non-preemptive"):
        raise ValueError("mode: expected 'preemptive' or 'non-preemptive', "
                         f"found {mode!r}")
    pre = mode == "preemptive"
    if sum(x is not None for x in (machines, load, sweep)) != 1:
        raise ValueError("give exactly one of machines, load and sweep")
    if policies is None:
        pols = [p for p in _FT_POLICIES if p != "dsrpt" or pre]
    else:
        pols = policies.split(",") if isinstance(policies, str) \
            else list(policies)
        for p in pols:
            if p not in _FT_POLICIES:
                raise ValueError("policies: expected names among "
                                 f"{', '.join(_FT_POLICIES)}, found {p!r}")
        if len(set(pols)) != len(pols):
            raise ValueError("policies: a name given twice")
        if not pols:
            raise ValueError("policies: expected one or more")
    if "dsrpt" in pols and not pre:
        raise ValueError("dsrpt is defined for the preemptive mode only")
    if "exact" not in pols and (exact_max_vars is not None or
                                time_limit is not None):
        raise ValueError("exact_max_vars and time_limit apply to the exact "
                         "policy only")
    max_vars = 2000 if exact_max_vars is None else \
        _int_in("exact_max_vars", exact_max_vars, 1, 10**8)
    limit = 60.0 if time_limit is None else float(time_limit)
    if not 0 < limit <= 1e9:
        raise ValueError(f"time_limit: expected seconds in (0, 1e9], found "
                         f"{time_limit!r}")
    ex = _executor_of(executor, threads)
    bar = _progress_of(progress)
    nthreads = _hta.threads_default() if threads is None else \
        _int_in("threads", threads, 1, 1024)
    if machines is not None:
        ns = [_int_in("machines", machines, 1, 1000000)]
    else:
        if sweep is not None:
            a, b, step = (float(x) for x in sweep)
            if not (0 < a <= 1 and 0 < b <= 1 and 0 < step <= 1):
                raise ValueError("sweep: expected A,B,STEP in (0, 1]")
            loads = _sweep(a, b, step)
        else:
            x = float(load)
            if not 0 < x <= 1:
                raise ValueError(f"load: expected a number in (0, 1], found "
                                 f"{load!r}")
            loads = [x]
        ns = []
        for x in loads:
            n = _hta.ft_machines(jobs, x)
            if not n <= 1e6:
                raise ValueError(f"load {x:g} needs {n:.3g} machines for "
                                 "this trace, above the limit 10^6")
            ns.append(n)
    asked = None if machines is not None else loads
    if ex is not None:
        opts = (pre, bool(stepwise), max_vars, limit)
        labels = [f"machines {n}"] if machines is not None else \
            [f"load {x:g}" for x in loads]
        points = _on_executor(ex, "hta.flowtime", _ft_point, [
            (label, (jobs, pols, n, None if asked is None else x, opts))
            for label, n, x in zip(labels, ns, asked or ns)], bar)
        return points if sweep is not None else points[0]
    points, interrupted = _hta.flowtime(jobs, pols, ns, pre,
                                        bool(stepwise), max_vars, limit,
                                        nthreads, bar, asked)
    out = points if sweep is not None else (points[0] if points else None)
    if interrupted:
        raise Interrupted(out)
    return out


def reduce_place(slots_file=None, slots=None, costs=None, policies=None,
                 lam=None, sweep=None, k_limit=None, jobs=None, warmup=None,
                 batches=None, window=None, seed=None, data=None,
                 reducers=None, jobs_trace=None, reducer_mb=None,
                 threads=None, executor=None, progress=None):
    """ReduceTask placement (``hta reduce-place``, Tan, Meng and Zhang):
    Poisson jobs (rate lam, default 0.4, or each rate of sweep=(A, B,
    STEP); service rate 1, at most k_limit (10) holding slots), each with
    data X and R ReduceTasks drawn from the distributions data and
    reducers, or the jobs of the SWIM trace jobs_trace (R by reducer_mb),
    placed on the reduce slots of slots_file (an hta-slots file) or of
    `slots` i.i.d. uniform costs in `costs`, by each policy (random,
    greedy, threshold, rhc, rhc-adaptive; default all; optimal, the
    decision process' optimum, for at most 30 slots and a bounded law of
    data) on the same sample path; the rates on `threads` threads.
    Returns the dict of ``hta reduce-place --json`` (with sweep, the list
    of them): slots, costs, the queue's figures, and per policy its
    fetching cost and its saving against random and greedy.  Every
    argument not given takes the command's default; the command's rules
    between them hold with its words.  executor and progress: a rate a
    task, as hta.sim's."""
    lams = _rates(lam, sweep, "--lambda")
    ex = _executor_of(executor, threads)
    bar = _progress_of(progress)
    if ex is not None:
        kw = dict(slots_file=slots_file, slots=slots, costs=costs,
                  policies=policies, k_limit=k_limit, jobs=jobs,
                  warmup=warmup, batches=batches, window=window, seed=seed,
                  data=data, reducers=reducers, jobs_trace=jobs_trace,
                  reducer_mb=reducer_mb)
        _hta.reduce_place(lambdas=lams, check=True, **kw)
        reps = _on_executor(ex, "hta.reduce_place", _rp_point, [
            (f"lambda {x:g}" if x is not None else "the default rate",
             (x, kw)) for x in (lams or [None])], bar)
        return reps if sweep is not None else reps[0]
    if bar is not None:
        raise ValueError("progress: reduce_place reports progress with "
                         "an executor only (a rate a task)")
    reps, interrupted = _hta.reduce_place(
        slots_file, slots, costs, policies, lams, k_limit, jobs, warmup,
        batches, window, seed, data, reducers, jobs_trace, reducer_mb,
        threads)
    out = reps if sweep is not None else (reps[0] if reps else None)
    if interrupted:
        raise Interrupted(out)
    return out


def records(report):
    """The rows of a report as a list of flat dicts, which
    pandas.DataFrame takes as they are: a solve report's results; a sim,
    flowtime or reduce-place report (or a sweep's list of them): a row
    per point and policy, each with its point's load (sim: load, rate,
    rho; flowtime: load, load_asked, machines, lower_bound; reduce-place:
    lambda), flowtime's finish arrays left out; a list of rows as they
    are (finish left out)."""
    if isinstance(report, dict) and "results" in report:
        return [dict(r) for r in report["results"]]
    reports = [report] if isinstance(report, dict) else list(report)
    rows = []
    for rep in reports:
        if not (isinstance(rep, dict) and "policies" in rep):
            rows.append({k: v for k, v in rep.items() if k != "finish"})
            continue
        if "rho" in rep:
            head = ("load", "rate", "rho")
        elif "span" in rep:
            head = ("load", "load_asked", "machines", "lower_bound")
        else:
            head = ("lambda",)
        rows.extend({**{k: rep[k] for k in head if k in rep},
                     **{k: v for k, v in r.items() if k != "finish"}}
                    for r in rep["policies"])
    return rows


class Chart:
    """A picture hta draws (``hta.plot``): ``svg`` is the SVG text the
    command writes, which a notebook shows (``_repr_svg_``); ``save(path)``
    writes it (replacing the file atomically)."""

    def __init__(self, svg):
        self.svg = svg

    def _repr_svg_(self):
        return self.svg

    def save(self, path):
        import tempfile
        path = os.fspath(path)
        d = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".hta-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.svg)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise

    def __repr__(self):
        return f"<hta.Chart: {len(self.svg)} bytes of SVG>"


def _nan(v):
    return float("nan") if v is None else float(v)


def _series_chart(points, x_of, rows_of, order=None):
    """A sweep's series, as the commands build theirs: the points by x
    (stable: equal loads keep their order), a series per name in their
    first order (or order(names)); rows_of(point) gives (name, y, ci,
    hollow) tuples.  Returns names, x, and y, ci, hollow flat, series
    by series (a cell without a row: NaN, not hollow)."""
    points = sorted(points, key=x_of)
    names, cells = [], {}
    for k, p in enumerate(points):
        for name, y, ci, hollow in rows_of(p):
            if name not in names:
                names.append(name)
            cells[(name, k)] = (_nan(y), _nan(ci), bool(hollow))
    if order:
        names = order(names)
    none = (float("nan"), float("nan"), False)
    flat = [cells.get((s, k), none) for s in names
            for k in range(len(points))]
    return (names, [x_of(p) for p in points], [c[0] for c in flat],
            [c[1] for c in flat], [c[2] for c in flat])


def plot(report=None, instance=None, assignment=None, title=None):
    """The picture the command draws, as a Chart (a notebook shows it):

    - a sweep: the reports of ``hta.sim``, ``hta.flowtime`` or
      ``hta.reduce_place`` (a list, or one): the chart of their
      ``--plot``, point for point (the title names no input file);
    - an assignment: ``hta.plot(solve_report, instance)`` (its best
      assignment) or ``hta.plot(instance=inst, assignment=a)``: the
      loads chart of ``hta solve --plot`` / ``hta eval --plot``, the
      lower bound marked.

    title replaces the command's first line."""
    if instance is not None:
        if assignment is None:
            if not (isinstance(report, dict) and "assignment" in report):
                raise TypeError("plot: expected a solve report or an "
                                "assignment with the instance")
            assignment = report["assignment"]
            best = report["best"]
            head = (f"{best['algorithm']}, makespan "
                    f"{best['makespan']:.6g}" +
                    (" (proven optimal)" if best.get("proven_optimal")
                     else ""))
            lb = report.get("lower_bound")
        else:
            ev = evaluate(instance, assignment)
            head = f"makespan {ev['makespan']:.6g}"
            lb = ev.get("lower_bound")
        return Chart(_hta.loads_svg(instance, assignment,
                                    float(lb) if lb else 0.0,
                                    title if title is not None else head))
    points = report if isinstance(report, list) else [report]
    if not points or not all(isinstance(p, dict) for p in points):
        raise TypeError("plot: expected the reports of a sweep (hta.sim, "
                        "hta.flowtime, hta.reduce_place) or a solve report "
                        "with its instance")
    first = points[0]
    if "rho" in first and "policies" in first:
        def rows(p):
            return [(r["policy"], r["delay"], r["delay_ci"],
                     r["verdict"] in ("growing", "unstable"))
                    for r in p["policies"]]
        names, x, y, ci, hol = _series_chart(points, lambda p: p["load"],
                                             rows)
        mark = next((p["load"] / p["rho"] for p in
                     sorted(points, key=lambda p: p["load"])
                     if p["rho"] and p["rho"] > 0), None)
        unit = "time units" if first["slots_per_unit"] > 1 else "slots"
        svg = _hta.chart_svg(
            title or "hta.sim: mean task delay against the load",
            f"{first['slots']} slots, seed {first['seed']}, 95% intervals "
            "from batch means",
            "load (--load: every arrival rate times X)",
            f"mean task delay ({unit})", names, x, y, ci, hol, None,
            "still growing or ended unstable", mark,
            "capacity boundary rho* = 1")
    elif "lambda" in first and "policies" in first:
        def rows(p):
            return [(r["policy"], r["cost"], r["cost_ci"], False)
                    for r in p["policies"]]
        names, x, y, ci, hol = _series_chart(points, lambda p: p["lambda"],
                                             rows)
        svg = _hta.chart_svg(
            title or "hta.reduce_place: cost per job against the arrival "
            "rate", f"K {first['k_limit']}, seed {first['seed']}, 95% "
            "intervals from batch means",
            "lambda (jobs per unit time, mu = 1)",
            "mean fetching cost per job", names, x, y, ci, None)
    elif "span" in first and "policies" in first:
        def rows(p):
            out = [(r["policy"], r["mean"], None, p["interrupted"])
                   for r in p["policies"]]
            ex = p.get("exact")
            if ex and ex.get("value") is not None:
                out.append(("exact", ex["value"] / p["jobs"], None,
                            ex.get("status") != "optimal"))
            out.append(("lower bound", p["lower_bound"] / p["jobs"], None,
                        False))
            return out
        def order(names):  # the policies, exact, the lower bound
            return [s for s in names if s not in ("exact", "lower bound")] \
                + [s for s in ("exact",) if s in names] + ["lower bound"]
        names, x, y, ci, hol = _series_chart(
            points, lambda p: p["load"], rows, order)
        svg = _hta.chart_svg(
            title or "hta.flowtime: mean flow time against the load",
            first["mode"],
            "load (the trace's work over machines times span)",
            "mean flow time (slots)", names, x, y, None, hol,
            [s in ("srpt", "lower bound") for s in names],
            "cut short, or exact not proven optimal")
    else:
        raise TypeError("plot: expected the reports of a sweep (hta.sim, "
                        "hta.flowtime, hta.reduce_place) or a solve report "
                        "with its instance")
    return Chart(svg)
