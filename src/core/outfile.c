/* Atomic output files (temporary file, fsync, rename). */
#define _POSIX_C_SOURCE 200809L
#include "hta/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

hta_status hta_outfile_open(hta_outfile *o, const char *path, hta_diag *d)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return HTA_OK;
    }
    size_t len = strlen(path);
    o->tmp = malloc(len + 16);
    if (!o->tmp)
        return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
    memcpy(o->tmp, path, len);
    memcpy(o->tmp + len, ".tmp.XXXXXX", 12);
    int fd = mkstemp(o->tmp);
    /* mkstemp creates 0600; the result should get the usual 0666 & ~umask */
    mode_t mask = umask(0);
    umask(mask);
    if (fd >= 0)
        fchmod(fd, 0666 & ~mask);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        hta_status st = hta_diag_set(d, HTA_ERR_IO, path, 0,
                                     "cannot create a temporary file: %s",
                                     strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return st;
    }
    return HTA_OK;
}

hta_status hta_outfile_commit(hta_outfile *o, hta_diag *d)
{
    if (!o->tmp) {
        if (fflush(o->f) != 0 || ferror(o->f))
            return hta_diag_set(d, HTA_ERR_IO, "<stdout>", 0, "write error");
        return HTA_OK;
    }
    /* A file written by name (o->f closed by the caller) is reopened to be
     * synced. */
    if (!o->f && !(o->f = fopen(o->tmp, "r+"))) {
        int err = errno;
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return hta_diag_set(d, HTA_ERR_IO, o->path, 0, "cannot write: %s",
                            strerror(err));
    }
    int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    int err = errno;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad || rename(o->tmp, o->path) != 0) {
        if (!bad)
            err = errno;
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return hta_diag_set(d, HTA_ERR_IO, o->path, 0, "cannot write: %s",
                            strerror(err));
    }
    free(o->tmp);
    o->tmp = NULL;
    return HTA_OK;
}

void hta_outfile_abort(hta_outfile *o)
{
    if (o->tmp) {
        if (o->f)
            fclose(o->f);
        unlink(o->tmp);
        free(o->tmp);
    }
    memset(o, 0, sizeof *o);
}
