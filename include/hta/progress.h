/* Progress of long work (the exact search, the capacity LP, the fsy
 * sweep), for a front end to show: the library calls the callback often
 * and cheaply; the caller decides how often to print.
 *
 * Ownership: the report is borrowed for the duration of the call.
 */
#ifndef HTA_PROGRESS_H
#define HTA_PROGRESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_progress {
    const char *phase; /* "ilp", "fsy", "capacity" */
    double elapsed;    /* seconds since the phase began */
    double best;       /* best value so far (makespan, rho*), or NAN */
    double bound;      /* proven bound so far, or NAN */
    int64_t count;     /* nodes (ilp), tau (fsy), iterations, or -1 */
} hta_progress;

typedef void (*hta_progress_fn)(void *ctx, const hta_progress *p);

#ifdef __cplusplus
}
#endif

#endif
