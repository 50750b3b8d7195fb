/* The JIT against the interpreter (docs/jit.md).
 *
 * The differential fuzzer: random SFPU programs (every SFPU opcode, random
 * fields, backdoor VDs, flag stack traffic) on random state (special FP
 * values, lane flags, ROW_MASK and other LaneConfig bits, flag stacks, PRNG,
 * Dst, ADDR_MOD), delivered straight, through a replay buffer or as a MOP,
 * run by both engines and compared on every piece of SFPU state, Dst, RWCs
 * and the status.  Each program runs twice on fresh data so the second run
 * takes cached code.  TTX_JIT_FUZZ_PROGRAMS sets how many (make check:
 * 2,000; make check-long: 1,000,000 over both cores).
 *
 * Plus: tiering and statistics, the cache following re-recorded replay
 * buffers, rewritten MopCfg and changed ROW_MASK, faults and instruction
 * budgets inside blocks, and --numerics fast against its scalar statement. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sfpu_test.h"
#include "pack_test.h"
#include "jit.h"

static struct ttx_tile *new_tile(enum ttx_engine engine, enum ttx_numerics numerics)
{
	struct ttx_options opt = { .engine = engine, .numerics = numerics, .jit_threshold = 1, .timing = 1 };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}

/* ---- random state ---- */

static uint32_t special_value(uint64_t *rng)
{
	static const uint32_t specials[] = {
		0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC0F29F, 0x7F800001,
		0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000,
		0xBF800000, 0x3F7FFFFF, 0x4B800001, 0xCB800000, 0x7FFFFFFF, 0xFFFFFFFF, 0x00000020,
		0x3F000000, 0x1F31E000, 0x20000000, 0x80DDADBE,
	};
	uint64_t r = test_rand(rng);
	switch (r % 4) {
	case 0: return specials[(r >> 8) % (sizeof(specials) / sizeof(specials[0]))];
	case 1: return (uint32_t)(r >> 32);
	case 2: return (uint32_t)(r >> 32) % 64;                                /* small integers */
	default: return ((uint32_t)(r >> 20) & 0x807FFFFFu) | (uint32_t)(100 + (r >> 8) % 56) << 23;   /* normals near 1 */
	}
}

