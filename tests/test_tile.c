/* Tile state, host access, the RISC-V view (MMIO), the run loop, programs and
 * many tiles at once (src/tile.c, src/run.c, interp/exec.c).  Every expected
 * value is derived by hand from the ISA documentation
 * (/work/shared/reference/tt-isa-documentation/WormholeB0, cited as TT/ and
 * TC/ = TensixTile/TensixCoprocessor/) or from the reset state of the
 * reference vectors (vectors/README.md); the derivation is in the comments. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include <json.h>

#include "tile.h"
#include "util.h"

#define NOP 0x02000000u                 /* TC/NOP.md: opcode 0x02, no operands */
#define SFPNOP(x) (0x8F000000u | (x))    /* SFPNOP opcode 0x8F; low bits as markers */
#define CFG_BASE 0xFFEF0000u             /* TENSIX_CFG_BASE (TT/BabyRISCV/README.md) */
#define THCFG_BASE (CFG_BASE + 2u * 188u * 4u) /* after Config[2][188]: 0xFFEF05E0 */

static struct ttx_tile *new_tile(void)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}

/* ------------------------------------------------------------------------ */
/* Reset state                                                              */
/* ------------------------------------------------------------------------ */

/* vectors/README.md "Initial state the cases assume": LReg 8 = 0x3F56594B
   (0.8373, TC/LReg.md), 9 = 0, 10 = 0x3F800000 (1.0), 11 = 0xBF800000 (-1.0),
   12 = 0x3B000000 (1/512), 13 = 0xBF2CC4C7, 14 = 0xBEB08FF9, 15 = 2 * lane
   (TC/LReg.md "lane i contains i*2"); LReg 0-7 and 16 are not listed: zero. */
static uint32_t reset_lreg(unsigned reg, unsigned lane)
{
	static const uint32_t k[8] = {
		0x3F56594B, 0x00000000, 0x3F800000, 0xBF800000,
		0x3B000000, 0xBF2CC4C7, 0xBEB08FF9, 0,
	};
	if (reg == 15)
		return 2 * lane;
	if (reg >= 8 && reg <= 14)
		return k[reg - 8];
	return 0;
}

static void check_reset_state(struct ttx_tile *t)
{
	uint32_t l[TTX_LANES], v;
	uint16_t h;

	for (unsigned r = 0; r < TTX_LREGS; r++) {
		ck_assert_int_eq(ttx_lreg_read(t, r, l), TTX_OK);
		for (unsigned lane = 0; lane < TTX_LANES; lane++)
			ck_assert_msg(l[lane] == reset_lreg(r, lane), "LReg %u lane %u = 0x%08X, expected 0x%08X",
			              r, lane, l[lane], reset_lreg(r, lane));
	}

	/* "Dst all zero" */
	static uint16_t d[TTX_DST_ROWS16][TTX_COLS];
	memset(d, 0xAA, sizeof(d));
	ttx_dst16_read(t, &d[0][0]);
	for (unsigned r = 0; r < TTX_DST_ROWS16; r++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			ck_assert_msg(d[r][c] == 0, "Dst16[%u][%u] = 0x%04X", r, c, d[r][c]);

	/* "Config and ThreadConfig all zero" */
	for (unsigned b = 0; b < 2; b++)
		for (unsigned w = 0; w < TTX_CFG_WORDS; w++) {
			ck_assert_int_eq(ttx_cfg_read(t, b, w, &v), TTX_OK);
			ck_assert_msg(v == 0, "Config[%u][%u] = 0x%08X", b, w, v);
		}
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_THREAD_CFG_WORDS; i++) {
			ck_assert_int_eq(ttx_thread_cfg_read(t, th, i, &h), TTX_OK);
			ck_assert_msg(h == 0, "ThreadConfig[%u][%u] = 0x%04X", th, i, h);
		}

	/* GPRs, semaphores, RWCs, MOP config zero; mutexes free (docs/state.md). */
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_GPRS; i++) {
			ck_assert_int_eq(ttx_gpr_read(t, th, i, &v), TTX_OK);
			ck_assert_msg(v == 0, "GPR[%u][%u] = 0x%08X", th, i, v);
		}
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(t->semaphores[i].value, 0);
		ck_assert_uint_eq(t->semaphores[i].max, 0);
		ck_assert_int_eq(ttx_mmio_read(t, 0, 0xFFE80020u + 4 * i, &v), TTX_OK);
		ck_assert_uint_eq(v, 0);
	}
	for (unsigned i = 0; i < 8; i++)
		ck_assert_int_eq(t->mutex_owner[i], -1);
	for (unsigned th = 0; th < TTX_THREADS; th++) {
		ck_assert_uint_eq(t->rwc[th].dst, 0);
		ck_assert_uint_eq(t->rwc[th].srca, 0);
		ck_assert_uint_eq(t->rwc[th].srcb, 0);
		ck_assert_uint_eq(t->rwc[th].fidelity_phase, 0);
		for (unsigned i = 0; i < 9; i++)
			ck_assert_uint_eq(t->mop[th].cfg[i], 0);
	}

	/* Reference reset predication: conditional execution enabled, every
	   lane flag set (vectors/README.md, departure 4); flag stack empty,
	   LaneConfig 0, PRNG state 0 in every lane. */
	ck_assert_uint_eq(t->sfpu.lane_flags, 0xFFFFFFFFu);
	ck_assert_uint_eq(t->sfpu.use_lane_flags, 0xFFFFFFFFu);
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		ck_assert_uint_eq(t->sfpu.flag_stack_size[lane], 0);
		ck_assert_uint_eq(t->sfpu.lane_config[lane], 0);
		ck_assert_uint_eq(t->sfpu.prng[lane], 0);
	}
	ck_assert_uint_eq(t->sfpu.nsched, 0);

	/* Wait gates: none latched (src/tile.h). */
	for (unsigned th = 0; th < TTX_THREADS; th++)
		ck_assert_uint_eq(t->wait_gate[th].opcode, 0);

	/* L1 zero; no work queued; statistics zero. */
	static uint8_t zero[4096], buf[4096];
	for (uint32_t a = 0; a < TTX_L1_SIZE; a += sizeof(buf)) {
		ck_assert_int_eq(ttx_l1_read(t, a, buf, sizeof(buf)), TTX_OK);
		ck_assert_msg(memcmp(buf, zero, sizeof(buf)) == 0, "L1 not zero near 0x%X", a);
	}
	for (unsigned th = 0; th < TTX_THREADS; th++) {
		struct ttx_thread_state s;
		ttx_thread_state(t, th, &s);
		ck_assert_int_eq(s.pending, 0);
		ck_assert_int_eq(s.blocked, 0);
	}
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 0);
	for (unsigned th = 0; th < TTX_THREADS; th++)
		ck_assert_uint_eq(st.insns_by_thread[th], 0);
	ck_assert_str_eq(ttx_tile_error(t), "");
}

START_TEST(test_reset_lregs)
{
	struct ttx_tile *t = new_tile();
	uint32_t l[TTX_LANES];
	/* Spot values straight from vectors/README.md, all lanes. */
	ck_assert_int_eq(ttx_lreg_read(t, 8, l), TTX_OK);
	for (unsigned i = 0; i < TTX_LANES; i++)
		ck_assert_uint_eq(l[i], 0x3F56594B);
	ck_assert_int_eq(ttx_lreg_read(t, 12, l), TTX_OK);
	for (unsigned i = 0; i < TTX_LANES; i++)
		ck_assert_uint_eq(l[i], 0x3B000000);
	ck_assert_int_eq(ttx_lreg_read(t, 15, l), TTX_OK);
	ck_assert_uint_eq(l[0], 0);
	ck_assert_uint_eq(l[1], 2);
	ck_assert_uint_eq(l[31], 62);
	for (unsigned r = 0; r < TTX_LREGS; r++) {
		ck_assert_int_eq(ttx_lreg_read(t, r, l), TTX_OK);
		for (unsigned lane = 0; lane < TTX_LANES; lane++)
			ck_assert_msg(l[lane] == reset_lreg(r, lane), "LReg %u lane %u = 0x%08X", r, lane, l[lane]);
	}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reset_state)
{
	struct ttx_tile *t = new_tile();
	check_reset_state(t);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reset_null_options)
{
	/* ttx_tile_new(NULL) is a valid call and gives the same power-on state. */
	struct ttx_tile *t = ttx_tile_new(NULL);
	ck_assert_ptr_nonnull(t);
	check_reset_state(t);
	ttx_tile_destroy(t);
	ttx_tile_destroy(NULL);   /* no-op */
}
END_TEST

