/* Seeded pseudo-random numbers (xoshiro256**, seeded by splitmix64): the
 * same seed gives the same stream on every platform.  Plain value type. */
#ifndef HTA_RNG_H
#define HTA_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_rng {
    uint64_t s[4];
} hta_rng;

void hta_rng_seed(hta_rng *r, uint64_t seed);

/* The next 64 random bits (inline: the simulator draws several per
 * task). */
static inline uint64_t hta_rng_next(hta_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5, t = s[1] << 17;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform integer in [0, bound), bound >= 1, without modulo bias (by
 * rejection and a remainder: the stream every generator of instances
 * was defined with). */
uint64_t hta_rng_below(hta_rng *r, uint64_t bound);

/* Uniform integer in [0, bound), 1 <= bound < 2^32, without bias, by
 * Lemire's multiply-and-reject (a division only on the rare rejection):
 * a different stream from hta_rng_below, for hot loops. */
static inline uint32_t hta_rng_below32(hta_rng *r, uint32_t bound)
{
    uint64_t m = (hta_rng_next(r) >> 32) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t floor = (uint32_t)-bound % bound;
        while (low < floor) {
            m = (hta_rng_next(r) >> 32) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform double in [0, 1). */
static inline double hta_rng_unit(hta_rng *r)
{
    return (double)(hta_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
/* Fisher-Yates shuffle of a[0..len). */
void hta_rng_shuffle(hta_rng *r, int32_t *a, int64_t len);

#ifdef __cplusplus
}
#endif

#endif
