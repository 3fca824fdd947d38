/* Output files that lose nothing.
 *
 * - A regular file (or a path that does not exist yet) is written to a
 *   temporary file beside it, fsynced and renamed over it: a failed or
 *   interrupted run never leaves a partial file under the target's name.
 *   An existing file keeps its mode (and, when permitted, its owner).
 * - A symbolic link is followed: its final target gets the atomic rewrite
 *   and the link stays a link.
 * - A special file (character or block device, FIFO, socket) and "-"
 *   (standard output) are opened and written through; their write errors
 *   are reported.
 * - A read-only target (no write permission, or no write bit at all, which
 *   also stops root) and a directory are refused.
 *
 * Temporary files being written are recorded so that a signal handler can
 * remove them (hta_outfile_remove_temps, async-signal-safe).  A SIGKILL
 * can still leave one, named TARGET.tmp.XXXXXX.
 *
 * Ownership: hta_outfile owns its FILE and names until commit or abort;
 * the path given is borrowed and must outlive it.
 */
#ifndef HTA_OUTFILE_H
#define HTA_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "hta/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_outfile {
    FILE *f;          /* write here */
    const char *path; /* as given ("-" means standard output) */
    char *target;     /* the file renamed onto (symlinks followed) */
    char *tmp;        /* temporary name, NULL when written through */
    int slot;         /* index in the temporary-file registry, or -1 */
} hta_outfile;

/* Checks, without creating anything, that path can be written: "-", a
 * special file, or a regular file (existing and writable, or new in a
 * writable directory).  HTA_ERR_IO with the reason otherwise. */
hta_status hta_outfile_check(const char *path, hta_diag *d);

/* 1 when path names the same file (device and inode, symlinks followed)
 * as an existing file input. */
int hta_outfile_same_file(const char *path, const char *input);

/* 1 when two outputs name one file: the same spelling, or the same
 * resolved directory and name (./x, sub/../x, /abs/x, a symlink to it),
 * whether or not the file exists yet.  "-" names no file. */
int hta_outfile_same_output(const char *a, const char *b);

/* Opens the output (checks as above, then creates the temporary file or
 * opens the special file). */
hta_status hta_outfile_open(hta_outfile *o, const char *path, hta_diag *d);

/* The name another library should write to (the temporary file, or the
 * special file itself); call with o->f closed and set to NULL by the
 * caller first when that library opens the name itself. */
const char *hta_outfile_name(const hta_outfile *o);

/* Flushes, checks, fsyncs, closes and renames onto the target.  After a
 * failure the temporary file is gone and the target unchanged. */
hta_status hta_outfile_commit(hta_outfile *o, hta_diag *d);

/* Commits the n outputs of one command as a set (NULL entries skipped):
 * every one written out and synced first, then all renamed; when any
 * fails, none is renamed and every temporary file is removed (a rename
 * failing after others succeeded is the one case left, and needs the
 * directory to change under the command). */
hta_status hta_outfile_commit_set(hta_outfile *const *os, int n, hta_diag *d);

/* Closes and removes the temporary file; safe after a failed open or a
 * commit. */
void hta_outfile_abort(hta_outfile *o);

/* Removes every temporary file currently open.  Async-signal-safe. */
void hta_outfile_remove_temps(void);

/* comment (NULL: none) as comment lines at the top of a file, one for
 * each of its lines (mark, a space and the line), so that no text a
 * caller gives can make a line the reader would take for data.  Every
 * writer of the library starts with it: '#' for instances, clusters and
 * job traces, 'c' for DIMACS formulas. */
void hta_write_comment(FILE *f, char mark, const char *comment);

#ifdef __cplusplus
}
#endif

#endif
