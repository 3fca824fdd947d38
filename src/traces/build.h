/* Building job traces: what the reader, the generator and the SWIM reader
 * share beyond jobs.h (internal to src/traces).
 *
 * Ownership: j is the caller's, built by hta_jobs_new.
 */
#ifndef HTA_TRACES_BUILD_H
#define HTA_TRACES_BUILD_H

#include <stdint.h>

#include "hta/jobs.h"

/* R units over k reduce tasks, as evenly as possible: red[t] = R / k,
 * plus one for the first R mod k. */
void traces_split_even(int64_t R, int64_t k, int64_t *red);

/* The source line of the job added last (j->line). */
hta_status traces_set_line(hta_jobs *j, long line, hta_diag *d);

#endif
