/* CBC in a child process (cbcx.h). */
#include "core/cbcx.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "hta/num.h"
#include "hta/version.h"

#if defined(HTA_HAVE_CBC)
#include <Cbc_C_Interface.h>
#endif

/* What the child sends: this header, then ncols doubles when OPTIMAL. */
typedef struct wire {
    int status; /* hta_cbc_status */
    int ncols;
    double obj;
    long nodes;
    char why[96];
} wire;

struct hta_cbc_job {
    pid_t pid;      /* the child, reaped by hta_cbc_finish */
    int fd;         /* the pipe's read end */
    int ncols;
    int done;       /* answer read (or the child gone) */
    wire w;
    double *x;      /* 1-based */
};

#if defined(HTA_HAVE_CBC)
int hta_cbc_available(void) { return 1; }
const char *hta_cbc_version(void) { return Cbc_getVersion(); }
#else
int hta_cbc_available(void) { return 0; }
const char *hta_cbc_version(void) { return "not built in"; }
#endif

/* All n bytes through fd (out: written from p, else read into p); 0 when
 * the other end closed or failed first. */
static int transfer(int fd, void *p, size_t n, int out)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = out ? write(fd, c, n) : read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        c += k;
        n -= (size_t)k;
    }
    return 1;
}

#if defined(HTA_HAVE_CBC)
/* The model in CBC's column storage, built before the fork (the child
 * calls no GLPK function). */
typedef struct csc {
    int nr, nc;
    CoinBigIndex *start;
    int *index;
    double *value, *collb, *colub, *obj, *rowlb, *rowub, *x0;
    char *integer;
} csc;

static void csc_free(csc *c)
{
    free(c->start);
    free(c->index);
    free(c->value);
    free(c->collb);
    free(c->colub);
    free(c->obj);
    free(c->rowlb);
    free(c->rowub);
    free(c->x0);
    free(c->integer);
}

static int csc_build(glp_prob *P, const double *start, csc *c)
{
    memset(c, 0, sizeof *c);
    c->nr = glp_get_num_rows(P);
    c->nc = glp_get_num_cols(P);
    size_t nr = (size_t)c->nr, nc = (size_t)c->nc;
    size_t nnz = (size_t)glp_get_num_nz(P);
    int *ind = malloc((nr + 1) * sizeof *ind);
    double *val = malloc((nr + 1) * sizeof *val);
    c->start = malloc((nc + 1) * sizeof *c->start);
    c->index = malloc((nnz + 1) * sizeof *c->index);
    c->value = malloc((nnz + 1) * sizeof *c->value);
    c->collb = malloc((nc + 1) * sizeof *c->collb);
    c->colub = malloc((nc + 1) * sizeof *c->colub);
    c->obj = malloc((nc + 1) * sizeof *c->obj);
    c->rowlb = malloc((nr + 1) * sizeof *c->rowlb);
    c->rowub = malloc((nr + 1) * sizeof *c->rowub);
    c->integer = malloc(nc + 1);
    if (start)
        c->x0 = malloc((nc + 1) * sizeof *c->x0);
    if (!ind || !val || !c->start || !c->index || !c->value || !c->collb ||
        !c->colub || !c->obj || !c->rowlb || !c->rowub || !c->integer ||
        (start && !c->x0)) {
        free(ind);
        free(val);
        csc_free(c);
        return 0;
    }
    CoinBigIndex k = 0;
    for (int j = 1; j <= c->nc; j++) {
        c->start[j - 1] = k;
        int len = glp_get_mat_col(P, j, ind, val);
        for (int i = 1; i <= len; i++, k++) {
            c->index[k] = ind[i] - 1;
            c->value[k] = val[i];
        }
        int type = glp_get_col_type(P, j);
        c->collb[j - 1] = type == GLP_FR || type == GLP_UP ?
                              -DBL_MAX : glp_get_col_lb(P, j);
        c->colub[j - 1] = type == GLP_FR || type == GLP_LO ?
                              DBL_MAX : glp_get_col_ub(P, j);
        c->obj[j - 1] = glp_get_obj_coef(P, j) *
                        (glp_get_obj_dir(P) == GLP_MAX ? -1.0 : 1.0);
        c->integer[j - 1] = glp_get_col_kind(P, j) != GLP_CV;
        if (start)
            c->x0[j - 1] = start[j];
    }
    c->start[c->nc] = k;
    for (int i = 1; i <= c->nr; i++) {
        int type = glp_get_row_type(P, i);
        c->rowlb[i - 1] = type == GLP_FR || type == GLP_UP ?
                              -DBL_MAX : glp_get_row_lb(P, i);
        c->rowub[i - 1] = type == GLP_FR || type == GLP_LO ?
                              DBL_MAX : glp_get_row_ub(P, i);
    }
    free(ind);
    free(val);
    return 1;
}

