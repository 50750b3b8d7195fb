/* Matrix Unit (interp/matrix.c, interp/matrix_fp.c): hand-derived
 * expectations.  Src banks are filled directly (the unpackers are not
 * modelled yet); words are built from the documented encodings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "matrix_fp.h"
#include "util.h"

#define W_SETDVALID_AB   0x57000003u
#define OP(op) ((uint32_t)(op) << 24)

static struct ttx_tile *new_tile(void)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	ck_assert_ptr_nonnull(t);
	return t;
}

static void run1(struct ttx_tile *t, uint32_t word)
{
	ck_assert_int_eq(ttx_push(t, 0, word), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "0x%08X: %s", word, ttx_tile_error(t));
}

static void run_fault(struct ttx_tile *t, uint32_t word, const char *what)
{
	ck_assert_int_eq(ttx_push(t, 0, word), TTX_OK);
	ck_assert_int_ne(ttx_run(t, 0), TTX_OK);
	ck_assert_msg(strstr(ttx_tile_error(t), what) != NULL, "error \"%s\" lacks \"%s\"",
	              ttx_tile_error(t), what);
}

/* Src INT8: Sign, Mag(10), Exp(8) = 16 (0 when the magnitude is 0). */
static uint32_t src_int8(int v)
{
	uint32_t m = (uint32_t)(v < 0 ? -v : v);
	return (v < 0 ? 1u << 18 : 0) | (m << 8) | (m ? 16u : 0u);
}

/* Src BF16 from natural BF16 bits. */
static uint32_t src_bf16(uint16_t h)
{
	return ((uint32_t)(h >> 15) << 18) | ((uint32_t)(h & 0x7F) << 11) | ((h >> 7) & 0xFFu);
}

/* Src FP16 from natural FP16 bits: Sign, Man(10), 000, Exp(5). */
static uint32_t src_fp16(uint16_t h)
{
	return ((uint32_t)(h >> 15) << 18) | ((uint32_t)(h & 0x3FF) << 8) | ((h >> 10) & 0x1Fu);
}

/* Dst16b BF16 (Sign, Man7, Exp8) to natural BF16. */
static uint16_t dst16_bf16(const struct ttx_tile *t, unsigned row, unsigned col)
{
	uint16_t d = t->dst[row][col];
	return (uint16_t)((d & 0x8000) | ((d & 0xFF) << 7) | ((d >> 8) & 0x7F));
}

static uint32_t dst_fp32(const struct ttx_tile *t, unsigned row, unsigned col)
{
	return ttx_unshuffle_fp32(ttx_dst32_get(t, row, col));
}

/* INT8 math with both Src formats INT8 (with another format, TruncateSrc
   would drop magnitude bits: TC/MatrixUnit.md). */
static void int8_mode(struct ttx_tile *t)
{
	ttx_cfg_set(t, 0, TTX_CFG_ALU_ACC_CTRL_INT8_math_enabled, 1);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_INT8);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_INT8);
}

/* MVMUL: FlipSrcB<<23 | FlipSrcA<<22 | Bcast<<19 | AddrMod<<15 | DstRow. */
static uint32_t w_mvmul(unsigned bcast, unsigned dst) { return OP(0x26) | bcast << 19 | dst; }

/* ---- RWCs ---- */

START_TEST(test_setrwc_incrwc)
{
	struct ttx_tile *t = new_tile();
	/* SETRWC SrcAVal 5, SrcBVal 9, DstVal 3: set all three. */
	run1(t, OP(0x37) | 3u << 14 | 9u << 10 | 5u << 6 | 7u);
	ck_assert_uint_eq(t->rwc[0].srca, 5);
	ck_assert_uint_eq(t->rwc[0].srcb, 9);
	ck_assert_uint_eq(t->rwc[0].dst, 3);
	/* INCRWC: SrcA += 15 (no CR) -> 20; SrcB CR += 4 -> 13 both. */
	run1(t, OP(0x38) | 1u << 19 | 4u << 10 | 15u << 6);
	ck_assert_uint_eq(t->rwc[0].srca, 20);
	ck_assert_uint_eq(t->rwc[0].srca_cr, 5);
	ck_assert_uint_eq(t->rwc[0].srcb, 13);
	ck_assert_uint_eq(t->rwc[0].srcb_cr, 13);
	/* SrcA wraps at 6 bits: 20 + 15 * 3 = 65 -> 1. */
	for (int i = 0; i < 3; i++)
		run1(t, OP(0x38) | 15u << 6);
	ck_assert_uint_eq(t->rwc[0].srca, 1);
	/* SETRWC DstCtoCr with DstVal 4: Dst = Dst + 4 = 7, Cr = 7. */
	run1(t, OP(0x37) | 1u << 21 | 4u << 14);
	ck_assert_uint_eq(t->rwc[0].dst, 7);
	ck_assert_uint_eq(t->rwc[0].dst_cr, 7);
	/* Fidelity bit clears the phase. */
	t->rwc[0].fidelity_phase = 3;
	run1(t, OP(0x37) | 8u);
	ck_assert_uint_eq(t->rwc[0].fidelity_phase, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- Bank ownership ---- */

START_TEST(test_dvalid_ownership)
{
	struct ttx_tile *t = new_tile();
	/* Without SETDVALID the FPU does not own the banks: MVMUL waits forever. */
	run_fault(t, w_mvmul(0, 0), "deadlock");
	t = (ttx_tile_destroy(t), new_tile());
	run1(t, W_SETDVALID_AB);
	ck_assert_uint_eq(t->srca[0].allowed_client, TTX_SRC_MATRIX_UNIT);
	ck_assert_uint_eq(t->srcb[0].allowed_client, TTX_SRC_MATRIX_UNIT);
	ck_assert_uint_eq(t->unpacker_src_bank[0], 1);
	ck_assert_uint_eq(t->unpacker_src_bank[1], 1);
	/* MVMUL FlipSrcA: bank 0 back to the unpackers, FPU now on bank 1. */
	run1(t, w_mvmul(0, 0) | 1u << 22);
	ck_assert_uint_eq(t->srca[0].allowed_client, TTX_SRC_UNPACKERS);
	ck_assert_uint_eq(t->matrix_srca_bank, 1);
	ck_assert_uint_eq(t->matrix_srcb_bank, 0);
	/* CLEARDVALID FlipSrcB with KeepReadingSameSrc: released, no flip. */
	run1(t, OP(0x36) | 1u << 23 | 2u);
	ck_assert_uint_eq(t->srcb[0].allowed_client, TTX_SRC_UNPACKERS);
	ck_assert_uint_eq(t->matrix_srcb_bank, 0);
	/* CLEARDVALID Reset: everything back to power-on. */
	run1(t, OP(0x36) | 1u);
	ck_assert_uint_eq(t->matrix_srca_bank, 0);
	ck_assert_uint_eq(t->unpacker_src_bank[0], 0);
	ck_assert_uint_eq(t->unpacker_src_bank[1], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- Integer path: exact, all four fidelity phases, saturation ---- */

/* Run one MVMUL per phase 0..3 on Dst row 0. */
static void mvmul_all_phases(struct ttx_tile *t, unsigned dst)
{
	for (unsigned ph = 0; ph < 4; ph++) {
		t->rwc[0].fidelity_phase = (uint8_t)ph;
		run1(t, w_mvmul(0, dst));
	}
}

START_TEST(test_mvmul_int8_exact)
{
	struct ttx_tile *t = new_tile();
	int8_mode(t);
	run1(t, W_SETDVALID_AB);
	/* SrcA[k][j]: +-255 on the diagonal edge values, SrcB[i][k]: +-1023. */
	int a[16][16], b[8][16];
	for (int k = 0; k < 16; k++)
		for (int j = 0; j < 16; j++) {
			a[k][j] = ((k * 7 + j * 3) % 511) - 255;
			t->srca[0].rows[k][j] = src_int8(a[k][j]);
		}
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 16; k++) {
			b[i][k] = ((i * 131 + k * 17) % 2047) - 1023;
			t->srcb[0].rows[i][k] = src_int8(b[i][k]);
		}
	mvmul_all_phases(t, 0);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 16; j++) {
			int32_t want = 0;
			for (int k = 0; k < 16; k++)
				want += b[i][k] * a[k][j];
			ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, (unsigned)i, (unsigned)j)), want);
		}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_int8_phase_masks)
{
	/* SrcA 255 = 0b111'11111, SrcB 1023 = 0b111111'1111: phase 3 sees
	   31 * 15, phase 2 (SrcA high 3 bits) 224 * 15, phase 1 31 * 1008,
	   phase 0 224 * 1008 (TC/SrcASrcB.md "Fidelity phases (integer)"). */
	static const int32_t want[4] = {224 * 1008, 31 * 1008, 224 * 15, 31 * 15};
	for (unsigned ph = 0; ph < 4; ph++) {
		struct ttx_tile *t = new_tile();
		int8_mode(t);
		run1(t, W_SETDVALID_AB);
		t->srca[0].rows[0][0] = src_int8(255);
		t->srcb[0].rows[0][0] = src_int8(1023);
		t->rwc[0].fidelity_phase = (uint8_t)ph;
		run1(t, w_mvmul(0, 0));
		ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 0)), want[ph]);
		/* SrcA's two top magnitude bits are never read: 1023 acts as 255. */
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_int8_saturation)
{
	struct ttx_tile *t = new_tile();
	int8_mode(t);
	run1(t, W_SETDVALID_AB);
	t->srca[0].rows[0][0] = src_int8(255);
	t->srcb[0].rows[0][0] = src_int8(1023);
	t->srca[0].rows[0][1] = src_int8(-255);
	t->srcb[0].rows[1][0] = src_int8(-1023);   /* row 1: -1023 * 255 in col 0 */
	ttx_dst32_set(t, 0, 0, ttx_dst_encode_int32(0x7FFFFF00));
	ttx_dst32_set(t, 0, 1, ttx_dst_encode_int32(-0x7FFFFF00));
	ttx_dst32_set(t, 1, 0, ttx_dst_encode_int32(5));
	mvmul_all_phases(t, 0);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 0)), 0x7FFFFFFF);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 1)), -0x7FFFFFFF);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 1, 0)), 5 - 1023 * 255);
	/* Sign-magnitude: -5 is 0x80000005 before the FP32 shuffle. */
	ck_assert_uint_eq(ttx_unshuffle_fp32(ttx_dst_encode_int32(-5)), 0x80000005u);
	/* An exponent field of 0 reads as 0 whatever the magnitude (departure 8). */
	t->srca[0].rows[0][2] = (7u << 8);
	t->srcb[0].rows[0][0] = src_int8(3);
	ttx_dst32_set(t, 0, 2, 0);
	mvmul_all_phases(t, 0);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 2)), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_elw_int8)
{
	struct ttx_tile *t = new_tile();
	int8_mode(t);
	run1(t, W_SETDVALID_AB);
	t->srca[0].rows[0][0] = src_int8(100);
	t->srcb[0].rows[0][0] = src_int8(-300);
	ttx_dst32_set(t, 0, 0, ttx_dst_encode_int32(1000));
	/* ELWADD AddDst=0: Dst = -200; ELWSUB AddDst=1: Dst += 400. */
	run1(t, OP(0x28));
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 0)), -200);
	run1(t, OP(0x30) | 1u << 21);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 0)), 200);
	/* ELWMUL over four phases: 200 + 100 * -300. */
	for (unsigned ph = 0; ph < 4; ph++) {
		t->rwc[0].fidelity_phase = (uint8_t)ph;
		run1(t, OP(0x27));
	}
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 0, 0)), 200 - 30000);
	/* BroadcastSrcBCol0: every column uses SrcB column 0. */
	t->srca[0].rows[1][5] = src_int8(2);
	ttx_dst32_set(t, 1, 5, 0);
	run1(t, OP(0x28) | 1u << 19);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 1, 5)), 2 + 0);   /* SrcB row 1 col 0 is 0 */
	t->srcb[0].rows[1][0] = src_int8(-7);
	run1(t, OP(0x28) | 1u << 19);
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 1, 5)), 2 - 7);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- Floating point at edge values ---- */

