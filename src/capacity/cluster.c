/* Cluster model: file format, hierarchy, types from placement instances. */
#include "hta/cluster.h"
#include "hta/topology.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "hta/num.h"
#include "hta/outfile.h"
#include "core/buf.h"
#include "core/lex.h"

void hta_cluster_free(hta_cluster *c)
{
    if (!c)
        return;
    free(c->lambda);
    free(c->off);
    free(c->srv);
    for (int n = 0; n < HTA_MAX_LEVELS; n++) {
        free(c->grp[n]);
        free(c->mem_off[n]);
        free(c->mem[n]);
    }
    free(c);
}

int64_t hta_cluster_group(const hta_cluster *c, int32_t s, int n)
{
    if (s < 0 || s >= c->M || n < 2)
        return -1;
    if (n >= c->levels)
        return 0;
    if (c->grp[n])
        return c->grp[n][s];
    /* level 2 is the rack (topology.h), each further level groups runs of
     * consecutive groups of the level below */
    int64_t g = hta_rack_of(s, c->topo[0]);
    for (int i = 1; i + 2 <= n; i++)
        g /= c->topo[i];
    return g;
}

int64_t hta_cluster_groups(const hta_cluster *c, int n)
{
    if (n < 2)
        return -1;
    if (n >= c->levels)
        return 1;
    if (c->grp[n])
        return c->ngrp[n];
    return hta_cluster_group(c, c->M - 1, n) + 1;
}

/* A regular topology's group g of level n: servers [g size, (g + 1) size)
 * cut at M. */
static int64_t run_size(const hta_cluster *c, int n)
{
    int64_t size = 1;
    for (int k = 0; k + 2 <= n && k < c->ntopo; k++)
        size *= c->topo[k];
    return size;
}

int64_t hta_cluster_group_size(const hta_cluster *c, int n, int64_t g)
{
    if (n < 2 || g < 0 || g >= hta_cluster_groups(c, n))
        return -1;
    if (n >= c->levels)
        return c->M;
    if (c->grp[n])
        return c->mem_off[n][g + 1] - c->mem_off[n][g];
    int64_t size = run_size(c, n), lo = g * size;
    return lo + size < c->M ? size : c->M - lo;
}

int32_t hta_cluster_group_server(const hta_cluster *c, int n, int64_t g,
                                 int64_t i)
{
    if (n < 2 || g < 0 || i < 0)
        return -1;
    if (n >= c->levels)
        return g == 0 && i < c->M ? (int32_t)i : -1;
    if (c->grp[n])
        return g < c->ngrp[n] && i < c->mem_off[n][g + 1] - c->mem_off[n][g] ?
                   c->mem[n][c->mem_off[n][g] + i] :
                   -1;
    int64_t size = run_size(c, n);
    if (g >= (c->M + size - 1) / size || i >= size)
        return -1;
    int64_t v = g * size + i;
    return v < c->M ? (int32_t)v : -1;
}

/* The instance's groups (levels.h) made c's explicit groups, members by
 * a counting sort.  0 when out of memory. */
static int set_groups(hta_cluster *c, const hta_instance *inst)
{
    for (int n = 2; n < c->levels; n++) {
        int64_t G = inst->ngrp[n];
        c->ngrp[n] = G;
        c->grp[n] = malloc((size_t)c->M * sizeof *c->grp[n]);
        c->mem_off[n] = calloc((size_t)G + 1, sizeof *c->mem_off[n]);
        c->mem[n] = malloc((size_t)c->M * sizeof *c->mem[n]);
        if (!c->grp[n] || !c->mem_off[n] || !c->mem[n])
            return 0;
        memcpy(c->grp[n], inst->grp[n], (size_t)c->M * sizeof *c->grp[n]);
        for (int32_t s = 0; s < c->M; s++)
            c->mem_off[n][c->grp[n][s] + 1]++;
        for (int64_t g = 0; g < G; g++)
            c->mem_off[n][g + 1] += c->mem_off[n][g];
        for (int32_t s = 0; s < c->M; s++) /* mem_off[g] runs ahead */
            c->mem[n][c->mem_off[n][c->grp[n][s]]++] = s;
        for (int64_t g = G; g > 0; g--)
            c->mem_off[n][g] = c->mem_off[n][g - 1];
        c->mem_off[n][0] = 0;
    }
    return 1;
}

