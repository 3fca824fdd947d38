/* Numbers as hta reads them, in files and on the command line alike: one
 * set of rules, one set of messages.
 *
 * Integers: optional '-', then decimal digits; nothing else (no '+', no
 * blanks, no hex, no octal).  Reals: decimal notation with an optional
 * exponent (digits, '.', 'e', 'E', '-', '+'); NaN, infinities, hex and
 * values that overflow or underflow are refused.  -0 reads as +0.
 *
 * Ownership: borrowed strings only.
 */
#ifndef HTA_NUM_H
#define HTA_NUM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_num_result {
    HTA_NUM_OK = 0,
    HTA_NUM_SYNTAX, /* not a number of the expected form */
    HTA_NUM_RANGE   /* a number, but outside the range (or overflow) */
} hta_num_result;

/* A decimal integer in [lo, hi].  O(length). */
hta_num_result hta_num_int(const char *s, int64_t lo, int64_t hi,
                           int64_t *out);

/* A finite decimal real.  O(length). */
hta_num_result hta_num_real(const char *s, double *out);

/* Splits a comma-separated list of reals ("1,0.5,0.25") into out[0..max);
 * *n receives the count.  HTA_NUM_SYNTAX on an empty item or more than
 * max items, else the first item's error.  O(length). */
hta_num_result hta_num_real_list(const char *s, double *out, int max,
                                 int *n);

/* When ids[0..k) holds a value twice: the index of the second occurrence
 * of the smallest such value; else -1.  sorted (k entries) is scratch.
 * O(k log k) time and no memory beyond the line, whatever the range of
 * the ids (the readers' check for distinct servers on a line). */
int64_t hta_first_repeat(const int32_t *ids, int32_t *sorted, int64_t k);

/* x as the reports print their figures: 6 significant digits, no
 * trailing zeros, whole numbers whole, "%.6g" out of [1e-4, 1e15). */
void hta_format_figure(char buf[32], double x);

/* Monotonic wall-clock seconds (for time limits and reports). */
double hta_clock_now(void);

#ifdef __cplusplus
}
#endif

#endif
