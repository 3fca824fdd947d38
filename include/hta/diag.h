/* Diagnostics and status codes shared by every module.
 *
 * Ownership: an hta_diag is caller-owned (usually on the stack); modules only
 * fill it.  Library code never prints, exits or aborts: it returns an
 * hta_status and, on failure, describes the problem in the diagnostic.  Only
 * the command-line front end prints.
 */
#ifndef HTA_DIAG_H
#define HTA_DIAG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes double as the process exit codes (README, "Exit codes"). */
typedef enum hta_status {
    HTA_OK = 0,
    HTA_ERR_INTERNAL = 1, /* solver library failure, out of memory */
    HTA_ERR_USAGE = 2,    /* bad command line */
    HTA_ERR_INPUT = 3,    /* malformed or invalid input file */
    HTA_ERR_IO = 4,       /* cannot open, read or write a file */
    HTA_ERR_NOPROOF = 5   /* hta decode: the assignment proves nothing */
} hta_status;

typedef struct hta_diag {
    const char *path; /* borrowed; NULL when the problem has no file */
    long line;        /* 1-based; 0 when the problem has no line */
    char msg[480];
} hta_diag;

/* Clears a diagnostic. */
void hta_diag_clear(hta_diag *d);

/* Fills d (path, line, printf-style message) and returns status. */
hta_status hta_diag_set(hta_diag *d, hta_status status, const char *path,
                        long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* A failed system call on path: HTA_ERR_INTERNAL "out of memory" when
 * err is ENOMEM (every allocation failure ends the same way), else
 * HTA_ERR_IO "<what>: <strerror(err)>". */
hta_status hta_diag_errno(hta_diag *d, const char *path, const char *what,
                          int err);

/* Writes "path:line: error: msg" (or the shorter forms) into buf. */
void hta_diag_format(const hta_diag *d, char *buf, size_t size);

/* Copies at most 40 characters of tok, marking a cut with "...", into
 * out (for messages that quote what was found); returns out. */
const char *hta_lex_quote(const char *tok, char out[64]);

#ifdef __cplusplus
}
#endif

#endif
