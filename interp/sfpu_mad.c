/* Vector Unit (SFPU) MAD sub-unit (TC/VectorUnit.md "Sub-units"):
 * SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT, SFPLUTFP32.
 *
 * All of them compute a * b + c with the Wormhole MAD numerics.  The pages
 * only say "partially fused" (TC/SFPMAD.md); the model here is the one the
 * reference vectors pin down (tests/vectors/README.md, MAD numerics):
 * ttx_wh_mad is the scalar statement of it, ttx_wh_mad_lanes the 32-lane
 * version the handlers use, which falls back to ttx_wh_mad for the lanes it
 * does not handle (tests/test_sfpu_mad.c checks the two agree). */
#include <math.h>
#include <string.h>

#include "sfpu.h"
#include "wh_fp.h"

#define EXP(x) ((int)((x) >> 23 & 0xFF))
#define MAN(x) ((x) & 0x7FFFFFu)
#define INF 0x7F800000u

/* The datapath of the MAD on FP32 bit patterns whose exponent fields are
 * taken at face value, 255 included (Inf and NaN operands are the numbers
 * 1.m * 2^128); exponent 0 reads as zero.
 *
 * The product of the 24-bit significands (48 bits, value in [1, 4)) is kept
 * unnormalised: its top 28 bits, 47..20, with the OR of bits 19..0 ORed into
 * the lowest, at the exponent ep = ea + eb - 127 of bit 46.  So a product
 * below 2 keeps 24 + 3 bits, one of 2 or more 24 + 4 bits.  ep < 0 drops the
 * product; ep > 254 is an overflow (the result is sign | Inf), unless
 * nan_path, where ep is clamped to 255 instead.  The addend is its 24-bit significand with three
 * zero bits below.  The operand with the smaller exponent is shifted right
 * by the exponent difference with a sticky bit (the OR of every bit shifted
 * out) ORed into bit 0, but only while one of its bits is still in the
 * frame: an operand shifted out altogether, by at least its own width (27
 * bits for the addend, 27 or 28 for the product), is dropped, sticky
 * included (docs/sfpu.md "MAD numerics": the MAD table pins this for the
 * addend).  Both are added in sign-magnitude, and the sum is normalised and
 * rounded once to nearest even, every bit below the 24 kept taking part,
 * except bit 1 of a sum that carried out of the frame.  Results below
 * 2^-126 after rounding are +0, above the range sign | Inf; exact zero is
 * +0. */
static uint32_t datapath(uint32_t a, uint32_t b, uint32_t c, int nan_path)
{
	int ea = EXP(a), eb = EXP(b), ec = EXP(c);
	uint32_t sp = (a ^ b) >> 31, sc = c >> 31;
	uint64_t p = 0;   /* bit 26 has weight 2^(ep - 127) */
	int ep = 0;
	if (ea != 0 && eb != 0) {
		uint64_t prod = (uint64_t)(MAN(a) | 0x800000u) * (MAN(b) | 0x800000u);
		ep = ea + eb - 127;
		if (ep > 255 && nan_path)
			ep = 255;
		if (ep < 0) {
			p = 0;
		} else if (ep > 254 && !nan_path) {
			return sp << 31 | INF;
		} else {
			p = prod >> 20 | ((prod & 0xFFFFF) != 0);
		}
	}
	uint64_t q = ec != 0 ? (uint64_t)(MAN(c) | 0x800000u) << 3 : 0;
	if (p == 0 && q == 0)
		return 0;
	uint64_t big, small;
	int d, e;
	uint32_t sbig, ssmall;
	if (q == 0 || (p != 0 && ep >= ec)) {
		big = p, small = q, d = ep - ec, e = ep, sbig = sp, ssmall = sc;
	} else {
		big = q, small = p, d = ec - ep, e = ec, sbig = sc, ssmall = sp;
	}
	if (small == 0 || d == 0) {
		/* nothing to shift */
	} else if (d >= 32 || small >> d == 0) {
		small = 0;   /* every bit shifted out: no sticky either */
	} else {
		uint64_t lost = small & ((1ull << d) - 1);
		small = small >> d | (lost != 0);
	}
	uint32_t sign = sbig;
	uint64_t sum;
	if (sbig == ssmall) {
		sum = big + small;
	} else if (big >= small) {
		sum = big - small;
	} else {
		sum = small - big;
		sign ^= 1;
	}
	if (sum == 0)
		return 0;
	/* A sum that carries out of the 28-bit frame (bit 28 set) is rounded
	   without its bit 1: the shift right by one that normalises it puts
	   the bit shifted out in the frame's lowest bit instead of ORing it in
	   (docs/sfpu.md "MAD numerics"; the one triple of 10^6 off the table
	   that the plain rounding missed, tests/test_mad_table.c). */
	if (sum >> 28)
		sum &= ~2ull;
	/* Normalise and round to nearest even. */
	int top = 63 - __builtin_clzll(sum);
	int exp = e + top - 26;
	uint64_t keep;
	if (top > 23) {
		int sh = top - 23;
		keep = sum >> sh;
		uint64_t rem = sum & ((1ull << sh) - 1), half = 1ull << (sh - 1);
		if (rem > half || (rem == half && (keep & 1)))
			keep++;
		if (keep >> 24) {
			keep >>= 1;
			exp++;
		}
	} else {
		keep = sum << (23 - top);
	}
	if (exp < 1)
		return 0;
	if (exp > 254)
		return sign << 31 | INF;
	return sign << 31 | (uint32_t)exp << 23 | (uint32_t)(keep & 0x7FFFFF);
}

