/* Importer of `hdfs fsck <path> -files -blocks -locations [-racks]`
 * output (Hadoop 2 and 3): each block becomes a task, each datanode a
 * server; block ids, datanodes and racks are kept as names.
 *
 * Ownership: the instance belongs to the caller (hta_instance_free); the
 * result's arrays to the result (hta_fsck_result_free).
 */
#ifndef HTA_FSCK_H
#define HTA_FSCK_H

#include <stdint.h>

#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the import left as it found it, for the caller to print as
 * "path:line: warning: text". */
typedef struct hta_fsck_warning {
    long line;
    char text[160];
} hta_fsck_warning;

typedef struct hta_fsck_result {
    int64_t blocks;   /* block lines read (tasks + missing) */
    int64_t missing;  /* MISSING blocks: no replica, not a task */
    /* in line order: each MISSING block left out, each file whose
     * header's "N block(s)" disagrees with the block lines under it */
    hta_fsck_warning *warnings;
    int64_t nwarnings;
} hta_fsck_result;

/* Reads the fsck output at path.  Block lines are "<k>. <pool>:<blk>
 * len=... [Live_repl=...] [<locations>]" where a location is
 * DatanodeInfoWithStorage[<ip:port>,<storage>,<type>], /<rack>/<ip:port>
 * or <ip:port>.  A block marked MISSING is reported (res->warnings, at its
 * line) and, with strict, an error; a block line that cannot
 * be read, or a datanode listed in two racks, is always an error with
 * its line; a file header's "N block(s)" over another number of block
 * lines is a warning.  O(size of the file). */
hta_status hta_fsck_import(const char *path, double w_loc,
                           const hta_wrem *wrem, int strict,
                           hta_instance **out, hta_fsck_result *res,
                           hta_diag *d);

/* Makes the imported inst an N-level instance (levels.h), N = 2 + nlev,
 * its racks the datanodes' racks: HTA_ERR_INPUT at path when a datanode
 * has none (fsck without -racks) or the levels refuse (wrong depths,
 * costs).  O(n d log n). */
hta_status hta_fsck_set_levels(hta_instance *inst, const char *path,
                               const hta_wrem *wlev, int nlev, hta_diag *d);

/* Releases the result's arrays; safe on a zeroed or freed result. */
void hta_fsck_result_free(hta_fsck_result *res);

#ifdef __cplusplus
}
#endif

#endif
