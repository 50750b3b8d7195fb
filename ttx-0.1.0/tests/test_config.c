/* Configuration Unit instructions (interp/config.c): hand-derived expectations
 * from TC/SETC16.md, TC/WRCFG.md, TC/RDCFG.md, TC/RMWCIB.md and the "Special
 * cases" of TC/BackendConfiguration.md (TC/ = tt-isa-documentation
 * WormholeB0/TensixTile/TensixCoprocessor/).  Config is [2][188] 32-bit words
 * (bank = ThreadConfig[thread].CFG_STATE_ID_StateID, ThreadConfig index 0 bit
 * 0); words >= 152 (GLOBAL_CFGREG_BASE_ADDR32) are shared by both banks;
 * ThreadConfig is [3][57] 16-bit values. */
#include <string.h>

#include "tile.h"
#include "util.h"

#define NOP 0x02000000u
#define SETC16(i, v) (0xB2000000u | (uint32_t)(i) << 16 | (uint32_t)(v))
#define WRCFG(gpr, w128, i) (0xB0000000u | (uint32_t)(gpr) << 16 | (uint32_t)(w128) << 15 | (uint32_t)(i))
#define RDCFG(gpr, i) (0xB1000000u | (uint32_t)(gpr) << 16 | (uint32_t)(i))
#define RMWCIB(n, mask, value, i) ((0xB3u + (n)) << 24 | (uint32_t)(mask) << 16 | (uint32_t)(value) << 8 | (uint32_t)(i))
#define SEMWAIT(block, sems, cond) (0xA6000000u | (uint32_t)(block) << 15 | (uint32_t)(sems) << 2 | (uint32_t)(cond))
#define SEMPOST(sems) (0xA4000000u | (uint32_t)(sems) << 2)

#define CFG_BASE 0xFFEF0000u             /* TENSIX_CFG_BASE: Config[0][0] */
#define BANK1 (CFG_BASE + 188u * 4u)     /* Config[1][0] = 0xFFEF02F0 */

/* ---- helpers ---- */

static unsigned trace_n;

static void on_trace(void *ctx, unsigned thread, uint32_t word)
{
	(void)ctx, (void)thread, (void)word;
	trace_n++;
}

static struct ttx_tile *new_tile(void)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .trace = on_trace };
	trace_n = 0;
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}


/* Run and expect a fault whose message holds every fragment. */
static void check_fault(struct ttx_tile *t, const char *a, const char *b)
{
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	const char *e = ttx_tile_error(t);
	ck_assert_msg(strstr(e, a) && strstr(e, b) && strstr(e, "undefined behaviour"),
	              "error '%s' lacks '%s' / '%s'", e, a, b);
}

/* Config[b][w] = 0x5A000000 | b << 16 | w: a pattern to see what changes. */
static void fill_pattern(struct ttx_tile *t)
{
	for (unsigned b = 0; b < 2; b++)
		for (unsigned w = 0; w < TTX_CFG_WORDS; w++)
			t->config[b][w] = 0x5A000000u | b << 16 | w;
}

static uint32_t pattern(unsigned b, unsigned w)
{
	return 0x5A000000u | b << 16 | w;
}

static void check_prng(const struct ttx_tile *t, uint32_t want)
{
	for (unsigned lane = 0; lane < TTX_LANES; lane++)
		ck_assert_msg(t->sfpu.prng[lane] == want, "PRNG lane %u = 0x%08X, expected 0x%08X",
		              lane, t->sfpu.prng[lane], want);
}

/* ======== Encodings ======== */