uint32_t ttx_wh_mad(uint32_t a, uint32_t b, uint32_t c)
{
	int ea = EXP(a), eb = EXP(b), ec = EXP(c);
	uint32_t sp = (a ^ b) >> 31, sc = c >> 31;
	int a_nan = ea == 255 && MAN(a), b_nan = eb == 255 && MAN(b), c_nan = ec == 255 && MAN(c);
	int a_inf = ea == 255 && !MAN(a), b_inf = eb == 255 && !MAN(b), c_inf = ec == 255 && !MAN(c);
	/* The product is Inf when an operand is, or when it overflows. */
	int p_inf = a_inf || b_inf || (ea != 0 && eb != 0 && ea + eb - 127 > 254);
	uint32_t nan_sign;
	if (a_nan || b_nan || ((a_inf || b_inf) && (ea == 0 || eb == 0)))
		nan_sign = sp;              /* NaN * x, Inf * 0 */
	else if (c_nan)
		nan_sign = sc;
	else if (p_inf && c_inf && sc != sp)
		nan_sign = sp;              /* Inf - Inf */
	else if (p_inf)
		return sp << 31 | INF;
	else if (c_inf)
		return c;
	else
		return datapath(a, b, c, 0);
	/* A NaN: the mantissa the datapath computes with exponent 255 as a
	   number (0 when the result leaves the range or is zero), bit 0 set. */
	uint32_t r = datapath(a, b, c, 1);
	uint32_t m = (r & INF) == INF ? 0 : MAN(r);
	return nan_sign << 31 | INF | m | 1;
}

/* ---- the 32-lane version ----
 *
 * datapath() for 16 lanes at a time in 32-bit SIMD lanes, exactly, for the
 * lanes whose operands have no exponent 255, whose product does not
 * overflow and whose result is neither below 2^-126 (and non-zero) nor above
 * the range; those (rare) lanes are returned in a mask and recomputed with
 * ttx_wh_mad.  The differences with datapath() are in form only:
 *  - the product's bits 47..20 and the sticky of 19..0 come from an FP32
 *    multiply and FMA (AVX-512) or from two mul_epu32 (elsewhere), see
 *    sig_product; it is computed with the hidden bit set even for exponent
 *    0, as the exponent takes care of it:
 *  - a zero (or dropped) operand gets exponent -1000, so that the other one
 *    is "big" and the zero one is shifted out; when both are zero the result
 *    is forced to +0;
 *  - the sticky of a right shift by sh is whether (small << (31 - sh)) has
 *    a bit below bit 31 (false for sh = 0 and for sh >= 32, the count then
 *    being >= 32 as unsigned) and (small >> sh) is not 0;
 *  - rounding: |sum| < 2^29 is converted to FP32 by the converter, which
 *    rounds to nearest even at 24 bits exactly like datapath(); the
 *    exponent field then moves by e - 153 (the weight of frame bit 0). */

static inline __attribute__((always_inline)) simde__m512i splat32(uint32_t x)
{
	return simde_mm512_set1_epi32((int32_t)x);
}

/* Unsigned 32-bit integers to FP32 bit patterns, rounded to nearest even.
   AVX-512 converts in one instruction; SIMDe's portable form of that
   instruction does not round the same way for every value, so elsewhere ttx
   converts lane by lane with C's conversion (round to nearest even). */
static inline __attribute__((always_inline)) simde__m512i u32_to_f32_bits(simde__m512i u)
{
#if defined(SIMDE_X86_AVX512F_NATIVE) || defined(TTX_SIMD16_GENERIC)
	return simde_mm512_castps_si512(simde_mm512_cvtepu32_ps(u));   /* (simd16.h's form elsewhere) */
#else
	uint32_t in[16], out[16];
	simde_mm512_storeu_si512(in, u);
	for (unsigned i = 0; i < 16; i++) {
		float f = (float)in[i];
		memcpy(&out[i], &f, 4);
	}
	return simde_mm512_loadu_si512(out);
#endif
}

/* Bits 47..20 of the 48-bit product of the significands of a and b (the
   hidden bit always set: the caller drops the products of zeros), with the
   OR of bits 19..0 ORed into bit 0. */
