/* SFPU round sub-unit instructions (interp/sfpu_round.c): hand-derived expectations
 * at edge values. */
#include "sfpu_test.h"

/* Words built from tt-llk operand order (src/isa.def):
   SFPSTOCHRND rnd_mode, imm8_math, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1
   SFPSHFT2    imm12_math, lreg_src_c, lreg_dest, instr_mod1 */
static uint32_t stochrnd(unsigned stoch, unsigned imm5, unsigned vb, unsigned vc, unsigned vd, unsigned mod1)
{
	return 0x8E000000u | stoch << 21 | imm5 << 16 | vb << 12 | vc << 8 | vd << 4 | mod1;
}

static uint32_t shft2(unsigned imm12, unsigned vc, unsigned vd, unsigned mod1)
{
	return 0x94000000u | (imm12 & 0xFFF) << 12 | vc << 8 | vd << 4 | mod1;
}

struct io { uint32_t in, out; };

/* Put cases[i].in in lane i of LReg[src] (other lanes: fill), run word, and
   check LReg[dst] lane i against cases[i].out. */
static void check_lanes(struct ttx_tile *t, unsigned src, unsigned dst, uint32_t word,
                        const struct io *cases, unsigned n, uint32_t fill)
{
	sfpu_fill(t, src, fill);
	for (unsigned i = 0; i < n; i++)
		t->sfpu.lreg[src][i] = cases[i].in;
	SFPU_RUN(t, word);
	for (unsigned i = 0; i < n; i++)
		ck_assert_msg(t->sfpu.lreg[dst][i] == cases[i].out, "lane %u: in 0x%08X: got 0x%08X, want 0x%08X",
		              i, cases[i].in, t->sfpu.lreg[dst][i], cases[i].out);
}

#define NCASES(a) (sizeof(a) / sizeof((a)[0]))

/* ======== SFPSTOCHRND: FP32 -> FP32 with 7 or 10 mantissa bits ======== */

/* Mod1 = 1 (FP16B), round to nearest: PRNGBits = 0x400000, so it rounds up
   when (Discarded << 7) >= 0x400000, i.e. Discarded = x & 0xFFFF >= 0x8000. */
START_TEST(test_fp16b_nearest)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0x3F808000, 0x3F810000 },   /* tie 0x8000: away from zero (RNE would keep even 0x3F80) */
		{ 0x3F807FFF, 0x3F800000 },   /* below the tie: truncates */
		{ 0xBF818000, 0xBF820000 },   /* negative tie: magnitude up */
		{ 0x80000000, 0x00000000 },   /* -0 -> +0 */
		{ 0x807FFFFF, 0x00000000 },   /* -denormal: exponent 0 -> +0 */
		{ 0x00000001, 0x00000000 },   /* +denormal -> +0 */
		{ 0x7F800000, 0x7F800000 },   /* +Inf: x & 0xFF800000 */
		{ 0xFF800000, 0xFF800000 },   /* -Inf */
		{ 0x7FC00001, 0x7F800000 },   /* +NaN -> +Inf */
		{ 0xFFFFFFFF, 0xFF800000 },   /* -NaN -> -Inf */
		{ 0x7F7FFFFF, 0x7F800000 },   /* 0x7F7F0000 + 0x10000 carries into the exponent: +Inf */
		{ 0x00800000, 0x00800000 },   /* smallest normal, nothing discarded */
		{ 0x3F80FFFF, 0x3F810000 },   /* 0x3F800000 + 0x10000 */
	};
	check_lanes(t, 1, 2, stochrnd(0, 0, 0, 1, 2, 1), c, NCASES(c), 0x3F800000);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x3F800000);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 0 (FP16A), round to nearest: up when (Discarded << 10) >= 0x400000,
   i.e. Discarded = x & 0x1FFF >= 0x1000. */