START_TEST(test_encodings)
{
	/* tt-llk operand order (src/isa.def):
	   SETC16 setc16_reg, setc16_value:  0xB2 | 5 << 16 | 0xBEEF.
	   WRCFG GprAddress, wr128b, CfgReg: 0xB0 | 9 << 16 | 1 << 15 | 23 = 0x098017.
	   RDCFG GprAddress, CfgReg:         0xB1 | 63 << 16 | 187 = 0x3F00BB.
	   RMWCIBn Mask, Data, CfgRegAddr:   0xB3+n | 0x0F << 16 | 0xAB << 8 | 30 = 0x0FAB1E. */
	static const struct { const char *text; uint32_t word, macro; } c[] = {
		{ "SETC16 5, 0xBEEF", 0xB205BEEFu, SETC16(5, 0xBEEF) },
		{ "WRCFG 9, 1, 23", 0xB0098017u, WRCFG(9, 1, 23) },
		{ "RDCFG 63, 187", 0xB13F00BBu, RDCFG(63, 187) },
		{ "RMWCIB0 0x0F, 0xAB, 30", 0xB30FAB1Eu, RMWCIB(0, 0x0F, 0xAB, 30) },
		{ "RMWCIB3 0x0F, 0xAB, 30", 0xB60FAB1Eu, RMWCIB(3, 0x0F, 0xAB, 30) },
	};
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t w = 0;
		char err[128];
		ck_assert_msg(ttx_asm_line(c[i].text, &w, err, sizeof(err)) == TTX_OK, "%s: %s", c[i].text, err);
		ck_assert_msg(w == c[i].word && c[i].macro == c[i].word, "%s: asm 0x%08X macro 0x%08X, expected 0x%08X",
		              c[i].text, w, c[i].macro, c[i].word);
	}
}
END_TEST

/* ======== SETC16 ======== */