static inline __attribute__((always_inline)) simde__m512i sig_product(simde__m512i a, simde__m512i b)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
	/* In FP32: x = 1.ma * 2^26 and y = 1.mb are exact, and so is
	   x * y = product / 2^20 = hi + lo, with hi = x * y rounded (an
	   integer: at least 2^26, so its ulp is 8 or 16) and lo = x * y - hi
	   (an FMA; exact, |lo| <= 8).  product >> 20 is hi + floor(lo); the
	   sticky comes from the low 32 bits of the product of the bit
	   patterns, whose bits 22..0 are those of the significand product
	   (the patterns equal the significands modulo 2^23). */
	const __m512i M23 = _mm512_set1_epi32(0x7FFFFF);
	__m512 x = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(a, M23, _mm512_set1_epi32(153 << 23), 0xEA));
	__m512 y = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(b, M23, _mm512_set1_epi32(127 << 23), 0xEA));
	__m512 hi = _mm512_mul_ps(x, y);
	__m512 lo = _mm512_fmsub_ps(x, y, hi);
	__m512i p = _mm512_add_epi32(_mm512_cvtps_epi32(hi),
	                             _mm512_cvt_roundps_epi32(lo, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
	__m512i low = _mm512_mullo_epi32(_mm512_castps_si512(x), _mm512_castps_si512(y));
	return _mm512_mask_or_epi32(p, _mm512_test_epi32_mask(low, _mm512_set1_epi32(0xFFFFF)), p,
	                            _mm512_set1_epi32(1));
#elif defined(TTX_SIMD16_GENERIC)
	/* each 64-bit lane's two products (even and odd 32-bit lanes) whole,
	   in the host's vectors (simd16.h): bits 47..20 and the OR of 19..0
	   back in each product's own 32-bit lane */
	const simde__m512i M23 = splat32(0x7FFFFF), ONE = splat32(0x800000);
	ttx_v512 ma = simde_mm512_ternarylogic_epi32(a, M23, ONE, 0xEA);
	ttx_v512 mb = simde_mm512_ternarylogic_epi32(b, M23, ONE, 0xEA), r;
	TTX_PARTS(k) {
		ttx_vq x = (ttx_vq)ma.p[k], y = (ttx_vq)mb.p[k];
		ttx_vq pe = (x & 0xFFFFFFFFu) * (y & 0xFFFFFFFFu), po = (x >> 32) * (y >> 32);
		ttx_vi hi = (ttx_vi)((pe >> 20) | (po >> 20) << 32);
		ttx_vi lo = (ttx_vi)((pe & 0xFFFFF) | (po & 0xFFFFF) << 32);
		r.p[k] = hi | ((lo != 0) & 1);
	}
	return r;
#else
	/* (product << 12) has them in its high and low dwords: from two
	   mul_epu32 (even and odd lanes), gathered back (lane 2j from dword
	   2j (+1) of the first vector, lane 2j+1 from dword 2j (+1) of the
	   second) */
	static const int32_t gather_lo[16] = { 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30 };
	static const int32_t gather_hi[16] = { 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31 };
	const simde__m512i M23 = splat32(0x7FFFFF), ONE = splat32(0x800000);
	simde__m512i ma = simde_mm512_ternarylogic_epi32(a, M23, ONE, 0xEA);
	simde__m512i mb = simde_mm512_ternarylogic_epi32(b, M23, ONE, 0xEA);
	simde__m512i pe = simde_mm512_slli_epi64(simde_mm512_mul_epu32(ma, mb), 12);
	simde__m512i po = simde_mm512_slli_epi64(simde_mm512_mul_epu32(simde_mm512_srli_epi64(ma, 32),
	                                                               simde_mm512_srli_epi64(mb, 32)), 12);
	simde__m512i p = simde_mm512_permutex2var_epi32(pe, simde_mm512_loadu_si512(gather_hi), po);
	simde__m512i low = simde_mm512_permutex2var_epi32(pe, simde_mm512_loadu_si512(gather_lo), po);
	return simde_mm512_mask_or_epi32(p, simde_mm512_test_epi32_mask(low, low), p, splat32(1));
#endif
}

/* ttx_wh_mad's special operands for 16 lanes (Inf and NaN are exponent
   255; the product is Inf when an operand is or when it overflows):
   lanes whose result is a NaN stay with the scalar model (its mantissa
   comes from the datapath at exponent 255); an Inf product gives sign |
   Inf, else an Inf addend gives itself.  r is the datapath's result for
   the other lanes. */
static inline __attribute__((always_inline)) simde__m512i specials16(simde__m512i r, simde__m512i a, simde__m512i b,
                                                                     simde__m512i c, simde__mmask16 povf,
                                                                     simde__mmask16 *nan)
{
	const simde__m512i E = splat32(INF), ABS = splat32(0x7FFFFFFFu), SIGN = splat32(0x80000000u);
	simde__m512i ma = simde_mm512_and_si512(a, ABS), mb = simde_mm512_and_si512(b, ABS);
	simde__m512i mc = simde_mm512_and_si512(c, ABS);
	simde__mmask16 a_inf = simde_mm512_cmpeq_epi32_mask(ma, E), b_inf = simde_mm512_cmpeq_epi32_mask(mb, E);
	simde__mmask16 c_inf = simde_mm512_cmpeq_epi32_mask(mc, E);
	const simde__m512i E1 = splat32(INF + 1);
	simde__mmask16 any_nan = simde_mm512_cmpge_epu32_mask(ma, E1) | simde_mm512_cmpge_epu32_mask(mb, E1) |
	                         simde_mm512_cmpge_epu32_mask(mc, E1);
	simde__mmask16 zero_ab = (simde__mmask16)~(simde_mm512_test_epi32_mask(a, E) & simde_mm512_test_epi32_mask(b, E));
	simde__mmask16 p_inf = a_inf | b_inf | povf;
	simde__mmask16 esub = simde_mm512_movepi32_mask(simde_mm512_ternarylogic_epi32(a, b, c, 0x96));
	*nan = any_nan | ((a_inf | b_inf) & zero_ab) | (p_inf & c_inf & esub);
	r = simde_mm512_mask_mov_epi32(r, p_inf, simde_mm512_ternarylogic_epi32(a, b, SIGN, 0x28) /* (a ^ b) & SIGN */);
	r = simde_mm512_mask_or_epi32(r, p_inf, r, E);
	return simde_mm512_mask_mov_epi32(r, c_inf & (simde__mmask16)~p_inf, c);
}

/* The datapath's exit for results out of range after rounding (the lanes
   of `out`): below 2^-126 +0, above the range sign | Inf.  e is the
   exponent of frame bit 0 less 153 (in place): the field is that of
   |sum| as a float (127 .. 156) plus e, so it underflows only with e < 0
   and overflows only with e > 0. */
static inline __attribute__((always_inline)) simde__m512i out_of_range16(simde__m512i r, simde__mmask16 out, simde__m512i e, simde__m512i sign)
{
	simde__mmask16 over = simde_mm512_mask_cmpgt_epi32_mask(out, e, simde_mm512_setzero_si512());
	r = simde_mm512_mask_mov_epi32(r, out, simde_mm512_setzero_si512());
	return simde_mm512_mask_or_epi32(r, over, simde_mm512_and_si512(sign, splat32(0x80000000u)), splat32(INF));
}

/* What mad16 / mul16 leave for the rare lanes: exponent 255 operands or a
   product overflow (special, povf), a result out of range (out), with the
   exponent and sign out_of_range16 needs. */
struct rare16 {
	ttx_lmask16 special, povf, out;
	simde__m512i e, sign;
};

static inline __attribute__((always_inline)) simde__m512i mad16(const uint32_t *pa, const uint32_t *pb,
                                                                const uint32_t *pc, struct rare16 *rare)
{
	const simde__m512i E = splat32(INF), M23 = splat32(0x7FFFFF), ONE = splat32(0x800000);
	const simde__m512i SIGN = splat32(0x80000000u), zero = simde_mm512_setzero_si512();
	simde__m512i a = simde_mm512_loadu_si512(pa), b = simde_mm512_loadu_si512(pb);
	simde__m512i c = simde_mm512_loadu_si512(pc);
	simde__m512i aE = simde_mm512_and_si512(a, E), bE = simde_mm512_and_si512(b, E);
	simde__m512i cE = simde_mm512_and_si512(c, E);
	/* c's significand with the hidden bit, 0 for exponent 0; the
	   product's exponent fields are dealt with by ep */
	ttx_lmask16 cnz = ttx_lm_test(c, E);
	simde__m512i q = simde_mm512_slli_epi32(ttx_lm_maskz(cnz, simde_mm512_ternarylogic_epi32(c, M23, ONE, 0xEA)), 3);
	simde__m512i p = sig_product(a, b);
	/* exponents less 153 (so that max(ep, ec) is the exponent of frame
	   bit 0), times 2^23 (the place of the exponent field): ep of product
	   bit 46, ec; zero and dropped operands -224 (at least 32 below any
	   other, and all of them fit in 32 bits) */
	simde__m512i eab = simde_mm512_add_epi32(aE, bE);   /* (ea + eb) << 23, no carry out */
	/* a product overflow (ep > 254); exponent 255 anywhere */
	ttx_lmask16 povf = ttx_lm_cmpge_epu32(eab, splat32((127u + 255) << 23));
	ttx_lmask16 special = ttx_lm_or(povf, ttx_lm_cmpeq(simde_mm512_max_epu32(simde_mm512_max_epu32(aE, bE), cE), E));
	/* the product is there if ea, eb != 0 and ep >= 0 */
	ttx_lmask16 pnz = ttx_lm_and(ttx_lm_test(simde_mm512_min_epu32(aE, bE), E),
	                             ttx_lm_cmpge_epu32(eab, splat32(127u << 23)));
	simde__m512i ep = ttx_lm_mov(splat32((uint32_t)-224 << 23), pnz,
	                             simde_mm512_sub_epi32(eab, splat32((127u + 153) << 23)));
	simde__m512i ec = ttx_lm_mov(splat32((uint32_t)-224 << 23), cnz, simde_mm512_sub_epi32(cE, splat32(153u << 23)));
	/* effective subtraction: sign(a) ^ sign(b) ^ sign(c) */
	ttx_lmask16 esub = ttx_lm_sign(simde_mm512_ternarylogic_epi32(a, b, c, 0x96));
	/* align the operand with the smaller exponent, sticky-shifted */
	ttx_lmask16 pbig = ttx_lm_cmpge(ep, ec);
	simde__m512i e = simde_mm512_max_epi32(ep, ec);
	simde__m512i sh = simde_mm512_srli_epi32(simde_mm512_sub_epi32(e, simde_mm512_min_epi32(ep, ec)), 23);
	simde__m512i big = ttx_lm_mov(q, pbig, p);
	simde__m512i small = ttx_lm_mov(p, pbig, q);
	simde__m512i sbig = ttx_lm_mov(c, pbig, simde_mm512_xor_si512(a, b));   /* sign bit of the big one */
	simde__m512i t = simde_mm512_srlv_epi32(small, sh);
	ttx_lmask16 lost = ttx_lm_and(ttx_lm_test(t, t), ttx_lm_test(simde_mm512_sllv_epi32(small, simde_mm512_sub_epi32(
	                                                                 splat32(31), sh)), splat32(0x7FFFFFFF)));
	t = ttx_lm_mov(t, lost, simde_mm512_or_si512(t, splat32(1)));
	simde__m512i sum = simde_mm512_add_epi32(big, ttx_lm_mov(t, esub, simde_mm512_sub_epi32(zero, t)));
	/* round |sum| to 24 bits (the converter rounds to nearest even), then
	   add e (less 153) to the exponent field; out of [1, 254]: the scalar
	   model (the field would borrow or carry) */
	simde__m512i mag = simde_mm512_abs_epi32(sum);
	mag = ttx_lm_mov(mag, ttx_lm_cmpge_epu32(mag, splat32(1u << 28)),
	                 simde_mm512_and_si512(mag, splat32(~2u)));   /* (datapath(): a carry out of the frame) */
	simde__m512i f = u32_to_f32_bits(mag);
	simde__m512i r = simde_mm512_add_epi32(f, e);
	ttx_lmask16 nz = ttx_lm_and(ttx_lm_or(pnz, cnz), ttx_lm_test(sum, sum));
	ttx_lmask16 out = ttx_lm_and(nz, ttx_lm_cmpge_epu32(simde_mm512_sub_epi32(r, ONE), splat32(0x7F000000)));
	/* sign: that of the big operand, flipped when the sum is negative */
	simde__m512i sign = simde_mm512_xor_si512(sum, sbig);
	r = ttx_lm_maskz(nz, simde_mm512_ternarylogic_epi32(r, sign, SIGN, 0xF8));  /* r | (x & SIGN) */
	*rare = (struct rare16){ special, povf, out, e, sign };
	return r;
}

/* The rare lanes (out of the hot path): results out of range and special
   operands by blends, then the NaN results from the scalar model; d from
   lo, hi and those (d may be one of the inputs: finish in a copy).
   Returns the lanes the scalar model computed. */
static __attribute__((noinline, cold)) uint32_t mad_lanes_rare(uint32_t d[32], simde__m512i lo, simde__m512i hi,
                                                               const uint32_t a[32], const uint32_t b[32],
                                                               const uint32_t c[32], const struct rare16 rare[2])
{
	simde__m512i v[2] = { lo, hi };
	uint32_t slow = 0;
	for (unsigned h = 0; h < 2; h++) {
		simde__mmask16 nan = 0, out = ttx_lm_bits(rare[h].out), special = ttx_lm_bits(rare[h].special);
		if (out)
			v[h] = out_of_range16(v[h], out, rare[h].e, rare[h].sign);
		if (special)
			v[h] = specials16(v[h], simde_mm512_loadu_si512(a + 16 * h), simde_mm512_loadu_si512(b + 16 * h),
			                  simde_mm512_loadu_si512(c + 16 * h), ttx_lm_bits(rare[h].povf), &nan);
		slow |= (uint32_t)nan << 16 * h;
	}
	uint32_t out[32];
	simde_mm512_storeu_si512(out, v[0]);
	simde_mm512_storeu_si512(out + 16, v[1]);
	for (uint32_t m = slow; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		out[i] = ttx_wh_mad(a[i], b[i], c[i]);
	}
	memcpy(d, out, sizeof(out));
	return slow;
}

/* mad16 when every c has exponent 0 (SFPMUL: c is LReg[9], 0): c reads
   as zero, so the sum is the product alone (small = 0 in datapath()). */
static inline __attribute__((always_inline)) simde__m512i mul16(const uint32_t *pa, const uint32_t *pb,
                                                                struct rare16 *rare)
{
	const simde__m512i E = splat32(INF), ONE = splat32(0x800000);
	simde__m512i a = simde_mm512_loadu_si512(pa), b = simde_mm512_loadu_si512(pb);
	simde__m512i aE = simde_mm512_and_si512(a, E), bE = simde_mm512_and_si512(b, E);
	simde__m512i p = sig_product(a, b);   /* in [2^26, 2^28) */
	simde__m512i eab = simde_mm512_add_epi32(aE, bE);
	ttx_lmask16 povf = ttx_lm_cmpge_epu32(eab, splat32((127u + 255) << 23));
	ttx_lmask16 special = ttx_lm_or(povf, ttx_lm_cmpeq(simde_mm512_max_epu32(aE, bE), E));
	ttx_lmask16 pnz = ttx_lm_and(ttx_lm_test(simde_mm512_min_epu32(aE, bE), E),
	                             ttx_lm_cmpge_epu32(eab, splat32(127u << 23)));
	/* p rounded, at ep (less 153, in place) */
	simde__m512i ep = simde_mm512_sub_epi32(eab, splat32((127u + 153) << 23));
	simde__m512i r = simde_mm512_add_epi32(u32_to_f32_bits(p), ep);
	ttx_lmask16 out = ttx_lm_and(pnz, ttx_lm_cmpge_epu32(simde_mm512_sub_epi32(r, ONE), splat32(0x7F000000)));
	simde__m512i sign = simde_mm512_xor_si512(a, b);
	r = ttx_lm_maskz(pnz, simde_mm512_ternarylogic_epi32(r, sign, splat32(0x80000000u), 0xF8));   /* r | (sign & SIGN) */
	*rare = (struct rare16){ special, povf, out, ep, sign };
	return r;
}

static inline __attribute__((always_inline)) uint32_t mad_lanes(uint32_t d[32], const uint32_t a[32],
                                                                const uint32_t b[32], const uint32_t c[32])
{
	struct rare16 rare[2];
	simde__m512i lo, hi;
	const simde__m512i E = splat32(INF);
	if (!(simde_mm512_test_epi32_mask(simde_mm512_loadu_si512(c), E) |
	      simde_mm512_test_epi32_mask(simde_mm512_loadu_si512(c + 16), E))) {
		lo = mul16(a, b, &rare[0]), hi = mul16(a + 16, b + 16, &rare[1]);
	} else {
		lo = mad16(a, b, c, &rare[0]), hi = mad16(a + 16, b + 16, c + 16, &rare[1]);
	}
	if (__builtin_expect(ttx_lm_any(ttx_lm_or(ttx_lm_or(rare[0].special, rare[0].out),
	                                          ttx_lm_or(rare[1].special, rare[1].out))), 0))
		return mad_lanes_rare(d, lo, hi, a, b, c, rare);
	simde_mm512_storeu_si512(d, lo);
	simde_mm512_storeu_si512(d + 16, hi);
	return 0;
}

uint32_t ttx_wh_mad_lanes(uint32_t d[32], const uint32_t a[32], const uint32_t b[32], const uint32_t c[32])
{
	return mad_lanes(d, a, b, c);
}

/* --numerics fast (docs/jit.md): IEEE fma, inputs and results with
   exponent 0 as +0, NaN results 0x7FC00000 -- not the Wormhole datapath,
   but what the JIT's fast path computes too (jit/emit.c mad()). */
static uint32_t fast_mad(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t in[3] = { a, b, c }, bits;
	float f[3];
	for (int i = 0; i < 3; i++) {
		if (!(in[i] & INF))
			in[i] = 0;
		memcpy(&f[i], &in[i], 4);
	}
	float r = fmaf(f[0], f[1], f[2]);
	if (r != r)
		return 0x7FC00000u;
	memcpy(&bits, &r, 4);
	return (bits & INF) ? bits : 0;
}

/* d = a * b + c with the tile's numerics. */
static void tile_mad_lanes(const struct ttx_tile *t, uint32_t d[32], const uint32_t a[32], const uint32_t b[32],
                           const uint32_t c[32])
{
	if (t->opt.numerics != TTX_NUMERICS_FAST) {
		mad_lanes(d, a, b, c);
		return;
	}
	uint32_t out[32];
	for (unsigned i = 0; i < 32; i++)
		out[i] = fast_mad(a[i], b[i], c[i]);
	memcpy(d, out, sizeof(out));
}

/* ---- handlers ---- */

#define MOD1_INDIRECT_VA 4
#define MOD1_INDIRECT_VD 8

/* The lanes that execute: VD < 12 or DISABLE_BACKDOOR_LOAD (else the word
   goes to LoadMacroConfig), and enabled. */
static uint32_t executing(struct ttx_sfpu *s, unsigned vd, uint32_t word)
{
	return ttx_sfpu_backdoor(s, vd, word) & ttx_sfpu_lane_enabled(s);
}

/* Write d to LReg[vd] in the lanes of mask, or with INDIRECT_VD (and vd not
   16) to LReg[LReg[7] & 15] of each lane, LReg[7] as it was before the
   instruction; LReg 8-15 are never written (TC/LReg.md). */
static void write_result(struct ttx_sfpu *s, unsigned vd, int indirect, const uint32_t d[32], uint32_t mask)
{
	ttx_lanes v = ttx_lanes_load(d);
	if (!indirect || vd == 16) {
		ttx_sfpu_write(s, vd, v, mask);
		return;
	}
	ttx_lanes sel = ttx_lanes_and(ttx_lanes_load(s->lreg[7]), ttx_lanes_splat(15));
	uint32_t m[8];
	for (unsigned r = 0; r < 8; r++)
		m[r] = mask & ttx_lanes_eq(sel, ttx_lanes_splat(r));
	for (unsigned r = 0; r < 8; r++)
		if (m[r])
			ttx_lanes_store_mask(s->lreg[r], v, m[r]);
}

/* SFPMAD, SFPADD and SFPMUL share one functional model (TC/SFPMAD.md):
   VD = LReg[VA] * LReg[VB] + LReg[VC], VA = LReg[7] & 15 per lane with
   INDIRECT_VA.  SFPLOADMACRO may choose VB, VC and VD, never VA. */
static __attribute__((noinline)) int mad(struct ttx_tile *t, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPMAD x = ttx_decode_SFPMAD(word);
	unsigned vb = x.VB, vc = x.VC, vd = x.VD;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = executing(s, vd, word);
	if (!enabled)
		return TTX_OK;
	uint32_t av[32], d[32];
	const uint32_t *ap = s->lreg[x.VA];
	if (x.Mod1 & MOD1_INDIRECT_VA) {
		for (unsigned i = 0; i < 32; i++)
			av[i] = s->lreg[s->lreg[7][i] & 15][i];
		ap = av;
	}
	if (enabled == 0xFFFFFFFFu && !(x.Mod1 & MOD1_INDIRECT_VD) && (vd < 8 || vd == 16)) {
		tile_mad_lanes(t, s->lreg[vd], ap, s->lreg[vb], s->lreg[vc]);
		return TTX_OK;
	}
	tile_mad_lanes(t, d, ap, s->lreg[vb], s->lreg[vc]);
	write_result(s, vd, x.Mod1 & MOD1_INDIRECT_VD, d, enabled);
	return TTX_OK;
}

/* The common case inline: no SFPLOADMACRO operands, no backdoor load
   (VD < 8), no INDIRECT, every lane enabled. */
int ttx_sfpu_SFPMAD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPMAD x = ttx_decode_SFPMAD(word);
	(void)thread;
	if (__builtin_expect(!s->macro_ops.active && x.VD < 8 && t->opt.numerics == TTX_NUMERICS_EXACT &&
	                     !(x.Mod1 & (MOD1_INDIRECT_VA | MOD1_INDIRECT_VD)) &&
	                     ttx_sfpu_lane_enabled(s) == 0xFFFFFFFFu, 1)) {
		mad_lanes(s->lreg[x.VD], s->lreg[x.VA], s->lreg[x.VB], s->lreg[x.VC]);
		return TTX_OK;
	}
	return mad(t, word);
}

