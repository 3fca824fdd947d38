/* Invariants the papers state, checked where they are cheap to state.
 * HTA_CHECK is an assert in the test and sanitizer builds (HTA_CHECKED
 * defined) and nothing otherwise, for checks that cost O(n) or more per
 * step; plain assert() stays for O(1) invariants in every build. */
#ifndef HTA_CHECK_H
#define HTA_CHECK_H

#include <assert.h>

#ifdef HTA_CHECKED
#define HTA_CHECK(x) assert(x)
#else
#define HTA_CHECK(x) ((void)0)
#endif

#endif
