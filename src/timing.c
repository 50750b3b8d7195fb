/* The cycle model: device cycles beside the functional model (docs/timing.md).
 *
 * The functional scheduler (src/run.c) retires instructions in its own
 * round-robin order; this file places each one on a cycle as it retires.
 * Each thread issues in order, at most one instruction per cycle; each
 * resource (a unit, or a stage of one) accepts work when its previous work
 * lets it; waits (STALLWAIT, SEMWAIT, Src bank hand-overs, mutexes) hold an
 * instruction until the cycle the event it waits for happened.  Resources
 * are booked in retirement order, so two threads competing for one unit
 * are served in the functional order, not strictly by cycle: a
 * simplification docs/timing.md discusses.
 *
 * Every number is a named constant below with its source. */
#include <string.h>

#include "tile.h"

/* ---- the table (docs/timing.md lists the same numbers) ---- */

/* TC/MatrixUnit.md "Performance": one Matrix Unit instruction starts per
   cycle (MVMUL 8x16x16 = 2048 MACs at 4.096 TFLOP/s at 1 GHz, one fidelity
   phase per instruction).  Latency: no published figure; assumed 1. */
#define MATRIX_OCCUPANCY 1
#define MATRIX_LATENCY 1
#define MVMUL_MACS 2048
#define GAPOOL_MACS 1024          /* half MVMUL's rate (same table) */
#define ELWMUL_MACS 128           /* 8 x 16 products */
/* TC/VectorUnit.md: one instruction per cycle; MAD class results after 2
   cycles (software inserts SFPNOP, hardware does not stall); SFPSWAP and
   the lane-moving SFPSHFT2 forms take 2 cycles, the second usable only by
   SFPNOP (TC/SFPSWAP.md "Instruction scheduling"). */
#define SFPU_LATENCY 1
#define SFPU_MAD_LATENCY 2
#define SFPU_TWO_CYCLE 2
/* TC/UNPACR_Regular.md "Performance": 2 cycles of address calculation
   during which the thread and every other UNPACR wait, then L1 reads at
   16, 32 or 64 bytes per cycle (Throttle_mode), pipelined. */
#define UNPACR_ADDRESS_CYCLES 2
#define UNPACK_X1_BYTES 16
/* TT/L1.md: each packer writes one 16-byte word per cycle, or accumulates
   one every 5 cycles (atomic accumulate); the thread waits until the
   packers accept the work (TC/Packers/README.md): assumed when they are
   free. */
#define PACK_ACC_CYCLES_PER_WORD 5
#define PACK_DATUMS_PER_CYCLE 16  /* from Dst: no published figure, assumed a row */
/* TT/Mover.md: L1 to L1 eight 128-bit reads and writes every 11 cycles;
   writes from zeros one 128-bit word per cycle. */
#define MOVER_L1_BURST_CYCLES 11
#define MOVER_L1_BURST_WORDS 8
#define MOVER_FILL_WORDS_PER_CYCLE 1
/* TC/ConfigurationUnit.md: WRCFG 2 cycles, pipelined, the thread goes on;
   RDCFG at least 2 cycles with the thread blocked (TC/RDCFG.md). */
#define WRCFG_LATENCY 2
#define RDCFG_CYCLES 2
/* Scalar Unit (ThCon), from each page's "Performance": */
#define SCALAR_ALU_CYCLES 3       /* ADDDMAREG & co.; 4 with registers from two groups of 4 */
#define SCALAR_MEM_CYCLES 3       /* LOADIND, STOREIND, LOADREG, STOREREG */
#define SCALAR_ATOMIC_CYCLES 12   /* ATINCGET, ATSWAP: sustained one per 12 cycles */
#define SCALAR_ATCAS_CYCLES 15    /* ATCAS, ATINCGETPTR: 15 per attempt */
#define REG2FLOP_CYCLES 2         /* thread blocked throughout */
#define FLUSHDMA_CYCLES 2
/* TC/STALLWAIT.md: the block mask is removed one cycle after the
   conditions are met, and always holds the next instruction one cycle. */
#define GATE_LAG 1
/* TC/MOPExpander.md "Performance": a cycle lost after an expansion when
   the next instruction is not a MOP. */
#define MOP_TRANSITION_CYCLES 1

