/* The optimal placement with arrivals and departures (the dynamic case
 * Tan et al. leave to the receding horizon): the K-limited processor-
 * sharing system of rplace.c as a Markov decision process, solved by
 * relative value iteration for a few slots and a small K.
 *
 * Model.  Jobs arrive at rate lambda; while n >= 1 jobs are in the
 * system one of the min(n, K) in service leaves at rate 1, uniformly,
 * freeing the slots it holds; a job (x, R) of the law enters service on
 * arrival when fewer than K are in service, else when a departure frees
 * a place, and then takes any R free slots A at cost x * h(A).  The
 * state between events is (c, n): c the configuration, the set of slot
 * masks of the jobs in service (min(n, K) of them), n the jobs in the
 * system, truncated at nmax (an arrival at nmax is lost; nmax is chosen
 * so that rho^(nmax - K) < 1e-12, whence the truncated model's value
 * lies within that relative distance of the infinite one's).
 *
 * Uniformized at Lambda = lambda + 1, the Bellman operator is
 *
 *   (TW)(c, n) = [ lambda * (n < K ? D(c, n + 1) : W(c, min(n + 1, nmax)))
 *                + 1{n >= 1} * (1/|c|) sum_j (n - 1 >= K ? D(c - j, n - 1)
 *                                                       : W(c - j, n - 1))
 *                + (Lambda - lambda - 1{n >= 1}) * W(c, n) ] / Lambda,
 *
 *   D(c, m) = E_(x,R) min_A [ x h(A) + W(c + A, m) ],
 *
 * over every R-subset A of the free slots (no structure assumed: the
 * optimal set need not be a block of the sorted free list, since slots
 * taken together are freed together).  For fixed (c, m, R) the minimum
 * over A is the lower envelope of the lines x -> h(A) x + W(c + A, m),
 * built once per iteration in slope order and read at the law's atoms in
 * increasing x (the law keeps them sorted within an R), so D costs
 * O(choices + atoms).  Relative value iteration: W <- TW - (TW)(empty);
 * the optimal cost per unit time g lies in [min (TW - W), max (TW - W)]
 * times Lambda at every iteration (Odoni's bounds), and the iteration
 * stops when that interval is within the tolerance; the cost per job is
 * g / lambda.  The chain is aperiodic (the empty state loops on itself)
 * and unichain under every policy (the empty state is reached from
 * everywhere), so the iteration converges.
 *
 * The policy read off the final W is what hta_rp_mdp_choose returns: the
 * simulator runs it as `optimal` on the common sample path, which checks
 * the value against an independent estimate; tests/unit/test_rplace.c
 * checks the value against policy iteration with exact linear solves.
 */
