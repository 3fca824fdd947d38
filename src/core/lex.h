/* Line-and-token reader shared by every text format of hta.
 *
 * The input is read in a stream, one line at a time, so memory follows the
 * longest line and not the file: /dev/zero, /dev/urandom or an endless
 * pipe stop at the first NUL byte or at a line longer than
 * HTA_LEX_MAX_LINE, with path:line in the message.
 *
 * Ownership: hta_lex owns its buffers and the FILE it opened (not standard
 * input).  Tokens and the raw line point into the line buffer and stay
 * valid until the next hta_lex_next or hta_lex_raw.  The path string is
 * borrowed and must outlive the reader.
 *
 * Rules common to all formats: tokens are separated by blanks (space, tab,
 * CR, form feed, vertical tab), '#' starts a comment that runs to the end of
 * the line, blank lines are skipped.  A NUL byte is an error.
 */
#ifndef HTA_LEX_H
#define HTA_LEX_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hta/diag.h"

/* The longest line any reader accepts (64 MiB: two million replicas on
 * one task line take 16 MB). */
#define HTA_LEX_MAX_LINE ((size_t)1 << 26)

typedef struct hta_lex {
    const char *path; /* borrowed, for diagnostics */
    FILE *f;          /* the stream, NULL for memory input */
    int own_f;        /* f was opened here */
    char *mem;        /* memory input: an owned copy */
    size_t mem_len, mem_pos;
    char *chunk;      /* read buffer of the stream */
    size_t chunk_len, chunk_pos;
    int at_eof;
    char *buf;        /* the current line, NUL-terminated */
    size_t len, cap;
    int64_t size;     /* bytes in a regular file or memory, -1 unknown */
    long line;        /* line number of the current logical line */
    long next_line;   /* line number where the next scan starts */
    char comment;     /* comment character, '#' by default, 0 for none */
    char **tok;       /* tokens of the current line (owned array) */
    size_t ntok, captok;
    /* Polled before each read of the stream (every 1 MiB), or NULL:
     * non-zero ends the reading with HTA_ERR_INTERNAL "interrupted". */
    volatile sig_atomic_t *stop;
} hta_lex;

/* Opens the file at path ("-" for standard input) for reading.  Returns
 * HTA_ERR_IO when it cannot be opened. */
hta_status hta_lex_open(hta_lex *lx, const char *path, hta_diag *d);

/* Reader over a copy of text[0..len) named name (tests, generators). */
hta_status hta_lex_from_memory(hta_lex *lx, const char *name, const char *text,
                               size_t len, hta_diag *d);

void hta_lex_free(hta_lex *lx);

/* Advances to the next non-blank logical line and splits it into tokens.
 * Returns HTA_OK with lx->ntok > 0, or HTA_OK with lx->ntok == 0 at the end
 * of the input.  O(length of the line). */
hta_status hta_lex_next(hta_lex *lx, hta_diag *d);

/* The next raw line, without its line end (a final CR is kept), in
 * lx->buf[0..lx->len) and lx->line; *more is 0 at the end of the input.
 * No comments, no tokens.  O(length of the line). */
hta_status hta_lex_raw(hta_lex *lx, int *more, hta_diag *d);

/* The whole lines at the start of the read buffer, at most most bytes
 * of them: a pointer to them and *len their length, the last '\n'
 * included; NULL when no whole line lies there (the next hta_lex_next
 * or hta_lex_raw reads it as usual).  A reader's fast path may parse a
 * prefix of these lines in place and take it (hta_lex_take_lines) and
 * leave the rest to the general path, which then sees it unchanged.
 * O(bytes back from the end to the last '\n'). */
const char *hta_lex_window(hta_lex *lx, size_t most, size_t *len);

/* Takes the first bytes of the window, lines whole lines: lx->line
 * becomes the last one's number; lx->buf and the tokens are not
 * updated.  O(1). */
void hta_lex_take_lines(hta_lex *lx, size_t bytes, long lines);

/* Parses a decimal integer in [lo, hi] (num.h).  what names the expected
 * value in the message. */
hta_status hta_lex_int(const hta_lex *lx, const char *tok, int64_t lo,
                       int64_t hi, const char *what, int64_t *out,
                       hta_diag *d);

/* Parses a finite decimal real number (num.h); positive 1 requires > 0,
 * 0 requires >= 0, -1 takes any sign (the caller checks the value). */
hta_status hta_lex_real(const hta_lex *lx, const char *tok, int positive,
                        const char *what, double *out, hta_diag *d);

/* The error "expected <what>, found '<tok>'" at the current line; tok NULL
 * means the end of the line. */
hta_status hta_lex_expected(const hta_lex *lx, const char *what,
                            const char *tok, hta_diag *d);

#endif
