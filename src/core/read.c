/* The instance reader, format v1 (README, hta(1) FILES): the lexer's
 * general path and the fast path for plain task lines (windows of lines
 * read by two threads), task lines in or out of order, names, racks and
 * w_level lines applied once the file is read; every error at its line
 * (instance.h). */
#include "hta/instance.h"

#include <stdlib.h>
#include <string.h>

#include "hta/gate.h"
#include "hta/levels.h"
#include "hta/num.h"
#include "core/buf.h"
#include "core/lex.h"
#include "instance_impl.h"
#include "levels_apply.h"

/* ---- parser ---------------------------------------------------------- */

/* Task lines in task order (0, 1, 2, ...: what every writer of the
 * format produces) go straight into the task side of the placement graph:
 * the offsets grow with the lines read, the servers are read into what
 * becomes the instance's array, nothing is copied.  From the first line
 * out of that order on, task lines are kept as records in file order and
 * put in task order once the whole file is read.  Either way memory
 * follows the lines read, never a header count. */
typedef struct record {
    int64_t start; /* offset of the servers in raw */
    int32_t id, deg;
    long line;
} record;

/* A name line, kept until the whole file is read. */
typedef struct name_line {
    char *name; /* owned */
    long line;
    int32_t id;
    char kind;  /* 't', 's' or 'r' */
} name_line;

typedef struct parser {
    hta_lex lx;
    hta_instance *inst;
    record *rec;     /* task lines, in file order (once out of order) */
    int64_t nrec;    /* task lines read */
    int64_t *toff;   /* while in order: where task t's servers start */
    int in_order;    /* every task line so far is task nrec's */
    int fast;        /* task lines by fast_line where they can be */
    int missed;      /* task lines fast_line left since it last took one */
    int clean;       /* the last fast window was taken whole */
    int sized;       /* toff and raw reserved for the whole file */
    struct parser *w; /* the second thread's lines (fast_window), or NULL */
    name_line *names; /* name and rack lines, in file order */
    hta_wrem wlev[HTA_MAX_LEVELS]; /* w_level lines, by level */
    long wlev_line[HTA_MAX_LEVELS]; /* their lines (0: none) */
    int64_t nnames;
    size_t cap_names;
    int64_t k;       /* 1 + the largest server id named by any line */
    int32_t *raw;    /* servers of all task lines, in file order */
    int32_t *sorted; /* the current line's servers, sorted */
    int64_t nraw;
    size_t cap_rec, cap_toff, capraw, cap_sorted;
} parser;

/* p, whose block holds at least size bytes, cut to size when the
 * allocator can (the growable arrays end with up to half unused). */
static void *shrink(void *p, size_t size)
{
    void *q = realloc(p, size);
    return q ? q : p;
}

/* Leaves the in-order mode: records for the tasks read so far.  Their
 * line numbers are not kept; i + 1 stands for task i's, which is no
 * later than its line and earlier than any other line of the same id,
 * all that check_tasks reads of a first occurrence. */
static int leave_order(parser *p)
{
    p->in_order = 0;
    if (!HTA_RESERVE(p->rec, p->cap_rec, (size_t)p->nrec + 1))
        return 0;
    for (int64_t i = 0; i < p->nrec; i++) {
        int64_t end = i + 1 < p->nrec ? p->toff[i + 1] : p->nraw;
        p->rec[i] = (record){p->toff[i], (int32_t)i,
                             (int32_t)(end - p->toff[i]), (long)i + 1};
    }
    free(p->toff);
    p->toff = NULL;
    p->cap_toff = 0;
    return 1;
}

static hta_status expect_eol(parser *p, size_t ntok, const char *after,
                             hta_diag *d)
{
    if (p->lx.ntok > ntok) {
        char what[128];
        snprintf(what, sizeof what, "end of line after %s", after);
        return hta_lex_expected(&p->lx, what, p->lx.tok[ntok], d);
    }
    return HTA_OK;
}

/* Reads the next line and checks that it starts with keyword. */
static hta_status header_line(parser *p, const char *keyword, size_t min_tok,
                              const char *what, hta_diag *d)
{
    hta_status st = hta_lex_next(&p->lx, d);
    if (st != HTA_OK)
        return st;
    if (p->lx.ntok == 0)
        return hta_diag_set(d, HTA_ERR_INPUT, p->lx.path, p->lx.line,
                            "expected a '%s' line, found end of file",
                            keyword);
    if (strcmp(p->lx.tok[0], keyword) != 0) {
        char want[64];
        snprintf(want, sizeof want, "a '%s' line", keyword);
        return hta_lex_expected(&p->lx, want, p->lx.tok[0], d);
    }
    if (p->lx.ntok < min_tok)
        return hta_lex_expected(&p->lx, what, NULL, d);
    return HTA_OK;
}