#include "rplace/optimal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hta_status oom(hta_diag *d)
{
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

void hta_rp_mdp_free(hta_rp_mdp *m)
{
    if (!m)
        return;
    free(m->cfg);
    free(m->njob);
    free(m->htab);
    free(m->coff);
    free(m->cmask);
    free(m->cpost);
    free(m->cslope);
    free(m->child);
    free(m->voff);
    free(m->doff);
    free(m->W);
    free(m->gR);
    free(m->cost);
    memset(m, 0, sizeof *m);
}

/* ---- configurations: K masks sorted decreasing, zero-padded ---- */

static uint64_t cfg_hash(const uint32_t *k, int K)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < K; i++) {
        h ^= k[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

typedef struct builder {
    hta_rp_mdp *m;
    int64_t cap; /* configurations allocated */
} builder;

/* The hash table's slot of configuration key: where it is, else the
 * empty slot where it goes (linear probing; the table is never full). */
static uint64_t cfg_slot(const hta_rp_mdp *m, const uint32_t *key)
{
    int K = m->K;
    uint64_t mask = (uint64_t)m->hcap - 1;
    for (uint64_t i = cfg_hash(key, K) & mask;; i = (i + 1) & mask) {
        int64_t c = m->htab[i];
        if (c < 0 || !memcmp(m->cfg + (size_t)c * (size_t)K, key,
                             (size_t)K * sizeof *key))
            return i;
    }
}

/* The index of configuration key, inserted when new; -1 out of memory
 * or past the limit (*over set). */
static int64_t cfg_find(builder *b, const uint32_t *key, int *over)
{
    hta_rp_mdp *m = b->m;
    int K = m->K;
    uint64_t i = cfg_slot(m, key);
    int64_t c = m->htab[i];
    if (c >= 0)
        return c;
    if (m->ncfg >= HTA_RP_MDP_MAX_CFG) {
        *over = 1;
        return -1;
    }
    if (m->ncfg == b->cap) {
        int64_t nc = b->cap ? 2 * b->cap : 1024;
        uint32_t *cf = realloc(m->cfg, (size_t)nc * (size_t)K * sizeof *cf);
        if (!cf)
            return -1;
        m->cfg = cf;
        int *nj = realloc(m->njob, (size_t)nc * sizeof *nj);
        if (!nj)
            return -1;
        m->njob = nj;
        b->cap = nc;
    }
    c = m->ncfg++;
    memcpy(m->cfg + (size_t)c * (size_t)K, key, (size_t)K * sizeof *key);
    int j = 0;
    while (j < K && key[j])
        j++;
    m->njob[c] = j;
    m->htab[i] = c;
    return c;
}

/* key = configuration c with the mask a added, sorted decreasing. */
static void cfg_add(const uint32_t *c, int K, uint32_t a, uint32_t *key)
{
    int i = 0, o = 0;
    while (i < K && c[i] > a)
        key[o++] = c[i++];
    key[o++] = a;
    while (o < K)
        key[o++] = c[i++];
}

/* key = configuration c without its job i. */
static void cfg_del(const uint32_t *c, int K, int i, uint32_t *key)
{
    int o = 0;
    for (int j = 0; j < K; j++)
        if (j != i)
            key[o++] = c[j];
    key[o] = 0;
}

static double mask_cost(const hta_rp_mdp *m, uint32_t a)
{
    double s = 0;
    for (int i = 0; i < m->r; i++)
        if (a >> i & 1)
            s += m->cost[i];
    return s;
}

/* The configurations reachable from the empty one, each with its
 * choices per R (sorted by cost decreasing) and its departures. */
static hta_status enumerate(hta_rp_mdp *m, hta_diag *d)
{
    builder b = {m, 0};
    int K = m->K, G = m->ngroups, over = 0;
    m->hcap = 1;
    while (m->hcap < 2 * HTA_RP_MDP_MAX_CFG)
        m->hcap *= 2;
    m->htab = malloc((size_t)m->hcap * sizeof *m->htab);
    uint32_t *key = calloc((size_t)K + 1, sizeof *key);
    if (!m->htab || !key) {
        free(key);
        return oom(d);
    }
    for (int64_t i = 0; i < m->hcap; i++)
        m->htab[i] = -1;
    hta_status st = HTA_OK;
    int64_t ccap = 0, nch = 0;
    size_t ocap = 0;
    if (cfg_find(&b, key, &over) < 0) /* the empty configuration: 0 */
        goto fail;
    uint32_t full = m->r == 32 ? 0xFFFFFFFFu : (1u << m->r) - 1;
    for (int64_t c = 0; c < m->ncfg; c++) {
        /* choices of c, group by group (c's slots in coff[c*G + g]) */
        if ((size_t)(c + 1) * (size_t)G + 1 > ocap) {
            size_t nc = ocap ? 2 * ocap : 4096;
            while (nc < (size_t)(c + 1) * (size_t)G + 1)
                nc *= 2;
            int64_t *co = realloc(m->coff, nc * sizeof *co);
            if (!co)
                goto fail;
            m->coff = co;
            ocap = nc;
        }
        const uint32_t *cc = m->cfg + (size_t)c * (size_t)K;
        uint32_t used = 0;
        for (int j = 0; j < K; j++)
            used |= cc[j];
        uint32_t fr = full & ~used;
        int pos[32], nf = 0;
        for (int i = 0; i < m->r; i++)
            if (fr >> i & 1)
                pos[nf++] = i;
        for (int g = 0; g < G; g++) {
            m->coff[c * G + g] = nch;
            int R = m->gR[g];
            if (m->njob[c] >= K || R > nf)
                continue;
            /* every R-subset of the nf free slots (Gosper's hack) */
            uint64_t s = ((uint64_t)1 << R) - 1, lim = (uint64_t)1 << nf;
            int64_t first = nch;
            for (; s < lim;) {
                uint32_t a = 0;
                for (int i = 0; i < nf; i++)
                    if (s >> i & 1)
                        a |= 1u << pos[i];
                if (nch == ccap) {
                    int64_t nc = ccap ? 2 * ccap : 4096;
                    if (nc > HTA_RP_MDP_MAX_CHOICES)
                        nc = HTA_RP_MDP_MAX_CHOICES;
                    if (nch >= nc) {
                        over = 1;
                        goto fail;
                    }
                    uint32_t *cm = realloc(m->cmask, (size_t)nc * sizeof *cm);
                    if (!cm)
                        goto fail;
                    m->cmask = cm;
                    int64_t *cp = realloc(m->cpost, (size_t)nc * sizeof *cp);
                    if (!cp)
                        goto fail;
                    m->cpost = cp;
                    double *cs = realloc(m->cslope, (size_t)nc * sizeof *cs);
                    if (!cs)
                        goto fail;
                    m->cslope = cs;
                    ccap = nc;
                }
                cfg_add(cc, K, a, key);
                int64_t p = cfg_find(&b, key, &over);
                if (p < 0)
                    goto fail;
                cc = m->cfg + (size_t)c * (size_t)K; /* cfg may move */
                m->cmask[nch] = a;
                m->cpost[nch] = p;
                m->cslope[nch] = mask_cost(m, a);
                nch++;
                uint64_t lo = s & -s, hi = s + lo;
                s = (((hi ^ s) >> 2) / lo) | hi;
            }
            /* sort the group's choices by cost, decreasing (insertion:
             * the lists are short) */
            for (int64_t i = first + 1; i < nch; i++) {
                double sl = m->cslope[i];
                uint32_t a = m->cmask[i];
                int64_t p = m->cpost[i], j = i;
                while (j > first && m->cslope[j - 1] < sl) {
                    m->cslope[j] = m->cslope[j - 1];
                    m->cmask[j] = m->cmask[j - 1];
                    m->cpost[j] = m->cpost[j - 1];
                    j--;
                }
                m->cslope[j] = sl;
                m->cmask[j] = a;
                m->cpost[j] = p;
            }
        }
        m->coff[c * G + G] = nch;
    }
    /* departures: child[c * K + j] = c without its job j */
    m->child = malloc((size_t)m->ncfg * (size_t)K * sizeof *m->child);
    if (!m->child)
        goto fail;
    for (int64_t c = 0; c < m->ncfg; c++)
        for (int j = 0; j < K; j++) {
            int64_t ch = -1;
            if (j < m->njob[c]) {
                cfg_del(m->cfg + (size_t)c * (size_t)K, K, j, key);
                int64_t before = m->ncfg;
                ch = cfg_find(&b, key, &over);
                if (ch < 0)
                    goto fail;
                if (m->ncfg != before) { /* every sub-configuration of a
                                            reachable one is reachable */
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                      "optimal: a configuration without "
                                      "its parent");
                    goto done;
                }
            }
            m->child[c * K + j] = ch;
        }
    goto done;
fail:
    st = over ? hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                             "the optimal policy's decision process has "
                             "more than %lld configurations or %lld "
                             "choices: fewer slots, a smaller K or R",
                             (long long)HTA_RP_MDP_MAX_CFG,
                             (long long)HTA_RP_MDP_MAX_CHOICES) :
                oom(d);
done:
    free(key);
    return st;
}

