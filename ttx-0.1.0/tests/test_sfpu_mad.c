/* SFPU MAD sub-unit (interp/sfpu_mad.c): SFPMAD, SFPADD, SFPMUL, SFPMULI,
 * SFPADDI, SFPLUT, SFPLUTFP32.  Hand-derived expectations at edge values,
 * and a property test of the 32-lane fast path against the scalar model.
 *
 * The numerics model (interp/sfpu_mad.c, docs: MAD numerics): with
 * p = ma * mb the 48-bit product of the 24-bit significands and
 * ep = ea + eb - 127 the exponent of its bit 46, the product enters the adder
 * as P28 = (p >> 20) | sticky(p & 0xFFFFF), bit 26 weighing 2^(ep - 127);
 * the addend as q = mc << 3 at ec.  The operand with the smaller exponent is
 * shifted right by the difference d with a sticky bit ORed into bit 0, unless
 * every one of its bits is shifted out (then it is dropped, sticky included:
 * d >= 27 for the addend), the sign-magnitude sum is rounded once to nearest even at 24
 * bits; ep < 0 drops the product, ep > 254 is an overflow (Inf); results
 * below 2^-126 after rounding are +0.  NaN results are sign | 0x7F800001 |
 * the mantissa that datapath computes with exponent-255 operands as the
 * numbers 1.m * 2^128 (ep clamped to 255; 0 if the result leaves the
 * range). */
#include <stdlib.h>

#include "sfpu_test.h"
#include "wh_fp.h"

#define NCASES(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t mad_word(unsigned op, unsigned va, unsigned vb, unsigned vc, unsigned vd, unsigned mod1)
{
	return op << 24 | va << 16 | vb << 12 | vc << 8 | vd << 4 | mod1;
}

#define SFPMAD(va, vb, vc, vd, mod1) mad_word(0x84, va, vb, vc, vd, mod1)
#define SFPADD(va, vb, vc, vd, mod1) mad_word(0x85, va, vb, vc, vd, mod1)
#define SFPMUL(va, vb, vc, vd, mod1) mad_word(0x86, va, vb, vc, vd, mod1)

static uint32_t muli_word(unsigned op, unsigned imm16, unsigned vd, unsigned mod1)
{
	return op << 24 | imm16 << 8 | vd << 4 | mod1;
}

#define SFPMULI(imm, vd, mod1) muli_word(0x74, imm, vd, mod1)
#define SFPADDI(imm, vd, mod1) muli_word(0x75, imm, vd, mod1)
#define SFPLUT(vd, mod0) (0x73000000u | (vd) << 20 | (mod0) << 16)
#define SFPLUTFP32(vd, mod1) (0x95000000u | (vd) << 4 | (mod1))

struct abcd { uint32_t a, b, c, d; };

static void check_scalar(const struct abcd *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t r = ttx_wh_mad(t[i].a, t[i].b, t[i].c);
		ck_assert_msg(r == t[i].d, "case %u: 0x%08X * 0x%08X + 0x%08X = 0x%08X, want 0x%08X",
		              i, t[i].a, t[i].b, t[i].c, r, t[i].d);
	}
	/* the same through the 32-lane version, one case per lane */
	for (unsigned base = 0; base < n; base += 32) {
		uint32_t a[32], b[32], c[32], d[32];
		for (unsigned l = 0; l < 32; l++) {
			const struct abcd *x = &t[base + l < n ? base + l : base];
			a[l] = x->a, b[l] = x->b, c[l] = x->c;
		}
		ttx_wh_mad_lanes(d, a, b, c);
		for (unsigned l = 0; l < 32 && base + l < n; l++)
			ck_assert_msg(d[l] == t[base + l].d, "lanes, case %u: got 0x%08X, want 0x%08X",
			              base + l, d[l], t[base + l].d);
	}
}

/* ======== the scalar model ======== */

