/* N-level locality: levels from rack paths, per-level costs (levels.h). */
#include "hta/levels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/gate.h"
#include "hta/topology.h"

#include "levels_apply.h"

const hta_wrem *hta_level_wrem(const hta_instance *inst, int l)
{
    if (l < 2 || l > hta_levels(inst))
        return NULL;
    return l == hta_levels(inst) ? &inst->wrem : &inst->wlev[l];
}

double hta_level_cost(const hta_instance *inst, int l, int64_t r)
{
    if (l < 1 || l > hta_levels(inst) || r < 0)
        return NAN;
    return l == 1 ? inst->w_loc : hta_wrem_at(hta_level_wrem(inst, l), r);
}

static int64_t inst_group(const void *ctx, int32_t x, int l)
{
    return ((const hta_instance *)ctx)->grp[l][x];
}

int hta_level(const hta_instance *inst, int32_t t, int32_t s)
{
    if (t < 0 || t >= inst->m || s < 0 || s >= inst->n)
        return -1;
    return hta_level_rule(inst->task_srv + inst->task_off[t],
                          inst->task_off[t + 1] - inst->task_off[t], s,
                          hta_levels(inst), inst_group, inst);
}

int hta_rack_depth(const char *path)
{
    const char *p = path[0] == '/' ? path + 1 : path;
    int depth = 1;
    if (!*p)
        return 0;
    for (const char *c = p; *c; c++) {
        if (*c != '/')
            continue;
        if (c == p || c[-1] == '/' || !c[1])
            return 0;
        depth++;
    }
    return depth;
}

/* Bytes of path (without its leading '/') up to the end of its first k
 * names. */
static size_t prefix_len(const char *path, int k)
{
    const char *p = path[0] == '/' ? path + 1 : path, *c = p;
    for (int seen = 0; *c; c++)
        if (*c == '/' && ++seen == k)
            break;
    return (size_t)(c - p);
}

typedef struct keyed {
    const char *key; /* the path without its leading '/' */
    size_t len;      /* the group's prefix */
    int32_t s;
} keyed;

static int cmp_keyed(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->key, b->key, n);
    if (c)
        return c;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return (a->s > b->s) - (a->s < b->s);
}

void hta_levels_free(hta_instance *inst)
{
    for (int l = 0; l < HTA_MAX_LEVELS; l++) {
        if (inst->wlev[l].kind == HTA_WREM_TABLE)
            free(inst->wlev[l].v);
        free(inst->grp[l]);
        memset(&inst->wlev[l], 0, sizeof inst->wlev[l]);
        inst->grp[l] = NULL;
        inst->ngrp[l] = 0;
    }
    inst->levels = 2;
}

/* The first r in 0..m where w_l(r) > w_{l+1}(r), or -1: both are
 * piecewise linear between the tables' breakpoints (constant past a
 * table's end, affine throughout), so r = 0 .. the longer table's end,
 * and m, decide. */
static int64_t first_inversion(const hta_wrem *lo, const hta_wrem *hi,
                               int64_t m)
{
    int64_t end = 0;
    if (lo->kind == HTA_WREM_TABLE && lo->k > end)
        end = lo->k;
    if (hi->kind == HTA_WREM_TABLE && hi->k > end)
        end = hi->k;
    if (end > m)
        end = m;
    for (int64_t r = 0; r <= end; r++)
        if (hta_wrem_at(lo, r) > hta_wrem_at(hi, r))
            return r;
    return hta_wrem_at(lo, m) > hta_wrem_at(hi, m) ? m : -1;
}

/* The costs' rules (levels.h), the lines to blame from where. */
static hta_status check_costs(double w_loc, const hta_wrem *wrem,
                              const hta_wrem *wlev, int nlev, int64_t m,
                              const hta_levels_where *where, hta_diag *d)
{
    const char *path = where ? where->path : NULL;
    int N = nlev + 2;
    /* a caller's costs through the gate; a file's passed it at their
       lines (parse_cost) */
    hta_status st = where ? HTA_OK :
                            hta_gate_cost(w_loc, wrem, m, "w_rem", NULL,
                                          NULL, 0, d);
    for (int l = 2; l < N && st == HTA_OK && !where; l++) {
        char name[24];
        snprintf(name, sizeof name, "w_level %d", l);
        st = hta_gate_cost(w_loc, &wlev[l - 2], m, name, NULL, NULL, 0, d);
    }
    if (st != HTA_OK)
        return st;
    for (int l = 2; l < N; l++) {
        const hta_wrem *w = &wlev[l - 2];
        const hta_wrem *hi = l + 1 < N ? &wlev[l - 1] : wrem;
        long line = where ? where->wlev_line[l] : 0;
        int64_t r = first_inversion(w, hi, m);
        if (r >= 0) {
            char a[32], b[32], hname[16];
            hta_format_real(a, hta_wrem_at(w, r));
            hta_format_real(b, hta_wrem_at(hi, r));
            if (l + 1 < N)
                snprintf(hname, sizeof hname, "w_%d", l + 1);
            else
                snprintf(hname, sizeof hname, "w_rem");
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected level %d no dearer than level %d "
                                "(w_%d(r) <= %s(r) for r = 0..m), found "
                                "w_%d(%lld) = %s > %s(%lld) = %s",
                                l, l + 1, l, hname, l, (long long)r, a,
                                hname, (long long)r, b);
        }
    }
    return HTA_OK;
}