START_TEST(test_setc16_write)
{
	/* ThreadConfig[CurrentThread][CfgIndex] = NewValue: only the issuing
	   thread's bank changes. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 1, SETC16(5, 0xBEEF));
	PUSH(t, 2, SETC16(56, 0xFFFF));          /* the last index, THD_STATE_SIZE - 1 */
	PUSH(t, 0, SETC16(42, 0x8001));          /* CG_CTRL_EN_*: no modelled effect, stored */
	RUN_OK(t);
	ck_assert_uint_eq(t->thread_config[1][5], 0xBEEF);
	ck_assert_uint_eq(t->thread_config[0][5], 0);
	ck_assert_uint_eq(t->thread_config[2][5], 0);
	ck_assert_uint_eq(t->thread_config[2][56], 0xFFFF);
	ck_assert_uint_eq(t->thread_config[0][42], 0x8001);
	/* A second write replaces all 16 bits. */
	PUSH(t, 1, SETC16(5, 0x0001));
	RUN_OK(t);
	ck_assert_uint_eq(t->thread_config[1][5], 0x0001);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_setc16_bank_select)
{
	/* CFG_STATE_ID_StateID is bit 0 of index 0: 0xFFFF selects bank 1, 0xFFFE
	   bank 0; the whole 16 bits are stored. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 2, SETC16(0, 0xFFFF));
	RUN_OK(t);
	ck_assert_uint_eq(t->thread_config[2][0], 0xFFFF);
	ck_assert_uint_eq(ttx_cfg_bank(t, 2), 1);
	ck_assert_uint_eq(ttx_cfg_bank(t, 0), 0);
	PUSH(t, 2, SETC16(0, 0xFFFE));
	RUN_OK(t);
	ck_assert_uint_eq(ttx_cfg_bank(t, 2), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_setc16_index_bound)
{
	/* CfgIndex >= THD_STATE_SIZE (57) is undefined behaviour: a fault, and
	   nothing written. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SETC16(57, 1));
	check_fault(t, "SETC16 (0xB2390001)", "CfgIndex 57");
	ttx_tile_destroy(t);
	t = new_tile();
	PUSH(t, 1, SETC16(255, 1));
	check_fault(t, "SETC16", "CfgIndex 255");
	for (unsigned th = 0; th < TTX_THREADS; th++)
		for (unsigned i = 0; i < TTX_THREAD_CFG_WORDS; i++)
			ck_assert_uint_eq(t->thread_config[th][i], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== WRCFG ======== */

START_TEST(test_wrcfg_32)
{
	/* Config[StateID][CfgIndex] = GPRs[thread][InputReg]: T0 (bank 0) writes
	   word 10; T2 selects bank 1 and writes word 10 there. */
	struct ttx_tile *t = new_tile();
	t->gpr[0][7] = 0x12345678u;
	t->gpr[2][3] = 0x0BADF00Du;
	t->gpr[2][7] = 0x77777777u;               /* other thread's GPR 7: not read */
	PUSH(t, 0, WRCFG(7, 0, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[0][10], 0x12345678u);
	ck_assert_uint_eq(t->config[1][10], 0);
	PUSH(t, 2, SETC16(0, 1), WRCFG(3, 0, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[1][10], 0x0BADF00Du);
	ck_assert_uint_eq(t->config[0][10], 0x12345678u);
	/* Word 151 is per bank; word 152 (GLOBAL_CFGREG_BASE_ADDR32) lands in both. */
	t->gpr[0][63] = 0xFEEDFACEu;
	PUSH(t, 0, WRCFG(63, 0, 151), WRCFG(63, 0, 152), WRCFG(63, 0, 187));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[0][151], 0xFEEDFACEu);
	ck_assert_uint_eq(t->config[1][151], 0);
	ck_assert_uint_eq(t->config[0][152], 0xFEEDFACEu);
	ck_assert_uint_eq(t->config[1][152], 0xFEEDFACEu);
	ck_assert_uint_eq(t->config[1][187], 0xFEEDFACEu);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_wrcfg_128_alignment)
{
	/* Is128Bit: memcpy(&Config[StateID][CfgIndex & ~3], &GPRs[InputReg & ~3], 16).
	   InputReg 9 -> GPRs 8-11, CfgIndex 23 -> words 20-23; words 19 and 24 and
	   GPR 12 play no part. */
	struct ttx_tile *t = new_tile();
	for (unsigned w = 19; w <= 24; w++)
		t->config[0][w] = 0xEEEEEEEEu;
	t->gpr[0][8] = 0x11111111u, t->gpr[0][9] = 0x22222222u;
	t->gpr[0][10] = 0x33333333u, t->gpr[0][11] = 0x44444444u;
	t->gpr[0][12] = 0x55555555u;
	PUSH(t, 0, WRCFG(9, 1, 23));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[0][19], 0xEEEEEEEEu);
	ck_assert_uint_eq(t->config[0][20], 0x11111111u);
	ck_assert_uint_eq(t->config[0][21], 0x22222222u);
	ck_assert_uint_eq(t->config[0][22], 0x33333333u);
	ck_assert_uint_eq(t->config[0][23], 0x44444444u);
	ck_assert_uint_eq(t->config[0][24], 0xEEEEEEEEu);
	ck_assert_uint_eq(t->config[1][20], 0);
	/* The top: InputReg 63 -> GPRs 60-63, CfgIndex 187 -> words 184-187,
	   all >= 152, so both banks; from a bank-1 thread. */
	for (unsigned i = 0; i < 4; i++)
		t->gpr[1][60 + i] = 0xC0000000u | i;
	PUSH(t, 1, SETC16(0, 1), WRCFG(63, 1, 187));
	RUN_OK(t);
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_uint_eq(t->config[0][184 + i], 0xC0000000u | i);
		ck_assert_uint_eq(t->config[1][184 + i], 0xC0000000u | i);
	}
	/* Words 148-151 are per bank: CfgIndex 150 from bank 1 leaves bank 0. */
	PUSH(t, 1, WRCFG(61, 1, 150));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[1][148], 0xC0000000u);
	ck_assert_uint_eq(t->config[1][151], 0xC0000003u);
	ck_assert_uint_eq(t->config[0][148], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_wrcfg_index_bound)
{
	/* CfgIndex >= CFG_STATE_SIZE * 4 (188) is undefined behaviour, 32 or
	   128 bits (191 & ~3 = 188). */
	static const uint32_t words[3] = { WRCFG(0, 0, 188), WRCFG(0, 0, 0x7FF), WRCFG(0, 1, 191) };
	static const char *const what[3] = { "CfgIndex 188", "CfgIndex 2047", "CfgIndex 191" };
	for (unsigned i = 0; i < 3; i++) {
		struct ttx_tile *t = new_tile();
		t->gpr[0][0] = 1;
		PUSH(t, 0, words[i]);
		check_fault(t, "WRCFG", what[i]);
		for (unsigned w = 0; w < TTX_CFG_WORDS; w++)
			ck_assert_uint_eq(t->config[0][w] | t->config[1][w], 0);
		ttx_tile_destroy(t);
	}
}
END_TEST