START_TEST(test_readme_examples)
{
	static const struct abcd t[] = {
		/* ep = 62 + 64 - 127 = -1 < 0: the product is dropped, the
		   result is c (an exact fma would give 0x80B135BE). */
		{ 0x1F31E000, 0x20000000, 0x80DDADBE, 0x80DDADBE },
		/* p = (2^23 + 1)(2^24 - 1) = 2^47 + 2^23 - 1; P28 = p >> 20 =
		   2^27 + 7 (sticky already 1) at ep = 151 + 126 - 127 = 150.
		   c = -2^24 has ec = 151 > 150: P28 shifts right by 1 with sticky:
		   2^26 + 3; q = 2^26.  q - P = -3 units of 2^(24 - 26): the
		   result is +0.75 (exact: 0.99999994). */
		{ 0x4B800001, 0x3F7FFFFF, 0xCB800000, 0x3F400000 },
		/* ep = 254 + 128 - 127 = 255 > 254: the product overflows to
		   +Inf, and +Inf - MAX = +Inf (an exact fma gives MAX). */
		{ 0x7F7FFFFF, 0x40000000, 0xFF7FFFFF, 0x7F800000 },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

START_TEST(test_zeros_and_denormals)
{
	static const struct abcd t[] = {
		{ 0x3F800000, 0x3F800000, 0x00000000, 0x3F800000 },   /* 1 * 1 + 0 */
		{ 0x3F800000, 0x3F800000, 0xBF800000, 0x00000000 },   /* 1 - 1: exact zero is +0 */
		{ 0xBF800000, 0x3F800000, 0x3F800000, 0x00000000 },   /* -1 + 1: +0 as well */
		{ 0x80000000, 0x3F800000, 0x80000000, 0x00000000 },   /* -0 * 1 + -0: +0, never -0 */
		{ 0x80000000, 0x80000000, 0x00000000, 0x00000000 },   /* -0 * -0 + 0 */
		/* a denormal reads as zero: the result is c */
		{ 0x00000001, 0x7F000000, 0x3F800000, 0x3F800000 },
		{ 0x807FFFFF, 0x7F7FFFFF, 0x40400000, 0x40400000 },
		/* a denormal c reads as zero: 1 * 1 + 0 */
		{ 0x3F800000, 0x3F800000, 0x807FFFFF, 0x3F800000 },
		/* all zero-like: +0 */
		{ 0x00400000, 0x00400000, 0x80400000, 0x00000000 },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

START_TEST(test_rounding)
{
	static const struct abcd t[] = {
		/* 1 * 1 + 2^-24: P28 = 2^26 (p = 2^46, no sticky) at ep = 127;
		   q = 2^26 at ec = 103, d = 24: q >> 24 = 4, nothing lost.
		   Sum 2^26 + 4: top bit 26, 3 bits below the 24 kept: rem = 4
		   = half, keep = 2^23 even: stays.  1.0 */
		{ 0x3F800000, 0x3F800000, 0x33800000, 0x3F800000 },
		/* + 1.5 * 2^-23 (0x34400000): q >> 23... d = 23: q = 0xC00000 << 3
		   >> 23 = 12; sum 2^26 + 12: keep 2^23 + 1 (odd), rem 4 = half:
		   up to 2^23 + 2.  0x3F800002 */
		{ 0x3F800000, 0x3F800000, 0x34400000, 0x3F800002 },
		/* 1 * (1 - 2^-24 ... ) + 0.5: 1 * 0x3F7FFFFF: p = 0xFFFFFF << 23
		   (bit 46 set), P28 = 0x7FFFFF8 at ep = 126; q = 2^26 at 126;
		   sum 0xBFFFFF8: top 27, rem = 8 = half of 16, keep 0xBFFFFF
		   odd: up to 0xC00000, exponent 126 + 1 = 127: 1.5 */
		{ 0x3F800000, 0x3F7FFFFF, 0x3F000000, 0x3FC00000 },
		/* 2^24 + 1 (SFPADDI-like): 1 * 2^24 + 1: q shifted by 24 = 4
		   with P28 = 2^26: tie, even: 2^24 */
		{ 0x3F800000, 0x4B800000, 0x3F800000, 0x4B800000 },
		/* 1 * 2^23 - 0.6749 (0xBF2CC4C7): P28 = 2^26 at ep = 150, q =
		   0xACC4C7 << 3 = 0x5663A38 at 126, d = 24: 0x5663A38 >> 24 = 5,
		   lost bits: sticky, 5 | 1 = 5.  2^26 - 5 = 0x3FFFFFB: top 25,
		   2 bits below: keep 0xFFFFFE, rem 3 > 2: up, 0xFFFFFF at
		   exponent 150 - 1 = 149: 8388607.5 */
		{ 0x3F800000, 0x4B000000, 0xBF2CC4C7, 0x4AFFFFFF },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

/* The datapath's own precision: where it departs from a correctly rounded
   fma (cases from tests/vectors/sfpu, MAD family). */
START_TEST(test_partial_fusion)
{
	static const struct abcd t[] = {
		/* p = 0x54E4F727F1B0 (below 2^47): P28 = 0x54E4F72 | sticky =
		   0x54E4F73 at ep = 128 + 150 - 127 = 151; q = 0x81946C << 3 =
		   0x40CA360 at ec = 128, d = 23: q >> 23 = 8, sticky: 9.  Both
		   negative: 0x54E4F7C; keep 0xA9C9EF (odd), rem 4 = half: up.
		   0xCBA9C9F0 (fma: 0xCBA9C9EF). */
		{ 0xC001946C, 0x4B27B804, 0xC001946C, 0xCBA9C9F0 },
		/* p = 0x9F041C804290 (2^47 or more): P28 = 0x9F041C8 | sticky =
		   0x9F041C9 at ep = 173; q = 0xC9C334 << 3 = 0x64E19A0 at 150,
		   d = 23: 12, sticky: 13.  0x9F041D6: top bit 27, 4 bits below:
		   keep 0x9F041D, rem 6 < 8: down; exponent 174.  (A normalised
		   24 + 3 bit product would tie and give ...1E.) */
		{ 0x4B49C334, 0x4B49C334, 0x4B49C334, 0x571F041D },
		/* p = 0xAD1FB152E04E: P28 = 0xAD1FB15 | 1 at ep = 146 + 138 -
		   127 = 157; c = -0xFFFFFF * 2^(146-150): q = 0x7FFFFF8 at 146,
		   d = 11: 0xFFFF, sticky: 0xFFFF.  0xAD1FB15 - 0xFFFF = 0xAD0FB16:
		   top 27, keep 0xAD0FB1, rem 6 < 8: 0x4F2D0FB1. */
		{ 0xC97FFFFF, 0xC52D1FB2, 0xC97FFFFF, 0x4F2D0FB1 },
		/* p = 0x8000037FFFFC: P28 = 0x8000037 | 1 at ep = 190; c =
		   -2^-3 * 1.000001 at ec = 124: d = 66, dropped whole.
		   0x8000037: keep 0x800003, rem 7 < 8: 0xDF800003 (a sticky from
		   c would not change it here; it shows the drop). */
		{ 0xC57FFFFF, 0x59800004, 0xBE000008, 0xDF800003 },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

/* The addend shifted out altogether leaves no sticky (the MAD table,
   tests/test_mad_table.c, pins this at 27, the addend's width). */
START_TEST(test_alignment_sticky)
{
	static const struct abcd t[] = {
		/* p = 0x800001 * 0xC00000 = 0x600000C00000: P28 = 0x600000C (no
		   sticky) at ep = 127; c = -2^-27: q = 2^26 at ec = 100, d = 27:
		   every bit out, dropped.  keep 0xC00001, rem 4 = half, odd: up:
		   0x3FC00002.  (A surviving sticky, 0x600000B, would round down to
		   0x3FC00001.) */
		{ 0x3F800001, 0x3FC00000, 0xB2000000, 0x3FC00002 },
		/* d = 26 (c = -2^-26): q >> 26 = 1 is still in the frame:
		   0x600000B, rem 3 < 4: 0x3FC00001 */
		{ 0x3F800001, 0x3FC00000, 0xB2800000, 0x3FC00001 },
		/* d = 26 with lost bits (c = -(2^-26 + 2^-49)): 1 | sticky = 1:
		   0x3FC00001 as well */
		{ 0x3F800001, 0x3FC00000, 0xB2800001, 0x3FC00001 },
		/* d = 31, c = +2^-31 * 1.99...: dropped, the tie goes to even */
		{ 0x3F800001, 0x3FC00000, 0x307FFFFF, 0x3FC00002 },
		/* the same tie with the addend positive at d = 26: 0x600000D, rem 5:
		   up, 0x3FC00002 (as without it) */
		{ 0x3F800001, 0x3FC00000, 0x32800000, 0x3FC00002 },
		/* the product as the small operand: c = 1.0 at ec = 127, p at ep =
		   100 (a = 2^-27, b = 1.5): P28 = 0x6000000 >> 27 = 0 with every
		   bit out: dropped, 1.0 - 1.5 * 2^-27 rounds to 1.0 either way
		   (docs/sfpu.md: the product's drop is not observable) */
		{ 0x32000000, 0xBFC00000, 0x3F800000, 0x3F800000 },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

START_TEST(test_range)
{
	static const struct abcd t[] = {
		/* MAX * 1 + MAX: P28 = 0x7FFFFF8 at 254, q = 0x7FFFFF8 at 254:
		   0xFFFFFF0, top 27: exponent 255: +Inf */
		{ 0x7F7FFFFF, 0x3F800000, 0x7F7FFFFF, 0x7F800000 },
		/* the same negative: -Inf */
		{ 0xFF7FFFFF, 0x3F800000, 0xFF7FFFFF, 0xFF800000 },
		/* ep = 64 + 63 - 127 = 0, p = 1.5 * 2^46 (bit 46): 1.5 * 2^-127,
		   exponent 0 after rounding: +0 */
		{ 0x20000000, 0x1FC00000, 0x00000000, 0x00000000 },
		/* -1.5 * 2^-127: +0 too, not -0 */
		{ 0xA0000000, 0x1FC00000, 0x00000000, 0x00000000 },
		/* ep = 0, p = 2.25 * 2^46 (bit 47): 2.25 * 2^-127 = 1.125 * 2^-126 */
		{ 0x20400000, 0x1FC00000, 0x00000000, 0x00900000 },
		/* ep = 0 and p = 2^47 - 2: P28 = 0x7FFFFFF, keep 0xFFFFFF, rem 7
		   > 4: rounds up to 2^24, exponent 1: 2^-126 is not flushed
		   (the flush looks at the rounded result) */
		{ 0x20000001, 0x1FFFFFFE, 0x00000000, 0x00800000 },
		/* ep = 63 + 63 - 127 = -1: the product is dropped (exact: 2^-126
		   + 2^-128 = 0x00A00000) */
		{ 0x1F800000, 0x1F800000, 0x00800000, 0x00800000 },
		/* ep = 126 + 1 - 127 = 0 is kept: 0.675 * 2^-126 - 2^-126 is
		   below 2^-126: +0 (dropping it would give c) */
		{ 0xBF2CC4C7, 0x80800000, 0x80800000, 0x00000000 },
		/* 2^-126 + 2^-127 (ep = 0 product 2^-127): 0x00C00000 */
		{ 0x00800000, 0x3F000000, 0x00800000, 0x00C00000 },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

START_TEST(test_inf_nan)
{
	static const struct abcd t[] = {
		{ 0x7F800000, 0x40000000, 0x3F800000, 0x7F800000 },   /* Inf * 2 + 1 */
		{ 0x7F800000, 0xC0000000, 0x3F800000, 0xFF800000 },   /* Inf * -2 + 1 */
		{ 0x3F800000, 0x3F800000, 0xFF800000, 0xFF800000 },   /* 1 + -Inf: c */
		{ 0x7F800000, 0x3F800000, 0x7F800000, 0x7F800000 },   /* Inf + Inf */
		/* Inf * 0: NaN with the product's sign (0 ^ 1); the datapath sees
		   a zero product and c = 0: mantissa 0, bit 0 set */
		{ 0x7F800000, 0x80000000, 0x00000000, 0xFF800001 },
		/* Inf * denormal (zero) + c: the datapath gives c, whose
		   mantissa 0x308FF9 leaks into the NaN; sign of the product */
		{ 0x7F800000, 0x00000024, 0xBEB08FF9, 0x7FB08FF9 },
		/* Inf - Inf: 1 * 2^128 - 1 * 2^128 = 0 in the datapath */
		{ 0x7F800000, 0x3F800000, 0xFF800000, 0x7F800001 },
		/* finite * finite overflows to +Inf, + -Inf: NaN, product sign;
		   the datapath (ep clamped to 255) overflows: mantissa 0 */
		{ 0x7A7FFFFF, 0x7A7FFFFF, 0xFF800000, 0x7F800001 },
		/* NaN * x: 1.5 * 2^128 * (1 + 3 * 2^-23) * 2^-2: ep = 253, p =
		   0x600002400000 (bit 46), P28 = 0x6000024 (no sticky); keep
		   0xC00004, rem 4 = half, even: stays.  Mantissa 0x400004 | 1 */
		{ 0x7FC00000, 0x3E800003, 0x00000000, 0x7FC00005 },
		/* NaN * 2^16: ep = 271, clamped to 255; the result exponent 255
		   is out of range: mantissa 0 */
		{ 0x7FC00000, 0x47800000, 0x00000000, 0x7F800001 },
		/* -NaN * -x: product sign + */
		{ 0xFFC00000, 0x9E240000, 0x00000000, 0x7FF60001 },
		/* NaN c: c's sign; the datapath result has exponent 255: 0 */
		{ 0x00000000, 0x3F800000, 0xFFFF8000, 0xFF800001 },
		{ 0x3F800000, 0x3F800000, 0x7FC00000, 0x7F800001 },
		/* ep = 255 + 141 - 127 = 269 clamped to 255 = ec: d = 0, so
		   P28 - q = 0x8AA113.. - 0x846BFB.. cancels: mantissa 0x46A305 */
		{ 0xFF846BFB, 0xC6860008, 0xFF846BFB, 0x7FC6A305 },
		/* ep = 255 exactly, not clamped, not an overflow:
		   -1.0000001 * 2^128 + 1.3 * 2^128 = 0.3 * 2^128 */
		{ 0x7F800001, 0xBF800000, 0x7FA67673, 0xFF99D9C9 },
	};
	check_scalar(t, NCASES(t));
}
END_TEST

/* ======== the instructions ======== */

static void set_lanes(struct ttx_tile *t, unsigned reg, const uint32_t *v, unsigned n, uint32_t fill)
{
	sfpu_fill(t, reg, fill);
	for (unsigned i = 0; i < n; i++)
		t->sfpu.lreg[reg][i] = v[i];
}

static void expect_lanes(struct ttx_tile *t, unsigned reg, const uint32_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ck_assert_msg(t->sfpu.lreg[reg][i] == v[i], "LReg[%u] lane %u: got 0x%08X, want 0x%08X",
		              reg, i, t->sfpu.lreg[reg][i], v[i]);
}

START_TEST(test_sfpmad_operands)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t a[] = { 0x40000000, 0x3F800000, 0xC0400000, 0x3F000000 };   /* 2, 1, -3, 0.5 */
	static const uint32_t b[] = { 0x40400000, 0x3F800000, 0x40000000, 0x3F000000 };   /* 3, 1, 2, 0.5 */
	static const uint32_t c[] = { 0x3F800000, 0xBF800000, 0x40C00000, 0x3E800000 };   /* 1, -1, 6, 0.25 */
	set_lanes(t, 1, a, 4, 0x3F800000);
	set_lanes(t, 2, b, 4, 0x3F800000);
	set_lanes(t, 3, c, 4, 0x3F800000);
	SFPU_RUN(t, SFPMAD(1, 2, 3, 4, 0));
	/* 2*3+1 = 7, 1-1 = +0, -6+6 = +0, 0.25+0.25 = 0.5; lanes 4-31: 1*1+1 = 2 */
	static const uint32_t want[] = { 0x40E00000, 0x00000000, 0x00000000, 0x3F000000 };
	expect_lanes(t, 4, want, 4);
	ck_assert_uint_eq(t->sfpu.lreg[4][31], 0x40000000);
	/* VD = VA: in place */
	SFPU_RUN(t, SFPMAD(1, 2, 3, 1, 0));
	expect_lanes(t, 1, want, 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpadd_sfpmul)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x40400000);   /* 3 */
	sfpu_fill(t, 2, 0xBF800000);   /* -1 */
	/* SFPADD VA = 10 (1.0): 1 * 3 + -1 = 2 */
	SFPU_RUN(t, SFPADD(10, 1, 2, 3, 0));
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x40000000);
	/* SFPADD with VB = 10: 3 * 1 + -1 = 2 */
	SFPU_RUN(t, SFPADD(1, 10, 2, 4, 0));
	ck_assert_uint_eq(t->sfpu.lreg[4][5], 0x40000000);
	/* SFPMUL VC = 9 (0): 3 * -1 + 0 = -3 */
	SFPU_RUN(t, SFPMUL(1, 2, 9, 5, 0));
	ck_assert_uint_eq(t->sfpu.lreg[5][31], 0xC0400000);
	/* both are SFPMAD: SFPMUL with VC = 2 adds it: 3 * 3 - 1 = 8 */
	SFPU_RUN(t, SFPMUL(1, 1, 2, 6, 0));
	ck_assert_uint_eq(t->sfpu.lreg[6][7], 0x41000000);
	/* SFPMUL of -0.5 * 2^-126 (LReg 11 = -1): -2^-127 flushes to +0 */
	sfpu_fill(t, 1, 0x80800000);
	SFPU_RUN(t, SFPMUL(1, 11, 9, 7, 0));
	ck_assert_uint_eq(t->sfpu.lreg[7][0], 0x00800000);   /* -1 * -2^-126 = 2^-126 */
	sfpu_fill(t, 2, 0x3F000000);
	SFPU_RUN(t, SFPMUL(1, 2, 9, 7, 0));
	ck_assert_uint_eq(t->sfpu.lreg[7][0], 0x00000000);   /* -2^-127: +0 */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_disabled_lanes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x40000000);
	sfpu_fill(t, 3, 0x12345678);
	t->sfpu.use_lane_flags = 0xFFFFFFFFu;
	t->sfpu.lane_flags = 0x0000FFFFu;
	SFPU_RUN(t, SFPMAD(1, 1, 9, 3, 0));   /* 2 * 2 + 0 = 4 */
	for (unsigned l = 0; l < 32; l++)
		ck_assert_uint_eq(t->sfpu.lreg[3][l], l < 16 ? 0x40800000 : 0x12345678);
	/* ROW_MASK bit 2 of LaneConfig[1] disables lane 1 + 8 * 2 = 17 */
	t->sfpu.lane_flags = 0xFFFFFFFFu;
	t->sfpu.lane_config[1] = 1u << (TTX_LANECFG_ROW_MASK_SHIFT + 2);
	sfpu_fill(t, 3, 0x12345678);
	SFPU_RUN(t, SFPMAD(1, 1, 9, 3, 0));
	for (unsigned l = 0; l < 32; l++)
		ck_assert_uint_eq(t->sfpu.lreg[3][l], l == 17 ? 0x12345678 : 0x40800000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_vd_8_to_15)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint32_t before[TTX_LREGS][TTX_LANES];
	sfpu_fill(t, 1, 0x40000000);
	for (unsigned l = 0; l < 32; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	memcpy(before, t->sfpu.lreg, sizeof(before));
	/* VD 8-11, and 12-15 with DISABLE_BACKDOOR_LOAD: computed, dropped */
	for (unsigned vd = 8; vd < 16; vd++) {
		SFPU_RUN(t, SFPMAD(1, 1, 1, vd, 0));
		SFPU_RUN(t, SFPMULI(0x4000, vd, 0));
		SFPU_RUN(t, SFPLUT(vd, 0));
		SFPU_RUN(t, SFPLUTFP32(vd, 0));
	}
	ck_assert(memcmp(before, t->sfpu.lreg, sizeof(before)) == 0);
	for (unsigned l = 0; l < 32; l++)
		ck_assert_uint_eq(t->sfpu.load_macro_config[l].instruction_template[0], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_backdoor)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint32_t before[TTX_LREGS][TTX_LANES];
	memcpy(before, t->sfpu.lreg, sizeof(before));
	/* DISABLE_BACKDOOR_LOAD clear (reset): VD = 12..15 load the word into
	   InstructionTemplate[VD - 12] of every lane, nothing is computed. */
	uint32_t w[4] = { SFPMAD(1, 2, 3, 12, 0), SFPADDI(0x3F80, 13, 8), SFPLUT(14, 4), SFPLUTFP32(15, 2) };
	for (unsigned i = 0; i < 4; i++)
		SFPU_RUN(t, w[i]);
	for (unsigned l = 0; l < 32; l++)
		for (unsigned i = 0; i < 4; i++)
			ck_assert_uint_eq(t->sfpu.load_macro_config[l].instruction_template[i], w[i]);
	ck_assert(memcmp(before, t->sfpu.lreg, sizeof(before)) == 0);
	/* per lane: lanes with DISABLE_BACKDOOR_LOAD execute (and drop the
	   write), the others capture */
	t->sfpu.lane_config[0] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	SFPU_RUN(t, SFPMULI(0x4000, 12, 0));
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[0], w[0]);
	ck_assert_uint_eq(t->sfpu.load_macro_config[1].instruction_template[0], SFPMULI(0x4000, 12, 0));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_indirect_va)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x40400000);   /* 3 */
	sfpu_fill(t, 2, 0x40A00000);   /* 5 */
	sfpu_fill(t, 4, 0x40000000);   /* 2: VB */
	sfpu_fill(t, 5, 0x3F800000);   /* 1: VC */
	/* L7 & 15 picks VA per lane: 1, 2, 10 (1.0), 0x12 -> 2, 15 (2 * lane:
	   lane 4 holds 8, a denormal: 0), 9 (0) */
	static const uint32_t sel[] = { 1, 2, 10, 0x12, 15, 9 };
	set_lanes(t, 7, sel, 6, 1);
	SFPU_RUN(t, SFPMAD(0, 4, 5, 6, 4));
	/* VA * 2 + 1: 7, 11, 3, 11, 1, 1; other lanes VA = 1: 7 */
	static const uint32_t want[] = { 0x40E00000, 0x41300000, 0x40400000, 0x41300000, 0x3F800000, 0x3F800000 };
	expect_lanes(t, 6, want, 6);
	ck_assert_uint_eq(t->sfpu.lreg[6][20], 0x40E00000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_indirect_vd)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned r = 0; r < 7; r++)
		sfpu_fill(t, r, 0x11110000u + r);
	sfpu_fill(t, 1, 0x40000000);   /* 2 */
	/* lane 0 -> L3, lane 1 -> L7 (itself), lane 2 -> L9 (dropped),
	   lane 3 -> 0x10 & 15 = L0; other lanes L7 = 5 */
	static const uint32_t sel[] = { 3, 7, 9, 0x10 };
	set_lanes(t, 7, sel, 4, 5);
	SFPU_RUN(t, SFPMAD(1, 1, 9, 2, 8));   /* VD = 2 ignored: 2 * 2 = 4 */
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x40800000);
	ck_assert_uint_eq(t->sfpu.lreg[7][1], 0x40800000);
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 0x40800000);
	ck_assert_uint_eq(t->sfpu.lreg[5][10], 0x40800000);
	ck_assert_uint_eq(t->sfpu.lreg[7][2], 9);                /* lane 2 wrote nothing */
	for (unsigned r = 0; r < 7; r++)
		if (r != 1)
			ck_assert_uint_eq(t->sfpu.lreg[r][2], 0x11110000u + r);
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x11110002u);      /* VD untouched */
	ck_assert_uint_eq(t->sfpu.lreg[3][1], 0x11110003u);
	/* Mod1 = 12: both indirect.  Lane 0: VA = L3 (now 4), VD = L3 */
	set_lanes(t, 7, sel, 1, 5);
	SFPU_RUN(t, SFPMAD(0, 1, 9, 2, 12));   /* L3 = L3 * L1 = 4 * 2 */
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x41000000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_muli_addi)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t v[] = { 0x40400000, 0x7F000000, 0x00000000, 0x4B800000, 0x80000000 };
	set_lanes(t, 3, v, 5, 0x3F800000);
	/* VD *= 2 (0x4000): 6, 2^128 = +Inf, 0, 2^25, -0 * 2 = +0 */
	SFPU_RUN(t, SFPMULI(0x4000, 3, 0));
	static const uint32_t w1[] = { 0x40C00000, 0x7F800000, 0x00000000, 0x4C000000, 0x00000000 };
	expect_lanes(t, 3, w1, 5);
	/* VD += 1 (0x3F80): 7, Inf, 1, 2^25 + 1 (a quarter ulp: 2^25), 1 */
	SFPU_RUN(t, SFPADDI(0x3F80, 3, 0));
	static const uint32_t w2[] = { 0x40E00000, 0x7F800000, 0x3F800000, 0x4C000000, 0x3F800000 };
	expect_lanes(t, 3, w2, 5);
	/* -Inf (0xFF80) * VD: lane 2 holds 1 -> -Inf; a zero: NaN */
	sfpu_fill(t, 4, 0);
	t->sfpu.lreg[4][2] = 0x3F800000;
	SFPU_RUN(t, SFPMULI(0xFF80, 4, 0));
	ck_assert_uint_eq(t->sfpu.lreg[4][2], 0xFF800000);
	/* -Inf * +0: NaN, sign 1 ^ 0; datapath 0: 0xFF800001 */
	ck_assert_uint_eq(t->sfpu.lreg[4][0], 0xFF800001);
	/* INDIRECT_VD: VC = VD = 3 is read, LReg[L7 & 15] written */
	sfpu_fill(t, 7, 6);
	t->sfpu.lreg[7][1] = 12;   /* dropped */
	sfpu_fill(t, 6, 0);
	SFPU_RUN(t, SFPADDI(0x4000, 3, 8));   /* L6 = L3 + 2 */
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0x41100000);   /* 7 + 2 = 9 */
	ck_assert_uint_eq(t->sfpu.lreg[6][1], 0);
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x40E00000);   /* L3 unchanged */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfplut)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Lut8ToFp32: 0x00 = 1.0, 0x10 = 0.5, 0x18 = 0.75, 0x80 = -1.0,
	   0x20 = 0.25, 0xFF = 0.  L0 (|x| < 1): |x| + 0.5;  L1 (< 2):
	   0.75 |x| - 1;  L2: 0.25 |x| + 0. */
	sfpu_fill(t, 0, 0xABCD0010);   /* bits 31..16 are ignored */
	sfpu_fill(t, 1, 0x00001880);
	sfpu_fill(t, 2, 0x000020FF);
	static const uint32_t x[] = {
		0x3F000000, 0xBF000000, 0x3F800000, 0xBFC00000, 0x40000000, 0xC1000000,
		0x00000000, 0x80000000, 0x7FC00000, 0x007FFFFF, 0x3F7FFFFF,
	};
	/* 0.5: 1.0;  -0.5: |x| 1.0;  1.0: L1: -0.25;  -1.5: 0.125;  2: L2: 0.5;
	   -8: 2.0;  0: 0.5;  -0: 0.5;  NaN: L2 (compares false), 0.25 * NaN:
	   ep = 125 + 255 - 127 = 253, mantissa 1.0 * 1.5: 0x7FC00001;
	   denormal: 0 + 0.5;  1 - 2^-24: 1.5 - 2^-24 rounds (tie) to 1.5 */
	static const uint32_t plain[] = {
		0x3F800000, 0x3F800000, 0xBE800000, 0x3E000000, 0x3F000000, 0x40000000,
		0x3F000000, 0x3F000000, 0x7FC00001, 0x3F000000, 0x3FC00000,
	};
	/* SGN_RETAIN: the sign of L3 replaces the result's */
	static const uint32_t sgn[] = {
		0x3F800000, 0xBF800000, 0x3E800000, 0xBE000000, 0x3F000000, 0xC0000000,
		0x3F000000, 0xBF000000, 0x7FC00001, 0x3F000000, 0x3FC00000,
	};
	set_lanes(t, 3, x, NCASES(x), 0x3F000000);
	SFPU_RUN(t, SFPLUT(4, 0));
	expect_lanes(t, 4, plain, NCASES(plain));
	SFPU_RUN(t, SFPLUT(5, 4));
	expect_lanes(t, 5, sgn, NCASES(sgn));
	/* INDIRECT_VD (Mod0 = 8 and 12): LReg[L7 & 15]; VD = 16 never */
	sfpu_fill(t, 7, 6);
	t->sfpu.lreg[7][1] = 11;   /* dropped */
	sfpu_fill(t, 6, 0);
	SFPU_RUN(t, SFPLUT(2, 12));
	ck_assert_uint_eq(t->sfpu.lreg[6][1], 0);
	ck_assert_uint_eq(t->sfpu.lreg[6][0], sgn[0]);
	ck_assert_uint_eq(t->sfpu.lreg[6][5], sgn[5]);
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x000020FF);   /* VD = 2 not written */
	/* lut8 0xFF for a too: 0 * |x| + c */
	sfpu_fill(t, 0, 0x0000FF10);
	SFPU_RUN(t, SFPLUT(4, 0));
	ck_assert_uint_eq(t->sfpu.lreg[4][0], 0x3F000000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfplutfp32_fp32)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Mod1 = 0: L0..L2 * |x| + L4..L6 */
	sfpu_fill(t, 0, 0x40000000);   /* 2 */
	sfpu_fill(t, 1, 0x40400000);   /* 3 */
	sfpu_fill(t, 2, 0x3F000000);   /* 0.5 */
	sfpu_fill(t, 4, 0x3F800000);   /* 1 */
	sfpu_fill(t, 5, 0xBF800000);   /* -1 */
	sfpu_fill(t, 6, 0x00000000);
	static const uint32_t x[] = { 0xBF000000, 0x3FC00000, 0x41000000, 0x3F800000 };
	/* -0.5: 2 * 0.5 + 1 = 2;  1.5: 3 * 1.5 - 1 = 3.5;  8: 4;  1: 3 - 1 = 2 */
	static const uint32_t plain[] = { 0x40000000, 0x40600000, 0x40800000, 0x40000000 };
	static const uint32_t sgn[] = { 0xC0000000, 0x40600000, 0x40800000, 0x40000000 };
	set_lanes(t, 3, x, 4, 0);
	SFPU_RUN(t, SFPLUTFP32(7, 0));
	expect_lanes(t, 7, plain, 4);
	ck_assert_uint_eq(t->sfpu.lreg[7][9], 0x3F800000);   /* |0| < 1: 2 * 0 + 1 */
	SFPU_RUN(t, SFPLUTFP32(7, 4));
	expect_lanes(t, 7, sgn, 4);
	/* Mod1 = 8: FP32 table, INDIRECT_VD */
	sfpu_fill(t, 7, 6);
	t->sfpu.lreg[7][0] = 3;   /* lane 0 writes L3 itself */
	SFPU_RUN(t, SFPLUTFP32(1, 8));
	ck_assert_uint_eq(t->sfpu.lreg[3][0], plain[0]);
	ck_assert_uint_eq(t->sfpu.lreg[6][1], plain[1]);
	ck_assert_uint_eq(t->sfpu.lreg[1][1], 0x40400000);   /* VD = 1 not written */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfplutfp32_fp16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Lut16ToFp32: 0x3C00 = 1, 0x4000 = 2, 0x4200 = 3, 0x4400 = 4,
	   0x4500 = 5, 0x4600 = 6.  Slopes 1 everywhere, offsets 1..6 for the
	   six segments (low halves: segments 0, 2, 4). */
	sfpu_fill(t, 0, 0x3C003C00);
	sfpu_fill(t, 1, 0x3C003C00);
	sfpu_fill(t, 2, 0x3C003C00);
	sfpu_fill(t, 4, 0x40003C00);
	sfpu_fill(t, 5, 0x44004200);
	sfpu_fill(t, 6, 0x46004500);
	static const uint32_t x[] = {
		0x3E800000, 0x3F000000, 0x3F800000, 0x3FC00000, 0x40000000, 0x40200000, 0x40400000,
		0x40800000, 0xBE800000,
	};
	/* 0.25 + 1;  0.5 + 2;  1 + 3;  1.5 + 4;  2 + 5;  2.5 + 5;  3: cut 3 ->
	   3 + 6 (table 2: 3 + 5);  4 + 6;  -0.25: 1.25 */
	static const uint32_t t1[] = {
		0x3FA00000, 0x40200000, 0x40800000, 0x40B00000, 0x40E00000, 0x40F00000, 0x41100000,
		0x41200000, 0x3FA00000,
	};
	static const uint32_t t2[] = {
		0x3FA00000, 0x40200000, 0x40800000, 0x40B00000, 0x40E00000, 0x40F00000, 0x41000000,
		0x41200000, 0xBFA00000,
	};
	set_lanes(t, 3, x, NCASES(x), 0x3E800000);
	SFPU_RUN(t, SFPLUTFP32(7, 2));
	expect_lanes(t, 7, t1, NCASES(t1));
	SFPU_RUN(t, SFPLUTFP32(7, 3 | 4));   /* table 2, SGN_RETAIN */
	expect_lanes(t, 7, t2, NCASES(t2));
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 10: FP16_3ENTRY_TABLE, which overlaps INDIRECT_VD: the result goes
   to LReg[LReg[7] & 15], never to VD (the documented hardware bug). */
