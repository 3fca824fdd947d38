/* Command-line layer (not part of the library): each command declares its
 * options once, in a table {name, kind, range, modes, help}; cli_parse
 * reads argv against it and checks every value before any work starts, and
 * --help is printed from the same table.  One message style, exit 2 for
 * every usage error.
 *
 * Ownership: a cli_args borrows the table and argv; values are copies or
 * point into argv.
 */
#ifndef HTA_CLI_H
#define HTA_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hta/cluster.h"
#include "hta/diag.h"
#include "hta/instance.h"
#include "hta/jobs.h"
#include "hta/progress.h"

#define CLI_MAX_OPTS 40
#define CLI_MAX_POS 1024 /* hta plot: a sweep's parts */
#define CLI_MAX_LIST 16

typedef enum cli_kind {
    OPT_FLAG,  /* no argument */
    OPT_INT,   /* integer in [lo, hi] */
    OPT_REAL,  /* real in [lo, hi] (or (lo, hi] with OPT_OPEN_LO) */
    OPT_ENUM,  /* one of choices ("a|b|c") */
    OPT_ENUMS, /* comma list of distinct choices, in the order given */
    OPT_REALS, /* comma list of reals, each in the range */
    OPT_INTS,  /* comma list of integers, each in [lo, hi] */
    OPT_IN,    /* an input file */
    OPT_OUT,   /* an output file ("-" is standard output) */
    OPT_DIST   /* a workload distribution (jobs.h: hta_dist_parse) */
} cli_kind;

#define OPT_OPEN_LO 1u /* the range excludes lo: value > lo */
#define OPT_OPEN_HI 2u /* the range excludes hi: value < hi */
#define CLI_INT64_MAX 9.2e18 /* as hi of OPT_INT: INT64_MAX */

typedef struct cli_opt {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 for none */
    cli_kind kind;
    double lo, hi;        /* value range (each item for lists) */
    unsigned flags;       /* OPT_OPEN_LO, OPT_OPEN_HI */
    int min_items, max_items; /* lists: how many items */
    const char *choices;  /* OPT_ENUM(S): "a|b|c" */
    unsigned modes;       /* modes it applies to (bit mask); 0: all */
    const char *arg;      /* name of the argument in the help: "S" */
    const char *help;     /* help text, lines separated by '\n' */
} cli_opt;

typedef struct cli_spec {
    const char *name;  /* "solve", "gen hdfs" */
    const char *usage; /* after "hta <name> " */
    const char *about; /* paragraph(s) printed by --help */
    const cli_opt *opts;
    int nopts;
    int min_pos, max_pos;
    const char *const *mode_names; /* modes[i]: "--algo ilp", for errors */
} cli_spec;

typedef struct cli_val {
    int given;
    const char *raw; /* the argument as given */
    int64_t i;       /* OPT_INT */
    double x;        /* OPT_REAL */
    int e;           /* OPT_ENUM: index into choices */
    int n;           /* lists: item count */
    double list[CLI_MAX_LIST]; /* OPT_REALS, OPT_INTS */
    int items[CLI_MAX_LIST];   /* OPT_ENUMS: choice indices in order */
} cli_val;

typedef struct cli_args {
    const cli_spec *spec;
    cli_val v[CLI_MAX_OPTS];
    const char *pos[CLI_MAX_POS];
    int npos;
} cli_args;

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line */
} cli_command;

extern const cli_command cli_commands[];