START_TEST(test_fp16a_nearest)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0x3F801000, 0x3F802000 },   /* tie: up */
		{ 0x3F800FFF, 0x3F800000 },   /* below: truncate */
		{ 0xC0001000, 0xC0002000 },   /* negative tie: magnitude up */
		{ 0x3F81FFFF, 0x3F820000 },   /* 0x3F81E000 + 0x2000 */
		{ 0xFF800001, 0xFF800000 },   /* -NaN -> -Inf */
		{ 0x80000000, 0x00000000 },   /* -0 -> +0 */
		{ 0x00400000, 0x00000000 },   /* denormal -> +0 */
	};
	check_lanes(t, 3, 3, stochrnd(0, 0, 0, 3, 3, 0), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Stochastic FP16A: PRNGBits = AdvancePRNG() & 0x7FFFFF; up when
   (Discarded << 10) >= PRNGBits.  AdvancePRNG (TC/VectorUnit.md):
   Taps = popcount(State & 0x80200003), State = (~Taps << 31) | (State >> 1). */
START_TEST(test_fp16a_stochastic)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* lane 0: state 0 -> PRNGBits 0, so even 1.0 (nothing discarded) rounds up
	   to 0x3F802000 (the documented bias).  Next state: Taps 0, ~0 << 31 =
	   0x80000000, | 0 >> 1 -> 0x80000000. */
	t->sfpu.prng[0] = 0x00000000;
	/* lane 1: 0x007FFFFF -> PRNGBits 0x7FFFFF; 0x3F81FFFF discards 0x1FFF,
	   0x1FFF << 10 = 0x7FFC00 < 0x7FFFFF: truncates to 0x3F81E000.  Taps:
	   0x007FFFFF & 0x80200003 = 0x00200003, 3 bits, ~3 bit 0 = 0 ->
	   0x007FFFFF >> 1 = 0x003FFFFF. */
	t->sfpu.prng[1] = 0x007FFFFF;
	/* lane 2: 0x80400000 -> PRNGBits 0x400000; 0x3F801000: 0x1000 << 10 =
	   0x400000 >= -> 0x3F802000.  Taps: & 0x80200003 = 0x80000000, 1 bit,
	   ~1 bit 0 = 0 -> 0x40200000. */
	t->sfpu.prng[2] = 0x80400000;
	/* lane 3: 0xFFC00001 -> PRNGBits 0x400001; 0x400000 < -> 0x3F800000.
	   Taps: & 0x80200003 = 0x80000001 (bit 21 clear), 2 bits, ~2 bit 0 = 1
	   -> 0x80000000 | 0x7FE00000 = 0xFFE00000. */
	t->sfpu.prng[3] = 0xFFC00001;
	static const struct io c[] = {
		{ 0x3F800000, 0x3F802000 },
		{ 0x3F81FFFF, 0x3F81E000 },
		{ 0x3F801000, 0x3F802000 },
		{ 0x3F801000, 0x3F800000 },
	};
	check_lanes(t, 0, 1, stochrnd(1, 0, 0, 0, 1, 0), c, NCASES(c), 0x3F800000);
	ck_assert_uint_eq(t->sfpu.prng[0], 0x80000000);
	ck_assert_uint_eq(t->sfpu.prng[1], 0x003FFFFF);
	ck_assert_uint_eq(t->sfpu.prng[2], 0x40200000);
	ck_assert_uint_eq(t->sfpu.prng[3], 0xFFE00000);
	ck_assert_uint_eq(t->sfpu.prng[31], 0x80000000);
	/* Second step of lane 0: 0x80000000 -> PRNGBits 0 -> 1.0 up again;
	   Taps 1 -> 0x40000000.  Third: 0x40000000 -> PRNGBits 0 (bit 30 is
	   above the mask) -> up; Taps 0 -> 0x80000000 | 0x20000000 = 0xA0000000. */
	SFPU_RUN(t, stochrnd(1, 0, 0, 4, 5, 0));   /* L4 = 0 in every lane: stays +0 */
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0);
	ck_assert_uint_eq(t->sfpu.prng[0], 0x40000000);
	sfpu_fill(t, 4, 0x3F800000);
	SFPU_RUN(t, stochrnd(1, 0, 0, 4, 5, 0));
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x3F802000);
	ck_assert_uint_eq(t->sfpu.prng[0], 0xA0000000);
	ttx_tile_destroy(t);
}
END_TEST

