/* Command-line helpers shared by the subcommands (not part of the library):
 * option parsing, number arguments, diagnostics printing, timing. */
#ifndef HTA_CLI_H
#define HTA_CLI_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"

typedef struct cli_option {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 for none */
    int has_arg;
} cli_option;

typedef struct cli_args {
    const char *command;
    const char *usage;
    const cli_option *options;
    int noptions;
    const char *value[32]; /* per option: its argument, or "" for flags */
    int count[32];         /* per option: how often it was given */
    const char *pos[16];   /* positional arguments */
    int npos;
} cli_args;

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;   /* one line */
    const char *summary; /* one line */
} cli_command;

extern const cli_command cli_commands[];

int cmd_solve(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_capacity(int argc, char **argv);
int cmd_import(int argc, char **argv);

/* Parses argv[1..argc) (argv[0] is the command name).  Prints the help and
 * returns 0 through *exit_now for --help; prints a one-line usage error and
 * sets *exit_now = HTA_ERR_USAGE on a bad option.  Returns 1 to go on. */
int cli_parse(cli_args *a, int argc, char **argv, const char *command,
              const char *usage, const char *help, const cli_option *opts,
              int nopts, int min_pos, int max_pos, int *exit_now);

/* The option's argument, or NULL when absent. */
const char *cli_get(const cli_args *a, const char *name);
int cli_has(const cli_args *a, const char *name);

/* Number arguments: 1 on success, else a usage error is printed. */
int cli_int(const cli_args *a, const char *name, int64_t lo, int64_t hi,
            int64_t *out);
int cli_real(const cli_args *a, const char *name, double lo, double *out);

struct hta_wrem;
/* --w-rem V[,V...] (a table, default 3) or --w-rem-affine A,B into *w;
 * *store receives the values array (caller frees).  0 after a usage
 * error was printed. */
int cli_wrem(const cli_args *a, struct hta_wrem *w, double **store);

struct hta_instance;
/* Writes an instance to path (standard output when NULL) atomically, with
 * comment lines on top. */
hta_status cli_write_instance(const struct hta_instance *inst,
                              const char *path, const char *comment,
                              hta_diag *d);

/* Prints "hta <command>: <msg>" and the usage line; returns HTA_ERR_USAGE. */
int cli_usage_error(const cli_args *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints the diagnostic on stderr and returns its status. */
int cli_report(hta_status st, const hta_diag *d);

/* Set by SIGINT once cli_catch_interrupt ran: long solvers poll it and
 * stop with their best so far.  A second SIGINT kills as usual. */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_interrupt(void);

/* Monotonic seconds. */
double cli_now(void);

#endif
