/* Diagnostics: the one place that formats "path:line: error: ...". */
#include "hta/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hta_diag_clear(hta_diag *d)
{
    if (!d)
        return;
    d->path = NULL;
    d->line = 0;
    d->msg[0] = '\0';
}

hta_status hta_diag_set(hta_diag *d, hta_status status, const char *path,
                        long line, const char *fmt, ...)
{
    if (!d)
        return status;
    d->path = path;
    d->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return status;
}

void hta_diag_format(const hta_diag *d, char *buf, size_t size)
{
    if (d->path && d->line > 0)
        snprintf(buf, size, "%s:%ld: error: %s", d->path, d->line, d->msg);
    else if (d->path)
        snprintf(buf, size, "%s: error: %s", d->path, d->msg);
    else
        snprintf(buf, size, "error: %s", d->msg);
}

hta_status hta_diag_errno(hta_diag *d, const char *path, const char *what,
                          int err)
{
    if (err == ENOMEM)
        return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
    return hta_diag_set(d, HTA_ERR_IO, path, 0, "%s: %s", what,
                        strerror(err));
}
