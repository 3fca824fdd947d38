/* What this build of the library has: the optional engines.
 *
 * Ownership: static strings.
 */
#ifndef HTA_VERSION_H
#define HTA_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when hta was built with CBC, the optional second MIP engine (make
 * CBC=yes). */
int hta_cbc_available(void);

/* CBC's version ("2.10.8"), or "not built in". */
const char *hta_cbc_version(void);

#ifdef __cplusplus
}
#endif

#endif
