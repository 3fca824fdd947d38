/* Signals of the command line: the first Ctrl-C of a command that polls
 * noted (it stops with its best so far), a second one or any other
 * signal whose default ends the process removing the temporary outputs
 * before the command dies of it, a plug-in's exit() caught, and the
 * output phase's grace where a write may block for good. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* sigaltstack */
#include "cli.h"

#include "hta/outfile.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

volatile sig_atomic_t cli_interrupted = 0;
static volatile sig_atomic_t polling = 0;

static void on_signal(int sig)
{
    /* First signal of a command that polls: note it, the command stops
     * with its best so far.  Otherwise (or the second time): remove the
     * temporary files and die of the signal, as the shell expects. */
    if (polling && !cli_interrupted) {
        cli_interrupted = sig;
        return;
    }
    hta_outfile_remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A fault (a plug-in's SIGSEGV, SIGBUS, SIGFPE, SIGILL, an abort) or
 * another signal whose default ends the process (SIGQUIT, a file-size or
 * CPU limit, SIGUSR1, ...): the temporary files removed, then the signal
 * goes where it went before (the default: the command dies of it, as
 * the shell expects; a sanitizer's handler, which reports it).  A signal
 * the parent ignores stays ignored (trap '' XFSZ: writes fail with
 * EFBIG instead). */
static const int fatal_sigs[] = {SIGSEGV, SIGBUS,  SIGFPE,    SIGILL,
                                 SIGABRT, SIGQUIT, SIGXFSZ,   SIGXCPU,
                                 SIGUSR1, SIGUSR2, SIGALRM,   SIGVTALRM,
                                 SIGPROF, SIGTRAP, SIGSYS};
#define NFATAL (sizeof fatal_sigs / sizeof *fatal_sigs)
static struct sigaction fatal_old[NFATAL];

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    hta_outfile_remove_temps();
    size_t i = 0;
    while (i < NFATAL && fatal_sigs[i] != sig)
        i++;
    if (i < NFATAL && fatal_old[i].sa_handler != SIG_DFL &&
        fatal_old[i].sa_handler != SIG_IGN) {
        sigaction(sig, &fatal_old[i], NULL);
        if (si && si->si_code > 0)
            return; /* a fault: the instruction runs again, into it */
    } else {
        signal(sig, SIG_DFL);
    }
    raise(sig);
}

static void catch_fatal(void)
{
    /* a stack overflow's SIGSEGV needs a stack of its own */
    static char alt[1 << 16];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++) {
        if (sigaction(fatal_sigs[i], NULL, &fatal_old[i]) == 0 &&
            fatal_old[i].sa_handler == SIG_IGN)
            continue;
        sigaction(fatal_sigs[i], &sa, NULL);
    }
}

/* A plug-in's code running (cli_foreign): a call of exit() from it would
 * end the command with status 0 and its outputs unwritten. */
static volatile sig_atomic_t foreign;

static void on_exit_hook(void)
{
    if (!foreign)
        return;
    hta_outfile_remove_temps();
    static const char msg[] = "hta: error: a plug-in ended the process "
                              "(exit) during its run: nothing written\n";
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more to say */
    }
    _exit(1);
}

void cli_foreign(int on)
{
    static int hooked;
    if (on && !hooked)
        hooked = atexit(on_exit_hook) == 0;
    foreign = on;
}

void cli_catch_signals(void)
{
    catch_fatal();
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* reads and writes go on after a noted signal instead of failing */
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* A signal ignored by the parent (nohup, background jobs of a
         * non-interactive shell) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

void cli_poll_interrupts(void)
{
    polling = 1;
}

/* The output phase after a noted signal: where a write may block (a
 * FIFO nobody reads, a full pipe), the writes get a quarter of a second,
 * then the command dies of the signal it was given, its temporary files
 * removed. */
static void on_alarm(int sig)
{
    (void)sig;
    int given = (int)cli_interrupted;
    hta_outfile_remove_temps();
    signal(given, SIG_DFL);
    raise(given);
}

/* The command's arguments, for its output phase. */
static const cli_args *parsed;

void cli_signals_args(const cli_args *a)
{
    parsed = a;
}

/* 1 when a write of the command may block for good: standard output
 * or a given output is a FIFO, a pipe or a socket (nobody may read it).
 * A regular file or a terminal does not, so a big output there is
 * written whole. */
static int may_block(void)
{
    struct stat sb;
    if (fstat(STDOUT_FILENO, &sb) == 0 &&
        (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
        return 1;
    for (int i = 0; parsed && i < parsed->spec->nopts; i++) {
        const char *p = parsed->v[i].raw;
        if (parsed->spec->opts[i].kind == OPT_OUT && parsed->v[i].given &&
            p && strcmp(p, "-") != 0 && stat(p, &sb) == 0 &&
            (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
            return 1;
    }
    return 0;
}

void cli_output_phase(void)
{
    static int armed;
    polling = 0;
    if (!cli_interrupted || armed || !may_block())
        return;
    armed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval grace = {{0, 0}, {0, 250000}};
    setitimer(ITIMER_REAL, &grace, NULL);
}