/* A cost function of a count from tokens first.. of the line: values (a
 * table) or 'affine a b'; name ("w_rem", "w_level 2") in messages.  The
 * tokens' syntax is checked here (of any sign), the values' rules by the
 * gate (gate.h), which every other way in calls too. */
static hta_status parse_cost(parser *p, hta_wrem *w, size_t first,
                             const char *name, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    double w_loc = p->inst->w_loc;
    hta_status st;
    char what[96];
    if (lx->ntok <= first)
        return hta_lex_expected(lx, "cost values or 'affine'", NULL, d);
    if (strcmp(lx->tok[first], "affine") == 0) {
        w->kind = HTA_WREM_AFFINE;
        snprintf(what, sizeof what, "%s affine <a> <b>", name);
        if (lx->ntok < first + 3)
            return hta_lex_expected(lx, what, NULL, d);
        if ((st = hta_lex_real(lx, lx->tok[first + 1], -1,
                               "a number a >= w_loc", &w->a, d)) != HTA_OK ||
            (st = hta_lex_real(lx, lx->tok[first + 2], -1, "a slope b >= 0",
                               &w->b, d)) != HTA_OK ||
            (st = hta_gate_cost(w_loc, w, p->inst->m, name,
                                (const char *const *)lx->tok + first + 1,
                                lx->path, lx->line, d)) != HTA_OK)
            return st;
        return expect_eol(p, first + 3, what, d);
    }
    w->kind = HTA_WREM_TABLE;
    w->k = (int64_t)(lx->ntok - first) - 1;
    /* the gate says the same; checked before the table is allocated */
    if (w->k + 1 > HTA_MAX_WREM_TABLE)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected at most %lld %s values, found %lld",
                            HTA_MAX_WREM_TABLE, name, (long long)w->k + 1);
    w->v = malloc(((size_t)w->k + 1) * sizeof *w->v);
    if (!w->v)
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory");
    snprintf(what, sizeof what, "a %s value", name);
    for (int64_t i = 0; i <= w->k; i++)
        if ((st = hta_lex_real(lx, lx->tok[first + (size_t)i], -1, what,
                               &w->v[i], d)) != HTA_OK)
            return st;
    return hta_gate_cost(w_loc, w, p->inst->m, name,
                         (const char *const *)lx->tok + first, lx->path,
                         lx->line, d);
}

static hta_status parse_wrem(parser *p, hta_diag *d)
{
    return parse_cost(p, &p->inst->wrem, 1, "w_rem", d);
}

/* "w_level L <values> | affine a b": the cost of level L (levels.h);
 * the levels are checked once the racks are known (apply_levels). */
static hta_status parse_wlevel(parser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    int64_t l;
    hta_status st;
    if (lx->ntok < 2)
        return hta_lex_expected(lx, "a level after 'w_level'", NULL, d);
    if ((st = hta_lex_int(lx, lx->tok[1], 2, HTA_MAX_LEVELS - 1,
                          "a level between local (1) and remote", &l, d)) !=
        HTA_OK)
        return st;
    if (p->wlev_line[l]) {
        char what[64];
        snprintf(what, sizeof what,
                 "one w_level line per level (level %lld is on line %ld)",
                 (long long)l, p->wlev_line[l]);
        return hta_lex_expected(lx, what, lx->tok[1], d);
    }
    char name[24];
    snprintf(name, sizeof name, "w_level %lld", (long long)l);
    p->wlev_line[l] = lx->line;
    return parse_cost(p, &p->wlev[l], 2, name, d);
}

/* Room for one more task line of k servers (parse_task, fast_line). */
static int line_room(parser *p, size_t k)
{
    return HTA_RESERVE(p->raw, p->capraw, (size_t)p->nraw + k + 1) &&
           HTA_RESERVE(p->sorted, p->cap_sorted, k) &&
           (p->in_order ?
                HTA_RESERVE(p->toff, p->cap_toff, (size_t)p->nrec + 2) :
                HTA_RESERVE(p->rec, p->cap_rec, (size_t)p->nrec + 1));
}

