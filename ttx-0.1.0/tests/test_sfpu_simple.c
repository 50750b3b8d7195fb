/* SFPU simple sub-unit instructions (interp/sfpu_simple.c): hand-derived
 * expectations at edge values.  Every expected value is a literal worked out
 * from the instruction's page (TC/<INSN>.md); the comment next to it shows
 * the derivation.
 *
 * Words are assembled from tt-llk operand order (src/isa.def), e.g.
 *   SFPIADD imm12, lreg_c, lreg_dest, instr_mod1
 *   SFPCAST lreg_src_c, lreg_dest, instr_mod1
 *   SFPCONFIG imm16, config_dest, instr_mod1
 *
 * Reset state (tests/vectors/README.md): UseLaneFlagsForLaneEnable and
 * LaneFlags true in every lane, so every lane starts enabled; LReg 8 =
 * 0x3F56594B, 9 = 0, 10 = 1.0, 11 = -1.0, 12 = 0x3B000000, 15 = 2 x lane. */
#include <stdarg.h>
#include <stdio.h>

#include "sfpu_test.h"

#define NCASES(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t A(const char *fmt, ...)
{
	char text[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return sfpu_asm(text);
}

static void run(struct ttx_tile *t, const char *text)
{
	uint32_t w = sfpu_asm(text);
	sfpu_run(t, &w, 1);
}

/* Run one word that must fault; the error must mention `what`. */
static void run_faults(struct ttx_tile *t, uint32_t word, const char *what)
{
	ck_assert_int_eq(ttx_push(t, 0, word), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tile_error(t), what), "error '%s' lacks '%s'", ttx_tile_error(t), what);
}

/* Lane i of LReg[reg] = v[i] for i < n, other lanes = fill. */
static void set_lanes(struct ttx_tile *t, unsigned reg, const uint32_t *v, unsigned n, uint32_t fill)
{
	sfpu_fill(t, reg, fill);
	for (unsigned i = 0; i < n; i++)
		t->sfpu.lreg[reg][i] = v[i];
}

/* Check lanes 0..n-1 of LReg[reg] against want[]. */
static void check_lanes(struct ttx_tile *t, unsigned reg, const uint32_t *want, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ck_assert_msg(t->sfpu.lreg[reg][i] == want[i], "LReg[%u] lane %u: got 0x%08X, want 0x%08X",
		              reg, i, t->sfpu.lreg[reg][i], want[i]);
}

/* Check every lane of LReg[reg] against the value v. */
static void check_all(struct ttx_tile *t, unsigned reg, uint32_t v)
{
	for (unsigned i = 0; i < TTX_LANES; i++)
		ck_assert_msg(t->sfpu.lreg[reg][i] == v, "LReg[%u] lane %u: got 0x%08X, want 0x%08X",
		              reg, i, t->sfpu.lreg[reg][i], v);
}

/* Run word with LReg[src] lanes = in[] (other lanes fill) and check LReg[dst]. */
static void check_op(uint32_t word, unsigned src, unsigned dst, const uint32_t *in, const uint32_t *out,
                     unsigned n, uint32_t fill)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	set_lanes(t, src, in, n, fill);
	sfpu_run(t, &word, 1);
	check_lanes(t, dst, out, n);
	ttx_tile_destroy(t);
}

/* LaneConfig[Lane & 7].ROW_MASK bit r disables lanes 8r..8r+7. */
static void mask_row(struct ttx_tile *t, unsigned r)
{
	for (unsigned c = 0; c < 8; c++)
		t->sfpu.lane_config[c] |= 1u << (12 + r);
}

/* ======== SFPENCC ======== */

START_TEST(test_sfpencc_use_from_imm)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.lane_flags = 0x12345678;
	/* Mod1 = 2 (EI), Imm2 = 0: Use = Imm2 bit 0 = false; RI clear -> LaneFlags = true. */
	run(t, "SFPENCC 0, 0, 0, 2");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0x00000000);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	/* Imm2 = 1: Use = true. */
	run(t, "SFPENCC 1, 0, 0, 2");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	/* Mod1 = 3 (EI | EC): EI takes precedence, Use = Imm2 bit 0 = 1, not inverted. */
	run(t, "SFPENCC 1, 0, 0, 3");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpencc_invert_use)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.use_lane_flags = 0x0000FFFF;
	t->sfpu.lane_flags = 0;
	/* Mod1 = 1 (EC): Use = !Use per lane; LaneFlags = true. */
	run(t, "SFPENCC 0, 0, 0, 1");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFF0000);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpencc_flags_from_imm)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Mod1 = 8 (RI), Imm2 = 0: LaneFlags = Imm2 bit 1 = false; Use untouched. */
	run(t, "SFPENCC 0, 0, 0, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	/* Imm2 = 2: LaneFlags = true. */
	run(t, "SFPENCC 2, 0, 0, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	/* Mod1 = 10, Imm2 = 1: Use = true, LaneFlags = false. */
	run(t, "SFPENCC 1, 0, 0, 10");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	/* Mod1 = 10, Imm2 = 2: Use = false, LaneFlags = true. */
	run(t, "SFPENCC 2, 0, 0, 10");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0x00000000);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	/* The case prologue: Mod1 = 10, Imm2 = 3 -> both true. */
	run(t, "SFPENCC 3, 0, 0, 10");
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ttx_tile_destroy(t);
}
END_TEST

