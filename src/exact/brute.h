/* Brute-force oracle: the exact minimum makespan by enumerating all n^m
 * assignments.  Meant for tiny instances (tests, `--algo brute`).
 *
 * Ownership: the caller provides best[0..m).
 */
#ifndef HTA_BRUTE_H
#define HTA_BRUTE_H

#include <stdint.h>

#include "hta/instance.h"

#include <signal.h>

/* Largest work n^m * (n + 1) the oracle accepts: each of the n^m
 * assignments costs one odometer step and a scan of the n loads. */
#define HTA_BRUTE_MAX_WORK 5e8

/* 1 when n^m * (n + 1) <= HTA_BRUTE_MAX_WORK. */
int hta_brute_fits(const hta_instance *inst);

/* Writes into best an assignment of least makespan (the first one in
 * lexicographic order of (a[0], ..., a[m-1])).  Refuses (HTA_ERR_USAGE)
 * instances that do not fit.  stop (or NULL) is polled every few thousand
 * assignments: when raised, best holds the best assignment seen so far
 * and *complete is 0; else *complete is 1.  O(n^m * n) time. */
hta_status hta_brute_run(const hta_instance *inst,
                         volatile sig_atomic_t *stop, int32_t *best,
                         int *complete, hta_diag *d);

#endif