START_TEST(test_sfplutfp32_mode10_bug)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* a = Lut16(L[i] >> 16), c = Lut16(L[i] & 0xFFFF):
	   L0: 1 * |x| + 1;  L1: 2 * |x| + 0x7C00 (exponent 31: 0);
	   L2: 0x7C00 (0) * |x| + 0x0000 (exponent 0: 2^-15) */
	sfpu_fill(t, 0, 0x3C003C00);
	sfpu_fill(t, 1, 0x40007C00);
	sfpu_fill(t, 2, 0x7C000000);
	static const uint32_t x[] = { 0x3F000000, 0xBFC00000, 0x41000000, 0x3F000000 };
	set_lanes(t, 3, x, 4, 0x3F000000);
	static const uint32_t sel[] = { 5, 6, 4, 9 };
	set_lanes(t, 7, sel, 4, 5);
	sfpu_fill(t, 4, 0x44444444);
	sfpu_fill(t, 5, 0x55555555);
	sfpu_fill(t, 6, 0x66666666);
	SFPU_RUN(t, SFPLUTFP32(2, 10));
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x3FC00000);   /* 0.5 + 1 */
	ck_assert_uint_eq(t->sfpu.lreg[6][1], 0x40400000);   /* 2 * 1.5 + 0 */
	ck_assert_uint_eq(t->sfpu.lreg[4][2], 0x38000000);   /* 0 * 8 + 2^-15 */
	ck_assert_uint_eq(t->sfpu.lreg[5][3], 0x55555555);   /* L9: dropped */
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x7C000000);   /* VD = 2 untouched */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_macro_operands)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x40000000);
	sfpu_fill(t, 2, 0x40400000);
	sfpu_fill(t, 5, 0x40A00000);
	/* as SFPLOADMACRO runs it: VB, VC and VD from the macro, VA kept */
	t->sfpu.macro_ops.active = 1;
	t->sfpu.macro_ops.vb = 2;
	t->sfpu.macro_ops.vc = 5;
	t->sfpu.macro_ops.vd = 16;
	ck_assert_int_eq(ttx_sfpu_exec(t, 0, SFPMAD(1, 9, 9, 3, 8)), TTX_OK);   /* 2 * 3 + 5 */
	ck_assert_uint_eq(t->sfpu.lreg[16][0], 0x41300000);
	/* SFPMULI: VC from the macro */
	t->sfpu.macro_ops.vd = 4;
	ck_assert_int_eq(ttx_sfpu_exec(t, 0, SFPMULI(0x4000, 1, 0)), TTX_OK);   /* 5 * 2 */
	ck_assert_uint_eq(t->sfpu.lreg[4][0], 0x41200000);
	t->sfpu.macro_ops.active = 0;
	ttx_tile_destroy(t);
}
END_TEST

