/* Vector Unit (SFPU) round sub-unit (TC/VectorUnit.md "Sub-units"):
 * SFPSTOCHRND and SFPSHFT2. */
#include "sfpu.h"

/* ---- lane-parallel helpers ---- */

/* AdvancePRNG (TC/VectorUnit.md "PRNG") in the lanes of mask, all at once:
   Taps = popcount(State & 0x80200003), so bit 0 of Taps is the parity of
   state bits 31, 21, 1 and 0, and ~Taps << 31 is the inverse of that parity.
   Returns every lane's state before the advance. */
static ttx_lanes prng_advance(struct ttx_sfpu *s, uint32_t mask)
{
	ttx_lanes x = ttx_lanes_load(s->prng);
	ttx_lanes parity = ttx_lanes_xor(ttx_lanes_xor(x, ttx_lanes_srli(x, 1)), ttx_lanes_xor(ttx_lanes_srli(x, 21), ttx_lanes_srli(x, 31)));
	ttx_lanes next = ttx_lanes_or(ttx_lanes_slli(ttx_lanes_andnot(parity, ttx_lanes_splat(1)), 31), ttx_lanes_srli(x, 1));
	ttx_lanes_store_mask(s->prng, next, mask);
	return x;
}

/* ---- SFPSTOCHRND (TC/SFPSTOCHRND.md) ---- */

#define MOD1_FP32_TO_FP16A  0
#define MOD1_FP32_TO_FP16B  1
#define MOD1_FP32_TO_UINT8  2
#define MOD1_FP32_TO_INT8   3
#define MOD1_INT32_TO_UINT8 4
#define MOD1_INT32_TO_INT8  5
#define MOD1_FP32_TO_UINT16 6
#define MOD1_FP32_TO_INT16  7

/* TC/SFPSTOCHRND_FloatFloat.md: keep 10 (FP16A) or 7 (FP16B) mantissa bits,
   rounding up in magnitude when (DiscardedBits << n) >= PRNGBits (ties away
   from zero when PRNGBits = 0x400000).  Exponent 0 (±0, denormals) gives +0;
   exponent 255 keeps sign and exponent only (±Inf, ±NaN -> ±Inf).  A carry
   out of the mantissa bumps the exponent, so 0x7F7FFFFF can round to +Inf. */
static ttx_lanes float_float(ttx_lanes x, ttx_lanes prng_bits, unsigned mod1)
{
	ttx_lanes exp = ttx_lanes_andi(ttx_lanes_srli(x, 23), 0xFF);
	uint32_t zero = ttx_lanes_eq(exp, ttx_lanes_splat(0));
	uint32_t special = ttx_lanes_eq(exp, ttx_lanes_splat(255));
	uint32_t discard_mask = mod1 == MOD1_FP32_TO_FP16A ? 0x1FFF : 0xFFFF;
	unsigned align = mod1 == MOD1_FP32_TO_FP16A ? 10 : 7;
	ttx_lanes discarded = ttx_lanes_andi(x, discard_mask);
	ttx_lanes r = ttx_lanes_sub(x, discarded);
	uint32_t up = ttx_lanes_ge_u32(ttx_lanes_slli(discarded, align), prng_bits);
	r = ttx_lanes_add(r, ttx_lanes_select(up, ttx_lanes_splat(discard_mask + 1), ttx_lanes_splat(0)));
	r = ttx_lanes_select(special, ttx_lanes_andi(x, 0xFF800000u), r);
	return ttx_lanes_select(zero, ttx_lanes_splat(0), r);
}

/* TC/SFPSTOCHRND_FloatInt.md: round FP32 to an integer and clamp to
   MaxMagnitude (127, 255, 32767, 65535); the result is sign-magnitude.  The
   UINT modes drop the sign (absolute value).  |x| < 0.5 (exponent < 126:
   ±0, denormals, and even with stochastic rounding) gives +0; exponent >= 143
   (|x| >= 65536, ±Inf, ±NaN) gives ±MaxMagnitude (+ for the UINT modes); a
   result rounding to 0 is +0.  |x| = 0.5 with exponent 126 loses mantissa
   bit 0 (Mag >> 1) before rounding. */