static void random_state(struct ttx_tile *t, uint64_t *rng)
{
	struct ttx_sfpu *s = &t->sfpu;
	for (unsigned r = 0; r < 8; r++)
		for (unsigned l = 0; l < TTX_LANES; l++)
			s->lreg[r][l] = special_value(rng);
	uint64_t r = test_rand(rng);
	s->lane_flags = (uint32_t)r;
	s->use_lane_flags = (r >> 32) % 4 ? 0xFFFFFFFFu : (uint32_t)(r >> 32);
	r = test_rand(rng);
	for (unsigned l = 0; l < TTX_LANES; l++) {
		uint32_t cfg = 0;
		if (r % 4 == 0)
			cfg |= (uint32_t)(test_rand(rng) >> 40) & 0xF01Fu;   /* ROW_MASK and bits 0-4 */
		else if (r % 4 == 1)
			cfg |= TTX_LANECFG_DISABLE_BACKDOOR_LOAD;
		s->lane_config[l] = cfg;
		s->prng[l] = (uint32_t)test_rand(rng);
	}
	r = test_rand(rng);
	unsigned depth = (unsigned)(r % 8 == 0 ? 6 + (r >> 8) % 3 : r % 3);   /* sometimes near full */
	for (unsigned d = 0; d < depth; d++) {
		s->flag_stack[d].lane_flags = (uint32_t)test_rand(rng);
		s->flag_stack[d].use_lane_flags = (uint32_t)test_rand(rng);
	}
	for (unsigned l = 0; l < TTX_LANES; l++)
		s->flag_stack_size[l] = (uint8_t)depth;
	for (unsigned row = 0; row < 64; row++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			t->dst[row][c] = (uint16_t)test_rand(rng);
	/* ADDR_MOD 0-3 of thread 0 move the Dst RWC for SFPLOAD/SFPSTORE. */
	for (unsigned m = 0; m < 4; m++)
		t->thread_config[0][23 + m] = (uint16_t)(test_rand(rng) % 5);
	/* For the Matrix Unit words: Src data and which bank the Matrix Unit
	   owns (else its instructions wait: a deadlock both engines report),
	   and the ALU formats, Fp32_enabled and INT8 math (config word 1,
	   bank 0: the formats of src/cfg_regs.def bits 17-24, 29, 31). */
	for (unsigned b = 0; b < 2; b++) {
		r = test_rand(rng);
		/* bank 1 is often the unpackers', and they often fill it */
		t->srca[b].allowed_client = r % (b ? 2 : 4) ? TTX_SRC_MATRIX_UNIT : TTX_SRC_UNPACKERS;
		t->srcb[b].allowed_client = (r >> 8) % (b ? 2 : 4) ? TTX_SRC_MATRIX_UNIT : TTX_SRC_UNPACKERS;
		t->unpacker_src_bank[b] = (uint8_t)((r >> 16) % 2);
		for (unsigned row = 0; row < 64; row++)
			for (unsigned c = 0; c < TTX_COLS; c++) {
				t->srca[b].rows[row][c] = (uint32_t)test_rand(rng) & 0x7FFFF;
				t->srcb[b].rows[row][c] = (uint32_t)test_rand(rng) & 0x7FFFF;
			}
	}
	/* The unpackers read L1 0x10000 / 0x20000 (random BF16 or FP16 data)
	   into Src (unpacker 0 sometimes into Dst), packer 0 writes BF16 or
	   FP16 at 0x30000 (within L1_COMPARED). */
	r = test_rand(rng);
	unsigned ufmt = r % 2 ? TTX_FORMAT_BF16 : TTX_FORMAT_FP16, pfmt = (r >> 1) % 2 ? TTX_FORMAT_BF16 : TTX_FORMAT_FP16;
	for (unsigned u = 0; u < 2; u++) {
		struct unpack_setup us = { .in = ufmt, .out = ufmt, .l1 = 0x10000u * (u + 1),
		                           .count = 16u << (r >> (8 + 4 * u)) % 7, .to_dst = u == 0 && (r >> 16) % 4 == 0 };
		setup_unpacker(t, u, &us);
		uint8_t data[2048];
		for (unsigned i = 0; i < sizeof(data); i++)
			data[i] = (uint8_t)test_rand(rng);
		l1_put(t, us.l1, data, sizeof(data));
	}
	struct pack_setup ps = { .in = pfmt, .out = pfmt, .l1 = 0x30000 };
	setup_packer(t, 0, &ps);
	static const uint32_t fmts[] = { 0, 1, 5, 4, 14 };   /* FP32, FP16, BF16, TF32, INT8 */
	r = test_rand(rng);
	uint32_t fa = fmts[r % 5], fb = (r >> 8) % 4 ? fa : fmts[(r >> 12) % 5];
	/* (Dstacc, bits 25-28, is the packer's IntermediateFormat) */
	t->config[0][1] = fa << 17 | fb << 21 | pfmt << 25 | (uint32_t)((r >> 16) % 2) << 29 |
	                  (uint32_t)((r >> 20) % 8 == 0) << 31;
}

/* ---- random programs ---- */

static const uint8_t sfpu_ops[] = {
	TTX_OP_SFPLOAD, TTX_OP_SFPLOADI, TTX_OP_SFPSTORE, TTX_OP_SFPLUT, TTX_OP_SFPMULI, TTX_OP_SFPADDI,
	TTX_OP_SFPDIVP2, TTX_OP_SFPEXEXP, TTX_OP_SFPEXMAN, TTX_OP_SFPIADD, TTX_OP_SFPSHFT, TTX_OP_SFPSETCC,
	TTX_OP_SFPMOV, TTX_OP_SFPABS, TTX_OP_SFPAND, TTX_OP_SFPOR, TTX_OP_SFPNOT, TTX_OP_SFPLZ,
	TTX_OP_SFPSETEXP, TTX_OP_SFPSETMAN, TTX_OP_SFPMAD, TTX_OP_SFPADD, TTX_OP_SFPMUL, TTX_OP_SFPPUSHC,
	TTX_OP_SFPPOPC, TTX_OP_SFPSETSGN, TTX_OP_SFPENCC, TTX_OP_SFPCOMPC, TTX_OP_SFPTRANSP, TTX_OP_SFPXOR,
	TTX_OP_SFPSTOCHRND, TTX_OP_SFPNOP, TTX_OP_SFPCAST, TTX_OP_SFPSWAP, TTX_OP_SFPSHFT2, TTX_OP_SFPLUTFP32,
	/* weighted towards what blocks are made of */
	TTX_OP_SFPMAD, TTX_OP_SFPMAD, TTX_OP_SFPIADD, TTX_OP_SFPSETCC, TTX_OP_SFPENCC, TTX_OP_SFPLOADI,
	TTX_OP_SFPLOADI, TTX_OP_SFPMOV, TTX_OP_SFPADD, TTX_OP_SFPMUL, TTX_OP_SFPLOAD, TTX_OP_SFPSTORE,
};

/* Matrix Unit, unpacker and packer words between the SFPU ones: the JIT
   ends its blocks at them and the interpreter runs them (Dst, Src, L1 and
   RWCs then move under the SFPU code of both engines alike). */
static const uint8_t matrix_ops[] = {
	TTX_OP_MVMUL, TTX_OP_ELWADD, TTX_OP_ELWMUL, TTX_OP_ELWSUB, TTX_OP_DOTPV, TTX_OP_GAPOOL, TTX_OP_GMPOOL,
	TTX_OP_ZEROACC, TTX_OP_ZEROSRC, TTX_OP_MOVD2A, TTX_OP_MOVD2B, TTX_OP_MOVA2D, TTX_OP_MOVB2D, TTX_OP_MOVB2A,
	TTX_OP_SETRWC, TTX_OP_INCRWC, TTX_OP_TRNSPSRCB, TTX_OP_SHIFTXA, TTX_OP_SHIFTXB, TTX_OP_SETDVALID,
	TTX_OP_CLEARDVALID, TTX_OP_MVMUL, TTX_OP_ELWADD, TTX_OP_UNPACR, TTX_OP_UNPACR_NOP, TTX_OP_PACR,
	TTX_OP_UNPACR, TTX_OP_PACR,
};

static uint32_t random_word(uint64_t *rng)
{
	uint64_t r = test_rand(rng);
	unsigned op;
	if (r % 25 == 3) {
		op = matrix_ops[(r >> 8) % sizeof(matrix_ops)];
		/* the unpack and pack forms kernels use (kernels/), with random
		   unpacker, FlipSrc, Y/Z increments, ADDR_MOD and Last */
		if (op == TTX_OP_UNPACR)
			return 0x420000C1u ^ ((uint32_t)(r >> 32) & (1u << 23 | 0xFu << 15 | 1u << 6));
		if (op == TTX_OP_PACR)
			return 0x41000101u ^ ((uint32_t)(r >> 32) & (3u << 15 | 1u));
		return (uint32_t)op << 24 | ((uint32_t)(r >> 32) & 0xFFFFFF);
	}
	if (r % 200 == 0)
		op = TTX_OP_SFPCONFIG;        /* ends blocks */
	else if (r % 200 == 1)
		op = TTX_OP_SFPLOADMACRO;     /* keeps the JIT away while its schedule runs */
	else if (r % 50 == 2)
		op = TTX_OP_NOP;
	else
		op = sfpu_ops[(r >> 8) % sizeof(sfpu_ops)];
	uint32_t word = (uint32_t)op << 24 | ((uint32_t)(r >> 32) & 0xFFFFFF);
	/* VD: mostly 0-7, sometimes the constants or the backdoor. */
	unsigned vd_roll = (unsigned)(r >> 16) % 16;
	unsigned vd = vd_roll < 13 ? vd_roll % 8 : vd_roll - 1;
	switch (op) {
	case TTX_OP_SFPLOAD: case TTX_OP_SFPLOADI: case TTX_OP_SFPSTORE: case TTX_OP_SFPLUT:
	case TTX_OP_SFPLOADMACRO:
		word = (word & ~0xF00000u) | vd << 20;
		break;
	default:
		word = (word & ~0xF0u) | vd << 4;
		break;
	}
	if (op == TTX_OP_SFPLOADI) {
		static const unsigned mod0[] = { 0, 1, 2, 4, 8, 10 };
		word = (word & ~0xF0000u) | mod0[(r >> 40) % 6] << 16;
	}
	if (op == TTX_OP_SFPLOAD || op == TTX_OP_SFPSTORE)
		word &= ~0x3F0u;   /* Dst rows 0-63 */
	if (op == TTX_OP_SFPPOPC && (r >> 50) % 4)
		word |= 1;         /* mostly peek, not pop */
	return word;
}

static int takeable(uint32_t word)
{
	unsigned op = word >> 24;
	return op != TTX_OP_SFPCONFIG && op != TTX_OP_SFPLOADMACRO;
}

/* How a program reaches the backend. */
enum delivery { STRAIGHT, REPLAYED, MOP0, MOP1 };

/* What thread 1 does meanwhile (a block runs only while the other threads
   cannot act, docs/jit.md): nothing; wait on semaphore 1 (SEMWAIT) until
   thread 0 posts it after its program, or in the middle of it (straight
   delivery), then run words of its own; or run its words at once. */
enum others { ALONE, WAITS_END, WAITS_MIDDLE, RUNS };

struct program {
	uint32_t words[64];
	unsigned n;
	enum delivery how;
	uint32_t mop_word, mop_cfg[9];
	unsigned replay_index;
	enum others others;
	uint32_t t1[8], block_mask;
	unsigned n1, post_at;
};

#define SEMPOST_1 ((uint32_t)TTX_OP_SEMPOST << 24 | 2u << 2)

static void random_program(struct program *p, uint64_t *rng)
{
	uint64_t r = test_rand(rng);
	p->how = (enum delivery)(r % 4);
	p->n = 1 + (unsigned)((r >> 8) % (p->how == MOP0 || p->how == MOP1 ? 7 : 64));
	p->replay_index = (unsigned)(r >> 16) % 32;
	for (unsigned i = 0; i < p->n; i++)
		p->words[i] = random_word(rng);
	uint32_t nop = (uint32_t)TTX_OP_NOP << 24;
	for (unsigned i = 0; i < 9; i++)
		p->mop_cfg[i] = i >= 2 && i - 2 < p->n ? p->words[i - 2] : nop;
	r = test_rand(rng);
	if (p->how == MOP1) {
		p->mop_cfg[0] = (uint32_t)(r % 5);            /* outer count */
		p->mop_cfg[1] = (uint32_t)((r >> 8) % 5);     /* inner count */
		if ((r >> 24) % 4 == 0) {                     /* long enough for the unrolled loops */
			p->mop_cfg[0] = (uint32_t)((r >> 28) % 20);
			p->mop_cfg[1] = (uint32_t)((r >> 36) % 40);
		}
		if ((r >> 16) % 4 == 0)
			p->mop_cfg[6] = nop;                      /* no LoopOp flip */
		if ((r >> 20) % 8 == 0) {                     /* the hardware bug's case */
			p->mop_cfg[0] = 1, p->mop_cfg[1] = 0, p->mop_cfg[2] = nop;
		}
		p->mop_word = (uint32_t)TTX_OP_MOP << 24 | 1u << 23;
	} else if (p->how == MOP0) {
		p->mop_cfg[1] = (uint32_t)(r % 4);            /* has B, has A1-A3 */
		uint32_t count1 = (uint32_t)((r >> 8) % 128), mask = (uint32_t)(r >> 16) & 0xFFFF;
		if ((r >> 40) % 3 == 0)
			mask = 0;
		p->mop_word = (uint32_t)TTX_OP_MOP << 24 | count1 << 16 | mask;
	}
	r = test_rand(rng);
	p->others = r % 2 ? ALONE : (enum others)(1 + (r >> 8) % 3);
	if (p->others == WAITS_MIDDLE && p->how != STRAIGHT)
		p->others = WAITS_END;
	p->post_at = p->others == WAITS_MIDDLE ? (unsigned)(r >> 16) % (p->n + 1) : p->n;
	p->block_mask = (r >> 24) % 2 ? 0x1FF : 1 + (uint32_t)(r >> 32) % 0x1FF;
	p->n1 = p->others == ALONE ? 0 : 1 + (unsigned)(r >> 48) % 8;
	for (unsigned i = 0; i < p->n1; i++)
		p->t1[i] = random_word(rng);
}

static void push_program(struct ttx_tile *t, const struct program *p)
{
	if (p->others == WAITS_END || p->others == WAITS_MIDDLE) {
		t->semaphores[1].value = 0, t->semaphores[1].max = 1;
		ttx_push(t, 1, (uint32_t)TTX_OP_SEMWAIT << 24 | p->block_mask << 15 | 2u << 2 | 1u);   /* C0: while 0 */
		/* two turns for thread 1 to wait before thread 0's program starts
		   (else an expansion it starts is left to the interpreter) */
		ttx_push(t, 0, (uint32_t)TTX_OP_DMANOP << 24);
		ttx_push(t, 0, (uint32_t)TTX_OP_DMANOP << 24);
	}
	for (unsigned i = 0; i < p->n1; i++)
		ttx_push(t, 1, p->t1[i]);
	switch (p->how) {
	case STRAIGHT:
		for (unsigned i = 0; i < p->n; i++) {
			if (i == p->post_at)
				ttx_push(t, 0, SEMPOST_1);
			ttx_push(t, 0, p->words[i]);
		}
		break;
	case REPLAYED: {
		/* REPLAY Count n, Load (no Exec); then play it twice.  The 32-entry
		   buffer wraps; Count 0 is 64, which plays the last 32 twice. */
		uint32_t replay = (uint32_t)TTX_OP_REPLAY << 24 | p->replay_index << 14 | (p->n & 63) << 4;
		ttx_push(t, 0, replay | 1);
		for (unsigned i = 0; i < p->n; i++)
			ttx_push(t, 0, p->words[i]);
		ttx_push(t, 0, replay);
		ttx_push(t, 0, replay);
		break;
	}
	default:
		for (unsigned i = 0; i < 9; i++)
			ck_assert_int_eq(ttx_mmio_write(t, 0, TTX_MMIO_MOP_CFG + 4 * i, p->mop_cfg[i]), TTX_OK);
		ttx_push(t, 0, (uint32_t)TTX_OP_MOP_CFG << 24 | 0xA5A5u);
		ttx_push(t, 0, p->mop_word);
		break;
	}
	if (p->post_at == p->n && (p->others == WAITS_END || p->others == WAITS_MIDDLE))
		ttx_push(t, 0, SEMPOST_1);
}

/* ---- comparing ---- */

static void print_program(const struct program *p)
{
	char line[128];
	fprintf(stderr, "program (delivery %d, MOP %08X):\n", (int)p->how, p->mop_word);
	for (unsigned i = 0; i < p->n; i++) {
		ttx_disasm(p->words[i], line, sizeof(line));
		fprintf(stderr, "  %08X  %s\n", p->words[i], line);
	}
	for (unsigned i = 0; i < 9 && p->how >= MOP0; i++)
		fprintf(stderr, "  MopCfg[%u] = %08X\n", i, p->mop_cfg[i]);
	if (p->others != ALONE)
		fprintf(stderr, "thread 1 (%s, SEMPOST before word %u, block mask %03X):\n",
		        p->others == RUNS ? "runs" : "waits", p->post_at, p->block_mask);
	for (unsigned i = 0; i < p->n1; i++) {
		ttx_disasm(p->t1[i], line, sizeof(line));
		fprintf(stderr, "  %08X  %s\n", p->t1[i], line);
	}
}

#define L1_COMPARED (256u * 1024)   /* where the packers write with the fuzzer's config */

static int same_state(const struct ttx_tile *a, const struct ttx_tile *b, int mop_fault, char *what, size_t len)
{
	const struct ttx_sfpu *x = &a->sfpu, *y = &b->sfpu;
	for (unsigned r = 0; r < TTX_LREGS; r++)
		for (unsigned l = 0; l < TTX_LANES; l++)
			if (x->lreg[r][l] != y->lreg[r][l]) {
				snprintf(what, len, "LReg[%u] lane %u: interp %08X, jit %08X", r, l, x->lreg[r][l],
				         y->lreg[r][l]);
				return 0;
			}
#define SAME(field, name) \
	if (memcmp(&x->field, &y->field, sizeof(x->field))) { snprintf(what, len, "%s", name); return 0; }
	SAME(lane_flags, "LaneFlags")
	SAME(use_lane_flags, "UseLaneFlagsForLaneEnable")
	SAME(flag_stack, "flag stack")
	SAME(flag_stack_size, "flag stack depth")
	SAME(lane_config, "LaneConfig")
	SAME(load_macro_config, "LoadMacroConfig")
	SAME(prng, "PRNG state")
#undef SAME
	if (memcmp(a->dst, b->dst, sizeof(a->dst))) {
		snprintf(what, len, "Dst");
		return 0;
	}
	if (memcmp(a->rwc, b->rwc, sizeof(a->rwc))) {
		snprintf(what, len, "RWCs");
		return 0;
	}
	if (memcmp(a->dst_undefined, b->dst_undefined, sizeof(a->dst_undefined)) ||
	    memcmp(a->srca, b->srca, sizeof(a->srca)) || memcmp(a->srcb, b->srcb, sizeof(a->srcb))) {
		snprintf(what, len, "SrcA, SrcB or Dst's undefined rows");
		return 0;
	}
	if (memcmp(a->l1, b->l1, L1_COMPARED)) {
		snprintf(what, len, "L1 (first %u KiB)", L1_COMPARED / 1024);
		return 0;
	}
	if (memcmp(a->semaphores, b->semaphores, sizeof(a->semaphores)) ||
	    memcmp(a->wait_gate, b->wait_gate, sizeof(a->wait_gate)) || memcmp(a->gpr, b->gpr, sizeof(a->gpr))) {
		snprintf(what, len, "semaphores, wait gates or GPRs");
		return 0;
	}
	for (unsigned th = 0; th < TTX_THREADS; th++) {
		/* what ttx_thread_state reports (after a fault inside a compiled
		   MOP expansion the MOP is gone: docs/jit.md) */
		struct ttx_thread_state sa, sb;
		if (th == 0 && mop_fault)
			continue;
		ttx_thread_state(a, th, &sa);
		ttx_thread_state(b, th, &sb);
		if (sa.pending != sb.pending || sa.word != sb.word) {
			snprintf(what, len, "thread %u: interp %d words left (next %08X), jit %d (%08X)", th, sa.pending,
			         sa.word, sb.pending, sb.word);
			return 0;
		}
	}
	return 1;
}

/* Run p on both engines from the same random state; 1 when they agree. */
static int differ_once(struct ttx_tile *interp, struct ttx_tile *jit, const struct program *p, uint64_t seed)
{
	uint64_t r1 = seed, r2 = seed;
	ttx_tile_reset(interp);
	ttx_tile_reset(jit);
	random_state(interp, &r1);
	random_state(jit, &r2);
	push_program(interp, p);
	push_program(jit, p);
	struct ttx_stats i0, i1, j0, j1;
	ttx_stats_get(interp, &i0);
	ttx_stats_get(jit, &j0);
	enum ttx_status si = ttx_run(interp, 100000), sj = ttx_run(jit, 100000);
	ttx_jit_wait(jit);   /* --engine auto: what was queued is compiled for the next run */
	ttx_stats_get(interp, &i1);
	ttx_stats_get(jit, &j1);
	char what[160];
	if (si != sj) {
		fprintf(stderr, "status: interp %d (%s), jit %d (%s)\n", si, ttx_tile_error(interp), sj,
		        ttx_tile_error(jit));
		return 0;
	}
	/* the same instructions counted, by opcode too (except after a fault
	   inside a compiled MOP expansion: docs/jit.md) */
	for (unsigned op = 0; op < 256 && !(si == TTX_FAULT && p->how >= MOP0); op++)
		if (i1.insns_by_opcode[op] - i0.insns_by_opcode[op] != j1.insns_by_opcode[op] - j0.insns_by_opcode[op]) {
			fprintf(stderr, "%s count: interp %llu, jit %llu (status %d)\n", ttx_opcode_name(op),
			        (unsigned long long)(i1.insns_by_opcode[op] - i0.insns_by_opcode[op]),
			        (unsigned long long)(j1.insns_by_opcode[op] - j0.insns_by_opcode[op]), si);
			return 0;
		}
	if (i1.insns - i0.insns != j1.insns - j0.insns && !(si == TTX_FAULT && p->how >= MOP0)) {
		fprintf(stderr, "instructions: interp %llu, jit %llu (status %d)\n", (unsigned long long)(i1.insns - i0.insns),
		        (unsigned long long)(j1.insns - j0.insns), si);
		return 0;
	}
	if (!same_state(interp, jit, si == TTX_FAULT && p->how >= MOP0, what, sizeof(what))) {
		fprintf(stderr, "state differs: %s (status %d: interp '%s', jit '%s')\n", what, si,
		        si ? ttx_tile_error(interp) : "", si ? ttx_tile_error(jit) : "");
		return 0;
	}
	/* and the cycle model's every total (docs/timing.md) */
	struct ttx_cycles ci, cj;
	ttx_cycles_get(interp, &ci);
	ttx_cycles_get(jit, &cj);
	if (memcmp(&ci, &cj, sizeof(ci)) && !(si == TTX_FAULT && p->how >= MOP0)) {
		fprintf(stderr, "cycle model: interp %llu device cycles (SFPU busy %llu, T0 stalls %llu), jit %llu "
		        "(%llu, %llu) (status %d)\n", (unsigned long long)ci.device_cycles,
		        (unsigned long long)ci.busy_by_unit[TTX_UNIT_SFPU], (unsigned long long)ci.stalled[0][0],
		        (unsigned long long)cj.device_cycles, (unsigned long long)cj.busy_by_unit[TTX_UNIT_SFPU],
		        (unsigned long long)cj.stalled[0][0], si);
		return 0;
	}
	return 1;
}

/* Drop instructions while the engines still differ, for a short report. */
static void minimise(struct ttx_tile *interp, struct ttx_tile *jit, struct program *p, uint64_t seed)
{
	if (p->how != STRAIGHT && p->how != REPLAYED)
		return;
	for (unsigned i = 0; i < p->n && p->n > 1;) {
		struct program q = *p;
		memmove(q.words + i, q.words + i + 1, (q.n - i - 1) * sizeof(q.words[0]));
		q.n--;
		if (q.post_at > i)
			q.post_at--;
		if (!differ_once(interp, jit, &q, seed))
			*p = q;
		else
			i++;
	}
	differ_once(interp, jit, p, seed);
}

START_TEST(test_differential_fuzz)
{
	if (!ttx_jit_available())
		return;   /* --disable-jit: nothing to compare */
	const char *env = getenv("TTX_JIT_FUZZ_PROGRAMS");
	const char *seed_env = getenv("TTX_JIT_FUZZ_SEED");
	long programs = env ? atol(env) : 2000;
	uint64_t rng = seed_env ? strtoull(seed_env, NULL, 0) : 0x5EED1234ull;
	struct ttx_tile *interp = new_tile(TTX_ENGINE_INTERP, TTX_NUMERICS_EXACT);
	struct ttx_tile *jit = new_tile(TTX_ENGINE_JIT, TTX_NUMERICS_EXACT);
	uint64_t jit_insns[4] = { 0 }, native = 0, all[4] = { 0 };   /* by enum others */
	uint64_t matrix = 0, unpack = 0, pack = 0;   /* executed (in the interpreter) */
	for (long i = 0; i < programs; i++) {
		struct program p;
		random_program(&p, &rng);
		if (i % 250 == 0 && i) {
			/* A fresh JIT every 250 programs; every fourth one compiles in
			   the background (--engine auto); every other pair runs without
			   the cycle model, which is when blocks take Matrix Unit,
			   unpacker and packer instructions (the interpreter's tile
			   follows, for the cycle totals). */
			int timing = (i / 500) % 2 == 0;
			ttx_tile_destroy(jit);
			ttx_tile_destroy(interp);
			struct ttx_options opt = { .engine = (i / 250) % 4 == 3 ? TTX_ENGINE_AUTO : TTX_ENGINE_JIT,
			                           .jit_threshold = 1, .timing = timing };
			jit = ttx_tile_new(&opt);
			opt.engine = TTX_ENGINE_INTERP;
			interp = ttx_tile_new(&opt);
		}
		for (int run = 0; run < 2; run++) {
			uint64_t seed = test_rand(&rng);
			struct ttx_stats s;   /* of this run: differ_once resets the tile */
			if (!differ_once(interp, jit, &p, seed)) {
				minimise(interp, jit, &p, seed);
				print_program(&p);
				ck_abort_msg("program %ld (run %d, state seed %llu): the engines differ", i, run,
				             (unsigned long long)seed);
			}
			ttx_stats_get(jit, &s);
			jit_insns[p.others] += s.insns_jit;
			native += s.insns_jit - s.insns_jit_fallback;
			all[p.others] += s.insns;
			matrix += s.insns_by_unit[TTX_UNIT_MATRIX];
			unpack += s.insns_by_opcode[TTX_OP_UNPACR];
			pack += s.insns_by_opcode[TTX_OP_PACR];
		}
		if ((i + 1) % 100000 == 0)
			fprintf(stderr, "test_jit: %ld programs agree\n", i + 1);
	}
	uint64_t jit_all = jit_insns[0] + jit_insns[1] + jit_insns[2] + jit_insns[3];
	uint64_t n_all = all[0] + all[1] + all[2] + all[3];
	fprintf(stderr, "test_jit: %ld programs x 2 runs agree; %.1f%% of %llu instructions in compiled "
	        "blocks, %.1f%% native; in compiled blocks with thread 1 idle %.1f%%, waiting %.1f%% / %.1f%% "
	        "(released at the end / in the middle), running %.1f%%; %llu Matrix Unit instructions, %llu UNPACR, "
	        "%llu PACR\n", programs,
	        100.0 * (double)jit_all / (double)n_all, (unsigned long long)n_all, 100.0 * (double)native / (double)n_all,
	        100.0 * (double)jit_insns[0] / (double)all[0], 100.0 * (double)jit_insns[1] / (double)all[1],
	        100.0 * (double)jit_insns[2] / (double)all[2], 100.0 * (double)jit_insns[3] / (double)all[3],
	        (unsigned long long)matrix, (unsigned long long)unpack, (unsigned long long)pack);
	/* the fuzzer does reach the JIT, alone and while thread 1 waits */
	ck_assert_uint_gt(jit_insns[ALONE], all[ALONE] / 2);
	ck_assert_uint_gt(jit_insns[WAITS_END], all[WAITS_END] / 3);
	ttx_tile_destroy(interp);
	ttx_tile_destroy(jit);
}
END_TEST

/* ---- specific behaviour ---- */

/* --engine auto compiles a block the second time it is seen; --engine jit
   the first time; the statistics say so. */
START_TEST(test_tiering)
{
	if (!ttx_jit_available())
		return;
	uint32_t body[4] = { sfpu_asm("SFPLOADI 0, 0, 0x3F80"), sfpu_asm("SFPIADD 1, 0, 1, 5"),
	                     sfpu_asm("SFPMAD 0, 1, 0, 2, 0"), sfpu_asm("SFPXOR 0, 2, 1, 0") };
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO };
	struct ttx_tile *t = ttx_tile_new(&opt);
	struct ttx_stats s;
	test_push_words(t, 0, body, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.insns, 4);
	ck_assert_uint_eq(s.insns_jit, 0);
	ck_assert_uint_eq(s.jit_blocks_compiled, 0);
	/* The second time it is handed to the compile thread and interpreted
	   meanwhile. */
	test_push_words(t, 0, body, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_jit_wait(t);
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.insns, 8);
	ck_assert_uint_eq(s.insns_jit, 0);
	ck_assert_uint_eq(s.jit_blocks_compiled, 1);
	ck_assert(s.jit_compile_seconds > 0 && s.jit_compile_median_seconds > 0);
	/* The third time runs the compiled code, then the cached code. */
	for (int i = 0; i < 2; i++) {
		test_push_words(t, 0, body, 4);
		ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	}
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.insns, 16);
	ck_assert_uint_eq(s.insns_jit, 8);
	ck_assert_uint_eq(s.insns_interp, 8);
	ck_assert_uint_eq(s.insns_jit_fallback, 0);
	ck_assert_uint_eq(s.jit_blocks_compiled, 1);
	ck_assert_uint_eq(s.insns_by_unit[TTX_UNIT_SFPU], 16);
	struct ttx_options iopt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *ref = ttx_tile_new(&iopt);
	for (int i = 0; i < 4; i++)
		test_push_words(ref, 0, body, 4);
	ck_assert_int_eq(ttx_run(ref, 0), TTX_OK);
	ck_assert_mem_eq(ref->sfpu.lreg, t->sfpu.lreg, sizeof(ref->sfpu.lreg));
	ttx_tile_destroy(ref);
	ttx_tile_destroy(t);

	/* --engine jit compiles the first time, in the calling thread. */
	opt.engine = TTX_ENGINE_JIT;
	t = ttx_tile_new(&opt);
	test_push_words(t, 0, body, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.insns_jit, 4);
	ck_assert_uint_eq(s.jit_blocks_compiled, 1);
	ttx_tile_destroy(t);

	/* --engine interp never compiles. */
	opt.engine = TTX_ENGINE_INTERP;
	t = ttx_tile_new(&opt);
	for (int i = 0; i < 3; i++)
		test_push_words(t, 0, body, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.insns_jit, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Code is keyed by content: a re-recorded replay buffer, rewritten MopCfg
   and a changed ROW_MASK each give the new behaviour. */
START_TEST(test_cache_follows_state)
{
	if (!ttx_jit_available())
		return;
	struct ttx_tile *t = new_tile(TTX_ENGINE_JIT, TTX_NUMERICS_EXACT);
	uint32_t replay = (uint32_t)TTX_OP_REPLAY << 24 | 0u << 14 | 2u << 4;
	uint32_t rec[] = { replay | 1, sfpu_asm("SFPLOADI 0, 2, 7"), sfpu_asm("SFPIADD 1, 0, 0, 5"), replay };
	test_push_words(t, 0, rec, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 8);
	uint32_t rec2[] = { replay | 1, sfpu_asm("SFPLOADI 0, 2, 100"), sfpu_asm("SFPIADD 5, 0, 0, 5"), replay };
	test_push_words(t, 0, rec2, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 105);
	struct ttx_stats s;
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.jit_blocks_compiled, 2);
	ck_assert_uint_eq(s.insns_jit, 4);

	/* MOP template 1 with LoopOp = SFPIADD +1, outer 1, inner 3: +3; then
	   LoopOp rewritten to +10: +30 more. */
	uint32_t nop = (uint32_t)TTX_OP_NOP << 24;
	uint32_t cfg[9] = { 1, 3, nop, nop, nop, sfpu_asm("SFPIADD 1, 0, 0, 5"), nop,
	                    sfpu_asm("SFPIADD 1, 0, 0, 5"), sfpu_asm("SFPIADD 1, 0, 0, 5") };
	uint32_t mop = (uint32_t)TTX_OP_MOP << 24 | 1u << 23;
	for (unsigned i = 0; i < 9; i++)
		ttx_mmio_write(t, 0, TTX_MMIO_MOP_CFG + 4 * i, cfg[i]);
	test_push_words(t, 0, &mop, 1);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 108);
	cfg[5] = cfg[7] = cfg[8] = sfpu_asm("SFPIADD 10, 0, 0, 5");
	for (unsigned i = 0; i < 9; i++)
		ttx_mmio_write(t, 0, TTX_MMIO_MOP_CFG + 4 * i, cfg[i]);
	test_push_words(t, 0, &mop, 1);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 138);
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.jit_blocks_compiled, 4);

	/* ROW_MASK row 0 (lanes 0-7) set in LaneConfig: the same words again,
	   compiled for the new mask, leave lanes 0-7 alone. */
	for (unsigned l = 0; l < 8; l++)
		t->sfpu.lane_config[l] |= 1u << TTX_LANECFG_ROW_MASK_SHIFT;
	test_push_words(t, 0, &mop, 1);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[0][3], 138);
	ck_assert_uint_eq(t->sfpu.lreg[0][8], 168);
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.jit_blocks_compiled, 5);
	ttx_tile_destroy(t);
}
END_TEST

