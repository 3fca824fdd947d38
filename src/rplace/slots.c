/* Reduce slots and their fetching costs: the `hta-slots 1` reader, the
 * accumulated hop distance H(v) of a tree topology (Tan et al., Section
 * II, Fig. 1) and i.i.d. costs (Section V-B). */
#include "hta/rplace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/rng.h"
#include "core/buf.h"
#include "core/lex.h"

void hta_slots_free(hta_slots *s)
{
    if (!s)
        return;
    for (int64_t v = 0; v < s->nodes && s->name; v++)
        free(s->name[v]);
    free(s->name);
    free(s->H);
    free(s->rcost);
    free(s->rend);
    free(s);
}

int64_t hta_slots_run_of(const hta_slots *s, int64_t i)
{
    int64_t lo = 0, hi = s->nrun - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (s->rend[mid] > i)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Costs with their slot counts. */
typedef struct pile {
    double c;
    int64_t k;
} pile;

static int cmp_pile(const void *a, const void *b)
{
    const pile *x = a, *y = b;
    return (x->c > y->c) - (x->c < y->c);
}

/* The runs from n piles sorted by cost (equal costs merged); 0 when out
 * of memory. */
static int make_runs(hta_slots *s, const pile *p, int64_t n)
{
    s->rcost = malloc(((size_t)n + 1) * sizeof *s->rcost);
    s->rend = malloc(((size_t)n + 1) * sizeof *s->rend);
    if (!s->rcost || !s->rend)
        return 0;
    int64_t q = -1, r = 0;
    for (int64_t i = 0; i < n; i++) {
        if (p[i].k == 0)
            continue;
        r += p[i].k;
        if (q >= 0 && s->rcost[q] == p[i].c) {
            s->rend[q] = r;
            continue;
        }
        q++;
        s->rcost[q] = p[i].c;
        s->rend[q] = r;
    }
    s->nrun = q + 1;
    s->r = r;
    return 1;
}

int64_t hta_slots_find(const hta_slots *s, const char *name)
{
    for (int64_t v = 0; v < s->nodes; v++)
        if (strcmp(s->name[v], name) == 0)
            return v;
    return -1;
}

static hta_status oom(hta_diag *d)
{
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

/* What the reader collects before the costs are known. */
typedef struct reader {
    hta_lex lx;
    int nhops; /* 0: no hops line */
    double hops[HTA_RP_MAX_LEVELS + 1];
    long hops_line;
    int L;          /* groups per node line, -1 before the first */
    int64_t n;      /* nodes */
    char **name;    /* [n] */
    char **group;   /* [n * L] */
    int64_t *nslots; /* [n] */
    long *line;     /* [n] */
    size_t cap_name, cap_group, cap_nslots, cap_line;
    /* a cost list: a pile a line */
    pile *cost;
    size_t cap_cost, ncost;
    int64_t r;
} reader;

static char *dup_token(const char *t)
{
    size_t n = strlen(t) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, t, n);
    return p;
}

static hta_status read_hops(reader *rd, hta_diag *d)
{
    hta_lex *lx = &rd->lx;
    if (rd->nhops || rd->L >= 0 || rd->r > 0)
        return hta_lex_expected(lx, "one 'hops' line before the node "
                                    "lines", "hops", d);
    if (lx->ntok < 2)
        return hta_lex_expected(lx, "a hop distance", NULL, d);
    if (lx->ntok > HTA_RP_MAX_LEVELS + 2)
        return hta_lex_expected(lx, "at most 9 hop distances",
                                lx->tok[HTA_RP_MAX_LEVELS + 2], d);
    for (size_t i = 1; i < lx->ntok; i++) {
        double h;
        hta_status st = hta_lex_real(lx, lx->tok[i], 1,
                                     "a positive hop distance", &h, d);
        if (st != HTA_OK)
            return st;
        if (i > 1 && h < rd->hops[i - 2]) {
            char want[96];
            snprintf(want, sizeof want, "a hop distance >= %.15g (the "
                     "level below)", rd->hops[i - 2]);
            return hta_lex_expected(lx, want, lx->tok[i], d);
        }
        rd->hops[i - 1] = h;
    }
    rd->nhops = (int)lx->ntok - 1;
    rd->hops_line = lx->line;
    return HTA_OK;
}

static hta_status read_node(reader *rd, hta_diag *d)
{
    hta_lex *lx = &rd->lx;
    if (rd->r > 0)
        return hta_lex_expected(lx, "a 'slot' line (the file lists "
                                    "costs)", "node", d);
    if (lx->ntok < 2)
        return hta_lex_expected(lx, "a node name", NULL, d);
    if (lx->ntok < 3)
        return hta_lex_expected(lx, "a number of slots", NULL, d);
    int64_t k;
    hta_status st = hta_lex_int(lx, lx->tok[2], 0, 1000000,
                                "a number of slots", &k, d);
    if (st != HTA_OK)
        return st;
    int L = (int)lx->ntok - 3;
    int want = rd->nhops ? rd->nhops - 1 : rd->L;
    if (want < 0 && L > HTA_RP_MAX_LEVELS)
        return hta_lex_expected(lx, "at most 8 groups", lx->tok[11], d);
    if (want >= 0 && L != want) {
        char msg[120];
        snprintf(msg, sizeof msg, "%d group%s (%s)", want,
                 want == 1 ? "" : "s",
                 rd->nhops ? "one fewer than the hop distances" :
                             "as the first node line");
        return hta_lex_expected(lx, msg, L > want ? lx->tok[3 + want] : NULL,
                                d);
    }
    if (rd->n >= HTA_RP_MAX_NODES)
        return hta_lex_expected(lx, "at most 10^7 nodes", "node", d);
    rd->L = L;
    size_t n = (size_t)rd->n;
    if (!HTA_RESERVE(rd->name, rd->cap_name, n + 1) ||
        !HTA_RESERVE(rd->nslots, rd->cap_nslots, n + 1) ||
        !HTA_RESERVE(rd->line, rd->cap_line, n + 1) ||
        !HTA_RESERVE(rd->group, rd->cap_group, (n + 1) * (size_t)L + 1))
        return oom(d);
    rd->name[n] = dup_token(lx->tok[1]);
    if (!rd->name[n])
        return oom(d);
    rd->nslots[n] = k;
    rd->line[n] = lx->line;
    rd->n++; /* owns the name from here on */
    for (int j = 0; j < L; j++)
        if (!(rd->group[n * (size_t)L + (size_t)j] = dup_token(lx->tok[3 + j]))) {
            for (int i = j; i < L; i++) /* freed as a whole later */
                rd->group[n * (size_t)L + (size_t)i] = NULL;
            return oom(d);
        }
    return HTA_OK;
}

static hta_status read_slot(reader *rd, hta_diag *d)
{
    hta_lex *lx = &rd->lx;
    if (rd->L >= 0)
        return hta_lex_expected(lx, "a 'node' line (the file lists "
                                    "nodes)", "slot", d);
    if (rd->nhops)
        return hta_lex_expected(lx, "a 'node' line (a 'hops' line "
                                    "describes a topology)", "slot", d);
    if (lx->ntok < 2)
        return hta_lex_expected(lx, "a slot cost", NULL, d);
    if (lx->ntok > 3)
        return hta_lex_expected(lx, "the end of the line", lx->tok[3], d);
    double c;
    int64_t k = 1;
    hta_status st = hta_lex_real(lx, lx->tok[1], 0, "a slot cost", &c,
                                 d);
    if (st == HTA_OK && c > HTA_RP_MAX_COST)
        st = hta_lex_expected(lx, "a slot cost in [0, 1e15]", lx->tok[1], d);
    if (st == HTA_OK && lx->ntok > 2)
        st = hta_lex_int(lx, lx->tok[2], 1, HTA_RP_MAX_SLOTS,
                         "a slot count", &k, d);
    if (st != HTA_OK)
        return st;
    if (k > HTA_RP_MAX_SLOTS - rd->r)
        return hta_lex_expected(lx, "at most 10^8 slots in all",
                                lx->tok[2], d);
    if (!HTA_RESERVE(rd->cost, rd->cap_cost, rd->ncost + 1))
        return oom(d);
    rd->cost[rd->ncost++] = (pile){c, k};
    rd->r += k;
    return HTA_OK;
}

/* Sorting helpers: indices ordered by a string column, then by index. */
typedef struct by_name {
    const char *s;
    int64_t i;
} by_name;

static int cmp_name(const void *a, const void *b)
{
    const by_name *x = a, *y = b;
    int c = strcmp(x->s, y->s);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The topology's H(v): group ids per level by sorting the names, one
 * parent per group, group sizes, then H(v) = sum_j d_j (n_j - n_{j-1})
 * with n_0 = 1, n_j the size of v's level-j group and n_{L+1} = N.
 * O(N L log N). */
static hta_status topology(reader *rd, hta_slots *s, hta_diag *d)
{
    const char *path = rd->lx.path;
    int64_t N = rd->n;
    int L = rd->L;
    hta_status st = HTA_OK;
    by_name *ord = malloc((size_t)N * sizeof *ord);
    int64_t *gid = malloc(((size_t)N * (size_t)L + 1) * sizeof *gid);
    int64_t *size = malloc(((size_t)N + 1) * sizeof *size);
    int64_t *parent = malloc(((size_t)N + 1) * sizeof *parent);
    int64_t *first = malloc(((size_t)N + 1) * sizeof *first);
    double hops[HTA_RP_MAX_LEVELS + 1];
    if (!ord || !gid || !size || !parent || !first) {
        st = oom(d);
        goto done;
    }
    for (int j = 0; j <= L; j++)
        hops[j] = rd->nhops ? rd->hops[j] : j + 1;
    /* node names: distinct */
    for (int64_t v = 0; v < N; v++)
        ord[v] = (by_name){rd->name[v], v};
    qsort(ord, (size_t)N, sizeof *ord, cmp_name);
    for (int64_t k = 1; k < N; k++)
        if (strcmp(ord[k].s, ord[k - 1].s) == 0) {
            char q[64];
            st = hta_diag_set(d, HTA_ERR_INPUT, path, rd->line[ord[k].i],
                              "expected a node name not used before, "
                              "found '%s' (line %ld)",
                              hta_lex_quote(ord[k].s, q),
                              rd->line[ord[k - 1].i]);
            goto done;
        }
    /* group ids, level by level */
    for (int j = 0; j < L; j++) {
        for (int64_t v = 0; v < N; v++)
            ord[v] = (by_name){rd->group[v * L + j], v};
        qsort(ord, (size_t)N, sizeof *ord, cmp_name);
        int64_t g = -1;
        for (int64_t k = 0; k < N; k++) {
            if (k == 0 || strcmp(ord[k].s, ord[k - 1].s) != 0)
                g++;
            gid[ord[k].i * L + j] = g;
        }
    }
    /* one parent per group */
    for (int j = 0; j + 1 < L; j++) {
        for (int64_t g = 0; g < N; g++)
            parent[g] = -1;
        for (int64_t v = 0; v < N; v++) {
            int64_t g = gid[v * L + j], p = gid[v * L + j + 1];
            if (parent[g] < 0) {
                parent[g] = p;
                first[g] = v;
            } else if (parent[g] != p) {
                char q[64], q2[64], q3[64];
                st = hta_diag_set(
                    d, HTA_ERR_INPUT, path, rd->line[v],
                    "expected group '%s' inside '%s' (line %ld), found "
                    "'%s'",
                    hta_lex_quote(rd->group[v * L + j], q),
                    hta_lex_quote(rd->group[first[g] * L + j + 1], q2),
                    rd->line[first[g]],
                    hta_lex_quote(rd->group[v * L + j + 1], q3));
                goto done;
            }
        }
    }
    if (!(s->H = calloc((size_t)N, sizeof *s->H))) {
        st = oom(d);
        goto done;
    }
    /* per level, group sizes, then the increments of H */
    double *acc = s->H;
    int64_t *prev = first; /* n_{j-1}(v), reused */
    for (int64_t v = 0; v < N; v++)
        prev[v] = 1;
    for (int j = 0; j <= L; j++) {
        if (j < L) {
            for (int64_t g = 0; g < N; g++)
                size[g] = 0;
            for (int64_t v = 0; v < N; v++)
                size[gid[v * L + j]]++;
        }
        for (int64_t v = 0; v < N; v++) {
            int64_t nj = j < L ? size[gid[v * L + j]] : N;
            acc[v] += hops[j] * (double)(nj - prev[v]);
            prev[v] = nj;
        }
    }
    /* slots by cost, ties in file order */
    int64_t r = 0;
    for (int64_t v = 0; v < N; v++)
        r += rd->nslots[v];
    if (r == 0) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, rd->lx.line,
                          "expected a node with at least one slot, found "
                          "none");
        goto done;
    }
    if (r > HTA_RP_MAX_SLOTS) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, rd->lx.line,
                          "expected at most 10^8 slots in all, found %lld",
                          (long long)r);
        goto done;
    }
    pile *pl = malloc((size_t)N * sizeof *pl);
    if (!pl) {
        st = oom(d);
        goto done;
    }
    for (int64_t v = 0; v < N; v++)
        pl[v] = (pile){s->H[v], rd->nslots[v]};
    qsort(pl, (size_t)N, sizeof *pl, cmp_pile);
    int ok = make_runs(s, pl, N);
    free(pl);
    if (!ok) {
        st = oom(d);
        goto done;
    }
    s->nodes = N;
    s->name = rd->name; /* moved */
    rd->name = NULL;
