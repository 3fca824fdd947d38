/* Importer of `hdfs fsck <path> -files -blocks -locations [-racks]`
 * output (Hadoop 2 and 3): each block becomes a task, each datanode a
 * server; block ids, datanodes and racks are kept as names.
 *
 * Ownership: the instance and the missing-line array belong to the caller.
 */
#ifndef HTA_FSCK_H
#define HTA_FSCK_H

#include <stdint.h>

#include "hta/instance.h"

typedef struct hta_fsck_result {
    int64_t blocks;   /* block lines read (tasks + missing) */
    int64_t missing;  /* MISSING blocks: no replica, not a task */
    long *missing_line; /* their line numbers */
} hta_fsck_result;

/* Reads the fsck output at path.  Block lines are "<k>. <pool>:<blk>
 * len=... [Live_repl=...] [<locations>]" where a location is
 * DatanodeInfoWithStorage[<ip:port>,<storage>,<type>], /<rack>/<ip:port>
 * or <ip:port>.  A block marked MISSING is reported (res->missing_line)
 * and, with strict, an error; a block line that cannot be read is always
 * an error with its line.  O(size of the file). */
hta_status hta_fsck_import(const char *path, double w_loc,
                           const hta_wrem *wrem, int strict,
                           hta_instance **out, hta_fsck_result *res,
                           hta_diag *d);

#endif