/* Stochastic FP16B: up when (Discarded << 7) >= PRNGBits. */
START_TEST(test_fp16b_stochastic)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* lane 0: 0x00000080 -> PRNGBits 0x80; 0x3F800001 discards 1, 1 << 7 =
	   0x80 >= 0x80 -> 0x3F810000.  lane 1: 0x00000081 -> 0x80 < 0x81 ->
	   0x3F800000.  lane 2: 0x00000081, 0xBF80FFFF: 0xFFFF << 7 = 0x7FFF80
	   >= 0x81 -> 0xBF810000. */
	t->sfpu.prng[0] = 0x00000080;
	t->sfpu.prng[1] = 0x00000081;
	t->sfpu.prng[2] = 0x00000081;
	static const struct io c[] = {
		{ 0x3F800001, 0x3F810000 },
		{ 0x3F800001, 0x3F800000 },
		{ 0xBF80FFFF, 0xBF810000 },
	};
	check_lanes(t, 6, 7, stochrnd(1, 0, 0, 6, 7, 1), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSTOCHRND: FP32 -> sign-magnitude integer ======== */

/* Mod1 = 3 (INT8, ±127), round to nearest: Mag = (0x800000 | man) shifted
   by Exp, integer part Mag >> 23, up when the 23 fraction bits >= 0x400000. */
START_TEST(test_fp32_to_int8)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0x3F000000, 0x00000001 },   /* 0.5: Exp -1, Mag >> 1 = 0x400000 >= -> 1 (away from 0) */
		{ 0x3EFFFFFF, 0x00000000 },   /* 0.49999997: Exp -2 < -1 -> 0 */
		{ 0xBF000000, 0x80000001 },   /* -0.5 -> -1 */
		{ 0x3FC00000, 0x00000002 },   /* 1.5: 1 + (0x400000 >= 0x400000) */
		{ 0x40200000, 0x00000003 },   /* 2.5 -> 3 (ties away, not to even) */
		{ 0x42FE0000, 0x0000007F },   /* 127.0 */
		{ 0x42FF0000, 0x0000007F },   /* 127.5 -> 128 -> clamp 127 */
		{ 0xC3000000, 0x8000007F },   /* -128.0 -> clamp -127 */
		{ 0x7F800000, 0x0000007F },   /* +Inf: Exp >= 16 -> MaxMagnitude */
		{ 0xFFC00000, 0x8000007F },   /* -NaN: Exp 128 -> -127 */
		{ 0x80000000, 0x00000000 },   /* -0 -> +0 */
		{ 0xBE800000, 0x00000000 },   /* -0.25 -> +0 (sign dropped) */
		{ 0x477FFF00, 0x0000007F },   /* 65535.0: Exp 15, in range, 65535 -> clamp 127 */
		{ 0x47800000, 0x0000007F },   /* 65536.0: Exp 16 -> MaxMagnitude */
		{ 0x3F7FFFFF, 0x00000001 },   /* 0.99999994: Exp -1, 0xFFFFFF >> 1 = 0x7FFFFF -> 1 */
		{ 0x807FFFFF, 0x00000000 },   /* -denormal -> +0 */
		{ 0xBFBFFFFF, 0x80000001 },   /* -1.4999999: fraction 0x3FFFFF < 0x400000 -> -1 */
	};
	check_lanes(t, 1, 2, stochrnd(0, 0, 0, 1, 2, 3), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 2 (UINT8, 0..255): the absolute value is rounded and clamped. */
START_TEST(test_fp32_to_uint8)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0xBFC00000, 0x00000002 },   /* -1.5 -> |x| rounds to 2, no sign */
		{ 0xC3960000, 0x000000FF },   /* -300.0: Exp 8, 0x960000 >> 15 = 300 -> 255 */
		{ 0xFF800000, 0x000000FF },   /* -Inf -> 255 */
		{ 0x7FC00000, 0x000000FF },   /* NaN -> 255 */
		{ 0x437F8000, 0x000000FF },   /* 255.5: 255 + 1 = 256 -> 255 */
		{ 0x437E8000, 0x000000FF },   /* 254.5 -> 255 */
		{ 0xBF000000, 0x00000001 },   /* -0.5 -> 1 */
		{ 0x437E7FFF, 0x000000FE },   /* 254.49998 -> 254 */
		{ 0x00000000, 0x00000000 },   /* +0 */
	};
	check_lanes(t, 3, 4, stochrnd(0, 0, 0, 3, 4, 2), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 7 (INT16, ±32767). */
START_TEST(test_fp32_to_int16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0x46FFFE00, 0x00007FFF },   /* 32767.0: Exp 14, 0xFFFE00 >> 9 = 0x7FFF */
		{ 0x46FFFF00, 0x00007FFF },   /* 32767.5: 0x7FFF + 1 -> clamp 32767 */
		{ 0xC71C4000, 0x80007FFF },   /* -40000.0: 0x9C4000 >> 8 = 40000 -> -32767 */
		{ 0xD01502F9, 0x80007FFF },   /* -1e10: Exp 33 -> -MaxMagnitude */
		{ 0x7F800000, 0x00007FFF },   /* +Inf */
		{ 0xC6FFFC00, 0x80007FFE },   /* -32766.0 */
		{ 0xBEFFFFFF, 0x00000000 },   /* -0.49999997 -> +0 */
		{ 0x3F800000, 0x00000001 },   /* 1.0 */
	};
	check_lanes(t, 5, 6, stochrnd(0, 0, 0, 5, 6, 7), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 6 (UINT16, 0..65535). */
START_TEST(test_fp32_to_uint16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0x477FFF00, 0x0000FFFF },   /* 65535.0 */
		{ 0x477FFF80, 0x0000FFFF },   /* 65535.5: fraction (0x80 << 15) = 0x400000 -> 65536 -> clamp */
		{ 0xC7800000, 0x0000FFFF },   /* -65536.0: Exp 16 -> 65535, no sign */
		{ 0xC0200000, 0x00000003 },   /* -2.5 -> 3 */
		{ 0x3ECCCCCD, 0x00000000 },   /* 0.4 -> 0 */
		{ 0xFFC00001, 0x0000FFFF },   /* -NaN -> 65535 */
		{ 0x477FFE80, 0x0000FFFF },   /* 65534.5 -> 65535 */
		{ 0x477FFE7F, 0x0000FFFE },   /* 65534.496 -> 65534 */
	};
	check_lanes(t, 7, 0, stochrnd(0, 0, 0, 7, 0, 6), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Stochastic FP32 -> INT8: up when the fraction >= PRNGBits, except that
   |x| < 0.5 is always 0. */
START_TEST(test_fp32_to_int_stochastic)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* lane 0: PRNGBits 0, 0.25 (Exp -2) -> 0 anyway (the documented bug). */
	t->sfpu.prng[0] = 0;
	/* lane 1: PRNGBits 0, 2.0 (fraction 0 >= 0) -> 3: magnitude increased
	   although nothing needed rounding. */
	t->sfpu.prng[1] = 0;
	/* lane 2: 0x00200000, 1.25: Mag 0xA00000, integer 1, fraction 0x200000
	   >= 0x200000 -> 2.  lane 3: 0x00200001 -> 0x200000 < -> 1. */
	t->sfpu.prng[2] = 0x00200000;
	t->sfpu.prng[3] = 0x00200001;
	/* lane 4: 0xFF400001 -> PRNGBits 0x400001; 0.50000006 (0x3F000001): Exp
	   -1 shifts Mag 0x800001 right by 1, dropping bit 0: fraction 0x400000 <
	   0x400001 -> 0 (the exact fraction 0x400000.8 would have been above). */
	t->sfpu.prng[4] = 0xFF400001;
	/* lane 5: 0x80000000 -> PRNGBits 0; -0.75 -> fraction 0x600000 >= 0 ->
	   -1. */
	t->sfpu.prng[5] = 0x80000000;
	static const struct io c[] = {
		{ 0x3E800000, 0x00000000 },
		{ 0x40000000, 0x00000003 },
		{ 0x3FA00000, 0x00000002 },
		{ 0x3FA00000, 0x00000001 },
		{ 0x3F000001, 0x00000000 },
		{ 0xBF400000, 0x80000001 },
	};
	check_lanes(t, 2, 2, stochrnd(1, 0, 0, 2, 2, 3), c, NCASES(c), 0);
	/* The PRNG advanced in every lane, even lane 0 whose value was < 0.5:
	   0 -> 0x80000000.  Lane 4: 0xFF400001 & 0x80200003 = 0x80000001, 2 taps
	   -> 0x80000000 | 0x7FA00000 = 0xFFA00000. */
	ck_assert_uint_eq(t->sfpu.prng[0], 0x80000000);
	ck_assert_uint_eq(t->sfpu.prng[4], 0xFFA00000);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSTOCHRND: sign-magnitude integer >> shift ======== */

/* Mod1 = 5 (INT8) with UseImm5 (Mod1 field 0xD), Imm5 = 4: Mag / 16 rounded
   to nearest, ties away; ±127. */
START_TEST(test_int_to_int8_imm5)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const struct io c[] = {
		{ 0x00000018, 0x00000002 },   /* 24 / 16 = 1.5 -> 2 */
		{ 0x00000017, 0x00000001 },   /* 23 / 16 = 1.4375 -> 1 */
		{ 0x80000018, 0x80000002 },   /* -24 -> -2 */
		{ 0x80000007, 0x00000000 },   /* -7 / 16 -> 0, sign dropped */
		{ 0x80000008, 0x80000001 },   /* -8 / 16 = -0.5 -> -1 */
		{ 0x00000FFF, 0x0000007F },   /* 4095 / 16 = 255.94 -> 256 -> 127 */
		{ 0xFFFFFFFF, 0x8000007F },   /* -(2^31 - 1) -> -127 */
		{ 0x80000000, 0x00000000 },   /* -0 -> +0 */
		{ 0x7FFFFFFF, 0x0000007F },   /* 0x7FFFFFF + 1 -> 127 */
	};
	/* VB = 6 holds a shift of 0 that must be ignored under UseImm5. */
	sfpu_fill(t, 6, 0);
	check_lanes(t, 1, 2, stochrnd(0, 4, 6, 1, 2, 8 | 5), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 4 (UINT8) with the shift from LReg[VB] & 31 (UseImm5 = 0; the
   Imm5 field, here 3, is ignored). */
START_TEST(test_int_to_uint8_vb)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t shift[] = { 1, 1, 0, 0, 31, 31, 31, 40, 0xFFFFFFE8, 24, 24, 4 };
	static const struct io c[] = {
		{ 0x000001FF, 0x000000FF },   /* 511 >> 1 = 255.5 -> 256 -> 255 */
		{ 0x000001FD, 0x000000FF },   /* 509 >> 1 = 254.5 -> 255 */
		{ 0x800000FF, 0x000000FF },   /* -255 >> 0 -> 255, sign dropped */
		{ 0x80000100, 0x000000FF },   /* -256 -> 255 */
		{ 0x7FFFFFFF, 0x00000001 },   /* >> 31: 0, fraction 0x7FFFFF -> 1 */
		{ 0x40000000, 0x00000001 },   /* >> 31 = 0.5: fraction 0x400000 -> 1 */
		{ 0x3FFFFFFF, 0x00000000 },   /* >> 31: fraction 0x3FFFFF -> 0 */
		{ 0x00000300, 0x00000003 },   /* shift 40 & 31 = 8: 768 / 256 = 3 */
		{ 0x00000180, 0x00000002 },   /* shift 0xE8 & 31 = 8: 1.5 -> 2 */
		{ 0x00000001, 0x00000000 },   /* (1 << 23) >> 24: fraction 0 -> 0 */
		{ 0x00800000, 0x00000001 },   /* 2^23 >> 24 = 0.5: (2^46 >> 24) & 0x7FFFFF = 0x400000 -> 1 */
		{ 0x80000017, 0x00000001 },   /* -23 >> 4 = 1.4375 -> 1, no sign */
	};
	for (unsigned i = 0; i < NCASES(shift); i++)
		t->sfpu.lreg[3][i] = shift[i];
	check_lanes(t, 4, 5, stochrnd(0, 3, 3, 4, 5, 4), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Stochastic IntInt: PRNGBits 0 rounds an exact 32 >> 4 = 2 up to 3; bits
   0x7FFFFF keep 31 >> 4 = 1.9375 (fraction 0x780000) at 1. */
START_TEST(test_int_to_int_stochastic)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.prng[0] = 0;
	t->sfpu.prng[1] = 0x007FFFFF;
	t->sfpu.prng[2] = 0x00780000;   /* 0x780000 >= 0x780000 -> up: -31 -> -2 */
	static const struct io c[] = {
		{ 0x00000020, 0x00000003 },
		{ 0x0000001F, 0x00000001 },
		{ 0x8000001F, 0x80000002 },
	};
	check_lanes(t, 0, 0, stochrnd(1, 4, 0, 0, 0, 8 | 5), c, NCASES(c), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSTOCHRND: predication, PRNG, VD rules ======== */

/* Departure #3 (tests/vectors/README.md): round to nearest still advances
   the PRNG of each enabled lane; disabled lanes keep both PRNG and LReg. */
START_TEST(test_stochrnd_nearest_advances_prng)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x3F808000);
	sfpu_fill(t, 2, 0xDEADBEEF);
	t->sfpu.lane_flags = 0x0000FFFF;   /* lanes 16-31 disabled */
	SFPU_RUN(t, stochrnd(0, 0, 0, 1, 2, 1));
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x3F810000);
	ck_assert_uint_eq(t->sfpu.lreg[2][15], 0x3F810000);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 0xDEADBEEF);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0xDEADBEEF);
	/* 0 -> 0x80000000 (Taps 0) in enabled lanes only. */
	ck_assert_uint_eq(t->sfpu.prng[0], 0x80000000);
	ck_assert_uint_eq(t->sfpu.prng[15], 0x80000000);
	ck_assert_uint_eq(t->sfpu.prng[16], 0);
	/* Second advance: 0x80000000 has 1 tap -> 0x40000000 (the vector's
	   "second PRNG read is 0x40000000"). */
	SFPU_RUN(t, stochrnd(0, 0, 0, 1, 2, 3));
	ck_assert_uint_eq(t->sfpu.prng[0], 0x40000000);
	ck_assert_uint_eq(t->sfpu.prng[16], 0);
	/* ROW_MASK (LaneConfig[Lane & 7] bit 12 + Lane / 8): mask lane 1 of row 0. */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	t->sfpu.lane_config[1] = 1u << TTX_LANECFG_ROW_MASK_SHIFT;
	sfpu_fill(t, 2, 0xDEADBEEF);
	SFPU_RUN(t, stochrnd(0, 0, 0, 1, 2, 1));
	ck_assert_uint_eq(t->sfpu.lreg[2][1], 0xDEADBEEF);
	ck_assert_uint_eq(t->sfpu.lreg[2][9], 0x3F810000);
	ck_assert_uint_eq(t->sfpu.prng[1], 0x40000000);
	/* 0x40000000: 0 taps -> 0x80000000 | 0x20000000. */
	ck_assert_uint_eq(t->sfpu.prng[9], 0xA0000000);
	ttx_tile_destroy(t);
}
END_TEST