/* The child: solve, answer, exit.  Never returns. */
static void child(const csc *c, double obj0, int sense, int fd)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        signal(sigs[i], SIG_DFL);
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the parent gone: so is CBC */
#endif
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) { /* CBC prints despite log level 0 */
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    wire w;
    memset(&w, 0, sizeof w);
    w.ncols = c->nc;
    Cbc_Model *M = Cbc_newModel();
    Cbc_loadProblem(M, c->nc, c->nr, c->start, c->index, c->value, c->collb,
                    c->colub, c->obj, c->rowlb, c->rowub);
    for (int j = 0; j < c->nc; j++)
        if (c->integer[j])
            Cbc_setInteger(M, j);
    Cbc_setObjSense(M, 1.0);
    Cbc_setLogLevel(M, 0);
    if (c->x0)
        Cbc_setInitialSolution(M, c->x0);
    Cbc_solve(M);
    const double *x = NULL;
    w.nodes = Cbc_getNodeCount(M);
    if (Cbc_isAbandoned(M)) {
        w.status = HTA_CBC_FAILED;
        strcpy(w.why, "CBC abandoned the search (numerical difficulties)");
    } else if (Cbc_isProvenOptimal(M) && (x = Cbc_bestSolution(M))) {
        w.status = HTA_CBC_OPTIMAL;
        w.obj = sense * Cbc_getObjValue(M) + obj0;
    } else if (Cbc_isProvenInfeasible(M)) {
        w.status = HTA_CBC_INFEASIBLE;
    } else {
        w.status = HTA_CBC_FAILED;
        strcpy(w.why, "CBC ended without a proof");
    }
    int ok = transfer(fd, &w, sizeof w, 1) &&
             (w.status != HTA_CBC_OPTIMAL ||
              transfer(fd, (void *)x, (size_t)c->nc * sizeof *x, 1));
    Cbc_deleteModel(M);
    _exit(ok ? 0 : 1);
}
#endif

hta_status hta_cbc_start(glp_prob *P, const double *start, hta_cbc_job **out,
                         hta_diag *d)
{
    *out = NULL;
#if !defined(HTA_HAVE_CBC)
    (void)P;
    (void)start;
    return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                        "this hta was built without CBC (build it with make CBC=yes)");
#else
    csc c;
    hta_cbc_job *job = calloc(1, sizeof *job);
    if (!job || !csc_build(P, start, &c)) {
        free(job);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    double obj0 = glp_get_obj_coef(P, 0);
    int sense = glp_get_obj_dir(P) == GLP_MAX ? -1 : 1;
    int p[2];
    if (pipe(p) != 0) {
        csc_free(&c);
        free(job);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "cannot create a pipe for CBC: %s",
                            strerror(errno));
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        child(&c, obj0, sense, p[1]);
    }
    int err = errno;
    close(p[1]);
    csc_free(&c);
    if (pid < 0) {
        close(p[0]);
        free(job);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "cannot start CBC (fork): %s", strerror(err));
    }
    job->pid = pid;
    job->fd = p[0];
    job->ncols = glp_get_num_cols(P);
    *out = job;
    return HTA_OK;
#endif
}

/* Reads the answer (the child has written it, or died). */
static void take_answer(hta_cbc_job *job)
{
    wire w;
    job->done = 1;
    job->w.status = HTA_CBC_FAILED;
    if (!transfer(job->fd, &w, sizeof w, 0)) {
        strcpy(job->w.why, "CBC's process ended without an answer");
        return;
    }
    w.why[sizeof w.why - 1] = '\0';
    if (w.status == HTA_CBC_OPTIMAL) {
        if (w.ncols != job->ncols ||
            !(job->x = malloc(((size_t)w.ncols + 1) * sizeof *job->x)) ||
            !transfer(job->fd, job->x + 1, (size_t)w.ncols * sizeof *job->x,
                      0)) {
            strcpy(job->w.why, "CBC's answer was cut short");
            return;
        }
    }
    job->w = w;
}

void hta_cbc_wait(hta_cbc_job *job, double deadline,
                  volatile sig_atomic_t *stop, hta_cbc_answer *ans)
{
    memset(ans, 0, sizeof *ans);
    while (!job->done) {
        double left = deadline - hta_clock_now();
        int ms = left <= 0 || (stop && *stop) ? 0 :
                 left > 0.05                  ? 50 :
                                                (int)(left * 1000) + 1;
        struct pollfd pf = {job->fd, POLLIN, 0};
        int k = poll(&pf, 1, ms);
        if (k > 0 || (k < 0 && errno != EINTR))
            take_answer(job); /* written at once, so the read does not
                                 wait; an unusable pipe reads as failed */
        else if (k == 0 && ms == 0)
            break;
    }
    ans->status = job->done ? (hta_cbc_status)job->w.status :
                              HTA_CBC_RUNNING;
    ans->obj = job->w.obj;
    ans->x = job->x;
    ans->nodes = job->w.nodes;
    memcpy(ans->why, job->w.why, sizeof ans->why);
}

void hta_cbc_finish(hta_cbc_job *job)
{
    if (!job)
        return;
    if (job->pid > 0) {
        kill(job->pid, SIGKILL);
        while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (job->fd >= 0)
        close(job->fd);
    free(job->x);
    free(job);
}
