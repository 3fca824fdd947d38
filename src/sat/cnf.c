/* CNF formulas: DIMACS, 3-CNF conversion, models. */
#include "hta/cnf.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

#include "hta/rng.h"
#include "hta/outfile.h"
#include "core/lex.h"

void hta_cnf_free(hta_cnf *f)
{
    if (!f)
        return;
    free(f->off);
    free(f->lits);
    free(f->line);
    free(f->fresh);
    free(f->fresh_clause);
    free(f->fresh_pos);
    free(f);
}

/* Growable clause storage. */
typedef struct builder {
    hta_cnf *f;
    int64_t nlits;
    size_t caplits, capoff, capline;
} builder;

static int push_lit(builder *b, int32_t lit)
{
    hta_cnf *f = b->f;
    if (!HTA_RESERVE(f->lits, b->caplits, (size_t)b->nlits + 1))
        return 0;
    f->lits[b->nlits++] = lit;
    return 1;
}

/* Ends the current clause: the literals pushed since the last end. */
static int end_clause(builder *b, long line)
{
    hta_cnf *f = b->f;
    size_t need = (size_t)f->nclauses + 2;
    if (!HTA_RESERVE(f->off, b->capoff, need) ||
        !HTA_RESERVE(f->line, b->capline, need))
        return 0;
    f->line[f->nclauses] = line;
    f->nclauses++;
    f->off[f->nclauses] = b->nlits;
    return 1;
}

static builder new_builder(hta_cnf *f)
{
    builder b = {f, 0, 0, 2, 2};
    return b;
}

static hta_cnf *alloc_cnf(void)
{
    hta_cnf *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->off = calloc(2, sizeof *f->off);
    f->line = calloc(2, sizeof *f->line);
    if (!f->off || !f->line) {
        hta_cnf_free(f);
        return NULL;
    }
    return f;
}

hta_status hta_cnf_parse(const char *path, hta_cnf **out, hta_diag *d)
{
    hta_lex lx;
    *out = NULL;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    lx.comment = 0;
    hta_cnf *f = alloc_cnf();
    builder b = new_builder(f);
    int64_t declared = -1, v, pending = 0;
    long clause_line = 0;
    if (!f) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
        goto cleanup;
    }
    for (;;) {
        if ((st = hta_lex_next(&lx, d)) != HTA_OK)
            goto cleanup;
        if (lx.ntok == 0)
            break;
        const char *t0 = lx.tok[0];
        if (t0[0] == 'c')
            continue; /* comment line */
        if (t0[0] == '%')
            break; /* SATLIB trailer */
        if (strcmp(t0, "p") == 0) {
            if (declared >= 0) {
                st = hta_lex_expected(&lx, "a clause (one 'p' header only)",
                                      t0, d);
                goto cleanup;
            }
            if (lx.ntok != 4 || strcmp(lx.tok[1], "cnf") != 0) {
                st = hta_lex_expected(&lx, "'p cnf <variables> <clauses>'",
                                      lx.ntok > 1 ? lx.tok[1] : NULL, d);
                goto cleanup;
            }
            if ((st = hta_lex_int(&lx, lx.tok[2], 0, 100000000,
                                  "a variable count", &v, d)) != HTA_OK)
                goto cleanup;
            f->nvars = (int32_t)v;
            if ((st = hta_lex_int(&lx, lx.tok[3], 0, 1000000000,
                                  "a clause count", &declared, d)) != HTA_OK)
                goto cleanup;
            continue;
        }
        if (declared < 0) {
            st = hta_lex_expected(&lx, "the header 'p cnf <variables> "
                                       "<clauses>'",
                                  t0, d);
            goto cleanup;
        }
        for (size_t i = 0; i < lx.ntok; i++) {
            if ((st = hta_lex_int(&lx, lx.tok[i], -(int64_t)f->nvars,
                                  f->nvars, "a literal", &v, d)) != HTA_OK)
                goto cleanup;
            if (v == 0) {
                if (f->nclauses >= declared) {
                    st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                                      "expected %lld clauses (the header), "
                                      "found more",
                                      (long long)declared);
                    goto cleanup;
                }
                if (!end_clause(&b, pending ? clause_line : lx.line)) {
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                      "out of memory");
                    goto cleanup;
                }
                pending = 0;
                continue;
            }
            if (!pending)
                clause_line = lx.line;
            pending++;
            if (!push_lit(&b, (int32_t)v)) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                  "out of memory");
                goto cleanup;
            }
        }
    }
    if (declared < 0) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected the header 'p cnf <variables> "
                          "<clauses>', found end of file");
        goto cleanup;
    }
    /* A last clause without its 0 is unambiguous: accept it. */
    if (pending && f->nclauses < declared &&
        !end_clause(&b, clause_line)) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
        goto cleanup;
    }
    if (pending && f->nclauses > declared) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected %lld clauses (the header), found more",
                          (long long)declared);
        goto cleanup;
    }
    if (f->nclauses != declared) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected %lld clauses (the header), found %lld",
                          (long long)declared, (long long)f->nclauses);
        goto cleanup;
    }
    f->orig_vars = f->nvars;
    for (int64_t c = 0; c < f->nclauses; c++)
        f->empty_clause |= f->off[c] == f->off[c + 1];
    *out = f;
    f = NULL;