/* ======== RDCFG ======== */

START_TEST(test_rdcfg_read)
{
	/* GPRs[thread][ResultReg] = Config[StateID][CfgIndex]. */
	struct ttx_tile *t = new_tile();
	t->config[0][33] = 0x11111111u;
	t->config[1][33] = 0xCAFEBABEu;
	ck_assert_int_eq(ttx_cfg_write(t, 0, 170, 0x17017017u), TTX_OK);   /* shared word */
	PUSH(t, 0, RDCFG(5, 33), SETC16(0, 1), RDCFG(6, 33), RDCFG(63, 170), RDCFG(0, 187));
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][5], 0x11111111u);
	ck_assert_uint_eq(t->gpr[0][6], 0xCAFEBABEu);
	ck_assert_uint_eq(t->gpr[0][63], 0x17017017u);
	ck_assert_uint_eq(t->gpr[0][0], 0);
	ck_assert_uint_eq(t->gpr[1][5], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rdcfg_index_bound)
{
	struct ttx_tile *t = new_tile();
	t->gpr[0][1] = 0x99u;
	PUSH(t, 0, RDCFG(1, 188));
	check_fault(t, "RDCFG (0xB10100BC)", "CfgIndex 188");
	ck_assert_uint_eq(t->gpr[0][1], 0x99u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rdcfg_simultaneous_dropped)
{
	/* TC/RDCFG.md: RDCFGs issued by several threads "on the same cycle": one
	   executes, the others are silently dropped.  In ttx: the same scheduler
	   round; the first thread of the round executes.  Config[0][10] = 0x55. */
	struct ttx_tile *t = new_tile();
	t->config[0][10] = 0x55u;
	for (unsigned th = 0; th < 3; th++) {
		t->gpr[th][1] = 0xDDu;
		PUSH(t, th, RDCFG(1, 10));
	}
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][1], 0x55u);
	ck_assert_uint_eq(t->gpr[1][1], 0xDDu);      /* dropped: GPR unchanged */
	ck_assert_uint_eq(t->gpr[2][1], 0xDDu);
	ck_assert_uint_eq(trace_n, 3);               /* all three retired */

	/* T0 NOP; T1 and T2 RDCFG in round 1: T1 executes, T2 is dropped. */
	t->gpr[1][1] = t->gpr[2][1] = 0xDDu;
	PUSH(t, 0, NOP);
	PUSH(t, 1, RDCFG(1, 10));
	PUSH(t, 2, RDCFG(1, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[1][1], 0x55u);
	ck_assert_uint_eq(t->gpr[2][1], 0xDDu);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rdcfg_different_rounds)
{
	struct ttx_tile *t = new_tile();
	t->config[0][10] = 0x55u;
	/* Round 1: T0 RDCFG, T1 NOP.  Round 2: T1 RDCFG (T0 has run dry). */
	PUSH(t, 0, RDCFG(1, 10));
	PUSH(t, 1, NOP, RDCFG(1, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][1], 0x55u);
	ck_assert_uint_eq(t->gpr[1][1], 0x55u);
	/* Round 1: T0 NOP, T1 RDCFG, T2 NOP.  Round 2: T0 RDCFG, T2 RDCFG:
	   the same round, T2 dropped. */
	memset(t->gpr, 0, sizeof(t->gpr));
	PUSH(t, 0, NOP, RDCFG(2, 10));
	PUSH(t, 1, RDCFG(2, 10));
	PUSH(t, 2, NOP, RDCFG(2, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][2], 0x55u);
	ck_assert_uint_eq(t->gpr[1][2], 0x55u);
	ck_assert_uint_eq(t->gpr[2][2], 0);
	/* Separate runs: T0's RDCFG is the last of its run, T1's the first of
	   the next (T1 had nothing queued then): both execute. */
	memset(t->gpr, 0, sizeof(t->gpr));
	PUSH(t, 0, RDCFG(3, 10));
	RUN_OK(t);
	PUSH(t, 1, RDCFG(3, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][3], 0x55u);
	ck_assert_uint_eq(t->gpr[1][3], 0x55u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rdcfg_blocked_is_not_issued)
{
	/* An RDCFG held at the Wait Gate is not issued.
	   T1: SEMWAIT B7 on semaphore 0 (C0); RDCFG.   T0: NOP; RDCFG; SEMPOST 0.
	   Round 1: T0 NOP, T1 SEMWAIT.   Round 2: T0 RDCFG, T1 RDCFG held.
	   Round 3: T0 SEMPOST, T1 RDCFG passes (a round without T0's RDCFG). */
	struct ttx_tile *t = new_tile();
	t->config[0][10] = 0x55u;
	PUSH(t, 0, NOP, RDCFG(1, 10), SEMPOST(0x01));
	PUSH(t, 1, SEMWAIT(0x080, 0x01, 1), RDCFG(1, 10));
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][1], 0x55u);
	ck_assert_uint_eq(t->gpr[1][1], 0x55u);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== RMWCIB0-3 ======== */