START_TEST(test_fp_rounding_edges)
{
	/* Ties away from zero (what the reference vectors show), overflow to
	   the infinity pattern, results below the normal range to zero. */
	ck_assert_uint_eq(ttx_mfp_to_bf16(1.0 + 1.0 / 256), 0x3F81);     /* tie -> away */
	ck_assert_uint_eq(ttx_mfp_to_bf16(-(1.0 + 1.0 / 256)), 0xBF81);
	ck_assert_uint_eq(ttx_mfp_to_bf16(1.0 + 1.0 / 512), 0x3F80);
	ck_assert_uint_eq(ttx_mfp_to_bf16(ldexp(1.0, 128)), 0x7F80);     /* exp 255: overflow */
	ck_assert_uint_eq(ttx_mfp_to_bf16(-ldexp(1.99, 127)), 0xFF7F);
	ck_assert_uint_eq(ttx_mfp_to_bf16(ldexp(1.0, -127)), 0x0000);    /* denormal -> 0 */
	ck_assert_uint_eq(ttx_mfp_to_bf16(-ldexp(1.0, -130)), 0x0000);    /* to +0 (vectors) */
	ck_assert_uint_eq(ttx_mfp_to_bf16(-0.0), 0x0000);                 /* zero results are +0 */
	ck_assert_uint_eq(ttx_mfp_to_fp32(ldexp(1.0, -126)), 0x00800000u);
	ck_assert_uint_eq(ttx_mfp_to_fp32(ldexp(1.0, 129)), 0x7F800000u);
	ck_assert_uint_eq(ttx_mfp_to_fp16(65504.0), 0x7BFF);
	ck_assert_uint_eq(ttx_mfp_to_fp16(65536.0), 0x7C00);               /* exp 31 is finite */
	ck_assert_uint_eq(ttx_mfp_to_fp16(ldexp(1.0, 17)), 0x7FFF);        /* overflow pattern */
	ck_assert_uint_eq(ttx_mfp_to_fp16(ldexp(1.0, -15)), 0x0000);
}
END_TEST

START_TEST(test_elwmul_bf16)
{
	struct ttx_tile *t = new_tile();
	run1(t, W_SETDVALID_AB);
	/* 1.5 (0x3FC0) * -2.75 (0xC030): four phases sum to -4.125 (0xC084). */
	t->srca[0].rows[0][0] = src_bf16(0x3FC0);
	t->srcb[0].rows[0][0] = src_bf16(0xC030);
	/* Denormal SrcA (exp 0) times 1.0 is 0: Dst keeps its 2.0 (0x4000). */
	t->srca[0].rows[0][1] = src_bf16(0x0040);
	t->srcb[0].rows[0][1] = src_bf16(0x3F80);
	t->dst[0][1] = 0x0080;   /* 2.0 in Dst16b BF16: Man 0, Exp 0x80 */
	/* Largest finite squared overflows to the infinity pattern. */
	t->srca[0].rows[0][2] = src_bf16(0x7F7F);
	t->srcb[0].rows[0][2] = src_bf16(0x7F7F);
	for (unsigned ph = 0; ph < 4; ph++) {
		t->rwc[0].fidelity_phase = (uint8_t)ph;
		run1(t, OP(0x27));
	}
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0xC084);
	ck_assert_uint_eq(dst16_bf16(t, 0, 1), 0x4000);
	ck_assert_uint_eq(dst16_bf16(t, 0, 2), 0x7F80);
	/* Phase 0 alone: SrcA 1.5 -> 1.5 (top 4 bits), SrcB 2.75 -> 2.75. */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_elwadd_phase_divide)
{
	struct ttx_tile *t = new_tile();
	run1(t, W_SETDVALID_AB);
	t->srca[0].rows[0][0] = src_bf16(0x4000);   /* 2 */
	t->srcb[0].rows[0][0] = src_bf16(0x4040);   /* 3 */
	run1(t, OP(0x28));                          /* 5 */
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0x40A0);
	t->rwc[0].fidelity_phase = 1;               /* / 32 */
	run1(t, OP(0x30));                          /* (2 - 3) / 32 */
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0xBD00);
	t->rwc[0].fidelity_phase = 3;               /* / 4096, AddDst */
	run1(t, OP(0x28) | 1u << 21);               /* -1/32 + 5/4096 */
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0xBCF6);         /* -123/4096, exact */
	ttx_tile_destroy(t);
}
END_TEST