done:
    free(ord);
    free(gid);
    free(size);
    free(parent);
    free(first);
    return st;
}

hta_status hta_slots_parse(const char *path, hta_slots **out, hta_diag *d)
{
    *out = NULL;
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.L = -1;
    hta_status st = hta_lex_open(&rd.lx, path, d);
    if (st != HTA_OK)
        return st;
    hta_slots *s = calloc(1, sizeof *s);
    int header = 0;
    if (!s) {
        st = oom(d);
        goto done;
    }
    for (;;) {
        hta_lex *lx = &rd.lx;
        if ((st = hta_lex_next(lx, d)) != HTA_OK)
            goto done;
        if (lx->ntok == 0)
            break;
        if (!header) {
            int64_t v;
            if (strcmp(lx->tok[0], "hta-slots") != 0) {
                st = hta_lex_expected(lx, "'hta-slots 1'", lx->tok[0], d);
                goto done;
            }
            if (lx->ntok < 2) {
                st = hta_lex_expected(lx, "a format version", NULL, d);
                goto done;
            }
            if ((st = hta_lex_int(lx, lx->tok[1], 1, 1, "format version",
                                  &v, d)) != HTA_OK)
                goto done;
            if (lx->ntok > 2) {
                st = hta_lex_expected(lx, "the end of the line", lx->tok[2],
                                      d);
                goto done;
            }
            header = 1;
            continue;
        }
        if (strcmp(lx->tok[0], "hops") == 0)
            st = read_hops(&rd, d);
        else if (strcmp(lx->tok[0], "node") == 0)
            st = read_node(&rd, d);
        else if (strcmp(lx->tok[0], "slot") == 0)
            st = read_slot(&rd, d);
        else
            st = hta_lex_expected(lx, "'hops', 'node' or 'slot'", lx->tok[0],
                                  d);
        if (st != HTA_OK)
            goto done;
    }
    if (!header) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, rd.lx.line,
                          "expected 'hta-slots 1', found end of file");
    } else if (rd.L < 0 && rd.r == 0) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, rd.lx.line,
                          "expected a 'node' or 'slot' line, found end of "
                          "file");
    } else if (rd.L >= 0) {
        st = topology(&rd, s, d);
    } else {
        qsort(rd.cost, rd.ncost, sizeof *rd.cost, cmp_pile);
        if (!make_runs(s, rd.cost, (int64_t)rd.ncost))
            st = oom(d);
    }
