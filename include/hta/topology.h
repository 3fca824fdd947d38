/* The one rack rule of hta, for generated placements and clusters alike:
 * a rack is a run of consecutive servers, rack_size of them (the last rack
 * may hold fewer), so server s is in rack s / rack_size.  Pods are runs of
 * consecutive racks, and so on (cluster.h).
 *
 * Ownership: plain values.
 */
#ifndef HTA_TOPOLOGY_H
#define HTA_TOPOLOGY_H

#include <stdint.h>

/* The rack of server s.  O(1). */
int64_t hta_rack_of(int64_t s, int64_t rack_size);

/* The rack size that splits n servers into exactly `racks` racks by the
 * rule above: ceil(n / racks), or 0 when that size makes another number
 * of racks (10 servers in 6 racks: size 2 makes 5).  O(1). */
int64_t hta_rack_size(int64_t n, int64_t racks);

#endif