/* SFPENCC is not gated by LaneEnabled: flag-disabled and row-masked lanes change too. */
START_TEST(test_sfpencc_ignores_lane_enable)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.lane_flags = 0x0000FFFF;   /* lanes 16-31 disabled */
	mask_row(t, 0);                    /* lanes 0-7 disabled */
	run(t, "SFPENCC 0, 0, 0, 0");      /* LaneFlags = true everywhere */
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpencc_backdoor)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* VD = 12, DISABLE_BACKDOOR_LOAD clear: InstructionTemplate[0] = word
	   (0x8A000000 | 12 << 4 | 8 = 0x8A0000C8), no flag change. */
	run(t, "SFPENCC 0, 0, 12, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[0], 0x8A0000C8);
	ck_assert_uint_eq(t->sfpu.load_macro_config[31].instruction_template[0], 0x8A0000C8);
	/* Lanes 0-15 with DISABLE_BACKDOOR_LOAD execute it (LaneFlags = false);
	   lanes 16-31 take 0x8A0000D8 into InstructionTemplate[1]. */
	for (unsigned l = 0; l < 16; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	run(t, "SFPENCC 0, 0, 13, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0000);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[1], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[16].instruction_template[1], 0x8A0000D8);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSETCC ======== */

/* L1 lanes 0-7: 0, 1, -1, INT_MIN (= FP32 -0), INT_MAX, +NaN, -NaN, -Inf;
   lanes 8-31: 5. */
static const uint32_t setcc_in[8] = {
	0x00000000, 0x00000001, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x7FC00000, 0xFFC00000, 0xFF800000,
};

START_TEST(test_sfpsetcc_compares)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	set_lanes(t, 1, setcc_in, 8, 5);
	/* LT0: int32 < 0 = sign bit: lanes 2, 3, 6, 7 -> 0xCC (-0 and -NaN count). */
	run(t, "SFPSETCC 0, 1, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x000000CC);
	/* NE0: every lane but lane 0. */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	run(t, "SFPSETCC 0, 1, 0, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFE);
	/* GTE0: the complement of LT0. */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	run(t, "SFPSETCC 0, 1, 0, 4");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFF33);
	/* EQ0: lane 0 only (INT_MIN = -0.0 is not zero as an integer). */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	run(t, "SFPSETCC 0, 1, 0, 6");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000001);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpsetcc_imm_and_clear)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Mod1 = 1 (IMM_BIT0): LaneFlags = Imm1. */
	run(t, "SFPSETCC 0, 9, 0, 1");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	t->sfpu.lane_flags = 0xFFFFFFFF;
	run(t, "SFPSETCC 1, 9, 0, 1");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	/* Mod1 = 3: bit 0 set, so Imm1 again (not a compare). */
	run(t, "SFPSETCC 1, 9, 0, 3");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	/* Mod1 = 9: CLEAR (bit 3) takes precedence over IMM_BIT0. */
	run(t, "SFPSETCC 1, 9, 0, 9");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	/* Mod1 = 8: CLEAR. */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	run(t, "SFPSETCC 0, 9, 0, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpsetcc_use_off_gives_false)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 5);
	/* Lanes 0-15: Use false (enabled, flag forced false); lanes 16-31: Use
	   true, flag true, GTE0 of 5 -> true. */
	t->sfpu.use_lane_flags = 0xFFFF0000;
	run(t, "SFPSETCC 0, 1, 0, 4");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpsetcc_disabled_lanes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Row 1 (lanes 8-15) masked: NE0 of L9 = 0 clears every other lane's
	   flag, lanes 8-15 keep true. */
	mask_row(t, 1);
	run(t, "SFPSETCC 0, 9, 0, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000FF00);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpsetcc_backdoor)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* VD = 14: InstructionTemplate[2] = 0x7B0009E2; flags untouched. */
	run(t, "SFPSETCC 0, 9, 14, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.load_macro_config[7].instruction_template[2], 0x7B0009E2);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPIADD ======== */

START_TEST(test_sfpiadd_reg_add_wraps)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t c[4] = { 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, 5 };
	static const uint32_t d[4] = { 1, 1, 0xFFFFFFFF, 0xFFFFFFF9 };
	set_lanes(t, 1, c, 4, 0);
	set_lanes(t, 2, d, 4, 0);
	/* Mod1 = 0: L2 = L1 + L2.  INT_MAX + 1 = INT_MIN; -1 + 1 = 0;
	   INT_MIN + -1 = INT_MAX; 5 + -7 = -2; other lanes 0 + 0. */
	run(t, "SFPIADD 0, 1, 2, 0");
	static const uint32_t want[5] = { 0x80000000, 0x00000000, 0x7FFFFFFF, 0xFFFFFFFE, 0 };
	check_lanes(t, 2, want, 5);
	/* LaneFlags = result < 0: lanes 0 and 3. */
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000009);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpiadd_reg_sub)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t c[4] = { 0x80000000, 0, 5, 0x7FFFFFFF };
	static const uint32_t d[4] = { 1, 1, 5, 0xFFFFFFFF };
	set_lanes(t, 1, c, 4, 0);
	set_lanes(t, 2, d, 4, 0);
	/* Mod1 = 2: L2 = L1 - L2.  INT_MIN - 1 = INT_MAX; 0 - 1 = -1; 5 - 5 = 0;
	   INT_MAX - (-1) = INT_MIN. */
	run(t, "SFPIADD 0, 1, 2, 2");
	static const uint32_t want[5] = { 0x7FFFFFFF, 0xFFFFFFFF, 0x00000000, 0x80000000, 0 };
	check_lanes(t, 2, want, 5);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000000A);   /* lanes 1 and 3 negative */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpiadd_imm_sign_extends)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Use = false: every lane enabled whatever LaneFlags; CC_NONE keeps it. */
	t->sfpu.use_lane_flags = 0;
	t->sfpu.lane_flags = 0x5A5A5A5A;
	sfpu_fill(t, 1, 0x1000);   /* 4096 */
	run(t, "SFPIADD 0x7FF, 1, 2, 5");   /* 4096 + 2047 = 6143 */
	run(t, "SFPIADD 0x800, 1, 3, 5");   /* 4096 - 2048 = 2048 */
	run(t, "SFPIADD 0xFFF, 1, 4, 5");   /* 4096 - 1 = 4095 */
	run(t, "SFPIADD 0x001, 9, 5, 5");   /* 0 + 1 */
	check_all(t, 2, 0x000017FF);
	check_all(t, 3, 0x00000800);
	check_all(t, 4, 0x00000FFF);
	check_all(t, 5, 0x00000001);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x5A5A5A5A);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpiadd_cc_modes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t c[2] = { 5, 0xFFFFFFFB };   /* 5, -5 */
	t->sfpu.use_lane_flags = 0;
	set_lanes(t, 1, c, 2, 0);
	/* Mod1 = 1: L2 = L1 + 0; CC_LT0: lane 1. */
	run(t, "SFPIADD 0, 1, 2, 1");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000002);
	/* Mod1 = 9 (imm, CC_GTE0): !(result < 0). */
	run(t, "SFPIADD 0, 1, 2, 9");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFD);
	/* Mod1 = 13 (imm, CC_NONE | CC_GTE0): flags kept, then inverted. */
	t->sfpu.lane_flags = 0x0000F0F0;
	run(t, "SFPIADD 0, 1, 2, 13");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0F0F);
	/* Mod1 = 3: ARG_IMM takes precedence over 2SCOMP: L2 = L1 + 0 (not L1 - L2). */
	sfpu_fill(t, 2, 7);
	run(t, "SFPIADD 0, 1, 2, 3");
	static const uint32_t want[3] = { 5, 0xFFFFFFFB, 0 };
	check_lanes(t, 2, want, 3);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000002);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpiadd_vd_rules)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* VD = 10: no write, no flag change (GTE0 of -1 would clear the flags). */
	run(t, "SFPIADD 0xFFF, 9, 10, 9");
	check_all(t, 10, 0x3F800000);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	/* VD = 12: backdoor load, InstructionTemplate[0] = 0x79FFF9C9. */
	run(t, "SFPIADD 0xFFF, 9, 12, 9");
	check_all(t, 12, 0x3B000000);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.load_macro_config[3].instruction_template[0], 0x79FFF9C9);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpiadd_disabled_lanes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 2, 0x11111111);
	mask_row(t, 1);   /* lanes 8-15 disabled */
	/* L2 = 0 + -1 and LaneFlags = !(-1 < 0) = false in the enabled lanes. */
	run(t, "SFPIADD 0xFFF, 9, 2, 9");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lreg[2][8], 0x11111111);
	ck_assert_uint_eq(t->sfpu.lreg[2][15], 0x11111111);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000FF00);
	/* Now only lanes 8-15 have flags, but they are row-masked: nothing runs. */
	run(t, "SFPIADD 0x005, 9, 2, 1");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lreg[2][8], 0x11111111);
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000FF00);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPPUSHC / SFPPOPC ======== */