/* ======== the 32-lane fast path against the scalar model ======== */

static uint32_t rnd32(uint64_t *s)
{
	return (uint32_t)(test_rand(s) >> 32);
}

/* Operands of one of several shapes, from plain to adversarial (trailing
   zeros: products whose bits 19..0, the sticky, are zero or nearly so). */
static uint32_t operand(uint64_t *s, unsigned shape)
{
	static const uint32_t edge_exp[] = { 0, 1, 2, 63, 64, 100, 126, 127, 128, 190, 253, 254, 255 };
	uint32_t r = rnd32(s), sign = r & 0x80000000u, man = r & 0x7FFFFF;
	switch (shape) {
	case 0:
		return r;                                                /* any bits */
	case 1:
		return sign | (100 + rnd32(s) % 56) << 23 | man;          /* mid range */
	case 2:
		return sign | edge_exp[rnd32(s) % NCASES(edge_exp)] << 23 |
		       (rnd32(s) % 3 == 0 ? 0x7FFFFF * (rnd32(s) & 1) : man);
	case 3:
		return r & 0xFFFF0000u;                                   /* BF16 */
	default:                                                     /* k trailing zeros */
		return sign | (100 + rnd32(s) % 56) << 23 | (man & (0x7FFFFFu << rnd32(s) % 24));
	}
}

