/* The rack rule: runs of consecutive servers. */
#include "hta/topology.h"

int64_t hta_rack_of(int64_t s, int64_t rack_size)
{
    return s / rack_size;
}

int64_t hta_rack_size(int64_t n, int64_t racks)
{
    if (n < 1 || racks < 1 || racks > n)
        return 0;
    int64_t size = (n + racks - 1) / racks;
    return (n + size - 1) / size == racks ? size : 0;
}