static ttx_lanes float_int(ttx_lanes c, ttx_lanes prng_bits, unsigned mod1)
{
	int keep_sign = mod1 == MOD1_FP32_TO_INT8 || mod1 == MOD1_FP32_TO_INT16;
	uint32_t max_mag = mod1 == MOD1_FP32_TO_INT8 ? 127 : mod1 == MOD1_FP32_TO_UINT8 ? 255
	                 : mod1 == MOD1_FP32_TO_INT16 ? 32767 : 65535;
	ttx_lanes sign = keep_sign ? ttx_lanes_andi(c, 0x80000000u) : ttx_lanes_splat(0);
	ttx_lanes exp = ttx_lanes_andi(ttx_lanes_srli(c, 23), 0xFF);
	uint32_t small = ~ttx_lanes_ge_u32(exp, ttx_lanes_splat(126));   /* Exp < -1 */
	uint32_t big = ttx_lanes_ge_u32(exp, ttx_lanes_splat(143));      /* Exp >= 16 */
	/* In range (-1 <= Exp <= 15), with t = Exp + 1 in 0..16 and the 24-bit
	   Mag = 0x800000 | mantissa: the integer part of Mag << Exp (or Mag >> 1)
	   is Mag >> (24 - t); its 23 fraction bits are the low 23 bits of
	   (Mag << t) >> 1, which 32-bit arithmetic keeps. */
	ttx_lanes mag = ttx_lanes_or(ttx_lanes_andi(c, 0x7FFFFF), ttx_lanes_splat(0x800000));
	ttx_lanes t = ttx_lanes_sub(exp, ttx_lanes_splat(126));
	ttx_lanes ipart = ttx_lanes_srlv(mag, ttx_lanes_sub(ttx_lanes_splat(24), t));
	ttx_lanes frac = ttx_lanes_andi(ttx_lanes_srli(ttx_lanes_sllv(mag, t), 1), 0x7FFFFF);
	uint32_t up = ttx_lanes_ge_u32(frac, prng_bits);
	ttx_lanes r = ttx_lanes_add(ipart, ttx_lanes_select(up, ttx_lanes_splat(1), ttx_lanes_splat(0)));
	r = ttx_lanes_min_u32(r, ttx_lanes_splat(max_mag));
	uint32_t rzero = ttx_lanes_eq(r, ttx_lanes_splat(0));
	r = ttx_lanes_select(big, ttx_lanes_splat(max_mag), r);
	r = ttx_lanes_or(r, ttx_lanes_select(~(small | rzero) | big, sign, ttx_lanes_splat(0)));
	return ttx_lanes_select(small, ttx_lanes_splat(0), r);
}

/* TC/SFPSTOCHRND_IntInt.md: shift the magnitude of a sign-magnitude integer
   right by Imm5 or LReg[VB] & 31, rounding with the shifted-out bits, then
   clamp to 255 (UINT8, sign dropped) or ±127 (INT8, zero is +0).  A
   magnitude that rounds up past 0x7FFFFFFF still clamps. */
static ttx_lanes int_int(ttx_lanes c, ttx_lanes prng_bits, ttx_lanes shift, unsigned mod1)
{
	ttx_lanes sign = ttx_lanes_andi(c, 0x80000000u);
	ttx_lanes mag = ttx_lanes_andi(c, 0x7FFFFFFFu);
	/* (Mag << 23) >> s: integer part Mag >> s; the 23 fraction bits are the
	   low 23 bits of Mag << (23 - s) for s <= 23, of Mag >> (s - 23) above. */
	ttx_lanes zero = ttx_lanes_splat(0);
	ttx_lanes left = ttx_lanes_max_i32(ttx_lanes_sub(ttx_lanes_splat(23), shift), zero);
	ttx_lanes right = ttx_lanes_max_i32(ttx_lanes_sub(shift, ttx_lanes_splat(23)), zero);
	ttx_lanes frac = ttx_lanes_andi(ttx_lanes_srlv(ttx_lanes_sllv(mag, left), right), 0x7FFFFF);
	uint32_t up = ttx_lanes_ge_u32(frac, prng_bits);
	ttx_lanes r = ttx_lanes_add(ttx_lanes_srlv(mag, shift), ttx_lanes_select(up, ttx_lanes_splat(1), zero));
	if (mod1 == MOD1_INT32_TO_UINT8)
		return ttx_lanes_min_u32(r, ttx_lanes_splat(255));
	r = ttx_lanes_min_u32(r, ttx_lanes_splat(127));
	return ttx_lanes_or(r, ttx_lanes_select(ttx_lanes_eq(r, zero), zero, sign));
}

/* SFPSTOCHRND (TC/SFPSTOCHRND.md and its three mode pages).  Mod1 (3 bits)
 * picks the flavour; every value is defined.  Mod1 = 4/5 (IntInt) decode
 * through the SFPSTOCHRNDi layout whatever bit 3 (UseImm5) is; the float
 * flavours ignore bits 3 and 12-20.  The PRNG of every enabled, executing
 * lane advances even for round to nearest (the pages advance it only when
 * StochasticRounding; docs/departures.md #3, vector word 8E000012).  The
 * result goes to LReg[VD] only when VD < 8 or VD == 16. */
