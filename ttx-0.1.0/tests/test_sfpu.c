/* SFPU load, store, SFPLOADI, SFPCONFIG and SFPLOADMACRO (interp/sfpu.c):
 * hand-derived expectations at edge values. */
#include <stdio.h>

#include "sfpu_test.h"

/* Words built from tt-llk operand order (src/isa.def):
   SFPLOADI lreg_ind, instr_mod0, imm16
   SFPLOAD / SFPSTORE lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr
   SFPCONFIG imm16_math, config_dest, instr_mod1 */
static uint32_t loadi(unsigned vd, unsigned mod0, unsigned imm)
{
	return 0x71000000u | vd << 20 | mod0 << 16 | imm;
}

static uint32_t load(unsigned vd, unsigned mod0, unsigned addrmod, unsigned imm10)
{
	return 0x70000000u | vd << 20 | mod0 << 16 | addrmod << 14 | imm10;
}

static uint32_t store(unsigned vd, unsigned mod0, unsigned addrmod, unsigned imm10)
{
	return 0x72000000u | vd << 20 | mod0 << 16 | addrmod << 14 | imm10;
}

static uint32_t config(unsigned imm16, unsigned vd, unsigned mod1)
{
	return 0x91000000u | imm16 << 8 | vd << 4 | mod1;
}

/* ---- SFPLOADI ---- */

START_TEST(test_sfploadi_modes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* FLOATB: Imm16 << 16. */
	SFPU_RUN(t, loadi(0, 0, 0x3F80));
	ck_assert_uint_eq(t->sfpu.lreg[0][0], 0x3F800000);
	ck_assert_uint_eq(t->sfpu.lreg[0][31], 0x3F800000);
	/* FLOATA 0x3C00 (FP16 1.0): exp 15 + 112 = 127 -> 0x3F800000. */
	SFPU_RUN(t, loadi(1, 1, 0x3C00));
	ck_assert_uint_eq(t->sfpu.lreg[1][5], 0x3F800000);
	/* FLOATA has no special cases: 0x7C00 (FP16 +Inf) -> exp 31 + 112 = 143, 0x47800000;
	   0xFFFF -> sign 1, exp 143, man 0x3FF << 13 -> 0xC7FFE000; 0x0001 (denormal) ->
	   exp 0 + 112 = 112 -> 0x38002000. */
	SFPU_RUN(t, loadi(2, 1, 0x7C00), loadi(3, 1, 0xFFFF), loadi(4, 1, 0x0001));
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x47800000);
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0xC7FFE000);
	ck_assert_uint_eq(t->sfpu.lreg[4][0], 0x38002000);
	/* USHORT zero-extends, SHORT sign-extends. */
	SFPU_RUN(t, loadi(5, 2, 0xFFFF), loadi(6, 4, 0xFFFF), loadi(7, 4, 0x7FFF));
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x0000FFFF);
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lreg[7][0], 0x00007FFF);
	/* UPPER and LOWER keep the other half. */
	SFPU_RUN(t, loadi(0, 2, 0x5678), loadi(0, 8, 0x1234));
	ck_assert_uint_eq(t->sfpu.lreg[0][9], 0x12345678);
	SFPU_RUN(t, loadi(0, 10, 0xABCD));
	ck_assert_uint_eq(t->sfpu.lreg[0][9], 0x1234ABCD);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfploadi_undefined_mode_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	ck_assert_int_eq(ttx_push(t, 0, loadi(0, 3, 0x1234)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "SFPLOADI Mod0=3"));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfploadi_disabled_lanes_untouched)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 2, 0xDEADBEEF);
	/* Reset state: conditional execution on, all flags set; clear the flags
	   of lanes 16-31 so only lanes 0-15 are enabled. */
	t->sfpu.lane_flags = 0x0000FFFF;
	SFPU_RUN(t, loadi(2, 2, 0x0042));
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x42);
	ck_assert_uint_eq(t->sfpu.lreg[2][15], 0x42);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 0xDEADBEEF);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0xDEADBEEF);
	/* With UseLaneFlagsForLaneEnable off, every lane is enabled. */
	t->sfpu.use_lane_flags = 0;
	SFPU_RUN(t, loadi(2, 2, 0x0043));
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x43);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_writes_to_constant_lregs_dropped)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* VD 8-11: SFPLOADI writes nothing (TC/SFPLOADI.md). */
	SFPU_RUN(t, loadi(8, 2, 0x1111), loadi(10, 2, 0x1111), loadi(11, 2, 0x1111));
	ck_assert_uint_eq(t->sfpu.lreg[8][0], 0x3F56594B);
	ck_assert_uint_eq(t->sfpu.lreg[10][0], 0x3F800000);
	ck_assert_uint_eq(t->sfpu.lreg[11][0], 0xBF800000);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- backdoor load ---- */

