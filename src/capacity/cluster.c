/* Cluster model: file format, hierarchy, types from placement instances. */
#include "hta/cluster.h"
#include "hta/topology.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/lex.h"

void hta_cluster_free(hta_cluster *c)
{
    if (!c)
        return;
    free(c->lambda);
    free(c->off);
    free(c->srv);
    free(c);
}

int64_t hta_cluster_group(const hta_cluster *c, int32_t s, int n)
{
    if (n >= c->levels)
        return 0;
    /* level 2 is the rack (topology.h), each further level groups runs of
     * consecutive groups of the level below */
    int64_t g = hta_rack_of(s, c->topo[0]);
    for (int i = 1; i + 2 <= n; i++)
        g /= c->topo[i];
    return g;
}

int64_t hta_cluster_groups(const hta_cluster *c, int n)
{
    if (n >= c->levels)
        return 1;
    return hta_cluster_group(c, c->M - 1, n) + 1;
}

static hta_status check_levels(const double *rates, int nrates,
                               const int32_t *topo, int ntopo, hta_diag *d)
{
    if (nrates < 2 || nrates > HTA_MAX_LEVELS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected 2 to %d rates, found %d",
                            HTA_MAX_LEVELS, nrates);
    if (nrates != ntopo + 2)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected %d rates for %d topology levels "
                            "(N = 2 + levels), found %d",
                            ntopo + 2, ntopo, nrates);
    for (int i = 0; i < nrates; i++)
        if (!(rates[i] > 0) || !isfinite(rates[i]) ||
            (i && !(rates[i] < rates[i - 1])))
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected strictly decreasing positive "
                                "rates");
    for (int i = 0; i < ntopo; i++)
        if (topo[i] < 1)
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected topology sizes >= 1");
    return HTA_OK;
}

hta_status hta_cluster_build(int32_t M, const double *rates, int nrates,
                             const int32_t *topo, int ntopo, int64_t T,
                             double *lambda, int64_t *off, int32_t *srv,
                             hta_cluster **out, hta_diag *d)
{
    *out = NULL;
    hta_status st = check_levels(rates, nrates, topo, ntopo, d);
    if (st == HTA_OK && M < 1)
        st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                          "expected at least one server");
    for (int64_t L = 0; st == HTA_OK && L < T; L++) {
        if (!(lambda[L] >= 0) || !isfinite(lambda[L]))
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected a finite arrival rate >= 0 for "
                              "type %lld",
                              (long long)L);
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