static hta_status parse_task(parser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_instance *inst = p->inst;
    int64_t t, s;
    hta_status st;
    if (lx->ntok < 2)
        return hta_lex_expected(lx, "a task id", NULL, d);
    if ((st = hta_lex_int(lx, lx->tok[1], 0, inst->m - 1, "a task id", &t,
                          d)) != HTA_OK)
        return st;
    if (lx->ntok < 3)
        return hta_lex_expected(lx, "at least one server id", NULL, d);
    size_t k = lx->ntok - 2;
    if (p->in_order && t != p->nrec && !leave_order(p))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory");
    if (!line_room(p, k))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory");
    for (size_t i = 0; i < k; i++) {
        if ((st = hta_lex_int(lx, lx->tok[i + 2], 0, inst->n - 1,
                              "a server id", &s, d)) != HTA_OK)
            return st;
        p->raw[p->nraw + (int64_t)i] = (int32_t)s;
        p->k = s + 1 > p->k ? s + 1 : p->k;
    }
    /* Distinct servers: a sorted copy of the line, not a per-server
     * array, so memory follows the line. */
    int64_t rep = hta_first_repeat(p->raw + p->nraw, p->sorted, (int64_t)k);
    if (rep >= 0)
        return hta_lex_expected(lx, "distinct servers on a task line, "
                                    "server id",
                                lx->tok[rep + 2], d);
    if (p->in_order)
        p->toff[p->nrec++] = p->nraw;
    else
        p->rec[p->nrec++] = (record){p->nraw, (int32_t)t, (int32_t)k,
                                     lx->line};
    p->nraw += (int64_t)k;
    return HTA_OK;
}

/* A decimal id of at most 10 digits at q, at most hi, ending the line
 * or before a space: the position after it, or NULL. */
static const char *fast_id(const char *q, const char *end, int64_t hi,
                           int64_t *out)
{
    const char *start = q;
    uint64_t v = 0;
    while (q < end && q - start < 10 && (unsigned char)(*q - '0') <= 9)
        v = v * 10 + (uint64_t)(*q++ - '0');
    if (q == start || (q < end && *q != ' ') || v > (uint64_t)hi)
        return NULL;
    *out = (int64_t)v;
    return q;
}

#define FAST_MISSES 64

/* The fast path of task lines, the bulk of an instance: a line of
 * exactly "task" and decimal ids of at most 10 digits, each after one
 * space, the task id the next in order, is parsed in place in the read
 * buffer (hta_lex_window), without the general path's copy of the line,
 * its split into tokens and a conversion per token.  Any other line, or
 * one that breaks a rule (a range, a repeated server), is left to the
 * general path (parse_task), which reads it as before: the same
 * instance and the same diagnostics (test_instance compares both paths
 * on every corpus file and on mutated instances).  An id of digits only
 * is what hta_num_int reads as that number, leading zeros included.
 * Reading 10^6 tasks 0.091 -> 0.053 s, 10^7 tasks 1.05 -> 0.62 s (side
 * by side, medians).
 *
 * fast_line reads the line [s, end) (end at its '\n') into q's arrays
 * when its task is *base + q->nrec (*base < 0: any task, which sets
 * *base).  Returns 1 when it took the line, 0 when it left a task line,
 * -1 when the line is no task line. */
static int fast_line(parser *q, int64_t *base, const char *s,
                     const char *end)
{
    size_t len = (size_t)(end - s);
    if (len < 8 || memcmp(s, "task ", 5) != 0)
        return -1;
    const char *c = s + 5;
    size_t most = (len - 5) / 2 + 1; /* servers the line can hold */
    int64_t t, id, k = 0, top = q->k;
    if (!(c = fast_id(c, end, (int64_t)q->inst->m - 1, &t)) ||
        (*base >= 0 && t != *base + q->nrec) || c == end ||
        !line_room(q, most))
        return 0; /* out of memory too: the general path says so */
    int32_t *dst = q->raw + q->nraw;
    while (c < end) { /* at a space */
        if (!(c = fast_id(c + 1, end, (int64_t)q->inst->n - 1, &id)))
            return 0;
        dst[k++] = (int32_t)id;
        top = id + 1 > top ? id + 1 : top;
    }
    if (hta_first_repeat(dst, q->sorted, k) >= 0)
        return 0;
    if (*base < 0)
        *base = t;
    q->toff[q->nrec++] = q->nraw;
    q->nraw += k;
    q->k = top;
    return 1;
}

/* Whole lines [s, e) by fast_line, until the first it does not take. */
typedef struct fast_job {
    parser *q;
    const char *s, *e;
    int64_t base;  /* as fast_line's */
    size_t bytes;  /* out: bytes of the lines taken */
    long lines;    /* out: lines taken */
    int stop;      /* out: fast_line's answer on the line it stopped at */
} fast_job;

