/* Output files: atomic rewrite of regular files, written through for
 * special files and standard output, temporary files removable from a
 * signal handler. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "hta/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The registry of temporary files being written.  Slots are claimed and
 * released outside signal handlers; a handler only reads them. */
#define MAX_TEMPS 16
static char *volatile temps[MAX_TEMPS];

void hta_outfile_remove_temps(void)
{
    for (int i = 0; i < MAX_TEMPS; i++) {
        char *t = temps[i];
        if (t)
            unlink(t);
    }
}

static int claim(char *tmp)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temps[i]) {
            temps[i] = tmp;
            return i;
        }
    return -1;
}

static void release(int slot)
{
    if (slot >= 0)
        temps[slot] = NULL;
}

static int is_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

/* The directory part of path ("." when none), in buf. */
static void dir_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else if (slash == path)
        snprintf(buf, size, "/");
    else
        snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

/* What is at path: the final target (symlinks followed) in *target when
 * it is (or will be) a regular file, else NULL; *special set when it is a
 * special file.  Checks writability. */
static hta_status examine(const char *path, char **target, int *special,
                          struct stat *sb, int *exists, hta_diag *d)
{
    *target = NULL;
    *special = 0;
    *exists = 0;
    struct stat lsb;
    if (lstat(path, &lsb) != 0) {
        if (errno != ENOENT)
            return hta_diag_set(d, HTA_ERR_IO, path, 0, "cannot write: %s",
                                strerror(errno));
        char dir[PATH_MAX];
        dir_of(path, dir, sizeof dir);
        struct stat dsb;
        if (stat(dir, &dsb) != 0)
            return hta_diag_set(d, HTA_ERR_IO, path, 0,
                                "cannot write: directory %s: %s", dir,
                                strerror(errno));
        if (!S_ISDIR(dsb.st_mode))
            return hta_diag_set(d, HTA_ERR_IO, path, 0,
                                "cannot write: %s is not a directory", dir);
        if (access(dir, W_OK | X_OK) != 0)
            return hta_diag_set(d, HTA_ERR_IO, path, 0,
                                "cannot write: directory %s: %s", dir,
                                strerror(errno));
        if (!(*target = strdup(path)))
            return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                "out of memory");
        return HTA_OK;
    }
    if (S_ISLNK(lsb.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real)
            return hta_diag_errno(d, path,
                                  "cannot write: symbolic link to nowhere",
                                  errno);
        hta_status st = examine(real, target, special, sb, exists, d);
        free(real);
        if (st != HTA_OK)
            d->path = path;
        return st;
    }
    *exists = 1;
    *sb = lsb;
    if (S_ISDIR(lsb.st_mode))
        return hta_diag_set(d, HTA_ERR_IO, path, 0,
                            "cannot write: is a directory");
    if (!S_ISREG(lsb.st_mode)) {
        *special = 1;
        if (access(path, W_OK) != 0)
            return hta_diag_set(d, HTA_ERR_IO, path, 0, "cannot write: %s",
                                strerror(errno));
        return HTA_OK;
    }
    /* Root passes access(W_OK) on a 0444 file; a file nobody may write is
     * read-only for hta too. */
    if (access(path, W_OK) != 0 || (lsb.st_mode & 0222) == 0)
        return hta_diag_set(d, HTA_ERR_IO, path, 0,
                            "cannot write: the file is read-only");
    char dir[PATH_MAX];
    dir_of(path, dir, sizeof dir);
    if (access(dir, W_OK | X_OK) != 0)
        return hta_diag_set(d, HTA_ERR_IO, path, 0,
                            "cannot write: directory %s: %s", dir,
                            strerror(errno));
    if (!(*target = strdup(path)))
        return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
    return HTA_OK;
}

hta_status hta_outfile_check(const char *path, hta_diag *d)
{
    if (is_stdout(path))
        return HTA_OK;
    char *target;
    int special, exists;
    struct stat sb;
    hta_status st = examine(path, &target, &special, &sb, &exists, d);
    free(target);
    return st;
}

int hta_outfile_same_file(const char *path, const char *input)
{
    struct stat a, b;
    if (is_stdout(path) || is_stdout(input))
        return 0;
    if (stat(path, &a) != 0 || stat(input, &b) != 0)
        return 0;
    /* Writing through a special file read as input (a FIFO both ways) is
     * the user's business; a regular file would be destroyed. */
    return S_ISREG(a.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* path resolved: the real path of what exists (symlinks followed), else
 * the real path of its directory and its name; 0 when neither resolves. */
static int resolved(const char *path, char *out)
{
    if (realpath(path, out))
        return 1;
    char dir[PATH_MAX], real[PATH_MAX];
    dir_of(path, dir, sizeof dir);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 ||
        !realpath(dir, real))
        return 0;
    int n = snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "",
                     base);
    return n > 0 && n < PATH_MAX;
}

int hta_outfile_same_output(const char *a, const char *b)
{
    if (is_stdout(a) || is_stdout(b))
        return 0;
    if (strcmp(a, b) == 0)
        return 1;
    char ra[PATH_MAX], rb[PATH_MAX];
    return resolved(a, ra) && resolved(b, rb) && strcmp(ra, rb) == 0;
}