cleanup:
    hta_cnf_free(f);
    hta_lex_free(&lx);
    return st;
}

/* ---- 3-CNF ------------------------------------------------------------- */

typedef struct conv {
    builder b;
    size_t capkind, capclause, cappos;
} conv;

static int32_t new_var(conv *cv, hta_fresh_kind kind, int64_t clause,
                       int32_t pos)
{
    hta_cnf *f = cv->b.f;
    int32_t k = f->nvars - f->orig_vars; /* index of the new fresh var */
    size_t need = (size_t)k + 1;
    if (!HTA_RESERVE(f->fresh, cv->capkind, need) ||
        !HTA_RESERVE(f->fresh_clause, cv->capclause, need) ||
        !HTA_RESERVE(f->fresh_pos, cv->cappos, need))
        return 0;
    f->fresh[k] = kind;
    f->fresh_clause[k] = clause;
    f->fresh_pos[k] = pos;
    return ++f->nvars;
}

static int clause3(conv *cv, int32_t a, int32_t b, int32_t c, long line)
{
    return push_lit(&cv->b, a) && push_lit(&cv->b, b) &&
           push_lit(&cv->b, c) && end_clause(&cv->b, line);
}

/* (a) as four 3-clauses over two fresh variables. */
static int unit3(conv *cv, int32_t a, int64_t clause, long line)
{
    int32_t y = new_var(cv, HTA_FRESH_FREE, clause, 0);
    int32_t z = y ? new_var(cv, HTA_FRESH_FREE, clause, 0) : 0;
    return z && clause3(cv, a, y, z, line) && clause3(cv, a, y, -z, line) &&
           clause3(cv, a, -y, z, line) && clause3(cv, a, -y, -z, line);
}

hta_status hta_cnf_to3(const hta_cnf *in, hta_cnf **out, hta_diag *d)
{
    *out = NULL;
    hta_cnf *f = alloc_cnf();
    if (!f)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    conv cv = {new_builder(f), 0, 0, 0};
    f->nvars = f->orig_vars = in->nvars;
    f->empty_clause = in->empty_clause;
    int ok = 1;
    for (int64_t c = 0; c < in->nclauses && ok; c++) {
        int64_t k = in->off[c + 1] - in->off[c];
        /* a formula of empty clauses only has no literal array */
        const int32_t *l = k ? in->lits + in->off[c] : NULL;
        long line = in->line[c];
        if (k == 0) {
            int32_t y = new_var(&cv, HTA_FRESH_FREE, c, 0);
            ok = y && unit3(&cv, y, c, line) && unit3(&cv, -y, c, line);
        } else if (k == 1) {
            ok = unit3(&cv, l[0], c, line);
        } else if (k == 2) {
            int32_t y = new_var(&cv, HTA_FRESH_FREE, c, 0);
            ok = y && clause3(&cv, l[0], l[1], y, line) &&
                 clause3(&cv, l[0], l[1], -y, line);
        } else if (k == 3) {
            ok = clause3(&cv, l[0], l[1], l[2], line);
        } else {
            /* y_j true iff l[0..j] are all false (j = 1..k-3) */
            int32_t prev = new_var(&cv, HTA_FRESH_CHAIN, c, 1);
            ok = prev && clause3(&cv, l[0], l[1], prev, line);
            for (int64_t j = 2; ok && j < k - 2; j++) {
                int32_t y = new_var(&cv, HTA_FRESH_CHAIN, c, (int32_t)j);
                ok = y && clause3(&cv, -prev, l[j], y, line);
                prev = y;
            }
            ok = ok && clause3(&cv, -prev, l[k - 2], l[k - 1], line);
        }
    }
    if (!ok) {
        hta_cnf_free(f);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    *out = f;
    return HTA_OK;
}

void hta_cnf_extend_model(const hta_cnf *f3, const hta_cnf *orig,
                          signed char *model)
{
    for (int32_t v = f3->orig_vars + 1; v <= f3->nvars; v++) {
        int32_t k = v - f3->orig_vars - 1;
        model[v] = 0;
        if (f3->fresh[k] != HTA_FRESH_CHAIN)
            continue;
        const int32_t *l = orig->lits + orig->off[f3->fresh_clause[k]];
        int all_false = 1;
        for (int32_t j = 0; j <= f3->fresh_pos[k]; j++) {
            int32_t x = l[j] > 0 ? l[j] : -l[j];
            all_false &= (model[x] != 0) != (l[j] > 0);
        }
        model[v] = (signed char)all_false;
    }
}

int64_t hta_cnf_first_false(const hta_cnf *f, const signed char *model)
{
    for (int64_t c = 0; c < f->nclauses; c++) {
        int sat = 0;
        for (int64_t i = f->off[c]; i < f->off[c + 1] && !sat; i++) {
            int32_t l = f->lits[i];
            sat = l > 0 ? model[l] != 0 : model[-l] == 0;
        }
        if (!sat)
            return c;
    }
    return -1;
}

/* ---- models ------------------------------------------------------------ */

hta_status hta_model_parse(const char *path, int32_t nvars,
                           signed char **out, hta_diag *d)
{
    hta_lex lx;
    *out = NULL;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    lx.comment = 0;
    signed char *m = calloc((size_t)nvars + 1, 1);
    signed char *given = calloc((size_t)nvars + 1, 1); /* sign seen */
    int seen_any = 0;
    if (!m || !given) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
        goto cleanup;
    }
    for (;;) {
        if ((st = hta_lex_next(&lx, d)) != HTA_OK)
            goto cleanup;
        if (lx.ntok == 0)
            break;
        const char *t0 = lx.tok[0];
        size_t first = 0;
        if (strcmp(t0, "c") == 0)
            continue;
        if (strcmp(t0, "s") == 0 || strcmp(t0, "SAT") == 0 ||
            strcmp(t0, "UNSAT") == 0 || strcmp(t0, "UNSATISFIABLE") == 0) {
            const char *word = strcmp(t0, "s") == 0 && lx.ntok > 1 ?
                                   lx.tok[1] :
                                   t0;
            if (strstr(word, "UNSAT")) {
                st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                                  "expected a model, found '%s': the "
                                  "solver says the formula is "
                                  "unsatisfiable",
                                  word);
                goto cleanup;
            }
            continue;
        }
        if (strcmp(t0, "v") == 0)
            first = 1;
        for (size_t i = first; i < lx.ntok; i++) {
            int64_t v;
            if ((st = hta_lex_int(&lx, lx.tok[i], -(int64_t)nvars, nvars,
                                  "a literal", &v, d)) != HTA_OK)
                goto cleanup;
            if (v == 0) {
                seen_any = 1;
                continue;
            }
            /* a variable given both signs is no model */
            int64_t x = v > 0 ? v : -v;
            signed char sign = v > 0 ? 1 : -1;
            if (given[x] && given[x] != sign) {
                st = hta_lex_expected(&lx, "each variable with one sign, "
                                           "literal",
                                      lx.tok[i], d);
                goto cleanup;
            }
            given[x] = sign;
            m[x] = v > 0;
            seen_any = 1;
        }
    }
    if (!seen_any) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected 'v' lines with a model, found none");
        goto cleanup;
    }
    *out = m;
    m = NULL;