/* ---- The floating-point datapath (interp/matrix_fp.c, docs/matrix.md) ----
   MVMUL: Dst[0][j] += sum_k SrcB[0][k] * SrcA[k][j].  BF16 data into
   32-bit Dst unless stated; one phase; operands whose significands the
   phase reads whole, so each product is exact before the datapath. */

static struct ttx_tile *bf16_fp32dst_tile(void)
{
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled, 1);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_BF16);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_BF16);
	run1(t, W_SETDVALID_AB);
	return t;
}

static void put_dst_fp32(struct ttx_tile *t, unsigned row, unsigned col, uint32_t bits)
{
	ttx_dst32_set(t, row, col, ttx_shuffle_fp32(bits));
}

/* One product SrcB[0][k] * SrcA[k][j] (natural BF16 bits). */
static void put_product(struct ttx_tile *t, unsigned k, unsigned j, uint16_t b, uint16_t a)
{
	t->srcb[0].rows[0][k] = src_bf16(b);
	t->srca[0].rows[k][j] = src_bf16(a);
}

START_TEST(test_fp_halves)
{
	struct ttx_tile *t = bf16_fp32dst_tile();
	for (unsigned k = 0; k < 16; k++)
		t->srcb[0].rows[0][k] = src_bf16(0x3F80);          /* SrcB row: all 1.0 */
	/* Column 0: 1024 and 0.75 in half 0 (k 0, 1), 0.75 in half 1 (k 8).
	   Half 0 is rounded to 2^(10 - 10) = 1: 0.75 -> 1, sum 1025; half 1
	   keeps its 0.75 (grid 2^-11).  1025.75 (exact: 1025.5). */
	t->srca[0].rows[0][0] = src_bf16(0x4480);              /* 1024 */
	t->srca[0].rows[1][0] = src_bf16(0x3F40);              /* 0.75 */
	t->srca[0].rows[8][0] = src_bf16(0x3F40);
	/* Column 1: a tie in the half goes away from zero on the magnitude:
	   1024 - 0.5 -> 1024 - 1 = 1023 (exact 1023.5 is an FP32 value). */
	t->srca[0].rows[0][1] = src_bf16(0x4480);
	t->srca[0].rows[2][1] = src_bf16(0xBF00);              /* -0.5 */
	/* Column 2: the same 0.75 with 1024 in the other half: both kept. */
	t->srca[0].rows[0][2] = src_bf16(0x4480);
	t->srca[0].rows[9][2] = src_bf16(0x3F40);
	run1(t, w_mvmul(0, 0));
	ck_assert_uint_eq(dst_fp32(t, 0, 0), 0x44803800u);     /* 1025.75 */
	ck_assert_uint_eq(dst_fp32(t, 0, 1), 0x447FC000u);     /* 1023 */
	ck_assert_uint_eq(dst_fp32(t, 0, 2), 0x44801800u);     /* 1024.75 */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_fp_dst_grid)
{
	struct ttx_tile *t = bf16_fp32dst_tile();
	/* Half sums go onto the grid 2^(R - 23) half up (add half, floor).
	   Column 0: Dst 2^24 (grid 2^1), product 3 = 1.5 units -> 2 units:
	   2^24 + 4.  Column 1: product -3 = -1.5 units -> -1 unit: 2^24 - 2
	   (ties away would give 2^24 - 4). */
	put_dst_fp32(t, 0, 0, 0x4B800000u);
	put_dst_fp32(t, 0, 1, 0x4B800000u);
	put_product(t, 0, 0, 0x3F80, 0x4040);                  /* 1 * 3 */
	put_product(t, 0, 1, 0x3F80, 0xC040);                  /* 1 * -3 */
	/* Column 2: Dst is rounded to the grid too, ties away on the magnitude:
	   Dst -(1 + 2^-23), product 4 (R = 2, grid 2^-21): Dst -> -1, total 3.0
	   (the exact sum 2.99999988 is an FP32 value). */
	put_dst_fp32(t, 0, 2, 0xBF800001u);
	put_product(t, 0, 2, 0x3F80, 0x4080);                  /* 1 * 4 */
	run1(t, w_mvmul(0, 0));
	ck_assert_uint_eq(dst_fp32(t, 0, 0), 0x4B800002u);
	ck_assert_uint_eq(dst_fp32(t, 0, 1), 0x4B7FFFFEu);
	ck_assert_uint_eq(dst_fp32(t, 0, 2), 0x40400000u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_fp_overflow_and_minus_one)
{
	struct ttx_tile *t = bf16_fp32dst_tile();
	/* Column 0: 1.5 * 2^127 * 2 overflows to the Inf pattern. */
	put_product(t, 0, 0, 0x4000, 0x7F40);
	/* Column 1: an overflowed Dst (0xFF800000) is the finite -2^128:
	   + 1.875 * 2^106 (R = 128, grid 2^105: 3.75 units -> 4) gives
	   -(2^23 - 4) * 2^105 = 0xFF7FFFF8. */
	put_dst_fp32(t, 0, 1, 0xFF800000u);
	put_product(t, 1, 1, 0x3F80, 0x74F0);                  /* 1 * 1.875 * 2^106 */
	run1(t, w_mvmul(0, 0));
	ck_assert_uint_eq(dst_fp32(t, 0, 0), 0x7F800000u);
	ck_assert_uint_eq(dst_fp32(t, 0, 1), 0xFF7FFFF8u);
	ttx_tile_destroy(t);

	/* 32-bit Dst, a total of exactly -1 unit: -(2^27 - 1) units.  Phase 1
	   reads SrcA's significand bits 5..1: 2^30 has none, but its product
	   still sets R = 30 - 5 = 25 (grid 2^2) in half 0.  Half 1: -(1 + 2^-7)
	   * 2^9 gives -2^2 in phase 1 = -1 unit -> -2^29 (column 0); with
	   2^10, -2 units = -8.0 exactly (column 1). */
	t = bf16_fp32dst_tile();
	t->rwc[0].fidelity_phase = 1;
	for (unsigned j = 0; j < 2; j++) {
		put_product(t, 0, j, 0x3F80, 0x4E80);                  /* 1 * 2^30 */
		put_product(t, 8, j, 0x3F80, j ? 0xC481 : 0xC401);     /* 1 * -(1 + 2^-7) 2^9, 2^10 */
	}
	run1(t, w_mvmul(0, 0));
	ck_assert_uint_eq(dst_fp32(t, 0, 0), 0xCE000000u);
	ck_assert_uint_eq(dst_fp32(t, 0, 1), 0xC1000000u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_fp16_product_flush)
{
	/* FP16 ELWMUL into FP16 Dst, phase 2 (SrcA's top bits times SrcB's low
	   4 bits): a product whose reference exponent is below -14 is flushed.
	   Dst 2^-10 (grid 2^-20).  Column 0: 2^-4 * (1 + 2^-10) 2^-3: ref -14,
	   product 2^-17 = 8 units: 2^-10 (1 + 2^-7).  Column 1: SrcA 2^-5:
	   ref -15, flushed: Dst stays 2^-10 (else 2^-10 (1 + 2^-8)). */
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_FP16);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_FP16);
	run1(t, W_SETDVALID_AB);
	t->srca[0].rows[0][0] = src_fp16(0x2C00);              /* 2^-4 */
	t->srca[0].rows[0][1] = src_fp16(0x2800);              /* 2^-5 */
	t->srcb[0].rows[0][0] = src_fp16(0x3001);              /* (1 + 2^-10) 2^-3 */
	t->srcb[0].rows[0][1] = src_fp16(0x3001);
	for (unsigned j = 0; j < 2; j++)
		t->dst[0][j] = 0x0005;                             /* 2^-10: Man 0, Exp 5 */
	t->rwc[0].fidelity_phase = 2;
	run1(t, OP(0x27));
	ck_assert_uint_eq(t->dst[0][0], (8u << 5) | 5u);
	ck_assert_uint_eq(t->dst[0][1], 5u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_elwadd_dst_grid)
{
	/* ELWADD AddDst into BF16 Dst: 248 + 0 + Dst 0.498046875.  R = 7, grid
	   2^-3: Dst -> 0.5, 248.5 rounds (ties away) to 249; the exact sum
	   248.498 would give 248 (tests/vectors/fpu 0016). */
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_BF16);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_BF16);
	run1(t, W_SETDVALID_AB);
	t->srca[0].rows[0][0] = src_bf16(0x4378);              /* 248 */
	t->dst[0][0] = (0x7F << 8) | 0x7D;                     /* 0x3EFF */
	run1(t, OP(0x28) | 1u << 21);
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0x4379);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_elwsub_fp32_half_up)
{
	/* ELWSUB AddDst, TF32 into FP32 Dst (tests/vectors/fpu 0043 row 82):
	   Dst -(256 + 2^-6), A = -1302 * 2^-17, B = 0.  A alone sets Rh = -7
	   (exact on its 2^-17 grid); R = 8, grid 2^-15: A is -325.5 units,
	   rounded half up to -325 (ties away would give -326, 0xC3800346). */
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled, 1);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_TF32);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_TF32);
	run1(t, W_SETDVALID_AB);
	uint32_t a = 0xBC22C000u;                               /* -1302 * 2^-17 */
	t->srca[0].rows[0][0] = (a >> 31) << 18 | ((a >> 13) & 0x3FF) << 8 | ((a >> 23) & 0xFF);
	put_dst_fp32(t, 0, 0, 0xC3800200u);
	run1(t, OP(0x30) | 1u << 21);
	ck_assert_uint_eq(dst_fp32(t, 0, 0), 0xC3800345u);
	ttx_tile_destroy(t);
}
END_TEST

