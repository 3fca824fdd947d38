/* Line-and-token reader: one scanner for every text format. */
#include "hta/lex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hta_status adopt(hta_lex *lx, const char *path, char *buf, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->path = path;
    lx->buf = buf;
    lx->len = len;
    lx->next_line = 1;
    lx->comment = '#';
    return HTA_OK;
}

hta_status hta_lex_open(hta_lex *lx, const char *path, hta_diag *d)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    memset(lx, 0, sizeof *lx);
    if (!f)
        return hta_diag_set(d, HTA_ERR_IO, path, 0, "cannot open: %s",
                            strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    hta_status st = HTA_OK;
    if (!buf) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
        goto cleanup;
    }
    for (;;) {
        if (cap - len < 2) {
            if (cap > SIZE_MAX / 2) {
                st = hta_diag_set(d, HTA_ERR_INPUT, path, 0, "file too large");
                goto cleanup;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                  "out of memory reading the file");
                goto cleanup;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        st = hta_diag_set(d, HTA_ERR_IO, path, 0, "read error: %s",
                          strerror(errno));
        goto cleanup;
    }
    buf[len] = '\0';
    adopt(lx, path, buf, len);
    buf = NULL;
cleanup:
    free(buf);
    if (f && f != stdin)
        fclose(f);
    return st;
}

hta_status hta_lex_from_memory(hta_lex *lx, const char *name, const char *text,
                               size_t len, hta_diag *d)
{
    char *buf = malloc(len + 1);
    memset(lx, 0, sizeof *lx);
    if (!buf)
        return hta_diag_set(d, HTA_ERR_INTERNAL, name, 0, "out of memory");
    memcpy(buf, text, len);
    buf[len] = '\0';
    return adopt(lx, name, buf, len);
}

void hta_lex_free(hta_lex *lx)
{
    if (!lx)
        return;
    free(lx->buf);
    free(lx->tok);
    memset(lx, 0, sizeof *lx);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static hta_status push_token(hta_lex *lx, char *tok, hta_diag *d)
{
    if (lx->ntok == lx->captok) {
        size_t cap = lx->captok ? lx->captok * 2 : 16;
        char **nt = realloc(lx->tok, cap * sizeof *nt);
        if (!nt)
            return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                                "out of memory splitting a line");
        lx->tok = nt;
        lx->captok = cap;
    }
    lx->tok[lx->ntok++] = tok;
    return HTA_OK;
}

hta_status hta_lex_next(hta_lex *lx, hta_diag *d)
{
    lx->ntok = 0;
    while (lx->pos < lx->len) {
        lx->line = lx->next_line;
        char *p = lx->buf + lx->pos, *end = lx->buf + lx->len;
        char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        lx->pos = (size_t)(eol - lx->buf) + (eol < end);
        lx->next_line++;
        if (memchr(p, '\0', (size_t)(eol - p)))
            return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                                "expected text, found a NUL byte "
                                "(binary file?)");
        *eol = '\0';
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
            hta_status st = push_token(lx, tok, d);
            if (st != HTA_OK)
                return st;
        }
        if (lx->ntok > 0)
            return HTA_OK;
    }
    lx->line = lx->next_line;
    return HTA_OK;
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
    const char *p = tok + (tok[0] == '-');
    if (*p < '0' || *p > '9')
        return hta_lex_expected(lx, what, tok, d);
    errno = 0;
    char *end = NULL;
    long long v = strtoll(tok, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < lo || v > hi) {
        char q[64], buf[200];
        if (*end != '\0')
            return hta_lex_expected(lx, what, tok, d);
        snprintf(buf, sizeof buf, "%s in [%lld, %lld]", what, (long long)lo,
                 (long long)hi);
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected %s, found '%s'", buf,
                            hta_lex_quote(tok, q));
    }
    *out = (int64_t)v;
    return HTA_OK;
}

hta_status hta_lex_real(const hta_lex *lx, const char *tok, int positive,
                        const char *what, double *out, hta_diag *d)
{
    /* Decimal notation only: strtod alone would take "nan", "inf", hex. */
    for (const char *p = tok; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
              *p == 'E' || *p == '-' || *p == '+'))
            return hta_lex_expected(lx, what, tok, d);
    errno = 0;
    char *end = NULL;
    double v = strtod(tok, &end);
    if (end == tok || *end != '\0')
        return hta_lex_expected(lx, what, tok, d);
    if (errno == ERANGE) {
        char q[64];
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected %s, found out-of-range '%s'", what,
                            hta_lex_quote(tok, q));
    }
    if (positive ? !(v > 0.0) : !(v >= 0.0)) {
        char q[64];
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected %s (%s), found '%s'", what,
                            positive ? "> 0" : ">= 0", hta_lex_quote(tok, q));
    }
    *out = v + 0.0; /* turns -0 into +0 */
    return HTA_OK;
}
