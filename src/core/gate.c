/* The one gate: the rules of costs and names, for every door (gate.h). */
#include "hta/gate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A value a file can hold: finite and not subnormal (the readers refuse
 * a number that underflows, so that an instance made in memory is one
 * its written file gives back). */
static int representable(double x)
{
    return isfinite(x) && fpclassify(x) != FP_SUBNORMAL;
}

/* "expected <what>, found '<tok or x>'" at path:line, the reader's
 * "out-of-range" before a subnormal x. */
static hta_status refuse(const char *what, const char *tok, double x,
                         const char *path, long line, hta_diag *d)
{
    char buf[32], q[64];
    const char *range = "";
    if (!tok) {
        hta_format_real(buf, x);
        tok = buf;
        if (fpclassify(x) == FP_SUBNORMAL)
            range = "out-of-range ";
    }
    return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                        "expected %s, found %s'%s'", what, range,
                        hta_lex_quote(tok, q));
}

hta_status hta_gate_w_loc(double w_loc, const char *tok, const char *path,
                          long line, hta_diag *d)
{
    if (representable(w_loc) && w_loc > 0.0)
        return HTA_OK;
    return refuse("a number w_loc > 0", tok, w_loc, path, line, d);
}

static hta_status gate_affine(double w_loc, const hta_wrem *w, int64_t m,
                              const char *name, const char *const *tok,
                              const char *path, long line, hta_diag *d)
{
    char what[128], buf[32];
    const char *ta = tok ? tok[0] : NULL, *tb = tok ? tok[1] : NULL;
    if (!representable(w->a))
        return refuse("a number a >= w_loc", ta, w->a, path, line, d);
    if (!representable(w->b) || !(w->b >= 0.0))
        return refuse("a slope b >= 0", tb, w->b, path, line, d);
    if (w->a < w_loc) {
        hta_format_real(buf, w_loc);
        snprintf(what, sizeof what, "%s(0) = a >= w_loc = %s", name, buf);
        return refuse(what, ta, w->a, path, line, d);
    }
    if (!hta_costs_finite(w_loc, w, m))
        return refuse("a slope b with m * (a + b*m) finite", tb, w->b, path,
                      line, d);
    return HTA_OK;
}

static hta_status gate_table(double w_loc, const hta_wrem *w, int64_t m,
                             const char *name, const char *const *tok,
                             const char *path, long line, hta_diag *d)
{
    char what[128], buf[32];
    if (!w->v || w->k < 0)
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected at least one %s value, found none",
                            name);
    if (w->k + 1 > HTA_MAX_WREM_TABLE)
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected at most %lld %s values, found %lld",
                            HTA_MAX_WREM_TABLE, name, (long long)w->k + 1);
    for (int64_t i = 0; i <= w->k; i++) {
        const char *t = tok ? tok[i] : NULL;
        if (!representable(w->v[i])) {
            snprintf(what, sizeof what, "a %s value", name);
            return refuse(what, t, w->v[i], path, line, d);
        }
        double floor_v = i ? w->v[i - 1] : w_loc;
        if (w->v[i] < floor_v) {
            hta_format_real(buf, floor_v);
            if (i)
                snprintf(what, sizeof what,
                         "a non-decreasing %s value >= %s", name, buf);
            else
                snprintf(what, sizeof what, "%s(0) >= w_loc = %s", name,
                         buf);
            return refuse(what, t, w->v[i], path, line, d);
        }
    }
    if (!hta_costs_finite(w_loc, w, m)) {
        snprintf(what, sizeof what,
                 "costs whose largest load m * %s(m) is finite", name);
        return refuse(what, tok ? tok[w->k] : NULL, w->v[w->k], path, line,
                      d);
    }
    return HTA_OK;
}

hta_status hta_gate_cost(double w_loc, const hta_wrem *w, int64_t m,
                         const char *name, const char *const *tok,
                         const char *path, long line, hta_diag *d)
{
    hta_status st = hta_gate_w_loc(w_loc, NULL, path, line, d);
    if (st != HTA_OK)
        return st;
    if (w->kind == HTA_WREM_AFFINE)
        return gate_affine(w_loc, w, m, name, tok, path, line, d);
    if (w->kind == HTA_WREM_TABLE)
        return gate_table(w_loc, w, m, name, tok, path, line, d);
    return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                        "expected %s as a table or affine, found kind %d",
                        name, (int)w->kind);
}

static const char *kind_word(char kind)
{
    return kind == 't' ? "task name" : kind == 's' ? "server name" :
                                                     "rack path";
}

hta_status hta_gate_name(char kind, const char *name, size_t len,
                         const char *path, long line, hta_diag *d)
{
    if (kind != 't' && kind != 's' && kind != 'r')
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected a name of kind 't', 's' or 'r', "
                            "found '%c'",
                            kind ? kind : '0');
    if (len == 0)
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected a %s of at least one byte, found an "
                            "empty one",
                            kind_word(kind));
    if (len > HTA_MAX_NAME)
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected a %s of at most %d bytes, found %zu",
                            kind_word(kind), HTA_MAX_NAME, len);
    if (memchr(name, '\0', len))
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected a %s without NUL bytes, found one at "
                            "byte %zu",
                            kind_word(kind),
                            (size_t)((const char *)memchr(name, '\0', len) -
                                     name));
    return HTA_OK;
}

static int must_escape(unsigned char c)
{
    return c <= 0x20 || c == 0x7f || c == '#' || c == '%';
}

char *hta_name_escape(const char *name, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    char *o = out;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (must_escape(*p)) {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        } else {
            *o++ = (char)*p;
        }
    }
    *o = '\0';
    return out;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

hta_status hta_name_unescape(char kind, const char *tok, char *out,
                             size_t *len, const char *path, long line,
                             hta_diag *d)
{
    size_t n = 0;
    for (const char *p = tok; *p; p++) {
        if (*p != '%') {
            out[n++] = *p;
            continue;
        }
        int hi = hexval(p[1]), lo = hi < 0 ? -1 : hexval(p[2]);
        if (lo < 0) {
            char q[64];
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected '%%' and two hex digits (an "
                                "escaped byte) in a %s, found '%s'",
                                kind_word(kind), hta_lex_quote(p, q));
        }
        out[n++] = (char)(hi * 16 + lo);
        p += 2;
    }
    out[n] = '\0';
    *len = n;
    return hta_gate_name(kind, out, n, path, line, d);
}