/* A fault inside a compiled block stops the run with the interpreter's
   message, after the instructions before it. */
START_TEST(test_fault_in_block)
{
	if (!ttx_jit_available())
		return;
	uint32_t w[] = { sfpu_asm("SFPLOADI 0, 2, 1"), sfpu_asm("SFPIADD 1, 0, 0, 5"),
	                 sfpu_asm("SFPPOPC 0, 0, 0, 0"), sfpu_asm("SFPIADD 1, 0, 0, 5") };
	struct ttx_tile *t = new_tile(TTX_ENGINE_JIT, TTX_NUMERICS_EXACT);
	test_push_words(t, 0, w, 4);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "SFPPOPC"));
	ck_assert_uint_eq(t->sfpu.lreg[0][0], 2);
	struct ttx_thread_state ts;
	ttx_thread_state(t, 0, &ts);
	ck_assert_uint_eq(ts.word, w[2]);   /* the pipe stops at the faulting instruction */
	ttx_tile_destroy(t);
}
END_TEST

/* Blocks run while the other threads wait (src/run.c ttx_jit_alone):
   thread 1 waits on semaphore 1 (SEMWAIT) until thread 0 has run 200
   SFPIADDs and posts it, then adds LReg 0 into LReg 1.  Thread 0's
   increments run compiled, and the result is the interpreter's.  When
   thread 1 instead runs 100 DMANOPs alongside, the JIT waits for it to
   finish: at most 200 - 100 increments are compiled, and thread 1's add
   sees the 100th. */