/* VD 8-11 execute (the PRNG advances) but write nothing; VD >= 12 is a
   backdoor load unless DISABLE_BACKDOOR_LOAD, then it executes like 8-11. */
START_TEST(test_stochrnd_vd_rules)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x3F808000);
	SFPU_RUN(t, stochrnd(0, 0, 0, 1, 9, 1));
	ck_assert_uint_eq(t->sfpu.lreg[9][0], 0);
	ck_assert_uint_eq(t->sfpu.prng[0], 0x80000000);
	uint32_t w = stochrnd(1, 0, 0, 1, 13, 1);
	SFPU_RUN(t, w);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[1], w);
	ck_assert_uint_eq(t->sfpu.load_macro_config[31].instruction_template[1], w);
	ck_assert_uint_eq(t->sfpu.lreg[13][0], 0xBF2CC4C7);
	ck_assert_uint_eq(t->sfpu.prng[0], 0x80000000);   /* not executed */
	for (unsigned l = 0; l < 8; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	uint32_t w2 = stochrnd(1, 0, 0, 1, 12, 1);
	SFPU_RUN(t, w2);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[0], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[8].instruction_template[0], w2);
	ck_assert_uint_eq(t->sfpu.prng[0], 0x40000000);   /* executed: advanced */
	ck_assert_uint_eq(t->sfpu.prng[8], 0x80000000);
	ck_assert_uint_eq(t->sfpu.lreg[12][0], 0x3B000000);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSHFT2 ======== */

