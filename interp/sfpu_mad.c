/* Vector Unit (SFPU) MAD sub-unit (TC/VectorUnit.md "Sub-units"):
 * SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT, SFPLUTFP32. */
#include <string.h>

#include "sfpu.h"
#include "wh_fp.h"

/* CALIBRATION KNOBS (temporary) */
int ttx_wh_knob_w = 100;        /* extra frame bits below the 24-bit mantissa */
int ttx_wh_knob_flush_pre = 0;  /* flush on the exponent before rounding */
int ttx_wh_knob_prod_pre = 0;   /* product range on the unnormalised exponent */
int ttx_wh_knob_nan = 0;
int ttx_wh_knob_t = 1000;      /* shifts >= t drop the smaller operand entirely */
int ttx_wh_knob_pmin = 1;

#define EXP(x) ((int)((x) >> 23 & 0xFF))
#define MAN(x) ((x) & 0x7FFFFFu)

static uint32_t nan_result(uint32_t a, uint32_t b, uint32_t c, uint32_t sign)
{
	(void)a, (void)b, (void)c;
	switch (ttx_wh_knob_nan) {
	default: return sign << 31 | 0x7F800001u;
	}
}

/* Round sign * mag * 2^(e - 127 - f) to FP32, nearest even; flush results
   below the normal range to +0, overflow to Inf. */
static uint32_t round_pack(uint32_t sign, int e, uint64_t mag, int f)
{
	if (mag == 0)
		return 0;
	int top = 63 - __builtin_clzll(mag);
	int exp = e + (top - f);
	if (ttx_wh_knob_flush_pre && exp < 1)
		return 0;
	uint64_t keep;
	if (top > 23) {
		int sh = top - 23;
		keep = mag >> sh;
		uint64_t rem = mag & ((1ull << sh) - 1), half = 1ull << (sh - 1);
		if (rem > half || (rem == half && (keep & 1)))
			keep++;
		if (keep >> 24) {
			keep >>= 1;
			exp++;
		}
	} else {
		keep = mag << (23 - top);
	}
	if (exp < 1)
		return 0;
	if (exp > 254)
		return sign << 31 | 0x7F800000u;
	return sign << 31 | (uint32_t)exp << 23 | (uint32_t)(keep & 0x7FFFFF);
}

uint32_t ttx_wh_mad(uint32_t a, uint32_t b, uint32_t c)
{
	int ea = EXP(a), eb = EXP(b), ec = EXP(c);
	uint32_t sp = (a ^ b) >> 31, sc = c >> 31;
	int a_nan = ea == 255 && MAN(a), b_nan = eb == 255 && MAN(b), c_nan = ec == 255 && MAN(c);
	int a_inf = ea == 255 && !MAN(a), b_inf = eb == 255 && !MAN(b), c_inf = ec == 255 && !MAN(c);
	if (a_nan || b_nan || c_nan)
		return nan_result(a, b, c, sp);
	if (a_inf || b_inf) {
		if (ea == 0 || eb == 0 || (c_inf && sc != sp))
			return nan_result(a, b, c, sp);
		return sp << 31 | 0x7F800000u;
	}
	if (c_inf)
		return c;
	/* The product, narrowed to 27 bits: 24, guard, round, sticky. */
	uint64_t p = 0;
	int ep = 0;
	if (ea != 0 && eb != 0) {
		uint64_t prod = (uint64_t)(MAN(a) | 0x800000u) * (MAN(b) | 0x800000u);
		ep = ea + eb - 127;
		int pre = ep;
		if (prod >> 47) {
			ep++;
			p = prod >> 21 | ((prod & 0x1FFFFF) != 0);
		} else {
			p = prod >> 20 | ((prod & 0xFFFFF) != 0);
		}
		int chk = ttx_wh_knob_prod_pre ? pre : ep;
		if (chk < ttx_wh_knob_pmin)
			p = 0;
		else if (chk > 254)
			return sp << 31 | 0x7F800000u;
	}
	uint64_t q = ec != 0 ? (uint64_t)(MAN(c) | 0x800000u) << 3 : 0;
	if (p == 0 && q == 0)
		return 0;
	if (p == 0)
		return c;
	if (q == 0)
		return round_pack(sp, ep, p, 26);
	/* Align in a frame of 27 + x bits, the smaller operand shifted right
	   with a sticky bit. */
	int x = ttx_wh_knob_w - 3;
	if (x > 32)
		x = 32;
	uint64_t big, small;
	int d, e;
	uint32_t sbig, ssmall;
	if (ep > ec || (ep == ec && p >= q)) {
		big = p, small = q, d = ep - ec, e = ep, sbig = sp, ssmall = sc;
	} else {
		big = q, small = p, d = ec - ep, e = ec, sbig = sc, ssmall = sp;
	}
	big <<= x;
	small <<= x;
	if (d >= ttx_wh_knob_t) {
		small = 0;
	} else if (d >= 60) {
		small = 1;
	} else if (d > 0) {
		uint64_t lost = small & ((1ull << d) - 1);
		small = small >> d | (lost != 0);
	}
	uint64_t sum = sbig == ssmall ? big + small : big - small;
	return round_pack(sbig, e, sum, 26 + x);
}