static float as_float(uint32_t x)
{
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static uint32_t as_bits(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	return x;
}

/* Fill a, b, c for one call: a shape, and for half the lanes a c near
   -a * b (cancellation), near a * b scaled by 2^k for k around the
   sticky-drop distance, or a tie-making c. */
static void fill(uint64_t *s, unsigned shape, uint32_t a[32], uint32_t b[32], uint32_t c[32])
{
	for (unsigned l = 0; l < 32; l++) {
		a[l] = operand(s, shape);
		b[l] = operand(s, shape);
		c[l] = operand(s, shape);
		if (shape == 0 || rnd32(s) % 2)
			continue;
		uint32_t p = as_bits(as_float(a[l]) * as_float(b[l]));
		switch (rnd32(s) % 3) {
		case 0:   /* cancellation within a few ulps */
			c[l] = (p ^ 0x80000000u) + (rnd32(s) % 9) - 4;
			break;
		case 1: { /* exponent gaps of 20..35, either way */
			int k = (int)(rnd32(s) % 16) + 20;
			int e = (int)((p >> 23) & 0xFF) + ((rnd32(s) & 1) ? k : -k);
			if (e > 0 && e < 255)
				c[l] = ((p & 0x807FFFFF) ^ (rnd32(s) & 0x80000000u)) | (uint32_t)e << 23;
			break;
		}
		default:  /* a c that is a power of two: ties */
			c[l] = (p & 0xFF800000u) - ((23 + rnd32(s) % 4) << 23);
			break;
		}
	}
}

static void compare(uint64_t seed, long calls, long *slow_lanes)
{
	uint64_t s = seed;
	for (long i = 0; i < calls; i++) {
		uint32_t a[32], b[32], c[32], d[32];
		fill(&s, (unsigned)(i % 5), a, b, c);
		if (i % 3 == 1)   /* every c reads as zero (exponent 0): the product-only path */
			for (unsigned l = 0; l < 32; l++)
				c[l] &= rnd32(&s) % 4 ? 0x807FFFFFu : 0x80000000u;
		uint32_t slow = ttx_wh_mad_lanes(d, a, b, c);
		*slow_lanes += __builtin_popcount(slow);
		for (unsigned l = 0; l < 32; l++) {
			uint32_t want = ttx_wh_mad(a[l], b[l], c[l]);
			if (d[l] != want)
				ck_abort_msg("0x%08X * 0x%08X + 0x%08X: lanes 0x%08X, scalar 0x%08X",
				             a[l], b[l], c[l], d[l], want);
		}
	}
}

START_TEST(test_fast_path_equals_scalar)
{
	long slow = 0;
	/* TTX_LONG_TESTS=1: 100 times as many */
	long calls = getenv("TTX_LONG_TESTS") ? 50000000 : 500000;
	compare(0x9E3779B97F4A7C15ull, calls, &slow);
	ck_assert(slow > 0);
}
END_TEST

/* The fallback takes the lanes it must and only those, the NaN results
   (their mantissa comes from the datapath at exponent 255); Inf operands,
   product overflow and results out of the range stay in the vector path. */
START_TEST(test_fast_path_fallback)
{
	uint32_t a[32], b[32], c[32], d[32];
	for (unsigned l = 0; l < 32; l++)
		a[l] = 0x3FC00000, b[l] = 0x40000000 + l, c[l] = 0xBF800000 + (l << 20);
	ck_assert_uint_eq(ttx_wh_mad_lanes(d, a, b, c), 0);
	a[0] = 0x7F800000;                  /* Inf */
	b[1] = 0x7FC00000;                  /* NaN */
	c[2] = 0xFF800000;                  /* -Inf c */
	a[3] = 0x7F000000, b[3] = 0x7F000000;   /* product overflow */
	a[4] = 0x7F7FFFFF, b[4] = 0x3F800000, c[4] = 0x7F7FFFFF;   /* sum overflow */
	a[5] = 0x00800000, b[5] = 0x3F000000, c[5] = 0;            /* underflow: 2^-127 */
	a[6] = 0, b[6] = 0, c[6] = 0;                              /* zero: fast */
	a[7] = 0x1F800000, b[7] = 0x1F800000, c[7] = 0;            /* dropped product: fast */
	a[8] = 0xFF800000, b[8] = 0;                               /* -Inf * 0: NaN */
	a[9] = 0x7F800000, c[9] = 0xFF800000;                      /* Inf - Inf: NaN */
	a[10] = 0x7F800000, c[10] = 0x7F800000;                    /* Inf + Inf: Inf */
	a[11] = 0x7F000000, b[11] = 0xFF000000, c[11] = 0x7F800000;   /* overflowed product - Inf... + Inf: NaN */
	a[12] = 0x7F000000, b[12] = 0x7F000000, c[12] = 0xFF7FFFFF;   /* overflowed product wins over a finite c */
	c[13] = 0x7FC00001;                                        /* NaN c */
	a[14] = 0x00000001, b[14] = 0x7F800000;                    /* denormal reads as 0: Inf * 0 */
	uint32_t slow = ttx_wh_mad_lanes(d, a, b, c);
	ck_assert_uint_eq(slow & 0xFFFF, 0x6B02);   /* lanes 1, 8, 9, 11, 13, 14 */
	for (unsigned l = 0; l < 32; l++)
		ck_assert_uint_eq(d[l], ttx_wh_mad(a[l], b[l], c[l]));
	/* d may be an input */
	uint32_t want[32];
	for (unsigned l = 0; l < 32; l++)
		want[l] = ttx_wh_mad(a[l], b[l], c[l]);
	ttx_wh_mad_lanes(a, a, b, c);
	ck_assert(memcmp(a, want, sizeof(want)) == 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sfpu_mad");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, test_readme_examples);
	tcase_add_test(tc, test_zeros_and_denormals);
	tcase_add_test(tc, test_rounding);
	tcase_add_test(tc, test_partial_fusion);
	tcase_add_test(tc, test_alignment_sticky);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_inf_nan);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPMAD");
	tcase_add_test(tc, test_sfpmad_operands);
	tcase_add_test(tc, test_sfpadd_sfpmul);
	tcase_add_test(tc, test_disabled_lanes);
	tcase_add_test(tc, test_vd_8_to_15);
	tcase_add_test(tc, test_backdoor);
	tcase_add_test(tc, test_indirect_va);
	tcase_add_test(tc, test_indirect_vd);
	tcase_add_test(tc, test_muli_addi);
	tcase_add_test(tc, test_macro_operands);
	suite_add_tcase(s, tc);
	tc = tcase_create("LUT");
	tcase_add_test(tc, test_sfplut);
	tcase_add_test(tc, test_sfplutfp32_fp32);
	tcase_add_test(tc, test_sfplutfp32_fp16);
	tcase_add_test(tc, test_sfplutfp32_mode10_bug);
	suite_add_tcase(s, tc);
	tc = tcase_create("fast_path");
	tcase_set_timeout(tc, getenv("TTX_LONG_TESTS") ? 1200 : 120);   /* the long run takes ~2 min alone */
	tcase_add_test(tc, test_fast_path_equals_scalar);
	tcase_add_test(tc, test_fast_path_fallback);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