static void *fast_run(void *arg)
{
    /* locals, not the job's fields: the two threads' jobs share a cache
       line */
    fast_job *j = arg;
    const char *s = j->s, *e = j->e;
    int64_t base = j->base;
    long lines = 0;
    int stop = 1;
    while (s < e) {
        const char *eol = memchr(s, '\n', (size_t)(e - s));
        if ((stop = fast_line(j->q, &base, s, eol)) != 1)
            break;
        s = eol + 1;
        lines++;
    }
    j->base = base;
    j->lines = lines;
    j->stop = stop;
    j->bytes = (size_t)(s - j->s);
    return NULL;
}

/* Appends the lines the second thread read (w, tasks from p->nrec on) to
 * p's; 0 when out of memory (they are left to the general path). */
static int fast_merge(parser *p, const parser *w)
{
    if (!HTA_RESERVE(p->raw, p->capraw, (size_t)(p->nraw + w->nraw) + 1) ||
        !HTA_RESERVE(p->toff, p->cap_toff, (size_t)(p->nrec + w->nrec) + 2))
        return 0;
    memcpy(p->raw + p->nraw, w->raw, (size_t)w->nraw * sizeof *w->raw);
    for (int64_t i = 0; i < w->nrec; i++)
        p->toff[p->nrec + i] = p->nraw + w->toff[i];
    p->nrec += w->nrec;
    p->nraw += w->nraw;
    p->k = w->k > p->k ? w->k : p->k;
    return 1;
}

/* After the first window the fast path took lines from (bytes of them),
 * the offsets and the replicas reserved for the whole file at that
 * window's rate, 1/16 more: grown by doubling from 16 entries instead,
 * each of the two arrays moved some 18 times, and each move left a
 * part-filled huge page behind in small pages (hta_huge_hint).  Only
 * address space is taken: the pages are touched as lines are read, so
 * memory still follows the lines, and the reservation is at most the
 * bounds the file's size sets (m task lines of 8 bytes or more, a
 * replica in 2 bytes or more).  Zipf s = 1, 10^6 x 10^4: the parse's page
 * faults 3860 -> 1323, its time 0.121 -> 0.085 s in fresh processes
 * (README, Benchmarks).  Out of memory here is
 * left to the growth, which reports it. */
static void reserve_file(parser *p, size_t bytes)
{
    p->sized = 1;
    if (p->lx.size <= 0 || !p->in_order)
        return;
    double scale = (double)p->lx.size / (double)bytes * 1.0625;
    double rec = (double)p->nrec * scale + 1024;
    double raw = (double)p->nraw * scale + 1024;
    if (rec > (double)p->inst->m + 2)
        rec = (double)p->inst->m + 2;
    if (raw > (double)p->lx.size / 2 + 1)
        raw = (double)p->lx.size / 2 + 1;
    if (HTA_RESERVE(p->toff, p->cap_toff, (size_t)rec))
        (void)HTA_RESERVE(p->raw, p->capraw, (size_t)raw);
}

/* The fast path over the whole lines of the read buffer (at most
 * core_read_window bytes).  With two threads, after a window it took whole
 * (p->clean), the window is cut at a line end near its middle and a
 * second thread reads the second half into p->w, whose lines join p's
 * when the first half was taken whole and ends where the second begins
 * (task ids in order); otherwise they stay in the buffer for the next
 * window or the general path (the only cost: the second thread's work).
 * Requiring a clean window first keeps a file whose task lines the fast
 * path leaves here and there (tabs, CR) from having most windows read
 * twice.  The lines taken are taken from the reader, so line numbers
 * stay exact.  10^7 tasks (305 MB): the task lines 0.42 -> 0.32 s
 * (medians of 15, side by side); the first thread keeps the reads, the
 * merge and the page faults of the growing arrays.  Returns fast_line's
 * answer on the line it stopped at (1: it took the whole window);
 * *took, the lines taken. */
