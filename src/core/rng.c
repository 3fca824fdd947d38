/* xoshiro256** (Blackman and Vigna) seeded by splitmix64. */
#include "hta/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void hta_rng_seed(hta_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t hta_rng_below(hta_rng *r, uint64_t bound)
{
    /* Rejection keeps every value equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = hta_rng_next(r);
    while (x >= limit);
    return x % bound;
}

void hta_rng_shuffle(hta_rng *r, int32_t *a, int64_t len)
{
    for (int64_t i = len - 1; i > 0; i--) {
        int64_t j = (int64_t)hta_rng_below(r, (uint64_t)i + 1);
        int32_t tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}