static const uint8_t res_unit[TTX_RES_COUNT] = {
	[TTX_RES_MATRIX] = TTX_UNIT_MATRIX, [TTX_RES_SFPU] = TTX_UNIT_SFPU,
	[TTX_RES_UNPACK_ADDR] = TTX_UNIT_UNPACK, [TTX_RES_UNPACK0] = TTX_UNIT_UNPACK,
	[TTX_RES_UNPACK1] = TTX_UNIT_UNPACK, [TTX_RES_PACK] = TTX_UNIT_PACK,
	[TTX_RES_MOVER] = TTX_UNIT_MOVER, [TTX_RES_SCALAR] = TTX_UNIT_SCALAR,
	[TTX_RES_CONFIG] = TTX_UNIT_CONFIG, [TTX_RES_SYNC] = TTX_UNIT_SYNC,
};

static const char *const stall_names[TTX_STALL_COUNT] = {
	"unit", "stallwait", "semwait", "src", "mutex", "frontend",
};

const char *ttx_stall_name(enum ttx_stall reason)
{
	return (unsigned)reason < TTX_STALL_COUNT ? stall_names[reason] : "?";
}

/* What one instruction asks of the machine. */
struct cost {
	uint8_t res;          /* TTX_RES_*, TTX_RES_NONE */
	uint8_t shadow;       /* the resource's last cycle takes only SFPNOP */
	uint16_t occ;         /* cycles the resource is held */
	uint16_t block;       /* cycles before the thread issues again */
	uint32_t lat;         /* cycles until the result is ready */
	uint32_t macs;
};

static int is_mad_class(unsigned op)
{
	return op == TTX_OP_SFPMAD || op == TTX_OP_SFPADD || op == TTX_OP_SFPMUL || op == TTX_OP_SFPMULI ||
	       op == TTX_OP_SFPADDI || op == TTX_OP_SFPLUT || op == TTX_OP_SFPLUTFP32;
}

/* SFPSHFT2 Mod1 2-4 move data between lanes (TC/VectorUnit.md). */
static int is_two_cycle_sfpu(uint32_t word)
{
	unsigned op = word >> 24;
	if (op == TTX_OP_SFPSWAP)
		return 1;
	unsigned mod1 = word & 15;
	return op == TTX_OP_SFPSHFT2 && mod1 >= 2 && mod1 <= 4;
}

static struct cost sfpu_cost(uint32_t word)
{
	unsigned op = word >> 24;
	struct cost c = { TTX_RES_SFPU, 0, 1, 1, SFPU_LATENCY, 0 };
	if (is_mad_class(op) || op == TTX_OP_SFPCONFIG)
		c.lat = SFPU_MAD_LATENCY;
	if (is_two_cycle_sfpu(word)) {
		c.occ = SFPU_TWO_CYCLE;
		c.lat = SFPU_TWO_CYCLE;
		c.shadow = 1;
	}
	return c;
}

static uint16_t scalar_alu_cycles(uint32_t word)
{
	unsigned left = word & 63, right = (word >> 6) & 63;
	return (word >> 23 & 1) || left >> 2 == right >> 2 ? SCALAR_ALU_CYCLES : SCALAR_ALU_CYCLES + 1;
}

