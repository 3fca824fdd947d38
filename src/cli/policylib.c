/* hta sim --policy-lib: a policy of the user's from a shared library
 * (hta/policy.h): dlopen, the entry symbol, the ABI the library was
 * built for, then the table's own check (hta_policy_check), each a
 * message naming the library and exit 3, before any work. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hta/sim.h"
#include "cli.h"
#include "policylib.h"

/* The library at path refused: closed, the words printed; the exit
 * code. */
static int refused(void *h, const char *path, hta_diag *d)
{
    dlclose(h);
    d->path = path;
    return cli_report(HTA_ERR_INPUT, d);
}

int cli_policy_lib(const char *path, const hta_policy **out, void **handle)
{
    hta_diag d;
    hta_diag_clear(&d);
    *out = NULL;
    *handle = NULL;
    /* a bare name would be looked up in the system's library paths */
    char local[4096];
    snprintf(local, sizeof local, "%s%s", strchr(path, '/') ? "" : "./",
             path);
    FILE *f = fopen(path, "rb"); /* missing, unreadable: as every input */
    if (!f)
        return cli_report(hta_diag_errno(&d, path, "cannot open", errno), &d);
    fclose(f);
    void *h = dlopen(local, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        const char *at = why ? strstr(why, ": ") : NULL;
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected a shared library of a policy, found one "
                     "that does not load (%s)",
                     at ? at + 2 : why ? why : "?");
        return cli_report(HTA_ERR_INPUT, &d);
    }
    dlerror();
    hta_policy_entry_fn entry;
    void *sym = dlsym(h, HTA_POLICY_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* ISO C: no object-to-function
                                           pointer cast */
    if (!sym) {
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected the entry symbol %s (hta/policy.h), found "
                     "none", HTA_POLICY_ENTRY);
        return refused(h, path, &d);
    }
    const hta_policy *p = entry(HTA_POLICY_ABI);
    if (!p) {
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected a policy of ABI %d, found none: the library "
                     "was built for another", HTA_POLICY_ABI);
        return refused(h, path, &d);
    }
    if (hta_policy_check(p, &d) != HTA_OK)
        return refused(h, path, &d);
    *out = p;
    *handle = h;
    return 0;
}