/* A random 19-bit Src datum for the style: exponents mostly within 12 of
   `centre` (so products overlap and get aligned), sometimes zero, extreme
   or the top value; mantissas sometimes all zeros or all ones. */
static uint32_t random_src(uint64_t *seed, enum ttx_mstyle style, int centre)
{
	uint64_t x = test_rand(seed);
	uint32_t man = (uint32_t)(x >> 8) & 0x3FF, sign = (uint32_t)(x >> 20) & 1;
	unsigned emax = style == TTX_MSTYLE_FP16 ? 31 : 255;
	int e;
	switch ((x >> 24) % 16) {
	case 0: e = 0; break;
	case 1: e = 1 + (int)((x >> 32) % 3); break;
	case 2: e = (int)emax - (int)((x >> 32) % 3); break;
	default: e = centre + (int)((x >> 32) % 25) - 12; break;
	}
	if (e < 0)
		e = 0;
	if (e > (int)emax)
		e = (int)emax;
	if ((x >> 40) % 8 == 0)
		man = (x >> 43) & 1 ? 0x3FF : 0;
	return sign << 18 | man << 8 | (uint32_t)e;
}

START_TEST(test_fp_simd_matches_scalar)
{
	/* The SIMD MVMUL path (ttx_matrix_load_a's decode included) against
	   the scalar model, one Dst row at a time, over every style, phase and
	   Dst width, with 8, 7 (broadcast) or 4 (GAPOOL) rows; 4,000 blocks,
	   1,000,000 with TTX_LONG_TESTS=1 (make check-long). */
	static const enum ttx_mstyle styles[3] = { TTX_MSTYLE_BF16, TTX_MSTYLE_FP16, TTX_MSTYLE_TF32 };
	static const unsigned fmts[3] = { TTX_FMT_BF16, TTX_FMT_FP16, TTX_FMT_TF32 };
	struct ttx_tile *t1 = new_tile(), *t2 = new_tile();
	uint64_t seed = 2026;
	static uint32_t a[16][TTX_COLS];
	uint32_t b[8][TTX_COLS];
	struct ttx_mop_operands op;
	unsigned iters = getenv("TTX_LONG_TESTS") ? 1000000 : 4000;
	for (unsigned iter = 0; iter < iters; iter++) {
		unsigned si = iter % 3, phase = (iter / 3) % 4;
		unsigned nrows = iter % 7 == 3 ? 7 : iter % 7 == 5 ? 4 : 8;
		bool dst32 = (iter / 12) % 2 && styles[si] != TTX_MSTYLE_FP16;
		enum ttx_mstyle style = styles[si];
		/* operand exponents: products near the bottom of the range (flushes,
		   results below the normal range), near the top (overflow), or
		   anywhere */
		unsigned where = (unsigned)(test_rand(&seed) % 3);
		int centre = style == TTX_MSTYLE_FP16 ? (where == 0 ? 8 : where == 1 ? 29 : 15)
		                                      : (where == 0 ? 64 : where == 1 ? 191 : (int)(test_rand(&seed) % 256));
		for (unsigned k = 0; k < 16; k++)
			for (unsigned j = 0; j < TTX_COLS; j++)
				a[k][j] = random_src(&seed, style, centre);
		/* a block of 8 B rows; every fifth block with a centre per row, so
		   that blocks mix exponent ranges (and products below the style's
		   range with others) */
		bool mixed = iter % 5 == 0;
		for (unsigned i = 0; i < 8; i++) {
			int c = mixed ? (int)(test_rand(&seed) % (style == TTX_MSTYLE_FP16 ? 32 : 256)) : centre;
			for (unsigned k = 0; k < 16; k++)
				b[i][k] = random_src(&seed, style, c);
		}
		unsigned row0 = (unsigned)(test_rand(&seed) % (dst32 ? 512 : 1024)) & ~7u;
		for (unsigned n = 0; n < 8 * TTX_COLS; n++) {
			unsigned row = row0 + n / TTX_COLS, j = n % TTX_COLS;
			uint64_t x = test_rand(&seed);
			if (dst32) {
				/* exponent near the products' (bias 127 both sides) or anywhere */
				uint32_t e = (x >> 40) % 4 ? (uint32_t)(2 * centre - 127 + (int)((x >> 32) % 41) - 20) & 0xFF
				                           : (uint32_t)(x >> 32) & 0xFF;
				uint32_t v = (uint32_t)(x & 0x807FFFFFu) | e << 23;
				ttx_dst32_set(t1, row, j, ttx_shuffle_fp32(v));
				ttx_dst32_set(t2, row, j, ttx_shuffle_fp32(v));
			} else {
				t1->dst[row][j] = t2->dst[row][j] = (uint16_t)x;
			}
		}
		/* Every fourth row: any format code, for TruncateSrc. */
		unsigned fa = iter % 4 ? fmts[si] : (unsigned)(test_rand(&seed) % 16);
		unsigned fb = iter % 4 ? fmts[si] : (unsigned)(test_rand(&seed) % 16);
		ttx_matrix_load_a(&op, (const uint32_t (*)[TTX_COLS])a, 16, style, fa, phase);
		const uint32_t *brows[8];
		unsigned rows[8];
		for (unsigned i = 0; i < nrows; i++) {
			brows[i] = b[i];
			rows[i] = row0 + i;
			ttx_matrix_dot_fp_scalar(t2, (const uint32_t (*)[TTX_COLS])a, fa, b[i], fb, phase, style, dst32,
			                         row0 + i);
		}
		ttx_matrix_dot_fp(t1, &op, brows, rows, nrows, fb, phase, style, dst32);
		for (unsigned n = 0; n < 8 * TTX_COLS; n++) {
			unsigned row = row0 + n / TTX_COLS, j = n % TTX_COLS;
			uint32_t x1 = dst32 ? ttx_dst32_get(t1, row, j) : t1->dst[row][j];
			uint32_t x2 = dst32 ? ttx_dst32_get(t2, row, j) : t2->dst[row][j];
			ck_assert_msg(x1 == x2, "iter %u style %d phase %u dst32 %d row %u col %u: 0x%08X, scalar 0x%08X",
			              iter, style, phase, dst32, row - row0, j, x1, x2);
		}
	}
	ttx_tile_destroy(t1);
	ttx_tile_destroy(t2);
}
END_TEST