START_TEST(test_sfppushc_popc_restore)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.lane_flags = 0x0F0F0F0F;
	t->sfpu.use_lane_flags = 0xFFFF0000;
	run(t, "SFPPUSHC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.flag_stack_size[0], 1);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[31], 1);
	t->sfpu.lane_flags = 0;
	t->sfpu.use_lane_flags = 0xFFFFFFFF;
	run(t, "SFPPOPC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0F0F0F0F);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFF0000);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[0], 0);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[31], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Eight entries (the capacity) come back in reverse order: entry k holds
   LaneFlags = 0x01010101 << k. */
START_TEST(test_sfppushc_depth8_lifo)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t pattern[8] = {
		0x01010101, 0x02020202, 0x04040404, 0x08080808, 0x10101010, 0x20202020, 0x40404040, 0x80808080,
	};
	for (unsigned k = 0; k < 8; k++) {
		t->sfpu.lane_flags = pattern[k];
		run(t, "SFPPUSHC 0, 0, 0, 0");
	}
	ck_assert_uint_eq(t->sfpu.flag_stack_size[5], 8);
	for (unsigned k = 8; k-- > 0;) {
		run(t, "SFPPOPC 0, 0, 0, 0");
		ck_assert_uint_eq(t->sfpu.lane_flags, pattern[k]);
	}
	ck_assert_uint_eq(t->sfpu.flag_stack_size[5], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfppushc_full_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned k = 0; k < 8; k++)
		run(t, "SFPPUSHC 0, 0, 0, 0");
	/* A ninth push is undefined behaviour (TC/SFPPUSHC.md). */
	run_faults(t, sfpu_asm("SFPPUSHC 0, 0, 0, 0"), "SFPPUSHC");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfppopc_empty_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Mod1 = 0 on an empty stack is undefined behaviour (TC/SFPPOPC.md). */
	run_faults(t, sfpu_asm("SFPPOPC 0, 0, 0, 0"), "SFPPOPC");
	ttx_tile_destroy(t);
}
END_TEST

/* BooleanOp(Mod1, A = LaneFlags, B = Top.LaneFlags) with A = lanes {2, 3}
   (0xC) and B = lanes {1, 3} (0xA): lane 0 (0,0), lane 1 (0,1), lane 2
   (1,0), lane 3 (1,1); lanes 4-31 are (0,0) like lane 0. */
START_TEST(test_sfppopc_boolean_ops)
{
	static const uint32_t want[13] = {
		0,
		0x0000000A,   /*  1: B         -> lanes 1, 3 */
		0xFFFFFFF5,   /*  2: !B        -> lanes 0, 2, 4-31 */
		0x00000008,   /*  3: A && B    -> lane 3 */
		0x0000000E,   /*  4: A || B    -> lanes 1, 2, 3 */
		0x00000004,   /*  5: A && !B   -> lane 2 */
		0xFFFFFFFD,   /*  6: A || !B   -> lanes 0, 2, 3, 4-31 */
		0x00000002,   /*  7: !A && B   -> lane 1 */
		0xFFFFFFFB,   /*  8: !A || B   -> lanes 0, 1, 3, 4-31 */
		0xFFFFFFF1,   /*  9: !A && !B  -> lanes 0, 4-31 */
		0xFFFFFFF7,   /* 10: !A || !B  -> lanes 0, 1, 2, 4-31 */
		0x00000006,   /* 11: A != B    -> lanes 1, 2 */
		0xFFFFFFF9,   /* 12: A == B    -> lanes 0, 3, 4-31 */
	};
	for (unsigned mod1 = 1; mod1 <= 12; mod1++) {
		struct ttx_tile *t = ttx_tile_new(NULL);
		t->sfpu.use_lane_flags = 0xFFFF0000;
		t->sfpu.lane_flags = 0x0000000A;
		run(t, "SFPPUSHC 0, 0, 0, 0");
		t->sfpu.use_lane_flags = 0xFFFFFFFF;
		t->sfpu.lane_flags = 0x0000000C;
		uint32_t w = A("SFPPOPC 0, 0, 0, %u", mod1);
		sfpu_run(t, &w, 1);
		ck_assert_msg(t->sfpu.lane_flags == want[mod1], "Mod1 %u: got 0x%08X, want 0x%08X",
		              mod1, t->sfpu.lane_flags, want[mod1]);
		/* Use = Top.Use; a peek leaves the stack as it was. */
		ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFF0000);
		ck_assert_uint_eq(t->sfpu.flag_stack_size[0], 1);
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_sfppopc_constant_modes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run(t, "SFPPUSHC 0, 0, 0, 0");
	t->sfpu.use_lane_flags = 0x0F0F0F0F;
	t->sfpu.lane_flags = 0x0000000C;
	/* 13: LaneFlags = !LaneFlags; Use untouched. */
	run(t, "SFPPOPC 0, 0, 0, 13");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFF3);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0x0F0F0F0F);
	/* 15: Use = true, LaneFlags = false. */
	run(t, "SFPPOPC 0, 0, 0, 15");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	/* 14: Use = true, LaneFlags = true. */
	t->sfpu.use_lane_flags = 0;
	run(t, "SFPPOPC 0, 0, 0, 14");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[9], 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfppopc_peek_empty)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Empty stack: Top = {false, false}.  Mod1 = 1: LaneFlags = B = false,
	   Use = false; no fault for Mod1 != 0. */
	run(t, "SFPPOPC 0, 0, 0, 1");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0x00000000);
	/* Mod1 = 2: LaneFlags = !B = true. */
	run(t, "SFPPOPC 0, 0, 0, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[0], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* TC/SFPPOPC.md hardware bug: Mod1 != 0 on a full stack copies Top over the
   bottom entry, so the eighth pop returns the top pattern again. */
START_TEST(test_sfppopc_full_stack_bug)
{
	static const uint32_t pattern[8] = {
		0x01010101, 0x02020202, 0x04040404, 0x08080808, 0x10101010, 0x20202020, 0x40404040, 0x80808080,
	};
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned k = 0; k < 8; k++) {
		t->sfpu.lane_flags = pattern[k];
		run(t, "SFPPUSHC 0, 0, 0, 0");
	}
	run(t, "SFPPOPC 0, 0, 0, 1");   /* LaneFlags = Top = pattern 7; bottom := Top */
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x80808080);
	static const uint32_t pops[8] = {
		0x80808080, 0x40404040, 0x20202020, 0x10101010, 0x08080808, 0x04040404, 0x02020202,
		0x80808080,   /* the bottom entry, overwritten (not 0x01010101) */
	};
	for (unsigned i = 0; i < 8; i++) {
		run(t, "SFPPOPC 0, 0, 0, 0");
		ck_assert_msg(t->sfpu.lane_flags == pops[i], "pop %u: got 0x%08X", i, t->sfpu.lane_flags);
	}
	ttx_tile_destroy(t);

	/* Seven entries: no bug, the bottom pattern survives the peek. */
	t = ttx_tile_new(NULL);
	for (unsigned k = 0; k < 7; k++) {
		t->sfpu.lane_flags = pattern[k];
		run(t, "SFPPUSHC 0, 0, 0, 0");
	}
	run(t, "SFPPOPC 0, 0, 0, 1");
	for (unsigned i = 0; i < 7; i++)
		run(t, "SFPPOPC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x01010101);
	ttx_tile_destroy(t);
}
END_TEST

/* The stack is per lane: a backdoor VD = 12 push runs only in lanes with
   DISABLE_BACKDOOR_LOAD, so the depths differ between lanes. */
START_TEST(test_flag_stack_per_lane_depth)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned l = 0; l < 16; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	run(t, "SFPPUSHC 0, 0, 12, 0");   /* lanes 0-15 push {true, true} */
	ck_assert_uint_eq(t->sfpu.flag_stack_size[0], 1);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[15], 1);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[16], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[16].instruction_template[0], 0x870000C0);
	/* Peek with Mod1 = 1: lanes 0-15 Top = {true, true}; lanes 16-31 empty
	   -> {false, false}. */
	t->sfpu.lane_flags = 0;
	run(t, "SFPPOPC 0, 0, 0, 1");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000FFFF);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0x0000FFFF);
	/* A plain pop in every lane underflows lanes 16-31. */
	run_faults(t, sfpu_asm("SFPPOPC 0, 0, 0, 0"), "SFPPOPC");
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPCOMPC ======== */

START_TEST(test_sfpcompc_empty_stack)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Empty: Top = {true, true}, so LaneFlags = !LaneFlags where Use; not
	   gated by LaneEnabled (lanes 8-31 are disabled and still change). */
	t->sfpu.lane_flags = 0x000000FF;
	run(t, "SFPCOMPC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFF00);
	/* Use false in lanes 16-31: LaneFlags = false there. */
	t->sfpu.use_lane_flags = 0x0000FFFF;
	t->sfpu.lane_flags = 0x000000FF;
	run(t, "SFPCOMPC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000FF00);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpcompc_with_top)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Push Top = {LaneFlags 0x0000FFFF, Use all}; then LaneFlags =
	   Top.LaneFlags && !LaneFlags = 0x0000FFFF & ~0x00FF00FF = 0x0000FF00. */
	t->sfpu.lane_flags = 0x0000FFFF;
	run(t, "SFPPUSHC 0, 0, 0, 0");
	t->sfpu.lane_flags = 0x00FF00FF;
	run(t, "SFPCOMPC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x0000FF00);
	ttx_tile_destroy(t);

	/* Top.Use false in lanes 0-15: LaneFlags = false there; lanes 16-31:
	   Top.LaneFlags (true) && !0x0F0F -> 0xF0F0. */
	t = ttx_tile_new(NULL);
	t->sfpu.use_lane_flags = 0xFFFF0000;
	run(t, "SFPPUSHC 0, 0, 0, 0");
	t->sfpu.use_lane_flags = 0xFFFFFFFF;
	t->sfpu.lane_flags = 0x0F0F0F0F;
	run(t, "SFPCOMPC 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xF0F00000);
	ck_assert_uint_eq(t->sfpu.flag_stack_size[0], 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpcompc_backdoor)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.lane_flags = 0x000000FF;
	run(t, "SFPCOMPC 0, 0, 15, 0");   /* InstructionTemplate[3] = 0x8B0000F0 */
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x000000FF);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[3], 0x8B0000F0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPAND / SFPOR / SFPXOR / SFPNOT ======== */

START_TEST(test_sfpand_values)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 2, 0xFFFFFFF0);
	run(t, "SFPAND 0, 15, 2, 0");   /* 2 x lane & ~15 */
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0);      /* 0 */
	ck_assert_uint_eq(t->sfpu.lreg[2][7], 0);      /* 14 & ~15 */
	ck_assert_uint_eq(t->sfpu.lreg[2][8], 0x10);   /* 16 */
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x30);  /* 62 & ~15 = 48 */
	sfpu_fill(t, 1, 0x0F0F0F0F);
	sfpu_fill(t, 3, 0xFF00FF00);
	run(t, "SFPAND 0, 1, 3, 0");
	check_all(t, 3, 0x0F000F00);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpor_values)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x0F0F0F0F);
	sfpu_fill(t, 2, 0xF0000000);
	run(t, "SFPOR 0, 1, 2, 0");
	check_all(t, 2, 0xFF0F0F0F);
	run(t, "SFPOR 0, 10, 3, 0");   /* 0 | 1.0 */
	check_all(t, 3, 0x3F800000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpxor_values)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x0F0F0F0F);
	sfpu_fill(t, 2, 0xFFFF0000);
	run(t, "SFPXOR 0, 1, 2, 0");
	check_all(t, 2, 0xF0F00F0F);
	run(t, "SFPXOR 0, 2, 2, 0");   /* x ^ x */
	check_all(t, 2, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpnot_values)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run(t, "SFPNOT 0, 9, 1, 0");   /* ~0 */
	check_all(t, 1, 0xFFFFFFFF);
	sfpu_fill(t, 2, 0x80000000);
	run(t, "SFPNOT 0, 2, 2, 0");
	check_all(t, 2, 0x7FFFFFFF);
	run(t, "SFPNOT 0, 15, 3, 0");
	ck_assert_uint_eq(t->sfpu.lreg[3][3], 0xFFFFFFF9);   /* ~6 */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_bitwise_vd_rules_and_lanes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Writes to LReg 8-11 are dropped. */
	run(t, "SFPAND 0, 9, 10, 0");
	run(t, "SFPNOT 0, 9, 11, 0");
	run(t, "SFPOR 0, 15, 8, 0");
	run(t, "SFPXOR 0, 10, 9, 0");
	check_all(t, 10, 0x3F800000);
	check_all(t, 11, 0xBF800000);
	check_all(t, 8, 0x3F56594B);
	check_all(t, 9, 0);
	/* Disabled lanes (16-31) untouched. */
	sfpu_fill(t, 2, 0x12345678);
	t->sfpu.lane_flags = 0x0000FFFF;
	run(t, "SFPXOR 0, 2, 2, 0");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0);
	ck_assert_uint_eq(t->sfpu.lreg[2][15], 0);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 0x12345678);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x12345678);
	/* ROW_MASK rows 2 and 3 (lanes 16-31) with every flag set: SFPNOT of
	   L9 writes ~0 only to lanes 0-15. */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	mask_row(t, 2);
	mask_row(t, 3);
	run(t, "SFPNOT 0, 9, 2, 0");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lreg[2][15], 0xFFFFFFFF);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 0x12345678);
	ck_assert_uint_eq(t->sfpu.lreg[2][24], 0x12345678);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPLZ ======== */