/* explicit: the groups come from an instance (set_groups), not from a
 * topology (ntopo 0), so N = nrates whatever ntopo. */
static hta_status check_levels(const double *rates, int nrates,
                               const int32_t *topo, int ntopo, int explicit,
                               hta_diag *d)
{
    if (nrates < 2 || nrates > HTA_MAX_LEVELS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected 2 to %d rates, found %d",
                            HTA_MAX_LEVELS, nrates);
    if (!explicit && nrates != ntopo + 2)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected %d rates for %d topology levels "
                            "(N = 2 + levels), found %d",
                            ntopo + 2, ntopo, nrates);
    for (int i = 0; i < nrates; i++)
        if (!(rates[i] > 0) || !isfinite(rates[i]) ||
            fpclassify(rates[i]) == FP_SUBNORMAL ||
            (i && !(rates[i] < rates[i - 1])))
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected strictly decreasing positive "
                                "rates");
    if (rates[0] > HTA_MAX_RATE_RATIO * rates[nrates - 1])
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected rates within a factor %g of each "
                            "other, found %g and %g",
                            HTA_MAX_RATE_RATIO, rates[0], rates[nrates - 1]);
    for (int i = 0; i < ntopo; i++)
        if (topo[i] < 1)
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected topology sizes >= 1");
    return HTA_OK;
}

static hta_status build(int32_t M, const double *rates, int nrates,
                        const int32_t *topo, int ntopo, int explicit,
                        int64_t T, double *lambda, int64_t *off, int32_t *srv,
                        hta_cluster **out, hta_diag *d)
{
    *out = NULL;
    hta_status st = check_levels(rates, nrates, topo, ntopo, explicit, d);
    if (st == HTA_OK && M < 1)
        st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                          "expected at least one server");
    for (int64_t L = 0; st == HTA_OK && L < T; L++) {
        if (!(lambda[L] >= 0) || !isfinite(lambda[L]) ||
            fpclassify(lambda[L]) == FP_SUBNORMAL) /* the file's range */
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected a finite arrival rate >= 0 for "
                              "type %lld, found %s%g",
                              (long long)L,
                              fpclassify(lambda[L]) == FP_SUBNORMAL ?
                                  "out-of-range " :
                                  "",
                              lambda[L]);
        if (off[L + 1] <= off[L])
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected at least one server for type %lld",
                              (long long)L);
        for (int64_t i = off[L]; st == HTA_OK && i < off[L + 1]; i++)
            if (srv[i] < 0 || srv[i] >= M)
                st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                  "expected server ids in [0, %ld]",
                                  (long)M - 1);
    }
    /* every utilisation is at most total / alpha_N: finite */
    double total = 0;
    for (int64_t L = 0; st == HTA_OK && L < T; L++)
        total += lambda[L];
    if (st == HTA_OK && !isfinite(total / rates[nrates - 1]))
        st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                          "expected arrival rates whose total over the "
                          "slowest rate is finite, found %g",
                          total);
    hta_cluster *c = st == HTA_OK ? calloc(1, sizeof *c) : NULL;
    if (st == HTA_OK && !c)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    if (st != HTA_OK) {
        free(lambda);
        free(off);
        free(srv);
        return st;
    }
    c->M = M;
    c->levels = nrates;
    memcpy(c->rate, rates, (size_t)nrates * sizeof *rates);
    c->ntopo = ntopo;
    if (ntopo)
        memcpy(c->topo, topo, (size_t)ntopo * sizeof *topo);
    c->T = T;
    c->lambda = lambda;
    c->off = off;
    c->srv = srv;
    *out = c;
    return HTA_OK;
}

hta_status hta_cluster_build(int32_t M, const double *rates, int nrates,
                             const int32_t *topo, int ntopo, int64_t T,
                             double *lambda, int64_t *off, int32_t *srv,
                             hta_cluster **out, hta_diag *d)
{
    return build(M, rates, nrates, topo, ntopo, 0, T, lambda, off, srv, out,
                 d);
}

