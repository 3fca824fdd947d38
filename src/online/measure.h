/* What a simulation run measures (sim.h), internal to src/online/: sums
 * per batch of the measured slots (after the warm-up; the last batch
 * takes the rest) and over the whole run, the histogram of the measured
 * jobs' delays by job size, and at the end the means, the batch-means
 * intervals, the percentiles and the stability verdict.
 *
 * Every sum adds whole numbers (tasks, slots, servers), so the order of
 * the additions does not change a figure.
 *
 * Ownership: a measure owns its arrays; measure_free releases them.
 */
#ifndef HTA_ONLINE_MEASURE_H
#define HTA_ONLINE_MEASURE_H

#include <stdint.h>

#include "hta/sim.h"

/* Sums over a stretch of slots: of the number in system at the slots'
 * ends, of the departing tasks' delays and their count, of the delays of
 * the jobs done and their count, of the busy servers. */
typedef struct sim_sums {
    double n, delay, deps, jdelay, jobs, busy;
} sim_sums;

typedef struct measure {
    int B;
    int64_t warmup, measured, blen;
    sim_sums *bt;  /* [B] the batches */
    sim_sums all;  /* the whole run, warm-up included (no job delays) */
    int64_t *hist; /* [HTA_SIM_CLASSES * HTA_SIM_BINS] */
} measure;

/* For o's slots, warm-up and batches; -1 when out of memory. */
int measure_init(measure *m, const hta_sim_opts *o);
void measure_free(measure *m);

/* The batch slot t counts in, or NULL in the warm-up.  O(1). */
sim_sums *measure_batch(measure *m, int64_t t);

/* A job of size tasks done with delay jd, in batch b. */
void measure_job(measure *m, sim_sums *b, int64_t size, double jd);

/* r's statistics from a run of `slots` slots on M servers: a whole run's
 * means and intervals over its B batches; one that ended early (ended: a
 * stop or the backlog, unstable: the backlog) means over every measured
 * slot it ran (every slot when it ended in the warm-up) and intervals
 * over its complete batches; Little's law's gap over the whole run; the
 * slope test over the second half of the complete batches and the
 * verdict. */
void measure_finish(const measure *m, int64_t slots, int ended,
                    int unstable, int32_t M, hta_sim_result *r);

#endif