START_TEST(test_elementwise_simd_matches_scalar)
{
	/* ELWMUL / ELWADD / ELWSUB's 16-lane path against the scalar model over
	   every style (INT8 included), phase, Dst width, AddDst and format code,
	   with operand exponents near each other, far apart and at the ends. */
	static const enum ttx_mstyle styles[4] = { TTX_MSTYLE_BF16, TTX_MSTYLE_FP16, TTX_MSTYLE_TF32, TTX_MSTYLE_INT8 };
	static const unsigned fmts[4] = { TTX_FMT_BF16, TTX_FMT_FP16, TTX_FMT_TF32, TTX_FMT_INT8 };
	struct ttx_tile *t1 = new_tile(), *t2 = new_tile();
	uint64_t seed = 77;
	for (unsigned iter = 0; iter < 20000; iter++) {
		unsigned si = iter % 4, phase = (iter / 4) % 4;
		enum ttx_elw_op eop = (enum ttx_elw_op)((iter / 16) % 3);
		enum ttx_mstyle style = styles[si];
		bool dst32 = style == TTX_MSTYLE_INT8 || ((iter / 48) % 2 && style != TTX_MSTYLE_FP16);
		bool add_dst = (iter / 96) % 4 != 0;
		int range = style == TTX_MSTYLE_FP16 ? 32 : 256;
		int ca = (int)(test_rand(&seed) % (unsigned)range);
		int cb = iter % 3 ? ca : (int)(test_rand(&seed) % (unsigned)range);
		uint32_t a[TTX_COLS], b[TTX_COLS];
		for (unsigned j = 0; j < TTX_COLS; j++) {
			a[j] = random_src(&seed, style, ca);
			b[j] = random_src(&seed, style, cb);
			if (iter % 7 == 0)
				a[j] = (uint32_t)test_rand(&seed) & 0x7FFFF;   /* any bits */
		}
		unsigned row = (unsigned)(test_rand(&seed) % (dst32 ? 512 : 1024));
		for (unsigned j = 0; j < TTX_COLS; j++) {
			uint64_t x = test_rand(&seed);
			if (dst32) {
				uint32_t e = (x >> 40) % 4 ? (uint32_t)(ca + cb - 127 + (int)((x >> 32) % 41) - 20) & 0xFF
				                           : (uint32_t)(x >> 32) & 0xFF;
				uint32_t v = (uint32_t)(x & 0x807FFFFFu) | e << 23;
				if (style == TTX_MSTYLE_INT8 && (x >> 50) % 4 == 0)
					v = (uint32_t)(x >> 8) | 0x7FFFFF00u;    /* near saturation */
				ttx_dst32_set(t1, row, j, ttx_shuffle_fp32(v));
				ttx_dst32_set(t2, row, j, ttx_shuffle_fp32(v));
			} else {
				t1->dst[row][j] = t2->dst[row][j] = (uint16_t)x;
			}
		}
		unsigned fa = iter % 5 ? fmts[si] : (unsigned)(test_rand(&seed) % 16);
		unsigned fb = iter % 5 ? fmts[si] : (unsigned)(test_rand(&seed) % 16);
		ttx_matrix_elementwise(t1, eop, a, b, fa, fb, phase, style, dst32, add_dst, row);
		ttx_matrix_elementwise_scalar(t2, eop, a, b, fa, fb, phase, style, dst32, add_dst, row);
		for (unsigned j = 0; j < TTX_COLS; j++) {
			uint32_t x1 = dst32 ? ttx_dst32_get(t1, row, j) : t1->dst[row][j];
			uint32_t x2 = dst32 ? ttx_dst32_get(t2, row, j) : t2->dst[row][j];
			ck_assert_msg(x1 == x2, "iter %u op %d style %d phase %u dst32 %d add %d col %u: 0x%08X, scalar 0x%08X",
			              iter, eop, style, phase, dst32, add_dst, j, x1, x2);
		}
	}
	ttx_tile_destroy(t1);
	ttx_tile_destroy(t2);
}
END_TEST

START_TEST(test_mvmul_broadcast_row)
{
	struct ttx_tile *t = new_tile();
	int8_mode(t);
	run1(t, W_SETDVALID_AB);
	for (unsigned j = 0; j < 16; j++)
		t->srca[0].rows[j][j] = src_int8(1);   /* identity */
	for (unsigned k = 0; k < 16; k++)
		t->srcb[0].rows[3][k] = src_int8((int)k + 1);
	t->rwc[0].srcb = 3;                         /* not aligned: broadcast uses row 3 */
	for (unsigned ph = 0; ph < 4; ph++) {
		t->rwc[0].fidelity_phase = (uint8_t)ph;
		run1(t, w_mvmul(1, 0));
	}
	/* Rows 0, 2, 4, 6 get the row; 1, 3, 5, 7 untouched (0). */
	for (unsigned i = 0; i < 8; i++)
		for (unsigned j = 0; j < 16; j++)
			ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, i, j)), (i & 1) ? 0 : (int)j + 1);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- GMPOOL ---- */

START_TEST(test_gmpool_max_argmax)
{
	struct ttx_tile *t = new_tile();
	run1(t, W_SETDVALID_AB);
	for (unsigned i = 0; i < 16; i++) {
		t->srcb[0].rows[0][i] = src_bf16(0x3F80);          /* scale 1.0 */
		for (unsigned j = 0; j < 16; j++)
			t->srca[0].rows[i][j] = src_bf16(0xBF80);      /* -1.0 */
	}
	t->srca[0].rows[5][0] = src_bf16(0x4040);              /* 3.0 at row 5 */
	t->srca[0].rows[12][1] = src_bf16(0x4000);             /* 2.0 at row 12 */
	run1(t, OP(0x10) | 3u << 19);            /* ZEROACC all: undefined = -inf */
	run1(t, OP(0x33) | 1u << 14);                          /* GMPOOL ArgMax, Dst row 0 */
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0x4040);
	ck_assert_uint_eq(dst16_bf16(t, 0, 1), 0x4000);
	ck_assert_uint_eq(dst16_bf16(t, 0, 2), 0xBF80);
	for (unsigned r = 1; r < 4; r++)
		ck_assert_uint_eq(t->dst[r][0], 0);
	/* Without ZEROACC, Dst 0 (+0) beats every -1.0. */
	ttx_matrix_dst16_put(t, 4, 2, 0);   /* a defined +0 */
	run1(t, OP(0x33) | 4u);
	ck_assert_uint_eq(dst16_bf16(t, 4, 2), 0x0000);
	ttx_tile_destroy(t);
}
END_TEST

/* ZEROACC marks rows undefined; an SFPSTORE defines them again, so GMPOOL
   then maxes with the stored value, not -inf. */
