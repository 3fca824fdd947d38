/* N-level locality on the offline side: node-local, rack-local, ...,
 * off-rack, as Hadoop's scheduler and GB-PANDAS see a cluster.
 *
 * Groups come from rack paths as Hadoop's NetworkTopology writes them
 * ("rack S /pod/rack" lines): server S lies in rack "/pod/rack" (level 2)
 * inside pod "/pod" (level 3), and so on; every path has the same depth d
 * (a path without a leading '/' reads the same: "a/b" is "/a/b"), and
 * N = d + 2.  Groups nest by construction.
 *
 * The level of task t on server s is 1 when s holds a replica of t, the
 * least l in 2..N-1 such that s shares its level-l group with a replica,
 * else N.  A task at level l costs w_loc (l = 1), w_l(r_l) (2 <= l < N,
 * the instance's w_level lines) or w_rem(r_N) (l = N), r_l being the
 * number of tasks at level l: FSY's remote count, per level.  Costs never
 * fall with closeness: w_loc <= w_2(0) and w_l(r) <= w_{l+1}(r) for every
 * r in 0..m.  An instance without w_level lines has FSY's two levels
 * whatever its rack lines say (they are names then), so every two-level
 * file reads and solves as before.
 *
 * Why a count per level: FSY's w_rem(r) models the network's contention
 * by the number of remote tasks.  Rack-local traffic crosses the rack's
 * switch, off-rack traffic the core: different links, so each level has
 * its own count r_l and curve w_l.  A contention that is per rack (each
 * rack's uplink its own bottleneck) depends on where the tasks go, not on
 * a count, and is not this model: price a rack-local task at the rack's
 * cost at its expected load (a constant w_2), which this model takes.
 *
 * Ownership: the levels belong to the instance (instance.h); these
 * functions borrow it.
 */
#ifndef HTA_LEVELS_H
#define HTA_LEVELS_H

#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* N (2 for FSY's model). */
static inline int hta_levels(const hta_instance *inst)
{
    return inst->levels > 2 ? inst->levels : 2;
}

/* FSY's two-level view of an N-level instance: the same arrays
 * (borrowed, never freed through the view), every non-local task at
 * w_rem.  What fsy runs on before the refill (refill.h). */
static inline hta_instance hta_instance_flat(const hta_instance *inst)
{
    hta_instance v = *inst;
    v.levels = 2;
    return v;
}

/* The cost function of level l, 2 <= l <= N (level N: w_rem); NULL for
 * any other l. */
const hta_wrem *hta_level_wrem(const hta_instance *inst, int l);

/* The cost of one task at level l (1..N) when r >= 0 tasks are at that
 * level; NaN for any other l or r. */
double hta_level_cost(const hta_instance *inst, int l, int64_t r);

/* The level of task t (0..m-1) on server s (0..n-1); -1 when either id
 * is out of range.  O(replicas * N). */
int hta_level(const hta_instance *inst, int32_t t, int32_t s);

/* The load of a server running cnt[l - 1] tasks at level l, l = 1..N,
 * when a task at level l costs c[l - 1] (c[0] = w_loc).  Every load of an
 * N-level instance is computed by this one formula; on two levels it is
 * hta_load's (assign.h), to the bit. */
static inline double hta_load_levels(int N, const int64_t *cnt,
                                     const double *c)
{
    double x = c[0] * (double)cnt[0];
    for (int l = 1; l < N; l++)
        x += c[l] * (double)cnt[l];
    return x;
}

/* The depth of a rack path (its names), or 0 when a name is empty
 * ("/a//b", "/", "a/"). */
int hta_rack_depth(const char *path);

/* Makes inst an N-level instance, N = 2 + nlev: wlev[i] is the cost of
 * level i + 2 (copied), the groups from the rack paths of every server.
 * HTA_ERR_INPUT, naming the rule, when a server has no rack or depths
 * differ or are not nlev, or the costs break the gate's rules (gate.h)
 * or fall with closeness.  nlev = 0 makes it a two-level instance again.
 * O(n d log n + the tables). */
hta_status hta_instance_set_levels(hta_instance *inst, const hta_wrem *wlev,
                                   int nlev, hta_diag *d);

/* The costs' rules alone, for m tasks: each function by the gate's rules
 * (gate.h: finite, w(0) >= w_loc, non-decreasing, m w(m) finite), and
 * w_l(r) <= w_{l+1}(r) up to w_rem.  HTA_ERR_INPUT naming the first
 * broken one.  O(the tables). */
hta_status hta_levels_check_costs(double w_loc, const hta_wrem *wrem,
                                  const hta_wrem *wlev, int nlev, int64_t m,
                                  hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
