/* The general decision (satdec.h): any non-decreasing w_rem.  The
 * remote count is cut into pieces on which every server's room is
 * constant; each piece is decided by GLPK on the envelope-cut model
 * (envilp.h) and by CaDiCaL on the deficit encoding (satdec.c), as
 * opts.engine says. */
#include "exact/satdec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/num.h"
#include "core/buf.h"
#include "envilp.h"
#include "satdec_impl.h"

int hta_satdec_applies_general(const hta_instance *inst, char *why,
                               size_t size)
{
    const char *r = NULL;
    if (hta_wrem_at(&inst->wrem, 0) < inst->w_loc)
        r = "w_rem is below w_loc";
    else if (!(inst->w_loc > 0))
        r = "w_loc is 0";
    if (r && why)
        snprintf(why, size, "%s", r);
    return r == NULL;
}

/* The remote slots room[v] of v local tasks at remote count R (strict:
 * below L), v = 0..U; the same arithmetic as the evaluator. */
static void rooms(const hta_instance *inst, int64_t U, int64_t R, double L,
                  int strict, int64_t *room)
{
    double c = hta_wrem_at(&inst->wrem, R);
    for (int64_t v = 0; v <= U; v++) {
        int64_t j = hta_room_remote(inst, v, c, L, strict);
        room[v] = j < 0 ? 0 : j;
    }
}

/* The last R in [R0, m] whose rooms equal those at R0 (ref): each room
 * only falls as R grows (w_rem non-decreasing), so "equal" holds on an
 * interval. */
