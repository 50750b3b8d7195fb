/* Sync Unit instructions and the Wait Gate (interp/sync.c): hand-derived
 * expectations from TC/SyncUnit.md, TC/STALLWAIT.md, TC/SEMWAIT.md,
 * TC/SEMINIT.md, TC/SEMPOST.md, TC/SEMGET.md, TC/ATGETM.md, TC/ATRELM.md
 * (TC/ = tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/).
 *
 * Scheduler facts the traces rely on (src/run.c): threads take turns T0, T1,
 * T2, one instruction each; a blocked instruction stays and retries on the
 * thread's next turn; the trace callback fires when an instruction retires.
 * The Wait Gate re-evaluates every thread's latched wait at each gate call
 * (interp/sync.c), so a wait latched on a thread's turn is evaluated again at
 * the next turn of any thread. */
#include <string.h>

#include "tile.h"
#include "units.h"
#include "util.h"

/* Encodings (src/isa.def layouts, checked against the assembler below). */
#define NOP 0x02000000u
#define SFPNOP 0x8F000000u
#define MVMUL 0x26000000u
#define STALLWAIT(block, cond) (0xA2000000u | (uint32_t)(block) << 15 | (uint32_t)(cond))
#define SEMWAIT(block, sems, cond) (0xA6000000u | (uint32_t)(block) << 15 | (uint32_t)(sems) << 2 | (uint32_t)(cond))
#define SEMINIT(max, value, sems) (0xA3000000u | (uint32_t)(max) << 20 | (uint32_t)(value) << 16 | (uint32_t)(sems) << 2)
#define SEMPOST(sems) (0xA4000000u | (uint32_t)(sems) << 2)
#define SEMGET(sems) (0xA5000000u | (uint32_t)(sems) << 2)
#define ATGETM(i) (0xA0000000u | (uint32_t)(i))
#define ATRELM(i) (0xA1000000u | (uint32_t)(i))
#define SETC16(i, v) (0xB2000000u | (uint32_t)(i) << 16 | (uint32_t)(v))
#define WRCFG(gpr, w128, i) (0xB0000000u | (uint32_t)(gpr) << 16 | (uint32_t)(w128) << 15 | (uint32_t)(i))
#define RDCFG(gpr, i) (0xB1000000u | (uint32_t)(gpr) << 16 | (uint32_t)(i))

#define SEM_MMIO(i) (0xFFE80020u + 4u * (i))    /* TC/SyncUnit.md SemaphoreAccess[i] */
#define C8 (1u << 8)
#define C9 (1u << 9)
#define C10 (1u << 10)
#define C11 (1u << 11)

/* ---- helpers ---- */

struct trace {
	unsigned n;
	unsigned thread[512];
	uint32_t word[512];
};

static struct trace tr;

static void on_trace(void *ctx, unsigned thread, uint32_t word)
{
	struct trace *x = ctx;
	ck_assert_uint_lt(x->n, 512);
	x->thread[x->n] = thread;
	x->word[x->n] = word;
	x->n++;
}

static struct ttx_tile *new_tile(void)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .trace = on_trace, .trace_ctx = &tr };
	memset(&tr, 0, sizeof(tr));
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}

#define STALL_OK(t) ck_assert_msg(ttx_run_until_stalled(t, 0) == TTX_OK, "%s", ttx_tile_error(t))

struct step { unsigned thread; uint32_t word; };

static void check_trace(const struct step *want, unsigned n)
{
	for (unsigned i = 0; i < n && i < tr.n; i++)
		ck_assert_msg(tr.thread[i] == want[i].thread && tr.word[i] == want[i].word,
		              "trace[%u] = T%u 0x%08X, expected T%u 0x%08X", i, tr.thread[i], tr.word[i],
		              want[i].thread, want[i].word);
	ck_assert_uint_eq(tr.n, n);
}

#define CHECK_TRACE(...) do { \
	const struct step s_[] = { __VA_ARGS__ }; \
	check_trace(s_, sizeof(s_) / sizeof(s_[0])); \
} while (0)

/* The thread is waiting at `word` (blocked, still pending). */
static void check_blocked_at(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_thread_state s;
	ttx_thread_state(t, thread, &s);
	ck_assert_msg(s.pending && s.blocked && s.word == word,
	              "thread %u: pending %d blocked %d word 0x%08X, expected blocked at 0x%08X",
	              thread, s.pending, s.blocked, s.word, word);
}

static void check_latched(const struct ttx_tile *t, unsigned thread, unsigned opcode, unsigned block,
                          unsigned cond, unsigned sems)
{
	const struct ttx_wait_gate *g = &t->wait_gate[thread];
	ck_assert_msg(g->opcode == opcode && g->block_mask == block && g->condition_mask == cond &&
	              g->semaphore_mask == sems,
	              "thread %u latched {0x%02X, block 0x%03X, cond 0x%04X, sems 0x%02X}, expected "
	              "{0x%02X, 0x%03X, 0x%04X, 0x%02X}", thread, g->opcode, g->block_mask,
	              g->condition_mask, g->semaphore_mask, opcode, block, cond, sems);
}

static void check_deadlock(struct ttx_tile *t, const char *fragment)
{
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	const char *e = ttx_tile_error(t);
	ck_assert_msg(strstr(e, "deadlock") && strstr(e, fragment), "error '%s' lacks 'deadlock' / '%s'",
	              e, fragment);
}

/* ======== Encodings ======== */

