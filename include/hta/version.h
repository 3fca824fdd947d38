/* The library's version and what this build has: the optional engines.
 *
 * Ownership: static strings.
 */
#ifndef HTA_VERSION_H
#define HTA_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The one source of the version: `hta --version`, hta.pc, the Python
 * package's __version__ (semantic versioning, CHANGELOG.md). */
#define HTA_VERSION "0.3.0"

/* HTA_VERSION as the library was built (a program may run against
 * another libhta.so.0 than the headers it was built with). */
const char *hta_version(void);

/* 1 when hta was built with CBC, the optional second MIP engine (make
 * CBC=yes). */
int hta_cbc_available(void);

/* CBC's version ("2.10.8"), or "not built in". */
const char *hta_cbc_version(void);

#ifdef __cplusplus
}
#endif

#endif
