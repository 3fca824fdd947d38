/* Atomic output files: write to a temporary file beside the target, then
 * fsync and rename, so a failed or interrupted run never leaves a partial
 * file under the target's name.
 *
 * Ownership: hta_outfile owns its FILE and temporary name until commit or
 * abort; the target path is borrowed.
 */
#ifndef HTA_OUTFILE_H
#define HTA_OUTFILE_H

#include <stdio.h>

#include "hta/diag.h"

typedef struct hta_outfile {
    FILE *f;          /* write here */
    const char *path; /* target ("-" means standard output, not atomic) */
    char *tmp;        /* temporary file name, NULL for standard output */
} hta_outfile;

hta_status hta_outfile_open(hta_outfile *o, const char *path, hta_diag *d);

/* Flushes, fsyncs, closes and renames onto the target.  A caller that had
 * another library write the temporary file by name sets f to NULL (after
 * fclose) first. */
hta_status hta_outfile_commit(hta_outfile *o, hta_diag *d);

/* Removes the temporary file; safe after a failed open or a commit. */
void hta_outfile_abort(hta_outfile *o);

#endif