/* Config[0][30] = 0x11223344; byte n of it is (NewValue & Mask) | (old & ~Mask). */
static const struct { uint8_t mask, value; uint32_t after; } rmw_cases[4][4] = {
	{   /* byte 0 = 0x44 */
		{ 0xFF, 0xAB, 0x112233ABu },
		{ 0x0F, 0xAB, 0x1122334Bu },     /* 0x0B | 0x40 */
		{ 0x00, 0xAB, 0x11223344u },
		{ 0xF0, 0x00, 0x11223304u },     /* 0x00 | 0x04 */
	},
	{   /* byte 1 = 0x33 */
		{ 0xFF, 0xAB, 0x1122AB44u },
		{ 0x0F, 0xAB, 0x11223B44u },     /* 0x0B | 0x30 */
		{ 0x00, 0xFF, 0x11223344u },
		{ 0xF0, 0x00, 0x11220344u },     /* 0x00 | 0x03 */
	},
	{   /* byte 2 = 0x22 */
		{ 0xFF, 0xAB, 0x11AB3344u },
		{ 0xF0, 0xAB, 0x11A23344u },     /* 0xA0 | 0x02 */
		{ 0x00, 0xFF, 0x11223344u },
		{ 0x81, 0xFF, 0x11A33344u },     /* 0x81 | (0x22 & 0x7E = 0x22) */
	},
	{   /* byte 3 = 0x11 */
		{ 0xFF, 0x00, 0x00223344u },
		{ 0x0F, 0xFF, 0x1F223344u },     /* 0x0F | 0x10 */
		{ 0x00, 0xFF, 0x11223344u },
		{ 0xFF, 0xFF, 0xFF223344u },
	},
};