uint32_t ttx_wh_mad_lanes(uint32_t d[32], const uint32_t a[32], const uint32_t b[32], const uint32_t c[32])
{
	for (unsigned i = 0; i < 32; i++)
		d[i] = ttx_wh_mad(a[i], b[i], c[i]);
	return 0xFFFFFFFFu;
}

/* ---- handlers ---- */

#define MOD1_INDIRECT_VA 4
#define MOD1_INDIRECT_VD 8

/* Write d to LReg[vd] in the lanes of mask, or with INDIRECT_VD (and vd not
   16) to LReg[LReg[7] & 15] of each lane; LReg 8-15 are not written. */
static void write_result(struct ttx_sfpu *s, unsigned vd, int indirect, const uint32_t d[32],
                         const uint32_t l7[32], uint32_t mask)
{
	ttx_lanes v = ttx_lanes_load(d);
	if (!indirect || vd == 16) {
		ttx_sfpu_write(s, vd, v, mask);
		return;
	}
	ttx_lanes sel = ttx_lanes_and(ttx_lanes_load(l7), ttx_lanes_splat(15));
	for (unsigned r = 0; r < 8; r++) {
		uint32_t m = mask & ttx_lanes_eq(sel, ttx_lanes_splat(r));
		if (m)
			ttx_lanes_store_mask(s->lreg[r], v, m);
	}
}

/* VD = LReg[VA or LReg[7] & 15] * LReg[VB] + LReg[VC]: SFPMAD, SFPADD and
   SFPMUL share the functional model of TC/SFPMAD.md. */
static int mad(struct ttx_tile *t, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPMAD x = ttx_decode_SFPMAD(word);
	unsigned vb = x.VB, vc = x.VC, vd = x.VD;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = ttx_sfpu_backdoor(s, vd, word) & ttx_sfpu_lane_enabled(s);
	if (!enabled)
		return TTX_OK;
	uint32_t l7[32], av[32], d[32];
	memcpy(l7, s->lreg[7], sizeof(l7));
	const uint32_t *ap = s->lreg[x.VA];
	if (x.Mod1 & MOD1_INDIRECT_VA) {
		for (unsigned i = 0; i < 32; i++)
			av[i] = s->lreg[l7[i] & 15][i];
		ap = av;
	}
	ttx_wh_mad_lanes(d, ap, s->lreg[vb], s->lreg[vc]);
	write_result(s, vd, x.Mod1 & MOD1_INDIRECT_VD, d, l7, enabled);
	return TTX_OK;
}

int ttx_sfpu_SFPMAD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return mad(t, word);
}

int ttx_sfpu_SFPADD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return mad(t, word);
}

int ttx_sfpu_SFPMUL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return mad(t, word);
}

/* SFPMULI: VD = BF16(Imm16) * LReg[VC] + 0.0; SFPADDI: VD = BF16(Imm16) *
   1.0 + LReg[VC]; VC = VD unless SFPLOADMACRO chose it (TC/SFPMULI.md,
   TC/SFPADDI.md). */
static int mad_imm(struct ttx_tile *t, uint32_t word, int add)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPMULI x = ttx_decode_SFPMULI(word);
	unsigned vb = 0, vc = x.VD, vd = x.VD;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = ttx_sfpu_backdoor(s, vd, word) & ttx_sfpu_lane_enabled(s);
	if (!enabled)
		return TTX_OK;
	uint32_t l7[32], imm[32], other[32], d[32];
	memcpy(l7, s->lreg[7], sizeof(l7));
	for (unsigned i = 0; i < 32; i++) {
		imm[i] = (uint32_t)x.Imm16 << 16;
		other[i] = add ? 0x3F800000u : 0;
	}
	if (add)
		ttx_wh_mad_lanes(d, imm, other, s->lreg[vc]);
	else
		ttx_wh_mad_lanes(d, imm, s->lreg[vc], other);
	write_result(s, vd, x.Mod1 & MOD1_INDIRECT_VD, d, l7, enabled);
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

/* Lut8ToFp32 (TC/SFPLUT.md). */
static uint32_t lut8(uint32_t x)
{
	x &= 0xFF;
	if (x == 0xFF)
		return 0;
	return (x >> 7) << 31 | (127 - ((x >> 4) & 7)) << 23 | (x & 0xF) << 19;
}

