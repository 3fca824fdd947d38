/* SVG picture of an assignment: per-server loads, the work of each
 * locality level stacked in its colour, servers sorted by load (named
 * where the instance names them), the makespan and a lower bound
 * marked.
 *
 * Ownership: borrows everything; writes to the caller's FILE.
 */
#ifndef HTA_PLOT_H
#define HTA_PLOT_H

#include <stdio.h>

#include "hta/assign.h"

/* lower_bound <= 0: not drawn.  O(n log n). */
hta_status hta_plot_loads(const hta_instance *inst, const hta_eval *ev,
                          double lower_bound,
                          const char *title, FILE *f);

#endif
