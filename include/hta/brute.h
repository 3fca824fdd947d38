/* Brute-force oracle: the exact minimum makespan by enumerating all n^m
 * assignments.  Meant for tiny instances (tests, `--algo brute`).
 *
 * Ownership: the caller provides best[0..m).
 */
#ifndef HTA_BRUTE_H
#define HTA_BRUTE_H

#include <stdint.h>

#include "hta/instance.h"

/* Largest n^m the oracle accepts. */
#define HTA_BRUTE_MAX_ASSIGNMENTS 50000000.0

/* 1 when n^m <= HTA_BRUTE_MAX_ASSIGNMENTS. */
int hta_brute_fits(const hta_instance *inst);

/* Writes into best an assignment of least makespan (the first one in
 * lexicographic order of (a[0], ..., a[m-1])).  Refuses (HTA_ERR_USAGE)
 * instances that do not fit.  O(n^m * n) time. */
hta_status hta_brute_run(const hta_instance *inst, int32_t *best,
                         hta_diag *d);

#endif