static void two_threads(enum ttx_engine engine, int waits, int timing, struct ttx_stats *st, uint32_t *l1)
{
	struct ttx_options opt = { .engine = engine, .jit_threshold = 1, .timing = timing };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	t->semaphores[1].value = 0, t->semaphores[1].max = 1;
	uint32_t inc = sfpu_asm("SFPIADD 1, 0, 0, 5"), add = sfpu_asm("SFPIADD 0, 0, 1, 4");
	uint32_t semwait = (uint32_t)TTX_OP_SEMWAIT << 24 | 0x1FFu << 15 | 2u << 2 | 1u, dmanop = (uint32_t)TTX_OP_DMANOP << 24;
	if (waits)
		test_push_words(t, 1, &semwait, 1);
	for (int i = 0; i < (waits ? 0 : 100); i++)
		test_push_words(t, 1, &dmanop, 1);
	test_push_words(t, 1, &add, 1);
	test_push_words(t, 0, &dmanop, 1);
	for (int i = 0; i < 200; i++)
		test_push_words(t, 0, &inc, 1);
	uint32_t sempost = SEMPOST_1;
	test_push_words(t, 0, &sempost, 1);
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ttx_stats_get(t, st);
	*l1 = t->sfpu.lreg[1][5];
	ttx_tile_destroy(t);
}