static int fast_window(parser *p, long *took)
{
    size_t len;
    const char *s = hta_lex_window(&p->lx, core_read_window, &len);
    *took = 0;
    if (!s)
        return -1;
    const char *e = s + len, *mid = NULL;
    parser *w = p->w;
    fast_job a = {p, s, e, 0, 0, 0, 1}, b = {w, NULL, e, -1, 0, 0, 1};
    if (p->clean && w && len >= 2 * core_read_split_min &&
        (mid = memchr(s + len / 2, '\n', len - len / 2)) && ++mid < e) {
        w->nrec = w->nraw = w->k = 0;
        b.s = a.e = mid;
    } else {
        mid = NULL;
    }
    core_run_two(fast_run, &a, mid ? &b : NULL);
    int stop = a.stop;
    size_t bytes = a.bytes;
    long lines = a.lines;
    if (mid && a.stop == 1) {
        stop = b.stop;
        if (b.lines > 0 && b.base != p->nrec)
            stop = 0; /* out of order: the general path's */
        else if (b.lines > 0 && !fast_merge(p, w))
            stop = 0;
        else
            bytes += b.bytes, lines += b.lines;
    }
    hta_lex_take_lines(&p->lx, bytes, lines);
    p->clean = stop == 1;
    *took = lines;
    if (!p->sized && lines > 0)
        reserve_file(p, bytes);
    return stop;
}

static int cmp_record(const void *x, const void *y)
{
    const record *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* After the last line: one task line per task.  pos receives, per task,
 * its record.  A repeated task line is reported at its line (the earliest
 * repetition), then a missing one.  O(m) with m records, else (an error
 * in any case) O(k log k) for k records. */
static hta_status check_tasks(parser *p, int64_t *pos, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    int32_t m = p->inst->m;
    if (p->nrec >= m) {
        for (int32_t t = 0; t < m; t++)
            pos[t] = -1;
        long dup_line = 0;
        int64_t dup = -1;
        for (int64_t i = 0; i < p->nrec && dup < 0; i++) {
            if (pos[p->rec[i].id] >= 0)
                dup = i, dup_line = p->rec[i].line;
            else
                pos[p->rec[i].id] = i;
        }
        if (dup < 0)
            return HTA_OK;
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, dup_line,
                            "expected one 'task' line per task, found a "
                            "second for task '%ld'",
                            (long)p->rec[dup].id);
    }
    /* fewer lines than tasks: sort a copy by (id, line) */
    record *r = malloc(((size_t)p->nrec + 1) * sizeof *r);
    if (!r)
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, 0,
                            "out of memory");
    if (p->nrec)
        memcpy(r, p->rec, (size_t)p->nrec * sizeof *r);
    qsort(r, (size_t)p->nrec, sizeof *r, cmp_record);
    long dup_line = 0;
    int32_t dup_id = -1, missing = -1;
    for (int64_t i = 0; i < p->nrec; i++) {
        if (i > 0 && r[i].id == r[i - 1].id &&
            (dup_id < 0 || r[i].line < dup_line))
            dup_id = r[i].id, dup_line = r[i].line;
        int32_t expect = i == 0 ? 0 : r[i - 1].id + 1;
        if (missing < 0 && r[i].id > expect)
            missing = expect;
    }
    if (missing < 0)
        missing = p->nrec ? r[p->nrec - 1].id + 1 : 0;
    free(r);
    if (dup_id >= 0)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, dup_line,
                            "expected one 'task' line per task, found a "
                            "second for task '%ld'",
                            (long)dup_id);
    return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                        "expected a 'task' line for task %ld, found end of "
                        "file",
                        (long)missing);
}

/* The task side of the placement graph from task lines kept as records
 * (some line out of order), after check_tasks.  Only now, with m task
 * lines read, is memory of the order of m taken; the file-order copies
 * are released. */
static hta_status task_order(parser *p, size_t m, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_instance *inst = p->inst;
    hta_status st;
    if (p->in_order && !leave_order(p))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, 0,
                            "out of memory");
    int64_t *pos = p->nrec >= (int64_t)m ? malloc(m * sizeof *pos) : NULL;
    if (p->nrec >= (int64_t)m && !pos)
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, 0,
                            "out of memory");
    if ((st = check_tasks(p, pos, d)) != HTA_OK) {
        free(pos);
        return st;
    }
    inst->task_off = malloc((m + 1) * sizeof *inst->task_off);
    inst->task_srv = malloc(((size_t)p->nraw + 1) * sizeof *inst->task_srv);
    if (!inst->task_off || !inst->task_srv) {
        free(pos);
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, 0,
                            "out of memory");
    }
    int64_t at = 0;
    for (size_t t = 0; t < m; t++) {
        const record *r = &p->rec[pos[t]];
        inst->task_off[t] = at;
        memcpy(inst->task_srv + at, p->raw + r->start,
               (size_t)r->deg * sizeof *inst->task_srv);
        at += r->deg;
    }
    inst->task_off[m] = at;
    free(pos);
    free(p->raw);
    free(p->rec);
    p->raw = NULL;
    p->rec = NULL;
    return HTA_OK;
}

