/* Line-and-token reader shared by every text format of hta.
 *
 * Ownership: hta_lex owns a private copy of the whole input (read at once, so
 * tokens are NUL-terminated in place and stay valid until hta_lex_free).  The
 * path string is borrowed and must outlive the reader.
 *
 * Rules common to all formats: tokens are separated by blanks (space, tab,
 * CR, form feed, vertical tab), '#' starts a comment that runs to the end of
 * the line, blank lines are skipped.  A NUL byte is an error.
 */
#ifndef HTA_LEX_H
#define HTA_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "hta/diag.h"

typedef struct hta_lex {
    const char *path; /* borrowed, for diagnostics */
    char *buf;        /* owned, NUL-terminated copy of the input */
    size_t len, pos;
    long line;         /* line number of the current logical line */
    long next_line;    /* line number where the next scan starts */
    char comment;      /* comment character, '#' by default, 0 for none */
    char **tok;        /* tokens of the current line (owned array) */
    size_t ntok, captok;
} hta_lex;

/* Reads the file at path ("-" for standard input) into a new reader.
 * Returns HTA_ERR_IO when the file cannot be read. */
hta_status hta_lex_open(hta_lex *lx, const char *path, hta_diag *d);

/* Reader over a copy of text[0..len) named name (tests, generators). */
hta_status hta_lex_from_memory(hta_lex *lx, const char *name, const char *text,
                               size_t len, hta_diag *d);

void hta_lex_free(hta_lex *lx);

/* Advances to the next non-blank logical line and splits it into tokens.
 * Returns HTA_OK with lx->ntok > 0, or HTA_OK with lx->ntok == 0 at the end
 * of the input.  O(length of the line). */
hta_status hta_lex_next(hta_lex *lx, hta_diag *d);

/* Copies at most 40 characters of tok, marking a cut with "...", into out. */
const char *hta_lex_quote(const char *tok, char out[64]);

/* Parses a decimal integer in [lo, hi] (digits, optional leading '-'; no
 * '+', no spaces, no hex).  what names the expected value in the message. */
hta_status hta_lex_int(const hta_lex *lx, const char *tok, int64_t lo,
                       int64_t hi, const char *what, int64_t *out,
                       hta_diag *d);

/* Parses a finite decimal real number (no nan, inf, hex); positive requires
 * > 0, otherwise >= 0 is required. */
hta_status hta_lex_real(const hta_lex *lx, const char *tok, int positive,
                        const char *what, double *out, hta_diag *d);

/* The error "expected <what>, found '<tok>'" at the current line; tok NULL
 * means the end of the line. */
hta_status hta_lex_expected(const hta_lex *lx, const char *what,
                            const char *tok, hta_diag *d);

#endif