static struct cost insn_cost(const struct ttx_tile *t, uint32_t word)
{
	unsigned op = word >> 24;
	struct cost c = { TTX_RES_NONE, 0, 1, 1, 1, 0 };
	switch (ttx_isa_insns[op].unit) {
	case TTX_UNIT_SFPU:
		return sfpu_cost(word);
	case TTX_UNIT_MATRIX:
		c.res = TTX_RES_MATRIX, c.occ = MATRIX_OCCUPANCY, c.lat = MATRIX_LATENCY;
		c.macs = op == TTX_OP_MVMUL || op == TTX_OP_DOTPV ? MVMUL_MACS
		         : op == TTX_OP_GAPOOL                    ? GAPOOL_MACS
		         : op == TTX_OP_ELWMUL                    ? ELWMUL_MACS
		                                                  : 0;
		return c;
	case TTX_UNIT_UNPACK:   /* the address stage; the reads follow (insn_slow) */
		c.res = TTX_RES_UNPACK_ADDR;
		c.occ = c.block = op == TTX_OP_UNPACR ? UNPACR_ADDRESS_CYCLES : 1;
		return c;
	case TTX_UNIT_PACK:
		c.res = TTX_RES_PACK;
		c.occ = (uint16_t)(t->timing.xfer_cycles ? t->timing.xfer_cycles : 1);
		c.lat = c.occ;
		return c;
	case TTX_UNIT_MOVER:
		c.res = TTX_RES_MOVER;
		c.occ = (uint16_t)(t->timing.xfer_cycles ? t->timing.xfer_cycles : 1);
		c.lat = c.occ;
		return c;
	case TTX_UNIT_SCALAR:
		c.res = TTX_RES_SCALAR;
		switch (op) {
		case TTX_OP_ADDDMAREG: case TTX_OP_SUBDMAREG: case TTX_OP_MULDMAREG: case TTX_OP_BITWOPDMAREG:
		case TTX_OP_SHIFTDMAREG: case TTX_OP_CMPDMAREG:
			c.occ = scalar_alu_cycles(word);
			break;
		case TTX_OP_LOADIND: case TTX_OP_STOREIND: case TTX_OP_LOADREG: case TTX_OP_STOREREG:
			c.occ = SCALAR_MEM_CYCLES;
			break;
		case TTX_OP_ATINCGET: case TTX_OP_ATSWAP:
			c.occ = SCALAR_ATOMIC_CYCLES;
			break;
		case TTX_OP_ATCAS: case TTX_OP_ATINCGETPTR:
			c.occ = SCALAR_ATCAS_CYCLES;
			break;
		case TTX_OP_REG2FLOP:
			c.occ = c.block = REG2FLOP_CYCLES;
			break;
		case TTX_OP_FLUSHDMA:
			c.occ = FLUSHDMA_CYCLES;
			break;
		}
		c.lat = c.occ;
		return c;
	case TTX_UNIT_CONFIG:
		if (op == TTX_OP_SETC16)
			return c;   /* one per thread per cycle: no shared stage */
		c.res = TTX_RES_CONFIG;
		if (op == TTX_OP_WRCFG)
			c.lat = WRCFG_LATENCY;
		if (op == TTX_OP_RDCFG)
			c.block = c.lat = RDCFG_CYCLES;
		return c;
	case TTX_UNIT_SYNC:
		if (op == TTX_OP_SEMINIT || op == TTX_OP_SEMPOST || op == TTX_OP_SEMGET)
			c.res = TTX_RES_SYNC;
		return c;
	default:
		return c;   /* NOP, the ADC instructions, SETDVALID: one issue cycle */
	}
}

/* ---- L1 traffic, reported by the units ---- */

/* TC/UNPACR_Regular.md: x1/x2/x4 speed from Throttle_mode (3: taken as
   x1), capped by the modes that want x1 or at most x2. */
void ttx_timing_unpacker(struct ttx_tile *t, uint64_t bits, unsigned throttle, int x1_only, int x2_max)
{
	if (!t->timing.on)
		return;
	unsigned speed = throttle > 2 ? 0 : throttle;
	if (x1_only)
		speed = 0;
	if (x2_max && speed > 1)
		speed = 1;
	uint64_t rate = (uint64_t)UNPACK_X1_BYTES << speed, bytes = (bits + 7) / 8;
	t->timing.xfer_cycles = (uint32_t)((bytes + rate - 1) / rate);
	t->timing.c.l1_bytes_read += bytes;
}

/* The packers run in parallel: the slowest one counts. */
void ttx_timing_packer(struct ttx_tile *t, uint32_t writes, uint32_t datums, int accumulate)
{
	if (!t->timing.on)
		return;
	uint32_t w = writes * (accumulate ? PACK_ACC_CYCLES_PER_WORD : 1);
	uint32_t r = (datums + PACK_DATUMS_PER_CYCLE - 1) / PACK_DATUMS_PER_CYCLE;
	uint32_t cycles = w > r ? w : r;
	if (cycles > t->timing.xfer_cycles)
		t->timing.xfer_cycles = cycles;
	t->timing.c.l1_bytes_written += 16ull * writes;
	if (accumulate)
		t->timing.c.l1_bytes_read += 16ull * writes;
}

void ttx_timing_mover(struct ttx_tile *t, uint32_t bytes, int from_l1, int to_l1)
{
	if (!t->timing.on)
		return;
	uint32_t words = (bytes + 15) / 16;
	if (to_l1)
		t->timing.c.l1_bytes_written += bytes;
	if (from_l1)
		t->timing.c.l1_bytes_read += bytes;
	t->timing.xfer_cycles = from_l1 ? (words * MOVER_L1_BURST_CYCLES + MOVER_L1_BURST_WORDS - 1) / MOVER_L1_BURST_WORDS
	                                : (words + MOVER_FILL_WORDS_PER_CYCLE - 1) / MOVER_FILL_WORDS_PER_CYCLE;
}