/* "name task <t> <name>", "name server <s> <name>", "rack <s> <name>". */
static hta_status parse_name(parser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_instance *inst = p->inst;
    int is_rack = strcmp(lx->tok[0], "rack") == 0;
    size_t first = is_rack ? 1 : 2;
    char kind = 'r';
    if (!is_rack) {
        if (lx->ntok < 2 || (strcmp(lx->tok[1], "task") != 0 &&
                             strcmp(lx->tok[1], "server") != 0))
            return hta_lex_expected(lx, "'task' or 'server' after 'name'",
                                    lx->ntok > 1 ? lx->tok[1] : NULL, d);
        kind = lx->tok[1][0] == 't' ? 't' : 's';
    }
    if (lx->ntok != first + 2)
        return hta_lex_expected(lx, "an id and one name token",
                                lx->ntok > first + 2 ? lx->tok[first + 2] :
                                                       NULL,
                                d);
    int64_t id;
    int32_t hi = kind == 't' ? inst->m - 1 : inst->n - 1;
    hta_status st = hta_lex_int(lx, lx->tok[first], 0, hi,
                                kind == 't' ? "a task id" : "a server id", &id,
                                d);
    if (st != HTA_OK)
        return st;
    /* Kept as read: the name arrays are made once the whole file is, so
     * that their size follows the lines read (check_names). */
    const char *tok = lx->tok[first + 1];
    char *copy = malloc(strlen(tok) + 1);
    size_t len;
    if (copy && (st = hta_name_unescape(kind, tok, copy, &len, lx->path,
                                        lx->line, d)) != HTA_OK) {
        free(copy);
        return st;
    }
    if (!copy || !HTA_RESERVE(p->names, p->cap_names, (size_t)p->nnames + 1)) {
        free(copy);
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, lx->line,
                            "out of memory");
    }
    p->names[p->nnames++] = (name_line){copy, lx->line, (int32_t)id, kind};
    if (kind != 't')
        p->k = id + 1 > p->k ? id + 1 : p->k;
    return HTA_OK;
}

static int cmp_name_line(const void *x, const void *y)
{
    const name_line *a = x, *b = y;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* One name per id (the earliest repetition reported at its line), then
 * the names into the instance. */
static hta_status apply_names(parser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    if (p->nnames == 0)
        return HTA_OK;
    name_line *sorted = malloc((size_t)p->nnames * sizeof *sorted);
    if (!sorted)
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, 0,
                            "out of memory");
    memcpy(sorted, p->names, (size_t)p->nnames * sizeof *sorted);
    qsort(sorted, (size_t)p->nnames, sizeof *sorted, cmp_name_line);
    const name_line *dup = NULL;
    long first = 0; /* the line dup repeats */
    for (int64_t i = 1; i < p->nnames; i++)
        if (sorted[i].kind == sorted[i - 1].kind &&
            sorted[i].id == sorted[i - 1].id &&
            (!dup || sorted[i].line < dup->line)) {
            dup = &sorted[i];
            first = sorted[i - 1].line;
            for (int64_t j = i - 1; j >= 0 && sorted[j].kind == dup->kind &&
                                    sorted[j].id == dup->id; j--)
                first = sorted[j].line;
        }
    hta_status st = HTA_OK;
    if (dup)
        st = hta_diag_set(d, HTA_ERR_INPUT, lx->path, dup->line,
                          "expected one %s line per %s, found a second for "
                          "%s %ld (the first at line %ld)",
                          dup->kind == 't' ? "name task" :
                          dup->kind == 's' ? "name server" : "rack",
                          dup->kind == 't' ? "task" : "server",
                          dup->kind == 't' ? "task" : "server",
                          (long)dup->id, first);
    free(sorted);
    for (int64_t i = 0; st == HTA_OK && i < p->nnames; i++)
        if ((st = hta_instance_set_name(p->inst, p->names[i].kind,
                                        p->names[i].id, p->names[i].name,
                                        d)) != HTA_OK)
            d->path = lx->path; /* checked at its line: out of memory */
    return st;
}

/* The w_level lines, once the racks are known: levels 2.. each need
 * one, the rack paths give N (levels.h). */