START_TEST(test_backdoor_load_writes_template)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* VD = 13 with DISABLE_BACKDOOR_LOAD clear: the word goes to
	   InstructionTemplate[1] of every lane, LReg 13 unchanged. */
	uint32_t w = loadi(13, 2, 0x7777);
	SFPU_RUN(t, w);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[1], w);
	ck_assert_uint_eq(t->sfpu.load_macro_config[31].instruction_template[1], w);
	ck_assert_uint_eq(t->sfpu.lreg[13][0], 0xBF2CC4C7);
	/* Lanes with DISABLE_BACKDOOR_LOAD (bit 1) execute normally instead, and
	   SFPLOADI then drops the write to VD >= 8. */
	for (unsigned l = 0; l < 16; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	uint32_t w2 = loadi(12, 2, 0x1234);
	SFPU_RUN(t, w2);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[0], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[16].instruction_template[0], w2);
	ck_assert_uint_eq(t->sfpu.lreg[12][0], 0x3B000000);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- SFPLOAD / SFPSTORE ---- */

/* Lane l of an access at Addr touches Dst row (Addr & ~3) + l / 8 and column
   2 * (l & 7) + ((Addr & 2) != 0) (TC/SFPLOAD.md). */
START_TEST(test_store_load_fp32_lane_mapping)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint32_t v[TTX_LANES];
	for (unsigned l = 0; l < TTX_LANES; l++)
		v[l] = 0x40000000u + l;   /* 2.0 + tiny, normal numbers */
	sfpu_set_lanes(t, 1, v);
	SFPU_RUN(t, store(1, 3, 0, 8), store(1, 3, 0, 14));
	/* Addr 8: rows 8-11, even columns.  Addr 14: rows 12-15, odd columns. */
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 8, 0)), 0x40000000);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 8, 14)), 0x40000007);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 11, 14)), 0x4000001F);
	ck_assert_uint_eq(ttx_dst32_get(t, 8, 1), 0);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 12, 1)), 0x40000000);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 14, 5)), 0x40000012);
	/* Load back into L2 from the odd columns. */
	SFPU_RUN(t, load(2, 3, 0, 14));
	for (unsigned l = 0; l < TTX_LANES; l++)
		ck_assert_uint_eq(t->sfpu.lreg[2][l], 0x40000000u + l);
	ttx_tile_destroy(t);
}
END_TEST

/* The 32-bit formats take a vectorised path when no lane has a LaneConfig
   option that moves or blocks its Dst access (interp/sfpu.c).  Column
   exchange is decided by LaneConfig[Lane & 7], so setting it on lanes 8-31
   changes nothing but sends the same accesses through the per-lane path:
   the two must agree on random data, addresses, formats and lane enables. */