/* ---- bookkeeping ---- */

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The unit worked during [s, e): busy counts the union of such spans. */
static void book(struct ttx_timing *T, unsigned unit, uint64_t s, uint64_t e)
{
	uint64_t from = max64(s, T->busy_until[unit]);
	if (e > from)
		T->c.busy_by_unit[unit] += e - from;
	T->busy_until[unit] = max64(T->busy_until[unit], e);
}

static void complete(struct ttx_timing *T, unsigned th, unsigned res, uint64_t when)
{
	if (res < TTX_RES_COUNT)
		T->done[th][res] = max64(T->done[th][res], when);
	T->c.device_cycles = max64(T->c.device_cycles, when);
}

static uint8_t src_owners(const struct ttx_tile *t)
{
	return (uint8_t)((t->srca[0].allowed_client == TTX_SRC_MATRIX_UNIT) |
	                 (t->srca[1].allowed_client == TTX_SRC_MATRIX_UNIT) << 1 |
	                 (t->srcb[0].allowed_client == TTX_SRC_MATRIX_UNIT) << 2 |
	                 (t->srcb[1].allowed_client == TTX_SRC_MATRIX_UNIT) << 3);
}

void ttx_cycles_get(const struct ttx_tile *t, struct ttx_cycles *out)
{
	if (!out)
		return;
	if (!t) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = t->timing.c;
}

enum ttx_unit ttx_cycles_bottleneck(const struct ttx_cycles *c)
{
	enum ttx_unit top = TTX_UNIT_COUNT;
	for (int u = TTX_UNIT_MATRIX; c && u < TTX_UNIT_COUNT; u++)
		if (c->busy_by_unit[u] && (top == TTX_UNIT_COUNT || c->busy_by_unit[u] > c->busy_by_unit[top]))
			top = (enum ttx_unit)u;
	return top;
}

void ttx_timing_reset(struct ttx_tile *t)
{
	uint8_t on = t->opt.timing != 0;
	memset(&t->timing, 0, sizeof(t->timing));
	t->timing.on = on;
	t->timing.owners = src_owners(t);
}

/* After a reset between kernels run one after another (app/ops.c): the
   totals go on, and the next kernel starts when the last one finished. */
void ttx_timing_resume(struct ttx_tile *t, const struct ttx_timing *before)
{
	struct ttx_timing *T = &t->timing;
	uint64_t now = before->c.device_cycles;
	T->c = before->c;
	for (unsigned th = 0; th < TTX_THREADS; th++)
		T->ready[th] = now;
	for (unsigned r = 0; r < TTX_RES_COUNT; r++)
		T->free[r] = now;
	for (unsigned u = 0; u < TTX_UNIT_COUNT; u++)
		T->busy_until[u] = now;
	T->sfpnop_free = now;
}

/* The latest of the constraints on an issue cycle, and which one bound. */
struct constraint {
	uint64_t at;
	uint8_t reason, unit;
};

static void need(struct constraint *k, uint64_t cycle, unsigned reason, unsigned unit)
{
	if (cycle > k->at) {
		k->at = cycle;
		k->reason = (uint8_t)reason;
		k->unit = (uint8_t)unit;
	}
}

/* The thread's stall and issue statistics for an issue at k->at. */
static void account(struct ttx_timing *T, unsigned th, const struct constraint *k, uint64_t ready, unsigned n,
                    uint64_t busy)
{
	uint64_t stall = k->at - ready;
	if (stall) {
		T->c.stalled[th][k->reason] += stall;
		if (k->reason == TTX_STALL_UNIT)
			T->c.stalled_on_unit[th][k->unit] += stall;
	}
	T->c.issued[th] += n;
	T->c.busy[th] += busy;
}

static void event(struct ttx_tile *t, unsigned th, unsigned unit, uint32_t word, uint32_t n,
                  const struct constraint *k, uint64_t ready, uint64_t done, uint64_t unit_free)
{
	struct ttx_timing_event e = { th, (enum ttx_unit)unit, word, n, k->at, done, unit_free, k->at - ready,
	                              (enum ttx_stall)k->reason };
	t->opt.timing_event(t->opt.timing_ctx, &e);
}

/* STALLWAIT busy conditions (TC/STALLWAIT.md C0-C7, C12, C14): the cycle
   the thread's last work in those resources completes. */