int ttx_sfpu_SFPADD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_sfpu_SFPMAD(t, thread, word);
}

int ttx_sfpu_SFPMUL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_sfpu_SFPMAD(t, thread, word);
}

/* SFPMULI: VD = BF16(Imm16) * LReg[VC] + 0.0; SFPADDI: VD = BF16(Imm16) *
   1.0 + LReg[VC]; VC = VD unless SFPLOADMACRO chose it (TC/SFPMULI.md,
   TC/SFPADDI.md).  The immediate is the product's first operand, as in the
   models (it decides nothing but the NaN payload's operand order). */
static int mad_imm(struct ttx_tile *t, uint32_t word, int add)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPMULI x = ttx_decode_SFPMULI(word);
	unsigned vb = 0, vc = x.VD, vd = x.VD;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = executing(s, vd, word);
	if (!enabled)
		return TTX_OK;
	uint32_t imm[32], other[32], d[32];
	ttx_lanes_store(imm, ttx_lanes_splat((uint32_t)x.Imm16 << 16));
	ttx_lanes_store(other, ttx_lanes_splat(add ? 0x3F800000u : 0));
	if (add)
		tile_mad_lanes(t, d, imm, other, s->lreg[vc]);
	else
		tile_mad_lanes(t, d, imm, s->lreg[vc], other);
	write_result(s, vd, x.Mod1 & MOD1_INDIRECT_VD, d, enabled);
	return TTX_OK;
}

