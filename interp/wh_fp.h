/* Wormhole B0 Vector Unit (SFPU) floating-point multiply-add, the arithmetic
 * behind SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT and SFPLUTFP32
 * (TC/SFPMAD.md "IEEE754 conformance / divergence"; the numerics are pinned
 * down by tests/vectors/README.md).  Implemented in interp/sfpu_mad.c. */
#ifndef TTX_INTERP_WH_FP_H
#define TTX_INTERP_WH_FP_H

#include <stdint.h>

/* The scalar bit-exact reference: a * b + c on FP32 bit patterns. */
uint32_t ttx_wh_mad(uint32_t a, uint32_t b, uint32_t c);

/* The same over 32 lanes: d[i] = ttx_wh_mad(a[i], b[i], c[i]), vectorised
   with a per-lane fallback to ttx_wh_mad.  Returns the mask of lanes that
   took the fallback (for tests; the results are the same either way). */
uint32_t ttx_wh_mad_lanes(uint32_t d[32], const uint32_t a[32], const uint32_t b[32],
                          const uint32_t c[32]);

#endif