static hta_status apply_levels(parser *p, hta_diag *d)
{
    hta_instance *inst = p->inst;
    int top = 0;
    for (int l = 2; l < HTA_MAX_LEVELS; l++)
        if (p->wlev_line[l])
            top = l;
    if (!top)
        return HTA_OK;
    for (int l = 2; l < top; l++)
        if (!p->wlev_line[l])
            return hta_diag_set(d, HTA_ERR_INPUT, p->lx.path,
                                p->wlev_line[top],
                                "expected a w_level line for every level "
                                "2..%d, found none for level %d",
                                top, l);
    long *rack_line = calloc((size_t)inst->n + 1, sizeof *rack_line);
    if (!rack_line)
        return hta_diag_set(d, HTA_ERR_INTERNAL, p->lx.path, 0,
                            "out of memory");
    for (int64_t i = 0; i < p->nnames; i++)
        if (p->names[i].kind == 'r')
            rack_line[p->names[i].id] = p->names[i].line;
    hta_levels_where where = {p->lx.path, p->wlev_line, rack_line};
    hta_status st = hta_levels_apply(inst, p->wlev + 2, top - 1, &where, d);
    free(rack_line);
    return st;
}

/* Body keywords.  Optional lines of later format revisions slot in here. */
static const struct {
    const char *keyword;
    hta_status (*parse)(parser *, hta_diag *);
} body_lines[] = {
    {"task", parse_task},
    {"name", parse_name},
    {"rack", parse_name},
    {"w_level", parse_wlevel},
};

static hta_status parse_all(parser *p, hta_diag *d)
{
    hta_lex *lx = &p->lx;
    hta_status st;
    int64_t v;

    if ((st = header_line(p, "hta-instance", 2, "a format version", d)) !=
        HTA_OK) {
        if (lx->ntok > 0 && strcmp(lx->tok[0], "hta-instance") != 0)
            return hta_lex_expected(lx, "the magic 'hta-instance'",
                                    lx->tok[0], d);
        return st;
    }
    if ((st = hta_lex_int(lx, lx->tok[1], 1, 1, "format version", &v, d)) !=
            HTA_OK ||
        (st = expect_eol(p, 2, "the version", d)) != HTA_OK)
        return st;

    /* A task line takes at least 8 bytes ("task 0 0"), so a count the file
     * cannot hold is refused before anything is allocated from it. */
    int64_t max_tasks = lx->size >= 0 ? lx->size / 8 + 1 : HTA_MAX_TASKS;
    if (max_tasks > HTA_MAX_TASKS)
        max_tasks = HTA_MAX_TASKS;
    if ((st = header_line(p, "tasks", 2, "a task count", d)) != HTA_OK ||
        (st = hta_lex_int(lx, lx->tok[1], 1, HTA_MAX_TASKS, "a task count",
                          &v, d)) != HTA_OK ||
        (st = expect_eol(p, 2, "the task count", d)) != HTA_OK)
        return st;
    if (v > max_tasks)
        return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                            "expected a task count this file can hold "
                            "(at most %lld task lines fit in %lld bytes), "
                            "found '%s'",
                            (long long)max_tasks, (long long)lx->size,
                            lx->tok[1]);
    p->inst->m = (int32_t)v;
    if ((st = header_line(p, "servers", 2, "a server count", d)) != HTA_OK ||
        (st = hta_lex_int(lx, lx->tok[1], 1, HTA_MAX_SERVERS,
                          "a server count", &v, d)) != HTA_OK ||
        (st = expect_eol(p, 2, "the server count", d)) != HTA_OK)
        return st;
    p->inst->n = (int32_t)v;
    if ((st = header_line(p, "w_loc", 2, "a local cost", d)) != HTA_OK ||
        (st = hta_lex_real(lx, lx->tok[1], 1, "a local cost w_loc",
                           &p->inst->w_loc, d)) != HTA_OK ||
        (st = expect_eol(p, 2, "w_loc", d)) != HTA_OK)
        return st;
    if ((st = header_line(p, "w_rem", 2, "w_rem values or 'affine'", d)) !=
            HTA_OK ||
        (st = parse_wrem(p, d)) != HTA_OK)
        return st;

    size_t m = (size_t)p->inst->m;
    for (;;) {
        /* A file whose task lines the fast path leaves one after the
           other (CRLF line ends, tabs) would have every line scanned
           twice: 20% of the parse; after FAST_MISSES in a row it stops
           trying. */
        for (int r = 1; r == 1 && p->in_order && p->fast;) {
            long took;
            r = fast_window(p, &took);
            if (took > 0)
                p->missed = 0;
            if (r == 0 && ++p->missed >= FAST_MISSES)
                p->fast = 0;
        }
        if ((st = hta_lex_next(lx, d)) != HTA_OK)
            return st;
        if (lx->ntok == 0)
            break;
        size_t i, nkw = sizeof body_lines / sizeof body_lines[0];
        for (i = 0; i < nkw; i++)
            if (strcmp(lx->tok[0], body_lines[i].keyword) == 0)
                break;
        if (i == nkw) {
            char q[64];
            return hta_diag_set(d, HTA_ERR_INPUT, lx->path, lx->line,
                                "expected a 'task', 'name', 'rack' or 'w_level' line, "
                                "found unknown keyword '%s'",
                                hta_lex_quote(lx->tok[0], q));
        }
        if ((st = body_lines[i].parse(p, d)) != HTA_OK)
            return st;
    }
    hta_instance *inst = p->inst;
    inst->edges = p->nraw;
    if (p->in_order && p->nrec == (int64_t)m) {
        /* ids 0..m-1 in order: complete and without repeats */
        p->toff[m] = p->nraw;
        inst->task_off = shrink(p->toff, (m + 1) * sizeof *p->toff);
        inst->task_srv = shrink(p->raw, ((size_t)p->nraw + 1) *
                                            sizeof *p->raw);
        p->toff = NULL;
        p->raw = NULL;
    } else if ((st = task_order(p, m, d)) != HTA_OK) {
        return st;
    }
    inst->n_declared = inst->n;
    inst->n = core_working_servers(inst->n_declared, p->k, inst->m);
    if (!core_build_server_side(inst))
        return hta_diag_set(d, HTA_ERR_INTERNAL, lx->path, 0,
                            "out of memory");
    if ((st = apply_names(p, d)) != HTA_OK)
        return st;
    return apply_levels(p, d);
}