int ttx_sfpu_SFPMULI(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return mad_imm(t, word, 0);
}

int ttx_sfpu_SFPADDI(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return mad_imm(t, word, 1);
}

/* ---- SFPLUT, SFPLUTFP32 (TC/SFPLUT.md, TC/SFPLUTFP32.md) ---- */

static inline ttx_lanes srli(ttx_lanes v, unsigned n)
{
	return ttx_lanes_srlv(v, ttx_lanes_splat(n));
}

static inline ttx_lanes slli(ttx_lanes v, unsigned n)
{
	return ttx_lanes_sllv(v, ttx_lanes_splat(n));
}

static inline ttx_lanes andi(ttx_lanes v, uint32_t m)
{
	return ttx_lanes_and(v, ttx_lanes_splat(m));
}

/* Lut8ToFp32 of the low 8 bits: 0xFF is 0, else sign, exponent 127 - Exp
   (3 bits), 4 mantissa bits. */
static ttx_lanes lut8(ttx_lanes x)
{
	x = andi(x, 0xFF);
	ttx_lanes r = ttx_lanes_or(slli(srli(x, 7), 31),
	                           ttx_lanes_or(slli(ttx_lanes_sub(ttx_lanes_splat(127), andi(srli(x, 4), 7)), 23),
	                                        slli(andi(x, 0xF), 19)));
	return ttx_lanes_select(ttx_lanes_eq(x, ttx_lanes_splat(0xFF)), ttx_lanes_splat(0), r);
}