START_TEST(test_blocked_threads)
{
	if (!ttx_jit_available())
		return;
	for (int timing = 0; timing < 2; timing++)
		for (int waits = 0; waits < 2; waits++) {
			struct ttx_stats si, sj;
			uint32_t li, lj;
			two_threads(TTX_ENGINE_INTERP, waits, timing, &si, &li);
			two_threads(TTX_ENGINE_JIT, waits, timing, &sj, &lj);
			ck_assert_uint_eq(li, waits ? 200 : 100);   /* after the increments / the 100th */
			ck_assert_uint_eq(lj, li);
			ck_assert_uint_eq(si.insns, sj.insns);
			ck_assert_uint_eq(si.insns_jit, 0);
			if (waits)
				ck_assert_uint_ge(sj.insns_jit, 190);
			else
				ck_assert_uint_le(sj.insns_jit, 100);
		}
}
END_TEST

/* Matrix Unit instructions inside compiled blocks (jit/emit.c emit_unit).
   yield: thread 1 waits on semaphore 1; thread 0 hands the Src banks to
   the Matrix Unit (SETDVALID), then runs 10 SFPIADDs, an MVMUL, 10 more
   and posts: the block stops after the MVMUL (another thread might act
   now) and goes on in the next.  stall: no SETDVALID, so the MVMUL waits
   (run until stalled: 10 increments, thread 0 at the MVMUL); then thread
   2's SETDVALID releases it.  mop: the words come from a MOP (template 1,
   twice 10 SFPIADDs, the MVMUL and one more SFPIADD), whose expansion the
   interpreter takes over where the block stopped.  Both engines: the same
   state, counts and waiting word; the MVMUL ran inside a block. */