static const uint32_t lz_in[8] = {
	0x00000000, 0x00000001, 0x80000000, 0xFFFFFFFF, 0x00010000, 0x7FFFFFFF, 0x00000100, 0x40000000,
};

START_TEST(test_sfplz_counts)
{
	/* clz; 0 -> 32. */
	static const uint32_t plain[9] = { 32, 31, 0, 0, 15, 1, 23, 1, 32 };
	check_op(sfpu_asm("SFPLZ 0, 1, 2, 0"), 1, 2, lz_in, plain, 8, 0);
	struct ttx_tile *t = ttx_tile_new(NULL);
	set_lanes(t, 1, lz_in, 8, 0);
	run(t, "SFPLZ 0, 1, 2, 0");
	ck_assert_uint_eq(t->sfpu.lreg[2][20], 32);
	ttx_tile_destroy(t);
	/* NOSGN_MASK: sign bit cleared first: 0x80000000 -> 0 -> 32; -1 -> 1. */
	static const uint32_t nosgn[8] = { 32, 31, 32, 1, 15, 1, 23, 1 };
	check_op(sfpu_asm("SFPLZ 0, 1, 2, 4"), 1, 2, lz_in, nosgn, 8, 0);
}
END_TEST

START_TEST(test_sfplz_flags)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.use_lane_flags = 0;   /* all lanes enabled */
	set_lanes(t, 1, lz_in, 8, 0);
	/* Mod1 = 0: flags untouched. */
	t->sfpu.lane_flags = 0x12345678;
	run(t, "SFPLZ 0, 1, 2, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x12345678);
	/* CC_NE0: lanes 1-7 (lane 0 and 8-31 hold 0). */
	run(t, "SFPLZ 0, 1, 2, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x000000FE);
	/* NOSGN | CC_NE0: lane 2 (0x80000000) masks to 0. */
	run(t, "SFPLZ 0, 1, 2, 6");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x000000FA);
	/* CC_NE0 | CC_COMP. */
	run(t, "SFPLZ 0, 1, 2, 10");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFF01);
	/* CC_COMP alone: invert. */
	t->sfpu.lane_flags = 0x0000FFFF;
	run(t, "SFPLZ 0, 1, 2, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0000);
	/* VD = 9: nothing, not even flags. */
	run(t, "SFPLZ 0, 1, 9, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0000);
	check_all(t, 9, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPABS ======== */

START_TEST(test_sfpabs_int)
{
	static const uint32_t in[6] = { 0xFFFFFFFF, 0x80000000, 5, 0, 0x80000001, 0xBF800000 };
	/* Two's complement: -1 -> 1; INT_MIN stays; -(INT_MIN + 1) = INT_MAX;
	   -(0xBF800000) = 0x40800000 (the FP32 bits are just an integer here). */
	static const uint32_t out[6] = { 1, 0x80000000, 5, 0, 0x7FFFFFFF, 0x40800000 };
	check_op(sfpu_asm("SFPABS 0, 1, 2, 0"), 1, 2, in, out, 6, 0);
}
END_TEST

START_TEST(test_sfpabs_float)
{
	static const uint32_t in[9] = {
		0x80000000, 0xBF800000, 0xFF800000, 0xFF800001, 0xFFC00000, 0x7FC00000, 0x80000001, 0xFF7FFFFF,
		0x3F800000,
	};
	static const uint32_t out[9] = {
		0x00000000,   /* -0 -> +0 */
		0x3F800000,   /* -1.0 -> 1.0 */
		0x7F800000,   /* -Inf -> +Inf: the reference (departure #2); the page's
		                 "x >= 0xff800000" condition would keep 0xFF800000 */
		0xFF800001,   /* -NaN kept */
		0xFFC00000,   /* -NaN kept */
		0x7FC00000,   /* +NaN as is */
		0x00000001,   /* -denormal -> +denormal */
		0x7F7FFFFF,   /* -max normal */
		0x3F800000,
	};
	check_op(sfpu_asm("SFPABS 0, 1, 2, 1"), 1, 2, in, out, 9, 0);
}
END_TEST

START_TEST(test_sfpabs_vd_rules)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run(t, "SFPABS 0, 11, 10, 1");   /* VD = 10 not writable */
	check_all(t, 10, 0x3F800000);
	run(t, "SFPABS 0, 11, 3, 1");    /* |-1.0| */
	check_all(t, 3, 0x3F800000);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSHFT ======== */

START_TEST(test_sfpshft_by_lreg)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t amount[11] = {
		0, 1, 31, 32, 0xFFFFFFFF, 0xFFFFFFE1, 0xFFFFFFE0, 0x80000000, 33, 0xFFFFFFDF, 0x7FFFFFFF,
	};
	static const uint32_t want[11] = {
		0x80000001,   /*  0: << 0 */
		0x00000002,   /*  1: << 1 */
		0x80000000,   /* 31: << 31 */
		0x80000001,   /* 32: & 31 = 0 */
		0x40000000,   /* -1: >> 1 (logical) */
		0x00000001,   /* -31: >> 31 */
		0x80000001,   /* -32: >> (32 & 31) = 0 */
		0x80000001,   /* INT_MIN: -INT_MIN & 31 = 0 */
		0x00000002,   /* 33: << 1 */
		0x40000000,   /* -33: >> 1 */
		0x80000000,   /* INT_MAX: << 31 */
	};
	set_lanes(t, 1, amount, 11, 0);
	sfpu_fill(t, 2, 0x80000001);
	run(t, "SFPSHFT 0, 1, 2, 0");
	check_lanes(t, 2, want, 11);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpshft_by_imm)
{
	static const struct { unsigned imm; uint32_t want; } cases[] = {
		{ 0x000, 0x80000001 },   /* 0 */
		{ 0x01F, 0x80000000 },   /* 31 */
		{ 0xFFF, 0x40000000 },   /* -1: >> 1 */
		{ 0xFE1, 0x00000001 },   /* -31 */
		{ 0x020, 0x80000001 },   /* 32 & 31 = 0 */
		{ 0xFE0, 0x80000001 },   /* -32 -> >> 0 */
		{ 0x800, 0x80000001 },   /* -2048 -> >> (2048 & 31) = >> 0 */
		{ 0x7FF, 0x80000000 },   /* 2047 & 31 = 31 */
		{ 0x004, 0x00000010 },   /* << 4 */
	};
	for (unsigned i = 0; i < NCASES(cases); i++) {
		struct ttx_tile *t = ttx_tile_new(NULL);
		sfpu_fill(t, 2, 0x80000001);
		/* VC = 15 is ignored in immediate mode. */
		uint32_t w = A("SFPSHFT 0x%X, 15, 2, 1", cases[i].imm);
		sfpu_run(t, &w, 1);
		ck_assert_msg(t->sfpu.lreg[2][0] == cases[i].want && t->sfpu.lreg[2][31] == cases[i].want,
		              "imm 0x%03X: got 0x%08X, want 0x%08X", cases[i].imm, t->sfpu.lreg[2][0], cases[i].want);
		ttx_tile_destroy(t);
	}
}
END_TEST

/* ======== SFPEXEXP ======== */

static const uint32_t exexp_in[9] = {
	0x3F800000, 0x00000000, 0x7F800000, 0x00000001, 0x40000000, 0x3F000000, 0xC0000000, 0xFFFFFFFF,
	0x00000000,
};

START_TEST(test_sfpexexp_values)
{
	/* Exp - 127: 1.0 -> 0; 0 -> -127; Inf -> 128; denormal -> -127; 2.0 -> 1;
	   0.5 -> -1; -2.0 -> 1 (sign ignored); -NaN -> 128. */
	static const uint32_t debias[9] = {
		0, 0xFFFFFF81, 128, 0xFFFFFF81, 1, 0xFFFFFFFF, 1, 128, 0xFFFFFF81,
	};
	check_op(sfpu_asm("SFPEXEXP 0, 1, 2, 0"), 1, 2, exexp_in, debias, 9, 0);
	static const uint32_t raw[9] = { 127, 0, 255, 0, 128, 126, 128, 255, 0 };
	check_op(sfpu_asm("SFPEXEXP 0, 1, 2, 1"), 1, 2, exexp_in, raw, 9, 0);
}
END_TEST

START_TEST(test_sfpexexp_flags)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.use_lane_flags = 0;
	set_lanes(t, 1, exexp_in, 8, 0);
	/* SET_CC_SGN_EXP: negative results in lanes 1, 3, 5 and 8-31 (zeros). */
	run(t, "SFPEXEXP 0, 1, 2, 2");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFF2A);
	/* ... inverted (Mod1 = 10). */
	run(t, "SFPEXEXP 0, 1, 2, 10");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x000000D5);
	/* NODEBIAS | SGN: 0-255 is never negative. */
	run(t, "SFPEXEXP 0, 1, 2, 3");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0x00000000);
	/* COMP alone inverts. */
	t->sfpu.lane_flags = 0x0000FFFF;
	run(t, "SFPEXEXP 0, 1, 2, 8");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0000);
	/* Mod1 = 0 leaves the flags. */
	run(t, "SFPEXEXP 0, 1, 2, 0");
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFF0000);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPEXMAN ======== */