hta_status hta_levels_check_costs(double w_loc, const hta_wrem *wrem,
                                  const hta_wrem *wlev, int nlev, int64_t m,
                                  hta_diag *d)
{
    return check_costs(w_loc, wrem, wlev, nlev, m, NULL, d);
}

hta_status hta_levels_apply(hta_instance *inst, const hta_wrem *wlev,
                            int nlev, const hta_levels_where *where,
                            hta_diag *d)
{
    const char *path = where ? where->path : NULL;
    hta_levels_free(inst);
    if (nlev == 0)
        return HTA_OK;
    int N = nlev + 2;
    long first_line = where ? where->wlev_line[2] : 0;
    if (N > HTA_MAX_LEVELS)
        return hta_diag_set(d, HTA_ERR_INPUT, path, first_line,
                            "expected at most %d levels, found %d",
                            HTA_MAX_LEVELS, N);
    /* every server in a rack of depth nlev */
    for (int32_t s = 0; s <= inst->n; s++) {
        /* the first server without a rack: a working one, or the first
           of the idle tail (ids n..n_declared-1 have no lines) */
        if (s == inst->n ? inst->n < inst->n_declared :
                           !inst->server_rack || !inst->server_rack[s])
            return hta_diag_set(d, HTA_ERR_INPUT, path, first_line,
                                "expected a rack line for every server with "
                                "w_level costs, found none for server %ld",
                                (long)s);
    }
    for (int32_t s = 0; s < inst->n; s++) {
        const char *rack = inst->server_rack[s];
        int depth = hta_rack_depth(rack);
        if (depth != nlev) {
            long line = where ? where->rack_line[s] : 0;
            if (depth == 0)
                return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                    "expected a rack path of non-empty "
                                    "names, found '%s'",
                                    rack);
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected a rack path of %d name%s (levels "
                                "2..%d have w_level costs), found '%s'",
                                nlev, nlev == 1 ? "" : "s", N - 1, rack);
        }
    }
    /* costs never fall with closeness */
    hta_status st = check_costs(inst->w_loc, &inst->wrem, wlev, nlev, inst->m,
                                where, d);
    if (st != HTA_OK)
        return st;
    /* groups: level l keeps the first nlev - (l - 2) names */
    keyed *k = malloc(((size_t)inst->n + 1) * sizeof *k);
    if (!k)
        goto oom;
    for (int l = 2; l < N; l++) {
        inst->grp[l] = malloc(((size_t)inst->n + 1) * sizeof *inst->grp[l]);
        if (!inst->grp[l] ||
            hta_wrem_copy(&inst->wlev[l], &wlev[l - 2]) != HTA_OK) {
            free(k);
            goto oom;
        }
        for (int32_t s = 0; s < inst->n; s++) {
            const char *rack = inst->server_rack[s];
            k[s].key = rack[0] == '/' ? rack + 1 : rack;
            k[s].len = prefix_len(rack, nlev - (l - 2));
            k[s].s = s;
        }
        qsort(k, (size_t)inst->n, sizeof *k, cmp_keyed);
        int32_t g = -1;
        for (int32_t i = 0; i < inst->n; i++) {
            if (i == 0 || k[i].len != k[i - 1].len ||
                memcmp(k[i].key, k[i - 1].key, k[i].len) != 0)
                g++;
            inst->grp[l][k[i].s] = g;
        }
        inst->ngrp[l] = g + 1;
    }
    free(k);
    inst->levels = N;
    return HTA_OK;
oom:
    hta_levels_free(inst);
    return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
}

hta_status hta_instance_set_levels(hta_instance *inst, const hta_wrem *wlev,
                                   int nlev, hta_diag *d)
{
    if (nlev < 0 || nlev + 2 > HTA_MAX_LEVELS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected 0 to %d levels between local and "
                            "remote, found %d",
                            HTA_MAX_LEVELS - 2, nlev);
    return hta_levels_apply(inst, wlev, nlev, NULL, d);
}