/* L0-L7 = 0x100 * (r + 1) + lane, so L_r of lane l reads as r and l. */
static void shft2_pattern(struct ttx_tile *t)
{
	for (unsigned r = 0; r < 8; r++)
		for (unsigned l = 0; l < TTX_LANES; l++)
			t->sfpu.lreg[r][l] = 0x100u * (r + 1) + l;
}

/* Lane l & 7 ? l - 1 : l + 7 (rotate right by one within groups of 8). */
static unsigned ror_lane(unsigned l)
{
	return (l & 7) ? l - 1 : l + 7;
}

START_TEST(test_shft2_copy4)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	t->sfpu.lane_flags = 0xFFFF00FF;   /* lanes 8-15 disabled */
	SFPU_RUN(t, shft2(0, 0, 0, 0));
	for (unsigned l = 0; l < TTX_LANES; l++) {
		int on = l < 8 || l >= 16;
		ck_assert_uint_eq(t->sfpu.lreg[0][l], on ? 0x200 + l : 0x100 + l);
		ck_assert_uint_eq(t->sfpu.lreg[1][l], on ? 0x300 + l : 0x200 + l);
		ck_assert_uint_eq(t->sfpu.lreg[2][l], on ? 0x400 + l : 0x300 + l);
		ck_assert_uint_eq(t->sfpu.lreg[3][l], on ? 0 : 0x400 + l);
		ck_assert_uint_eq(t->sfpu.lreg[4][l], 0x500 + l);
	}
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 1: L3 of lane l = original L0 of lane l + 8; lanes 24-31 get 0. */
START_TEST(test_shft2_chained_copy4)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	t->sfpu.lane_flags = 0xFFFFFFFE;   /* lane 0 disabled */
	SFPU_RUN(t, shft2(0, 0, 0, 1));
	ck_assert_uint_eq(t->sfpu.lreg[0][0], 0x100);
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x400);
	ck_assert_uint_eq(t->sfpu.lreg[0][1], 0x201);
	ck_assert_uint_eq(t->sfpu.lreg[3][1], 0x109);     /* L0 of lane 9 */
	ck_assert_uint_eq(t->sfpu.lreg[3][15], 0x117);
	ck_assert_uint_eq(t->sfpu.lreg[3][23], 0x11F);
	ck_assert_uint_eq(t->sfpu.lreg[3][24], 0);
	ck_assert_uint_eq(t->sfpu.lreg[3][31], 0);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x41F);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 2: copy4, and L3 = LReg[VC] as read before the shuffle, rotated. */
