/* Random draws: the Poisson counts of arrivals, and service times from
 * each task's own hash chain (common random numbers: every policy sees
 * one sample path). */
#include <math.h>
#include "sim_impl.h"

/* ---- random numbers ---- */

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in (0, 1] from a 64-bit value. */
static double unit_open(uint64_t x)
{
    return ((double)(x >> 11) + 1.0) * 0x1.0p-53;
}

/* Poisson(lam): multiplication for small means, Hormann's PTRS
 * transformed rejection otherwise. */
int64_t sim_poisson(hta_rng *r, double lam)
{
    if (lam <= 0)
        return 0;
    if (lam < 10) {
        double L = exp(-lam), p = 1;
        int64_t k = 0;
        for (;;) {
            p *= hta_rng_unit(r);
            if (p <= L)
                return k;
            k++;
        }
    }
    double slam = sqrt(lam), loglam = log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4);
    double vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double U = hta_rng_unit(r) - 0.5, V = hta_rng_unit(r);
        double us = 0.5 - fabs(U);
        double k = floor((2 * a / us + b) * U + lam + 0.43);
        if (us >= 0.07 && V <= vr)
            return (int64_t)k;
        if (k < 0 || (us < 0.013 && V > us))
            continue;
        if (log(V) + log(invalpha) - log(a / (us * us) + b) <=
            -lam + k * loglam - lgamma(k + 1))
            return (int64_t)k;
    }
}

/* ---- service times (common random numbers) ---- */

/* Marsaglia and Tsang's ziggurat for the standard normal (J. Stat.
 * Softw. 5(8), 2000), 128 layers: a draw lands inside its layer's
 * rectangle, where it is returned at the cost of one multiplication,
 * 98.8% of the time; otherwise the wedge is tested against the density,
 * or the tail beyond r = 3.44262 sampled by Marsaglia's method.  Exact
 * (rejection), unlike an approximate inverse.  The sign and 31 bits of
 * the value come from the high half of a hash, the layer from its low 7
 * bits (independent bits, which the original 32-bit RNOR did not use;
 * sign and magnitude instead of its signed integer: no conversion out of
 * range, and a symmetric law). */
void sim_zig_init(sim *s)
{
    const double m1 = 2147483648.0, vn = 9.91256303526217e-3;
    double dn = 3.442619855899, tn = dn;
    double q = vn / exp(-0.5 * dn * dn);
    s->zk[0] = (uint32_t)(dn / q * m1);
    s->zk[1] = 0;
    s->zw[0] = q / m1;
    s->zw[127] = dn / m1;
    s->zf[0] = 1;
    s->zf[127] = exp(-0.5 * dn * dn);
    for (int i = 126; i >= 1; i--) {
        dn = sqrt(-2 * log(vn / dn + exp(-0.5 * dn * dn)));
        s->zk[i + 1] = (uint32_t)(dn / tn * m1);
        tn = dn;
        s->zf[i] = exp(-0.5 * dn * dn);
        s->zw[i] = dn / m1;
    }
}

/* A standard normal from the task's own hash chain, starting at h. */
static double normal(const sim *s, uint64_t h)
{
    const double r = 3.442619855899;
    for (;;) {
        h = mix(h);
        uint32_t az = (uint32_t)(h >> 32) & 0x7FFFFFFFu; /* |value| */
        int neg = (int)(h >> 63);                          /* its sign */
        int iz = (int)(h & 127);
        double x = (neg ? -(double)az : (double)az) * s->zw[iz];
        if (az < s->zk[iz])
            return x;
        if (iz == 0) { /* the tail */
            double y;
            do {
                h = mix(h);
                x = -log(unit_open(h)) / r;
                h = mix(h);
                y = -log(unit_open(h));
            } while (y + y < x * x);
            return neg ? -r - x : r + x;
        }
        h = mix(h);
        if (s->zf[iz] + unit_open(h) * (s->zf[iz - 1] - s->zf[iz]) <
            exp(-0.5 * x * x))
            return x;
    }
}


int64_t sim_service_slots(const sim *s, int64_t id, int level)
{
    double a = s->aslot[level - 1];
    uint64_t h = mix(s->o->seed ^ mix((uint64_t)id * 8 + (uint64_t)level));
    double u = unit_open(h), x;
    switch (s->o->service) {
    case HTA_SVC_GEOMETRIC:
        /* ceil(log u / log(1 - a)): the least k >= 1 with
         * u >= (1 - a)^k; the first 8 by table, then the logarithm */
        if (a >= 1)
            return 1;
        for (int k = 0; k < 8; k++)
            if (u >= s->gthr[level - 1][k])
                return k + 1;
        x = ceil(log(u) * s->geo[level - 1]);
        break;
    case HTA_SVC_EXPONENTIAL:
        x = -log(u) / a;
        break;
    case HTA_SVC_DETERMINISTIC:
        x = 1 / a;
        break;
    default: /* log-normal of mean 1/a and the given cv */
        x = exp(s->ln_mu[level - 1] + s->ln_sig * normal(s, h));
        break;
    }
    if (s->o->service != HTA_SVC_GEOMETRIC) {
        /* a continuous time x (slots): floor(x) slots and one more with
         * probability frac(x), so the mean stays x; at least 1 slot */
        double w = unit_open(mix(h ^ 0xA5A5A5A5A5A5A5A5ull)), f = floor(x);
        x = f + (w <= x - f ? 1 : 0);
    }
    if (!(x >= 1))
        x = 1;
    if (x > 1e15)
        x = 1e15;
    return (int64_t)x;
}