START_TEST(test_sfpexman_values)
{
	static const uint32_t in[5] = { 0x3F800000, 0x3FC00000, 0xFFFFFFFF, 0x00000000, 0x00000001 };
	/* Hidden bit 1 << 23 plus the 23 mantissa bits. */
	static const uint32_t hidden[5] = { 0x00800000, 0x00C00000, 0x00FFFFFF, 0x00800000, 0x00800001 };
	check_op(sfpu_asm("SFPEXMAN 0, 1, 2, 0"), 1, 2, in, hidden, 5, 0);
	/* PAD9: no hidden bit. */
	static const uint32_t pad9[5] = { 0x00000000, 0x00400000, 0x007FFFFF, 0x00000000, 0x00000001 };
	check_op(sfpu_asm("SFPEXMAN 0, 1, 2, 1"), 1, 2, in, pad9, 5, 0);
}
END_TEST

/* ======== SFPSETEXP ======== */

START_TEST(test_sfpsetexp_imm)
{
	/* Exp = Imm8 = 0x80: -1.5 -> -3.0; NaN 0x7FFFFFFF -> 0x407FFFFF; denormal 1 -> 0x40000001. */
	static const uint32_t in[3] = { 0xBFC00000, 0x7FFFFFFF, 0x00000001 };
	static const uint32_t out[3] = { 0xC0400000, 0x407FFFFF, 0x40000001 };
	check_op(sfpu_asm("SFPSETEXP 0x80, 1, 2, 1"), 1, 2, in, out, 3, 0);
	/* Mod1 = 3: the immediate takes precedence; Imm8 = 1 on 1.5 -> 0x00C00000. */
	static const uint32_t in2[1] = { 0x3FC00000 };
	static const uint32_t out2[1] = { 0x00C00000 };
	check_op(sfpu_asm("SFPSETEXP 0x01, 1, 2, 3"), 1, 2, in2, out2, 1, 0);
}
END_TEST

START_TEST(test_sfpsetexp_from_vd)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Mod1 = 0: Exp = VD & 255, with VC = 1.5 (sign 0, man 0x400000). */
	static const uint32_t vd0[3] = { 0x123456FF, 0x00000000, 0xFFFFFF7F };
	static const uint32_t want0[3] = { 0x7FC00000, 0x00400000, 0x3FC00000 };
	sfpu_fill(t, 1, 0x3FC00000);
	set_lanes(t, 2, vd0, 3, 0);
	run(t, "SFPSETEXP 0, 1, 2, 0");
	check_lanes(t, 2, want0, 3);
	/* Mod1 = 2: Exp = exponent field of VD, with VC = -1.5. */
	static const uint32_t vd2[3] = { 0x40000000, 0xFF800000, 0x00000001 };
	static const uint32_t want2[3] = { 0xC0400000, 0xFFC00000, 0x80400000 };
	sfpu_fill(t, 1, 0xBFC00000);
	set_lanes(t, 2, vd2, 3, 0);
	run(t, "SFPSETEXP 0, 1, 2, 2");
	check_lanes(t, 2, want2, 3);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSETMAN ======== */