/* ---- parser ------------------------------------------------------------ */

typedef struct cparser {
    hta_lex lx;
    int stage; /* header lines read: 0 magic, 1 servers, 2 rates, 3 body */
    int64_t M;
    double rates[HTA_MAX_LEVELS];
    int nrates;
    int32_t topo[HTA_MAX_LEVELS];
    int ntopo;
    int64_t T, nsrv;
    double total; /* of the arrival rates so far */
    double *lambda;
    int64_t *off;
    int32_t *srv, *line; /* line: the servers of the current type, sorted */
    size_t cap_lambda, cap_off, cap_srv, cap_line;
} cparser;

static const char *const header_order[] = {"hta-cluster", "servers",
                                           "rates"};

static hta_status parse_rates(cparser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_status st;
    if (lx->ntok - 1 > HTA_MAX_LEVELS)
        return hta_lex_expected(lx, "at most 8 rates",
                                lx->tok[HTA_MAX_LEVELS + 1], d);
    for (size_t i = 1; i < lx->ntok; i++) {
        double *r = &p->rates[p->nrates];
        if ((st = hta_lex_real(lx, lx->tok[i], 1, "a service rate", r, d)) !=
            HTA_OK)
            return st;
        if (p->nrates && !(*r < r[-1]))
            return hta_lex_expected(lx, "strictly decreasing rates",
                                    lx->tok[i], d);
        p->nrates++;
    }
    if (p->nrates < 2)
        return hta_lex_expected(lx, "at least two rates (local, remote)", NULL,
                                d);
    if (p->rates[0] > HTA_MAX_RATE_RATIO * p->rates[p->nrates - 1])
        return hta_lex_expected(lx, "rates within a factor 1e6 of each other",
                                lx->tok[p->nrates], d);
    return HTA_OK;
}

/* The three header lines, in order. */
static hta_status parse_header(cparser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    const char *kw = lx->tok[0];
    int64_t v;
    if (strcmp(kw, header_order[p->stage]) != 0) {
        char want[48];
        snprintf(want, sizeof want, "a '%s' line", header_order[p->stage]);
        return hta_lex_expected(lx, want, kw, d);
    }
    if (lx->ntok < 2)
        return hta_lex_expected(lx, "a value", NULL, d);
    if (p->stage < 2 && lx->ntok > 2)
        return hta_lex_expected(lx, "end of line", lx->tok[2], d);
    hta_status st = HTA_OK;
    switch (p->stage) {
    case 0:
        st = hta_lex_int(lx, lx->tok[1], 1, 1, "format version", &v, d);
        break;
    case 1:
        st = hta_lex_int(lx, lx->tok[1], 1, HTA_MAX_SERVERS, "a server count",
                         &p->M, d);
        break;
    default:
        st = parse_rates(p, d);
        break;
    }
    if (st == HTA_OK)
        p->stage++;
    return st;
}

static hta_status parse_topology(cparser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    int64_t v;
    hta_status st;
    for (size_t i = 1; i < lx->ntok; i++) {
        if (p->ntopo == HTA_MAX_LEVELS - 2)
            return hta_lex_expected(lx, "at most 6 topology levels",
                                    lx->tok[i], d);
        if ((st = hta_lex_int(lx, lx->tok[i], 1, HTA_MAX_SERVERS,
                              "a group size", &v, d)) != HTA_OK)
            return st;
        p->topo[p->ntopo++] = (int32_t)v;
    }
    if (p->ntopo + 2 != p->nrates) {
        char want[96];
        snprintf(want, sizeof want,
                 "%d topology sizes for %d rates (N = 2 + levels)",
                 p->nrates - 2, p->nrates);
        return hta_lex_expected(lx, want, lx->tok[lx->ntok - 1], d);
    }
    return HTA_OK;
}

/* "type <lambda> <s1> [<s2> ...]": duplicates are found by sorting a copy
 * of the line, so memory follows what was read, not the server count. */