START_TEST(test_zeroacc_then_sfpstore)
{
	struct ttx_tile *t = new_tile();
	run1(t, W_SETDVALID_AB);
	for (unsigned i = 0; i < 16; i++) {
		t->srcb[0].rows[0][i] = src_bf16(0x3F80);
		for (unsigned j = 0; j < 16; j++)
			t->srca[0].rows[i][j] = src_bf16(0xBF80);      /* -1.0 */
	}
	run1(t, OP(0x10) | 3u << 19);                          /* ZEROACC all */
	uint32_t w;
	char err[128];
	ck_assert_int_eq(ttx_asm_line("SFPLOADI 0, 0, 0xC000", &w, err, sizeof(err)), TTX_OK);   /* -2.0 */
	run1(t, w);
	ck_assert_int_eq(ttx_asm_line("SFPSTORE 0, 2, 0, 0", &w, err, sizeof(err)), TTX_OK);     /* BF16, rows 0-3, even cols */
	run1(t, w);
	run1(t, OP(0x33));                                     /* GMPOOL row 0 */
	ck_assert_uint_eq(dst16_bf16(t, 0, 0), 0xBF80);        /* max(-2 stored, -1) */
	/* (Odd columns: a partial SFPSTORE into an undefined row is undefined
	   behaviour, TC/ZEROACC.md; the model defines the whole row.) */
	/* Row 4 was not stored: still undefined, so GMPOOL there gives -1.0 too,
	   while a stored +0 would win over -1.0. */
	ck_assert_int_eq(ttx_asm_line("SFPLOADI 0, 0, 0x0000", &w, err, sizeof(err)), TTX_OK);
	run1(t, w);
	ck_assert_int_eq(ttx_asm_line("SFPSTORE 0, 2, 0, 8", &w, err, sizeof(err)), TTX_OK);     /* rows 8-11 */
	run1(t, w);
	run1(t, OP(0x33) | 4u);
	run1(t, OP(0x33) | 8u);
	ck_assert_uint_eq(dst16_bf16(t, 4, 0), 0xBF80);
	ck_assert_uint_eq(dst16_bf16(t, 8, 0), 0x0000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_gmpool_argmax_index_32b)
{
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled, 1);
	run1(t, W_SETDVALID_AB);
	for (unsigned i = 0; i < 16; i++)
		t->srcb[0].rows[0][i] = src_bf16(0x3F80);
	/* Max at SrcA row 2: the index transform maps row 2 to 6. */
	t->srca[0].rows[2][0] = src_bf16(0x3F80);
	run1(t, OP(0x10) | 3u << 19);                          /* all rows undefined */
	run1(t, OP(0x33) | 1u << 14);
	/* IndexPhase = (0xFFFFFFFF + 0x100) & 0xF00 = 0; BF16 high bits 1.0 with
	   index 6 in the low byte. */
	ck_assert_uint_eq(ttx_dst32_get(t, 0, 0), (0x007Fu << 16) | 6u);
	/* The other three rows: (old + 0x100) & 0xF00 = 0 for undefined rows. */
	ck_assert_uint_eq(ttx_dst32_get(t, 1, 0), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- Data movement ---- */

START_TEST(test_moves_bf16)
{
	struct ttx_tile *t = new_tile();
	run1(t, W_SETDVALID_AB);
	/* Dst16b BF16 1.5 (Man 0x40, Exp 0x7F) at row 3 col 2; MOVD2A row 3 -> SrcA 10. */
	t->dst[3][2] = 0x407F;
	run1(t, OP(0x08) | 10u << 17 | 3u);
	ck_assert_uint_eq(t->srca[0].rows[10][2], src_bf16(0x3FC0));
	/* MOVD2B 4 rows from Dst 0..3 to SrcB 4..7. */
	run1(t, OP(0x0A) | 4u << 17 | 2u << 12 | 1u);
	ck_assert_uint_eq(t->srcb[0].rows[7][2], src_bf16(0x3FC0));
	/* MOVB2D BroadcastCol0 + Broadcast1RowTo8 from SrcB 7 to Dst 16..23. */
	t->srcb[0].rows[7][0] = src_bf16(0xC000);
	run1(t, OP(0x13) | 7u << 17 | 3u << 12 | 16u);
	for (unsigned r = 16; r < 24; r++)
		ck_assert_uint_eq(dst16_bf16(t, r, 9), 0xC000);
	/* MOVA2D 8 rows, SrcA 8..15 -> Dst 40..47; a denormal flushes to 0. */
	t->srca[0].rows[9][4] = (0x55u << 8);                  /* exp 0 */
	run1(t, OP(0x12) | 8u << 17 | 2u << 12 | 40u);
	ck_assert_uint_eq(dst16_bf16(t, 42, 2), 0x3FC0);
	ck_assert_uint_eq(t->dst[41][4], 0);
	/* MOVB2A: SrcB 7 -> SrcA 20 (BF16 format drops the low mantissa bits). */
	t->srcb[0].rows[7][1] = src_bf16(0x3F81) | (7u << 8);
	run1(t, OP(0x0B) | 20u << 17 | 7u);
	ck_assert_uint_eq(t->srca[0].rows[20][1], src_bf16(0x3F81));
	/* BLOCK_DEST_MOV (LaneConfig[0] bit 9): column 0 not written. */
	t->sfpu.lane_config[0] |= 1u << 9;
	t->dst[60][0] = 0x1234;
	run1(t, OP(0x12) | 60u);
	ck_assert_uint_eq(t->dst[60][0], 0x1234);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_moves_tf32_32b)
{
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_TF32);
	ttx_cfg_set(t, 0, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled, 1);
	run1(t, W_SETDVALID_AB);
	/* FP32 1 + 2^-10 + 2^-20 in Dst32b row 5: MOVD2A keeps 10 mantissa bits. */
	ttx_dst32_set(t, 5, 0, ttx_shuffle_fp32(0x3F802008u));
	run1(t, OP(0x08) | 5u);
	ck_assert_uint_eq(t->srca[0].rows[0][0], (0x001u << 8) | 0x7F);
	/* MOVA2D back: TF32 into Dst32b with the 13 low bits zero. */
	run1(t, OP(0x12) | 6u);
	ck_assert_uint_eq(dst_fp32(t, 6, 0), 0x3F802000u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_src_ops)
{
	struct ttx_tile *t = new_tile();
	run1(t, W_SETDVALID_AB);
	for (unsigned i = 0; i < 16; i++)
		for (unsigned j = 0; j < 16; j++)
			t->srcb[0].rows[16 + i][j] = i * 16 + j;
	run1(t, OP(0x16));                                     /* TRNSPSRCB */
	ck_assert_uint_eq(t->srcb[0].rows[16 + 2][5], 5 * 16 + 2);
	ck_assert_uint_eq(t->srcb[0].rows[16 + 7][7], 7 * 16 + 7);
	/* SHIFTXB rotate row 16 (SrcRow 16) left: column 14 keeps its value. */
	uint32_t before[16];
	memcpy(before, t->srcb[0].rows[16], sizeof(before));
	run1(t, OP(0x18) | 16u);
	ck_assert_uint_eq(t->srcb[0].rows[16][0], before[1]);
	ck_assert_uint_eq(t->srcb[0].rows[16][13], before[14]);
	ck_assert_uint_eq(t->srcb[0].rows[16][14], before[14]);
	ck_assert_uint_eq(t->srcb[0].rows[16][15], before[0]);
	run1(t, OP(0x18) | 1u << 10 | 16u);                    /* ShiftInZero */
	ck_assert_uint_eq(t->srcb[0].rows[16][15], 0);
	/* SHIFTXA right: input block from the last SrcA row address (MOVD2A to
	   row 32 sets it to 32), output rows 0..15. */
	for (unsigned i = 0; i < 16; i++)
		for (unsigned j = 0; j < 16; j++)
			t->srca[0].rows[32 + i][j] = 100 + j;
	run1(t, OP(0x08) | 40u << 17 | 500u);                  /* MOVD2A -> SrcA row 40 */
	for (unsigned j = 0; j < 16; j++)
		t->srca[0].rows[40][j] = 100 + j;
	run1(t, OP(0x17) | 2u);
	ck_assert_uint_eq(t->srca[0].rows[5][0], 0);
	ck_assert_uint_eq(t->srca[0].rows[5][1], 100);
	ck_assert_uint_eq(t->srca[0].rows[5][15], 114);
	run_fault(t, OP(0x17), "Direction 0");
	ttx_tile_destroy(t);
	/* ZEROSRC: SrcA both banks to -inf (all ones), SrcB unpacker bank only. */
	t = new_tile();
	t->srcb[0].rows[1][1] = 5;
	t->srcb[1].rows[1][1] = 5;
	run1(t, OP(0x11) | 1u << 4 | 1u << 2 | 1u);
	ck_assert_uint_eq(t->srca[1].rows[63][15], 0x7FFFF);
	run1(t, OP(0x11) | 2u);
	ck_assert_uint_eq(t->srcb[0].rows[1][1], 0);
	ck_assert_uint_eq(t->srcb[1].rows[1][1], 5);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_zeroacc_modes)
{
	struct ttx_tile *t = new_tile();
	for (unsigned r = 0; r < 1024; r++)
		t->dst[r][3] = 0xAAAA;
	run1(t, OP(0x10) | 5u);                                /* one row (16-bit): row 5 */
	ck_assert_uint_eq(t->dst[5][3], 0);
	ck_assert_uint_eq(t->dst[6][3], 0xAAAA);
	run1(t, OP(0x10) | 1u << 19 | 2u);                     /* 16 rows: 32..47 */
	ck_assert_uint_eq(t->dst[31][3], 0xAAAA);
	ck_assert_uint_eq(t->dst[32][3], 0);
	ck_assert_uint_eq(t->dst[47][3], 0);
	ck_assert_uint_eq(t->dst[48][3], 0xAAAA);
	run1(t, OP(0x10) | 1u << 21 | 1u << 19 | 1u);          /* 16 Dst32b rows 16..31 */
	ck_assert_uint_eq(t->dst[ttx_dst32_adj_row(16)][3], 0);
	ck_assert_uint_eq(t->dst[ttx_dst32_adj_row(31) + 8][3], 0);
	run1(t, OP(0x10) | 2u << 19 | 1u);                     /* high half */
	ck_assert_uint_eq(t->dst[511][3], 0xAAAA);
	ck_assert_uint_eq(t->dst[512][3], 0);
	ck_assert_uint_eq(t->dst[1023][3], 0);
	run_fault(t, OP(0x10) | 3u << 19 | 1u << 18, "Revert");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst_addressing)
{
	struct ttx_tile *t = new_tile();
	int8_mode(t);
	run1(t, W_SETDVALID_AB);
	t->srca[0].rows[0][0] = src_int8(1);
	t->srcb[0].rows[0][0] = src_int8(9);
	/* DstRow 8 + MATH_Offset 16 + RWC Dst 8 + DEST_REGW_BASE 32 = 64. */
	ttx_thread_cfg_set(t, 0, TTX_THCFG_DEST_TARGET_REG_CFG_MATH_Offset, 16);
	ttx_cfg_set(t, 0, TTX_CFG_DEST_REGW_BASE_Base, 32);
	t->rwc[0].dst = 8;
	/* FIDELITY_BASE 3 + RWC phase 0: phase 3 reads the low bits (1 * 9). */
	ttx_thread_cfg_set(t, 0, TTX_THCFG_FIDELITY_BASE_Phase, 3);
	run1(t, w_mvmul(0, 8));
	ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, 64, 0)), 9);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_undocumented_fail_loudly)
{
	struct ttx_tile *t = new_tile();
	run_fault(t, OP(0x15), "RAREB");
	ttx_tile_destroy(t);
	t = new_tile();
	run_fault(t, OP(0x4B), "undocumented instruction TBUFCMD");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- A 32x32x32 tile matmul, LLK style ---- */

/* C = A @ B with A, B 32x32 in four 16x16 faces.  SrcB holds A's faces
   (face f = 2 * fi + fk at rows 16 f), SrcA holds B's faces (same layout);
   output face (fi, fj) is Dst rows 16 (2 fi + fj) .. + 15, two MVMULs of 8
   rows per (fi, fj, fk): 16 MVMULs per fidelity phase. */
static void tile_matmul(struct ttx_tile *t, const unsigned *phases, unsigned nphases)
{
	for (unsigned p = 0; p < nphases; p++) {
		t->rwc[0].fidelity_phase = (uint8_t)phases[p];
		for (unsigned fi = 0; fi < 2; fi++)
			for (unsigned fj = 0; fj < 2; fj++)
				for (unsigned fk = 0; fk < 2; fk++)
					for (unsigned half = 0; half < 2; half++) {
						t->rwc[0].srca = (uint8_t)(16 * (2 * fk + fj));
						t->rwc[0].srcb = (uint8_t)(16 * (2 * fi + fk) + 8 * half);
						t->rwc[0].dst = 0;
						run1(t, w_mvmul(0, 16 * (2 * fi + fj) + 8 * half));
					}
	}
}

static void load_faces(uint32_t (*rows)[TTX_COLS], const uint32_t m[32][32])
{
	for (unsigned r = 0; r < 32; r++)
		for (unsigned c = 0; c < 32; c++)
			rows[16 * (2 * (r / 16) + c / 16) + r % 16][c % 16] = m[r][c];
}

START_TEST(test_tile_matmul_int8)
{
	struct ttx_tile *t = new_tile();
	int8_mode(t);
	run1(t, W_SETDVALID_AB);
	static uint32_t a[32][32], b[32][32];
	int av[32][32], bv[32][32];
	uint64_t seed = 42;
	for (unsigned r = 0; r < 32; r++)
		for (unsigned c = 0; c < 32; c++) {
			av[r][c] = (int)(test_rand(&seed) % 2047) - 1023;   /* SrcB: +-1023 */
			bv[r][c] = (int)(test_rand(&seed) % 511) - 255;     /* SrcA: +-255 */
			a[r][c] = src_int8(av[r][c]);
			b[r][c] = src_int8(bv[r][c]);
		}
	load_faces(t->srcb[0].rows, a);
	load_faces(t->srca[0].rows, b);
	static const unsigned all[4] = {0, 1, 2, 3};
	tile_matmul(t, all, 4);
	for (unsigned r = 0; r < 32; r++)
		for (unsigned c = 0; c < 32; c++) {
			int32_t want = 0;
			for (unsigned k = 0; k < 32; k++)
				want += av[r][k] * bv[k][c];
			unsigned row = 16 * (2 * (r / 16) + c / 16) + r % 16;
			ck_assert_int_eq(ttx_dst_decode_int32(ttx_dst32_get(t, row, c % 16)), want);
		}
	ttx_tile_destroy(t);
}
END_TEST

/* Floating point: FP32 Dst.  A Src operand x whose significand has S bits
   (BF16 8, FP16 11) loses, per the fidelity masks (TC/SrcASrcB.md):
     SrcA: phases {0}: all but the top 5 bits -> |err| < 2^-4 |x|;
           {0,1}: BF16 exact, FP16 all but 10 bits -> < 2^-10 |x|.
     SrcB: phases 0/1 read the top 7 bits -> < 2^-6 |x|; with 2/3 exact.
   HiFi3 (0,1,2) misses only SrcA's low part times SrcB's low part:
   |err| < 2^-4 |a| * 2^-6 |b| (plus FP16's unread SrcA bit).  A product's
   relative error is then at most eA + eB + eA eB, and the result
   |C - C_exact| <= e_prod * sum_k |a_k b_k| + one rounding of 2^-24 per
   MVMUL into FP32 Dst (2 per phase), each of at most sum_k |a_k b_k|,
   + the accumulator (interp/matrix_fp.c): each of the 16 products is
   rounded to 2^(Rh - 10) with 2^Rh <= max_k |a_k b_k| (at most 2^-11 M,
   M = max_k |a_k b_k|), each half sum and Dst to 2^(R - 23) (2^-24 M or
   2^-24 |Dst| each): per MVMUL 16 * 2^-11 M + 3 * 2^-24 sum_k |a_k b_k|. */
static void tile_matmul_fp(bool fp16, unsigned fidelity)
{
	static const unsigned phases[4] = {0, 1, 2, 3};
	double ea, eb, ecross = 0;
	switch (fidelity) {
	case 1: ea = ldexp(1, -4); eb = ldexp(1, -6); break;                            /* LoFi */
	case 2: ea = fp16 ? ldexp(1, -10) : 0; eb = ldexp(1, -6); break;                /* HiFi2 */
	case 3: ea = fp16 ? ldexp(1, -10) : 0; eb = 0; ecross = ldexp(1, -10); break;   /* HiFi3 */
	default: ea = fp16 ? ldexp(1, -10) : 0; eb = 0; break;                          /* HiFi4 */
	}
	double eprod = ea + eb + ea * eb + ecross;
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled, 1);
	if (fp16) {
		ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_FP16);
		ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_FP16);
	} else {
		ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA, TTX_FMT_BF16);
		ttx_cfg_set(t, 0, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB, TTX_FMT_BF16);
	}
	run1(t, W_SETDVALID_AB);
	static uint32_t a[32][32], b[32][32];
	static double av[32][32], bv[32][32];
	uint64_t seed = fidelity * 7 + fp16;
	for (unsigned r = 0; r < 32; r++)
		for (unsigned c = 0; c < 32; c++) {
			/* Random sign, exponent in [-4, 3], full random mantissa. */
			for (int which = 0; which < 2; which++) {
				uint64_t x = test_rand(&seed);
				int sign = (int)(x & 1), e = (int)((x >> 1) % 8) - 4;
				uint16_t h;
				double v;
				if (fp16) {
					unsigned m = (unsigned)(x >> 8) & 0x3FF;
					h = (uint16_t)(sign << 15 | (unsigned)(e + 15) << 10 | m);
					v = ldexp(1 + m / 1024.0, e);
				} else {
					unsigned m = (unsigned)(x >> 8) & 0x7F;
					h = (uint16_t)(sign << 15 | (unsigned)(e + 127) << 7 | m);
					v = ldexp(1 + m / 128.0, e);
				}
				if (sign)
					v = -v;
				uint32_t s = fp16 ? src_fp16(h) : src_bf16(h);
				if (which == 0)
					a[r][c] = s, av[r][c] = v;
				else
					b[r][c] = s, bv[r][c] = v;
			}
		}
	load_faces(t->srcb[0].rows, a);
	load_faces(t->srca[0].rows, b);
	tile_matmul(t, phases, fidelity);
	double worst = 0;
	for (unsigned r = 0; r < 32; r++)
		for (unsigned c = 0; c < 32; c++) {
			double exact = 0, mag = 0, big = 0;
			for (unsigned k = 0; k < 32; k++) {
				exact += av[r][k] * bv[k][c];
				mag += fabs(av[r][k] * bv[k][c]);
				big = fmax(big, fabs(av[r][k] * bv[k][c]));
			}
			unsigned row = 16 * (2 * (r / 16) + c / 16) + r % 16;
			uint32_t bits = dst_fp32(t, row, c % 16);
			float got;
			memcpy(&got, &bits, sizeof(got));
			double bound = eprod * mag + 2 * fidelity * ldexp(mag, -24)
			               + 2 * fidelity * (16 * ldexp(big, -11) + 3 * ldexp(mag, -24));
			double err = fabs((double)got - exact);
			ck_assert_msg(err <= bound, "fidelity %u %s C[%u][%u] = %.9g, exact %.9g, bound %.3g",
			              fidelity, fp16 ? "FP16" : "BF16", r, c, (double)got, exact, bound);
			if (bound > 0 && err / bound > worst)
				worst = err / bound;
		}
	/* The bound is not vacuous below HiFi4: some element uses a fair part of it. */
	if (fidelity <= 2)
		ck_assert_msg(worst > 0.01, "fidelity %u: worst error only %.3g of the bound", fidelity, worst);
	ttx_tile_destroy(t);
}

