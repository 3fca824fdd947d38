/* The one rack rule of hta, for generated placements and clusters alike:
 * a rack is a run of consecutive servers, rack_size of them (the last rack
 * may hold fewer), so server s is in rack s / rack_size.  Pods are runs of
 * consecutive racks, and so on (cluster.h).  And the one level rule, for
 * instances (levels.h), clusters (capacity.h) and the simulator alike.
 *
 * Ownership: plain values.
 */
#ifndef HTA_TOPOLOGY_H
#define HTA_TOPOLOGY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rack of server s.  O(1). */
int64_t hta_rack_of(int64_t s, int64_t rack_size);

/* The rack size that splits n servers into exactly `racks` racks by the
 * rule above: ceil(n / racks), or 0 when that size makes another number
 * of racks (10 servers in 6 racks: size 2 makes 5).  O(1). */
int64_t hta_rack_size(int64_t n, int64_t racks);

/* Server x's group at level n (2 <= n < N: its rack, pod, ...), as the
 * caller's model numbers them (ctx). */
typedef int64_t (*hta_group_fn)(const void *ctx, int32_t x, int n);

/* The locality level of server s for a block with replicas r[0..k), on N
 * levels: 1 when s holds one, else the least n in 2..N-1 at which s
 * shares its group with one, else N.  O(k N) calls of group (inlined
 * where the caller's group function is visible). */
static inline int hta_level_rule(const int32_t *r, int64_t k, int32_t s,
                                 int N, hta_group_fn group, const void *ctx)
{
    int best = N;
    for (int64_t i = 0; i < k; i++) {
        if (r[i] == s)
            return 1;
        for (int n = 2; n < best; n++)
            if (group(ctx, r[i], n) == group(ctx, s, n)) {
                best = n;
                break;
            }
    }
    return best;
}

#ifdef __cplusplus
}
#endif

#endif