START_TEST(test_sfpsetman_values)
{
	/* Imm12 << 11: 0xFFF -> 0x7FF800; sign and exponent from VC. */
	static const uint32_t in[2] = { 0x3F800000, 0xFF800000 };
	static const uint32_t out[2] = { 0x3FFFF800, 0xFFFFF800 };
	check_op(sfpu_asm("SFPSETMAN 0xFFF, 1, 2, 1"), 1, 2, in, out, 2, 0);
	static const uint32_t out1[2] = { 0x3F800800, 0xFF800800 };   /* Imm12 = 1 -> 0x800 */
	check_op(sfpu_asm("SFPSETMAN 0x001, 1, 2, 1"), 1, 2, in, out1, 2, 0);
	/* Mod1 = 0: mantissa = VD & 0x7FFFFF, VC = -2.0. */
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t vd[3] = { 0xFFFFFFFF, 0x00000000, 0x00400000 };
	static const uint32_t want[3] = { 0xC07FFFFF, 0xC0000000, 0xC0400000 };
	sfpu_fill(t, 1, 0xC0000000);
	set_lanes(t, 2, vd, 3, 0);
	run(t, "SFPSETMAN 0, 1, 2, 0");
	check_lanes(t, 2, want, 3);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSETSGN ======== */

START_TEST(test_sfpsetsgn_values)
{
	/* Imm1 = 1: 1.0 -> -1.0; +0 -> -0; +NaN -> -NaN (no NaN special case). */
	static const uint32_t pos[3] = { 0x3F800000, 0x00000000, 0x7FC00001 };
	static const uint32_t neg[3] = { 0xBF800000, 0x80000000, 0xFFC00001 };
	check_op(sfpu_asm("SFPSETSGN 1, 1, 2, 1"), 1, 2, pos, neg, 3, 0);
	check_op(sfpu_asm("SFPSETSGN 0, 1, 2, 1"), 1, 2, neg, pos, 3, 0);
	/* Mod1 = 0: sign of VD, VC = +Inf. */
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t vd[3] = { 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF };
	static const uint32_t want[3] = { 0xFF800000, 0x7F800000, 0xFF800000 };
	sfpu_fill(t, 1, 0x7F800000);
	set_lanes(t, 2, vd, 3, 0);
	run(t, "SFPSETSGN 0, 1, 2, 0");
	check_lanes(t, 2, want, 3);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPDIVP2 ======== */

START_TEST(test_sfpdivp2_add)
{
	/* Exp += 1 modulo 256, Exp = 255 (Inf/NaN) unchanged. */
	static const uint32_t in[7] = { 0x3F800000, 0x7F000000, 0xFF800000, 0x7FC00001, 0x00000001, 0x80000000, 0xBF800000 };
	static const uint32_t out[7] = {
		0x40000000,   /* 1.0 -> 2.0 */
		0x7F800000,   /* 2^127 -> exponent 255: +Inf */
		0xFF800000,   /* -Inf kept */
		0x7FC00001,   /* NaN kept */
		0x00800001,   /* denormal: exponent 0 -> 1 */
		0x80800000,   /* -0 -> -2^-126 */
		0xC0000000,   /* -1.0 -> -2.0 */
	};
	check_op(sfpu_asm("SFPDIVP2 0x01, 1, 2, 1"), 1, 2, in, out, 7, 0);
	/* Imm8 = 0xFF: Exp - 1 modulo 256. */
	static const uint32_t in2[6] = { 0x3F800000, 0x00000000, 0x00800000, 0x80800000, 0x7F7FFFFF, 0x7F800000 };
	static const uint32_t out2[6] = {
		0x3F000000,   /* 1.0 -> 0.5 */
		0x7F800000,   /* +0: exponent 0 + 255 = 255, +Inf */
		0x00000000,   /* min normal -> +0 */
		0x80000000,   /* -min normal -> -0 */
		0x7EFFFFFF,   /* max normal / 2 */
		0x7F800000,   /* +Inf kept */
	};
	check_op(sfpu_asm("SFPDIVP2 0xFF, 1, 2, 1"), 1, 2, in2, out2, 6, 0);
}
END_TEST

START_TEST(test_sfpdivp2_set)
{
	/* Exp = Imm8 = 0x7F whatever the input, NaN/Inf included. */
	static const uint32_t in[4] = { 0xC0000000, 0x7FC00000, 0x00000001, 0xFF800000 };
	static const uint32_t out[4] = { 0xBF800000, 0x3FC00000, 0x3F800001, 0xBF800000 };
	check_op(sfpu_asm("SFPDIVP2 0x7F, 1, 2, 0"), 1, 2, in, out, 4, 0);
}
END_TEST

/* Vectors README departure #6: the cases sign-extend Imm8 into bits 23:20. */
START_TEST(test_sfpdivp2_imm_bits_23_20_ignored)
{
	static const uint32_t one[1] = { 0x3F800000 };
	static const uint32_t half[1] = { 0x3F000000 };
	static const uint32_t two[1] = { 0x40000000 };
	/* 0x76FFF121: Imm12 0xFFF -> Imm8 0xFF, VC 1, VD 2, ADD: 1.0 -> 0.5. */
	check_op(0x76FFF121, 1, 2, one, half, 1, 0);
	/* 0x76F80120: Imm12 0xF80 -> Imm8 0x80, set: exponent 0x80 -> 2.0. */
	check_op(0x76F80120, 1, 2, one, two, 1, 0);
}
END_TEST

/* ======== SFPMOV ======== */

START_TEST(test_sfpmov_copy_negate)
{
	static const uint32_t in[5] = { 0x00000000, 0x80000000, 0x7FC00000, 0x3F800000, 0xFFFFFFFF };
	static const uint32_t neg[5] = { 0x80000000, 0x00000000, 0xFFC00000, 0xBF800000, 0x7FFFFFFF };
	check_op(sfpu_asm("SFPMOV 0, 1, 2, 0"), 1, 2, in, in, 5, 0);
	check_op(sfpu_asm("SFPMOV 0, 1, 2, 1"), 1, 2, in, neg, 5, 0);
	struct ttx_tile *t = ttx_tile_new(NULL);
	run(t, "SFPMOV 0, 11, 9, 1");   /* VD = 9 not writable */
	check_all(t, 9, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpmov_all_lanes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	t->sfpu.lane_flags = 0x0000FFFF;   /* lanes 16-31 disabled by flags */
	mask_row(t, 0);                    /* lanes 0-7 disabled by ROW_MASK */
	sfpu_fill(t, 2, 0x11111111);
	/* Mod1 = 0: lanes 8-15 only. */
	run(t, "SFPMOV 0, 15, 2, 0");
	ck_assert_uint_eq(t->sfpu.lreg[2][7], 0x11111111);
	ck_assert_uint_eq(t->sfpu.lreg[2][8], 16);
	ck_assert_uint_eq(t->sfpu.lreg[2][15], 30);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 0x11111111);
	/* Mod1 = 3 is not ALL_LANES_ENABLED (== 2 only): gated, negated. */
	sfpu_fill(t, 2, 0x11111111);
	run(t, "SFPMOV 0, 15, 2, 3");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x11111111);
	ck_assert_uint_eq(t->sfpu.lreg[2][9], 0x80000012);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x11111111);
	/* Mod1 = 2: every lane, row-masked ones included. */
	run(t, "SFPMOV 0, 15, 2, 2");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0);
	ck_assert_uint_eq(t->sfpu.lreg[2][7], 14);
	ck_assert_uint_eq(t->sfpu.lreg[2][9], 18);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 62);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpmov_from_special_config)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Template 0 via a backdoor load of 0x71C21234 (SFPLOADI VD = 12). */
	run(t, "SFPLOADI 12, 2, 0x1234");
	run(t, "SFPMOV 0, 0, 3, 8");
	check_all(t, 3, 0x71C21234);
	/* Sequence[1] and Misc via SFPCONFIG with MOD1_IMM16_IS_VALUE. */
	run(t, "SFPCONFIG 0xBEEF, 5, 1");
	run(t, "SFPMOV 0, 5, 4, 8");
	check_all(t, 4, 0x0000BEEF);
	run(t, "SFPCONFIG 0xABC, 8, 1");
	run(t, "SFPMOV 0, 8, 5, 8");
	check_all(t, 5, 0x00000ABC);
	/* VC = 10-14 read as 0 (not LReg). */
	run(t, "SFPMOV 0, 12, 6, 8");
	check_all(t, 6, 0);
	/* VC = 15: LaneConfig of each lane. */
	t->sfpu.lane_config[5] = 0x00000101;
	run(t, "SFPMOV 0, 15, 7, 8");
	ck_assert_uint_eq(t->sfpu.lreg[7][5], 0x00000101);
	ck_assert_uint_eq(t->sfpu.lreg[7][4], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* AdvancePRNG from state 0: 0 (taps 0 -> state 0x80000000), 0x80000000
   (taps 1 -> 0x40000000), 0x40000000 (taps 0 -> 0xA0000000), 0xA0000000
   (taps 1 -> 0x50000000). */
START_TEST(test_sfpmov_prng)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned r = 0; r < 4; r++)
		sfpu_fill(t, r, 0xDEADBEEF);
	t->sfpu.lane_flags = 0xFFFF0000;   /* lanes 0-15 disabled: no read, no advance */
	run(t, "SFPMOV 0, 9, 0, 8");
	run(t, "SFPMOV 0, 9, 1, 8");
	run(t, "SFPMOV 0, 9, 2, 8");
	run(t, "SFPMOV 0, 9, 3, 8");
	ck_assert_uint_eq(t->sfpu.lreg[0][16], 0x00000000);
	ck_assert_uint_eq(t->sfpu.lreg[1][16], 0x80000000);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x40000000);
	ck_assert_uint_eq(t->sfpu.lreg[3][31], 0xA0000000);
	ck_assert_uint_eq(t->sfpu.prng[20], 0x50000000);
	ck_assert_uint_eq(t->sfpu.lreg[3][0], 0xDEADBEEF);
	ck_assert_uint_eq(t->sfpu.prng[0], 0);
	/* VD = 8: nothing written, but the PRNG still advances. */
	run(t, "SFPMOV 0, 9, 8, 8");
	check_all(t, 8, 0x3F56594B);
	/* 0x50000000: taps = popcount(0x50000000 & 0x80200003) = 0 ->
	   (~0 << 31) | 0x28000000. */
	ck_assert_uint_eq(t->sfpu.prng[20], 0xA8000000);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPCAST ======== */

START_TEST(test_sfpcast_nearest_even)
{
	static const uint32_t in[13] = {
		0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x01000000, 0x01000001, 0x01000003,
		0x7FFFFFFF, 0xFFFFFFFF, 0x01000002, 0x00FFFFFF, 0x0000000A, 0x01000005,
	};
	static const uint32_t out[13] = {
		0x00000000,   /* 0 */
		0x80000000,   /* sign-magnitude -0 -> -0.0 */
		0x3F800000,   /* 1 */
		0xBF800000,   /* -1 */
		0x4B800000,   /* 2^24 */
		0x4B800000,   /* 2^24 + 1: tie -> even (2^24) */
		0x4B800002,   /* 2^24 + 3: tie -> even (2^24 + 4) */
		0x4F000000,   /* 2^31 - 1 rounds up to 2^31 */
		0xCF000000,   /* -(2^31 - 1) */
		0x4B800001,   /* 2^24 + 2 exact */
		0x4B7FFFFF,   /* 2^24 - 1 exact */
		0x41200000,   /* 10.0 */
		0x4B800002,   /* 2^24 + 5: tie -> even (2^24 + 4) */
	};
	check_op(sfpu_asm("SFPCAST 1, 2, 0"), 1, 2, in, out, 13, 0);
}
END_TEST

START_TEST(test_sfpcast_stochastic)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t in[3] = { 0x01000001, 0x01000002, 0x00000001 };
	set_lanes(t, 1, in, 3, 0);
	t->sfpu.lane_flags = 0xFFFFFFF7;   /* lane 3 disabled */
	/* PRNG state 0: threshold (0 >> 9) & 0xFE = 0; rounds up when
	   (Norm & 0xFE) > 0: 2^24 + 1 has Norm = 0x80000080 -> up. */
	run(t, "SFPCAST 1, 2, 1");
	static const uint32_t want[3] = { 0x4B800001, 0x4B800001, 0x3F800000 };
	check_lanes(t, 2, want, 3);
	ck_assert_uint_eq(t->sfpu.prng[0], 0x80000000);   /* advanced once */
	ck_assert_uint_eq(t->sfpu.prng[3], 0);            /* disabled lane: not advanced */
	/* Threshold 0xFE (state bits 16:9 all set): never rounds up. */
	for (unsigned l = 0; l < TTX_LANES; l++)
		t->sfpu.prng[l] = 0x0001FE00;
	run(t, "SFPCAST 1, 2, 1");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 0x4B800000);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPSWAP ======== */