static uint64_t busy_conditions_met(const struct ttx_timing *T, unsigned th, unsigned cond)
{
	uint64_t met = 0;
	if (cond & 1)
		met = max64(met, T->done[th][TTX_RES_SCALAR]);
	if (cond & 2)
		met = max64(met, max64(T->done[th][TTX_RES_UNPACK0], T->done[th][TTX_RES_UNPACK_ADDR]));
	if (cond & 4)
		met = max64(met, max64(T->done[th][TTX_RES_UNPACK1], T->done[th][TTX_RES_UNPACK_ADDR]));
	if (cond & 0x78)
		met = max64(met, T->done[th][TTX_RES_PACK]);
	if (cond & 0x80)
		met = max64(met, T->done[th][TTX_RES_MATRIX]);
	if (cond & (1u << 12))   /* the mover, whoever used it */
		for (unsigned i = 0; i < TTX_THREADS; i++)
			met = max64(met, T->done[i][TTX_RES_MOVER]);
	if (cond & (1u << 14))
		met = max64(met, T->done[th][TTX_RES_SFPU]);
	return met;
}

void ttx_timing_gate_release(struct ttx_tile *t, unsigned th, const struct ttx_wait_gate *g)
{
	struct ttx_timing *T = &t->timing;
	uint64_t met = 0;
	if (g->opcode == TTX_OP_SEMWAIT) {
		for (unsigned i = 0; i < 8; i++)
			if (g->semaphore_mask >> i & 1)
				met = max64(met, T->sem_stamp[i]);
	} else {
		/* C8-C11: the bank the condition names, as it is now */
		if (g->condition_mask >> 8 & 1)
			met = max64(met, T->src_stamp[t->unpacker_src_bank[0] & 1]);
		if (g->condition_mask >> 9 & 1)
			met = max64(met, T->src_stamp[2 + (t->unpacker_src_bank[1] & 1)]);
		if (g->condition_mask >> 10 & 1)
			met = max64(met, T->src_stamp[t->matrix_srca_bank & 1]);
		if (g->condition_mask >> 11 & 1)
			met = max64(met, T->src_stamp[2 + (t->matrix_srcb_bank & 1)]);
	}
	if (met)
		T->gate_until[th] = max64(T->gate_until[th], met + GATE_LAG);
	T->gate_op[th] = g->opcode;
	T->gate_mask[th] = g->block_mask;
}

void ttx_timing_frontend(struct ttx_tile *t, unsigned th, unsigned cycles)
{
	struct ttx_timing *T = &t->timing;
	if (!T->on)
		return;
	T->ready[th] += cycles;
	T->c.stalled[th][TTX_STALL_FRONTEND] += cycles;
}

/* The start of the thread's next issue: the previous one, and the MOP
   expander's transition cycle when it is due. */
static uint64_t thread_ready(struct ttx_timing *T, unsigned th, struct constraint *k)
{
	uint64_t ready = T->ready[th];
	k->at = ready, k->reason = TTX_STALL_UNIT, k->unit = 0;
	if (T->mop_ended[th]) {
		T->mop_ended[th] = 0;
		need(k, ready + MOP_TRANSITION_CYCLES, TTX_STALL_FRONTEND, 0);
	}
	return ready;
}

static void insn_slow(struct ttx_tile *t, unsigned th, uint32_t word);

/* ttx_timing_insn's common case, kept small (it runs for every SFPU
   instruction the interpreter retires): an SFPU instruction of one cycle,
   no wait, hand-over, MOP transition or event to see to. */
void ttx_timing_insn(struct ttx_tile *t, unsigned th, uint32_t word)
{
	struct ttx_timing *T = &t->timing;
	unsigned op = word >> 24;
	if (ttx_isa_insns[op].unit != TTX_UNIT_SFPU || (T->mop_ended[th] | T->gate_mask[th]) || T->dep[th] ||
	    t->opt.timing_event || is_two_cycle_sfpu(word)) {
		insn_slow(t, th, word);
		return;
	}
	uint64_t ready = T->ready[th];
	uint64_t free = op == TTX_OP_SFPNOP ? T->sfpnop_free : T->free[TTX_RES_SFPU];
	uint64_t issue = ready;
	if (free > ready) {
		issue = free;
		T->c.stalled[th][TTX_STALL_UNIT] += free - ready;
		T->c.stalled_on_unit[th][TTX_UNIT_SFPU] += free - ready;
	}
	/* one cycle: the SFPU's busy span so far ends at free, or a cycle
	   later for an SFPNOP in a two-cycle instruction's shadow */
	T->c.busy_by_unit[TTX_UNIT_SFPU] += issue >= T->busy_until[TTX_UNIT_SFPU];
	T->busy_until[TTX_UNIT_SFPU] = max64(T->busy_until[TTX_UNIT_SFPU], issue + 1);
	T->free[TTX_RES_SFPU] = T->sfpnop_free = issue + 1;
	uint64_t done = issue + (is_mad_class(op) || op == TTX_OP_SFPCONFIG ? SFPU_MAD_LATENCY : SFPU_LATENCY);
	T->done[th][TTX_RES_SFPU] = max64(T->done[th][TTX_RES_SFPU], done);
	T->c.device_cycles = max64(T->c.device_cycles, done);
	T->ready[th] = issue + 1;
	T->c.issued[th]++;
	T->c.busy[th]++;
}