int cmd_solve(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_capacity(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_flowtime(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_rplace(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/* Parses argv[1..argc) (argv[0] is the command name) against spec and
 * checks every value given (kind, range, repetition).  Returns 1 to go on;
 * returns 0 with *exit_now set after --help (0, help printed) or a usage
 * error (2, one line printed). */
int cli_parse(cli_args *a, const cli_spec *spec, int argc, char **argv,
              int *exit_now);

/* Prints the help generated from the table on f. */
void cli_help(const cli_spec *spec, FILE *f);

/* The value of an option by name (the name must be in the table). */
const cli_val *cli_value(const cli_args *a, const char *name);
int cli_has(const cli_args *a, const char *name);
const char *cli_str(const cli_args *a, const char *name); /* raw or NULL */

/* Usage error for every given option whose modes do not meet active.
 * what names the active modes in the message.  Returns 1 when all apply. */
int cli_check_modes(const cli_args *a, unsigned active);

/* Prints "hta <command>: <msg> (usage: 'hta <command> --help')" and
 * returns HTA_ERR_USAGE. */
int cli_usage_error(const cli_args *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints the diagnostic on stderr and returns its status. */
int cli_report(hta_status st, const hta_diag *d);

/* on: a plug-in's code may run from now (off: no longer); an exit() from
 * it removes the temporary outputs and ends the command with status 1
 * and words saying so, not 0. */
void cli_foreign(int on);

/* The parsed arguments the output phase reads (cli_parse sets them). */
void cli_signals_args(const cli_args *a);

/* The cost options --w-loc X, --w-rem V[,V...] and --w-rem-affine A,B
 * (declared by the command as CLI_COST_OPTS) into w_loc and w, checked as
 * the instance format checks them.  The table values point into an array
 * in *store, which the caller frees.  Returns 0, or the exit code after
 * printing why (2 for a usage error, 1 out of memory). */
int cli_costs(const cli_args *a, double *w_loc, hta_wrem *w, double **store);

/* The costs of the levels between local and remote (levels.h), options
 * declared by the command as CLI_LEVEL_COST_OPTS: --w-rack[-affine] for
 * level 2, --w-pod[-affine] for level 3 (which needs the rack's).
 * wlev[0..*nlev) receive them (0 when none is given), tables' values in
 * store[0..1] (the caller frees both).  Returns 0, or the exit code
 * after printing why (table and affine both given, a falling table, a
 * pod cost without a rack cost). */
int cli_level_costs(const cli_args *a, hta_wrem wlev[2], double *store[2],
                    int *nlev);

#define CLI_LEVEL_COST_OPTS(modes)                                         \
    {"w-rack", 0, OPT_REALS, 0, 1e300, OPT_OPEN_LO, 1, CLI_MAX_LIST, NULL, \
     modes, "V[,V...]",                                                    \
     "rack-local cost table w_2(r), r the rack-local tasks: a\n"           \
     "third locality level (w_loc <= w_2(r) <= w_rem(r))"},                \
    {"w-rack-affine", 0, OPT_REALS, 0, 1e300, 0, 2, 2, NULL, modes, "A,B",  \
     "rack-local cost w_2(r) = A + B*r"},                                  \
    {"w-pod", 0, OPT_REALS, 0, 1e300, OPT_OPEN_LO, 1, CLI_MAX_LIST, NULL,  \
     modes, "V[,V...]",                                                    \
     "pod-local cost table w_3(r): a fourth level, with --w-rack\n"        \
     "(w_2(r) <= w_3(r) <= w_rem(r))"},                                    \
    {"w-pod-affine", 0, OPT_REALS, 0, 1e300, 0, 2, 2, NULL, modes, "A,B",   \
     "pod-local cost w_3(r) = A + B*r"}

#define CLI_COST_OPTS                                                      \
    {"w-loc", 0, OPT_REAL, 0, 1e300, OPT_OPEN_LO, 0, 0, NULL, 0, "X",       \
     "local cost w_loc (default 1)"},                                      \
    {"w-rem", 0, OPT_REALS, 0, 1e300, OPT_OPEN_LO, 1, CLI_MAX_LIST, NULL,  \
     0, "V[,V...]",                                                        \
     "remote cost table: w_rem(r) = V_min(r,k), non-decreasing,\n"         \
     ">= w_loc (default 3)"},                                              \
    {"w-rem-affine", 0, OPT_REALS, 0, 1e300, 0, 2, 2, NULL, 0, "A,B",      \
     "remote cost w_rem(r) = A + B*r (A >= w_loc, B >= 0)"}

/* Refuses "-" for the outputs named opts[i] (without dashes) whose
 * paths[i] it is: the command's report is on standard output.  NULL
 * paths are skipped.  Returns 0, or the exit code after printing why. */
int cli_files_only(const cli_args *a, const char *const *opts,
                   const char *const *paths, int n);

/* Checks before any work that each output path can be written, is none
 * of the inputs and that no two outputs are the same file.  NULL entries
 * are skipped.  Returns 0, or the exit code after printing why. */
int cli_check_outputs(const cli_args *a, const char *const *outs, int nout,
                      const char *const *ins, int nin);

/* Writes an instance to path ("-" or NULL: standard output) atomically,
 * comment lines on top. */
hta_status cli_write_instance(const hta_instance *inst, const char *path,
                              const char *comment, hta_diag *d);

/* Writes a job trace (jobs.h) the same way. */
hta_status cli_write_jobs(const hta_jobs *jobs, const char *path,
                          const char *comment, hta_diag *d);
/* Generated jobs written as they are drawn (hta_jobs_gen_write). */
hta_status cli_write_gen_jobs(const hta_jobs_gen *g, const char *path,
                              const char *comment, hta_diag *d);
hta_status cli_write_cluster(const hta_cluster *c, const char *path,
                             const char *comment, hta_diag *d);

#define CLI_MAX_SWEEP 64

/* The loads of --sweep A,B,STEP (A, A+STEP, ..., B) into loads[]; *n
 * receives the count.  Returns 0, or 2 after a usage error (B < A, more
 * than CLI_MAX_SWEEP loads). */
int cli_sweep(const cli_args *a, double loads[CLI_MAX_SWEEP], int *n);

/* The option of s nearest to name (without its dashes and any =VALUE):
 * the one it is a prefix of (3 bytes or more; of several, the nearest in
 * edits), or the one within a third of its length in edits, when one
 * option alone is nearest; else NULL. */
const char *cli_nearest(const cli_spec *s, const char *name);

/* Set by SIGINT/SIGTERM once cli_catch_signals ran: long solvers poll it
 * and stop with their best so far.  A second signal kills as usual, after
 * the temporary output files were removed. */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_signals(void);

/* The command polls cli_interrupted: the first signal only sets it.
 * Called once the inputs are read and the outputs opened (an open or a
 * read that blocks, on a FIFO, ends on the first signal). */
void cli_poll_interrupts(void);

/* The command writes what it computed: from here the first signal kills
 * (a blocked write ends), and after one noted before, where a write may
 * block for good (standard output or an output a FIFO, pipe or socket),
 * the writes get a quarter of a second before the command dies of it. */
void cli_output_phase(void);

/* Progress on stderr when it is a terminal: at most four lines a second,
 * overwritten in place, cleared by cli_progress_end.  Nothing of it goes
 * to files or pipes. */
typedef struct cli_progress {
    double last;
    int shown;
} cli_progress;

/* The callback to hand the library, or NULL when stderr is not a
 * terminal or quiet is set. */
hta_progress_fn cli_progress_fn(int quiet);
void cli_progress_print(void *ctx, const hta_progress *p);
void cli_progress_end(cli_progress *c);

/* 128 + the signal that interrupted the run (130 for SIGINT). */
int cli_interrupt_code(void);

/* Writes stdout out and reports a write error as "<stdout>: error: write
 * error: ..." with HTA_ERR_IO; else returns code. */
/* A report held in memory until the command ends, so that an error
 * leaves standard output empty (sim, flowtime). */
typedef struct cli_held {
    FILE *f; /* write the report here */
    char *buf;
    size_t len;
} cli_held;

/* Opens h->f; HTA_ERR_INTERNAL ("out of memory" in d) when it cannot. */
hta_status cli_hold(cli_held *h, hta_diag *d);

/* Closes h and, when st is HTA_OK, writes what it holds to standard
 * output (checked by cli_finish_stdout).  Returns st, or
 * HTA_ERR_INTERNAL when the stream ran out of memory. */
hta_status cli_release(cli_held *h, hta_status st, hta_diag *d);

int cli_finish_stdout(int code);

#endif