/* ---- the size, before the build ---- */

void hta_rp_mdp_size(int r, int K, const int32_t *gR, int ngroups,
                     int64_t nmax, double *configurations, double *choices,
                     double *states)
{
    /* C(a, b) for a, b <= 32, and O(j, u) for j <= K, u <= r: K < 33
       since each job holds a slot, r <= 32 */
    double C[33][33], O[33][33];
    int in[33] = {0}; /* the distinct R values in 1..r */
    *configurations = *choices = *states = 0;
    if (r < 0 || r > 32 || K < 1)
        return;
    for (int a = 0; a <= 32; a++)
        for (int b = 0; b <= 32; b++)
            C[a][b] = b == 0 ? 1 : a == 0 ? 0 : C[a - 1][b - 1] + C[a - 1][b];
    for (int g = 0; g < ngroups; g++)
        if (gR[g] >= 1 && gR[g] <= r)
            in[gR[g]] = 1;
    int J = K < r ? K : r;
    memset(O, 0, sizeof O);
    O[0][0] = 1;
    double fact = 1;
    for (int j = 0; j <= J; j++) {
        if (j > 0) {
            fact *= j;
            for (int u = 1; u <= r; u++)
                for (int R = 1; R <= u; R++)
                    if (in[R])
                        O[j][u] += O[j - 1][u - R] * C[r - u + R][R];
        }
        for (int u = 0; u <= r; u++) {
            double A = O[j][u] / fact; /* unordered: the subsets differ */
            if (A == 0)
                continue;
            *configurations += A;
            if (j == K) {
                *states += A * (double)(nmax - K + 1);
                continue;
            }
            *states += A;
            for (int g = 0; g < ngroups; g++)
                if (gR[g] >= 1 && gR[g] <= r - u)
                    *choices += A * C[r - u][gR[g]];
        }
    }
}