static __attribute__((noinline)) void insn_slow(struct ttx_tile *t, unsigned th, uint32_t word)
{
	struct ttx_timing *T = &t->timing;
	unsigned op = word >> 24, unit = ttx_isa_insns[op].unit;
	struct cost c = insn_cost(t, word);
	struct constraint k;
	uint64_t ready = thread_ready(T, th, &k);
	need(&k, T->dep[th], TTX_STALL_SRC, 0);
	T->dep[th] = 0;
	if (T->gate_mask[th] && ttx_wait_gate_blocks(T->gate_mask[th], op))
		need(&k, T->gate_until[th], T->gate_op[th] == TTX_OP_SEMWAIT ? TTX_STALL_SEMWAIT : TTX_STALL_STALLWAIT, 0);
	if (op == TTX_OP_ATGETM)
		need(&k, T->mutex_stamp[(word & 0xFFFF) & 7], TTX_STALL_MUTEX, 0);
	if (c.res < TTX_RES_COUNT) {
		uint64_t free = op == TTX_OP_SFPNOP ? T->sfpnop_free : T->free[c.res];
		need(&k, free, TTX_STALL_UNIT, res_unit[c.res]);
	}
	uint64_t issue = k.at, done = issue + c.lat;
	if (op == TTX_OP_SETDVALID)   /* hands over what the unpackers have written */
		done = max64(done, max64(T->done[th][TTX_RES_UNPACK0], T->done[th][TTX_RES_UNPACK1]));
	if (c.res == TTX_RES_UNPACK_ADDR) {
		/* address stage, then the L1 reads of the unpacker the word names
		   (bit 23 of UNPACR and UNPACR_NOP), in order */
		unsigned addr = c.occ, data = op == TTX_OP_UNPACR ? T->xfer_cycles : 1;
		unsigned res = TTX_RES_UNPACK0 + (word >> 23 & 1);
		T->free[TTX_RES_UNPACK_ADDR] = issue + addr;
		uint64_t start = max64(issue + addr, T->free[res]);
		T->free[res] = start + data;
		done = start + data;
		book(T, TTX_UNIT_UNPACK, issue, issue + addr);
		book(T, TTX_UNIT_UNPACK, start, done);
		complete(T, th, TTX_RES_UNPACK_ADDR, issue + addr);
		complete(T, th, res, done);
	} else if (c.res < TTX_RES_COUNT) {
		T->free[c.res] = issue + c.occ;
		if (c.res == TTX_RES_SFPU)
			T->sfpnop_free = issue + c.occ - c.shadow;
		book(T, res_unit[c.res], issue, issue + c.occ);
		complete(T, th, c.res, done);
	} else {
		complete(T, th, TTX_RES_NONE, done);
	}
	T->xfer_cycles = 0;
	T->c.macs += c.macs;
	T->ready[th] = issue + c.block;
	if (T->gate_mask[th] && T->ready[th] >= T->gate_until[th] && !t->wait_gate[th].opcode)
		T->gate_mask[th] = 0;   /* passed and forgotten: nothing more to hold */
	account(T, th, &k, ready, 1, c.block);

	/* hand-overs this instruction made, for the instructions waiting on
	   them (SFPU instructions and NOPs make none: compiled blocks, which
	   hold only those, need not look; a NOP looking would also pick up
	   owners the host changed, which a block would not) */
	uint8_t owners = unit == TTX_UNIT_SFPU || op == TTX_OP_NOP ? T->owners : src_owners(t);
	if (owners != T->owners) {
		for (unsigned b = 0; b < 4; b++)
			if ((owners ^ T->owners) >> b & 1)
				T->src_stamp[b] = done;
		T->owners = owners;
	}
	switch (op) {
	case TTX_OP_SEMINIT: case TTX_OP_SEMPOST: case TTX_OP_SEMGET:
		for (unsigned i = 0; i < 8; i++)
			if (word >> (2 + i) & 1)
				T->sem_stamp[i] = done;
		break;
	case TTX_OP_ATRELM:
		T->mutex_stamp[(word & 0xFFFF) & 7] = done;
		break;
	case TTX_OP_STALLWAIT: case TTX_OP_SEMWAIT: {
		const struct ttx_wait_gate *g = &t->wait_gate[th];
		T->gate_op[th] = g->opcode;
		T->gate_mask[th] = g->block_mask;
		T->gate_until[th] = issue + 1 + GATE_LAG;
		if (g->opcode == TTX_OP_STALLWAIT)
			T->gate_until[th] = max64(T->gate_until[th], busy_conditions_met(T, th, g->condition_mask) + GATE_LAG);
		break;
	}
	}
	if (t->opt.timing_event) {
		uint64_t unit_free = c.res == TTX_RES_UNPACK_ADDR ? done : c.res < TTX_RES_COUNT ? issue + c.occ : 0;
		event(t, th, unit, word, 1, &k, ready, done, unit_free);
	}
}