START_TEST(test_rmwcib_byte_lane)
{
	unsigned n = (unsigned)_i;
	for (unsigned c = 0; c < 4; c++) {
		struct ttx_tile *t = new_tile();
		t->config[0][30] = 0x11223344u;
		PUSH(t, 0, RMWCIB(n, rmw_cases[n][c].mask, rmw_cases[n][c].value, 30));
		RUN_OK(t);
		ck_assert_msg(t->config[0][30] == rmw_cases[n][c].after,
		              "RMWCIB%u mask 0x%02X value 0x%02X: 0x%08X, expected 0x%08X", n,
		              rmw_cases[n][c].mask, rmw_cases[n][c].value, t->config[0][30], rmw_cases[n][c].after);
		ck_assert_uint_eq(t->config[1][30], 0);
		ck_assert_uint_eq(t->config[0][29] | t->config[0][31], 0);
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_rmwcib_bank_select)
{
	/* RMWCIB1 from a bank-1 thread: Config[1][7] byte 1 0x00 -> 0xC3; bank 0
	   keeps 0x00007700. */
	struct ttx_tile *t = new_tile();
	t->config[0][7] = 0x00007700u;
	PUSH(t, 1, SETC16(0, 1), RMWCIB(1, 0xFF, 0xC3, 7));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[1][7], 0x0000C300u);
	ck_assert_uint_eq(t->config[0][7], 0x00007700u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rmwcib_global_word)
{
	/* Word 160 >= 152: the new word lands in both banks.  0x01020304 with
	   byte 2 := 0xEE -> 0x01EE0304. */
	struct ttx_tile *t = new_tile();
	ck_assert_int_eq(ttx_cfg_write(t, 0, 160, 0x01020304u), TTX_OK);
	PUSH(t, 2, RMWCIB(2, 0xFF, 0xEE, 160));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[0][160], 0x01EE0304u);
	ck_assert_uint_eq(t->config[1][160], 0x01EE0304u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rmwcib_index_bound)
{
	/* Index4 >= 188 is undefined behaviour; 187 is the last word. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, RMWCIB(3, 0xFF, 0x12, 187));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[0][187], 0x12000000u);
	ck_assert_uint_eq(t->config[1][187], 0x12000000u);
	PUSH(t, 0, RMWCIB(3, 0xFF, 0x12, 188));
	check_fault(t, "RMWCIB3 (0xB6FF12BC)", "Index4 188");
	ttx_tile_destroy(t);
	t = new_tile();
	PUSH(t, 0, RMWCIB(0, 0xFF, 0x12, 255));
	check_fault(t, "RMWCIB0", "Index4 255");
	ttx_tile_destroy(t);
}
END_TEST

/* ======== Writes with side effects ======== */

START_TEST(test_state_reset_wrcfg)
{
	/* Writing anything to Config[i][STATE_RESET_EN_ADDR32 = 4] clears
	   Config[i][0..151].  T0 (bank 0) writes 0: bank 0 words 0-151 are 0,
	   152-187 and all of bank 1 keep the pattern. */
	struct ttx_tile *t = new_tile();
	fill_pattern(t);
	PUSH(t, 0, WRCFG(0, 0, 4));
	RUN_OK(t);
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++) {
		ck_assert_uint_eq(t->config[0][w], w < 152 ? 0 : pattern(0, w));
		ck_assert_uint_eq(t->config[1][w], pattern(1, w));
	}
	/* A bank-1 thread's 128-bit write to words 4-7 (non-zero GPRs): all four
	   words are stored, then the reset clears 0-151 of bank 1 (ttx's order). */
	fill_pattern(t);
	for (unsigned i = 4; i < 8; i++)
		t->gpr[1][i] = 0xFFFFFFFFu;
	PUSH(t, 1, SETC16(0, 1), WRCFG(5, 1, 6));
	RUN_OK(t);
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++) {
		ck_assert_uint_eq(t->config[1][w], w < 152 ? 0 : pattern(1, w));
		ck_assert_uint_eq(t->config[0][w], pattern(0, w));
	}
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_state_reset_other_writers)
{
	struct ttx_tile *t = new_tile();
	/* A RISC-V store to Config[1][4] (0xFFEF02F0 + 16) resets bank 1. */
	fill_pattern(t);
	ck_assert_int_eq(ttx_mmio_write(t, 2, BANK1 + 4 * 4, 0x12345678u), TTX_OK);
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++) {
		ck_assert_uint_eq(t->config[1][w], w < 152 ? 0 : pattern(1, w));
		ck_assert_uint_eq(t->config[0][w], pattern(0, w));
	}
	/* RMWCIB is the documented exception: word 4 byte 0 of 0x5A000004 with
	   mask 0xFF, value 0x01 -> 0x5A000001, nothing else changes. */
	fill_pattern(t);
	PUSH(t, 0, RMWCIB(0, 0xFF, 0x01, 4));
	RUN_OK(t);
	for (unsigned w = 0; w < TTX_CFG_WORDS; w++)
		ck_assert_uint_eq(t->config[0][w], w == 4 ? 0x5A000001u : pattern(0, w));
	/* The host API is a plain store (a debugger's view). */
	fill_pattern(t);
	ck_assert_int_eq(ttx_cfg_write(t, 0, 4, 1), TTX_OK);
	ck_assert_uint_eq(t->config[0][4], 1);
	ck_assert_uint_eq(t->config[0][5], pattern(0, 5));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_prng_seed)
{
	/* Writing PRNG_SEED_Seed_Val (word 164, all 32 bits, shared by both
	   banks) seeds every lane's PRNG with the value (ttx's rule). */
	struct ttx_tile *t = new_tile();
	t->gpr[0][2] = 0x12345678u;
	PUSH(t, 0, WRCFG(2, 0, 164));
	RUN_OK(t);
	ck_assert_uint_eq(t->config[0][164], 0x12345678u);
	ck_assert_uint_eq(t->config[1][164], 0x12345678u);
	check_prng(t, 0x12345678u);
	/* RMWCIB1 mask 0xFF value 0x5A: word 0x12345A78 seeds. */
	PUSH(t, 1, RMWCIB(1, 0xFF, 0x5A, 164));
	RUN_OK(t);
	check_prng(t, 0x12345A78u);
	/* RMWCIB with mask 0 still writes the word back: reseeds with it. */
	for (unsigned lane = 0; lane < TTX_LANES; lane++)
		t->sfpu.prng[lane] = lane;
	PUSH(t, 1, RMWCIB(2, 0x00, 0xFF, 164));
	RUN_OK(t);
	check_prng(t, 0x12345A78u);
	/* A RISC-V store through bank 1's window (word 164). */
	ck_assert_int_eq(ttx_mmio_write(t, 0, BANK1 + 4 * 164, 0xDEADBEEFu), TTX_OK);
	ck_assert_uint_eq(t->config[0][164], 0xDEADBEEFu);
	check_prng(t, 0xDEADBEEFu);
	/* 128-bit WRCFG to words 164-167 (CfgIndex 167): GPR 8 seeds. */
	t->gpr[2][8] = 0x0000CAFEu, t->gpr[2][9] = 1, t->gpr[2][10] = 2, t->gpr[2][11] = 3;
	PUSH(t, 2, WRCFG(11, 1, 167));
	RUN_OK(t);
	check_prng(t, 0x0000CAFEu);
	ck_assert_uint_eq(t->config[1][167], 3);
	/* Host writes do not seed. */
	ck_assert_int_eq(ttx_cfg_write(t, 0, 164, 7), TTX_OK);
	ck_assert_int_eq(ttx_cfg_field_write(t, "PRNG_SEED_Seed_Val", 1, 9), TTX_OK);
	check_prng(t, 0x0000CAFEu);
	/* Neighbouring words do not seed. */
	t->gpr[0][3] = 0x1u;
	PUSH(t, 0, WRCFG(3, 0, 163), WRCFG(3, 0, 165));
	RUN_OK(t);
	check_prng(t, 0x0000CAFEu);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("config");
	TCase *tc = test_tcase(s, "encodings");
	tcase_add_test(tc, test_encodings);
	tc = test_tcase(s, "SETC16");
	tcase_add_test(tc, test_setc16_write);
	tcase_add_test(tc, test_setc16_bank_select);
	tcase_add_test(tc, test_setc16_index_bound);
	tc = test_tcase(s, "WRCFG");
	tcase_add_test(tc, test_wrcfg_32);
	tcase_add_test(tc, test_wrcfg_128_alignment);
	tcase_add_test(tc, test_wrcfg_index_bound);
	tc = test_tcase(s, "RDCFG");
	tcase_add_test(tc, test_rdcfg_read);
	tcase_add_test(tc, test_rdcfg_index_bound);
	tcase_add_test(tc, test_rdcfg_simultaneous_dropped);
	tcase_add_test(tc, test_rdcfg_different_rounds);
	tcase_add_test(tc, test_rdcfg_blocked_is_not_issued);
	static const char *const rmw_names[4] = { "RMWCIB0", "RMWCIB1", "RMWCIB2", "RMWCIB3" };
	for (int n = 0; n < 4; n++) {
		tc = test_tcase(s, rmw_names[n]);
		tcase_add_loop_test(tc, test_rmwcib_byte_lane, n, n + 1);
	}
	tc = test_tcase(s, "RMWCIB");
	tcase_add_test(tc, test_rmwcib_bank_select);
	tcase_add_test(tc, test_rmwcib_global_word);
	tcase_add_test(tc, test_rmwcib_index_bound);
	tc = test_tcase(s, "config_writes");
	tcase_add_test(tc, test_state_reset_wrcfg);
	tcase_add_test(tc, test_state_reset_other_writers);
	tcase_add_test(tc, test_prng_seed);
	return test_run_suite(s);
}