START_TEST(test_tile_matmul_fp)
{
	for (unsigned fid = 1; fid <= 4; fid++) {
		tile_matmul_fp(false, fid);
		tile_matmul_fp(true, fid);
	}
}
END_TEST

/* C = A B through ttx_op_run for small integers (exact in BF16 and in the
   sums), against the host's product. */
static void op_matmul_check(struct ttx_tile *t, size_t m, size_t k, size_t n, int seed)
{
	float *a = malloc(m * k * sizeof(float)), *b = malloc(k * n * sizeof(float)), *c = malloc(m * n * sizeof(float));
	for (size_t i = 0; i < m * k; i++)
		a[i] = (float)((int)((i * 7 + (size_t)seed) % 9) - 4);
	for (size_t i = 0; i < k * n; i++)
		b[i] = (float)((int)((i * 5 + 3 * (size_t)seed) % 7) - 3);
	struct ttx_tensor in[2] = { { a, 1, m, k }, { b, 1, k, n } }, out = { c, 1, m, n };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	char err[256];
	ck_assert_msg(ttx_op_run(t, "matmul", in, 2, &p, &out, err, sizeof(err)) == TTX_OK, "%s", err);
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++) {
			float want = 0;
			for (size_t q = 0; q < k; q++)
				want += a[i * k + q] * b[q * n + j];
			ck_assert_msg(c[i * n + j] == want, "%zux%zux%zu seed %d (%zu, %zu): %g, want %g", m, k, n, seed, i, j,
			              (double)c[i * n + j], (double)want);
		}
	free(a), free(b), free(c);
}

