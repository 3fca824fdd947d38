#!/usr/bin/python3
"""The makespan of an N-level hta instance as a MIP, solved by HiGHS
through scipy.optimize.milp: the independent side of make
bench-exact-top (hta's engines are not used).

Written from hta-formats(5) alone: levels from the rack paths (1 local,
l for the least level-l group shared with a replica, N otherwise), every
level below the top at a constant cost, the top at w_rem(r), r the
number of tasks at level N.  Tasks with one replica set are one group
(interchangeable); x[g, s] integer counts the tasks of g on s.  The top
cost by pieces of r: one binary per distinct value c_k of w_rem over its
range [lo_k, hi_k] of r, exactly one chosen, lo_k <= r_N <= hi_k for the
chosen one, and per server and piece
    low_s + c_k top_s <= L + M (1 - y_k),
low_s the server's load at levels below N, top_s its level-N count,
M = c_k m.  Minimises L.

usage: highs_top.py FILE SECONDS [MAX_COLUMNS]
Prints one line: status (optimal, time_limit, too_big, error), wall
seconds, best makespan or -, dual bound or -.
"""
import sys
import time

import numpy as np
from scipy.optimize import LinearConstraint, milp
from scipy.sparse import coo_matrix


def parse(path):
    inst = {"racks": {}, "tasks": {}, "levels": {}}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            key = line[0]
            if key == "tasks":
                inst["m"] = int(line[1])
            elif key == "servers":
                inst["n"] = int(line[1])
            elif key == "w_loc":
                inst["w_loc"] = float(line[1])
            elif key == "w_rem":
                inst["w_rem"] = line[1:]
            elif key == "w_level":
                inst["levels"][int(line[1])] = line[2:]
            elif key == "rack":
                inst["racks"][int(line[1])] = line[2]
            elif key == "task":
                inst["tasks"][int(line[1])] = tuple(sorted(map(int, line[2:])))
    return inst


def cost_fn(spec):
    """w(r) of a w_rem or w_level spec."""
    if spec[0] == "affine":
        a, b = float(spec[1]), float(spec[2])
        return lambda r: a + b * r
    v = [float(x) for x in spec]
    return lambda r: v[min(r, len(v) - 1)]


