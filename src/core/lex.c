/* Line-and-token reader: one streaming scanner for every text format. */
#include "core/lex.h"
#include "hta/num.h"
#include "core/buf.h"
#include "hta/stop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The read buffer: 1 MiB, so the instance reader's fast path sees
 * windows of whole lines worth splitting between two threads (at least
 * 256 KiB a half, instance.c): 10^7 tasks read in 0.44 s against 0.56 s
 * with the 64 KiB buffer of before (medians of 15, side by side). */
#define CHUNK ((size_t)1 << 20)

/* This thread's stop request for its readers (hta/stop.h). */
static _Thread_local volatile sig_atomic_t *reads_stop;

volatile sig_atomic_t *hta_reads_stop(volatile sig_atomic_t *stop)
{
    volatile sig_atomic_t *prev = reads_stop;
    reads_stop = stop;
    return prev;
}

/* A reader at line 1 of nothing yet. */
static void init(hta_lex *lx, const char *path, int64_t size)
{
    memset(lx, 0, sizeof *lx);
    lx->stop = reads_stop;
    lx->path = path;
    lx->next_line = 1;
    lx->comment = '#';
    lx->size = size;
}

hta_status hta_lex_open(hta_lex *lx, const char *path, hta_diag *d)
{
    init(lx, path, -1);
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return hta_diag_errno(d, path, "cannot open", errno);
    lx->f = f;
    lx->own_f = !is_stdin;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            hta_lex_free(lx);
            return hta_diag_set(d, HTA_ERR_IO, path, 0,
                                "cannot read: is a directory");
        }
        if (S_ISREG(sb.st_mode))
            lx->size = (int64_t)sb.st_size;
    }
    if (!(lx->chunk = malloc(CHUNK))) {
        hta_lex_free(lx);
        return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
    }
    return HTA_OK;
}

hta_status hta_lex_from_memory(hta_lex *lx, const char *name, const char *text,
                               size_t len, hta_diag *d)
{
    init(lx, name, (int64_t)len);
    if (!(lx->mem = malloc(len + 1)))
        return hta_diag_set(d, HTA_ERR_INTERNAL, name, 0, "out of memory");
    memcpy(lx->mem, text, len);
    lx->mem_len = len;
    return HTA_OK;
}

void hta_lex_free(hta_lex *lx)
{
    if (!lx)
        return;
    if (lx->f && lx->own_f)
        fclose(lx->f);
    free(lx->mem);
    free(lx->chunk);
    free(lx->buf);
    free(lx->tok);
    memset(lx, 0, sizeof *lx);
}

/* Appends p[0..n) to the line, refusing NUL bytes and overlong lines. */
static hta_status append(hta_lex *lx, const char *p, size_t n, hta_diag *d)
{
    if (memchr(p, '\0', n))
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected text, found a NUL byte "
                            "(binary file?)");
    if (lx->len + n > HTA_LEX_MAX_LINE)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected a line of at most %zu bytes, found a "
                            "longer one",
                            HTA_LEX_MAX_LINE);
    if (!HTA_RESERVE(lx->buf, lx->cap, lx->len + n + 1))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory reading a line");
    memcpy(lx->buf + lx->len, p, n);
    lx->len += n;
    lx->buf[lx->len] = '\0';
    return HTA_OK;
}

/* Refills the chunk from the stream; 0 bytes at the end. */
static hta_status refill(hta_lex *lx, hta_diag *d)
{
    lx->chunk_pos = 0;
    lx->chunk_len = 0;
    if (lx->stop && *lx->stop)
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "interrupted");
    lx->chunk_len = fread(lx->chunk, 1, CHUNK, lx->f);
    if (lx->chunk_len == 0) {
        if (lx->stop && *lx->stop) /* a blocked read ends with EINTR */
            return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                                "interrupted");
        if (ferror(lx->f))
            return hta_diag_set(d, HTA_ERR_IO, lx->path, lx->line,
                                "read error: %s", strerror(errno));
        lx->at_eof = 1;
    }
    return HTA_OK;
}

hta_status hta_lex_raw(hta_lex *lx, int *more, hta_diag *d)
{
    lx->len = 0;
    lx->line = lx->next_line;
    *more = 0;
    hta_status st;
    if (!HTA_RESERVE(lx->buf, lx->cap, 1))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory reading a line");
    lx->buf[0] = '\0';
    if (!lx->f) { /* memory */
        if (lx->mem_pos >= lx->mem_len)
            return HTA_OK;
        const char *p = lx->mem + lx->mem_pos, *end = lx->mem + lx->mem_len;
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((eol ? eol : end) - p);
        lx->mem_pos += n + (eol != NULL);
        lx->next_line++;
        *more = 1;
        return append(lx, p, n, d);
    }
    for (;;) {
        if (lx->chunk_pos >= lx->chunk_len) {
            if (lx->at_eof || (st = refill(lx, d)) != HTA_OK || lx->at_eof) {
                if (lx->len > 0 || (lx->at_eof && *more)) {
                    lx->next_line++;
                    *more = 1;
                }
                return lx->at_eof ? HTA_OK : st;
            }
        }
        const char *p = lx->chunk + lx->chunk_pos;
        size_t avail = lx->chunk_len - lx->chunk_pos;
        const char *eol = memchr(p, '\n', avail);
        size_t n = eol ? (size_t)(eol - p) : avail;
        lx->chunk_pos += n + (eol != NULL);
        *more = 1;
        if ((st = append(lx, p, n, d)) != HTA_OK)
            return st;
        if (eol) {
            lx->next_line++;
            return HTA_OK;
        }
    }
}