int64_t hta_rp_mdp_nmax(int K, double lambda)
{
    double q = ceil(log(1e-12) / log(lambda)); /* rho, mu = 1 */
    int64_t nmax = q < 1e15 ? K + (int64_t)q : INT64_MAX / 2;
    return nmax < K + 1 ? K + 1 : nmax;
}

/* A count for the words: exact while a double holds it. */
static const char *count(double x, char buf[32])
{
    snprintf(buf, 32, x < 1e15 ? "%.0f" : "%.3g", x);
    return buf;
}

hta_status hta_rp_mdp_check(int64_t r, int K, const hta_rp_law *law,
                            double lambda, hta_diag *d)
{
    char x[32];
    if (r > 30)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the optimal policy is computed for at most "
                            "30 slots, found %lld", (long long)r);
    int64_t nmax = hta_rp_mdp_nmax(K, lambda);
    if (nmax > HTA_RP_MDP_MAX_QUEUE)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "optimal: lambda %g needs a queue of %lld "
                            "states, more than %lld",
                            lambda, (long long)nmax,
                            (long long)HTA_RP_MDP_MAX_QUEUE);
    double cfg, ch, st;
    hta_rp_mdp_size((int)r, K, law->gR, law->ngroups, nmax, &cfg, &ch, &st);
    /* the first count over its limit; the states grow with lambda's
       queue, the others with R */
    const struct {
        double n;
        long long limit;
        const char *what;
    } size[] = {{cfg, HTA_RP_MDP_MAX_CFG, "configurations"},
                {ch, HTA_RP_MDP_MAX_CHOICES, "choices of slots"},
                {st, HTA_RP_MDP_MAX_STATES, "states"}};
    for (int i = 0; i < 3; i++) {
        if (!(size[i].n > (double)size[i].limit))
            continue;
        char by[64];
        if (i == 2)
            snprintf(by, sizeof by, "lambda %g", lambda);
        else
            snprintf(by, sizeof by, "R up to %d", (int)law->rmax);
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the optimal policy's decision process would "
                            "have %s %s (%lld slots, K %d, %s), more than "
                            "%lld: fewer slots, a smaller K or %s",
                            count(size[i].n, x), size[i].what, (long long)r,
                            K, by, size[i].limit, i == 2 ? "lambda" : "R");
    }
    return HTA_OK;
}

/* ---- values ---- */

/* W's index of configuration c with n jobs in the system. */
static int64_t widx(const hta_rp_mdp *m, int64_t c, int64_t n)
{
    if (m->njob[c] < m->K)
        return m->voff[c];
    if (n > m->nmax)
        n = m->nmax;
    return m->voff[c] + (n - m->K);
}

/* min over the choices [lo, hi) of x * slope + W(post, n) at the atoms
 * [a0, a1) of the law (x increasing), weighted by their probabilities;
 * hull scratch [hi - lo]. */
static double envelope(const hta_rp_mdp *m, const double *W, int64_t lo,
                       int64_t hi, int64_t n, int64_t a0, int64_t a1,
                       int64_t *hull)
{
    int64_t h = 0;
    for (int64_t i = lo; i < hi; i++) {
        double s = m->cslope[i], b = W[widx(m, m->cpost[i], n)];
        if (h > 0 && m->cslope[hull[h - 1]] == s) {
            if (W[widx(m, m->cpost[hull[h - 1]], n)] <= b)
                continue;
            h--;
        }
        /* pop while the top is never below both neighbours */
        while (h >= 2) {
            int64_t p = hull[h - 2], q = hull[h - 1];
            double sp = m->cslope[p], sq = m->cslope[q];
            double bp = W[widx(m, m->cpost[p], n)];
            double bq = W[widx(m, m->cpost[q], n)];
            /* q useless when the crossing of p and the new line comes
             * before the crossing of p and q */
            if ((b - bp) * (sp - sq) <= (bq - bp) * (sp - s))
                h--;
            else
                break;
        }
        hull[h++] = i;
    }
    double sum = 0;
    int64_t k = 0;
    for (int64_t a = a0; a < a1; a++) {
        double x = m->ax[a];
        while (k + 1 < h) {
            int64_t p = hull[k], q = hull[k + 1];
            double vp = x * m->cslope[p] + W[widx(m, m->cpost[p], n)];
            double vq = x * m->cslope[q] + W[widx(m, m->cpost[q], n)];
            if (vq <= vp)
                k++;
            else
                break;
        }
        int64_t p = hull[k];
        sum += m->ap[a] * (x * m->cslope[p] + W[widx(m, m->cpost[p], n)]);
    }
    return sum;
}