START_TEST(test_shft2_shflror1_and_copy4)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	SFPU_RUN(t, shft2(0, 0, 0, 2));   /* VC = 0 */
	for (unsigned l = 0; l < TTX_LANES; l++) {
		ck_assert_uint_eq(t->sfpu.lreg[0][l], 0x200 + l);
		ck_assert_uint_eq(t->sfpu.lreg[2][l], 0x400 + l);
		ck_assert_uint_eq(t->sfpu.lreg[3][l], 0x100 + ror_lane(l));
	}
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x107);
	ck_assert_uint_eq(t->sfpu.lreg[3][8], 0x10F);
	ck_assert_uint_eq(t->sfpu.lreg[3][31], 0x11E);
	/* VC = 3 reads the old L3 (lane l: 0x100 + ror(l)), so the new L3 is
	   rotated twice; L2 gets the old L3 unrotated. */
	SFPU_RUN(t, shft2(0, 3, 0, 2));
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x107);
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x106);   /* ror(ror(0)) = 6 */
	ck_assert_uint_eq(t->sfpu.lreg[3][9], 0x10F);   /* ror(ror(9)) = 15 */
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 3: LReg[VD] = rotation of LReg[VC]; VD 8-15 write nothing. */
START_TEST(test_shft2_shflror1)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	t->sfpu.lane_flags = 0x7FFFFFFF;   /* lane 31 disabled */
	SFPU_RUN(t, shft2(0, 4, 5, 3), shft2(0, 1, 9, 3));
	for (unsigned l = 0; l < 31; l++)
		ck_assert_uint_eq(t->sfpu.lreg[5][l], 0x500 + ror_lane(l));
	ck_assert_uint_eq(t->sfpu.lreg[5][31], 0x61F);
	ck_assert_uint_eq(t->sfpu.lreg[9][0], 0);
	/* L15 (2 x lane): lane 0 gets lane 7's 14, lane 1 gets 0. */
	SFPU_RUN(t, shft2(0, 15, 6, 3));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 14);
	ck_assert_uint_eq(t->sfpu.lreg[6][1], 0);
	ck_assert_uint_eq(t->sfpu.lreg[6][16], 46);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 4: shift right by one lane within groups of 8; lane 0 of each group
   gets vc0[lane + 7], vc0 being the LReg[VC] the last Mod1 = 2/3 read. */