def model(inst, max_cols):
    m, n = inst["m"], inst["n"]
    depth = len(inst["levels"])
    N = depth + 2
    paths = {}
    for s in range(n):
        names = [p for p in inst["racks"].get(s, "").split("/") if p]
        paths[s] = names
    # level-l group of s: the first depth - (l - 2) names of its path
    def grp(s, l):
        return tuple(paths[s][:depth - (l - 2)])
    cost = [inst["w_loc"]]
    for l in range(2, N):
        spec = inst["levels"][l]
        if spec[0] == "affine" and float(spec[2]) != 0 or \
                spec[0] != "affine" and len(set(spec)) > 1:
            raise ValueError("level %d's cost is not constant" % l)
        cost.append(cost_fn(spec)(0))
    wrem = cost_fn(inst["w_rem"])
    groups = {}
    for t in range(m):
        groups[inst["tasks"][t]] = groups.get(inst["tasks"][t], 0) + 1
    G = list(groups.items())
    if len(G) * n > max_cols:
        return None, len(G) * n
    # pieces of w_rem over r = 0..m
    pieces = []
    r = 0
    while r <= m:
        c = wrem(r)
        lo = r
        while r + 1 <= m and wrem(r + 1) == c:
            r += 1
        pieces.append((c, lo, r))
        r += 1
    K = len(pieces)
    nx = len(G) * n
    # columns: x (nx), low_s (n), top_s (n), y (K), L (1)
    ilow, itop, iy, iL = nx, nx + n, nx + 2 * n, nx + 2 * n + K
    ncol = iL + 1
    rows, cols, vals, lb, ub = [], [], [], [], []
    row = 0
    level = np.empty((len(G), n), dtype=np.int64)
    for gi, (reps, size) in enumerate(G):
        rset = set(reps)
        groups_of = [set(grp(s, l) for s in reps) for l in range(N)]
        for s in range(n):
            if s in rset:
                lv = 1
            else:
                lv = N
                for l in range(2, N):
                    if grp(s, l) in groups_of[l]:
                        lv = l
                        break
            level[gi, s] = lv
        # sum_s x = size
        for s in range(n):
            rows.append(row)
            cols.append(gi * n + s)
            vals.append(1.0)
        lb.append(size)
        ub.append(size)
        row += 1
    # low_s = sum cost x (levels < N); top_s = sum x (level N)
    for s in range(n):
        for gi in range(len(G)):
            lv = level[gi, s]
            if lv < N:
                rows.append(row)
                cols.append(gi * n + s)
                vals.append(cost[lv - 1])
            else:
                rows.append(row + 1)
                cols.append(gi * n + s)
                vals.append(1.0)
        rows += [row, row + 1]
        cols += [ilow + s, itop + s]
        vals += [-1.0, -1.0]
        lb += [0, 0]
        ub += [0, 0]
        row += 2
    # one piece; lo_k <= r_N <= hi_k of the chosen one
    rows += [row] * K
    cols += list(range(iy, iy + K))
    vals += [1.0] * K
    lb.append(1)
    ub.append(1)
    row += 1
    for s in range(n):  # r_N - sum hi_k y_k <= 0, r_N - sum lo_k y_k >= 0
        rows += [row, row + 1]
        cols += [itop + s, itop + s]
        vals += [1.0, 1.0]
    for k, (c, lo, hi) in enumerate(pieces):
        rows += [row, row + 1]
        cols += [iy + k, iy + k]
        vals += [-float(hi), -float(lo)]
    lb += [-np.inf, 0]
    ub += [0, np.inf]
    row += 2
    for s in range(n):
        for k, (c, lo, hi) in enumerate(pieces):
            M = c * m
            rows += [row] * 4
            cols += [ilow + s, itop + s, iL, iy + k]
            vals += [1.0, c, -1.0, M]
            lb.append(-np.inf)
            ub.append(M)
            row += 1
    A = coo_matrix((vals, (rows, cols)), shape=(row, ncol)).tocsr()
    integrality = np.zeros(ncol)
    integrality[:nx] = 1
    integrality[iy:iy + K] = 1
    lo_b = np.zeros(ncol)
    hi_b = np.full(ncol, np.inf)
    for gi, (reps, size) in enumerate(G):
        hi_b[gi * n:(gi + 1) * n] = size
    hi_b[iy:iy + K] = 1
    obj = np.zeros(ncol)
    obj[iL] = 1
    return (obj, LinearConstraint(A, lb, ub), integrality, (lo_b, hi_b)), nx


def main():
    path, seconds = sys.argv[1], float(sys.argv[2])
    max_cols = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
    t0 = time.time()
    try:
        built, cols = model(parse(path), max_cols)
    except (ValueError, KeyError) as e:
        print("error %.2f - - (%s)" % (time.time() - t0, e))
        return
    if built is None:
        print("too_big %.2f - - (%d columns)" % (time.time() - t0, cols))
        return
    from scipy.optimize import Bounds
    obj, cons, integ, (lo, hi) = built
    res = milp(obj, constraints=cons, integrality=integ,
               bounds=Bounds(lo, hi),
               options={"time_limit": seconds, "disp": False})
    wall = time.time() - t0
    status = {0: "optimal", 1: "time_limit"}.get(res.status, "other")
    best = "%.6g" % res.fun if res.x is not None else "-"
    bound = res.get("mip_dual_bound")
    bound = "%.6g" % bound if bound is not None and np.isfinite(bound) \
        else "-"
    print("%s %.2f %s %s" % (status, wall, best, bound))


if __name__ == "__main__":
    main()
