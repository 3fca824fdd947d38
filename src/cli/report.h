/* The report of `hta solve` (text and JSON renderings of a
 * hta_solve_result) and the JSON writers every command uses.
 *
 * Ownership: everything is borrowed; output goes to the caller's FILE.
 */
#ifndef HTA_CLI_REPORT_H
#define HTA_CLI_REPORT_H

#include <stdio.h>

#include "hta/solve.h"

void report_text(const hta_solve_result *r, const char *path, FILE *f);
void report_json(const hta_solve_result *r, const char *path, FILE *f);
/* The rows alone: the table with its header, or the JSON array. */
void report_rows_text(const hta_solve_result *r, FILE *f);
void report_rows_json(const hta_solve_result *r, FILE *f);

/* Writes s as a JSON string literal; bytes that are not UTF-8 become
 * U+FFFD, so the output is always valid UTF-8. */
void json_string(FILE *f, const char *s);
/* Writes x as a JSON number (null when not finite). */
void json_number(FILE *f, double x);

/* x for a text report: 6 significant digits (integers whole, no
 * trailing zeros, fixed notation from 1e-4 to 1e15); JSON keeps every
 * digit (json_number). */
void report_real(char buf[32], double x);
/* Writes `, "name": x` (x as json_number): the next field of an object. */
void json_field(FILE *f, const char *name, double x);

#endif