static struct ttx_tile *unit_blocks(enum ttx_engine engine, int stall, int mop, struct ttx_stats *st)
{
	struct ttx_options opt = { .engine = engine, .jit_threshold = 1 };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	t->semaphores[1].value = 0, t->semaphores[1].max = 1;
	uint32_t inc = sfpu_asm("SFPIADD 1, 0, 0, 5"), add = sfpu_asm("SFPIADD 0, 0, 1, 4"), mvmul, setdvalid;
	uint32_t semwait = (uint32_t)TTX_OP_SEMWAIT << 24 | 0x1FFu << 15 | 2u << 2 | 1u, sempost = SEMPOST_1;
	uint32_t nop = (uint32_t)TTX_OP_NOP << 24, mop_word = (uint32_t)TTX_OP_MOP << 24 | 1u << 23;
	char err[128];
	ck_assert_int_eq(ttx_asm_line("MVMUL 0, 0, 0, 0", &mvmul, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(ttx_asm_line("SETDVALID 3", &setdvalid, err, sizeof(err)), TTX_OK);
	/* outer 2, inner 10 (LoopOp, last Loop1Last / Loop0Last), EndOp0, EndOp1 */
	const uint32_t cfg[9] = { 2, 10, nop, mvmul, inc, inc, nop, inc, inc };
	unsigned total = mop ? 22 : 20, before = 10;
	for (unsigned i = 0; i < 9; i++)
		ck_assert_int_eq(ttx_mmio_write(t, 0, TTX_MMIO_MOP_CFG + 4 * i, cfg[i]), TTX_OK);
	if (!stall) {
		test_push_words(t, 1, &semwait, 1);
		test_push_words(t, 1, &add, 1);
		test_push_words(t, 0, &setdvalid, 1);
	}
	for (int i = 0; i < 2 && mop; i++)   /* (meanwhile thread 1 comes to wait: the MOP is taken whole) */
		test_push_words(t, 0, &nop, 1);
	if (mop)
		test_push_words(t, 0, &mop_word, 1);
	for (int i = 0; i < 21 && !mop; i++)
		test_push_words(t, 0, i == 10 ? &mvmul : &inc, 1);
	if (!stall) {
		test_push_words(t, 0, &sempost, 1);
		ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	} else {
		struct ttx_thread_state ts;
		ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
		ttx_thread_state(t, 0, &ts);
		ck_assert_uint_eq(ts.word, mvmul);
		ck_assert_uint_eq(t->sfpu.lreg[0][3], before);
		ttx_stats_get(t, st);
		if (engine == TTX_ENGINE_JIT)
			ck_assert_uint_eq(st->insns_jit, before + (mop ? 2 : 0));   /* a block stopped at the MVMUL */
		test_push_words(t, 2, &setdvalid, 1);
		ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	}
	ck_assert_uint_eq(t->sfpu.lreg[0][3], total);
	ttx_stats_get(t, st);
	return t;
}

START_TEST(test_unit_words_in_blocks)
{
	if (!ttx_jit_available())
		return;
	for (int mop = 0; mop < 2; mop++)
		for (int stall = 0; stall < 2; stall++) {
			struct ttx_stats si, sj;
			struct ttx_tile *ti = unit_blocks(TTX_ENGINE_INTERP, stall, mop, &si);
			struct ttx_tile *tj = unit_blocks(TTX_ENGINE_JIT, stall, mop, &sj);
			char what[160];
			ck_assert_msg(same_state(ti, tj, 0, what, sizeof(what)), "mop %d stall %d: %s", mop, stall, what);
			ck_assert_uint_eq(sj.insns, si.insns);
			for (unsigned op = 0; op < 256; op++)
				ck_assert_uint_eq(sj.insns_by_opcode[op], si.insns_by_opcode[op]);
			if (!stall)
				ck_assert_uint_eq(ti->sfpu.lreg[1][3], mop ? 22 : 20);   /* thread 1 added after the post */
			ck_assert_uint_eq(si.insns_jit, 0);
			ck_assert_msg(sj.insns_jit >= 10, "mop %d stall %d: %llu in blocks", mop, stall, (unsigned long long)sj.insns_jit);
			/* the MVMUL inside a block; after the stall, from the front
			   end's slot in the interpreter */
			ck_assert_uint_eq(sj.insns_jit_fallback, !stall);
			ttx_tile_destroy(ti);
			ttx_tile_destroy(tj);
		}
}
END_TEST

/* An instruction budget that ends inside a block: the interpreter runs up
   to it, exactly as without the JIT. */
START_TEST(test_budget)
{
	if (!ttx_jit_available())
		return;
	struct ttx_tile *t = new_tile(TTX_ENGINE_JIT, TTX_NUMERICS_EXACT);
	uint32_t inc = sfpu_asm("SFPIADD 1, 0, 0, 5");
	for (int i = 0; i < 10; i++)
		test_push_words(t, 0, &inc, 1);
	ck_assert_int_eq(ttx_run(t, 4), TTX_LIMIT);
	ck_assert_uint_eq(t->sfpu.lreg[0][0], 4);
	/* the library's message names no CLI option */
	ck_assert_str_eq(ttx_tile_error(t), "stopped after 4 instructions (the instruction budget), with work left");
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->sfpu.lreg[0][0], 10);
	ttx_tile_destroy(t);
}
END_TEST

/* A stream of REPLAY playbacks runs as one chain under the JIT (jit/cache.c
   chain_replays): the same state, statistics, budget stops and faults as
   the interpreter's.  Three SFPPUSHCs, then playbacks of SFPIADD +1,
   SFPPOPC: the 4th playback's pop finds the flag stack empty (a fault). */
static void replay_stream(enum ttx_engine engine, uint64_t budget, unsigned plays, enum ttx_status want,
                          struct ttx_stats *st, uint32_t *lreg0, char *err, size_t errlen)
{
	struct ttx_tile *t = new_tile(engine, TTX_NUMERICS_EXACT);
	uint32_t replay = (uint32_t)TTX_OP_REPLAY << 24 | 3u << 14 | 2u << 4;
	uint32_t push = sfpu_asm("SFPPUSHC 0, 0, 0, 0");
	uint32_t rec[] = { push, push, push, replay | 1, sfpu_asm("SFPIADD 1, 0, 0, 5"), sfpu_asm("SFPPOPC 0, 0, 0, 0") };
	test_push_words(t, 0, rec, 6);
	for (unsigned i = 0; i < plays; i++)
		test_push_words(t, 0, &replay, 1);
	ck_assert_int_eq(ttx_run(t, budget), want);
	ttx_stats_get(t, st);
	*lreg0 = t->sfpu.lreg[0][5];
	snprintf(err, errlen, "%s", ttx_tile_error(t));
	ttx_tile_destroy(t);
}

START_TEST(test_chained_replays)
{
	if (!ttx_jit_available())
		return;
	static const struct { uint64_t budget; unsigned plays; enum ttx_status st; } cases[] = {
		{ 0, 3, TTX_OK },          /* whole chain */
		{ 8, 3, TTX_LIMIT },       /* stops inside the 3rd playback (3 pushes, 2 x 2, 1) */
		{ 7, 3, TTX_LIMIT },       /* stops between playbacks */
		{ 0, 6, TTX_FAULT },       /* the 4th pop finds the stack empty */
	};
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct ttx_stats si, sj;
		uint32_t li, lj;
		char ei[256], ej[256];
		replay_stream(TTX_ENGINE_INTERP, cases[c].budget, cases[c].plays, cases[c].st, &si, &li, ei, sizeof(ei));
		replay_stream(TTX_ENGINE_JIT, cases[c].budget, cases[c].plays, cases[c].st, &sj, &lj, ej, sizeof(ej));
		ck_assert_uint_eq(lj, li);
		ck_assert_uint_eq(sj.insns, si.insns);
		ck_assert_uint_eq(sj.insns_by_thread[0], si.insns_by_thread[0]);
		ck_assert_uint_eq(sj.insns_by_opcode[TTX_OP_REPLAY], si.insns_by_opcode[TTX_OP_REPLAY]);
		ck_assert_uint_eq(sj.insns_by_opcode[TTX_OP_SFPIADD], si.insns_by_opcode[TTX_OP_SFPIADD]);
		ck_assert_str_eq(ej, ei);
		if (c == 0)
			ck_assert_uint_eq(sj.insns_jit, 9);   /* the JIT ran all of it */
	}
}
END_TEST

