/* The report of `hta solve`: one row per algorithm, a lower bound, gaps and
 * the best row; rendered as text or as the JSON of the README.
 *
 * Ownership: a report borrows the instance and the path; rows are values.
 */
#ifndef HTA_REPORT_H
#define HTA_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "hta/instance.h"

#define HTA_REPORT_MAX_ROWS 8

typedef struct hta_row {
    char algorithm[16]; /* rr, fsy, ilp, brute */
    char status[24];    /* ok, optimal, feasible, time_limit, skipped, error */
    int has_value;      /* 0: no assignment (skipped, error) */
    double makespan;
    int64_t local, remote;
    double seconds;
    char note[200];     /* free text: rr spread, fsy tau, ilp bound, why */
} hta_row;

typedef struct hta_report {
    const hta_instance *inst;
    const char *path;
    int has_lower_bound;
    double lower_bound;
    char bound_source[32]; /* which bound is the largest */
    int has_guarantee;
    double guarantee; /* Theorem 5.4 additive term */
    hta_row rows[HTA_REPORT_MAX_ROWS];
    int nrows;
} hta_report;

/* Raises the lower bound to lb (keeping the largest), naming its source. */
void hta_report_bound(hta_report *r, double lb, const char *source);

/* Index of the row of least makespan (first one on ties), -1 if none. */
int hta_report_best(const hta_report *r);

/* 1 when the best makespan meets the lower bound (relative tolerance 1e-9,
 * which only matters for non-representable costs). */
int hta_report_proven(const hta_report *r);

void hta_report_text(const hta_report *r, FILE *f);
void hta_report_json(const hta_report *r, FILE *f);

/* Writes s as a JSON string literal. */
void hta_json_string(FILE *f, const char *s);
/* Writes x as a JSON number (null when not finite). */
void hta_json_number(FILE *f, double x);

#endif
