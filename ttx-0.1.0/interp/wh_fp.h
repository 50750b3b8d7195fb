/* Wormhole B0 Vector Unit (SFPU) floating-point multiply-add, the arithmetic
 * of SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT and SFPLUTFP32
 * (TC/SFPMAD.md "IEEE754 conformance / divergence", made exact by the
 * reference vectors, tests/vectors/README.md).  In interp/sfpu_mad.c.
 *
 * On FP32 bit patterns, a * b + c:
 *  - exponent 0 (zero or denormal) reads as zero;
 *  - the 48-bit product of the 24-bit significands is kept unnormalised as
 *    its bits 47..20 with the OR of bits 19..0 ORed into the lowest (24 + 3
 *    bits below 2, 24 + 4 at 2 or more), bit 46 at ep = ea + eb - 127;
 *    ep < 0 drops the product (it is zero), ep > 254 makes it Inf;
 *  - c is its significand with three zero bits below, at ec;
 *  - the operand with the smaller exponent is shifted right by the
 *    difference with a sticky bit (the OR of the lost bits) ORed into bit
 *    0, unless all of its bits are shifted out: then it is dropped, sticky
 *    included (docs/sfpu.md "What the MAD table pins down");
 *  - every bit below the 24 kept takes part in the rounding;
 *  - the sign-magnitude sum is rounded once, to nearest even at 24 bits;
 *    a result below 2^-126 after rounding (or exactly zero) is +0, one
 *    beyond the range is sign | Inf;
 *  - Inf and NaN operands: NaN * x, Inf * 0, (Inf product) - Inf give a NaN
 *    with the product's sign, a NaN c (otherwise) one with c's sign; an Inf
 *    product (otherwise) is sign | Inf, an Inf c is c.  A NaN result is
 *    sign | 0x7F800001 | m, m the mantissa the datapath above computes
 *    with exponent-255 operands as the numbers 1.m * 2^128 and ep clamped
 *    to at most 255 (m = 0 when that result is 0 or leaves the range). */
#ifndef TTX_INTERP_WH_FP_H
#define TTX_INTERP_WH_FP_H

#include <stdint.h>

/* The scalar bit-exact model: a * b + c. */
uint32_t ttx_wh_mad(uint32_t a, uint32_t b, uint32_t c);

/* The same over 32 lanes: d[i] = ttx_wh_mad(a[i], b[i], c[i]); d may be
   one of the inputs.  Vectorised, with a per-lane fallback to ttx_wh_mad
   (exponent-255 operands, product overflow, results out of the normal
   range); returns the mask of lanes that took it (for tests). */
uint32_t ttx_wh_mad_lanes(uint32_t d[32], const uint32_t a[32], const uint32_t b[32],
                          const uint32_t c[32]);

#endif