START_TEST(test_load_store_fast_path_equals_per_lane)
{
	static const unsigned mod0s[] = { 3, 4, 12, 13 };   /* FP32, INT32, INT32_ALL, INT32_SM */
	uint64_t rng = 0x5EED5EEDull;
	struct ttx_tile *t[2] = { ttx_tile_new(NULL), ttx_tile_new(NULL) };
	for (unsigned l = 8; l < TTX_LANES; l++)
		t[1]->sfpu.lane_config[l] |= 1u << 6 | 1u << 7;   /* RD/WR_COL_EXCHANGE */
	for (unsigned trial = 0; trial < 2000; trial++) {
		uint32_t in[2][TTX_LANES], flags = (uint32_t)test_rand(&rng);
		for (unsigned l = 0; l < TTX_LANES; l++) {
			in[0][l] = (uint32_t)test_rand(&rng);
			in[1][l] = (uint32_t)test_rand(&rng);
			if (l % 5 == 0)   /* some denormals and zeros */
				in[0][l] &= 0x807FFFFFu;
		}
		for (unsigned r = 0; r < TTX_DST_ROWS16; r++)
			for (unsigned c = 0; c < TTX_COLS; c++)
				t[0]->dst[r][c] = t[1]->dst[r][c] = (uint16_t)test_rand(&rng);
		for (unsigned i = 0; i < TTX_DST_ROWS16 / 32; i++)   /* rows left undefined by ZEROACC */
			t[0]->dst_undefined[i] = t[1]->dst_undefined[i] = (uint32_t)test_rand(&rng);
		for (unsigned k = 0; k < 2; k++) {
			sfpu_set_lanes(t[k], 1, in[0]);
			sfpu_set_lanes(t[k], 2, in[1]);
			t[k]->sfpu.lane_flags = flags;
			t[k]->sfpu.use_lane_flags = trial % 3 ? 0xFFFFFFFFu : 0;
		}
		uint32_t m = mod0s[trial % 4], a = (uint32_t)test_rand(&rng) % 1024, b = (uint32_t)test_rand(&rng) % 1024;
		for (unsigned k = 0; k < 2; k++)
			SFPU_RUN(t[k], store(1, m, 0, a), load(2, m, 0, b), store(2, m, 0, b ^ 2));
		ck_assert_msg(memcmp(t[0]->sfpu.lreg[2], t[1]->sfpu.lreg[2], sizeof(t[0]->sfpu.lreg[2])) == 0,
		              "trial %u: loaded LReg differs (Mod0 %u, Addr %u)", trial, m, b);
		ck_assert_msg(memcmp(t[0]->dst, t[1]->dst, sizeof(t[0]->dst)) == 0 &&
		              memcmp(t[0]->dst_undefined, t[1]->dst_undefined, sizeof(t[0]->dst_undefined)) == 0,
		              "trial %u: Dst differs (Mod0 %u, Addr %u, %u)", trial, m, a, b);
	}
	ttx_tile_destroy(t[0]);
	ttx_tile_destroy(t[1]);
}
END_TEST

/* Departure #1 (tests/vectors/README.md): SFPSTORE FP32 flushes denormals to
   signed zero; INT32 stores every bit. */