/* Lut16ToFp32 of the low 16 bits: FP16 fields, exponent 31 is FP32
   exponent 0 (a zero or denormal, read as zero), else Exp + 112; exponent
   0 is not special. */
static ttx_lanes lut16(ttx_lanes x)
{
	ttx_lanes exp = andi(srli(x, 10), 0x1F);
	ttx_lanes e32 = ttx_lanes_select(ttx_lanes_eq(exp, ttx_lanes_splat(0x1F)), ttx_lanes_splat(0),
	                                 ttx_lanes_add(exp, ttx_lanes_splat(112)));
	return ttx_lanes_or(slli(andi(srli(x, 15), 1), 31), ttx_lanes_or(slli(e32, 23), slli(andi(x, 0x3FF), 13)));
}

/* Lanes where |x| < limit (limit a positive FP32 pattern), as the float
   compares of the models: a NaN compares false. */
static uint32_t abs_lt(ttx_lanes x, uint32_t limit)
{
	return ~ttx_lanes_ge_u32(andi(x, 0x7FFFFFFFu), ttx_lanes_splat(limit));
}

static ttx_lanes lreg(const struct ttx_sfpu *s, unsigned r)
{
	return ttx_lanes_load(s->lreg[r]);
}

/* d = a * |LReg[3]| + c, the sign of LReg[3] with sgn_retain, to VD. */
static void lut_mad(struct ttx_tile *t, unsigned vd, int indirect, int sgn_retain, ttx_lanes a, ttx_lanes c,
                    uint32_t enabled)
{
	struct ttx_sfpu *s = &t->sfpu;
	uint32_t av[32], bv[32], cv[32], d[32];
	ttx_lanes l3 = lreg(s, 3);
	ttx_lanes_store(av, a);
	ttx_lanes_store(bv, andi(l3, 0x7FFFFFFFu));
	ttx_lanes_store(cv, c);
	tile_mad_lanes(t, d, av, bv, cv);
	if (sgn_retain)
		ttx_lanes_store(d, ttx_lanes_or(andi(ttx_lanes_load(d), 0x7FFFFFFFu), andi(l3, 0x80000000u)));
	write_result(s, vd, indirect, d, enabled);
}