/* Lut16ToFp32 (TC/SFPLUTFP32.md). */
static uint32_t lut16(uint32_t x)
{
	x &= 0xFFFF;
	uint32_t exp = (x >> 10) & 0x1F;
	return (x >> 15) << 31 | (exp == 0x1F ? 0 : 112 + exp) << 23 | (x & 0x3FF) << 13;
}

#define LUT_SGN_RETAIN 4
#define LUT_INDIRECT_VD 8

/* |x| < limit for FP32 bit patterns, as the float compare of the models
   (NaN compares false). */
static int abs_lt(uint32_t x, uint32_t limit)
{
	x &= 0x7FFFFFFFu;
	return x < limit;
}

int ttx_sfpu_SFPLUT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPLUT x = ttx_decode_SFPLUT(word);
	unsigned vb = 0, vc = 0, vd = x.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = ttx_sfpu_backdoor(s, vd, word) & ttx_sfpu_lane_enabled(s);
	if (!enabled)
		return TTX_OK;
	uint32_t l7[32], av[32], bv[32], cv[32], d[32];
	memcpy(l7, s->lreg[7], sizeof(l7));
	for (unsigned i = 0; i < 32; i++) {
		uint32_t l3 = s->lreg[3][i];
		uint32_t coeffs = abs_lt(l3, 0x3F800000u) ? s->lreg[0][i]
		                : abs_lt(l3, 0x40000000u) ? s->lreg[1][i] : s->lreg[2][i];
		av[i] = lut8(coeffs >> 8);
		bv[i] = l3 & 0x7FFFFFFFu;
		cv[i] = lut8(coeffs);
	}
	ttx_wh_mad_lanes(d, av, bv, cv);
	if (x.Mod0 & LUT_SGN_RETAIN)
		for (unsigned i = 0; i < 32; i++)
			d[i] = (d[i] & 0x7FFFFFFFu) | (s->lreg[3][i] & 0x80000000u);
	write_result(s, vd, x.Mod0 & LUT_INDIRECT_VD, d, l7, enabled);
	return TTX_OK;
}

#define LUTFP32_FP16_3ENTRY_TABLE 10
#define LUTFP32_FP16_6ENTRY_TABLE1 2
#define LUTFP32_FP16_6ENTRY_TABLE2 3
#define LUTFP32_SGN_RETAIN 4
#define LUTFP32_INDIRECT_VD 8

int ttx_sfpu_SFPLUTFP32(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPLUTFP32 x = ttx_decode_SFPLUTFP32(word);
	unsigned vb = 0, vc = 0, vd = x.VD, mod1 = x.Mod1;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t enabled = ttx_sfpu_backdoor(s, vd, word) & ttx_sfpu_lane_enabled(s);
	if (!enabled)
		return TTX_OK;
	uint32_t l7[32], av[32], bv[32], cv[32], d[32];
	memcpy(l7, s->lreg[7], sizeof(l7));
	uint32_t cut = (mod1 & LUTFP32_FP16_6ENTRY_TABLE2) == LUTFP32_FP16_6ENTRY_TABLE2 ? 0x40800000u : 0x40400000u;
	for (unsigned i = 0; i < 32; i++) {
		uint32_t l3 = s->lreg[3][i];
		unsigned k = abs_lt(l3, 0x3F800000u) ? 0 : abs_lt(l3, 0x40000000u) ? 1 : 2;
		if (mod1 & LUTFP32_FP16_6ENTRY_TABLE1) {
			if ((mod1 & LUTFP32_FP16_3ENTRY_TABLE) == LUTFP32_FP16_3ENTRY_TABLE) {
				av[i] = lut16(s->lreg[k][i] >> 16);
				cv[i] = lut16(s->lreg[k][i]);
			} else {
				unsigned j = abs_lt(l3, 0x3F000000u) ? 0 : abs_lt(l3, 0x3F800000u) ? 16
				           : abs_lt(l3, 0x3FC00000u) ? 0 : abs_lt(l3, 0x40000000u) ? 16
				           : abs_lt(l3, cut) ? 0 : 16;
				av[i] = lut16(s->lreg[k][i] >> j);
				cv[i] = lut16(s->lreg[4 + k][i] >> j);
			}
		} else {
			av[i] = s->lreg[k][i];
			cv[i] = s->lreg[4 + k][i];
		}
		bv[i] = l3 & 0x7FFFFFFFu;
	}
	ttx_wh_mad_lanes(d, av, bv, cv);
	if (mod1 & LUTFP32_SGN_RETAIN)
		for (unsigned i = 0; i < 32; i++)
			d[i] = (d[i] & 0x7FFFFFFFu) | (s->lreg[3][i] & 0x80000000u);
	write_result(s, vd, mod1 & LUTFP32_INDIRECT_VD, d, l7, enabled);
	return TTX_OK;
}