START_TEST(test_encodings)
{
	/* tt-llk operand order (src/isa.def TTX_INSN rows) against the bit layouts:
	   STALLWAIT 0x100, 0x100: 0xA2 | 0x100 << 15 = 0x800000 | 0x100.
	   SEMWAIT 2, 1, 1: 0xA6 | 2 << 15 = 0x10000 | 1 << 2 | 1 = 0x10005.
	   SEMINIT 15, 15, 0xFF: 0xA3 | 0xF << 20 | 0xF << 16 | 0xFF << 2 = 0xFF03FC.
	   SEMPOST 0x04: 0x10.  SEMGET 0x80: 0x200.  ATGETM 7, ATRELM 0xFFFF. */
	static const struct { const char *text; uint32_t word, macro; } c[] = {
		{ "STALLWAIT 0x100, 0x100", 0xA2800100u, STALLWAIT(0x100, 0x100) },
		{ "SEMWAIT 2, 1, 1", 0xA6010005u, SEMWAIT(2, 1, 1) },
		{ "SEMINIT 15, 15, 0xFF", 0xA3FF03FCu, SEMINIT(15, 15, 0xFF) },
		{ "SEMPOST 0x04", 0xA4000010u, SEMPOST(0x04) },
		{ "SEMGET 0x80", 0xA5000200u, SEMGET(0x80) },
		{ "ATGETM 7", 0xA0000007u, ATGETM(7) },
		{ "ATRELM 0xFFFF", 0xA100FFFFu, ATRELM(0xFFFF) },
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

/* ======== Wait Gate: the block table ======== */

/* TC/STALLWAIT.md "The exact set of instructions blocked from starting by
   each bit", transcribed by class. */
static const struct { const char *names; unsigned bits; } block_rows[] = {
	{ "ADDDMAREG ATCAS ATINCGET ATINCGETPTR ATSWAP BITWOPDMAREG CMPDMAREG DMANOP FLUSHDMA "
	  "LOADIND LOADREG MULDMAREG REG2FLOP SETDMAREG SHIFTDMAREG STOREIND STOREREG SUBDMAREG",
	  0x001 | 0x020 },                                        /* B0, B5 */
	{ "ADDRCRXY ADDRCRZW INCADCXY INCADCZW RSTDMA SETADC SETADCXX SETADCXY SETADCZW SETDVALID",
	  0x001 },                                                /* B0 */
	{ "ATGETM ATRELM SEMGET SEMINIT SEMPOST SEMWAIT", 0x002 }, /* B1 */
	{ "PACR PACR_SETREG", 0x001 | 0x004 },                    /* B0, B2 */
	{ "UNPACR UNPACR_NOP", 0x001 | 0x008 },                   /* B0, B3 */
	{ "XMOV", 0x001 | 0x010 },                                /* B0, B4 */
	{ "APOOL3S1 APOOL3S2 CLEARDVALID CLREXPHIST CONV3S1 CONV3S2 DOTPV ELWADD ELWMUL ELWSUB "
	  "GAPOOL GATESRCRST GMPOOL INCRWC MFCONV3S1 MOVA2D MOVB2A MOVB2D MOVD2A MOVD2B MOVDBGA2D "
	  "MPOOL3S1 MPOOL3S2 MVMUL SETRWC SHIFTXA SHIFTXB TRNSPSRCB ZEROACC ZEROSRC", 0x040 }, /* B6 */
	{ "RDCFG RMWCIB0 RMWCIB1 RMWCIB2 RMWCIB3 SETC16 WRCFG", 0x080 },                  /* B7 */
	{ "SFPABS SFPADD SFPADDI SFPAND SFPCAST SFPCOMPC SFPCONFIG SFPDIVP2 SFPENCC SFPEXEXP "
	  "SFPEXMAN SFPIADD SFPLOAD SFPLOADI SFPLOADMACRO SFPLUT SFPLUTFP32 SFPLZ SFPMAD SFPMOV "
	  "SFPMUL SFPMULI SFPNOP SFPNOT SFPOR SFPPOPC SFPPUSHC SFPSETCC SFPSETEXP SFPSETMAN "
	  "SFPSETSGN SFPSHFT SFPSHFT2 SFPSTOCHRND SFPSTORE SFPSWAP SFPTRANSP SFPXOR", 0x100 }, /* B8 */
	{ "STALLWAIT", 0x1FF },
};

static unsigned expected_bits(unsigned opcode, unsigned *listed)
{
	for (unsigned r = 0; r < sizeof(block_rows) / sizeof(block_rows[0]); r++) {
		const char *p = block_rows[r].names;
		while (*p) {
			size_t len = strcspn(p, " ");
			const struct ttx_insn_info *insn = ttx_isa_find(p, len);
			ck_assert_msg(insn != NULL, "unknown mnemonic %.*s", (int)len, p);
			if (insn->opcode == opcode) {
				(*listed)++;
				return block_rows[r].bits;
			}
			p += len;
			p += strspn(p, " ");
		}
	}
	return 0;
}

START_TEST(test_gate_block_table)
{
	/* Latch a STALLWAIT whose condition C8 stays unmet (SrcA[0] owned by the
	   matrix unit, Unpackers[0].SrcBank = 0), one block bit at a time, and ask
	   the gate about every opcode: blocked exactly when the page's row has
	   that bit.  NOP, MOP, MOP_CFG, REPLAY and the undocumented opcodes have
	   no bit.  With all nine bits set "all instructions will be blocked". */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	unsigned listed = 0;
	for (unsigned op = 0; op < 256; op++) {
		const struct ttx_insn_info *insn = ttx_isa_insn(op);
		if (!insn->mnemonic)
			continue;
		unsigned want = expected_bits(op, &listed);
		for (unsigned b = 0; b <= 9; b++) {
			unsigned mask = b == 9 ? 0x1FFu : 1u << b;
			t->wait_gate[0] = (struct ttx_wait_gate){ .opcode = TTX_OP_STALLWAIT, .block_mask = (uint16_t)mask,
			                                          .condition_mask = C8 };
			int blocked = ttx_wait_gate_check(t, 0, (uint32_t)op << 24) == TTX_BLOCKED;
			int expect = b == 9 ? 1 : (int)((want >> b) & 1);
			ck_assert_msg(blocked == expect, "%s with block mask 0x%03X: blocked %d, expected %d",
			              insn->mnemonic, mask, blocked, expect);
		}
	}
	/* 116 rows on the page, less MOP, MOP_CFG, NOP, REPLAY; the RMWCIB row is
	   four opcodes: 112 - 1 + 4 = 115. */
	ck_assert_uint_eq(listed, 115);
	/* Still latched: the condition never became true. */
	ck_assert_uint_eq(t->wait_gate[0].opcode, TTX_OP_STALLWAIT);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_gate_per_thread)
{
	/* The latched wait is per thread: T0's STALLWAIT (B8, C8 unmet) does not
	   hold back T1's SFPNOP. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x100, C8), SFPNOP);
	PUSH(t, 1, NOP, SFPNOP | 1);
	STALL_OK(t);
	CHECK_TRACE({ 0, STALLWAIT(0x100, C8) }, { 1, NOP }, { 1, SFPNOP | 1 });
	check_blocked_at(t, 0, SFPNOP);
	ck_assert_uint_eq(t->wait_gate[1].opcode, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== STALLWAIT ======== */

START_TEST(test_stallwait_blocks_class_until_bank_condition)
{
	/* STALLWAIT B8 (SFPU), C8: keep waiting while
	   SrcA[Unpackers[0].SrcBank = 0].AllowedClient != Unpackers.  With SrcA[0]
	   owned by the matrix unit, SEMPOST (B1 class) and SETC16 (B7) pass, the
	   SFPNOP (B8) waits, and so does everything after it (in order). */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x100, C8), SEMPOST(0x01), SETC16(1, 0x0042), SFPNOP, SEMPOST(0x02));
	STALL_OK(t);
	ck_assert_uint_eq(t->semaphores[0].value, 1);
	ck_assert_uint_eq(t->thread_config[0][1], 0x0042);
	ck_assert_uint_eq(t->semaphores[1].value, 0);
	check_blocked_at(t, 0, SFPNOP);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x100, C8, 0);
	/* Nobody else can release it: ttx_run reports the deadlock. */
	check_deadlock(t, "thread 0 blocked at SFPNOP (0x8F000000)");
	/* The unpackers get SrcA[0] back: the condition is met, the wait is
	   forgotten, the rest runs. */
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	RUN_OK(t);
	ck_assert_uint_eq(t->semaphores[1].value, 1);
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
	CHECK_TRACE({ 0, STALLWAIT(0x100, C8) }, { 0, SEMPOST(0x01) }, { 0, SETC16(1, 0x0042) },
	            { 0, SFPNOP }, { 0, SEMPOST(0x02) });
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_stallwait_mask0_defaults)
{
	/* TC/STALLWAIT.md: ConditionMask 0 -> 0x7F, BlockMask 0 -> 1 << 6 (B6). */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, STALLWAIT(0, 0));
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x040, 0x7F, 0);
	/* C0-C6 (ThCon, unpackers, packers) are always met in ttx: the next gate
	   call forgets the wait. */
	PUSH(t, 0, NOP);
	RUN_OK(t);
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);

	/* BlockMask 0 with a real condition: B6 only.  MVMUL (B6) waits; SFPNOP
	   (B8), SETC16 (B7), SEMPOST (B1) and NOP do not. */
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0, C8));
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x040, C8, 0);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, MVMUL), TTX_BLOCKED);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SFPNOP), TTX_OK);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SETC16(1, 0)), TTX_OK);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SEMPOST(1)), TTX_OK);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, NOP), TTX_OK);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_stallwait_all_bits)
{
	/* Block mask 0x1FF: NOP waits too ("special case"), and so does an
	   undocumented opcode (TRNSPSRCA 0x14).  With 0x1FE a NOP passes. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x1FF, C8), NOP);
	STALL_OK(t);
	check_blocked_at(t, 0, NOP);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, 0x14000000u), TTX_BLOCKED);
	check_deadlock(t, "thread 0 blocked at NOP (0x02000000)");
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	RUN_OK(t);

	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x1FE, C8), NOP);
	STALL_OK(t);
	ck_assert_uint_eq(tr.n, 4);        /* STALLWAIT, NOP, STALLWAIT, NOP */
	ck_assert_uint_eq(tr.word[3], NOP);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x1FE, C8, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_stallwait_waits_for_latched_wait)
{
	/* STALLWAIT is blocked by every block bit, so a second STALLWAIT (B6, C9)
	   waits while the first (B7, C8 unmet) is latched, then replaces it. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x080, C8), STALLWAIT(0x040, C9));
	STALL_OK(t);
	check_blocked_at(t, 0, 0xA2200200u);   /* 0xA2 | 0x40 << 15 | 0x200 */
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x080, C8, 0);
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	RUN_OK(t);
	/* No gate call since it latched: C9 (SrcB[0] owned by the unpackers, the
	   reset value) is met but not yet evaluated. */
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x040, C9, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_stallwait_bank_conditions)
{
	/* C8-C11 read the bank pointers (TC/SrcASrcB.md); every pointer is 1 here.
	   The latched wait blocks SFPNOP (B8) until its condition holds. */
	static const struct {
		unsigned cond;
		int srcb;          /* 0: SrcA[1], 1: SrcB[1] */
		uint8_t waiting, met;
	} c[] = {
		{ C8, 0, TTX_SRC_MATRIX_UNIT, TTX_SRC_UNPACKERS },   /* SrcA[Unpackers[0].SrcBank] */
		{ C9, 1, TTX_SRC_MATRIX_UNIT, TTX_SRC_UNPACKERS },   /* SrcB[Unpackers[1].SrcBank] */
		{ C10, 0, TTX_SRC_UNPACKERS, TTX_SRC_MATRIX_UNIT },  /* SrcA[MatrixUnit.SrcABank] */
		{ C11, 1, TTX_SRC_UNPACKERS, TTX_SRC_MATRIX_UNIT },  /* SrcB[MatrixUnit.SrcBBank] */
	};
	for (unsigned i = 0; i < 4; i++) {
		struct ttx_tile *t = new_tile();
		t->unpacker_src_bank[0] = t->unpacker_src_bank[1] = 1;
		t->matrix_srca_bank = t->matrix_srcb_bank = 1;
		/* Bank 0 would satisfy the condition: only bank 1 may count. */
		struct ttx_src_bank *bank = c[i].srcb ? t->srcb : t->srca;
		bank[0].allowed_client = c[i].met;
		bank[1].allowed_client = c[i].waiting;
		PUSH(t, 0, STALLWAIT(0x100, c[i].cond));
		RUN_OK(t);
		ck_assert_int_eq(ttx_wait_gate_check(t, 0, SFPNOP), TTX_BLOCKED);
		ck_assert_int_eq(ttx_wait_gate_check(t, 0, SFPNOP), TTX_BLOCKED);
		bank[1].allowed_client = c[i].met;
		ck_assert_int_eq(ttx_wait_gate_check(t, 0, SFPNOP), TTX_OK);
		ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_stallwait_busy_conditions_met)
{
	/* Every condition but C8-C11 (0x7FFF & ~0x0F00 = 0x70FF) is a "unit busy"
	   condition, already met in ttx: even a full block mask lets the next
	   instruction through at once. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, STALLWAIT(0x1FF, 0x70FF), NOP, SFPNOP);
	RUN_OK(t);
	CHECK_TRACE({ 0, STALLWAIT(0x1FF, 0x70FF) }, { 0, NOP }, { 0, SFPNOP });
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_stallwait_forgotten_once_met)
{
	/* "until all of the selected conditions are simultaneously met, at which
	   point the latched wait instruction will be forgotten": once forgotten it
	   stays forgotten, even if the condition turns false again. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x100, C8), SEMPOST(0x01));
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x100, C8, 0);
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	PUSH(t, 0, NOP);                     /* a gate call: met, forgotten */
	RUN_OK(t);
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, SFPNOP);
	RUN_OK(t);
	ck_assert_uint_eq(tr.n, 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_stallwait_evaluated_by_other_threads)
{
	/* The gate re-evaluates every latched wait "continuously": T0's wait is
	   forgotten at T1's gate call while T0 has nothing left to issue.
	   Round 1: T0 STALLWAIT (latches, C8 unmet), T1 NOP (evaluates: unmet).
	   The host then gives SrcA[0] back to the unpackers and runs T1 only:
	   T1's NOP evaluates T0's wait: met, forgotten. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x100, C8));
	PUSH(t, 1, NOP);
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x100, C8, 0);
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	PUSH(t, 1, NOP);
	RUN_OK(t);
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
	/* So T0's SFPNOP passes even though SrcA[0] is the matrix unit's again. */
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, SFPNOP);
	RUN_OK(t);
	ck_assert_uint_eq(tr.n, 4);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SEMWAIT ======== */

START_TEST(test_semwait_release_by_mmio_post)
{
	/* SEMWAIT B1, semaphore 0, C0 (wait while Value == 0); then SEMGET (B1).
	   A RISC-V post to another semaphore changes nothing; a post (even
	   value) to SemaphoreAccess[0] releases the SEMGET, which takes the
	   semaphore back to 0. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SEMWAIT(0x002, 0x01, 1), SEMGET(0x01));
	STALL_OK(t);
	check_blocked_at(t, 0, 0xA5000004u);
	check_latched(t, 0, TTX_OP_SEMWAIT, 0x002, 1, 0x01);
	ck_assert_int_eq(ttx_mmio_write(t, 0, SEM_MMIO(1), 0), TTX_OK);
	STALL_OK(t);
	check_blocked_at(t, 0, 0xA5000004u);
	ck_assert_uint_eq(t->semaphores[1].value, 1);
	ck_assert_int_eq(ttx_mmio_write(t, 2, SEM_MMIO(0), 0), TTX_OK);   /* any RISC-V can post */
	RUN_OK(t);
	ck_assert_uint_eq(t->semaphores[0].value, 0);
	ck_assert_uint_eq(t->semaphores[1].value, 1);
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
	CHECK_TRACE({ 0, SEMWAIT(0x002, 0x01, 1) }, { 0, SEMGET(0x01) });
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semwait_release_by_other_thread)
{
	/* T1: SEMWAIT B1, semaphore 2, C0; SEMGET 2.   T0: NOP; NOP; SEMPOST 2.
	   Round 1: T0 NOP, T1 SEMWAIT (latches; Value 0).
	   Round 2: T0 NOP, T1 SEMGET blocked (Value 0).
	   Round 3: T0 SEMPOST (Value 1), T1's gate: Value != 0, met -> SEMGET
	   runs (Value 0). */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, NOP, NOP, SEMPOST(0x04));
	PUSH(t, 1, SEMWAIT(0x002, 0x04, 1), SEMGET(0x04));
	RUN_OK(t);
	CHECK_TRACE({ 0, NOP }, { 1, 0xA6010011u }, { 0, NOP }, { 0, 0xA4000010u }, { 1, 0xA5000010u });
	ck_assert_uint_eq(t->semaphores[2].value, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semwait_c1_value_ge_max)
{
	/* SEMINIT Max 2, Value 2 on semaphore 3; SEMWAIT B1, C1 (wait while
	   Value >= Max): the SEMPOST after it waits.  A RISC-V get (odd value)
	   takes Value to 1 < 2: released, SEMPOST makes it 2 again. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SEMINIT(2, 2, 0x08), SEMWAIT(0x002, 0x08, 2), SEMPOST(0x08));
	STALL_OK(t);
	check_blocked_at(t, 0, 0xA4000020u);
	ck_assert_uint_eq(t->semaphores[3].value, 2);
	ck_assert_int_eq(ttx_mmio_write(t, 1, SEM_MMIO(3), 1), TTX_OK);
	ck_assert_uint_eq(t->semaphores[3].value, 1);
	RUN_OK(t);
	ck_assert_uint_eq(t->semaphores[3].value, 2);
	ck_assert_uint_eq(t->semaphores[3].max, 2);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semwait_all_selected_semaphores)
{
	/* SEMWAIT B1 on semaphores 0 and 1 with C0 | C1: keep waiting while any
	   selected semaphore has Value == 0 or Value >= Max. */
	struct ttx_tile *t = new_tile();
	t->semaphores[0].value = 1, t->semaphores[0].max = 2;
	t->semaphores[1].value = 0, t->semaphores[1].max = 2;
	PUSH(t, 0, SEMWAIT(0x002, 0x03, 3));
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_SEMWAIT, 0x002, 3, 0x03);
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SEMPOST(1)), TTX_BLOCKED);   /* sem 1: Value 0 */
	t->semaphores[1].value = 2;
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SEMPOST(1)), TTX_BLOCKED);   /* sem 1: 2 >= 2 */
	t->semaphores[1].value = 1;
	t->semaphores[0].value = 2;
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SEMPOST(1)), TTX_BLOCKED);   /* sem 0: 2 >= 2 */
	t->semaphores[0].value = 1;
	ck_assert_int_eq(ttx_wait_gate_check(t, 0, SEMPOST(1)), TTX_OK);        /* 0 < 1 < 2 for both */
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);

	/* Max 0: Value >= Max always, C1 waits forever (semaphore 4, Value 15). */
	t->semaphores[4].value = 15, t->semaphores[4].max = 0;
	PUSH(t, 0, SEMWAIT(0x002, 0x10, 2), SEMGET(0x10));
	check_deadlock(t, "thread 0 blocked at SEMGET (0xA5000040)");
	/* SemaphoreMask 0: no semaphore keeps it waiting. */
	struct ttx_tile *u = new_tile();
	PUSH(u, 0, SEMWAIT(0x002, 0, 3), SEMGET(0x01));
	RUN_OK(u);
	ttx_tile_destroy(u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semwait_mask0_defaults)
{
	/* ConditionMask 0 latches a STALLWAIT with conditions 0x7F and no
	   semaphores; BlockMask 0 means B6. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SEMWAIT(0, 0x01, 0));
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_STALLWAIT, 0x040, 0x7F, 0);
	PUSH(t, 0, SEMWAIT(0, 0x01, 1));
	RUN_OK(t);
	check_latched(t, 0, TTX_OP_SEMWAIT, 0x040, 1, 0x01);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semwait_replaces_latched_wait)
{
	/* TC/SEMWAIT.md: without B1 in the latched block mask, a SEMWAIT passes
	   the gate and its latching forgets the previous wait.  STALLWAIT B8 (C8
	   unmet) is replaced by SEMWAIT B7 on semaphore 0: the SFPNOP now passes,
	   the SETC16 (B7) waits for semaphore 0. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x100, C8), SEMWAIT(0x080, 0x01, 1), SFPNOP, SETC16(1, 7));
	STALL_OK(t);
	CHECK_TRACE({ 0, STALLWAIT(0x100, C8) }, { 0, 0xA6400005u }, { 0, SFPNOP });
	check_blocked_at(t, 0, 0xB2010007u);
	check_latched(t, 0, TTX_OP_SEMWAIT, 0x080, 1, 0x01);
	ck_assert_int_eq(ttx_mmio_write(t, 0, SEM_MMIO(0), 0), TTX_OK);
	RUN_OK(t);
	ck_assert_uint_eq(t->thread_config[0][1], 7);

	/* With B1 (0x102) the SEMWAIT itself waits. */
	struct ttx_tile *u = new_tile();
	u->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(u, 0, STALLWAIT(0x102, C8), SEMWAIT(0x080, 0x01, 1));
	STALL_OK(u);
	check_blocked_at(u, 0, 0xA6400005u);
	check_latched(u, 0, TTX_OP_STALLWAIT, 0x102, C8, 0);
	ttx_tile_destroy(u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semwait_deadlock)
{
	/* Nobody posts semaphore 5.  The instruction held at the gate is the one
	   after the SEMWAIT; here it is a second SEMWAIT (B1 class), so the
	   report names SEMWAIT: 0xA6 | 2 << 15 | 0x40 << 2 | 1 = 0xA6010101. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 1, SEMWAIT(0x002, 0x20, 1), SEMWAIT(0x002, 0x40, 1));
	check_deadlock(t, "thread 1 blocked at SEMWAIT (0xA6010101)");
	ttx_tile_destroy(t);
	/* The common shape, SEMWAIT then the guarded work, names the work. */
	t = new_tile();
	PUSH(t, 2, SEMWAIT(0x002, 0x20, 1), SEMGET(0x20));
	check_deadlock(t, "thread 2 blocked at SEMGET (0xA5000080)");
	ttx_tile_destroy(t);
}
END_TEST

/* ======== SEMINIT / SEMPOST / SEMGET ======== */

START_TEST(test_seminit)
{
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SEMINIT(15, 15, 0xFF));   /* 0xA3FF03FC: all eight {15, 15} */
	RUN_OK(t);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(t->semaphores[i].value, 15);
		ck_assert_uint_eq(t->semaphores[i].max, 15);
	}
	PUSH(t, 1, SEMINIT(3, 1, 0x81));     /* 0xA3310204: semaphores 0 and 7 */
	PUSH(t, 2, SEMINIT(0, 0, 0));        /* empty mask: no change */
	RUN_OK(t);
	for (unsigned i = 0; i < 8; i++) {
		unsigned v = (i == 0 || i == 7) ? 1 : 15, m = (i == 0 || i == 7) ? 3 : 15;
		ck_assert_uint_eq(t->semaphores[i].value, v);
		ck_assert_uint_eq(t->semaphores[i].max, m);
	}
	/* Value above Max is allowed (5 > 2). */
	PUSH(t, 0, SEMINIT(2, 5, 0x02));
	RUN_OK(t);
	ck_assert_uint_eq(t->semaphores[1].value, 5);
	ck_assert_uint_eq(t->semaphores[1].max, 2);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_sempost_saturates)
{
	/* Semaphores 0, 1 = {14, Max 2}: two SEMPOSTs give 15 (saturating; Max
	   plays no part).  Then SEMPOST 0xFF: 0 and 1 stay 15, 2-7 become 1. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SEMINIT(2, 14, 0x03), SEMPOST(0x03), SEMPOST(0x03));
	RUN_OK(t);
	ck_assert_uint_eq(t->semaphores[0].value, 15);
	ck_assert_uint_eq(t->semaphores[1].value, 15);
	ck_assert_uint_eq(t->semaphores[0].max, 2);
	ck_assert_uint_eq(t->semaphores[2].value, 0);
	PUSH(t, 1, SEMPOST(0xFF));           /* 0xA40003FC */
	RUN_OK(t);
	static const uint8_t want[8] = { 15, 15, 1, 1, 1, 1, 1, 1 };
	for (unsigned i = 0; i < 8; i++)
		ck_assert_uint_eq(t->semaphores[i].value, want[i]);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_semget_floor)
{
	/* Semaphores 0, 2 = {1, Max 5}, 1 = 0: two SEMGETs on 0-2 leave all at 0.
	   Semaphore 7 = 15: one SEMGET gives 14. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, SEMINIT(5, 1, 0x05), SEMGET(0x07), SEMGET(0x07));
	RUN_OK(t);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_uint_eq(t->semaphores[i].value, 0);
	ck_assert_uint_eq(t->semaphores[0].max, 5);
	ck_assert_uint_eq(t->semaphores[2].max, 5);
	PUSH(t, 2, SEMINIT(0, 15, 0x80), SEMGET(0x80));   /* 0xA30F0200, 0xA5000200 */
	RUN_OK(t);
	ck_assert_uint_eq(t->semaphores[7].value, 14);
	ttx_tile_destroy(t);
}
END_TEST