/* --numerics fast: IEEE fma with exponent-0 inputs and results as +0 and
   NaN results 0x7FC00000, on both engines. */
static uint32_t fast_mad_ref(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t in[3] = { a, b, c };
	float f[3];
	for (int i = 0; i < 3; i++) {
		if (!(in[i] & 0x7F800000u))
			in[i] = 0;
		memcpy(&f[i], &in[i], 4);
	}
	float r = fmaf(f[0], f[1], f[2]);
	uint32_t bits;
	memcpy(&bits, &r, 4);
	if (isnan(r))
		return 0x7FC00000u;
	return (bits & 0x7F800000u) ? bits : 0;
}

START_TEST(test_fast_numerics)
{
	uint64_t rng = 99;
	for (int engine = 0; engine < 2; engine++) {
		if (engine == 1 && !ttx_jit_available())
			break;
		struct ttx_tile *t = new_tile(engine ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP, TTX_NUMERICS_FAST);
		for (int round = 0; round < 50; round++) {
			uint32_t a[32], b[32], c[32];
			for (unsigned l = 0; l < 32; l++) {
				a[l] = t->sfpu.lreg[0][l] = special_value(&rng);
				b[l] = t->sfpu.lreg[1][l] = special_value(&rng);
				c[l] = t->sfpu.lreg[2][l] = special_value(&rng);
			}
			SFPU_RUN(t, sfpu_asm("SFPMAD 0, 1, 2, 3, 0"));
			for (unsigned l = 0; l < 32; l++)
				ck_assert_msg(t->sfpu.lreg[3][l] == fast_mad_ref(a[l], b[l], c[l]),
				              "engine %d: %08X * %08X + %08X = %08X, expected %08X", engine, a[l], b[l],
				              c[l], t->sfpu.lreg[3][l], fast_mad_ref(a[l], b[l], c[l]));
		}
		/* 1.5 * 2^-126 * 0.5 + 0 is a denormal in IEEE: +0 here. */
		sfpu_fill(t, 0, 0x00C00000u);
		sfpu_fill(t, 1, 0x3F000000u);
		sfpu_fill(t, 2, 0x80000000u);
		SFPU_RUN(t, sfpu_asm("SFPMAD 0, 1, 2, 3, 0"));
		ck_assert_uint_eq(t->sfpu.lreg[3][5], 0);
		ttx_tile_destroy(t);
	}
}
END_TEST