START_TEST(test_tile_create_validates)
{
	/* Options the library cannot honour are refused with the reason; the
	   size field admits older (smaller) option structs, not newer ones. */
	struct ttx_tile *t = (struct ttx_tile *)&t;
	char err[256];
	struct ttx_options o = { .engine = (enum ttx_engine)99 };
	ck_assert_int_eq(ttx_tile_create(&o, &t, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(err, "engine 99 is not an engine (TTX_ENGINE_INTERP, _JIT or _AUTO)");
	ck_assert_ptr_null(ttx_tile_new(&o));
	o = (struct ttx_options){ .numerics = (enum ttx_numerics)7 };
	ck_assert_int_eq(ttx_tile_create(&o, &t, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "numerics 7 is not a mode"));
	o = (struct ttx_options){ .size = sizeof(o) + 8 };
	ck_assert_int_eq(ttx_tile_create(&o, &t, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "older than the ttx.h"));
	o = (struct ttx_options){ .engine = TTX_ENGINE_JIT };
	enum ttx_status st = ttx_tile_create(&o, &t, err, sizeof(err));
	if (ttx_jit_available()) {
		ck_assert_int_eq(st, TTX_OK);
		ttx_tile_destroy(t);
	} else {
		ck_assert_int_eq(st, TTX_EINVAL);
		ck_assert_ptr_nonnull(strstr(err, "no JIT compiler"));
	}
	ck_assert_int_eq(ttx_tile_create(NULL, NULL, err, sizeof(err)), TTX_EINVAL);
	/* an older header's options: the size of its fields, the rest 0 */
	o = (struct ttx_options){ .size = offsetof(struct ttx_options, strict), .engine = TTX_ENGINE_INTERP,
	                          .strict = 1 };
	ck_assert_int_eq(ttx_tile_create(&o, &t, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(t->opt.strict, 0);
	ck_assert_int_eq(t->opt.engine, TTX_ENGINE_INTERP);
	ttx_tile_destroy(t);
	/* the units are public, by name */
	ck_assert_str_eq(ttx_unit_name(TTX_UNIT_SFPU), "sfpu");
	ck_assert_str_eq(ttx_unit_name(TTX_UNIT_FRONTEND), "frontend");
	ck_assert_str_eq(ttx_unit_name(TTX_UNIT_COUNT), "?");
}
END_TEST

START_TEST(test_null_handles)
{
	/* NULL tiles and NULL buffers give TTX_EINVAL (with a message where there
	   is a tile to hold it), never a crash; the void calls do nothing. */
	uint32_t v, lanes[TTX_LANES];
	uint16_t h;
	uint8_t b[4];
	ck_assert_int_eq(ttx_l1_read(NULL, 0, b, 4), TTX_EINVAL);
	ck_assert_int_eq(ttx_l1_write(NULL, 0, b, 4), TTX_EINVAL);
	ck_assert_int_eq(ttx_lreg_read(NULL, 0, lanes), TTX_EINVAL);
	ck_assert_int_eq(ttx_gpr_read(NULL, 0, 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_read(NULL, 0, 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_thread_cfg_read(NULL, 0, 0, &h), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_field_read(NULL, "x", 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(NULL, 0, 0, 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_push(NULL, 0, 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_run(NULL, 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_run_until_stalled(NULL, 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_program_run(NULL, NULL, 0), TTX_EINVAL);
	ck_assert_str_eq(ttx_tile_error(NULL), "no tile (NULL)");
	char err[64];
	ck_assert_int_eq(ttx_op_run(NULL, "matmul", NULL, 0, NULL, NULL, err, sizeof(err)), TTX_EINVAL);
	ck_assert_str_eq(err, "the tile is NULL");
	ck_assert_int_eq(ttx_op_run(NULL, "matmul", NULL, 0, NULL, NULL, NULL, 0), TTX_EINVAL);
	ttx_dst32_read(NULL, NULL);
	ttx_tile_reset(NULL);
	struct ttx_stats st;
	ttx_stats_get(NULL, &st);
	struct ttx_thread_state ts;
	ttx_thread_state(NULL, 0, &ts);
	ck_assert_int_eq(ts.pending, 0);
	struct ttx_tile *t = ttx_tile_new(NULL);
	ck_assert_int_eq(ttx_l1_read(t, 0, NULL, 4), TTX_EINVAL);
	ck_assert_str_eq(ttx_tile_error(t), "ttx_l1_read: buf is NULL");
	ck_assert_int_eq(ttx_cfg_field_read(t, NULL, 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_program_run(t, NULL, 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_gpr_read(t, 3, 0, &v), TTX_EINVAL);   /* thread out of range */
	ttx_dst16_write(t, NULL);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reset_restores)
{
	struct ttx_tile *t = new_tile();
	uint32_t l[TTX_LANES];
	static uint16_t d[TTX_DST_ROWS16][TTX_COLS];

	/* Dirty every piece of state the host can reach. */
	uint8_t bytes[4] = { 1, 2, 3, 4 };
	ck_assert_int_eq(ttx_l1_write(t, 0, bytes, 4), TTX_OK);
	ck_assert_int_eq(ttx_l1_write(t, TTX_L1_SIZE - 1, bytes, 1), TTX_OK);
	memset(d, 0x5A, sizeof(d));
	ttx_dst16_write(t, &d[0][0]);
	for (unsigned i = 0; i < TTX_LANES; i++)
		l[i] = 0x12345678u + i;
	for (unsigned r = 0; r < TTX_LREGS; r++)
		ck_assert_int_eq(ttx_lreg_write(t, r, l), TTX_OK);
	ck_assert_int_eq(ttx_cfg_write(t, 0, 1, 0xFFFFFFFFu), TTX_OK);
	ck_assert_int_eq(ttx_cfg_write(t, 1, 187, 0xFFFFFFFFu), TTX_OK);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 2, 56, 0xFFFF), TTX_OK);
	ck_assert_int_eq(ttx_gpr_write(t, 1, 63, 0xCAFEF00D), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFE80020u + 4 * 7, 0), TTX_OK);   /* post sem 7 */
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFB80000u + 4 * 8, 0x8F000001u), TTX_OK);
	t->sfpu.lane_flags = 0x1234;
	t->sfpu.use_lane_flags = 0;
	t->sfpu.prng[3] = 77;
	t->rwc[1].dst = 100;
	t->wait_gate[2].opcode = 0x25;
	ck_assert_int_eq(ttx_push(t, 0, NOP), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 1, NOP), TTX_OK);   /* left queued */
	ck_assert_int_eq(ttx_lreg_read(t, 99, l), TTX_EINVAL);   /* sets an error message */

	ttx_tile_reset(t);
	check_reset_state(t);
	/* The reset tile still works. */
	ck_assert_int_eq(ttx_push(t, 1, NOP), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reset_restores_unit_state)
{
	/* src/tile.h documents Unpackers[0/1]::SrcRow[thread] (set by SETDVALID
	   and UNPACR, TC/SETDVALID.md) and the Scalar Unit busy owner as "reset 0":
	   ttx_tile_reset must clear them after use, not only ttx_tile_new. */
	struct ttx_tile *t = new_tile();
	ck_assert_uint_eq(t->unpacker_src_row[1][2], 0);
	ck_assert_uint_eq(t->scalar_busy, 0);
	t->unpacker_src_row[0][1] = 16;
	t->unpacker_src_row[1][2] = 48;
	t->scalar_busy = 2;   /* thread 1 spinning in an ATCAS */
	ttx_tile_reset(t);
	ck_assert_msg(t->unpacker_src_row[0][1] == 0 && t->unpacker_src_row[1][2] == 0 && t->scalar_busy == 0,
	              "after reset: unpacker_src_row[0][1] = %u, [1][2] = %u, scalar_busy = %u",
	              t->unpacker_src_row[0][1], t->unpacker_src_row[1][2], t->scalar_busy);
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* L1                                                                       */
/* ------------------------------------------------------------------------ */

START_TEST(test_l1_first_and_last_byte)
{
	struct ttx_tile *t = new_tile();
	/* TT/L1.md: 1464 KiB = 0x16E000 bytes, addresses 0 .. 0x16DFFF. */
	ck_assert_uint_eq(TTX_L1_SIZE, 0x16E000u);
	uint8_t w[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 }, r[8];
	ck_assert_int_eq(ttx_l1_write(t, 0, w, 8), TTX_OK);
	memset(r, 0, sizeof(r));
	ck_assert_int_eq(ttx_l1_read(t, 0, r, 8), TTX_OK);
	ck_assert_mem_eq(r, w, 8);
	ck_assert_mem_eq(t->l1, w, 8);

	uint8_t last = 0xA7;
	ck_assert_int_eq(ttx_l1_write(t, TTX_L1_SIZE - 1, &last, 1), TTX_OK);
	ck_assert_uint_eq(t->l1[TTX_L1_SIZE - 1], 0xA7);
	uint8_t got = 0;
	ck_assert_int_eq(ttx_l1_read(t, TTX_L1_SIZE - 1, &got, 1), TTX_OK);
	ck_assert_uint_eq(got, 0xA7);
	/* The last 8 bytes as one access ending exactly at the end. */
	ck_assert_int_eq(ttx_l1_write(t, TTX_L1_SIZE - 8, w, 8), TTX_OK);
	ck_assert_int_eq(ttx_l1_read(t, TTX_L1_SIZE - 8, r, 8), TTX_OK);
	ck_assert_mem_eq(r, w, 8);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_l1_bounds)
{
	struct ttx_tile *t = new_tile();
	uint8_t w[2] = { 0xEE, 0xFF }, r[2] = { 0, 0 };
	/* Two bytes at the last byte cross the end. */
	ck_assert_int_eq(ttx_l1_write(t, TTX_L1_SIZE - 1, w, 2), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "L1"));
	ck_assert_uint_eq(t->l1[TTX_L1_SIZE - 1], 0);   /* nothing written */
	ck_assert_int_eq(ttx_l1_read(t, TTX_L1_SIZE - 1, r, 2), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "L1"));
	ck_assert_int_eq(ttx_l1_read(t, TTX_L1_SIZE, r, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_l1_write(t, TTX_L1_SIZE, w, 1), TTX_EINVAL);
	/* addr + len wrapping around 2^32 must not pass the check. */
	ck_assert_int_eq(ttx_l1_write(t, 0xFFFFFFFFu, w, 2), TTX_EINVAL);
	ck_assert_int_eq(ttx_l1_read(t, 0xFFFFFFFFu, r, 2), TTX_EINVAL);
	ck_assert_int_eq(ttx_l1_read(t, 0, r, (size_t)TTX_L1_SIZE + 1), TTX_EINVAL);
	/* ... nor a length so large that addr + len wraps around size_t. */
	ck_assert_int_eq(ttx_l1_read(t, 16, r, SIZE_MAX), TTX_EINVAL);
	ck_assert_int_eq(ttx_l1_write(t, 16, w, SIZE_MAX - 15), TTX_EINVAL);
	/* An empty access at the end is inside. */
	ck_assert_int_eq(ttx_l1_write(t, TTX_L1_SIZE, w, 0), TTX_OK);
	ck_assert_int_eq(ttx_l1_read(t, TTX_L1_SIZE, r, 0), TTX_OK);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_l1_whole)
{
	struct ttx_tile *t = new_tile();
	uint8_t *w = malloc(TTX_L1_SIZE), *r = malloc(TTX_L1_SIZE);
	uint64_t seed = 1;
	for (size_t i = 0; i < TTX_L1_SIZE; i++)
		w[i] = (uint8_t)test_rand(&seed);
	ck_assert_int_eq(ttx_l1_write(t, 0, w, TTX_L1_SIZE), TTX_OK);
	ck_assert_int_eq(ttx_l1_read(t, 0, r, TTX_L1_SIZE), TTX_OK);
	ck_assert(memcmp(r, w, TTX_L1_SIZE) == 0);
	free(w);
	free(r);
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Dst                                                                      */
/* ------------------------------------------------------------------------ */

/* TC/Dst.md: AdjRow = ((Row & 0x1f8) << 1) | (Row & 0x207); for Row < 512 this
   is vectors/README.md's ((r & 0x1F8) << 1) | (r & 7). */
static unsigned adj_row(unsigned r)
{
	return ((r & 0x1F8u) << 1) | (r & 0x207u);
}

/* vectors/README.md: FP32 value of the Dst32b bits hi:lo. */
static uint32_t fp32_of(uint16_t hi, uint16_t lo)
{
	return ((uint32_t)(hi & 0x8000) << 16) | ((uint32_t)(hi & 0xFF) << 23) |
	       ((uint32_t)((hi >> 8) & 0x7F) << 16) | lo;
}

START_TEST(test_dst32_placement)
{
	/* For every Dst32b row r: hi in DstBits[AdjRow][c], lo in DstBits[AdjRow + 8][c],
	   and nothing else changes.  E.g. r = 13: AdjRow = (8 << 1) | 5 = 21, lo in 29;
	   r = 511: (0x1F8 << 1) | 7 = 0x3F7, lo in 0x3FF. */
	ck_assert_uint_eq(adj_row(13), 21);
	ck_assert_uint_eq(adj_row(511), 0x3F7);
	struct ttx_tile *t = new_tile();
	static uint16_t d[TTX_DST_ROWS16][TTX_COLS];
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++) {
		unsigned c = (r * 7) % TTX_COLS;
		uint32_t v = 0xA5000000u | (r << 12) | 0x0C00u | c;   /* both halves non-zero */
		memset(t->dst, 0, sizeof(t->dst));
		ttx_dst32_set(t, r, c, v);
		ck_assert_uint_eq(ttx_dst32_get(t, r, c), v);
		ttx_dst16_read(t, &d[0][0]);
		unsigned a = adj_row(r);
		/* (one assertion per row: Check records every assertion it passes) */
		for (unsigned R = 0; R < TTX_DST_ROWS16; R++)
			for (unsigned cc = 0; cc < TTX_COLS; cc++) {
				uint16_t want = 0;
				if (cc == c && R == a)
					want = (uint16_t)(v >> 16);
				else if (cc == c && R == a + 8)
					want = (uint16_t)v;
				if (d[R][cc] != want)
					ck_abort_msg("row %u: DstBits[%u][%u] = 0x%04X, expected 0x%04X", r, R, cc,
					             d[R][cc], want);
			}
	}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst32_ten_bit_row)
{
	/* TC/Dst.md: Row stays a 10-bit index but AdjRow has only 512 values.
	   Row 0x203: (0 << 1) | 0x203 = 0x203; Row 0x103: (0x100 << 1) | 3 = 0x203.
	   Row 0x3FF: (0x1F8 << 1) | 0x207 = 0x3F7 = AdjRow(0x1FF). */
	struct ttx_tile *t = new_tile();
	ttx_dst32_set(t, 0x203, 4, 0x12345678u);
	ck_assert_uint_eq(t->dst[0x203][4], 0x1234);
	ck_assert_uint_eq(t->dst[0x20B][4], 0x5678);
	ck_assert_uint_eq(ttx_dst32_get(t, 0x103, 4), 0x12345678u);
	ttx_dst32_set(t, 0x3FF, 15, 0x9ABCDEF0u);
	ck_assert_uint_eq(t->dst[0x3F7][15], 0x9ABC);
	ck_assert_uint_eq(t->dst[0x3FF][15], 0xDEF0);
	ck_assert_uint_eq(ttx_dst32_get(t, 0x1FF, 15), 0x9ABCDEF0u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst32_get_set_roundtrip)
{
	struct ttx_tile *t = new_tile();
	static uint32_t want[TTX_DST_ROWS32][TTX_COLS];
	uint64_t seed = 7;
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++) {
			want[r][c] = (uint32_t)test_rand(&seed);
			ttx_dst32_set(t, r, c, want[r][c]);
		}
	/* The 512 rows use disjoint cells, so nothing was overwritten. */
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			ck_assert_uint_eq(ttx_dst32_get(t, r, c), want[r][c]);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst32_fp32_shuffle)
{
	/* Dst32b FP32 layout (TC/Dst.md diagram, vectors/README.md formula):
	   hi = sign << 15 | mantissa[22:16] << 8 | exponent, lo = mantissa[15:0].
	   0xC0490FDB (-pi): sign 1, exponent 0x80, mantissa[22:16] = 0x49,
	   mantissa[15:0] = 0x0FDB  ->  hi = 0x8000 | 0x4900 | 0x80 = 0xC980.
	   0x3F800000 (1.0): exponent 0x7F -> hi 0x007F, lo 0.
	   0x807FFFFF: sign, exponent 0, mantissa[22:16] 0x7F -> hi 0xFF00, lo 0xFFFF. */
	ck_assert_uint_eq(ttx_shuffle_fp32(0xC0490FDBu), 0xC9800FDBu);
	ck_assert_uint_eq(ttx_unshuffle_fp32(0xC9800FDBu), 0xC0490FDBu);
	ck_assert_uint_eq(ttx_shuffle_fp32(0x3F800000u), 0x007F0000u);
	ck_assert_uint_eq(ttx_shuffle_fp32(0x807FFFFFu), 0xFF00FFFFu);

	struct ttx_tile *t = new_tile();
	static uint32_t in[TTX_DST_ROWS32][TTX_COLS], out[TTX_DST_ROWS32][TTX_COLS];
	memset(in, 0, sizeof(in));
	in[13][5] = 0xC0490FDBu;   /* AdjRow(13) = 21, low half in row 29 */
	in[0][0] = 0x3F800000u;
	in[511][15] = 0x807FFFFFu; /* AdjRow(511) = 0x3F7, low half in 0x3FF */
	ttx_dst32_write(t, &in[0][0]);
	ck_assert_uint_eq(t->dst[21][5], 0xC980);
	ck_assert_uint_eq(t->dst[29][5], 0x0FDB);
	ck_assert_uint_eq(t->dst[0][0], 0x007F);
	ck_assert_uint_eq(t->dst[8][0], 0x0000);
	ck_assert_uint_eq(t->dst[0x3F7][15], 0xFF00);
	ck_assert_uint_eq(t->dst[0x3FF][15], 0xFFFF);
	ttx_dst32_read(t, &out[0][0]);
	ck_assert_uint_eq(out[13][5], 0xC0490FDBu);
	ck_assert_uint_eq(out[0][0], 0x3F800000u);
	ck_assert_uint_eq(out[511][15], 0x807FFFFFu);
	ck_assert_uint_eq(out[13][4], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst32_write_read_roundtrip)
{
	/* The shuffle is a bit permutation, so every 32-bit pattern survives. */
	struct ttx_tile *t = new_tile();
	static uint32_t in[TTX_DST_ROWS32][TTX_COLS], out[TTX_DST_ROWS32][TTX_COLS];
	uint64_t seed = 99;
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			in[r][c] = (uint32_t)test_rand(&seed);
	ttx_dst32_write(t, &in[0][0]);
	ttx_dst32_read(t, &out[0][0]);
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			ck_assert_uint_eq(out[r][c], in[r][c]);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst32_view_covers_every_cell)
{
	/* Give each 16-bit cell (R, c) the unique value R * 16 + c (< 16384), read
	   the FP32 view, and undo vectors/README.md's formula on each value:
	   lo = v & 0xFFFF, hi = sign << 15 | v[22:16] << 8 | v[30:23].  Each
	   cell must be seen exactly once, at the place the formula puts it:
	   16-bit row R is logical row (R >> 4) << 3 | (R & 7), high half iff
	   R & 8 == 0. */
	struct ttx_tile *t = new_tile();
	static uint16_t d[TTX_DST_ROWS16][TTX_COLS];
	static uint32_t out[TTX_DST_ROWS32][TTX_COLS];
	static uint8_t seen[TTX_DST_ROWS16][TTX_COLS];
	for (unsigned R = 0; R < TTX_DST_ROWS16; R++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			d[R][c] = (uint16_t)(R * 16 + c);
	ttx_dst16_write(t, &d[0][0]);
	ttx_dst32_read(t, &out[0][0]);
	memset(seen, 0, sizeof(seen));
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++) {
			uint32_t v = out[r][c];
			unsigned A = ((r & 0x1F8) << 1) | (r & 7);
			ck_assert_uint_eq(v, fp32_of(d[A][c], d[A + 8][c]));
			uint16_t hi = (uint16_t)(((v >> 31) << 15) | (((v >> 16) & 0x7F) << 8) | ((v >> 23) & 0xFF));
			uint16_t lo = (uint16_t)v;
			unsigned hR = hi / 16, hc = hi % 16, lR = lo / 16, lc = lo % 16;
			ck_assert_uint_eq(hc, c);
			ck_assert_uint_eq(lc, c);
			ck_assert_uint_eq((hR >> 4) << 3 | (hR & 7), r);
			ck_assert_uint_eq((lR >> 4) << 3 | (lR & 7), r);
			ck_assert_uint_eq(hR & 8, 0);
			ck_assert_uint_eq(lR & 8, 8);
			seen[hR][hc]++;
			seen[lR][lc]++;
		}
	for (unsigned R = 0; R < TTX_DST_ROWS16; R++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			ck_assert_msg(seen[R][c] == 1, "cell [%u][%u] seen %u times", R, c, seen[R][c]);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_dst16_roundtrip)
{
	struct ttx_tile *t = new_tile();
	static uint16_t in[TTX_DST_ROWS16][TTX_COLS], out[TTX_DST_ROWS16][TTX_COLS];
	uint64_t seed = 3;
	for (unsigned R = 0; R < TTX_DST_ROWS16; R++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			in[R][c] = (uint16_t)test_rand(&seed);
	ttx_dst16_write(t, &in[0][0]);
	ttx_dst16_read(t, &out[0][0]);
	ck_assert(memcmp(in, out, sizeof(in)) == 0);
	/* Dst16b[Row][Col] is DstBits[Row][Col] (TC/Dst.md), row-major. */
	ck_assert_uint_eq(t->dst[1023][15], in[1023][15]);
	ck_assert_uint_eq(t->dst[517][3], in[517][3]);
	/* And the 32-bit view of those cells: Dst32b[5][3] = DstBits[5] : DstBits[13]. */
	ck_assert_uint_eq(ttx_dst32_get(t, 5, 3), (uint32_t)in[5][3] << 16 | in[13][3]);
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* LRegs and GPRs                                                           */
/* ------------------------------------------------------------------------ */

START_TEST(test_lreg_roundtrip)
{
	/* The host view can write all 17 LRegs (TC/LReg.md LReg[17][32]). */
	struct ttx_tile *t = new_tile();
	uint32_t l[TTX_LANES];
	for (unsigned r = 0; r < TTX_LREGS; r++) {
		for (unsigned i = 0; i < TTX_LANES; i++)
			l[i] = r << 16 | i;
		ck_assert_int_eq(ttx_lreg_write(t, r, l), TTX_OK);
	}
	for (unsigned r = 0; r < TTX_LREGS; r++) {
		ck_assert_int_eq(ttx_lreg_read(t, r, l), TTX_OK);
		for (unsigned i = 0; i < TTX_LANES; i++)
			ck_assert_uint_eq(l[i], r << 16 | i);
		ck_assert_uint_eq(t->sfpu.lreg[r][31], r << 16 | 31);
	}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_lreg_bounds)
{
	struct ttx_tile *t = new_tile();
	uint32_t l[TTX_LANES];
	for (unsigned i = 0; i < TTX_LANES; i++)
		l[i] = 0xDEAD0000u | i;
	ck_assert_int_eq(ttx_lreg_read(t, 17, l), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "17"));
	ck_assert_uint_eq(l[5], 0xDEAD0005u);   /* buffer untouched */
	ck_assert_int_eq(ttx_lreg_write(t, 17, l), TTX_EINVAL);
	ck_assert_int_eq(ttx_lreg_read(t, 0xFFFFFFFFu, l), TTX_EINVAL);
	ck_assert_int_eq(ttx_lreg_write(t, 1000, l), TTX_EINVAL);
	/* 16 is the last one. */
	ck_assert_int_eq(ttx_lreg_write(t, 16, l), TTX_OK);
	ck_assert_int_eq(ttx_lreg_read(t, 16, l), TTX_OK);
	ck_assert_uint_eq(l[31], 0xDEAD001Fu);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_gpr_roundtrip)
{
	/* TC/ScalarUnit.md: GPRs[3][64]. */
	struct ttx_tile *t = new_tile();
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_GPRS; i++)
			ck_assert_int_eq(ttx_gpr_write(t, th, i, 0xA0000000u | th << 8 | i), TTX_OK);
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_GPRS; i++) {
			uint32_t v = 0;
			ck_assert_int_eq(ttx_gpr_read(t, th, i, &v), TTX_OK);
			ck_assert_uint_eq(v, 0xA0000000u | th << 8 | i);
			ck_assert_uint_eq(t->gpr[th][i], v);
		}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_gpr_bounds)
{
	struct ttx_tile *t = new_tile();
	uint32_t v = 0x55;
	ck_assert_int_eq(ttx_gpr_read(t, 3, 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_gpr_read(t, 0, 64, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_gpr_write(t, 3, 0, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_gpr_write(t, 0, 64, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_gpr_write(t, 0xFFFFFFFFu, 0xFFFFFFFFu, 1), TTX_EINVAL);
	ck_assert_str_ne(ttx_tile_error(t), "");
	ck_assert_uint_eq(v, 0x55);
	ck_assert_int_eq(ttx_gpr_write(t, 2, 63, 9), TTX_OK);
	ck_assert_int_eq(ttx_gpr_read(t, 2, 63, &v), TTX_OK);
	ck_assert_uint_eq(v, 9);
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Configuration                                                            */
/* ------------------------------------------------------------------------ */

START_TEST(test_cfg_bounds)
{
	/* Config[2][CFG_STATE_SIZE * 4 = 188] (TC/BackendConfiguration.md). */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0;
	ck_assert_int_eq(ttx_cfg_read(t, 2, 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_write(t, 2, 0, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_read(t, 0, 188, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_write(t, 0, 188, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_write(t, 1, 188, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_write(t, 1, 187, 0x87654321u), TTX_OK);
	ck_assert_int_eq(ttx_cfg_read(t, 1, 187, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x87654321u);
	ck_assert_uint_eq(t->config[1][187], 0x87654321u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cfg_global_words_shared)
{
	/* TC/BackendConfiguration.md: writes to Config[i][j] with
	   j >= GLOBAL_CFGREG_BASE_ADDR32 (152) write both banks; below, only one. */
	struct ttx_tile *t = new_tile();
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++) {
		unsigned bank = w & 1;
		uint32_t a, b;
		ck_assert_int_eq(ttx_cfg_write(t, bank, w, 0xC0DE0000u | w), TTX_OK);
		ck_assert_int_eq(ttx_cfg_read(t, bank, w, &a), TTX_OK);
		ck_assert_int_eq(ttx_cfg_read(t, bank ^ 1, w, &b), TTX_OK);
		ck_assert_uint_eq(a, 0xC0DE0000u | w);
		ck_assert_msg(b == (w >= 152 ? (0xC0DE0000u | w) : 0),
		              "word %u written to bank %u: other bank holds 0x%08X", w, bank, b);
	}
	/* Word 151 is the last per-bank word, 152 the first shared one. */
	ck_assert_int_eq(ttx_cfg_write(t, 0, 151, 1), TTX_OK);
	ck_assert_int_eq(ttx_cfg_write(t, 1, 151, 2), TTX_OK);
	ck_assert_uint_eq(t->config[0][151], 1);
	ck_assert_uint_eq(t->config[1][151], 2);
	ck_assert_int_eq(ttx_cfg_write(t, 0, 152, 3), TTX_OK);
	ck_assert_int_eq(ttx_cfg_write(t, 1, 152, 4), TTX_OK);
	ck_assert_uint_eq(t->config[0][152], 4);
	ck_assert_uint_eq(t->config[1][152], 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_thread_cfg_bounds)
{
	/* ThreadConfig[3][THD_STATE_SIZE = 57] of 16-bit values. */
	struct ttx_tile *t = new_tile();
	uint16_t v = 0;
	ck_assert_int_eq(ttx_thread_cfg_read(t, 3, 0, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 3, 0, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_thread_cfg_read(t, 0, 57, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 0, 57, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 2, 56, 0xBEEF), TTX_OK);
	ck_assert_int_eq(ttx_thread_cfg_read(t, 2, 56, &v), TTX_OK);
	ck_assert_uint_eq(v, 0xBEEF);
	ck_assert_uint_eq(t->thread_config[2][56], 0xBEEF);
	/* Per thread: the others are untouched. */
	ck_assert_uint_eq(t->thread_config[0][56], 0);
	ck_assert_uint_eq(t->thread_config[1][56], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cfg_field_fp32_enabled)
{
	/* cfg_defines.h: ALU_ACC_CTRL_Fp32_enabled_ADDR32 = 1, SHAMT = 29, one bit. */
	struct ttx_tile *t = new_tile();
	uint32_t v = 7;
	ck_assert_int_eq(ttx_cfg_field_write(t, "ALU_ACC_CTRL_Fp32_enabled", 0, 1), TTX_OK);
	ck_assert_uint_eq(t->config[0][1], 1u << 29);
	ck_assert_uint_eq(t->config[1][1], 0);           /* word 1 < 152: one bank */
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++)
		if (w != 1)
			ck_assert_uint_eq(t->config[0][w], 0);
	ck_assert_int_eq(ttx_cfg_field_read(t, "ALU_ACC_CTRL_Fp32_enabled", 0, &v), TTX_OK);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(ttx_cfg_field_read(t, "ALU_ACC_CTRL_Fp32_enabled", 1, &v), TTX_OK);
	ck_assert_uint_eq(v, 0);
	/* Clearing the field keeps the other bits of the word. */
	ck_assert_int_eq(ttx_cfg_write(t, 1, 1, 0xFFFFFFFFu), TTX_OK);
	ck_assert_int_eq(ttx_cfg_field_write(t, "ALU_ACC_CTRL_Fp32_enabled", 1, 0), TTX_OK);
	ck_assert_uint_eq(t->config[1][1], 0xDFFFFFFFu);
	/* Internal accessor agrees. */
	ck_assert_uint_eq(ttx_cfg_get(t, 0, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled), 1);
	ck_assert_uint_eq(ttx_cfg_get(t, 1, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled), 0);
	/* Reading a field of a word whose other bits are set: only the field. */
	ck_assert_int_eq(ttx_cfg_field_read(t, "ALU_ACC_CTRL_SFPU_Fp32_enabled", 1, &v), TTX_OK);
	ck_assert_uint_eq(v, 1);   /* bit 30 of 0xDFFFFFFF */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cfg_field_errors)
{
	struct ttx_tile *t = new_tile();
	uint32_t v = 0x77;
	/* 2 does not fit a 1-bit field. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "ALU_ACC_CTRL_Fp32_enabled", 0, 2), TTX_EINVAL);
	ck_assert_uint_eq(t->config[0][1], 0);
	ck_assert_int_eq(ttx_cfg_field_write(t, "NO_SUCH_FIELD", 0, 0), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "NO_SUCH_FIELD"));
	ck_assert_int_eq(ttx_cfg_field_read(t, "NO_SUCH_FIELD", 0, &v), TTX_EINVAL);
	ck_assert_uint_eq(v, 0x77);
	ck_assert_int_eq(ttx_cfg_field_read(t, "", 0, &v), TTX_EINVAL);
	/* A prefix of a real name is not that name. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "ALU_ACC_CTRL_Fp32", 0, 0), TTX_EINVAL);
	/* Bank 2 does not exist. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "ALU_ACC_CTRL_Fp32_enabled", 2, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_field_read(t, "ALU_ACC_CTRL_Fp32_enabled", 2, &v), TTX_EINVAL);
	/* A 12-bit ThreadConfig field (DEST_TARGET_REG_CFG_MATH_Offset: index 1,
	   shift 0, 12 bits): 0xFFF fits, 0x1000 does not; thread 3 does not exist. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_TARGET_REG_CFG_MATH_Offset", 0, 0x1000), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_TARGET_REG_CFG_MATH_Offset", 3, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_field_read(t, "DEST_TARGET_REG_CFG_MATH_Offset", 3, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_TARGET_REG_CFG_MATH_Offset", 1, 0xFFF), TTX_OK);
	ck_assert_uint_eq(t->thread_config[1][1], 0x0FFF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cfg_field_32bit_global)
{
	/* PRNG_SEED_Seed_Val: word 164 (>= 152, shared), shift 0, 32 bits: any
	   value fits and lands in both banks. */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0;
	ck_assert_int_eq(ttx_cfg_field_write(t, "PRNG_SEED_Seed_Val", 1, 0xFFFFFFFFu), TTX_OK);
	ck_assert_uint_eq(t->config[0][164], 0xFFFFFFFFu);
	ck_assert_uint_eq(t->config[1][164], 0xFFFFFFFFu);
	ck_assert_int_eq(ttx_cfg_field_read(t, "PRNG_SEED_Seed_Val", 0, &v), TTX_OK);
	ck_assert_uint_eq(v, 0xFFFFFFFFu);
	/* DEST_TARGET_REG_CFG_PACK_SEC0_ZOffset: word 152, shift 12, 6 bits. */
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_TARGET_REG_CFG_PACK_SEC0_ZOffset", 0, 0x3F), TTX_OK);
	ck_assert_uint_eq(t->config[0][152], 0x3Fu << 12);
	ck_assert_uint_eq(t->config[1][152], 0x3Fu << 12);
	ck_assert_int_eq(ttx_cfg_field_write(t, "DEST_TARGET_REG_CFG_PACK_SEC0_ZOffset", 0, 0x40), TTX_EINVAL);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cfg_set_global_field_both_banks)
{
	/* The internal setter used by instructions is a write to Config too, so
	   for a word >= GLOBAL_CFGREG_BASE_ADDR32 it must land in both banks
	   (TC/BackendConfiguration.md "Special cases"), like ttx_cfg_write does. */
	struct ttx_tile *t = new_tile();
	ttx_cfg_set(t, 0, TTX_CFG_PRNG_SEED_Seed_Val, 0x13579BDFu);
	ck_assert_uint_eq(t->config[0][164], 0x13579BDFu);
	ck_assert_uint_eq(ttx_cfg_get(t, 1, TTX_CFG_PRNG_SEED_Seed_Val), 0x13579BDFu);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_thread_cfg_field)
{
	/* CFG_STATE_ID_StateID: ThreadConfig index 0, shift 0, 1 bit; it selects
	   the Config bank of the thread's instructions. */
	struct ttx_tile *t = new_tile();
	uint32_t v = 9;
	ck_assert_uint_eq(ttx_cfg_bank(t, 2), 0);
	ck_assert_int_eq(ttx_cfg_field_write(t, "CFG_STATE_ID_StateID", 2, 1), TTX_OK);
	ck_assert_uint_eq(t->thread_config[2][0], 1);
	ck_assert_uint_eq(t->thread_config[0][0], 0);
	ck_assert_uint_eq(t->thread_config[1][0], 0);
	ck_assert_int_eq(ttx_cfg_field_read(t, "CFG_STATE_ID_StateID", 2, &v), TTX_OK);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(ttx_cfg_field_read(t, "CFG_STATE_ID_StateID", 1, &v), TTX_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_uint_eq(ttx_cfg_bank(t, 2), 1);
	ck_assert_uint_eq(ttx_cfg_bank(t, 0), 0);
	ck_assert_uint_eq(ttx_cfg_bank(t, 1), 0);
	ck_assert_int_eq(ttx_cfg_field_write(t, "CFG_STATE_ID_StateID", 2, 2), TTX_EINVAL);
	ck_assert_int_eq(ttx_cfg_field_write(t, "CFG_STATE_ID_StateID", 3, 1), TTX_EINVAL);
	/* Bits above the field do not change the bank. */
	ck_assert_int_eq(ttx_thread_cfg_write(t, 0, 0, 0xFFFE), TTX_OK);
	ck_assert_uint_eq(ttx_cfg_bank(t, 0), 0);
	ck_assert_int_eq(ttx_cfg_field_write(t, "CFG_STATE_ID_StateID", 2, 0), TTX_OK);
	ck_assert_uint_eq(ttx_cfg_bank(t, 2), 0);
	/* ADDR_MOD_AB_SEC0_SrcBIncr: index 7, shift 8, 6 bits: 0x2A -> 0x2A00,
	   keeping the neighbours SrcAClear (bit 7) and SrcBCR (bit 14). */
	ck_assert_int_eq(ttx_thread_cfg_write(t, 1, 7, 0x4080), TTX_OK);
	ck_assert_int_eq(ttx_cfg_field_write(t, "ADDR_MOD_AB_SEC0_SrcBIncr", 1, 0x2A), TTX_OK);
	ck_assert_uint_eq(t->thread_config[1][7], 0x6A80);
	ck_assert_int_eq(ttx_cfg_field_read(t, "ADDR_MOD_AB_SEC0_SrcBIncr", 1, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x2A);
	ck_assert_uint_eq(ttx_thread_cfg_get(t, 1, TTX_THCFG_ADDR_MOD_AB_SEC0_SrcBCR), 1);
	ttx_tile_destroy(t);
}
END_TEST

/* Every field of the vendored tensix_regs.json section must be in the table
   with the same word, shift and width; same counts, so no extra fields. */
static void check_map(json_object *section, const struct ttx_cfg_field_info *fields, int n,
                      unsigned words, unsigned bits)
{
	int total = 0;
	json_object_object_foreach(section, key, arr) {
		char *endp;
		long word = strtol(key, &endp, 10);
		ck_assert_msg(*endp == '\0' && word >= 0 && (unsigned long)word < words, "bad word %s", key);
		ck_assert(json_object_is_type(arr, json_type_array));
		for (size_t k = 0; k < json_object_array_length(arr); k++) {
			json_object *f = json_object_array_get_idx(arr, k), *nj, *sj, *wj;
			ck_assert(json_object_object_get_ex(f, "name", &nj));
			ck_assert(json_object_object_get_ex(f, "shift", &sj));
			ck_assert(json_object_object_get_ex(f, "size", &wj));
			const char *name = json_object_get_string(nj);
			int shift = json_object_get_int(sj), width = json_object_get_int(wj);
			ck_assert_msg(shift >= 0 && width >= 1 && (unsigned)(shift + width) <= bits,
			              "%s does not fit a %u-bit word", name, bits);
			int found = -1;
			for (int i = 0; i < n; i++)
				if (strcmp(fields[i].name, name) == 0)
					found = i;
			ck_assert_msg(found >= 0, "%s (word %ld) missing from src/cfg_regs.def", name, word);
			ck_assert_msg(fields[found].word == word && fields[found].shift == shift &&
			              fields[found].width == width,
			              "%s: ttx has (%u, %u, %u), reference (%ld, %d, %d)", name, fields[found].word,
			              fields[found].shift, fields[found].width, word, shift, width);
			total++;
		}
	}
	ck_assert_int_eq(total, n);
}

START_TEST(test_cfg_map_matches_reference)
{
	char *text = test_read_data("tensix_regs.json", NULL);
	json_object *root = json_tokener_parse(text), *cfg, *thcfg;
	ck_assert_ptr_nonnull(root);
	ck_assert(json_object_object_get_ex(root, "cfg", &cfg));
	ck_assert(json_object_object_get_ex(root, "thread_cfg", &thcfg));
	check_map(cfg, ttx_cfg_fields, TTX_CFG_FIELD_COUNT, TTX_CFG_WORDS, 32);
	check_map(thcfg, ttx_thread_cfg_fields, TTX_THCFG_FIELD_COUNT, TTX_THREAD_CFG_WORDS, 16);
	/* Names are unique across both tables (ttx_cfg_field_* looks names up
	   in Config first, so a duplicate would hide a ThreadConfig field). */
	for (int i = 0; i < TTX_THCFG_FIELD_COUNT; i++)
		for (int j = 0; j < TTX_CFG_FIELD_COUNT; j++)
			ck_assert_str_ne(ttx_thread_cfg_fields[i].name, ttx_cfg_fields[j].name);
	json_object_put(root);
	free(text);
}
END_TEST

START_TEST(test_cfg_field_all_names_reachable)
{
	/* Every named field round-trips its all-ones value through the public
	   by-name API and sets exactly its bits. */
	struct ttx_tile *t = new_tile();
	for (int i = 0; i < TTX_CFG_FIELD_COUNT; i++) {
		const struct ttx_cfg_field_info *f = &ttx_cfg_fields[i];
		uint32_t ones = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1, v = 0;
		memset(t->config, 0, sizeof(t->config));
		ck_assert_int_eq(ttx_cfg_field_write(t, f->name, 0, ones), TTX_OK);
		ck_assert_msg(t->config[0][f->word] == ones << f->shift, "%s", f->name);
		ck_assert_int_eq(ttx_cfg_field_read(t, f->name, 0, &v), TTX_OK);
		ck_assert_uint_eq(v, ones);
	}
	for (int i = 0; i < TTX_THCFG_FIELD_COUNT; i++) {
		const struct ttx_cfg_field_info *f = &ttx_thread_cfg_fields[i];
		uint32_t ones = (1u << f->width) - 1, v = 0;
		memset(t->thread_config, 0, sizeof(t->thread_config));
		ck_assert_int_eq(ttx_cfg_field_write(t, f->name, 2, ones), TTX_OK);
		ck_assert_msg(t->thread_config[2][f->word] == (uint16_t)(ones << f->shift), "%s", f->name);
		ck_assert_uint_eq(t->thread_config[0][f->word], 0);
		ck_assert_int_eq(ttx_cfg_field_read(t, f->name, 2, &v), TTX_OK);
		ck_assert_uint_eq(v, ones);
	}
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* MMIO: the RISC-V T0-T2 view (TT/BabyRISCV/README.md memory map)          */
/* ------------------------------------------------------------------------ */

START_TEST(test_mmio_l1)
{
	/* MEM_L1_BASE = 0; RISC-V is little-endian. */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0;
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0x100, 0xDEADBEEFu), TTX_OK);
	ck_assert_uint_eq(t->l1[0x100], 0xEF);
	ck_assert_uint_eq(t->l1[0x101], 0xBE);
	ck_assert_uint_eq(t->l1[0x102], 0xAD);
	ck_assert_uint_eq(t->l1[0x103], 0xDE);
	ck_assert_int_eq(ttx_mmio_read(t, 2, 0x100, &v), TTX_OK);   /* L1 is shared */
	ck_assert_uint_eq(v, 0xDEADBEEFu);
	/* The last word of L1; the word after it is not L1. */
	ck_assert_int_eq(ttx_mmio_write(t, 1, TTX_L1_SIZE - 4, 0x01020304u), TTX_OK);
	ck_assert_uint_eq(t->l1[TTX_L1_SIZE - 1], 0x01);
	ck_assert_int_eq(ttx_mmio_read(t, 1, TTX_L1_SIZE - 4, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x01020304u);
	ck_assert_int_eq(ttx_mmio_write(t, 1, TTX_L1_SIZE, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_read(t, 1, TTX_L1_SIZE, &v), TTX_EINVAL);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_gpr)
{
	/* TC/ScalarUnit.md: RISC-V T<i> sees GPRs[i] at REGFILE_BASE 0xFFE00000. */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0;
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_GPRS; i++)
			ck_assert_int_eq(ttx_mmio_write(t, th, 0xFFE00000u + 4 * i, th << 16 | i), TTX_OK);
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_GPRS; i++) {
			ck_assert_uint_eq(t->gpr[th][i], th << 16 | i);
			ck_assert_int_eq(ttx_mmio_read(t, th, 0xFFE00000u + 4 * i, &v), TTX_OK);
			ck_assert_uint_eq(v, th << 16 | i);
		}
	/* A host write shows through the window of that thread only. */
	ck_assert_int_eq(ttx_gpr_write(t, 1, 10, 0xABCD), TTX_OK);
	ck_assert_int_eq(ttx_mmio_read(t, 1, 0xFFE00000u + 40, &v), TTX_OK);
	ck_assert_uint_eq(v, 0xABCD);
	ck_assert_int_eq(ttx_mmio_read(t, 0, 0xFFE00000u + 40, &v), TTX_OK);
	ck_assert_uint_eq(v, 10);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_semaphores)
{
	/* TC/SyncUnit.md: SemaphoreAccess[8] at PC_BUF_BASE + 4 * PC_BUF_SEMAPHORE_BASE
	   = 0xFFE80020.  Write: odd = get (-1, floor 0), even = post (+1, max 15).
	   Read: Semaphores[i].Value.  Semaphores are shared by the threads. */
	struct ttx_tile *t = new_tile();
	uint32_t v = 99;
	const uint32_t s3 = 0xFFE80020u + 4 * 3;
	for (unsigned k = 0; k < 20; k++)
		ck_assert_int_eq(ttx_mmio_write(t, k % 3, s3, 2 * k), TTX_OK);   /* even: post */
	ck_assert_uint_eq(t->semaphores[3].value, 15);
	ck_assert_int_eq(ttx_mmio_read(t, 2, s3, &v), TTX_OK);
	ck_assert_uint_eq(v, 15);
	for (unsigned i = 0; i < 8; i++)
		if (i != 3)
			ck_assert_uint_eq(t->semaphores[i].value, 0);
	ck_assert_uint_eq(t->semaphores[3].max, 0);   /* Max is not touched */
	ck_assert_int_eq(ttx_mmio_write(t, 0, s3, 1), TTX_OK);   /* odd: get */
	ck_assert_int_eq(ttx_mmio_read(t, 0, s3, &v), TTX_OK);
	ck_assert_uint_eq(v, 14);
	ck_assert_int_eq(ttx_mmio_write(t, 0, s3, 0xFFFFFFFFu), TTX_OK);   /* odd */
	ck_assert_uint_eq(t->semaphores[3].value, 13);
	ck_assert_int_eq(ttx_mmio_write(t, 0, s3, 0x80000000u), TTX_OK);   /* even */
	ck_assert_uint_eq(t->semaphores[3].value, 14);
	for (unsigned k = 0; k < 20; k++)
		ck_assert_int_eq(ttx_mmio_write(t, 1, s3, 3), TTX_OK);
	ck_assert_uint_eq(t->semaphores[3].value, 0);
	ck_assert_int_eq(ttx_mmio_read(t, 1, s3, &v), TTX_OK);
	ck_assert_uint_eq(v, 0);
	/* Semaphore 0 and 7 are the ends of the window. */
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFE80020u, 0), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFE8003Cu, 0), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFE8003Cu, 0), TTX_OK);
	ck_assert_uint_eq(t->semaphores[0].value, 1);
	ck_assert_uint_eq(t->semaphores[7].value, 2);
	/* A value read does not change the semaphore. */
	ck_assert_int_eq(ttx_mmio_read(t, 0, 0xFFE8003Cu, &v), TTX_OK);
	ck_assert_int_eq(ttx_mmio_read(t, 0, 0xFFE8003Cu, &v), TTX_OK);
	ck_assert_uint_eq(v, 2);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_config)
{
	/* TC/BackendConfiguration.md: Config[2][188] at TENSIX_CFG_BASE, bank 0
	   then bank 1: Config[b][w] at 0xFFEF0000 + 4 * (b * 188 + w). */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0;
	ck_assert_int_eq(ttx_mmio_write(t, 0, CFG_BASE + 4 * 5, 0x11111111u), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 1, CFG_BASE + 4 * (188 + 5), 0x22222222u), TTX_OK);
	ck_assert_uint_eq(t->config[0][5], 0x11111111u);
	ck_assert_uint_eq(t->config[1][5], 0x22222222u);
	ck_assert_int_eq(ttx_mmio_read(t, 2, CFG_BASE + 4 * 5, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x11111111u);
	ck_assert_int_eq(ttx_mmio_read(t, 2, CFG_BASE + 4 * (188 + 5), &v), TTX_OK);
	ck_assert_uint_eq(v, 0x22222222u);
	/* Word 160 (>= 152) through bank 1's address lands in both banks. */
	ck_assert_int_eq(ttx_mmio_write(t, 2, CFG_BASE + 4 * (188 + 160), 0x33333333u), TTX_OK);
	ck_assert_uint_eq(t->config[0][160], 0x33333333u);
	ck_assert_uint_eq(t->config[1][160], 0x33333333u);
	ck_assert_int_eq(ttx_mmio_read(t, 0, CFG_BASE + 4 * 160, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x33333333u);
	/* Last word: Config[1][187] at 0xFFEF05DC. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFEF05DCu, 0x44444444u), TTX_OK);
	ck_assert_uint_eq(t->config[1][187], 0x44444444u);
	ck_assert_uint_eq(t->config[0][187], 0x44444444u);
	/* A host write shows through. */
	ck_assert_int_eq(ttx_cfg_write(t, 1, 100, 0x55u), TTX_OK);
	ck_assert_int_eq(ttx_mmio_read(t, 0, CFG_BASE + 4 * (188 + 100), &v), TTX_OK);
	ck_assert_uint_eq(v, 0x55u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_state_reset_en)
{
	/* TC/BackendConfiguration.md "Special cases": writing anything (except via
	   RMWCIB) to Config[i][STATE_RESET_EN_ADDR32] (word 4) is an instantaneous
	   Config[i][j] = 0 for every j < GLOBAL_CFGREG_BASE_ADDR32 (152).  A RISC-V
	   sw is such a write: bank 0's words 0..151 clear, its words 152.. and all
	   of bank 1 stay. */
	struct ttx_tile *t = new_tile();
	ck_assert_uint_eq(ttx_cfg_fields[TTX_CFG_STATE_RESET_EN].word, 4);
	for (unsigned b = 0; b < 2; b++)
		for (unsigned w = 0; w < TTX_CFG_WORDS; w++)
			t->config[b][w] = 0x5A000000u | b << 16 | w;
	ck_assert_int_eq(ttx_mmio_write(t, 0, CFG_BASE + 4 * 4, 0), TTX_OK);
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++) {
		uint32_t want0 = w < 152 ? 0 : (0x5A000000u | w);
		ck_assert_msg(t->config[0][w] == want0, "Config[0][%u] = 0x%08X, expected 0x%08X",
		              w, t->config[0][w], want0);
		ck_assert_uint_eq(t->config[1][w], 0x5A000000u | 1u << 16 | w);
	}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_thread_config)
{
	/* ThreadConfig[3][57] of {uint16_t Value, Padding[7]} (16 bytes) follows
	   Config: [th][i].Value at 0xFFEF05E0 + 16 * (th * 57 + i).  RISC-V can
	   read it but not write it (TC/BackendConfiguration.md: "No RISCV writes"). */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0;
	ck_assert_uint_eq(THCFG_BASE, 0xFFEF05E0u);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 1, 7, 0xBEEF), TTX_OK);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 2, 56, 0x1234), TTX_OK);
	ck_assert_int_eq(ttx_thread_cfg_write(t, 0, 0, 0x0001), TTX_OK);
	ck_assert_int_eq(ttx_mmio_read(t, 0, THCFG_BASE + 16 * (57 + 7), &v), TTX_OK);
	ck_assert_uint_eq(v & 0xFFFF, 0xBEEF);
	ck_assert_int_eq(ttx_mmio_read(t, 0, THCFG_BASE + 16 * (2 * 57 + 56), &v), TTX_OK);
	ck_assert_uint_eq(v & 0xFFFF, 0x1234);
	ck_assert_int_eq(ttx_mmio_read(t, 2, THCFG_BASE, &v), TTX_OK);
	ck_assert_uint_eq(v & 0xFFFF, 0x0001);
	ck_assert_int_eq(ttx_mmio_read(t, 1, THCFG_BASE + 16 * (57 + 6), &v), TTX_OK);
	ck_assert_uint_eq(v & 0xFFFF, 0);
	/* Writes are rejected and change nothing. */
	ck_assert_int_eq(ttx_mmio_write(t, 1, THCFG_BASE + 16 * (57 + 7), 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 0, THCFG_BASE, 0), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 2, THCFG_BASE + 16 * (2 * 57 + 56), 0), TTX_EINVAL);
	ck_assert_str_ne(ttx_tile_error(t), "");
	ck_assert_uint_eq(t->thread_config[1][7], 0xBEEF);
	ck_assert_uint_eq(t->thread_config[2][56], 0x1234);
	ck_assert_uint_eq(t->thread_config[0][0], 0x0001);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_mop_cfg)
{
	/* TENSIX_MOP_CFG_BASE 0xFFB80000 .. 0xFFB80023: MopCfg[9] of the storing
	   thread, write-only (TC/MOPExpander.md). */
	struct ttx_tile *t = new_tile();
	uint32_t v = 0x77;
	for (unsigned i = 0; i < 9; i++)
		ck_assert_int_eq(ttx_mmio_write(t, 1, 0xFFB80000u + 4 * i, 0x8F000000u | i), TTX_OK);
	for (unsigned i = 0; i < 9; i++) {
		ck_assert_uint_eq(t->mop[1].cfg[i], 0x8F000000u | i);
		ck_assert_uint_eq(t->mop[0].cfg[i], 0);
		ck_assert_uint_eq(t->mop[2].cfg[i], 0);
		ck_assert_int_eq(ttx_mmio_read(t, 1, 0xFFB80000u + 4 * i, &v), TTX_EINVAL);
	}
	ck_assert_uint_eq(v, 0x77);
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFB80020u, 5), TTX_OK);
	ck_assert_uint_eq(t->mop[2].cfg[8], 5);
	/* 0xFFB80024 is past MopCfg[8]. */
	ck_assert_int_eq(ttx_mmio_write(t, 1, 0xFFB80024u, 5), TTX_EINVAL);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_push)
{
	/* TT/BabyRISCV/PushTensixInstruction.md: a store by RISC-V T<i> to
	   INSTRN_BUF_BASE (0xFFE40000) pushes to Tensix thread i. */
	struct ttx_tile *t = new_tile();
	struct ttx_thread_state s;
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFE40000u, NOP), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 2, 0xFFE40000u, NOP), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFE40000u, NOP), TTX_OK);
	ttx_thread_state(t, 2, &s);
	ck_assert_int_eq(s.pending, 2);
	ck_assert_uint_eq(s.word, NOP);
	ttx_thread_state(t, 0, &s);
	ck_assert_int_eq(s.pending, 1);
	ttx_thread_state(t, 1, &s);
	ck_assert_int_eq(s.pending, 0);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns_by_thread[0], 1);
	ck_assert_uint_eq(st.insns_by_thread[1], 0);
	ck_assert_uint_eq(st.insns_by_thread[2], 2);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mmio_errors)
{
	struct ttx_tile *t = new_tile();
	uint32_t v = 0x66;
	/* Unaligned: sw/lw of a word need a 4-byte aligned address here. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0x102, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_read(t, 0, 0x101, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFE00002u, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFE80021u, 0), TTX_EINVAL);
	ck_assert_uint_eq(t->l1[0x102], 0);
	ck_assert_uint_eq(t->semaphores[0].value, 0);
	/* Unmapped for T0-T2 in the memory map: 0xFFB00800 (after the local data
	   RAM), PC1_BUF_BASE 0xFFE90000. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB00800u, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_read(t, 0, 0xFFB00800u, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 1, 0xFFE90000u, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_read(t, 1, 0xFFE90000u, &v), TTX_EINVAL);
	/* GPR window: 64 words; semaphore window: 8 words. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFE00000u + 4 * 64, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFE80040u, 0), TTX_EINVAL);
	ck_assert_uint_eq(v, 0x66);
	/* Thread 3 does not exist (RISC-V T0-T2 only). */
	ck_assert_int_eq(ttx_mmio_write(t, 3, 0x100, 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_read(t, 3, 0x100, &v), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 3, 0xFFE40000u, NOP), TTX_EINVAL);
	ck_assert_str_ne(ttx_tile_error(t), "");
	ck_assert_uint_eq(t->l1[0x100], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* The host's hook for addresses the tile does not map: a little register
   file at 0xFFB13000-0xFFB1300C (the PIC's, say) that refuses the rest. */
static uint32_t enc(const char *text)
{
	uint32_t w = 0;
	char err[256];
	ck_assert_msg(ttx_asm_line(text, &w, err, sizeof(err)) == TTX_OK, "%s: %s", text, err);
	return w;
}

struct outside {
	uint32_t regs[4];
	unsigned loads, stores, last_thread;
};

static int outside_hook(void *ctx, unsigned thread, uint32_t addr, int store, uint32_t *value)
{
	struct outside *o = ctx;
	if (addr < 0xFFB13000u || addr >= 0xFFB13010u)   /* the PIC's registers, which ttx does not model */
		return -1;
	o->last_thread = thread;
	if (store) {
		o->regs[(addr - 0xFFB13000u) / 4] = *value;
		o->stores++;
	} else {
		*value = o->regs[(addr - 0xFFB13000u) / 4];
		o->loads++;
	}
	return 0;
}

START_TEST(test_mmio_hook)
{
	struct outside o = { { 0 }, 0, 0, 0 };
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .mmio = outside_hook, .mmio_ctx = &o };
	struct ttx_tile *t = ttx_tile_new(&opt);
	uint32_t v = 0;
	/* the RISC-V side */
	ck_assert_int_eq(ttx_mmio_write(t, 1, 0xFFB13004u, 0xCAFEF00Du), TTX_OK);
	ck_assert_uint_eq(o.regs[1], 0xCAFEF00Du);
	ck_assert_uint_eq(o.last_thread, 1);
	ck_assert_int_eq(ttx_mmio_read(t, 2, 0xFFB13004u, &v), TTX_OK);
	ck_assert_uint_eq(v, 0xCAFEF00Du);
	/* refused by the hook: an error naming it, nothing changed */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB13010u, 1), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "refused"));
	/* what ttx maps never reaches the hook; nor ThreadConfig stores, nor
	   unaligned ones */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0x100, 7), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB13002u, 7), TTX_EINVAL);
	ck_assert_int_eq(ttx_mmio_write(t, 0, TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4, 7), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "SETC16"));
	ck_assert_uint_eq(o.stores, 1);
	/* the coprocessor's side: GPR 3 = 0x1234, STOREREG 3 to 0xFFB13008
	   (AddrLo 0x4C02), LOADREG into GPR 4 from there */
	t->gpr[0][3] = 0x1234;
	PUSH(t, 0, enc("STOREREG 3, 0x4C02"), enc("LOADREG 4, 0x4C02"));
	RUN_OK(t);
	ck_assert_uint_eq(o.regs[2], 0x1234);
	ck_assert_uint_eq(t->gpr[0][4], 0x1234);
	ck_assert_uint_eq(o.stores, 2);
	ck_assert_uint_eq(o.loads, 2);
	/* an instruction's access the hook refuses faults with the address */
	PUSH(t, 0, enc("STOREREG 3, 0x4C04"));
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "0xFFB13010"));
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Run loop                                                                 */
/* ------------------------------------------------------------------------ */

struct trace {
	unsigned n;
	unsigned thread[256];
	uint32_t word[256];
};

static void record(void *ctx, unsigned thread, uint32_t word)
{
	struct trace *tr = ctx;
	if (tr->n < 256) {
		tr->thread[tr->n] = thread;
		tr->word[tr->n] = word;
	}
	tr->n++;
}

static struct ttx_tile *traced_tile(struct trace *tr)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .trace = record, .trace_ctx = tr };
	memset(tr, 0, sizeof(*tr));
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}

