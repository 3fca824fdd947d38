/* Confidence intervals shared by the simulators (sim.h, rplace.h): batch
 * means or independent replications, Student's t.
 *
 * Ownership: plain values and borrowed arrays.
 */
#ifndef HTA_STATS_H
#define HTA_STATS_H

/* Two-sided 95% quantile of Student's t with df >= 1 degrees of freedom
 * (Cornish-Fisher expansion; within 0.1% for df >= 5). */
double hta_t975(int df);

/* The mean of x[0..n) and the 95% half-width of its confidence interval
 * (t975(n - 1) times the standard error; infinite for n = 1).  O(n). */
void hta_mean_ci(const double *x, int n, double *mean, double *ci);

#endif