START_TEST(test_sfpswap_unconditional)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x11111111);
	sfpu_fill(t, 2, 0x22222222);
	run(t, "SFPSWAP 0, 1, 2, 0");
	check_all(t, 1, 0x22222222);
	check_all(t, 2, 0x11111111);
	/* VD = 8: VC gets LReg[8], LReg[8] is not written. */
	run(t, "SFPSWAP 0, 1, 8, 0");
	check_all(t, 1, 0x3F56594B);
	check_all(t, 8, 0x3F56594B);
	/* VC = 10: VD gets 1.0. */
	run(t, "SFPSWAP 0, 10, 2, 0");
	check_all(t, 2, 0x3F800000);
	check_all(t, 10, 0x3F800000);
	/* Disabled lanes are not swapped. */
	sfpu_fill(t, 1, 0x11111111);
	sfpu_fill(t, 2, 0x22222222);
	t->sfpu.lane_flags = 0x0000FFFF;
	run(t, "SFPSWAP 0, 1, 2, 0");
	ck_assert_uint_eq(t->sfpu.lreg[1][0], 0x22222222);
	ck_assert_uint_eq(t->sfpu.lreg[1][16], 0x11111111);
	ck_assert_uint_eq(t->sfpu.lreg[2][31], 0x22222222);
	ttx_tile_destroy(t);
}
END_TEST

/* Mod1 = 1: VD = min, VC = max in the sign-magnitude order
   -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. */
START_TEST(test_sfpswap_min_max)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	static const uint32_t c[9] = {
		0x3F800000, 0xBF800000, 0x80000000, 0x7FC00000, 0xFF800000, 0xFFC00000, 0x80000001, 5, 0x00000001,
	};
	static const uint32_t d[9] = {
		0xBF800000, 0x3F800000, 0x00000000, 0x7F800000, 0xFFC00000, 0xFF800000, 0x80000002, 5, 0x80000000,
	};
	set_lanes(t, 1, c, 9, 0);
	set_lanes(t, 2, d, 9, 0);
	run(t, "SFPSWAP 0, 1, 2, 1");
	static const uint32_t want_d[9] = {
		0xBF800000,   /* min(1, -1) already in VD */
		0xBF800000,   /* swapped */
		0x80000000,   /* -0 < +0: swapped */
		0x7F800000,   /* +Inf < +NaN */
		0xFFC00000,   /* -NaN < -Inf */
		0xFFC00000,   /* swapped */
		0x80000002,   /* sign-magnitude -2 < -1 */
		5,            /* equal: no swap */
		0x80000000,   /* -0 < 1 */
	};
	static const uint32_t want_c[9] = {
		0x3F800000, 0x3F800000, 0x00000000, 0x7FC00000, 0xFF800000, 0xFF800000, 0x80000001, 5, 0x00000001,
	};
	check_lanes(t, 2, want_d, 9);
	check_lanes(t, 1, want_c, 9);
	ttx_tile_destroy(t);
}
END_TEST

/* VC = 1, VD = 2 in every lane: after the swap, VD holds 1 in the lanes
   where VD gets the min and 2 where it gets the max. */
START_TEST(test_sfpswap_subvec_modes)
{
	static const uint32_t vd_gets_min[10] = {
		0,
		0xFFFFFFFF,   /* 1 VEC_MIN_MAX */
		0x0000FFFF,   /* 2 MIN01_MAX23: rows 0, 1 */
		0x00FF00FF,   /* 3 MIN02_MAX13 */
		0xFF0000FF,   /* 4 MIN03_MAX12 */
		0x000000FF,   /* 5 MIN0_MAX123 */
		0x0000FF00,   /* 6 MIN1_MAX023 */
		0x00FF0000,   /* 7 MIN2_MAX013 */
		0xFF000000,   /* 8 MIN3_MAX012 */
		0x00000000,   /* 9: VD = max everywhere (departure #7) */
	};
	for (unsigned mod1 = 1; mod1 <= 9; mod1++) {
		struct ttx_tile *t = ttx_tile_new(NULL);
		sfpu_fill(t, 1, 1);
		sfpu_fill(t, 2, 2);
		uint32_t w = A("SFPSWAP 0, 1, 2, %u", mod1);
		sfpu_run(t, &w, 1);
		for (unsigned l = 0; l < TTX_LANES; l++) {
			uint32_t min_lane = vd_gets_min[mod1] >> l & 1;
			ck_assert_msg(t->sfpu.lreg[2][l] == (min_lane ? 1u : 2u) &&
			              t->sfpu.lreg[1][l] == (min_lane ? 2u : 1u),
			              "Mod1 %u lane %u: VD 0x%X VC 0x%X", mod1, l, t->sfpu.lreg[2][l], t->sfpu.lreg[1][l]);
		}
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_sfpswap_exchange_srcb_srcc)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned l = 0; l < 16; l++)
		t->sfpu.lane_config[l] = 1u << 8;   /* EXCHANGE_SRCB_SRCC */
	sfpu_fill(t, 1, 1);
	sfpu_fill(t, 2, 2);
	/* Mod1 = 1: lanes 0-15 inverted -> VD = max (stays 2); lanes 16-31 VD = 1. */
	run(t, "SFPSWAP 0, 1, 2, 1");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 2);
	ck_assert_uint_eq(t->sfpu.lreg[1][15], 1);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 1);
	ck_assert_uint_eq(t->sfpu.lreg[1][31], 2);
	/* Mod1 = 0: unconditional in every lane. */
	run(t, "SFPSWAP 0, 1, 2, 0");
	ck_assert_uint_eq(t->sfpu.lreg[2][0], 1);
	ck_assert_uint_eq(t->sfpu.lreg[2][16], 2);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpswap_dest_index)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned l = 0; l < TTX_LANES; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_ENABLE_DEST_INDEX;
	/* Lane 0: VC = L0 = 1 < VD = L1 = 2 -> swap values and L4 <-> L5;
	   lane 1: 3 > 2 -> nothing. */
	static const uint32_t c[2] = { 1, 3 }, d[2] = { 2, 2 };
	set_lanes(t, 0, c, 2, 0);
	set_lanes(t, 1, d, 2, 0);
	sfpu_fill(t, 4, 0x400);
	sfpu_fill(t, 5, 0x500);
	run(t, "SFPSWAP 0, 0, 1, 1");
	static const uint32_t w0[2] = { 2, 3 }, w1[2] = { 1, 2 }, w4[2] = { 0x500, 0x400 }, w5[2] = { 0x400, 0x500 };
	check_lanes(t, 0, w0, 2);
	check_lanes(t, 1, w1, 2);
	check_lanes(t, 4, w4, 2);
	check_lanes(t, 5, w5, 2);
	/* VC = 2, VD = 1: index registers 4 + (2 & 3) = 6 and 5. */
	sfpu_fill(t, 2, 7);
	sfpu_fill(t, 1, 9);
	sfpu_fill(t, 6, 0x600);
	sfpu_fill(t, 5, 0x500);
	run(t, "SFPSWAP 0, 2, 1, 1");   /* 7 < 9: swap */
	check_all(t, 1, 7);
	check_all(t, 2, 9);
	check_all(t, 5, 0x600);
	check_all(t, 6, 0x500);
	/* VC = 5 (>= 4): LReg[5] is not written as a value; VD = 0 gets old
	   L5; then L5 (4 + (5 & 3)) and L4 (4 + (0 & 3)) are exchanged. */
	sfpu_fill(t, 0, 0x00);
	sfpu_fill(t, 4, 0x44);
	sfpu_fill(t, 5, 0x55);
	run(t, "SFPSWAP 0, 5, 0, 0");
	check_all(t, 0, 0x55);
	check_all(t, 4, 0x55);
	check_all(t, 5, 0x44);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfpswap_backdoor_and_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	sfpu_fill(t, 1, 0x11111111);
	/* VD = 12: a template write only. */
	run(t, "SFPSWAP 0, 1, 12, 0");
	check_all(t, 1, 0x11111111);
	ck_assert_uint_eq(t->sfpu.load_macro_config[2].instruction_template[0], 0x920001C0);
	/* With DISABLE_BACKDOOR_LOAD: VC = 1 gets LReg[12], LReg[12] unwritten. */
	for (unsigned l = 0; l < TTX_LANES; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	run(t, "SFPSWAP 0, 1, 12, 0");
	check_all(t, 1, 0x3B000000);
	check_all(t, 12, 0x3B000000);
	/* Mod1 = 10-15 are undefined. */
	run_faults(t, sfpu_asm("SFPSWAP 0, 1, 2, 10"), "SFPSWAP Mod1=10");
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SFPTRANSP ======== */

/* LReg[r] lane l = r << 8 | l before; after, LReg[B + i] lane (j, c) =
   old LReg[B + j] lane (i, c), i.e. (B + j) << 8 | (8i + c). */
START_TEST(test_sfptransp_values)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned r = 0; r < 8; r++)
		for (unsigned l = 0; l < TTX_LANES; l++)
			t->sfpu.lreg[r][l] = r << 8 | l;
	run(t, "SFPTRANSP 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lreg[0][9], 0x101);    /* i 0, j 1, c 1: L1 lane 1 */
	ck_assert_uint_eq(t->sfpu.lreg[1][0], 0x008);    /* i 1, j 0, c 0: L0 lane 8 */
	ck_assert_uint_eq(t->sfpu.lreg[2][29], 0x315);   /* i 2, j 3, c 5: L3 lane 21 */
	ck_assert_uint_eq(t->sfpu.lreg[3][31], 0x31F);   /* diagonal */
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 0x003);    /* diagonal */
	ck_assert_uint_eq(t->sfpu.lreg[4][8], 0x500);    /* i 0, j 1, c 0: L5 lane 0 */
	ck_assert_uint_eq(t->sfpu.lreg[7][2], 0x41A);    /* i 3, j 0, c 2: L4 lane 26 */
	/* Twice is the identity. */
	run(t, "SFPTRANSP 0, 0, 0, 0");
	for (unsigned r = 0; r < 8; r++)
		for (unsigned l = 0; l < TTX_LANES; l++)
			ck_assert_uint_eq(t->sfpu.lreg[r][l], r << 8 | l);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sfptransp_masked)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned r = 0; r < 8; r++)
		for (unsigned l = 0; l < TTX_LANES; l++)
			t->sfpu.lreg[r][l] = r << 8 | l;
	/* Row 1 (lanes 8-15) disabled: those destination lanes keep their value,
	   though they are still read as sources. */
	t->sfpu.lane_flags = 0xFFFF00FF;
	run(t, "SFPTRANSP 0, 0, 0, 0");
	ck_assert_uint_eq(t->sfpu.lreg[0][9], 0x009);    /* kept */
	ck_assert_uint_eq(t->sfpu.lreg[1][0], 0x008);    /* from L0 lane 8 */
	ck_assert_uint_eq(t->sfpu.lreg[2][8], 0x208);    /* kept */
	ck_assert_uint_eq(t->sfpu.lreg[2][29], 0x315);
	/* VD = 12: backdoor only. */
	t->sfpu.lane_flags = 0xFFFFFFFF;
	run(t, "SFPTRANSP 0, 0, 12, 0");
	ck_assert_uint_eq(t->sfpu.lreg[1][0], 0x008);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[0], 0x8C0000C0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== common: backdoor on a plain ALU instruction ======== */