START_TEST(test_run_nops_all_threads)
{
	struct ttx_tile *t = new_tile();
	struct ttx_stats st;
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);   /* nothing to do */
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 0);
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned k = 0; k < th + 2; k++)   /* 2, 3, 4 NOPs */
			ck_assert_int_eq(ttx_push(t, th, NOP), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 3, NOP), TTX_EINVAL);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 9);
	ck_assert_uint_eq(st.insns_by_thread[0], 2);
	ck_assert_uint_eq(st.insns_by_thread[1], 3);
	ck_assert_uint_eq(st.insns_by_thread[2], 4);
	/* NOP is a MISC instruction; "misc" is unit 1 of ttx_unit_name. */
	ck_assert_str_eq(ttx_unit_name(TTX_UNIT_MISC), "misc");
	ck_assert_int_eq(TTX_UNIT_MISC, 1);
	ck_assert_uint_eq(st.insns_by_unit[1], 9);
	for (unsigned u = 0; u < 10; u++)
		if (u != 1)
			ck_assert_uint_eq(st.insns_by_unit[u], 0);
	ck_assert_uint_eq(st.insns_interp + st.insns_jit, 9);
	ck_assert(st.wall_seconds >= 0);
	for (unsigned th = 0; th < TTX_THREADS; th++) {
		struct ttx_thread_state s;
		ttx_thread_state(t, th, &s);
		ck_assert_int_eq(s.pending, 0);
		ck_assert_int_eq(s.blocked, 0);
	}
	/* More work after a finished run accumulates. */
	ck_assert_int_eq(ttx_push(t, 0, SFPNOP(0)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 10);
	ck_assert_str_eq(ttx_unit_name(TTX_UNIT_SFPU), "sfpu");
	ck_assert_uint_eq(st.insns_by_unit[TTX_UNIT_SFPU], 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_unimplemented_message)
{
	/* The fault texts of ttx_fault_undocumented: an opcode with no row in
	   isa.def, one with a row but no page (TBUFCMD), and a documented
	   instruction sent to a unit without a handler (a ttx bug). */
	struct ttx_tile *t = new_tile();
	ck_assert_int_eq(ttx_fault_undocumented(t, 1, 0x05000000u), TTX_FAULT);
	ck_assert_str_eq(ttx_tile_error(t), "illegal opcode 0x05 (0x05000000) at thread 1");
	ck_assert_int_eq(ttx_fault_undocumented(t, 1, 0x4B000000u), TTX_FAULT);
	ck_assert_str_eq(ttx_tile_error(t), "undocumented instruction TBUFCMD (0x4B000000) at thread 1");
	ck_assert_int_eq(ttx_fault_undocumented(t, 1, 0x84012340u), TTX_FAULT);
	ck_assert_str_eq(ttx_tile_error(t), "SFPMAD (0x84012340) at thread 1 reached a unit that has no handler "
	                 "for it (a ttx bug: please report it)");
	ttx_tile_destroy(t);
}
END_TEST

/* Every documented word has a handler: running any of them (random
   operands, on the reset state) retires or stops with a fault of its own,
   never "no handler" (the issue-13 promise that unimplemented is gone). */
START_TEST(test_every_documented_word_runs)
{
	uint64_t s = 0xC0FFEE;
	for (unsigned op = 0; op < 256; op++) {
		if (!ttx_isa_insn(op)->mnemonic)
			continue;
		for (unsigned k = 0; k < 48; k++) {
			uint32_t word = op << 24 | ((uint32_t)test_rand(&s) & 0xFFFFFF);
			if (!ttx_isa_layout_of(word))
				continue;
			struct ttx_tile *t = new_tile();
			ck_assert_int_eq(ttx_push(t, k % 3, word), TTX_OK);
			enum ttx_status st = ttx_run(t, 2000);
			ck_assert_msg(st == TTX_OK || !strstr(ttx_tile_error(t), "no handler"),
			              "0x%08X: %s", word, ttx_tile_error(t));
			ttx_tile_destroy(t);
		}
	}
}
END_TEST

START_TEST(test_run_unimplemented_message)
{
	/* Through the run loop: every documented instruction runs, so an
	   undocumented one (TBUFCMD, opcode 0x4B, no page) is what stops. */
	struct ttx_tile *t = new_tile();
	ck_assert_int_eq(ttx_push(t, 1, NOP), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 1, 0x4B000000u), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_str_eq(ttx_tile_error(t), "undocumented instruction TBUFCMD (0x4B000000) at thread 1");
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_run_undocumented_message)
{
	/* Opcode 0x14 is TRNSPSRCA, which has no ISA documentation page. */
	struct ttx_tile *t = new_tile();
	ck_assert_int_eq(ttx_push(t, 0, 0x14000000u), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_str_eq(ttx_tile_error(t), "undocumented instruction TRNSPSRCA (0x14000000) at thread 0");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_run_illegal_opcode_message)
{
	/* Opcode 0x00 is not an instruction.  Instructions before it run. */
	struct ttx_tile *t = new_tile();
	struct ttx_stats st;
	ck_assert_int_eq(ttx_push(t, 2, NOP), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 2, NOP), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 2, 0x00000000u), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_str_eq(ttx_tile_error(t), "illegal opcode 0x00 (0x00000000) at thread 2");
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 2);
	ck_assert_uint_eq(st.insns_by_thread[2], 2);
	/* The faulting instruction was not retired: it is still pending. */
	struct ttx_thread_state s;
	ttx_thread_state(t, 2, &s);
	ck_assert_int_eq(s.pending, 1);
	ck_assert_uint_eq(s.word, 0x00000000u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_run_limit_then_resume)
{
	struct ttx_tile *t = new_tile();
	struct ttx_stats st;
	struct ttx_thread_state s;
	for (unsigned k = 0; k < 5; k++)
		ck_assert_int_eq(ttx_push(t, 0, NOP), TTX_OK);
	ttx_thread_state(t, 0, &s);
	ck_assert_int_eq(s.pending, 5);
	ck_assert_int_eq(s.blocked, 0);
	ck_assert_uint_eq(s.word, NOP);
	ck_assert_int_eq(ttx_run(t, 3), TTX_LIMIT);
	ck_assert_str_ne(ttx_tile_error(t), "");
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 3);
	ttx_thread_state(t, 0, &s);
	ck_assert_int_eq(s.pending, 2);
	ck_assert_int_eq(s.blocked, 0);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 5);
	ttx_thread_state(t, 0, &s);
	ck_assert_int_eq(s.pending, 0);
	/* A budget equal to the work finishes it. */
	for (unsigned k = 0; k < 4; k++)
		ck_assert_int_eq(ttx_push(t, k % 3, NOP), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 4), TTX_OK);
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 9);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_thread_state)
{
	struct ttx_tile *t = new_tile();
	struct ttx_thread_state s;
	for (unsigned k = 0; k < 4; k++)
		ck_assert_int_eq(ttx_push(t, 1, SFPNOP(0x10 + k)), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 2, NOP), TTX_OK);
	ttx_thread_state(t, 0, &s);
	ck_assert_int_eq(s.pending, 0);
	ttx_thread_state(t, 1, &s);
	ck_assert_int_eq(s.pending, 4);
	ck_assert_uint_eq(s.word, SFPNOP(0x10));   /* the next instruction */
	ttx_thread_state(t, 2, &s);
	ck_assert_int_eq(s.pending, 1);
	/* Round robin with budget 3: T1, T2, T1; T1 has 2 left, next 0x8F000012. */
	ck_assert_int_eq(ttx_run(t, 3), TTX_LIMIT);
	ttx_thread_state(t, 1, &s);
	ck_assert_int_eq(s.pending, 2);
	ck_assert_uint_eq(s.word, SFPNOP(0x12));
	ttx_thread_state(t, 2, &s);
	ck_assert_int_eq(s.pending, 0);
	/* Thread 3 does not exist: everything zero. */
	memset(&s, 0xFF, sizeof(s));
	ttx_thread_state(t, 3, &s);
	ck_assert_int_eq(s.pending, 0);
	ck_assert_int_eq(s.blocked, 0);
	ck_assert_uint_eq(s.word, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_trace_callback)
{
	struct trace tr;
	struct ttx_tile *t = traced_tile(&tr);
	ck_assert_int_eq(ttx_push(t, 0, SFPNOP(0xA0)), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 1, NOP), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 2, SFPNOP(0xC2)), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 2, SFPNOP(0xC3)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	/* Once per instruction, in round-robin order: T0 T1 T2, then T2. */
	ck_assert_uint_eq(tr.n, 4);
	const unsigned th[4] = { 0, 1, 2, 2 };
	const uint32_t w[4] = { SFPNOP(0xA0), NOP, SFPNOP(0xC2), SFPNOP(0xC3) };
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_uint_eq(tr.thread[i], th[i]);
		ck_assert_uint_eq(tr.word[i], w[i]);
	}
	/* A faulting instruction is not retired, so it is not traced. */
	ck_assert_int_eq(ttx_push(t, 1, 0x00000000u), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_uint_eq(tr.n, 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_round_robin_order)
{
	/* src/run.c: threads take turns, one instruction each, T0, T1, T2. */
	struct trace tr;
	struct ttx_tile *t = traced_tile(&tr);
	for (unsigned k = 0; k < 2; k++)
		for (unsigned th = 0; th < TTX_THREADS; th++)
			ck_assert_int_eq(ttx_push(t, 2 - th, SFPNOP(0x10 * (2 - th) + k)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(tr.n, 6);
	for (unsigned i = 0; i < 6; i++) {
		ck_assert_uint_eq(tr.thread[i], i % 3);
		ck_assert_uint_eq(tr.word[i], SFPNOP(0x10 * (i % 3) + i / 3));
	}
	/* Uneven queues: T0 x3, T1 x1, T2 x2 -> T0 T1 T2 T0 T2 T0. */
	memset(&tr, 0, sizeof(tr));
	for (unsigned k = 0; k < 3; k++)
		ck_assert_int_eq(ttx_push(t, 0, NOP), TTX_OK);
	ck_assert_int_eq(ttx_push(t, 1, NOP), TTX_OK);
	for (unsigned k = 0; k < 2; k++)
		ck_assert_int_eq(ttx_push(t, 2, NOP), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	const unsigned want[6] = { 0, 1, 2, 0, 2, 0 };
	ck_assert_uint_eq(tr.n, 6);
	for (unsigned i = 0; i < 6; i++)
		ck_assert_uint_eq(tr.thread[i], want[i]);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_push_grows)
{
	/* The pipe holds any number of words (ring buffer that grows), in order,
	   including after part of it has been consumed. */
	struct trace tr;
	struct ttx_tile *t = traced_tile(&tr);
	for (unsigned k = 0; k < 100; k++)
		ck_assert_int_eq(ttx_push(t, 0, SFPNOP(k)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 60), TTX_LIMIT);
	for (unsigned k = 100; k < 3000; k++)
		ck_assert_int_eq(ttx_push(t, 0, SFPNOP(k)), TTX_OK);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(tr.n, 3000);
	for (unsigned k = 0; k < 256; k++)
		ck_assert_uint_eq(tr.word[k], SFPNOP(k));
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Programs                                                                 */
/* ------------------------------------------------------------------------ */

static struct ttx_program *parse(const char *text)
{
	struct ttx_program *p = NULL;
	char err[256] = "";
	ck_assert_msg(ttx_program_parse(text, strlen(text), "t.s", &p, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert_ptr_nonnull(p);
	return p;
}

START_TEST(test_program_mmio_gpr)
{
	struct ttx_tile *t = new_tile();
	struct ttx_program *p = parse(".mmio 0xFFE00000, 0x1234\n");
	ck_assert_uint_eq(ttx_program_size(p), 1);
	const struct ttx_item *it = ttx_program_item(p, 0);
	ck_assert_int_eq(it->kind, TTX_ITEM_MMIO);
	ck_assert_uint_eq(it->thread, 0);
	ck_assert_uint_eq(it->addr, 0xFFE00000u);
	ck_assert_uint_eq(it->value, 0x1234);
	ck_assert_uint_eq(it->line, 1);
	ck_assert_int_eq(ttx_program_run(t, p, 0), TTX_OK);
	uint32_t v = 0;
	ck_assert_int_eq(ttx_gpr_read(t, 0, 0, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x1234);
	ttx_program_free(p);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_program_threads)
{
	struct ttx_tile *t = new_tile();
	struct ttx_program *p = parse(
		"NOP\n"                      /* 1: T0 */
		".thread 2\n"                /* 2 */
		"NOP   # comment\n"          /* 3: T2 */
		"\n"                         /* 4 */
		"TTI_SFPNOP\n"               /* 5: T2 */
		".mmio 0xFFE00004, 7\n"      /* 6: GPR 1 of thread 2 */
		".thread 1\n"                /* 7 */
		".word 0x8F000005\n"         /* 8: T1 */
		".mmio 0xFFE80020, 0\n");    /* 9: post semaphore 0 */
	ck_assert_uint_eq(ttx_program_size(p), 6);
	const struct { int kind; unsigned thread, line; uint32_t word; } want[6] = {
		{ TTX_ITEM_INSN, 0, 1, NOP }, { TTX_ITEM_INSN, 2, 3, NOP },
		{ TTX_ITEM_INSN, 2, 5, SFPNOP(0) }, { TTX_ITEM_MMIO, 2, 6, 0 },
		{ TTX_ITEM_INSN, 1, 8, SFPNOP(5) }, { TTX_ITEM_MMIO, 1, 9, 0 },
	};
	for (unsigned i = 0; i < 6; i++) {
		const struct ttx_item *it = ttx_program_item(p, i);
		ck_assert_int_eq(it->kind, want[i].kind);
		ck_assert_uint_eq(it->thread, want[i].thread);
		ck_assert_uint_eq(it->line, want[i].line);
		if (it->kind == TTX_ITEM_INSN)
			ck_assert_uint_eq(it->word, want[i].word);
	}
	ck_assert_int_eq(ttx_program_run(t, p, 0), TTX_OK);
	ck_assert_uint_eq(t->gpr[2][1], 7);
	ck_assert_uint_eq(t->gpr[0][1], 0);
	ck_assert_uint_eq(t->semaphores[0].value, 1);
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns_by_thread[0], 1);
	ck_assert_uint_eq(st.insns_by_thread[1], 1);
	ck_assert_uint_eq(st.insns_by_thread[2], 2);
	ttx_program_free(p);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_program_mmio_error_line)
{
	/* 0xFFB00800 is unmapped for T0-T2, and ThreadConfig takes no RISC-V
	   stores: both are input errors when the program is parsed, with
	   file:line:col, not faults when the store would run. */
	struct ttx_program *p = (struct ttx_program *)&p;
	char err[256];
	static const char unmapped[] = "NOP\n\nNOP\n.mmio 0xFFB00800, 1\nNOP\n";
	ck_assert_int_eq(ttx_program_parse(unmapped, sizeof(unmapped) - 1, "t.s", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err, "t.s:4:7: .mmio 0xFFB00800: no emulated register there");
	static const char thcfg[] = ".thread 1\n.mmio 0xFFEF05E0, 1\n";
	ck_assert_int_eq(ttx_program_parse(thcfg, sizeof(thcfg) - 1, "t.s", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_str_eq(err, "t.s:2:7: .mmio 0xFFEF05E0: ThreadConfig cannot be written by RISC-V stores; "
	                      "push SETC16 instead");
	/* at run time (ttx_mmio_write) the same reason */
	struct ttx_tile *t = new_tile();
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB00800, 1), TTX_EINVAL);
	ck_assert_str_eq(ttx_tile_error(t), "MMIO store to 0xFFB00800 (as RISCV T0 sees it): past the core's local "
	                                    "data RAM");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_program_parse_errors)
{
	struct ttx_program *p = (struct ttx_program *)1;
	char err[256] = "";
	/* Unaligned address: rejected when parsing, with file and line. */
	const char *a = "NOP\n.mmio 0xFFE00002, 1\n";
	ck_assert_int_eq(ttx_program_parse(a, strlen(a), "bad.s", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(err, "bad.s:2:") != NULL, "%s", err);
	const char *b = ".thread 3\n";
	ck_assert_int_eq(ttx_program_parse(b, strlen(b), "bad.s", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_msg(strstr(err, "bad.s:1:") != NULL, "%s", err);
	const char *c = ".mmio 0xFFE00000\n";
	ck_assert_int_eq(ttx_program_parse(c, strlen(c), "bad.s", &p, err, sizeof(err)), TTX_EINVAL);
}
END_TEST

START_TEST(test_program_from_words)
{
	struct ttx_tile *t = new_tile();
	const uint32_t w[3] = { NOP, SFPNOP(1), NOP };
	struct ttx_program *p = ttx_program_from_words(w, 3, 2);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(ttx_program_size(p), 3);
	for (unsigned i = 0; i < 3; i++) {
		const struct ttx_item *it = ttx_program_item(p, i);
		ck_assert_int_eq(it->kind, TTX_ITEM_INSN);
		ck_assert_uint_eq(it->thread, 2);
		ck_assert_uint_eq(it->word, w[i]);
		ck_assert_uint_eq(it->line, 0);
	}
	ck_assert_int_eq(ttx_program_run(t, p, 0), TTX_OK);
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 3);
	ck_assert_uint_eq(st.insns_by_thread[2], 3);
	ttx_program_free(p);
	/* With a budget smaller than the program: TTX_LIMIT. */
	ttx_tile_reset(t);
	p = ttx_program_from_words(w, 3, 0);
	ck_assert_int_eq(ttx_program_run(t, p, 2), TTX_LIMIT);
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns, 2);
	ttx_program_free(p);
	ttx_tile_destroy(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Many tiles, many host threads                                            */
/* ------------------------------------------------------------------------ */

#define JOB_INSNS 100000u

struct job {
	struct ttx_tile *t;
	unsigned split[TTX_THREADS];
	enum ttx_status push_st, run_st;
};

static void *run_job(void *arg)
{
	struct job *j = arg;
	j->push_st = TTX_OK;
	/* Interleave the pushes so each pipe grows while the others do. */
	unsigned left[TTX_THREADS] = { j->split[0], j->split[1], j->split[2] };
	while (left[0] + left[1] + left[2]) {
		for (unsigned th = 0; th < TTX_THREADS; th++)
			if (left[th]) {
				left[th]--;
				if (ttx_push(j->t, th, th == 1 ? SFPNOP(0) : NOP) != TTX_OK)
					j->push_st = TTX_EINVAL;
			}
	}
	j->run_st = ttx_run(j->t, 0);
	return NULL;
}

START_TEST(test_many_tiles_concurrent)
{
	struct job jobs[4] = {
		{ .split = { JOB_INSNS, 0, 0 } },
		{ .split = { 50000, 30000, 20000 } },
		{ .split = { 0, JOB_INSNS - 1, 1 } },
		{ .split = { 33333, 33333, 33334 } },
	};
	pthread_t tid[4];
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_uint_eq(jobs[i].split[0] + jobs[i].split[1] + jobs[i].split[2], JOB_INSNS);
		jobs[i].t = new_tile();
	}
	for (unsigned i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, run_job, &jobs[i]), 0);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
	for (unsigned i = 0; i < 4; i++) {
		struct ttx_stats st;
		ck_assert_int_eq(jobs[i].push_st, TTX_OK);
		ck_assert_msg(jobs[i].run_st == TTX_OK, "tile %u: %s", i, ttx_tile_error(jobs[i].t));
		ttx_stats_get(jobs[i].t, &st);
		ck_assert_uint_eq(st.insns, JOB_INSNS);
		for (unsigned th = 0; th < TTX_THREADS; th++)
			ck_assert_uint_eq(st.insns_by_thread[th], jobs[i].split[th]);
		/* T1 ran SFPNOPs (unit sfpu), T0 and T2 NOPs (unit misc). */
		ck_assert_uint_eq(st.insns_by_unit[TTX_UNIT_SFPU], jobs[i].split[1]);
		ck_assert_uint_eq(st.insns_by_unit[TTX_UNIT_MISC], jobs[i].split[0] + jobs[i].split[2]);
		ck_assert_uint_eq(st.insns_interp + st.insns_jit, JOB_INSNS);
		for (unsigned th = 0; th < TTX_THREADS; th++) {
			struct ttx_thread_state s;
			ttx_thread_state(jobs[i].t, th, &s);
			ck_assert_int_eq(s.pending, 0);
		}
		ttx_tile_destroy(jobs[i].t);
	}
}
END_TEST

/* Grids (ttx_grid_*): each tile computes x = i + 1, then 100 times
   x = x * 1.5 + 0.25 in a replayed SFPU kernel (JIT, shared cache); the
   results must not depend on the number of worker threads, and each must
   equal a lone tile's. */
static int grid_job(void *ctx, size_t i, struct ttx_tile *t)
{
	const uint32_t *words = ctx;
	ttx_tile_reset(t);
	uint32_t x[TTX_LANES];
	for (unsigned l = 0; l < TTX_LANES; l++) {
		float f = (float)(i + 1);
		memcpy(&x[l], &f, 4);
	}
	if (ttx_lreg_write(t, 0, x) != TTX_OK)
		return TTX_FAULT;
	for (unsigned k = 0; words[k]; k++)
		if (ttx_push(t, 0, words[k]) != TTX_OK)
			return TTX_FAULT;
	for (int r = 0; r < 100; r++)
		ttx_push(t, 0, words[0x40]);   /* the REPLAY playback */
	return ttx_run(t, 0);
}

static int failing_job(void *ctx, size_t i, struct ttx_tile *t)
{
	(void)ctx, (void)t;
	return i == 5 || i == 9 ? (int)i : 0;   /* 5 is TTX_ENOMEM + 2: not a status */
}

START_TEST(test_grid)
{
	uint32_t words[0x41] = { 0 };
	words[0] = enc("SFPLOADI 1, 0, 0x3FC0");
	words[1] = enc("SFPLOADI 2, 0, 0x3E80");
	words[2] = enc("REPLAY 0, 2, 0, 1");
	words[3] = enc("SFPMAD 0, 1, 2, 0, 0");
	words[4] = enc("SFPNOP");
	words[0x40] = enc("REPLAY 0, 2, 0, 0");
	uint32_t result[2][16][TTX_LANES];
	for (int k = 0; k < 2; k++) {
		struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .jit_threshold = 1 };
		struct ttx_grid *g;
		char err[128];
		ck_assert_int_eq(ttx_grid_create(16, &opt, k ? 4 : 1, &g, err, sizeof(err)), TTX_OK);
		ck_assert_uint_eq(ttx_grid_size(g), 16);
		ck_assert_int_eq(ttx_grid_run(g, grid_job, words, NULL), TTX_OK);
		for (size_t i = 0; i < 16; i++)
			ck_assert_int_eq(ttx_lreg_read(ttx_grid_tile(g, i), 0, result[k][i]), TTX_OK);
		ck_assert_ptr_null(ttx_grid_tile(g, 16));
		/* every job runs; the lowest failing index is reported */
		size_t bad = 0;
		ck_assert_int_eq(ttx_grid_run(g, failing_job, NULL, &bad), TTX_FAULT);
		ck_assert_uint_eq(bad, 5);
		ck_assert_int_eq(ttx_grid_run(g, NULL, NULL, NULL), TTX_EINVAL);
		ttx_grid_destroy(g);
	}
	ck_assert_mem_eq(result[0], result[1], sizeof(result[0]));
	/* a lone interpreter tile agrees */
	struct ttx_tile *t = new_tile();
	ck_assert_int_eq(grid_job(words, 7, t), TTX_OK);
	uint32_t lone[TTX_LANES];
	ttx_lreg_read(t, 0, lone);
	ck_assert_mem_eq(lone, result[1][7], sizeof(lone));
	ck_assert_uint_ne(result[1][7][0], result[1][8][0]);
	ttx_tile_destroy(t);
	/* bad arguments */
	struct ttx_grid *g = (struct ttx_grid *)1;
	char err[128] = "";
	ck_assert_int_eq(ttx_grid_create(0, NULL, 0, &g, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_null(g);
	ck_assert_ptr_nonnull(strstr(err, "0 tiles"));
	ck_assert_int_eq(ttx_grid_create(TTX_GRID_MAX_TILES + 1, NULL, 0, &g, err, sizeof(err)), TTX_EINVAL);
	ck_assert_int_eq(ttx_grid_create(2, NULL, 0, NULL, err, sizeof(err)), TTX_EINVAL);
	struct ttx_options big = { .size = sizeof(struct ttx_options) + 8 };
	ck_assert_int_eq(ttx_grid_create(2, &big, 0, &g, err, sizeof(err)), TTX_EINVAL);
	ck_assert_uint_eq(ttx_grid_size(NULL), 0);
	ck_assert_ptr_null(ttx_grid_tile(NULL, 0));
	ttx_grid_destroy(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tile");
	struct { const char *name; TTest const *tests[16]; } cases[] = {
		{ "reset", { test_reset_lregs, test_reset_state, test_reset_null_options, test_reset_restores,
	             test_reset_restores_unit_state, test_tile_create_validates, test_null_handles } },
		{ "l1", { test_l1_first_and_last_byte, test_l1_bounds, test_l1_whole } },
		{ "dst", { test_dst32_placement, test_dst32_ten_bit_row, test_dst32_get_set_roundtrip,
		           test_dst32_fp32_shuffle, test_dst32_write_read_roundtrip,
		           test_dst32_view_covers_every_cell, test_dst16_roundtrip } },
		{ "lreg", { test_lreg_roundtrip, test_lreg_bounds } },
		{ "gpr", { test_gpr_roundtrip, test_gpr_bounds } },
		{ "config", { test_cfg_bounds, test_cfg_global_words_shared, test_thread_cfg_bounds,
		              test_cfg_field_fp32_enabled, test_cfg_field_errors, test_cfg_field_32bit_global,
		              test_cfg_set_global_field_both_banks, test_thread_cfg_field,
		              test_cfg_field_all_names_reachable } },
		{ "config_map", { test_cfg_map_matches_reference } },
		{ "mmio", { test_mmio_l1, test_mmio_gpr, test_mmio_semaphores, test_mmio_config,
		            test_mmio_state_reset_en, test_mmio_thread_config, test_mmio_mop_cfg,
		            test_mmio_push, test_mmio_errors, test_mmio_hook } },
		{ "run", { test_run_nops_all_threads, test_unimplemented_message, test_run_unimplemented_message,
		           test_every_documented_word_runs,
		           test_run_undocumented_message, test_run_illegal_opcode_message,
		           test_run_limit_then_resume, test_thread_state, test_trace_callback,
		           test_round_robin_order, test_push_grows } },
		{ "program", { test_program_mmio_gpr, test_program_threads, test_program_mmio_error_line,
		               test_program_parse_errors, test_program_from_words } },
		{ "threads", { test_many_tiles_concurrent, test_grid } },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);
		tcase_set_timeout(tc, 60);
		for (size_t k = 0; k < 16 && cases[i].tests[k]; k++)
			tcase_add_test(tc, cases[i].tests[k]);
		suite_add_tcase(s, tc);
	}
	return test_run_suite(s);
}