START_TEST(test_store_fp32_flushes_denormals)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x00000001);
	sfpu_fill(t, 2, 0x807FFFFF);
	SFPU_RUN(t, store(1, 3, 0, 0), store(2, 3, 0, 4), store(1, 4, 0, 8));
	ck_assert_uint_eq(ttx_dst32_get(t, 0, 0), 0x00000000);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 4, 0)), 0x80000000);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 8, 0)), 0x00000001);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_store_load_bf16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* ToBF16 truncates: 0x3F8123FF -> 0x3F81; Dst keeps Sign,Man(7),Exp(8):
	   man 0x01, exp 0x7F -> 0x017F.  A denormal flushes to signed zero:
	   0x80400000 -> 0x8000. */
	sfpu_fill(t, 1, 0x3F8123FF);
	sfpu_fill(t, 2, 0x80400000);
	SFPU_RUN(t, store(1, 2, 0, 0), store(2, 2, 0, 4));
	ck_assert_uint_eq(t->dst[0][0], 0x017F);
	ck_assert_uint_eq(t->dst[4][0], 0x8000);
	SFPU_RUN(t, load(3, 2, 0, 0));
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x3F810000);
	/* Mod0 = 0 (SRCB) with the reset configuration (SrcB format FP32) is BF16. */
	SFPU_RUN(t, load(4, 0, 0, 0));
	ck_assert_uint_eq(t->sfpu.lreg[4][0], 0x3F810000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_store_load_fp16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 1.0: exp 127 - 112 = 15 -> FP16 0x3C00 -> Dst Sign,Man(10),Exp(5) = 0x000F. */
	sfpu_fill(t, 1, 0x3F800000);
	/* 1e10 (0x501502F9): exp 160 - 112 = 48 > 31 saturates to exp 31, man 0x3FF:
	   FP16 0x7FFF -> Dst 0x7FFF. */
	sfpu_fill(t, 2, 0x501502F9);
	/* 1e-6 (0x358637BD): exp 107 - 112 <= 0 flushes to zero; sign kept for -1e-6. */
	sfpu_fill(t, 3, 0xB58637BD);
	/* 1.5 + 2^-23: the low 13 mantissa bits are truncated -> 0x3E00 -> Dst 0x400F. */
	sfpu_fill(t, 4, 0x3FC00001);
	SFPU_RUN(t, store(1, 1, 0, 0), store(2, 1, 0, 4), store(3, 1, 0, 8), store(4, 1, 0, 12));
	ck_assert_uint_eq(t->dst[0][0], 0x000F);
	ck_assert_uint_eq(t->dst[4][0], 0x7FFF);
	ck_assert_uint_eq(t->dst[8][0], 0x8000);
	ck_assert_uint_eq(t->dst[12][0], 0x400F);
	/* ReadFP16: 0x7FFF without ENABLE_FP16A_INF -> exp 31 + 112 = 143, man 0x3FF << 13:
	   0x47FFE000; with it -> +Inf. */
	SFPU_RUN(t, load(5, 1, 0, 4), load(6, 1, 0, 12));
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x47FFE000);
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0x3FC00000);
	for (unsigned l = 0; l < TTX_LANES; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_ENABLE_FP16A_INF;
	SFPU_RUN(t, load(5, 1, 0, 4));
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x7F800000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_store_load_integer_formats)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* INT32_SM: two's complement -5 is stored as sign-magnitude 0x80000005 and
	   loads back as -5. */
	sfpu_fill(t, 1, 0xFFFFFFFB);
	SFPU_RUN(t, store(1, 12, 0, 0), load(2, 12, 0, 0), load(3, 4, 0, 0));
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0xFFFFFFFB);
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x80000005);
	/* INT8 from sign-magnitude 0x80000005: SignMag11ToFP16 = 0x8000 | 16 << 10 | 5
	   = 0xC005, shuffled to Sign,Man(10),Exp(5) = 0x8000 | 5 << 5 | 16 = 0x80B0.
	   Loading INT8 reads Mag = (x >> 5) & 0x7F = 5. */
	sfpu_fill(t, 4, 0x80000005);
	SFPU_RUN(t, store(4, 5, 0, 4), load(5, 5, 0, 4));
	ck_assert_uint_eq(t->dst[4][0], 0x80B0);
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x80000005);
	/* INT8_COMP: two's complement -200 -> sign-magnitude 0x800000C8 ->
	   0x8000 | 0xC8 << 5 | 16 = 0x9910; loads back through 10-bit magnitude. */
	sfpu_fill(t, 6, (uint32_t)-200);
	SFPU_RUN(t, store(6, 13, 0, 8), load(7, 13, 0, 8));
	ck_assert_uint_eq(t->dst[8][0], 0x9910);
	ck_assert_uint_eq(t->sfpu.lreg[7][0], (uint32_t)-200);
	/* INT16: sign bit and 15 magnitude bits. */
	sfpu_fill(t, 1, 0x80012345);
	SFPU_RUN(t, store(1, 8, 0, 12), load(2, 8, 0, 12));
	ck_assert_uint_eq(t->dst[12][0], 0xA345);
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x80002345);
	/* UINT16 / LO16_ONLY / HI16_ONLY: raw 16-bit halves. */
	sfpu_fill(t, 1, 0xAAAA5555);
	SFPU_RUN(t, store(1, 6, 0, 16), store(1, 15, 0, 20));
	ck_assert_uint_eq(t->dst[16][0], 0x5555);
	ck_assert_uint_eq(t->dst[20][0], 0xAAAA);
	sfpu_fill(t, 3, 0x11112222);
	SFPU_RUN(t, load(3, 14, 0, 16));   /* LO16_ONLY keeps the high half of L3 */
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x11115555);
	SFPU_RUN(t, load(3, 15, 0, 16));   /* HI16_ONLY keeps the low half */
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0x55555555);
	/* LO16 stores (Datum << 16) | (Datum >> 16) as a 32-bit Dst datum; HI16 loads
	   Dst16b << 16. */
	sfpu_fill(t, 1, 0x12345678);
	SFPU_RUN(t, store(1, 9, 0, 24));
	ck_assert_uint_eq(ttx_dst32_get(t, 24, 0), 0x56781234);
	/* Loads of HI16 / LO16 read the 16-bit cell Dst16b[Row][Column], Row = 24
	   for lane 0 here (not the Dst32b pair that the LO16 store wrote). */
	t->dst[24][0] = 0x9ABC;
	SFPU_RUN(t, load(4, 7, 0, 24), load(5, 9, 0, 24));
	ck_assert_uint_eq(t->sfpu.lreg[4][0], 0x9ABC0000);
	ck_assert_uint_eq(t->sfpu.lreg[5][0], 0x9ABC);
	/* ZERO loads 0 (L6 held -200) and stores 0 to the 16-bit cell. */
	SFPU_RUN(t, load(6, 11, 0, 0), store(1, 11, 0, 16));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], 0);
	ck_assert_uint_eq(t->dst[16][0], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_int32_all_ignores_lane_enable)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x01020304);
	t->sfpu.lane_flags = 0;   /* every lane disabled */
	SFPU_RUN(t, store(1, 4, 0, 0), store(1, 10, 0, 4));
	ck_assert_uint_eq(ttx_dst32_get(t, 0, 0), 0);                 /* INT32: nothing */
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 4, 0)), 0x01020304);   /* INT32_ALL */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_address_offsets_and_addr_mod)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x3F800000);
	/* Addr = Imm10 + DEST_TARGET_REG_CFG_MATH_Offset + RWC.Dst + DEST_REGW_BASE:
	   4 + 8 + 0 + 16 = 28. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_TARGET_REG_CFG_MATH_Offset", 0, 8), TTX_OK);
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_REGW_BASE_Base", 0, 16), TTX_OK);
	/* ADDR_MOD 1 adds 4 to RWC.Dst and 1 to the fidelity phase; SFPSTORE applies
	   only the partial AddrMod, so the fidelity phase stays 0. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "ADDR_MOD_DST_SEC1_DestIncr", 0, 4), TTX_OK);
	ck_assert_int_eq(ttx_cfg_field_write(t, "ADDR_MOD_DST_SEC1_FidelityIncr", 0, 1), TTX_OK);
	SFPU_RUN(t, store(1, 3, 1, 4));
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 28, 0)), 0x3F800000);
	ck_assert_uint_eq(t->rwc[0].dst, 4);
	ck_assert_uint_eq(t->rwc[0].fidelity_phase, 0);
	/* The next store lands 4 rows further: rows 32-35. */
	SFPU_RUN(t, store(1, 3, 1, 4));
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 32, 0)), 0x3F800000);
	ck_assert_uint_eq(t->rwc[0].dst, 8);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_lane_config_blocks_and_exchange)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x40400000);
	/* BLOCK_DEST_WR_FROM_SFPU (bit 4) in lane 0; DEST_WR_COL_EXCHANGE (bit 7)
	   in lane 1, which (as LaneConfig[Lane & 7]) moves lanes 1, 9, 17, 25 to
	   odd columns. */
	t->sfpu.lane_config[0] = 1u << 4;
	t->sfpu.lane_config[1] = 1u << 7;
	SFPU_RUN(t, store(1, 3, 0, 0));
	ck_assert_uint_eq(ttx_dst32_get(t, 0, 0), 0);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 1, 0)), 0x40400000);   /* lane 8 */
	ck_assert_uint_eq(ttx_dst32_get(t, 0, 2), 0);
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 0, 3)), 0x40400000);   /* lane 1 */
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 3, 3)), 0x40400000);   /* lane 25 */
	/* CAPTURE_DEFAULT_DEST_INDEX with ENABLE_DEST_INDEX: L[VD + 4] = Row << 4 | Column. */
	for (unsigned l = 0; l < TTX_LANES; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_ENABLE_DEST_INDEX | TTX_LANECFG_CAPTURE_DEFAULT_DEST_INDEX;
	SFPU_RUN(t, load(2, 3, 0, 6));
	ck_assert_uint_eq(t->sfpu.lreg[6][0], (4u << 4) | 1);
	ck_assert_uint_eq(t->sfpu.lreg[6][31], (7u << 4) | 15);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- SFPCONFIG ---- */

START_TEST(test_sfpconfig_lreg_constants)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint32_t v[TTX_LANES];
	for (unsigned l = 0; l < TTX_LANES; l++)
		v[l] = 0x1000u + l;
	sfpu_set_lanes(t, 0, v);
	/* VD = 11 from LReg[0]: lanes 0-7 broadcast down the 4 rows. */
	SFPU_RUN(t, config(0, 11, 0));
	ck_assert_uint_eq(t->sfpu.lreg[11][0], 0x1000);
	ck_assert_uint_eq(t->sfpu.lreg[11][7], 0x1007);
	ck_assert_uint_eq(t->sfpu.lreg[11][8], 0x1000);
	ck_assert_uint_eq(t->sfpu.lreg[11][31], 0x1007);
	/* MOD1_IMM16_IS_VALUE: the documented defaults. */
	SFPU_RUN(t, config(0, 11, 1), config(0, 12, 1), config(0, 13, 1), config(0, 14, 1));
	ck_assert_uint_eq(t->sfpu.lreg[11][3], 0xBF800000);   /* -1.0 */
	ck_assert_uint_eq(t->sfpu.lreg[12][3], 0x37800000);   /* 1/65536 */
	ck_assert_uint_eq(t->sfpu.lreg[13][3], 0xBF2CC4C7);   /* -0.67487759 */
	ck_assert_uint_eq(t->sfpu.lreg[14][3], 0xBEB08FF9);   /* -0.34484843 */
	/* MOD1_IMM16_IS_LANE_MASK: Imm16 bit 2 * (lane & 7) selects columns 0 and 3. */
	SFPU_RUN(t, config(0x0041, 11, 8));
	ck_assert_uint_eq(t->sfpu.lreg[11][0], 0x1000);
	ck_assert_uint_eq(t->sfpu.lreg[11][1], 0xBF800000);
	ck_assert_uint_eq(t->sfpu.lreg[11][3], 0x1003);
	ck_assert_uint_eq(t->sfpu.lreg[11][27], 0x1003);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpconfig_lane_config_ops)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.lane_config[0] = 0x30000;   /* high bits survive IMM16 writes */
	SFPU_RUN(t, config(0x00F0, 15, 1));                 /* = 0x00F0 */
	ck_assert_uint_eq(t->sfpu.lane_config[0], 0x300F0);
	ck_assert_uint_eq(t->sfpu.lane_config[5], 0x000F0);
	SFPU_RUN(t, config(0x0F0F, 15, 1 | 2));             /* |= */
	ck_assert_uint_eq(t->sfpu.lane_config[5], 0x00FFF);
	SFPU_RUN(t, config(0x0FF0, 15, 1 | 4));             /* &= */
	ck_assert_uint_eq(t->sfpu.lane_config[5], 0x00FF0);
	SFPU_RUN(t, config(0x0110, 15, 1 | 6));             /* ^= */
	ck_assert_uint_eq(t->sfpu.lane_config[5], 0x00EE0);
	/* Misc is 12 bits. */
	SFPU_RUN(t, config(0xFFFF, 8, 1));
	ck_assert_uint_eq(t->sfpu.load_macro_config[9].misc, 0xFFF);
	/* ROW_MASK (bits 12-15 of LaneConfig[Lane & 7]) disables whole rows:
	   bit 1 in column 2's config disables lane 2 + 8 * 1 = 10. */
	SFPU_RUN(t, config(0x0000, 15, 1));
	t->sfpu.lane_config[2] = 1u << 13;
	sfpu_fill(t, 1, 0);
	SFPU_RUN(t, loadi(1, 2, 7));
	ck_assert_uint_eq(t->sfpu.lreg[1][2], 7);
	ck_assert_uint_eq(t->sfpu.lreg[1][10], 0);
	ck_assert_uint_eq(t->sfpu.lreg[1][18], 7);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpconfig_gated_by_column_flags)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 0, 0x12345678);
	/* Flags of lane & 7 gate every lane of that column: clearing lane 1's flag
	   skips lanes 1, 9, 17, 25 even though their own flags are set. */
	t->sfpu.lane_flags = ~(1u << 1);
	SFPU_RUN(t, config(0, 4, 0));
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].sequence[0], 0x12345678);
	ck_assert_uint_eq(t->sfpu.load_macro_config[9].sequence[0], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[25].sequence[0], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- SFPLOADMACRO ---- */

/* Sequence byte of a sub-unit: bits 2:0 template kind, 5:3 delay, bit 6 VD=16,
   bit 7 VB override.  Store sub-unit = byte 3. */
static void macro_setup(struct ttx_tile *t, unsigned macro, uint32_t sequence, unsigned misc)
{
	for (unsigned l = 0; l < TTX_LANES; l++) {
		t->sfpu.load_macro_config[l].sequence[macro] = sequence;
		t->sfpu.load_macro_config[l].misc = (uint16_t)misc;
	}
}

/* SFPLOADMACRO lreg_ind = MacroIndex << 2 | VDLo, instr_mod0, sfpu_addr_mode,
   dest_reg_addr = Imm9 << 1 | VDHi. */
static uint32_t loadmacro(unsigned macro, unsigned vd, unsigned mod0, unsigned imm10)
{
	return 0x93000000u | (macro << 2 | (vd & 3)) << 20 | mod0 << 16 | (imm10 & ~1u) | (vd >> 2);
}

START_TEST(test_sfploadmacro_scheduled_store)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Dst rows 0-3 hold 0x3F8123FF (FP32).  Macro 0 loads it as FP32 into L1
	   and schedules on the store sub-unit an SFPSTORE (kind 3, delay 0) whose
	   Mod0 is Misc.StoreMod0 = 2 (BF16): the same Dst rows get the truncated
	   BF16 0x3F81, i.e. Dst16 cell 0x017F. */
	sfpu_fill(t, 1, 0x3F8123FF);
	SFPU_RUN(t, store(1, 3, 0, 0));
	sfpu_fill(t, 1, 0);
	macro_setup(t, 0, 0x03u << 24, 2);
	SFPU_RUN(t, loadmacro(0, 1, 3, 0));
	ck_assert_uint_eq(t->sfpu.lreg[1][0], 0x3F8123FF);
	ck_assert_uint_eq(t->dst[0][0], 0x017F);
	ck_assert_uint_eq(t->sfpu.nsched, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* A delay-0 store runs on the cycle after SFPLOADMACRO, before the next
   instruction; with delay 2 it runs after two more instructions, so it sees
   an SFPLOADI issued in between. */
START_TEST(test_sfploadmacro_delay)
{
	for (unsigned delay = 0; delay <= 2; delay += 2) {
		struct ttx_tile *t = ttx_tile_new(NULL);
		sfpu_fill(t, 2, 0x40000000);
		SFPU_RUN(t, store(2, 3, 0, 0));
		/* Store FP32 (UsesLoadMod0ForStore for macro 0: Misc bit 4). */
		macro_setup(t, 0, (0x03u | delay << 3) << 24, 1u << 4);
		SFPU_RUN(t, loadmacro(0, 2, 3, 4),   /* L2 = 2.0 from rows 4-7 (zero) */
		         loadi(2, 0, 0x4040),        /* L2 = 3.0 */
		         0x02000000, 0x02000000);
		uint32_t want = delay ? 0x40400000 : 0x00000000;
		ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst32_get(t, 4, 0)), want);
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_sfploadmacro_lane_mismatch_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.load_macro_config[5].sequence[0] = 3;
	ck_assert_int_eq(ttx_push(t, 0, loadmacro(0, 0, 3, 0)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "differs between lanes"));
	ttx_tile_destroy(t);
}
END_TEST

/* A sequence naming an instruction template that was never configured
   faults naming SFPLOADMACRO, the macro, the sub-unit and the template. */
START_TEST(test_sfploadmacro_unconfigured_template)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	macro_setup(t, 1, 0x05u << 8, 0);   /* MAD sub-unit: template kind 5 = template 1 */
	ck_assert_int_eq(ttx_push(t, 0, loadmacro(1, 0, 3, 0)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tile_error(t), "SFPLOADMACRO (0x93430000) at thread 0: macro 1 gives the MAD "
	                     "sub-unit instruction template 1, which holds 0x00000000, not an instruction") != NULL,
	              "%s", ttx_tile_error(t));
	ttx_tile_destroy(t);
}
END_TEST