/* Tiles are independent: four host threads, each with its own tile and
   JIT (one compiling in the background), run the same random programs and
   must all match the interpreter. */
struct host_thread {
	enum ttx_engine engine;
	enum ttx_numerics numerics;
	struct ttx_jit_cache *cache;
	uint32_t lreg[TTX_LREGS][TTX_LANES];
	uint64_t compiled;             /* the cache's blocks compiled when done */
	int ok;
};

static void *host_thread_main(void *arg)
{
	struct host_thread *h = arg;
	struct ttx_options opt = { .engine = h->engine, .numerics = h->numerics, .jit_threshold = 1,
	                           .jit_cache = h->cache };
	struct ttx_tile *t = ttx_tile_new(&opt);
	uint64_t rng = 4242, state = 77;
	h->ok = t != NULL;
	for (int i = 0; i < 40 && h->ok; i++) {
		struct program p;
		random_program(&p, &rng);
		p.how = STRAIGHT;
		ttx_tile_reset(t);
		uint64_t r = state;
		random_state(t, &r);
		push_program(t, &p);
		ttx_run(t, 100000);
		ttx_jit_wait(t);
	}
	if (t) {
		memcpy(h->lreg, t->sfpu.lreg, sizeof(h->lreg));
		struct ttx_stats st;
		ttx_stats_get(t, &st);
		h->compiled = st.jit_blocks_compiled;
	}
	ttx_tile_destroy(t);
	return NULL;
}

START_TEST(test_host_threads)
{
	if (!ttx_jit_available())
		return;   /* --disable-jit: no JIT tiles to make */
	struct host_thread h[5] = { { .engine = TTX_ENGINE_INTERP }, { .engine = TTX_ENGINE_JIT },
	                            { .engine = TTX_ENGINE_JIT }, { .engine = TTX_ENGINE_AUTO },
	                            { .engine = TTX_ENGINE_JIT } };
	pthread_t tid[5];
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, host_thread_main, &h[i]), 0);
	for (int i = 0; i < 5; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < 5; i++) {
		ck_assert(h[i].ok);
		ck_assert_mem_eq(h[0].lreg, h[i].lreg, sizeof(h[0].lreg));
	}
}
END_TEST

/* One code cache shared by tiles on several host threads (issue 16): every
   tile matches the interpreter (exact) or a fast-numerics tile of its own
   (fast), and the cache compiled each block once: as many blocks as one
   tile of each numerics compiles alone. */
START_TEST(test_shared_cache)
{
	if (!ttx_jit_available()) {
		ck_assert_ptr_null(ttx_jit_cache_new());
		return;
	}
	struct host_thread own[3] = { { .engine = TTX_ENGINE_INTERP }, { .engine = TTX_ENGINE_JIT },
	                              { .engine = TTX_ENGINE_JIT, .numerics = TTX_NUMERICS_FAST } };
	for (int i = 0; i < 3; i++)
		host_thread_main(&own[i]);
	ck_assert(own[0].ok && own[1].ok && own[2].ok);
	struct ttx_jit_cache *cache = ttx_jit_cache_new();
	ck_assert_ptr_nonnull(cache);
	struct host_thread h[6] = {
		{ .engine = TTX_ENGINE_JIT, .cache = cache }, { .engine = TTX_ENGINE_AUTO, .cache = cache },
		{ .engine = TTX_ENGINE_JIT, .cache = cache }, { .engine = TTX_ENGINE_AUTO, .cache = cache },
		{ .engine = TTX_ENGINE_JIT, .numerics = TTX_NUMERICS_FAST, .cache = cache },
		{ .engine = TTX_ENGINE_INTERP, .cache = cache },   /* takes no part */
	};
	pthread_t tid[6];
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, host_thread_main, &h[i]), 0);
	uint64_t compiled = 0;
	for (int i = 0; i < 6; i++) {
		pthread_join(tid[i], NULL);
		ck_assert(h[i].ok);
		ck_assert_mem_eq(h[i].numerics == TTX_NUMERICS_FAST ? own[2].lreg : own[0].lreg, h[i].lreg,
		                 sizeof(h[i].lreg));
		if (h[i].compiled > compiled)
			compiled = h[i].compiled;
	}
	/* the tiles (made in the threads) held it while they lived: the
	   creator's reference goes last here */
	ttx_jit_cache_release(cache);
	ck_assert_uint_gt(own[1].compiled, 10);
	ck_assert_uint_eq(compiled, own[1].compiled + own[2].compiled);
	ck_assert_mem_eq(own[1].lreg, own[0].lreg, sizeof(own[0].lreg));
	ttx_jit_cache_release(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jit");
	TCase *tc = test_tcase(s, "differential");
	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, test_differential_fuzz);
	tc = test_tcase(s, "behaviour");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_tiering);
	tcase_add_test(tc, test_cache_follows_state);
	tcase_add_test(tc, test_fault_in_block);
	tcase_add_test(tc, test_budget);
	tcase_add_test(tc, test_blocked_threads);
	tcase_add_test(tc, test_chained_replays);
	tcase_add_test(tc, test_fast_numerics);
	tcase_add_test(tc, test_host_threads);
	tcase_add_test(tc, test_shared_cache);
	tcase_add_test(tc, test_unit_words_in_blocks);
	return test_run_suite(s);
}