static int64_t piece_end(const hta_instance *inst, int64_t U, int64_t R0,
                         double L, int strict, const int64_t *ref,
                         int64_t *tmp)
{
    int64_t lo = R0, hi = inst->m;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        rooms(inst, U, mid, L, strict, tmp);
        if (memcmp(tmp, ref, ((size_t)U + 1) * sizeof *tmp) == 0)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The piece of the remote count starting at R: its rooms into room and
 * its last count into *end; 0 when no server has a remote slot and R >=
 * 1 (nothing fits from R on: the rooms only shrink). */
static int piece_at(const hta_instance *inst, int64_t U, int64_t R,
                    double L, int strict, int64_t *room, int64_t *tmp,
                    int64_t *end)
{
    rooms(inst, U, R, L, strict, room);
    int any = R == 0;
    for (int64_t v = 0; v <= U && !any; v++)
        any = room[v] > 0;
    if (any)
        *end = piece_end(inst, U, R, L, strict, room, tmp);
    return any;
}

/* GLPK's solutions into assignments: realise with the piece's rooms. */
typedef struct glpk_ctx {
    const hta_instance *inst;
    const spec *sp;
    sd *z;
    double L;
    int strict;
    int32_t *assign;
    hta_satdec_result *res;
} glpk_ctx;

static int glpk_realise(void *arg, const unsigned char *on, hta_status *st,
                        hta_diag *d)
{
    glpk_ctx *g = arg;
    *st = satdec_realise(g->inst, on, g->sp, g->z, g->L, g->strict, g->assign,
                  g->res, d);
    if (*st != HTA_OK)
        return -1;
    return g->res->answer == HTA_SATDEC_YES;
}

/* The general decision by GLPK (envilp.h), until deadline: from R = m - M
 * up, the piece's rooms stand for every R' >= R, so a model without
 * solution refutes them all; a solution beyond the piece's last count
 * that does not realise restricts the model to the piece, whose
 * refutation moves on to the next piece. */
static hta_status decide_glpk(const hta_instance *inst, int64_t U,
                              int64_t M, double L, int strict,
                              double deadline, const hta_satdec_opts *opts,
                              sd *z, int64_t *room, int64_t *tmp,
                              int32_t *assign, hta_satdec_result *res,
                              hta_diag *d)
{
    int32_t m = inst->m;
    int64_t R = m - M, end;
    res->answer = HTA_SATDEC_NO;
    while (R <= m) {
        if (!piece_at(inst, U, R, L, strict, room, tmp, &end)) {
            res->glpk = 1;
            return HTA_OK;
        }
        spec sp = {U, 0, 1, 0, 0, NULL, room, 1};
        hta_satdec_result one = *res;
        one.answer = HTA_SATDEC_UNKNOWN;
        glpk_ctx g = {inst, &sp, z, L, strict, assign, &one};
        hta_envilp_piece pc = {U, room, R, end};
        hta_envilp_result er;
        char what[160];
        snprintf(what, sizeof what,
                 "hta: makespan %s %.17g, remote count >= %lld: "
                 "infeasible refutes it (satdec.h)",
                 strict ? "<" : "<=", L, (long long)R);
        hta_status st = hta_envilp_decide(
            inst, &pc, deadline, opts->stop, z->on, glpk_realise, &g,
            R == m - M ? opts->write_lp : NULL, what, &er, d);
        res->lp_written |= er.lp_written;
        res->pieces++;
        res->glpk_solves += er.solves;
        res->blocked += er.blocked;
        if (st != HTA_OK)
            return st;
        switch (er.answer) {
        case HTA_ENVILP_YES:
            res->answer = HTA_SATDEC_YES;
            res->makespan = one.makespan;
            res->matched = one.matched;
            res->glpk = 1;
            return HTA_OK;
        case HTA_ENVILP_NO:
            res->glpk = 1;
            return HTA_OK;
        case HTA_ENVILP_NO_TIGHT:
            R = end + 1;
            break;
        case HTA_ENVILP_NA:
            res->answer = HTA_SATDEC_NA;
            snprintf(res->why, sizeof res->why, "%s", er.why);
            return HTA_OK;
        default:
            res->answer = HTA_SATDEC_UNKNOWN;
            return HTA_OK;
        }
    }
    res->glpk = 1;
    return HTA_OK;
}

hta_status hta_satdec_decide_general(const hta_instance *inst, double L,
                                     int strict, const hta_satdec_opts *opts,
                                     int32_t *assign, hta_satdec_result *res,
                                     hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->answer = HTA_SATDEC_NA;
    res->makespan = NAN;
    double t0 = hta_clock_now();
    if (!hta_satdec_applies_general(inst, res->why, sizeof res->why))
        return HTA_OK;
    if (!isfinite(L) || L < 0) {
        snprintf(res->why, sizeof res->why, "L is not a finite value >= 0");
        return HTA_OK;
    }
    int32_t m = inst->m, n = inst->n;
    int64_t U = hta_room_local(inst, L, strict);
    int64_t *tab = malloc(4 * ((size_t)U + 1) * sizeof *tab);
    if (!tab)
        return OOM(d);
    int64_t *room = tab, *r = tab + U + 1, *tmp = tab + 2 * (U + 1);
    sd z;
    int64_t M = 0;
    enc cert;
    memset(&cert, 0, sizeof cert);
    cert.max_lits = opts->cnf ? (size_t)(opts->max_lits > 0 ?
                                             opts->max_lits :
                                             HTA_SATDEC_MAX_LITS) : 0;
    int *sel = NULL;
    size_t nsel = 0, capsel = 0;
    hta_status st = satdec_prepare(inst, U, opts, &z, &M, res, d);
    int engine = opts->cnf ? HTA_SATDEC_CADICAL : opts->engine;
    char glpk_why[96] = "";
    if (st == HTA_OK && engine != HTA_SATDEC_CADICAL) {
        double share = engine == HTA_SATDEC_GLPK ? 1.0 : 0.5;
        hta_satdec_result g = *res;
        st = decide_glpk(inst, U, M, L, strict,
                         t0 + share * opts->time_limit, opts, &z, room,
                         tmp, assign, &g, d);
        if (st != HTA_OK || g.answer == HTA_SATDEC_YES ||
            g.answer == HTA_SATDEC_NO || engine == HTA_SATDEC_GLPK) {
            *res = g;
            res->seconds_solve = hta_clock_now() - t0;
            satdec_sd_free(&z, n);
            free(tab);
            return st;
        }
        res->glpk_solves = g.glpk_solves; /* then CaDiCaL */
        if (g.answer == HTA_SATDEC_NA)
            snprintf(glpk_why, sizeof glpk_why, "%.90s", g.why);
    }
    int after_glpk = engine == HTA_SATDEC_AUTO;
    /* the remote count R = m - sum k runs from m - M up; the rooms are
     * constant on pieces of it, each decided with at most its last R */
    int64_t R = m - M;
    res->answer = HTA_SATDEC_NO;
    hta_satdec_result one = *res;
    while (st == HTA_OK && R <= m) {
        if ((opts->stop && *opts->stop) ||
            hta_clock_now() - t0 > opts->time_limit) {
            res->answer = HTA_SATDEC_UNKNOWN;
            break;
        }
        int64_t end;
        if (!piece_at(inst, U, R, L, strict, room, tmp, &end))
            break;
        /* B g(v) = (B - 1) v + Lt - r(v), B the integer part of the
         * piece's remote cost over w_loc (at least 1), Lt the least
         * value with every r(v) >= 0 */
        double cr = hta_wrem_at(&inst->wrem, end) / inst->w_loc;
        int64_t B = cr >= 1 && cr < 0x1p40 ? (int64_t)cr : 1, Lt = 0;
        for (int64_t v = 0; v <= U; v++)
            if (v + B * room[v] > Lt)
                Lt = v + B * room[v];
        for (int64_t v = 0; v <= U; v++)
            r[v] = Lt - v - B * room[v];
        spec sp = {U, B - 1, B, Lt, end - (m - M), r, room, 1};
        one.vars = one.clauses = 0;
        one.why[0] = 0;
        st = satdec_run_spec(inst, &sp, &z, M, L, strict, opts, t0, NULL,
                      opts->cnf ? &cert : NULL, &sel, &nsel, &capsel, assign,
                      &one, d);
        res->pieces++;
        res->vars += one.vars;
        res->blocked = one.blocked;
        res->matched = one.matched;
        res->clauses += one.clauses;
        res->seconds_solve = one.seconds_solve;
        if (one.slack > res->slack || res->pieces == 1)
            res->slack = one.slack;
        if (st != HTA_OK)
            break;
        if (one.answer == HTA_SATDEC_YES) {
            res->answer = HTA_SATDEC_YES;
            res->makespan = one.makespan;
            break;
        }
        if (one.answer != HTA_SATDEC_NO) {
            res->answer = one.answer;
            snprintf(res->why, sizeof res->why, "%s", one.why);
            break;
        }
        R = end + 1;
    }
    if (st == HTA_OK && opts->cnf && (res->answer == HTA_SATDEC_NO ||
                                      res->answer == HTA_SATDEC_YES)) {
        if (cert.nomem) {
            st = OOM(d);
        } else if (cert.full) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "the CNF of the pieces exceeds %lld literals",
                              (long long)cert.max_lits);
        } else {
            /* some piece holds (none at all: the empty clause) */
            if (!HTA_RESERVE(sel, capsel, nsel + 1)) {
                st = OOM(d);
            } else {
                enc_clause(&cert, sel, (int)nsel);
                char what[96];
                snprintf(what, sizeof what,
                         "makespan %s %.17g, %lld pieces of the remote count",
                         strict ? "<" : "<=", L, (long long)res->pieces);
                st = cert.nomem ? OOM(d) :
                                  satdec_write_cnf(opts->cnf, what, &cert, d);
            }
        }
    }
    if (res->answer == HTA_SATDEC_NA && after_glpk) {
        char why[sizeof res->why];
        if (glpk_why[0])
            snprintf(why, sizeof why, "%.60s; %.90s", glpk_why, res->why);
        else
            snprintf(why, sizeof why, "GLPK undecided in half the time, "
                     "then %.100s", res->why);
        memcpy(res->why, why, sizeof why);
    }
    res->seconds_encode = hta_clock_now() - t0 - res->seconds_solve;
    satdec_sd_free(&z, n);
    free(cert.lit);
    free(sel);
    free(tab);
    return st;
}

