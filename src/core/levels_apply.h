/* The instance reader's side of levels.h (internal to src/core): the
 * same checks as hta_instance_set_levels, with the lines to blame. */
#ifndef HTA_CORE_LEVELS_APPLY_H
#define HTA_CORE_LEVELS_APPLY_H

#include "hta/levels.h"

typedef struct hta_levels_where {
    const char *path;
    const long *wlev_line;  /* [HTA_MAX_LEVELS]: each w_level line */
    const long *rack_line;  /* [n]: each server's rack line */
} hta_levels_where;

/* wlev[i]: the cost of level i + 2 (copied).  where may be NULL. */
hta_status hta_levels_apply(hta_instance *inst, const hta_wrem *wlev,
                            int nlev, const hta_levels_where *where,
                            hta_diag *d);

/* Releases the levels' arrays; the instance has two levels again. */
void hta_levels_free(hta_instance *inst);

#endif