#define LUT_SGN_RETAIN 4
#define LUT_INDIRECT_VD 8

/* SFPLUT: coefficients from LReg[0] (|L3| < 1), LReg[1] (< 2) or LReg[2]
   (else, and NaN): a = Lut8ToFp32(bits 15..8), c = Lut8ToFp32(bits 7..0).
   Mod0 bits 0-1 are ignored. */
int ttx_sfpu_SFPLUT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPLUT x = ttx_decode_SFPLUT(word);
	unsigned vb = 0, vc = 0, vd = x.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = executing(s, vd, word);
	if (!enabled)
		return TTX_OK;
	ttx_lanes l3 = lreg(s, 3);
	ttx_lanes coeffs = ttx_lanes_select(abs_lt(l3, 0x3F800000u), lreg(s, 0),
	                                    ttx_lanes_select(abs_lt(l3, 0x40000000u), lreg(s, 1), lreg(s, 2)));
	lut_mad(t, vd, x.Mod0 & LUT_INDIRECT_VD, x.Mod0 & LUT_SGN_RETAIN, lut8(srli(coeffs, 8)), lut8(coeffs),
	        enabled);
	return TTX_OK;
}

#define LUTFP32_FP16_3ENTRY_TABLE  10
#define LUTFP32_FP16_6ENTRY_TABLE1 2
#define LUTFP32_FP16_6ENTRY_TABLE2 3
#define LUTFP32_SGN_RETAIN         4
#define LUTFP32_INDIRECT_VD        8