done:
    for (int64_t v = 0; v < rd.n; v++) {
        if (rd.name) /* else moved into s */
            free(rd.name[v]);
        for (int j = 0; j < rd.L; j++)
            free(rd.group[v * rd.L + j]);
    }
    free(rd.name);
    free(rd.group);
    free(rd.nslots);
    free(rd.line);
    free(rd.cost);
    hta_lex_free(&rd.lx);
    if (st != HTA_OK) {
        hta_slots_free(s);
        return st;
    }
    *out = s;
    return HTA_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

hta_status hta_slots_uniform(int64_t r, double lo, double hi, uint64_t seed,
                             hta_slots **out, hta_diag *d)
{
    *out = NULL;
    if (r < 1 || r > HTA_RP_MAX_SLOTS || !(lo >= 0) || !(hi >= lo) ||
        !isfinite(hi))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected 1 to 10^8 slots and 0 <= lo <= hi");
    hta_slots *s = calloc(1, sizeof *s);
    if (!s || !(s->rcost = malloc((size_t)r * sizeof *s->rcost)) ||
        !(s->rend = malloc((size_t)r * sizeof *s->rend))) {
        hta_slots_free(s);
        return oom(d);
    }
    hta_rng g;
    hta_rng_seed(&g, seed ^ 0x51075ull); /* the costs' own stream */
    for (int64_t i = 0; i < r; i++)
        s->rcost[i] = lo + (hi - lo) * hta_rng_unit(&g);
    qsort(s->rcost, (size_t)r, sizeof *s->rcost, cmp_double);
    int64_t q = 0; /* equal costs merged in place */
    for (int64_t i = 0; i < r; i++) {
        if (i > 0 && s->rcost[i] == s->rcost[q - 1]) {
            s->rend[q - 1] = i + 1;
            continue;
        }
        s->rcost[q] = s->rcost[i];
        s->rend[q++] = i + 1;
    }
    s->nrun = q;
    s->r = r;
    *out = s;
    return HTA_OK;
}

double hta_slots_mean_cost(const hta_slots *s)
{
    double sum = 0;
    for (int64_t q = 0; q < s->nrun; q++)
        sum += s->rcost[q] * (double)(s->rend[q] - (q ? s->rend[q - 1] : 0));
    return sum / (double)s->r;
}
