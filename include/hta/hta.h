/* The hta library, one include for callers: every public header.
 *
 *   instances and assignments: instance.h (model, reader, writer),
 *       gate.h (the rules every way in checks, names escaped),
 *       levels.h (N locality levels), assign.h (the evaluator)
 *   the offline optimizer: solve.h (what `hta solve` runs: rr, fsy,
 *       hadoop, the bounds, the exact engines), fsy.h, maxcover.h and
 *       ilp.h (the options' types), version.h (the version, optional
 *       engines)
 *   inputs: gen.h (generators), fsck.h (hdfs fsck), cnf.h and reduce.h
 *       (3SAT and its reduction), jobs.h (job traces, distributions),
 *       topology.h (racks and the level rule), rng.h (random streams)
 *   the online side: cluster.h and capacity.h (the capacity region),
 *       sim.h (the simulator), flowtime.h (map-then-reduce flow time),
 *       rplace.h (ReduceTask placement)
 *   around them: diag.h (errors), progress.h (progress callbacks),
 *       pool.h (threads for independent runs),
 *       num.h (numbers as hta reads and prints them), outfile.h (outputs
 *       replaced atomically)
 *
 * Every call reports errors by its return value and an hta_diag (path,
 * line, message); none prints or exits.  Each header says who owns what.
 */
#ifndef HTA_HTA_H
#define HTA_HTA_H

#include "hta/assign.h"
#include "hta/capacity.h"
#include "hta/cluster.h"
#include "hta/cnf.h"
#include "hta/diag.h"
#include "hta/flowtime.h"
#include "hta/fsck.h"
#include "hta/fsy.h"
#include "hta/gate.h"
#include "hta/gen.h"
#include "hta/ilp.h"
#include "hta/instance.h"
#include "hta/jobs.h"
#include "hta/levels.h"
#include "hta/maxcover.h"
#include "hta/num.h"
#include "hta/outfile.h"
#include "hta/policy.h"
#include "hta/pool.h"
#include "hta/progress.h"
#include "hta/reduce.h"
#include "hta/rng.h"
#include "hta/rplace.h"
#include "hta/sim.h"
#include "hta/solve.h"
#include "hta/stop.h"
#include "hta/topology.h"
#include "hta/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