cleanup:
    free(m);
    free(given);
    hta_lex_free(&lx);
    return st;
}

void hta_model_write(FILE *f, const signed char *model, int32_t nvars)
{
    fputs("s SATISFIABLE\nv", f);
    int col = 1;
    for (int32_t v = 1; v <= nvars; v++) {
        if (col > 70) {
            fputs("\nv", f);
            col = 1;
        }
        col += fprintf(f, " %s%ld", model[v] ? "" : "-", (long)v);
    }
    fputs(" 0\n", f);
}

hta_status hta_cnf_random3(int32_t vars, int64_t clauses, uint64_t seed,
                           hta_cnf **out, hta_diag *d)
{
    *out = NULL;
    if (vars < 3 || clauses < 1)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least 3 variables and 1 clause");
    hta_cnf *f = alloc_cnf();
    if (!f)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    builder b = new_builder(f);
    f->nvars = f->orig_vars = vars;
    hta_rng r;
    hta_rng_seed(&r, seed);
    for (int64_t c = 0; c < clauses; c++) {
        int32_t x[3];
        for (int i = 0; i < 3; i++) {
            int dup;
            do {
                x[i] = 1 + (int32_t)hta_rng_below(&r, (uint64_t)vars);
                dup = 0;
                for (int j = 0; j < i; j++)
                    dup |= x[j] == x[i];
            } while (dup);
            if (!push_lit(&b, hta_rng_below(&r, 2) ? x[i] : -x[i])) {
                hta_cnf_free(f);
                return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                    "out of memory");
            }
        }
        if (!end_clause(&b, 0)) {
            hta_cnf_free(f);
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        }
    }
    *out = f;
    return HTA_OK;
}

hta_status hta_cnf_write(const hta_cnf *f, FILE *out, const char *comment)
{
    hta_write_comment(out, 'c', comment);
    fprintf(out, "p cnf %ld %lld\n", (long)f->nvars, (long long)f->nclauses);
    for (int64_t c = 0; c < f->nclauses; c++) {
        for (int64_t i = f->off[c]; i < f->off[c + 1]; i++)
            fprintf(out, "%ld ", (long)f->lits[i]);
        fputs("0\n", out);
    }
    return ferror(out) ? HTA_ERR_IO : HTA_OK;
}
