/* random-local: a map-task policy of one's own, as a plug-in of hta sim
 * (hta-policy(7)).  A task joins the queue of one of its replicas drawn
 * at random (no queue lengths read: a scheduler that knows where the
 * data is and nothing else); an idle server serves its own queue, else
 * the longest queue of its rack, then of its pod, ..., then of the
 * cluster (JSQ-Priority's rule).  src/online/examples/random_local.py is
 * the same policy in Python: the two give the same numbers.
 *
 *   cc -std=c11 -O2 -fPIC -shared -I include \
 *       src/online/examples/random_local.c -o random_local.so
 *   hta gen cluster wang -o wang.txt
 *   hta sim wang.txt --policy-lib ./random_local.so --load 0.9
 */
#include <stddef.h>

#include "hta/policy.h"

static int route(void *state, hta_view *v, int64_t task)
{
    (void)state;
    int64_t n;
    const int32_t *r = hta_view_replicas(v, hta_view_type(v, task), &n);
    int32_t m = r[hta_view_below(v, (uint32_t)n)];
    return hta_view_push(v, hta_view_queue(v, m, 0), task);
}

static int64_t serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    int32_t from = server;
    for (int level = 2; hta_view_len(v, hta_view_queue(v, from, 0)) == 0;
         level++) {
        if (level > v->levels)
            return HTA_VIEW_IDLE; /* every queue is empty */
        int32_t m = hta_view_longest(v, server, level);
        from = m >= 0 ? m : from;
    }
    return hta_view_pop(v, hta_view_queue(v, from, 0));
}

static const hta_policy policy = {
    .abi = HTA_POLICY_ABI,
    .name = "random-local",
    .per_server = 1, /* a queue per server, no shared queue */
    .shared = 0,
    /* the simulator keeps each group's servers ordered by queue length
     * (hta_view_longest), and queue 0 holds local tasks only */
    .flags = HTA_POLICY_LENGTHS | HTA_POLICY_LEVEL_QUEUES,
    .route = route,
    .serve = serve,
};

const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi)
{
    return abi == HTA_POLICY_ABI ? &policy : NULL;
}