/* D(c, n) for a configuration with fewer than K jobs. */
static double decide(const hta_rp_mdp *m, const double *W, int64_t c,
                     int64_t n, int64_t *hull)
{
    double sum = 0;
    for (int g = 0; g < m->ngroups; g++) {
        int64_t lo = m->coff[c * m->ngroups + g];
        int64_t hi = m->coff[c * m->ngroups + g + 1];
        if (lo == hi)
            continue;
        sum += envelope(m, W, lo, hi, n, m->goff[g], m->goff[g + 1], hull);
    }
    return sum;
}

/* Odoni's bounds lo <= g <= hi within tol, relative. */
static int within(double lo, double hi, double tol)
{
    return hi - lo <= tol * fmax(fabs(hi), 1e-300);
}

hta_status hta_rp_mdp_solve(const hta_slots *s, const hta_rp_law *law, int K,
                            double lambda, double tol, int64_t max_iter,
                            volatile sig_atomic_t *stop, hta_rp_mdp *m,
                            hta_diag *d)
{
    memset(m, 0, sizeof *m);
    if (s->r > 30)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the optimal policy is computed for at most "
                            "30 slots, found %lld", (long long)s->r);
    if (K < 1 || (double)K * law->rmax > (double)s->r || !(lambda > 0) ||
        !(lambda < 1) || law->n < 1 || !(tol > 0) || max_iter < 1)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "optimal: expected K * (largest R) <= slots, "
                            "0 < lambda < 1, a law with atoms");
    m->K = K;
    m->r = (int)s->r;
    m->lambda = lambda;
    m->nmax = hta_rp_mdp_nmax(K, lambda);
    if (m->nmax > HTA_RP_MDP_MAX_QUEUE)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "optimal: lambda %g needs a queue of %lld "
                            "states, more than %lld",
                            lambda, (long long)m->nmax,
                            (long long)HTA_RP_MDP_MAX_QUEUE);
    m->cost = malloc((size_t)m->r * sizeof *m->cost);
    m->gR = malloc((size_t)law->ngroups * sizeof *m->gR);
    if (!m->cost || !m->gR) {
        hta_rp_mdp_free(m);
        return oom(d);
    }
    for (int i = 0; i < m->r; i++)
        m->cost[i] = s->rcost[hta_slots_run_of(s, i)];
    m->ngroups = law->ngroups;
    memcpy(m->gR, law->gR, (size_t)law->ngroups * sizeof *m->gR);
    m->goff = law->goff;
    m->ax = law->x;
    m->ap = law->p;
    hta_status st = enumerate(m, d);
    if (st != HTA_OK) {
        hta_rp_mdp_free(m);
        return st;
    }
    /* value and decision layouts */
    m->voff = malloc((size_t)m->ncfg * sizeof *m->voff);
    m->doff = malloc((size_t)m->ncfg * sizeof *m->doff);
    if (!m->voff || !m->doff) {
        hta_rp_mdp_free(m);
        return oom(d);
    }
    int64_t nv = 0, nd = 0, maxch = 1;
    for (int64_t c = 0; c < m->ncfg; c++) {
        m->voff[c] = nv;
        nv += m->njob[c] < K ? 1 : m->nmax - K + 1;
        m->doff[c] = nd;
        nd += m->njob[c] < K - 1    ? 1 :
              m->njob[c] == K - 1 ? m->nmax - K + 1 :
                                    0;
        for (int g = 0; g < m->ngroups; g++) {
            int64_t w = m->coff[c * m->ngroups + g + 1] -
                        m->coff[c * m->ngroups + g];
            if (w > maxch)
                maxch = w;
        }
    }
    if (nv > HTA_RP_MDP_MAX_STATES) {
        st = hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                          "the optimal policy's decision process has %lld "
                          "states, more than %lld: fewer slots, a smaller K "
                          "or lambda", (long long)nv,
                          (long long)HTA_RP_MDP_MAX_STATES);
        hta_rp_mdp_free(m);
        return st;
    }
    m->nstates = nv;
    m->W = calloc((size_t)nv, sizeof *m->W);
    double *T = calloc((size_t)nv, sizeof *T);
    double *D = calloc((size_t)nd + 1, sizeof *D);
    int64_t *hull = malloc((size_t)maxch * sizeof *hull);
    if (!m->W || !T || !D || !hull) {
        free(T);
        free(D);
        free(hull);
        hta_rp_mdp_free(m);
        return oom(d);
    }
    double Lam = lambda + 1;
    double lo = -INFINITY, hi = INFINITY;
    int64_t it;
    for (it = 0; it < max_iter; it++) {
        const double *W = m->W;
        int64_t cfg;
        for (cfg = 0; cfg < m->ncfg; cfg++) {
            /* the flag at each sweep's start and every 1024
               configurations (a sweep can take a second under the
               sanitizers); the empty configuration is one: ncfg >= 1 */
            if ((cfg & 1023) == 0 && stop && *stop)
                break;
            int j = m->njob[cfg];
            if (j < K - 1)
                D[m->doff[cfg]] = decide(m, W, cfg, j + 1, hull);
            else if (j == K - 1)
                for (int64_t n = K; n <= m->nmax; n++)
                    D[m->doff[cfg] + n - K] = decide(m, W, cfg, n, hull);
        }
        if (cfg < m->ncfg) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
            break;
        }
        lo = INFINITY;
        hi = -INFINITY;
        for (int64_t c = 0; c < m->ncfg; c++) {
            int j = m->njob[c];
            int64_t n0 = j < K ? j : K, n1 = j < K ? j : m->nmax;
            for (int64_t n = n0; n <= n1; n++) {
                int64_t v = widx(m, c, n);
                double t = 0;
                if (n < K)
                    t += lambda * D[m->doff[c]];
                else
                    t += lambda * W[widx(m, c, n < m->nmax ? n + 1 : n)];
                double self = Lam - lambda;
                if (n >= 1) {
                    self -= 1;
                    double dep = 0;
                    for (int q = 0; q < j; q++) {
                        int64_t ch = m->child[c * K + q];
                        if (n - 1 >= K)
                            dep += D[m->doff[ch] + (n - 1) - K];
                        else
                            dep += W[widx(m, ch, n - 1)];
                    }
                    t += dep / j;
                }
                t = (t + self * W[v]) / Lam;
                T[v] = t;
                double diff = t - W[v];
                if (diff < lo)
                    lo = diff;
                if (diff > hi)
                    hi = diff;
            }
        }
        double ref = T[0];
        for (int64_t v = 0; v < nv; v++)
            m->W[v] = T[v] - ref;
        if (it > 0 && within(lo * Lam / lambda, hi * Lam / lambda, tol)) {
            it++;
            break;
        }
    }
    free(T);
    free(D);
    free(hull);
    if (st != HTA_OK) {
        hta_rp_mdp_free(m);
        return st;
    }
    m->iters = it;
    m->cost_lo = lo * Lam / lambda; /* per job: Lambda * g_step / lambda */
    m->cost_hi = hi * Lam / lambda;
    m->converged = within(m->cost_lo, m->cost_hi, tol);
    return HTA_OK;
}

uint32_t hta_rp_mdp_choose(const hta_rp_mdp *m, const uint32_t *jobs,
                           int njobs, int64_t n, double x, int32_t R)
{
    uint32_t key[32] = {0}, tmp[32];
    int K = m->K;
    /* the configuration: the masks sorted decreasing */
    for (int i = 0; i < njobs; i++) {
        memcpy(tmp, key, (size_t)K * sizeof *key);
        cfg_add(tmp, K, jobs[i], key);
    }
    int64_t c = m->htab[cfg_slot(m, key)];
    if (c < 0)
        return 0;
    int g = 0;
    while (g < m->ngroups && m->gR[g] != R)
        g++;
    if (g == m->ngroups)
        return 0;
    int64_t lo = m->coff[c * m->ngroups + g];
    int64_t hi = m->coff[c * m->ngroups + g + 1];
    double best = INFINITY;
    uint32_t a = 0;
    for (int64_t i = lo; i < hi; i++) {
        double v = x * m->cslope[i] + m->W[widx(m, m->cpost[i], n)];
        if (v < best) {
            best = v;
            a = m->cmask[i];
        }
    }
    return a;
}
