/* Seeded pseudo-random numbers (xoshiro256**, seeded by splitmix64): the
 * same seed gives the same stream on every platform.  Plain value type. */
#ifndef HTA_RNG_H
#define HTA_RNG_H

#include <stdint.h>

typedef struct hta_rng {
    uint64_t s[4];
} hta_rng;

void hta_rng_seed(hta_rng *r, uint64_t seed);
uint64_t hta_rng_next(hta_rng *r);
/* Uniform integer in [0, bound), bound >= 1, without modulo bias. */
uint64_t hta_rng_below(hta_rng *r, uint64_t bound);
/* Uniform double in [0, 1). */
double hta_rng_unit(hta_rng *r);
/* Fisher-Yates shuffle of a[0..len). */
void hta_rng_shuffle(hta_rng *r, int32_t *a, int64_t len);

#endif