START_TEST(test_op_kernel_cache)
{
	/* One tile, ops of alternating shapes and data: the kernels the tile
	   keeps from one op (app/ops.c get_kernel) serve the next only where
	   the shape, and so every symbol, is the same; more shapes than the
	   cache holds evict the oldest. */
	struct ttx_tile *t = new_tile();
	for (int round = 0; round < 2; round++)
		for (size_t shape = 0; shape < 10; shape++)
			op_matmul_check(t, 32 * (1 + shape % 3), 32 * (1 + shape % 4), 32 * (1 + shape / 4), (int)shape + round);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = test_tcase(s, "rwc");
	tcase_add_test(tc, test_setrwc_incrwc);
	tcase_add_test(tc, test_dvalid_ownership);
	tcase_add_test(tc, test_dst_addressing);
	tc = test_tcase(s, "int8");
	tcase_add_test(tc, test_mvmul_int8_exact);
	tcase_add_test(tc, test_int8_phase_masks);
	tcase_add_test(tc, test_int8_saturation);
	tcase_add_test(tc, test_elw_int8);
	tcase_add_test(tc, test_mvmul_broadcast_row);
	tc = test_tcase(s, "fp");
	tcase_set_timeout(tc, getenv("TTX_LONG_TESTS") ? 3600 : 60);
	tcase_add_test(tc, test_fp_rounding_edges);
	tcase_add_test(tc, test_elwmul_bf16);
	tcase_add_test(tc, test_elwadd_phase_divide);
	tcase_add_test(tc, test_fp_halves);
	tcase_add_test(tc, test_fp_dst_grid);
	tcase_add_test(tc, test_fp_overflow_and_minus_one);
	tcase_add_test(tc, test_fp16_product_flush);
	tcase_add_test(tc, test_elwadd_dst_grid);
	tcase_add_test(tc, test_elwsub_fp32_half_up);
	tcase_add_test(tc, test_fp_simd_matches_scalar);
	tcase_add_test(tc, test_elementwise_simd_matches_scalar);
	tc = test_tcase(s, "gmpool");
	tcase_add_test(tc, test_gmpool_max_argmax);
	tcase_add_test(tc, test_gmpool_argmax_index_32b);
	tcase_add_test(tc, test_zeroacc_then_sfpstore);
	tc = test_tcase(s, "move");
	tcase_add_test(tc, test_moves_bf16);
	tcase_add_test(tc, test_moves_tf32_32b);
	tcase_add_test(tc, test_src_ops);
	tcase_add_test(tc, test_zeroacc_modes);
	tcase_add_test(tc, test_undocumented_fail_loudly);
	tc = test_tcase(s, "tile");
	tcase_add_test(tc, test_tile_matmul_int8);
	tcase_add_test(tc, test_tile_matmul_fp);
	tcase_add_test(tc, test_op_kernel_cache);
	return test_run_suite(s);
}