START_TEST(test_shft2_shflshr1_bug)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	/* Since reset vc0 = 0: lane 0 of each group gets 0. */
	SFPU_RUN(t, shft2(0, 4, 6, 4));
	for (unsigned l = 0; l < TTX_LANES; l++)
		ck_assert_uint_eq(t->sfpu.lreg[6][l], (l & 7) ? 0x500 + l - 1 : 0);
	/* After SHFLROR1 with VC = 1 (L1 = 0x200 + lane): lanes 0, 8, 16, 24 get
	   0x207, 0x20F, 0x217, 0x21F. */
	SFPU_RUN(t, shft2(0, 1, 7, 3), shft2(0, 4, 6, 4));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0x207);
	ck_assert_uint_eq(t->sfpu.lreg[6][8], 0x20F);
	ck_assert_uint_eq(t->sfpu.lreg[6][16], 0x217);
	ck_assert_uint_eq(t->sfpu.lreg[6][24], 0x21F);
	ck_assert_uint_eq(t->sfpu.lreg[6][1], 0x500);
	ck_assert_uint_eq(t->sfpu.lreg[6][31], 0x51E);
	/* Mode 4 itself does not update vc0: a second run with VC = 2 still
	   shows L1's values in lane 0. */
	SFPU_RUN(t, shft2(0, 2, 6, 4));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0x207);
	ck_assert_uint_eq(t->sfpu.lreg[6][1], 0x300);
	/* Mod1 = 2 also sets vc0 (VC = 5: 0x600 + lane). */
	SFPU_RUN(t, shft2(0, 5, 0, 2), shft2(0, 4, 6, 4));
	ck_assert_uint_eq(t->sfpu.lreg[6][8], 0x60F);
	/* The page's remedy: SHFLROR1 with VD = VC = 9 makes vc0 = L9 = 0. */
	SFPU_RUN(t, shft2(0, 9, 9, 3), shft2(0, 4, 6, 4));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0);
	ck_assert_uint_eq(t->sfpu.lreg[6][24], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* vc0 is captured whatever LaneEnabled is, but not by a backdoor load. */
START_TEST(test_shft2_vc0_capture_rules)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	t->sfpu.lane_flags = 0;   /* every lane disabled */
	SFPU_RUN(t, shft2(0, 2, 7, 3));   /* L2 = 0x300 + lane */
	ck_assert_uint_eq(t->sfpu.lreg[7][0], 0x800);   /* not written */
	/* VD = 12: a backdoor load, vc0 unchanged. */
	uint32_t w = shft2(0, 3, 12, 3);
	SFPU_RUN(t, w);
	ck_assert_uint_eq(t->sfpu.load_macro_config[5].instruction_template[0], w);
	t->sfpu.lane_flags = 0xFFFFFFFF;
	SFPU_RUN(t, shft2(0, 0, 6, 4));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0x307);
	ck_assert_uint_eq(t->sfpu.lreg[6][24], 0x31F);
	ck_assert_uint_eq(t->sfpu.lreg[6][25], 0x118);   /* L0 of lane 24 */
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 5: LReg[VD] = LReg[VB] << LReg[VC] (>= 0) or logical >> -LReg[VC];
   both counts & 31.  VB is in bits 15:12. */
START_TEST(test_shft2_shft_lreg)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t count[] = { 0, 1, 31, 32, 0xFFFFFFFF, 0xFFFFFFE1, 0xFFFFFFE0, 0x80000000, 33,
	                                  0xFFFFFFDF };
	static const uint32_t want[] = {
		0x80000001,   /* << 0 */
		0x00000002,   /* << 1 */
		0x80000000,   /* << 31 */
		0x80000001,   /* 32 & 31 = 0 */
		0x40000000,   /* -1: logical >> 1, no sign fill */
		0x00000001,   /* -31: >> 31 */
		0x80000001,   /* -32: 32 & 31 = 0 */
		0x80000001,   /* INT_MIN: -INT_MIN wraps to 0x80000000, & 31 = 0 */
		0x00000002,   /* 33 & 31 = 1 */
		0x40000000,   /* -33: 33 & 31 = 1, >> 1 */
	};
	sfpu_fill(t, 1, 0x80000001);
	sfpu_fill(t, 2, 0);
	for (unsigned i = 0; i < NCASES(count); i++)
		t->sfpu.lreg[2][i] = count[i];
	sfpu_fill(t, 3, 0xDEADBEEF);
	t->sfpu.lane_flags = 0xFFFFFFF7;   /* lane 3 disabled */
	SFPU_RUN(t, shft2(1, 2, 3, 5));   /* VB = 1 (Imm12 = 1), VC = 2, VD = 3 */
	for (unsigned i = 0; i < NCASES(count); i++)
		ck_assert_uint_eq(t->sfpu.lreg[3][i], i == 3 ? 0xDEADBEEF : want[i]);
	ck_assert_uint_eq(t->sfpu.lreg[3][31], 0x80000001);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 6: LReg[VD] = LReg[Imm12 & 15] shifted by the signed Imm12. */
START_TEST(test_shft2_shft_imm)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	/* Imm12 4: VB 4 (0x500 + lane) << 4. */
	SFPU_RUN(t, shft2(0x004, 0, 0, 6));
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 0x5030);
	/* Imm12 0xFFC = -4: VB 12 (0x3B000000) >> 4 = 0x03B00000. */
	SFPU_RUN(t, shft2(0xFFC, 0, 1, 6));
	ck_assert_uint_eq(t->sfpu.lreg[1][0], 0x03B00000);
	/* Imm12 0x811 = -2031: VB 1 (now 0x03B00000 from the line above);
	   2031 & 31 = 15: 0x03B00000 >> 15 = 0x760. */
	SFPU_RUN(t, shft2(0x811, 0, 2, 6));
	ck_assert_uint_eq(t->sfpu.lreg[2][5], 0x760);
	/* Imm12 0x7E3 = 2019: VB 3 (0x400 + lane), 2019 & 31 = 3: lane 7
	   0x407 << 3 = 0x2038. */
	SFPU_RUN(t, shft2(0x7E3, 0, 4, 6));
	ck_assert_uint_eq(t->sfpu.lreg[4][7], 0x2038);
	/* Imm12 0x00F: VB 15 (2 x lane) << 15: lane 3 -> 6 << 15 = 0x30000. */
	SFPU_RUN(t, shft2(0x00F, 0, 5, 6));
	ck_assert_uint_eq(t->sfpu.lreg[5][3], 0x30000);
	/* Imm12 0x800 = -2048: 2048 & 31 = 0; VB 0 (L0 now 0x5030 in lane 3). */
	SFPU_RUN(t, shft2(0x800, 0, 6, 6));
	ck_assert_uint_eq(t->sfpu.lreg[6][3], 0x5030);
	/* Imm12 0xFE0 = -32: (32 & 31) = 0, VB 0. */
	SFPU_RUN(t, shft2(0xFE0, 0, 7, 6));
	ck_assert_uint_eq(t->sfpu.lreg[7][3], 0x5030);
	/* VD 8: nothing written. */
	SFPU_RUN(t, shft2(0x001, 0, 8, 6));
	ck_assert_uint_eq(t->sfpu.lreg[8][0], 0x3F56594B);
	ttx_tile_destroy(t);
}
END_TEST

