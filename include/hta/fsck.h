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
    /* per datanode (server id, 0..nodes-1): the line that gave it its
     * rack, else the line that first listed it (hta_fsck_set_levels
     * names it) */
    long *node_line;
    int64_t nodes;
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

/* The rack options agree, before any work: rack_depth is 0 (the whole
 * rack path) or 1..HTA_MAX_LEVELS - 2, and with nlev > 0 levels it is
 * nlev (the levels price that many names).  HTA_ERR_USAGE with the
 * command line's words (--rack-depth, --w-rack, --w-pod).  O(1). */
hta_status hta_fsck_check_depth(int nlev, int rack_depth, hta_diag *d);

/* Cuts every datanode's rack path to its last rack_depth names when
 * rack_depth > 0 (/dc1/rack3 -> /rack3 at 1: racks named alike in two
 * pods become one), then makes the imported inst an N-level instance
 * (levels.h), N = 2 + nlev (0: the paths only), its racks the
 * datanodes' racks.  HTA_ERR_INPUT at path and the datanode's line
 * (res->node_line; res may be NULL: no line) when a datanode has no
 * rack (fsck without -racks), a path has fewer names than rack_depth or
 * not nlev names (saying which option prices the extra name, or which
 * --rack-depth keeps the names priced), or the costs refuse;
 * HTA_ERR_USAGE as hta_fsck_check_depth.  O(n d log n). */
hta_status hta_fsck_set_levels(hta_instance *inst, const char *path,
                               const hta_fsck_result *res,
                               const hta_wrem *wlev, int nlev,
                               int rack_depth, hta_diag *d);

/* Releases the result's arrays; safe on a zeroed or freed result. */
void hta_fsck_result_free(hta_fsck_result *res);

#ifdef __cplusplus
}
#endif

#endif