hta_status hta_outfile_open(hta_outfile *o, const char *path, hta_diag *d)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->slot = -1;
    if (is_stdout(path)) {
        o->f = stdout;
        return HTA_OK;
    }
    int special, exists;
    struct stat sb;
    hta_status st = examine(path, &o->target, &special, &sb, &exists, d);
    if (st != HTA_OK)
        return st;
    if (special) {
        if (!(o->f = fopen(path, "w")))
            return hta_diag_errno(d, path, "cannot write", errno);
        return HTA_OK;
    }
    size_t len = strlen(o->target);
    if (!(o->tmp = malloc(len + 12))) {
        free(o->target);
        o->target = NULL;
        return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
    }
    memcpy(o->tmp, o->target, len);
    memcpy(o->tmp + len, ".tmp.XXXXXX", 12);
    /* Blocked while the registry changes, so a handler never sees a half
     * registered name and the file never exists unregistered. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int fd = mkstemp(o->tmp);
    if (fd >= 0 && (o->slot = claim(o->tmp)) < 0) {
        close(fd);
        unlink(o->tmp);
        fd = -1;
        errno = EMFILE;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd >= 0) {
        /* mkstemp creates 0600: an existing file keeps its mode and owner,
         * a new one gets the usual 0666 & ~umask. */
        if (exists) {
            fchmod(fd, sb.st_mode & 07777);
            if (fchown(fd, sb.st_uid, sb.st_gid) != 0) {
                /* Not permitted for other users' files: the mode is kept,
                 * the owner becomes the writer, as with any editor. */
            }
        } else {
            mode_t mask = umask(0);
            umask(mask);
            fchmod(fd, 0666 & ~mask);
        }
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        hta_outfile_abort(o);
        return hta_diag_errno(d, path, "cannot create a temporary file", err);
    }
    return HTA_OK;
}

const char *hta_outfile_name(const hta_outfile *o)
{
    return o->tmp ? o->tmp : o->path;
}

/* The first phase of a commit: everything written reaches the disk
 * (flushed, checked, fsynced, closed), nothing renamed yet.  A special
 * file or standard output is flushed (and closed) and done.  On failure
 * the temporary file is gone. */
static hta_status finish(hta_outfile *o, hta_diag *d)
{
    const char *shown = is_stdout(o->path) ? "<stdout>" : o->path;
    if (!o->tmp) {
        if (!o->f)
            return HTA_OK; /* a special file written by name, or done */
        int bad = fflush(o->f) != 0 || ferror(o->f);
        int err = errno;
        if (o->f && o->f != stdout && fclose(o->f) != 0 && !bad)
            bad = 1, err = errno;
        if (o->f != stdout)
            o->f = NULL;
        if (bad)
            return hta_diag_set(d, HTA_ERR_IO, shown, 0,
                                "write error: %s", strerror(err));
        return HTA_OK;
    }
    /* A file written by name (o->f closed by the caller) is reopened to be
     * synced. */
    if (!o->f && !(o->f = fopen(o->tmp, "r+"))) {
        int err = errno;
        hta_outfile_abort(o);
        return hta_diag_errno(d, shown, "cannot write", err);
    }
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    int err = errno;
    if (bad && !err) {
        /* a write failed earlier and errno has moved on since: the cause
         * from one more byte (the file is removed below anyway) */
        clearerr(o->f);
        err = fputc('\n', o->f) == EOF || fflush(o->f) != 0 ? errno : 0;
        if (!err)
            err = EIO;
    }
    if (fclose(o->f) != 0 && !bad)
        bad = 1, err = errno;
    o->f = NULL;
    if (bad) {
        hta_outfile_abort(o);
        return hta_diag_set(d, HTA_ERR_IO, shown, 0, "write error: %s",
                            strerror(err));
    }
    return HTA_OK;
}

/* The second phase: the temporary file renamed onto its target. */
static hta_status install(hta_outfile *o, hta_diag *d)
{
    if (o->tmp && rename(o->tmp, o->target) != 0) {
        int err = errno;
        hta_outfile_abort(o);
        return hta_diag_set(d, HTA_ERR_IO, o->path, 0, "write error: %s",
                            strerror(err));
    }
    if (o->tmp)
        release(o->slot);
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
    o->slot = -1;
    return HTA_OK;
}

hta_status hta_outfile_commit(hta_outfile *o, hta_diag *d)
{
    hta_status st = finish(o, d);
    return st == HTA_OK ? install(o, d) : st;
}

hta_status hta_outfile_commit_set(hta_outfile *const *os, int n, hta_diag *d)
{
    hta_status st = HTA_OK;
    for (int i = 0; i < n && st == HTA_OK; i++)
        if (os[i])
            st = finish(os[i], d);
    for (int i = 0; i < n && st == HTA_OK; i++)
        if (os[i])
            st = install(os[i], d);
    for (int i = 0; i < n; i++) /* after a failure: the rest removed */
        if (os[i] && st != HTA_OK)
            hta_outfile_abort(os[i]);
    return st;
}

void hta_outfile_abort(hta_outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        release(o->slot);
        sigprocmask(SIG_SETMASK, &old, NULL);
        free(o->tmp);
    }
    free(o->target);
    memset(o, 0, sizeof *o);
    o->slot = -1;
}

void hta_write_comment(FILE *f, char mark, const char *comment)
{
    for (const char *p = comment; p && *p;) {
        const char *eol = strchr(p, '\n');
        int len = eol ? (int)(eol - p) : (int)strlen(p);
        fprintf(f, "%c %.*s\n", mark, len, p);
        p += len + (eol != NULL);
    }
}