int ttx_sfpu_SFPSTOCHRND(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	unsigned mod1 = word & 7, vb = 0, vc, vd, stochastic, use_imm5 = 0, imm5 = 0;
	(void)thread;
	if (mod1 == MOD1_INT32_TO_UINT8 || mod1 == MOD1_INT32_TO_INT8) {
		struct ttx_args_SFPSTOCHRNDi a = ttx_decode_SFPSTOCHRNDi(word);
		vb = a.VB, vc = a.VC, vd = a.VD, stochastic = a.StochasticRounding;
		use_imm5 = a.UseImm5, imm5 = a.Imm5;
	} else {
		struct ttx_args_SFPSTOCHRND a = ttx_decode_SFPSTOCHRND(word);
		vc = a.VC, vd = a.VD, stochastic = a.StochasticRounding;
	}
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = ttx_sfpu_backdoor(s, vd, word) & ttx_sfpu_lane_enabled(s);
	if (!enabled)
		return TTX_OK;
	ttx_lanes prng = prng_advance(s, enabled);
	ttx_lanes prng_bits = stochastic ? ttx_lanes_andi(prng, 0x7FFFFF) : ttx_lanes_splat(0x400000);
	ttx_lanes c = ttx_lanes_load(s->lreg[vc]);
	ttx_lanes r;
	switch (mod1) {
	case MOD1_FP32_TO_FP16A:
	case MOD1_FP32_TO_FP16B:
		r = float_float(c, prng_bits, mod1);
		break;
	case MOD1_INT32_TO_UINT8:
	case MOD1_INT32_TO_INT8: {
		ttx_lanes shift = use_imm5 ? ttx_lanes_splat(imm5) : ttx_lanes_andi(ttx_lanes_load(s->lreg[vb]), 31);
		r = int_int(c, prng_bits, shift, mod1);
		break;
	}
	default:
		r = float_int(c, prng_bits, mod1);
		break;
	}
	ttx_sfpu_write(s, vd, r, enabled);
	return TTX_OK;
}

/* ---- SFPSHFT2 (TC/SFPSHFT2.md) ---- */

#define MOD1_COPY4                   0
#define MOD1_SUBVEC_CHAINED_COPY4    1
#define MOD1_SUBVEC_SHFLROR1_AND_COPY4 2
#define MOD1_SUBVEC_SHFLROR1         3
#define MOD1_SUBVEC_SHFLSHR1         4
#define MOD1_SHFT_LREG               5
#define MOD1_SHFT_IMM                6

/* Within each group of eight lanes, lane i gets lane i - 1 and lane 0 gets
   lane 7 (groups never straddle the two 16-lane halves). */
static ttx_lanes ror1(ttx_lanes v)
{
	static const int32_t idx[16] = { 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14 };
	simde__m512i i = simde_mm512_loadu_si512(idx);
	ttx_lanes r = { simde_mm512_permutexvar_epi32(i, v.lo), simde_mm512_permutexvar_epi32(i, v.hi) };
	return r;
}

/* Lane i gets lane i + 8; lanes 24-31 get 0. */
static ttx_lanes down8(ttx_lanes v)
{
	static const int32_t idx[16] = { 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23 };
	simde__m512i i = simde_mm512_loadu_si512(idx);
	ttx_lanes r = { simde_mm512_permutex2var_epi32(v.lo, i, v.hi),
	                simde_mm512_permutex2var_epi32(v.hi, i, simde_mm512_setzero_si512()) };
	return r;
}

/* x << (n & 31) for n >= 0, else x >> (-n & 31) (logical), lane-wise. */
static ttx_lanes shift_signed(ttx_lanes x, ttx_lanes n)
{
	ttx_lanes zero = ttx_lanes_splat(0), m31 = ttx_lanes_splat(31);
	uint32_t neg = ttx_lanes_gt_i32(zero, n);
	return ttx_lanes_select(neg, ttx_lanes_srlv(x, ttx_lanes_and(ttx_lanes_sub(zero, n), m31)),
	                        ttx_lanes_sllv(x, ttx_lanes_and(n, m31)));
}

/* L0 = L1, L1 = L2, L2 = L3, L3 = l3 in the lanes of mask. */
static void copy4(struct ttx_sfpu *s, ttx_lanes l3, uint32_t mask)
{
	ttx_lanes l1 = ttx_lanes_load(s->lreg[1]), l2 = ttx_lanes_load(s->lreg[2]);
	ttx_lanes old3 = ttx_lanes_load(s->lreg[3]);
	ttx_lanes_store_mask(s->lreg[0], l1, mask);
	ttx_lanes_store_mask(s->lreg[1], l2, mask);
	ttx_lanes_store_mask(s->lreg[2], old3, mask);
	ttx_lanes_store_mask(s->lreg[3], l3, mask);
}

