/* hta sim --policy-lib (policylib.c). */
#ifndef HTA_CLI_POLICYLIB_H
#define HTA_CLI_POLICYLIB_H

#include "hta/policy.h"

/* The policy of the shared library at path: 0 with *out and *handle
 * (dlclose it after the runs), or the exit code of the error printed. */
int cli_policy_lib(const char *path, const hta_policy **out, void **handle);

#endif