START_TEST(test_backdoor_partial_lanes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* SFPNOT with VD = 13: lanes with DISABLE_BACKDOOR_LOAD execute it, but
	   VD >= 8 is not writable, so LReg 13 is unchanged everywhere; the other
	   lanes get InstructionTemplate[1] = 0x800009D0. */
	for (unsigned l = 0; l < 8; l++)
		t->sfpu.lane_config[l] = TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
	run(t, "SFPNOT 0, 9, 13, 0");
	check_all(t, 13, 0xBF2CC4C7);
	ck_assert_uint_eq(t->sfpu.load_macro_config[0].instruction_template[1], 0);
	ck_assert_uint_eq(t->sfpu.load_macro_config[8].instruction_template[1], 0x800009D0);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sfpu_simple");
	TCase *tc;
	tc = tcase_create("SFPENCC");
	tcase_add_test(tc, test_sfpencc_use_from_imm);
	tcase_add_test(tc, test_sfpencc_invert_use);
	tcase_add_test(tc, test_sfpencc_flags_from_imm);
	tcase_add_test(tc, test_sfpencc_ignores_lane_enable);
	tcase_add_test(tc, test_sfpencc_backdoor);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSETCC");
	tcase_add_test(tc, test_sfpsetcc_compares);
	tcase_add_test(tc, test_sfpsetcc_imm_and_clear);
	tcase_add_test(tc, test_sfpsetcc_use_off_gives_false);
	tcase_add_test(tc, test_sfpsetcc_disabled_lanes);
	tcase_add_test(tc, test_sfpsetcc_backdoor);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPIADD");
	tcase_add_test(tc, test_sfpiadd_reg_add_wraps);
	tcase_add_test(tc, test_sfpiadd_reg_sub);
	tcase_add_test(tc, test_sfpiadd_imm_sign_extends);
	tcase_add_test(tc, test_sfpiadd_cc_modes);
	tcase_add_test(tc, test_sfpiadd_vd_rules);
	tcase_add_test(tc, test_sfpiadd_disabled_lanes);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPPUSHC");
	tcase_add_test(tc, test_sfppushc_popc_restore);
	tcase_add_test(tc, test_sfppushc_depth8_lifo);
	tcase_add_test(tc, test_sfppushc_full_faults);
	tcase_add_test(tc, test_flag_stack_per_lane_depth);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPPOPC");
	tcase_add_test(tc, test_sfppopc_empty_faults);
	tcase_add_test(tc, test_sfppopc_boolean_ops);
	tcase_add_test(tc, test_sfppopc_constant_modes);
	tcase_add_test(tc, test_sfppopc_peek_empty);
	tcase_add_test(tc, test_sfppopc_full_stack_bug);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPCOMPC");
	tcase_add_test(tc, test_sfpcompc_empty_stack);
	tcase_add_test(tc, test_sfpcompc_with_top);
	tcase_add_test(tc, test_sfpcompc_backdoor);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPAND_SFPOR_SFPXOR_SFPNOT");
	tcase_add_test(tc, test_sfpand_values);
	tcase_add_test(tc, test_sfpor_values);
	tcase_add_test(tc, test_sfpxor_values);
	tcase_add_test(tc, test_sfpnot_values);
	tcase_add_test(tc, test_bitwise_vd_rules_and_lanes);
	tcase_add_test(tc, test_backdoor_partial_lanes);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPLZ");
	tcase_add_test(tc, test_sfplz_counts);
	tcase_add_test(tc, test_sfplz_flags);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPABS");
	tcase_add_test(tc, test_sfpabs_int);
	tcase_add_test(tc, test_sfpabs_float);
	tcase_add_test(tc, test_sfpabs_vd_rules);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSHFT");
	tcase_add_test(tc, test_sfpshft_by_lreg);
	tcase_add_test(tc, test_sfpshft_by_imm);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPEXEXP");
	tcase_add_test(tc, test_sfpexexp_values);
	tcase_add_test(tc, test_sfpexexp_flags);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPEXMAN");
	tcase_add_test(tc, test_sfpexman_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSETEXP");
	tcase_add_test(tc, test_sfpsetexp_imm);
	tcase_add_test(tc, test_sfpsetexp_from_vd);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSETMAN");
	tcase_add_test(tc, test_sfpsetman_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSETSGN");
	tcase_add_test(tc, test_sfpsetsgn_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPDIVP2");
	tcase_add_test(tc, test_sfpdivp2_add);
	tcase_add_test(tc, test_sfpdivp2_set);
	tcase_add_test(tc, test_sfpdivp2_imm_bits_23_20_ignored);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPMOV");
	tcase_add_test(tc, test_sfpmov_copy_negate);
	tcase_add_test(tc, test_sfpmov_all_lanes);
	tcase_add_test(tc, test_sfpmov_from_special_config);
	tcase_add_test(tc, test_sfpmov_prng);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPCAST");
	tcase_add_test(tc, test_sfpcast_nearest_even);
	tcase_add_test(tc, test_sfpcast_stochastic);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPSWAP");
	tcase_add_test(tc, test_sfpswap_unconditional);
	tcase_add_test(tc, test_sfpswap_min_max);
	tcase_add_test(tc, test_sfpswap_subvec_modes);
	tcase_add_test(tc, test_sfpswap_exchange_srcb_srcc);
	tcase_add_test(tc, test_sfpswap_dest_index);
	tcase_add_test(tc, test_sfpswap_backdoor_and_faults);
	suite_add_tcase(s, tc);
	tc = tcase_create("SFPTRANSP");
	tcase_add_test(tc, test_sfptransp_values);
	tcase_add_test(tc, test_sfptransp_masked);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