/* SFPSHFT2 (TC/SFPSHFT2.md), Mod1 0-6; 7-15 are undefined and fault.
 *   0 COPY4: L0..L3 = L1, L2, L3, 0 in enabled lanes (whatever VD is,
 *     but VD >= 12 is a backdoor load unless DISABLE_BACKDOOR_LOAD).
 *   1 SUBVEC_CHAINED_COPY4: as 0, L3 = the original L0 of lane + 8 (0 for
 *     lanes 24-31).
 *   2 SUBVEC_SHFLROR1_AND_COPY4: as 0, L3 = LReg[VC] (read before the
 *     shuffle) rotated right by one lane within each group of 8.
 *   3 SUBVEC_SHFLROR1: LReg[VD] = that rotation (VD < 8 or 16 only).
 *     Modes 2 and 3 remember the LReg[VC] they read (the lanes that
 *     execute: VD < 12 or DISABLE_BACKDOOR_LOAD), enabled or not.
 *   4 SUBVEC_SHFLSHR1: lanes shift right by one within each group; lane 0 of
 *     each group gets, by the documented hardware bug, not 0 but lane + 7 of
 *     the LReg[VC] that the last mode 2/3 read (0 since reset).
 *   5 SHFT_LREG: LReg[VD] = LReg[VB] << LReg[VC] when LReg[VC] >= 0, else
 *     logical >> -LReg[VC]; the count is taken & 31, so -32 shifts by 0.
 *   6 SHFT_IMM: as 5 with the signed Imm12 and VB = Imm12 & 15 (unless
 *     SFPLOADMACRO supplied VB).
 * Modes 3-6 write LReg[VD] only when VD < 8 or VD == 16; modes 4-6 have no
 * other effect (the backdoor load still captures VD >= 12). */
int ttx_sfpu_SFPSHFT2(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSHFT2 a = ttx_decode_SFPSHFT2(word);
	unsigned vb = a.VB, vc = a.VC, vd = a.VD;
	int vb_set = 0;
	if (a.Mod1 > MOD1_SHFT_IMM)
		return ttx_fail(t, TTX_FAULT, "SFPSHFT2 Mod1=%u is undefined (TC/SFPSHFT2.md) (0x%08X) at thread %u",
		                a.Mod1, word, thread);
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, &vb_set);
	uint32_t normal = ttx_sfpu_backdoor(s, vd, word);
	uint32_t enabled = normal & ttx_sfpu_lane_enabled(s);
	switch (a.Mod1) {
	case MOD1_COPY4:
		copy4(s, ttx_lanes_splat(0), enabled);
		break;
	case MOD1_SUBVEC_CHAINED_COPY4:
		copy4(s, down8(ttx_lanes_load(s->lreg[0])), enabled);
		break;
	case MOD1_SUBVEC_SHFLROR1_AND_COPY4:
	case MOD1_SUBVEC_SHFLROR1: {
		ttx_lanes v = ttx_lanes_load(s->lreg[vc]);
		ttx_lanes_store_mask(s->shflror1_vc, v, normal);
		if (a.Mod1 == MOD1_SUBVEC_SHFLROR1_AND_COPY4)
			copy4(s, ror1(v), enabled);
		else
			ttx_sfpu_write(s, vd, ror1(v), enabled);
		break;
	}
	case MOD1_SUBVEC_SHFLSHR1: {
		/* ror1 puts lane + 7 into lane 0 of each group: take it from the
		   remembered vc0 there, from LReg[VC] elsewhere. */
		ttx_lanes v = ror1(ttx_lanes_load(s->lreg[vc]));
		ttx_lanes stale = ror1(ttx_lanes_load(s->shflror1_vc));
		ttx_sfpu_write(s, vd, ttx_lanes_select(0x01010101u, stale, v), ttx_sfpu_lane_enabled(s));
		break;
	}
	case MOD1_SHFT_LREG:
		ttx_sfpu_write(s, vd, shift_signed(ttx_lanes_load(s->lreg[vb]), ttx_lanes_load(s->lreg[vc])),
		               ttx_sfpu_lane_enabled(s));
		break;
	case MOD1_SHFT_IMM: {
		int32_t imm = (int32_t)(a.Imm12 ^ 0x800u) - 0x800;   /* sign-extend 12 bits */
		if (!vb_set)
			vb = a.Imm12 & 15;
		ttx_sfpu_write(s, vd, shift_signed(ttx_lanes_load(s->lreg[vb]), ttx_lanes_splat((uint32_t)imm)),
		               ttx_sfpu_lane_enabled(s));
		break;
	}
	}
	return TTX_OK;
}