/* Scheduled by SFPLOADMACRO with Insn.VB = VD (vb_set): SHFT_IMM takes that
   VB instead of Imm12 & 15 (TC/SFPLOADMACRO.md). */
START_TEST(test_shft2_shft_imm_macro_vb)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	t->sfpu.macro_ops.active = 1;
	t->sfpu.macro_ops.vb = 2;
	t->sfpu.macro_ops.vc = 0;
	t->sfpu.macro_ops.vd = 16;
	t->sfpu.macro_ops.vb_set = 1;
	/* Imm12 1 (VB 1 unless overridden): L2 (0x300 + lane) << 1 into L16. */
	ck_assert_int_eq(ttx_sfpu_SFPSHFT2(t, 0, shft2(1, 0, 5, 6)), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[16][4], 0x608);
	ck_assert_uint_eq(t->sfpu.lreg[5][4], 0x604);
	/* Without vb_set, VB = Imm12 & 15 = 1: L1 (0x200 + lane) << 1. */
	t->sfpu.macro_ops.vb_set = 0;
	ck_assert_int_eq(ttx_sfpu_SFPSHFT2(t, 0, shft2(1, 0, 5, 6)), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[16][4], 0x408);
	ttx_tile_destroy(t);
}
END_TEST

/* VD >= 12: Mod1 0-3 are backdoor loads unless DISABLE_BACKDOOR_LOAD; COPY4
   then runs in the lanes where it is set. */
START_TEST(test_shft2_backdoor)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	shft2_pattern(t);
	for (unsigned l = 0; l < 8; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	uint32_t w = shft2(0, 0, 13, 0);
	SFPU_RUN(t, w);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[1], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[8].instruction_template[1], w);
	ck_assert_uint_eq(t->sfpu.lreg[0][0], 0x200);
	ck_assert_uint_eq(t->sfpu.lreg[3][7], 0);
	ck_assert_uint_eq(t->sfpu.lreg[0][8], 0x108);
	ck_assert_uint_eq(t->sfpu.lreg[3][8], 0x408);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_shft2_undefined_modes_fault)
{
	for (unsigned mod1 = 7; mod1 < 16; mod1++) {
		struct ttx_tile *t = ttx_tile_new(NULL);
		ck_assert_int_eq(ttx_push(t, 0, shft2(0, 1, 2, mod1)), TTX_OK);
		ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
		ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "SFPSHFT2 Mod1="));
		ttx_tile_destroy(t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sfpu_round");
	TCase *tc = tcase_create("SFPSTOCHRND_FloatFloat");
	tcase_add_test(tc, test_fp16b_nearest);
	tcase_add_test(tc, test_fp16a_nearest);
	tcase_add_test(tc, test_fp16a_stochastic);
	tcase_add_test(tc, test_fp16b_stochastic);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSTOCHRND_FloatInt");
	tcase_add_test(tc, test_fp32_to_int8);
	tcase_add_test(tc, test_fp32_to_uint8);
	tcase_add_test(tc, test_fp32_to_int16);
	tcase_add_test(tc, test_fp32_to_uint16);
	tcase_add_test(tc, test_fp32_to_int_stochastic);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSTOCHRND_IntInt");
	tcase_add_test(tc, test_int_to_int8_imm5);
	tcase_add_test(tc, test_int_to_uint8_vb);
	tcase_add_test(tc, test_int_to_int_stochastic);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSTOCHRND_lanes");
	tcase_add_test(tc, test_stochrnd_nearest_advances_prng);
	tcase_add_test(tc, test_stochrnd_vd_rules);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSHFT2_COPY4");
	tcase_add_test(tc, test_shft2_copy4);
	tcase_add_test(tc, test_shft2_chained_copy4);
	tcase_add_test(tc, test_shft2_shflror1_and_copy4);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSHFT2_SHFLROR1");
	tcase_add_test(tc, test_shft2_shflror1);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSHFT2_SHFLSHR1");
	tcase_add_test(tc, test_shft2_shflshr1_bug);
	tcase_add_test(tc, test_shft2_vc0_capture_rules);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSHFT2_SHFT");
	tcase_add_test(tc, test_shft2_shft_lreg);
	tcase_add_test(tc, test_shft2_shft_imm);
	tcase_add_test(tc, test_shft2_shft_imm_macro_vb);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSHFT2_modes");
	tcase_add_test(tc, test_shft2_backdoor);
	tcase_add_test(tc, test_shft2_undefined_modes_fault);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