/* ---- compiled blocks (jit/cache.c) ----
   A block run under the cycle model holds SFPU instructions and NOPs only
   (jit/cache.c leaves the others to the interpreter), and runs only while
   no wait is pending (ttx_timing_gate_open): from its first
   SFPU instruction on, every placement is a fixed offset from that
   instruction's issue cycle, so the block is summarised once, by the same
   rules as ttx_timing_insn, and placed in O(1) each run. */

void ttx_timing_block_add(struct ttx_timing_block *b, uint32_t word)
{
	unsigned op = word >> 24;
	int sfpu = ttx_isa_insns[op].unit == TTX_UNIT_SFPU;
	if (b->n++ == 0)
		b->first_word = word;
	if (!b->started && !sfpu) {
		b->lead++;
		return;
	}
	struct cost c = sfpu ? sfpu_cost(word) : (struct cost){ TTX_RES_NONE, 0, 1, 1, 1, 0 };   /* NOP */
	uint64_t issue;
	if (!b->started) {
		b->started = 1;
		b->sfpu_word = word;
		b->first_occ = c.occ;
		issue = 0;
	} else {
		issue = b->ready_off;
		if (sfpu) {
			uint64_t free = op == TTX_OP_SFPNOP ? b->sfpnop_off : b->free_off;
			if (free > issue) {
				b->stall += (uint32_t)(free - issue);
				issue = free;
			}
		}
	}
	uint64_t done = issue + c.lat;
	if (sfpu) {
		uint64_t from = issue > b->busy_end ? issue : b->busy_end;
		if (issue + c.occ > from)
			b->busy += (uint32_t)(issue + c.occ - from);
		if (issue + c.occ > b->busy_end)
			b->busy_end = (uint32_t)(issue + c.occ);
		b->free_off = (uint32_t)(issue + c.occ);
		b->sfpnop_off = (uint32_t)(issue + c.occ - c.shadow);
		if (done > b->done_sfpu)
			b->done_sfpu = (uint32_t)done;
	}
	if (done > b->done_all)
		b->done_all = (uint32_t)done;
	b->ready_off = (uint32_t)(issue + c.block);
}