static hta_status parse_type(cparser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_status st;
    int64_t v;
    if (p->nrates != p->ntopo + 2) {
        char want[96];
        snprintf(want, sizeof want,
                 "a 'topology' line with %d sizes (for %d rates)",
                 p->nrates - 2, p->nrates);
        return hta_lex_expected(lx, want, lx->tok[0], d);
    }
    if (lx->ntok < 3)
        return hta_lex_expected(lx, "'type <lambda> <server> ...'", NULL, d);
    size_t k = lx->ntok - 2;
    if (!HTA_RESERVE(p->lambda, p->cap_lambda, (size_t)p->T + 1) ||
        !HTA_RESERVE(p->off, p->cap_off, (size_t)p->T + 2) ||
        !HTA_RESERVE(p->srv, p->cap_srv, (size_t)p->nsrv + k) ||
        !HTA_RESERVE(p->line, p->cap_line, k))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory");
    if ((st = hta_lex_real(lx, lx->tok[1], 0, "an arrival rate",
                           &p->lambda[p->T], d)) != HTA_OK)
        return st;
    p->total += p->lambda[p->T];
    if (!isfinite(p->total / p->rates[p->nrates - 1]))
        return hta_lex_expected(lx, "arrival rates whose total over the "
                                    "slowest rate is finite",
                                lx->tok[1], d);
    for (size_t i = 0; i < k; i++) {
        if ((st = hta_lex_int(lx, lx->tok[i + 2], 0, p->M - 1, "a server id",
                              &v, d)) != HTA_OK)
            return st;
        p->srv[p->nsrv + (int64_t)i] = (int32_t)v;
    }
    int64_t rep = hta_first_repeat(p->srv + p->nsrv, p->line, (int64_t)k);
    if (rep >= 0)
        return hta_lex_expected(lx, "distinct server ids on a type line",
                                lx->tok[rep + 2], d);
    p->off[p->T] = p->nsrv;
    p->nsrv += (int64_t)k;
    p->T++;
    p->off[p->T] = p->nsrv;
    return HTA_OK;
}

/* After the last line: every part is there. */
static hta_status parse_end(cparser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    if (p->stage < 3)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected a '%s' line, found end of file",
                            header_order[p->stage]);
    if (p->T == 0)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected at least one 'type' line, found end "
                            "of file");
    if (p->nrates != p->ntopo + 2)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected a 'topology' line with %d sizes for %d "
                            "rates",
                            p->nrates - 2, p->nrates);
    return HTA_OK;
}

static hta_status parse_lines(cparser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_status st;
    for (;;) {
        if ((st = hta_lex_next(lx, d)) != HTA_OK)
            return st;
        if (lx->ntok == 0)
            return parse_end(p, d);
        const char *kw = lx->tok[0];
        if (p->stage < 3)
            st = parse_header(p, d);
        else if (strcmp(kw, "topology") == 0 && p->T == 0 && p->ntopo == 0)
            st = parse_topology(p, d);
        else if (strcmp(kw, "type") == 0)
            st = parse_type(p, d);
        else {
            char q[64];
            st = hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                              "expected a 'type' line, found unknown "
                              "keyword '%s'",
                              hta_lex_quote(kw, q));
        }
        if (st != HTA_OK)
            return st;
    }
}

/* The cluster p's opened lexer reads (freed here), named path. */
static hta_status parse_lexer(cparser *p, const char *path,
                              hta_cluster **out, hta_diag *d)
{
    hta_status st = parse_lines(p, d);
    hta_lex_free(&p->lx);
    free(p->line);
    if (st != HTA_OK) {
        free(p->lambda);
        free(p->off);
        free(p->srv);
        return st;
    }
    /* hta_cluster_build takes the arrays, also on failure. */
    st = hta_cluster_build((int32_t)p->M, p->rates, p->nrates, p->topo, p->ntopo,
                           p->T, p->lambda, p->off, p->srv, out, d);
    if (st != HTA_OK && !d->path)
        d->path = path;
    return st;
}

hta_status hta_cluster_parse(const char *path, hta_cluster **out,
                             hta_diag *d)
{
    cparser p;
    memset(&p, 0, sizeof p);
    *out = NULL;
    hta_status st = hta_lex_open(&p.lx, path, d);
    return st == HTA_OK ? parse_lexer(&p, path, out, d) : st;
}

