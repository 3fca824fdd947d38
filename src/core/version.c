/* The library's version, as it was built (version.h). */
#include "hta/version.h"

const char *hta_version(void)
{
    return HTA_VERSION;
}