/* ======== ATGETM / ATRELM ======== */

START_TEST(test_atgetm_contention)
{
	/* T0 and T1 both run ATGETM 0; SEMPOST; ATRELM 0.
	   Round 1: T0 acquires, T1 waits.   Round 2: T0 SEMPOST 1, T1 waits.
	   Round 3: T0 releases, T1 acquires on the same round.
	   Rounds 4, 5: T1 SEMPOST 2, ATRELM. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, ATGETM(0), SEMPOST(0x01), ATRELM(0));
	PUSH(t, 1, ATGETM(0), SEMPOST(0x02), ATRELM(0));
	RUN_OK(t);
	CHECK_TRACE({ 0, ATGETM(0) }, { 0, SEMPOST(0x01) }, { 0, ATRELM(0) },
	            { 1, ATGETM(0) }, { 1, SEMPOST(0x02) }, { 1, ATRELM(0) });
	ck_assert_int_eq(t->mutex_owner[0], -1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atgetm_fairness)
{
	/* TC/ATRELM.md: when thread i releases and both others wait, thread
	   (i + 1) % 3 acquires.  T2 takes mutex 2 first (T0, T1 start with NOP).
	   Round 1: T0 NOP, T1 NOP, T2 acquires.   Round 2: T0, T1 wait; T2 NOP.
	   Round 3: T0, T1 wait; T2 releases.      Round 4: T0 acquires (2+1)%3.
	   Round 5: T0 releases, T1 acquires (0+1)%3.   Round 6: T1 releases. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, NOP, ATGETM(2), ATRELM(2));
	PUSH(t, 1, NOP, ATGETM(2), ATRELM(2));
	PUSH(t, 2, ATGETM(2), NOP, ATRELM(2));
	RUN_OK(t);
	CHECK_TRACE({ 0, NOP }, { 1, NOP }, { 2, ATGETM(2) }, { 2, NOP }, { 2, ATRELM(2) },
	            { 0, ATGETM(2) }, { 0, ATRELM(2) }, { 1, ATGETM(2) }, { 1, ATRELM(2) });
	ck_assert_int_eq(t->mutex_owner[2], -1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atgetm_valid_indices)
{
	/* Mutexes 0 and 2-7; re-acquiring a held mutex completes. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 2, ATGETM(0), ATGETM(2), ATGETM(3), ATGETM(4), ATGETM(5), ATGETM(6), ATGETM(7), ATGETM(7));
	RUN_OK(t);
	for (unsigned i = 0; i < 8; i++)
		ck_assert_int_eq(t->mutex_owner[i], i == 1 ? -1 : 2);
	/* Held by T2: T0 waits -> deadlock naming ATGETM 5. */
	PUSH(t, 0, ATGETM(5));
	check_deadlock(t, "thread 0 blocked at ATGETM (0xA0000005)");
	PUSH(t, 2, ATRELM(5));
	RUN_OK(t);
	ck_assert_int_eq(t->mutex_owner[5], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atgetm_invalid_index)
{
	/* Index 1 or > 7: "infinite wait" -> the run ends in a deadlock naming
	   ATGETM; no mutex changes. */
	static const unsigned idx[3] = { 1, 8, 0xFFFF };
	static const char *const msg[3] = {
		"thread 0 blocked at ATGETM (0xA0000001)",
		"thread 0 blocked at ATGETM (0xA0000008)",
		"thread 0 blocked at ATGETM (0xA000FFFF)",
	};
	for (unsigned i = 0; i < 3; i++) {
		struct ttx_tile *t = new_tile();
		PUSH(t, 0, ATGETM(idx[i]), NOP);
		check_deadlock(t, msg[i]);
		for (unsigned m = 0; m < 8; m++)
			ck_assert_int_eq(t->mutex_owner[m], -1);
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_atgetm_blocked_by_latched_wait)
{
	/* ATGETM is a B1 instruction: STALLWAIT B1 (C8 unmet) holds it before it
	   can acquire. */
	struct ttx_tile *t = new_tile();
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	PUSH(t, 0, STALLWAIT(0x002, C8), ATGETM(3));
	STALL_OK(t);
	check_blocked_at(t, 0, ATGETM(3));
	ck_assert_int_eq(t->mutex_owner[3], -1);
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	RUN_OK(t);
	ck_assert_int_eq(t->mutex_owner[3], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atrelm)
{
	/* T0 holds mutex 4; T1's ATRELM 4 completes without changing it
	   ("The instruction completes, but no state is changed").  Releasing a
	   free mutex completes too.  T0's ATRELM frees it. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, ATGETM(4));
	PUSH(t, 1, NOP, ATRELM(4), ATRELM(6));
	RUN_OK(t);
	ck_assert_int_eq(t->mutex_owner[4], 0);
	ck_assert_int_eq(t->mutex_owner[6], -1);
	ck_assert_uint_eq(tr.n, 4);
	PUSH(t, 0, ATRELM(4));
	RUN_OK(t);
	ck_assert_int_eq(t->mutex_owner[4], -1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atrelm_invalid_index)
{
	struct ttx_tile *t = new_tile();
	PUSH(t, 1, ATRELM(1));
	check_deadlock(t, "thread 1 blocked at ATRELM (0xA1000001)");
	ttx_tile_destroy(t);
	t = new_tile();
	PUSH(t, 1, ATRELM(9));
	check_deadlock(t, "thread 1 blocked at ATRELM (0xA1000009)");
	ttx_tile_destroy(t);
}
END_TEST

/* ======== A producer and a consumer ======== */

START_TEST(test_producer_consumer)
{
	/* A two-slot queue in Config words 60-62 guarded by semaphore 0
	   (Value = items queued, Max = 2).  T0 produces three items from its
	   GPRs 0-2:  SEMINIT Max 2, Value 0; per item k: SEMWAIT B7 C1 (wait
	   while Value >= 2); WRCFG GPR k -> Config[60 + k]; SEMPOST.
	   T1 starts late (8 NOPs), then per item k: SEMWAIT B7 C0 (wait while
	   Value == 0); RDCFG Config[60 + k] -> GPR k; SEMGET.

	   Round  T0                         T1            Value after
	   1      SEMINIT                    NOP 1         0
	   2      W0 (latch C1, 0 < 2)       NOP 2         0   (W0's wait forgotten at T1's gate)
	   3      WRCFG 60                   NOP 3
	   4      SEMPOST                    NOP 4         1
	   5      W1                         NOP 5
	   6      WRCFG 61                   NOP 6
	   7      SEMPOST                    NOP 7         2
	   8      W2 (latch; 2 >= 2)         NOP 8
	   9      WRCFG 62 blocked           V0 (latch C0)
	   10     blocked                    RDCFG 60      (T1's wait met: 2 != 0)
	   11     blocked                    SEMGET        1
	   12     WRCFG 62 (1 < 2)           V1 (latch)
	   13     SEMPOST                    RDCFG 61      2
	   14     -                          SEMGET        1
	   15-17  -                          V2, RDCFG 62, SEMGET   0 */
	struct ttx_tile *t = new_tile();
	const uint32_t w[3] = { 0xA0000000u, 0xA1111111u, 0xA2222222u };
	for (unsigned k = 0; k < 3; k++)
		t->gpr[0][k] = w[k];
	const uint32_t init = SEMINIT(2, 0, 0x01), wp = SEMWAIT(0x080, 0x01, 2), post = SEMPOST(0x01);
	const uint32_t wc = SEMWAIT(0x080, 0x01, 1), get = SEMGET(0x01);
	PUSH(t, 0, init, wp, WRCFG(0, 0, 60), post, wp, WRCFG(1, 0, 61), post, wp, WRCFG(2, 0, 62), post);
	PUSH(t, 1, NOP | 1, NOP | 2, NOP | 3, NOP | 4, NOP | 5, NOP | 6, NOP | 7, NOP | 8,
	     wc, RDCFG(0, 60), get, wc, RDCFG(1, 61), get, wc, RDCFG(2, 62), get);
	RUN_OK(t);
	CHECK_TRACE({ 0, init }, { 1, NOP | 1 }, { 0, wp }, { 1, NOP | 2 }, { 0, WRCFG(0, 0, 60) }, { 1, NOP | 3 },
	            { 0, post }, { 1, NOP | 4 }, { 0, wp }, { 1, NOP | 5 }, { 0, WRCFG(1, 0, 61) }, { 1, NOP | 6 },
	            { 0, post }, { 1, NOP | 7 }, { 0, wp }, { 1, NOP | 8 },
	            { 1, wc }, { 1, RDCFG(0, 60) }, { 1, get },
	            { 0, WRCFG(2, 0, 62) }, { 1, wc }, { 0, post }, { 1, RDCFG(1, 61) }, { 1, get },
	            { 1, wc }, { 1, RDCFG(2, 62) }, { 1, get });
	for (unsigned k = 0; k < 3; k++) {
		ck_assert_uint_eq(t->config[0][60 + k], w[k]);
		ck_assert_uint_eq(t->gpr[1][k], w[k]);
	}
	ck_assert_uint_eq(t->semaphores[0].value, 0);
	ck_assert_uint_eq(t->wait_gate[0].opcode, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_consumer_waits_for_producer)
{
	/* The consumer first: T1 SEMWAIT B8 C0 on semaphore 1, then SFPLOAD of
	   Dst row 0 (FP32, Mod0 3) into LReg 1.  T0 writes 1.5 (0x3FC00000,
	   SFPLOADI Mod0 1 = FP32 high half 0x3FC0) to LReg 0, SFPSTOREs it to Dst
	   row 0 (Mod0 3), then SEMPOSTs.
	   Round 1: T0 SFPLOADI, T1 SEMWAIT.    Round 2: T0 SFPSTORE, T1 blocked.
	   Round 3: T0 SEMPOST, T1 SFPLOAD (met: Value 1).  Round 4: T1 SEMGET.
	   SFPLOADI VD 0 Mod0 0 Imm16 0x3FC0: 0x71 | 0 << 20 | 0 << 16 | 0x3FC0.
	   SFPSTORE VD 0 Mod0 3 Imm10 0:      0x72 | 3 << 16.
	   SFPLOAD  VD 1 Mod0 3 Imm10 0:      0x70 | 1 << 20 | 3 << 16. */
	struct ttx_tile *t = new_tile();
	PUSH(t, 0, 0x71003FC0u, 0x72030000u, SEMPOST(0x02));
	PUSH(t, 1, SEMWAIT(0x100, 0x02, 1), 0x70130000u, SEMGET(0x02));
	RUN_OK(t);
	CHECK_TRACE({ 0, 0x71003FC0u }, { 1, SEMWAIT(0x100, 0x02, 1) }, { 0, 0x72030000u },
	            { 0, SEMPOST(0x02) }, { 1, 0x70130000u }, { 1, SEMGET(0x02) });
	for (unsigned lane = 0; lane < TTX_LANES; lane++)
		ck_assert_uint_eq(t->sfpu.lreg[1][lane], 0x3FC00000u);
	ck_assert_uint_eq(t->semaphores[1].value, 0);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sync");
	TCase *tc = test_tcase(s, "encodings");
	tcase_add_test(tc, test_encodings);
	tc = test_tcase(s, "gate");
	tcase_add_test(tc, test_gate_block_table);
	tcase_add_test(tc, test_gate_per_thread);
	tc = test_tcase(s, "STALLWAIT");
	tcase_add_test(tc, test_stallwait_blocks_class_until_bank_condition);
	tcase_add_test(tc, test_stallwait_mask0_defaults);
	tcase_add_test(tc, test_stallwait_all_bits);
	tcase_add_test(tc, test_stallwait_waits_for_latched_wait);
	tcase_add_test(tc, test_stallwait_bank_conditions);
	tcase_add_test(tc, test_stallwait_busy_conditions_met);
	tcase_add_test(tc, test_stallwait_forgotten_once_met);
	tcase_add_test(tc, test_stallwait_evaluated_by_other_threads);
	tc = test_tcase(s, "SEMWAIT");
	tcase_add_test(tc, test_semwait_release_by_mmio_post);
	tcase_add_test(tc, test_semwait_release_by_other_thread);
	tcase_add_test(tc, test_semwait_c1_value_ge_max);
	tcase_add_test(tc, test_semwait_all_selected_semaphores);
	tcase_add_test(tc, test_semwait_mask0_defaults);
	tcase_add_test(tc, test_semwait_replaces_latched_wait);
	tcase_add_test(tc, test_semwait_deadlock);
	tc = test_tcase(s, "SEMINIT");
	tcase_add_test(tc, test_seminit);
	tc = test_tcase(s, "SEMPOST");
	tcase_add_test(tc, test_sempost_saturates);
	tc = test_tcase(s, "SEMGET");
	tcase_add_test(tc, test_semget_floor);
	tc = test_tcase(s, "ATGETM");
	tcase_add_test(tc, test_atgetm_contention);
	tcase_add_test(tc, test_atgetm_fairness);
	tcase_add_test(tc, test_atgetm_valid_indices);
	tcase_add_test(tc, test_atgetm_invalid_index);
	tcase_add_test(tc, test_atgetm_blocked_by_latched_wait);
	tc = test_tcase(s, "ATRELM");
	tcase_add_test(tc, test_atrelm);
	tcase_add_test(tc, test_atrelm_invalid_index);
	tc = test_tcase(s, "producer_consumer");
	tcase_add_test(tc, test_producer_consumer);
	tcase_add_test(tc, test_consumer_waits_for_producer);
	return test_run_suite(s);
}