static int fast_lines = 1; /* hta_instance_fast_lines */

void hta_instance_fast_lines(int on)
{
    fast_lines = on;
}

void hta_instance_read_tuning(int threads, size_t window, size_t split_min)
{
    core_read_threads = threads == 1 || threads == 2 ? threads : 0;
    core_read_window = window > 0 ? window : CORE_READ_WINDOW;
    core_read_split_min = split_min > 0 ? split_min : CORE_READ_SPLIT_MIN;
}

static void free_arrays(parser *p)
{
    free(p->rec);
    free(p->toff);
    free(p->sorted);
    free(p->raw);
}

static hta_status parse_lexer(parser *p, hta_instance **out, hta_diag *d)
{
    hta_status st = HTA_OK;
    p->in_order = 1;
    p->fast = fast_lines;
    p->inst = calloc(1, sizeof *p->inst);
    /* the second thread's arrays; without them the fast path runs alone */
    if (p->inst && p->fast && core_threads_to_use() > 1 &&
        (p->w = calloc(1, sizeof *p->w))) {
        p->w->inst = p->inst;
        p->w->in_order = 1;
    }
    if (!p->inst)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, p->lx.path, 0,
                          "out of memory");
    else
        st = parse_all(p, d);
    if (st == HTA_OK) {
        *out = p->inst;
        p->inst = NULL;
    }
    hta_instance_free(p->inst);
    if (p->w)
        free_arrays(p->w);
    free(p->w);
    free_arrays(p);
    for (int64_t i = 0; i < p->nnames; i++)
        free(p->names[i].name);
    free(p->names);
    for (int l = 0; l < HTA_MAX_LEVELS; l++)
        free(p->wlev[l].v);
    hta_lex_free(&p->lx);
    return st;
}

hta_status hta_instance_parse(const char *path, hta_instance **out,
                              hta_diag *d)
{
    return hta_instance_parse_stop(path, NULL, out, d);
}

hta_status hta_instance_parse_stop(const char *path,
                                   volatile sig_atomic_t *stop,
                                   hta_instance **out, hta_diag *d)
{
    parser p;
    memset(&p, 0, sizeof p);
    *out = NULL;
    hta_status st = hta_lex_open(&p.lx, path, d);
    if (st != HTA_OK)
        return st;
    if (stop)
        p.lx.stop = stop;
    return parse_lexer(&p, out, d);
}

hta_status hta_instance_parse_memory(const char *name, const char *text,
                                     size_t len, hta_instance **out,
                                     hta_diag *d)
{
    parser p;
    memset(&p, 0, sizeof p);
    *out = NULL;
    hta_status st = hta_lex_from_memory(&p.lx, name, text, len, d);
    if (st != HTA_OK)
        return st;
    return parse_lexer(&p, out, d);
}