hta_status hta_cluster_parse(const char *path, hta_cluster **out,
                             hta_diag *d)
{
    hta_lex lx;
    *out = NULL;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    double rates[HTA_MAX_LEVELS];
    int32_t topo[HTA_MAX_LEVELS];
    int nrates = 0, ntopo = 0, stage = 0;
    int64_t M = 0, v, T = 0, capT = 0, nsrv = 0, capS = 0;
    double *lambda = NULL;
    int64_t *off = NULL;
    int32_t *srv = NULL, *stamp = NULL;
    static const char *const order[] = {"hta-cluster", "servers", "rates"};
    for (;;) {
        if ((st = hta_lex_next(&lx, d)) != HTA_OK)
            goto fail;
        if (lx.ntok == 0)
            break;
        const char *kw = lx.tok[0];
        if (stage < 3) {
            if (strcmp(kw, order[stage]) != 0) {
                char want[48];
                snprintf(want, sizeof want, "a '%s' line", order[stage]);
                st = hta_lex_expected(&lx, want, kw, d);
                goto fail;
            }
            if (lx.ntok < 2) {
                st = hta_lex_expected(&lx, "a value", NULL, d);
                goto fail;
            }
        }
        if (stage == 0) {
            if ((st = hta_lex_int(&lx, lx.tok[1], 1, 1, "format version", &v,
                                  d)) != HTA_OK)
                goto fail;
            stage = 1;
        } else if (stage == 1) {
            if ((st = hta_lex_int(&lx, lx.tok[1], 1, HTA_MAX_SERVERS,
                                  "a server count", &M, d)) != HTA_OK)
                goto fail;
            if (!(stamp = calloc((size_t)M, sizeof *stamp))) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                  "out of memory");
                goto fail;
            }
            stage = 2;
        } else if (stage == 2) {
            if (lx.ntok - 1 > HTA_MAX_LEVELS) {
                st = hta_lex_expected(&lx, "at most 8 rates",
                                      lx.tok[HTA_MAX_LEVELS + 1], d);
                goto fail;
            }
            for (size_t i = 1; i < lx.ntok; i++) {
                if ((st = hta_lex_real(&lx, lx.tok[i], 1, "a service rate",
                                       &rates[nrates], d)) != HTA_OK)
                    goto fail;
                if (nrates && !(rates[nrates] < rates[nrates - 1])) {
                    st = hta_lex_expected(&lx, "strictly decreasing rates",
                                          lx.tok[i], d);
                    goto fail;
                }
                nrates++;
            }
            if (nrates < 2) {
                st = hta_lex_expected(&lx, "at least two rates (local, "
                                           "remote)",
                                      NULL, d);
                goto fail;
            }
            stage = 3;
        } else if (strcmp(kw, "topology") == 0 && stage == 3 && T == 0) {
            for (size_t i = 1; i < lx.ntok; i++) {
                if (ntopo == HTA_MAX_LEVELS - 2) {
                    st = hta_lex_expected(&lx, "at most 6 topology levels",
                                          lx.tok[i], d);
                    goto fail;
                }
                if ((st = hta_lex_int(&lx, lx.tok[i], 1, HTA_MAX_SERVERS,
                                      "a group size", &v, d)) != HTA_OK)
                    goto fail;
                topo[ntopo++] = (int32_t)v;
            }
            if (ntopo + 2 != nrates) {
                char want[96];
                snprintf(want, sizeof want,
                         "%d topology sizes for %d rates (N = 2 + levels)",
                         nrates - 2, nrates);
                st = hta_lex_expected(&lx, want, lx.tok[lx.ntok - 1], d);
                goto fail;
            }
            stage = 4;
        } else if (strcmp(kw, "type") == 0) {
            if (nrates != ntopo + 2) {
                char want[96];
                snprintf(want, sizeof want,
                         "a 'topology' line with %d sizes (for %d rates)",
                         nrates - 2, nrates);
                st = hta_lex_expected(&lx, want, kw, d);
                goto fail;
            }
            if (lx.ntok < 3) {
                st = hta_lex_expected(&lx, "'type <lambda> <server> ...'",
                                      NULL, d);
                goto fail;
            }
            if (T + 2 > capT) {
                capT = capT ? capT * 2 : 1024;
                double *nl = realloc(lambda, (size_t)capT * sizeof *nl);
                if (nl)
                    lambda = nl;
                int64_t *no = realloc(off, (size_t)capT * sizeof *no);
                if (no)
                    off = no;
                if (!nl || !no) {
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                      "out of memory");
                    goto fail;
                }
            }
            if ((st = hta_lex_real(&lx, lx.tok[1], 0, "an arrival rate",
                                   &lambda[T], d)) != HTA_OK)
                goto fail;
            off[T] = nsrv;
            for (size_t i = 2; i < lx.ntok; i++) {
                if ((st = hta_lex_int(&lx, lx.tok[i], 0, M - 1,
                                      "a server id", &v, d)) != HTA_OK)
                    goto fail;
                if (stamp[v] == T + 1) {
                    st = hta_lex_expected(&lx, "distinct servers, server id",
                                          lx.tok[i], d);
                    goto fail;
                }
                stamp[v] = (int32_t)(T + 1);
                if (nsrv + 1 > capS) {
                    capS = capS ? capS * 2 : 4096;
                    int32_t *ns = realloc(srv, (size_t)capS * sizeof *ns);
                    if (!ns) {
                        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                          "out of memory");
                        goto fail;
                    }
                    srv = ns;
                }
                srv[nsrv++] = (int32_t)v;
            }
            T++;
            off[T] = nsrv;
        } else {
            char q[64];
            st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                              "expected a 'type' line, found unknown "
                              "keyword '%s'",
                              hta_lex_quote(kw, q));
            goto fail;
        }
    }
    if (stage < 3) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected a '%s' line, found end of file",
                          order[stage]);
        goto fail;
    }
    if (T == 0) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected at least one 'type' line, found end of "
                          "file");
        goto fail;
    }
    if (nrates != ntopo + 2) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected a 'topology' line with %d sizes for %d "
                          "rates",
                          nrates - 2, nrates);
        goto fail;
    }
    free(stamp);
    hta_lex_free(&lx);
    st = hta_cluster_build((int32_t)M, rates, nrates, topo, ntopo, T, lambda,
                           off, srv, out, d);
    if (st != HTA_OK && !d->path)
        d->path = path;
    return st;
fail:
    free(stamp);
    free(lambda);
    free(off);
    free(srv);
    hta_lex_free(&lx);
    return st;
}

hta_status hta_cluster_write(const hta_cluster *c, FILE *f,
                             const char *comment)
{
    char buf[32];
    if (comment)
        fprintf(f, "# %s\n", comment);
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
    hta_status st = check_levels(rates, nrates, topo, ntopo, d);
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
    return hta_cluster_build(inst->n, rates, nrates, topo, ntopo, T, lambda,
                             off, srv, out, d);
}