/* SFPLUTFP32.  Table index i: |L3| < 1, < 2, else (and NaN).  Mod1 bit 1
 * clear: a = LReg[i], c = LReg[4 + i] (FP32).  Bit 1 set: FP16 halves
 * through Lut16ToFp32: with bit 3 also set (FP16_3ENTRY_TABLE = 10) a and c
 * are the high and low halves of LReg[i]; else the six-entry tables: the
 * low (|L3| < 0.5, 1 <= |L3| < 1.5, 2 <= |L3| < cut) or high halves of
 * LReg[i] and LReg[4 + i], cut = 4 when bit 0 is set (TABLE2) else 3.  The
 * page's model tests "Mod1 & FP16_3ENTRY_TABLE" and "Mod1 & TABLE2", which
 * are never 0 once bit 1 is set and would make the six-entry tables and cut
 * 3 unreachable; the reference (Mod1 = 2 cases) has them as read here.
 * Bit 3 is also INDIRECT_VD, hence the documented bug of Mod1 = 10:
 * the result goes to LReg[LReg[7] & 15]. */
int ttx_sfpu_SFPLUTFP32(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPLUTFP32 x = ttx_decode_SFPLUTFP32(word);
	unsigned vb = 0, vc = 0, vd = x.VD, mod1 = x.Mod1;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = executing(s, vd, word);
	if (!enabled)
		return TTX_OK;
	ttx_lanes l3 = lreg(s, 3);
	uint32_t lt1 = abs_lt(l3, 0x3F800000u), lt2 = abs_lt(l3, 0x40000000u);
	ttx_lanes lo = ttx_lanes_select(lt1, lreg(s, 0), ttx_lanes_select(lt2, lreg(s, 1), lreg(s, 2)));
	ttx_lanes hi = ttx_lanes_select(lt1, lreg(s, 4), ttx_lanes_select(lt2, lreg(s, 5), lreg(s, 6)));
	ttx_lanes a, c;
	if (!(mod1 & LUTFP32_FP16_6ENTRY_TABLE1)) {
		a = lo, c = hi;
	} else if ((mod1 & LUTFP32_FP16_3ENTRY_TABLE) == LUTFP32_FP16_3ENTRY_TABLE) {
		a = lut16(srli(lo, 16)), c = lut16(andi(lo, 0xFFFF));
	} else {
		uint32_t cut = (mod1 & LUTFP32_FP16_6ENTRY_TABLE2) == LUTFP32_FP16_6ENTRY_TABLE2 ? 0x40800000u
		                                                                                  : 0x40400000u;
		/* the high halves: 0.5 <= |L3| < 1, 1.5 <= |L3| < 2, cut <= |L3| */
		uint32_t high = (~abs_lt(l3, 0x3F000000u) & lt1) | (~abs_lt(l3, 0x3FC00000u) & lt2 & ~lt1) |
		                ~abs_lt(l3, cut);
		a = lut16(ttx_lanes_select(high, srli(lo, 16), andi(lo, 0xFFFF)));
		c = lut16(ttx_lanes_select(high, srli(hi, 16), andi(hi, 0xFFFF)));
	}
	lut_mad(t, vd, mod1 & LUTFP32_INDIRECT_VD, mod1 & LUTFP32_SGN_RETAIN, a, c, enabled);
	return TTX_OK;
}