const char *hta_lex_window(hta_lex *lx, size_t most, size_t *len)
{
    /* the read buffer: the stream's chunk, or the memory input */
    const char *p = lx->f ? lx->chunk + lx->chunk_pos : lx->mem + lx->mem_pos;
    size_t left = lx->f ? lx->chunk_len - lx->chunk_pos :
                          lx->mem_len - lx->mem_pos;
    if (left > most)
        left = most;
    while (left > 0 && p[left - 1] != '\n')
        left--;
    if (left == 0)
        return NULL;
    *len = left;
    return p;
}

void hta_lex_take_lines(hta_lex *lx, size_t bytes, long lines)
{
    if (lines == 0)
        return;
    *(lx->f ? &lx->chunk_pos : &lx->mem_pos) += bytes;
    lx->line = lx->next_line + lines - 1;
    lx->next_line += lines;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static hta_status push_token(hta_lex *lx, char *tok, hta_diag *d)
{
    if (!HTA_RESERVE(lx->tok, lx->captok, lx->ntok + 1))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory splitting a line");
    lx->tok[lx->ntok++] = tok;
    return HTA_OK;
}

hta_status hta_lex_next(hta_lex *lx, hta_diag *d)
{
    lx->ntok = 0;
    for (;;) {
        int more;
        hta_status st = hta_lex_raw(lx, &more, d);
        if (st != HTA_OK)
            return st;
        if (!more)
            return HTA_OK;
        char *p = lx->buf, *eol = lx->buf + lx->len;
        if (lx->comment) {
            char *hash = memchr(p, lx->comment, (size_t)(eol - p));
            if (hash)
                *hash = '\0', eol = hash;
        }
        while (p < eol) {
            while (p < eol && is_blank(*p))
                p++;
            if (p == eol)
                break;
            char *tok = p;
            while (p < eol && !is_blank(*p))
                p++;
            *p = '\0';
            if (p < eol)
                p++;
            if ((st = push_token(lx, tok, d)) != HTA_OK)
                return st;
        }
        if (lx->ntok > 0)
            return HTA_OK;
    }
}

const char *hta_lex_quote(const char *tok, char out[64])
{
    size_t n = strlen(tok);
    if (n <= 40) {
        memcpy(out, tok, n + 1);
    } else {
        memcpy(out, tok, 40);
        memcpy(out + 40, "...", 4);
    }
    /* Control characters and stray bytes of binary files would garble the
     * terminal: only printable ASCII is quoted as is. */
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = '?';
    return out;
}

hta_status hta_lex_expected(const hta_lex *lx, const char *what,
                            const char *tok, hta_diag *d)
{
    char q[64];
    if (!tok)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected %s, found end of line", what);
    return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                        "expected %s, found '%s'", what,
                        hta_lex_quote(tok, q));
}

hta_status hta_lex_int(const hta_lex *lx, const char *tok, int64_t lo,
                       int64_t hi, const char *what, int64_t *out,
                       hta_diag *d)
{
    hta_num_result r = hta_num_int(tok, lo, hi, out);
    if (r == HTA_NUM_OK)
        return HTA_OK;
    if (r == HTA_NUM_SYNTAX)
        return hta_lex_expected(lx, what, tok, d);
    char q[64], buf[200];
    snprintf(buf, sizeof buf, "%s in [%lld, %lld]", what, (long long)lo,
             (long long)hi);
    return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                        "expected %s, found '%s'", buf, hta_lex_quote(tok, q));
}

hta_status hta_lex_real(const hta_lex *lx, const char *tok, int positive,
                        const char *what, double *out, hta_diag *d)
{
    double v;
    hta_num_result r = hta_num_real(tok, &v);
    char q[64];
    if (r == HTA_NUM_SYNTAX)
        return hta_lex_expected(lx, what, tok, d);
    if (r == HTA_NUM_RANGE)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected %s, found out-of-range '%s'", what,
                            hta_lex_quote(tok, q));
    if (positive >= 0 && (positive ? !(v > 0.0) : !(v >= 0.0)))
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected %s (%s), found '%s'", what,
                            positive ? "> 0" : ">= 0", hta_lex_quote(tok, q));
    *out = v;
    return HTA_OK;
}