static void block_once(struct ttx_tile *t, unsigned th, const struct ttx_timing_block *b)
{
	struct ttx_timing *T = &t->timing;
	struct constraint k;
	uint64_t ready0 = thread_ready(T, th, &k), ready = ready0;
	uint64_t first = k.at, end, stall = 0;
	if (b->lead) {
		/* the first instruction, a NOP, took any MOP transition cycle */
		account(T, th, &k, ready0, 0, 0);
		stall = first - ready0;
		ready = first + b->lead;
		k.at = ready, k.reason = TTX_STALL_UNIT;
	}
	if (!b->started) {   /* NOPs only */
		end = ready;
		T->ready[th] = end;
		T->c.device_cycles = max64(T->c.device_cycles, end);
		T->c.issued[th] += b->n;
		T->c.busy[th] += b->n;
	} else {
		need(&k, (b->sfpu_word >> 24) == TTX_OP_SFPNOP ? T->sfpnop_free : T->free[TTX_RES_SFPU], TTX_STALL_UNIT,
		     TTX_UNIT_SFPU);
		uint64_t x = k.at;
		uint64_t overlap = T->busy_until[TTX_UNIT_SFPU] > x ? T->busy_until[TTX_UNIT_SFPU] - x : 0;
		T->c.busy_by_unit[TTX_UNIT_SFPU] += b->busy - (overlap < b->first_occ ? overlap : b->first_occ);
		T->busy_until[TTX_UNIT_SFPU] = max64(T->busy_until[TTX_UNIT_SFPU], x + b->busy_end);
		T->free[TTX_RES_SFPU] = x + b->free_off;
		T->sfpnop_free = x + b->sfpnop_off;
		T->done[th][TTX_RES_SFPU] = max64(T->done[th][TTX_RES_SFPU], x + b->done_sfpu);
		end = x + b->done_all;
		T->c.device_cycles = max64(T->c.device_cycles, end);
		T->ready[th] = x + b->ready_off;
		account(T, th, &k, ready, b->n, b->n);
		if (b->stall) {
			T->c.stalled[th][TTX_STALL_UNIT] += b->stall;
			T->c.stalled_on_unit[th][TTX_UNIT_SFPU] += b->stall;
		}
		stall += x - ready + b->stall;
	}
	if (t->opt.timing_event) {
		uint64_t unit_free = b->started ? T->free[TTX_RES_SFPU] : 0;
		struct ttx_timing_event e = { th, b->started ? TTX_UNIT_SFPU : TTX_UNIT_MISC, b->first_word, b->n, first, end, unit_free, stall,
		                              (enum ttx_stall)k.reason };
		t->opt.timing_event(t->opt.timing_ctx, &e);
	}
}

/* times runs back to back (a stream of REPLAYs, jit/cache.c): after the
   first, each run starts exactly P cycles after the one before, P the
   larger of the thread's and the SFPU's offsets, so the rest is closed
   form. */
void ttx_timing_block_run(struct ttx_tile *t, unsigned th, const struct ttx_timing_block *b, uint64_t times)
{
	if (!times)
		return;
	block_once(t, th, b);
	if (times == 1)
		return;
	if (t->opt.timing_event || !b->started) {   /* one event per run; NOPs alone are rare */
		while (--times)
			block_once(t, th, b);
		return;
	}
	struct ttx_timing *T = &t->timing;
	uint64_t m = times - 1, x = T->ready[th] - b->ready_off;   /* the last run's first SFPU issue */
	uint64_t f = (b->sfpu_word >> 24) == TTX_OP_SFPNOP ? b->sfpnop_off : b->free_off;
	uint64_t own = (uint64_t)b->ready_off + b->lead, period = own > f ? own : f;
	uint64_t overlap = b->busy_end > period ? b->busy_end - period : 0;
	uint64_t stall = period - own + b->stall;
	x += m * period;
	T->c.busy_by_unit[TTX_UNIT_SFPU] += m * (b->busy - (overlap < b->first_occ ? overlap : b->first_occ));
	T->busy_until[TTX_UNIT_SFPU] = x + b->busy_end;
	T->free[TTX_RES_SFPU] = x + b->free_off;
	T->sfpnop_free = x + b->sfpnop_off;
	T->done[th][TTX_RES_SFPU] = max64(T->done[th][TTX_RES_SFPU], x + b->done_sfpu);
	T->c.device_cycles = max64(T->c.device_cycles, x + b->done_all);
	T->ready[th] = x + b->ready_off;
	T->c.stalled[th][TTX_STALL_UNIT] += m * stall;
	T->c.stalled_on_unit[th][TTX_UNIT_SFPU] += m * stall;
	T->c.issued[th] += m * b->n;
	T->c.busy[th] += m * b->n;
}

void ttx_timing_pop(struct ttx_tile *t, unsigned th)
{
	struct ttx_timing *T = &t->timing;
	struct ttx_pipe *p = &t->pipe[th];
	if (!T->on)
		return;
	uint64_t arrive = p->at[p->head & (p->cap - 1)];
	if (arrive && arrive + TTX_PUSH_LATENCY > T->ready[th]) {
		T->c.stalled[th][TTX_STALL_FRONTEND] += arrive + TTX_PUSH_LATENCY - T->ready[th];
		T->ready[th] = arrive + TTX_PUSH_LATENCY;
	}
	T->pop_at[th][p->head % TTX_POP_RING] = T->ready[th];
}