hta_status hta_cluster_parse_memory(const char *name, const char *text,
                                    size_t len, hta_cluster **out,
                                    hta_diag *d)
{
    cparser p;
    memset(&p, 0, sizeof p);
    *out = NULL;
    hta_status st = hta_lex_from_memory(&p.lx, name, text, len, d);
    return st == HTA_OK ? parse_lexer(&p, name, out, d) : st;
}

hta_status hta_cluster_write(const hta_cluster *c, FILE *f,
                             const char *comment)
{
    char buf[32];
    if (c->levels > 2 && c->ntopo == 0)
        return HTA_ERR_USAGE; /* explicit groups: no file form */
    hta_write_comment(f, '#', comment);
    fprintf(f, "hta-cluster 1\nservers %ld\nrates", (long)c->M);
    for (int i = 0; i < c->levels; i++) {
        hta_format_real(buf, c->rate[i]);
        fprintf(f, " %s", buf);
    }
    fputc('\n', f);
    if (c->ntopo) {
        fputs("topology", f);
        for (int i = 0; i < c->ntopo; i++)
            fprintf(f, " %ld", (long)c->topo[i]);
        fputc('\n', f);
    }
    for (int64_t L = 0; L < c->T; L++) {
        hta_format_real(buf, c->lambda[L]);
        fprintf(f, "type %s", buf);
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++)
            fprintf(f, " %ld", (long)c->srv[i]);
        fputc('\n', f);
    }
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}

hta_status hta_cluster_from_instance(const hta_instance *inst, double rate,
                                     const double *rates, int nrates,
                                     const int32_t *topo, int ntopo,
                                     hta_cluster **out, hta_diag *d)
{
    *out = NULL;
    int N = hta_levels(inst);
    if (N > 2 && ntopo > 0)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the instance has its own %d levels (its racks): "
                            "a topology does not apply",
                            N);
    if (N > 2 && nrates != N)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected %d rates for the instance's %d levels, "
                            "found %d",
                            N, N, nrates);
    if (N > 2 && inst->n != inst->n_declared)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "an N-level instance names every server");
    hta_status st = check_levels(rates, nrates, topo, ntopo, N > 2, d);
    if (st != HTA_OK)
        return st;
    if (!(rate >= 0) || !isfinite(rate))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected a rate >= 0 per task");
    int32_t m = inst->m, ngroups = 0;
    int32_t *order = malloc((size_t)m * sizeof *order);
    int32_t *first = malloc(((size_t)m + 1) * sizeof *first);
    double *lambda = malloc((size_t)m * sizeof *lambda);
    int64_t *off = malloc(((size_t)m + 1) * sizeof *off);
    int32_t *srv = malloc(((size_t)inst->edges + 1) * sizeof *srv);
    if (!order || !first || !lambda || !off || !srv ||
        (st = hta_instance_groups(inst, order, first, &ngroups, d)) !=
            HTA_OK) {
        free(order);
        free(first);
        free(lambda);
        free(off);
        free(srv);
        return st != HTA_OK ? st :
                              hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                           "out of memory");
    }
    /* one type per group: its replica set, rate times its size */
    int64_t k = 0;
    for (int32_t g = 0; g < ngroups; g++) {
        int32_t t = order[first[g]];
        int64_t deg = inst->task_off[t + 1] - inst->task_off[t];
        off[g] = k;
        lambda[g] = rate * (double)(first[g + 1] - first[g]);
        memcpy(srv + k, inst->task_srv + inst->task_off[t],
               (size_t)deg * sizeof *srv);
        k += deg;
    }
    off[ngroups] = k;
    int64_t T = ngroups;
    free(order);
    free(first);
    /* every declared server serves remote work: all of them */
    st = build(inst->n_declared, rates, nrates, topo, ntopo, N > 2, T,
               lambda, off, srv, out, d);
    if (st == HTA_OK && N > 2 && !set_groups(*out, inst)) {
        hta_cluster_free(*out);
        *out = NULL;
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    return st;
}