/* ---- --strict hazards ---- */

struct warnings { unsigned n; char last[256]; };

static void on_warn(void *ctx, const char *message)
{
	struct warnings *w = ctx;
	w->n++;
	snprintf(w->last, sizeof(w->last), "%s", message);
}

/* SFPSHFT2 Mod1 = 3 (SUBVEC_SHFLROR1) takes two cycles and is not
   interlocked: an SFPSTORE of its VD right after it reads a result that is not
   ready (tests/vectors/README.md; TC/SFPMAD.md "Instruction scheduling").
   SFPSHFT2 operands: imm12_math, lreg_src_c, lreg_dest, instr_mod1. */
START_TEST(test_strict_warns_on_unready_result)
{
	struct warnings w = { 0 };
	struct ttx_options opt = { .strict = 1, .warn = on_warn, .warn_ctx = &w };
	struct ttx_tile *t = ttx_tile_new(&opt);
	uint32_t shft2 = sfpu_asm("SFPSHFT2 0, 1, 2, 3");   /* L2 = rotate(L1) */
	SFPU_RUN(t, shft2, store(2, 3, 0, 0));
	ck_assert_uint_eq(w.n, 1);
	ck_assert_ptr_nonnull(strstr(w.last, "SFPSTORE"));
	ck_assert_ptr_nonnull(strstr(w.last, "LReg 2"));
	/* With an SFPNOP in between, or reading another register: no warning. */
	SFPU_RUN(t, shft2, 0x8F000000, store(2, 3, 0, 0), shft2, store(1, 3, 0, 0));
	ck_assert_uint_eq(w.n, 1);
	ttx_tile_destroy(t);
	/* Without --strict nothing is reported. */
	opt.strict = 0;
	t = ttx_tile_new(&opt);
	SFPU_RUN(t, shft2, store(2, 3, 0, 0));
	ck_assert_uint_eq(w.n, 1);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sfpu");
	TCase *tc = tcase_create("SFPLOADI");
	tcase_add_test(tc, test_sfploadi_modes);
	tcase_add_test(tc, test_sfploadi_undefined_mode_faults);
	tcase_add_test(tc, test_sfploadi_disabled_lanes_untouched);
	tcase_add_test(tc, test_writes_to_constant_lregs_dropped);
	tcase_add_test(tc, test_backdoor_load_writes_template);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPLOAD_SFPSTORE");
	tcase_add_test(tc, test_store_load_fp32_lane_mapping);
	tcase_add_test(tc, test_store_fp32_flushes_denormals);
	tcase_add_test(tc, test_load_store_fast_path_equals_per_lane);
	tcase_add_test(tc, test_store_load_bf16);
	tcase_add_test(tc, test_store_load_fp16);
	tcase_add_test(tc, test_store_load_integer_formats);
	tcase_add_test(tc, test_int32_all_ignores_lane_enable);
	tcase_add_test(tc, test_address_offsets_and_addr_mod);
	tcase_add_test(tc, test_lane_config_blocks_and_exchange);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPCONFIG");
	tcase_add_test(tc, test_sfpconfig_lreg_constants);
	tcase_add_test(tc, test_sfpconfig_lane_config_ops);
	tcase_add_test(tc, test_sfpconfig_gated_by_column_flags);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPLOADMACRO");
	tcase_add_test(tc, test_sfploadmacro_scheduled_store);
	tcase_add_test(tc, test_sfploadmacro_delay);
	tcase_add_test(tc, test_sfploadmacro_lane_mismatch_faults);
	tcase_add_test(tc, test_sfploadmacro_unconfigured_template);
	suite_add_tcase(s, tc);
	tc = tcase_create("strict");
	tcase_add_test(tc, test_strict_warns_on_unready_result);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
