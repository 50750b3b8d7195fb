/* The five baby RISC-V cores of a tile (TT/BabyRISCV/README.md): RV32IM with
 * the .ttinsn extension, interpreted from pre-decoded blocks, with the
 * pipeline's cycle costs; docs/riscv.md describes the model.
 *
 * Blocks.  A block is the straight run of instructions from a pc to the
 * first control transfer (branch, jal, jalr, ecall, ebreak), at most
 * BLOCK_MAX long and never crossing a 4 KiB page, decoded once into
 * struct rv_op and kept in a direct-mapped table per core.  A block records
 * its page's write generation (t->code_gen, bumped by every writer of L1:
 * ttx_l1_touched) and is decoded again when the page has been written since.
 *
 * Waiting.  An access that must wait (a full instruction FIFO, an empty
 * mailbox, TTSync) leaves the core at that instruction; it tries again once
 * something that could release it has happened (t->core_epoch or the Tensix
 * threads' retired count moved).  A loop that reads only what others could
 * change and comes back to its head with every register unchanged (a
 * polling loop, or j .) waits the same way: spinning would only burn host
 * time.  A run ends when every live core waits in such a loop and the
 * threads are idle (docs/riscv.md "When a run ends").
 *
 * Cycles.  Each instruction takes one cycle; mul* one more, div/rem 2 or
 * 6-33 by the dividend, a mispredicted branch (static backward-taken /
 * forward-not-taken; jalr always) two more; a load stalls the first
 * instruction of the block that reads its result by the region's latency
 * less the distance (local RAM 2, mailboxes/PCBufs/TTSync/semaphores 3,
 * GPRs/configuration 4, other registers 7, L1 8); L1 stores go through a
 * four-entry store queue that writes one every 5 cycles: a store (or load)
 * finding it full waits, and a load from the very address of a queued
 * store gets its data after that store's write (MemoryOrdering.md).
 * Numbers from the page's Pipeline and Load/Store Unit sections. */
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "rv32.h"
#include "riscv.h"

#define BLOCK_MAX 64
#define CACHE_SLOTS 1024
#define QUANTUM 4096        /* instructions a core runs before the others get a turn */

struct rv_op {
	uint8_t op, rd, rs1, rs2;   /* rd 32: the sink for writes to x0 */
	int32_t imm;
	uint8_t use;                /* a load: instructions until its rd is read (0: not in the block) */
};

/* Pseudo-ops after a block's last instruction: it goes on to the next
   block (OP_END), or the budget ends there (OP_LIMIT). */
enum { OP_END = TTX_RV_COUNT, OP_LIMIT };

struct rv_block {
	uint32_t pc, gen;
	uint32_t n;
	struct rv_op ops[BLOCK_MAX + 1];
};

struct ttx_rv_cache {
	struct rv_block *slot[CACHE_SLOTS];
};

static const char *const core_names[TTX_CORE_COUNT] = { "RISCV B", "RISCV T0", "RISCV T1", "RISCV T2", "RISCV NC" };

void ttx_rv_free(struct ttx_tile *t)
{
	for (unsigned i = 0; i < TTX_CORE_COUNT; i++) {
		struct ttx_rv_cache *c = t->core[i].cache;
		if (!c)
			continue;
		for (unsigned k = 0; k < CACHE_SLOTS; k++)
			free(c->slot[k]);
		free(c);
		t->core[i].cache = NULL;
	}
}

/* ---- decoding into blocks ---- */

static int ends_block(unsigned op)
{
	switch (op) {
	case TTX_RV_JAL: case TTX_RV_JALR: case TTX_RV_BEQ: case TTX_RV_BNE: case TTX_RV_BLT: case TTX_RV_BGE:
	case TTX_RV_BLTU: case TTX_RV_BGEU: case TTX_RV_ECALL: case TTX_RV_EBREAK: case TTX_RV_INVALID:
		return 1;
	}
	return 0;
}

static int is_load(unsigned op)
{
	return op >= TTX_RV_LB && op <= TTX_RV_LHU;
}

/* The bytes at pc a core fetches from, and the generation counter of its
   page; NULL if instructions cannot be fetched there. */
static const uint8_t *code_at(struct ttx_tile *t, unsigned core, uint32_t pc, uint32_t **gen)
{
	if (pc < TTX_L1_SIZE) {
		*gen = &t->code_gen[pc >> 12];
		return t->l1 + pc;
	}
	if (core == TTX_CORE_NC && pc - TTX_MMIO_NC_IRAM < sizeof(t->nc_iram)) {
		*gen = &t->code_gen_iram;
		return t->nc_iram + (pc - TTX_MMIO_NC_IRAM);
	}
	return NULL;
}

static void decode_block(struct ttx_tile *t, struct rv_block *b, const uint8_t *code, uint32_t pc, uint32_t gen)
{
	b->pc = pc;
	b->gen = gen;
	b->n = 0;
	uint32_t room = (0x1000 - (pc & 0xFFF)) / 4;
	if (pc >= TTX_L1_SIZE - 0x1000 && pc < TTX_L1_SIZE)
		room = (TTX_L1_SIZE - pc) / 4 < room ? (TTX_L1_SIZE - pc) / 4 : room;
	while (b->n < BLOCK_MAX && b->n < room) {
		uint32_t w;
		memcpy(&w, code + 4 * b->n, 4);
		struct ttx_rv_insn in = ttx_rv_decode(w);
		struct rv_op *o = &b->ops[b->n++];
		o->op = in.op;
		o->rd = in.rd ? in.rd : 32;
		o->rs1 = in.rs1;
		o->rs2 = in.rs2;
		o->imm = in.imm;
		o->use = 0;
		if (ends_block(in.op))
			break;
	}
	b->ops[b->n].op = OP_END;
	/* a .ttinsn: how many follow it in a row (itself included), pushed at once */
	for (uint32_t i = b->n; i-- > 0;)
		if (b->ops[i].op == TTX_RV_TTINSN)
			b->ops[i].use = (uint8_t)(i + 1 < b->n && b->ops[i + 1].op == TTX_RV_TTINSN && b->ops[i + 1].use < 255 ?
			                          b->ops[i + 1].use + 1 : 1);
	/* how far each load's result is from its first reader in the block */
	for (uint32_t i = 0; i < b->n; i++) {
		struct rv_op *o = &b->ops[i];
		if (!is_load(o->op) || o->rd == 32)
			continue;
		for (uint32_t k = i + 1; k < b->n; k++) {
			const struct rv_op *u = &b->ops[k];
			enum ttx_rv_format f = ttx_rv_table[u->op].format;
			int reads1 = f != TTX_RVF_U && f != TTX_RVF_J && f != TTX_RVF_NONE && f != TTX_RVF_TTINSN;
			int reads2 = f == TTX_RVF_R || f == TTX_RVF_S || f == TTX_RVF_B;
			if ((reads1 && u->rs1 == o->rd) || (reads2 && u->rs2 == o->rd)) {
				o->use = (uint8_t)(k - i);
				break;
			}
			if (u->rd == o->rd)
				break;   /* overwritten before any read */
		}
	}
	(void)t;
}

static struct rv_block *block_at(struct ttx_tile *t, unsigned core, uint32_t pc)
{
	struct ttx_rvcore *c = &t->core[core];
	uint32_t *gen;
	const uint8_t *code = (pc & 3) ? NULL : code_at(t, core, pc, &gen);
	if (!code) {
		ttx_fail(t, TTX_FAULT, "%s: instruction fetch from 0x%08X: %s", core_names[core], pc,
		         pc & 3 ? "not 4-byte aligned" : "instructions execute only from L1 (or RISCV NC's instruction "
		         "RAM), TT/BabyRISCV/README.md \"Frontend\"");
		return NULL;
	}
	if (!c->cache && !(c->cache = calloc(1, sizeof(*c->cache)))) {
		ttx_fail(t, TTX_ENOMEM, "out of memory for %s's decoded code", core_names[core]);
		return NULL;
	}
	struct rv_block **slot = &c->cache->slot[(pc >> 2) & (CACHE_SLOTS - 1)];
	uint32_t g = *gen + t->code_gen_all;
	if (*slot && (*slot)->pc == pc && (*slot)->gen == g)
		return *slot;
	if (!*slot && !(*slot = malloc(sizeof(**slot)))) {
		ttx_fail(t, TTX_ENOMEM, "out of memory for %s's decoded code", core_names[core]);
		return NULL;
	}
	decode_block(t, *slot, code, pc, g);
	return *slot;
}

/* ---- timing ---- */

/* Load latency by region (TT/BabyRISCV/README.md "Load/Store Unit"). */
static unsigned load_latency(uint32_t addr)
{
	if (addr < TTX_L1_SIZE)
		return 8;
	if (addr - TTX_MMIO_LOCAL < 0x1000)
		return 2;
	if ((addr >> 16) == (TTX_MMIO_PC_BUF >> 16) || (addr >> 16) == (TTX_MMIO_PC1_BUF >> 16) ||
	    (addr >> 16) == (TTX_MMIO_PC2_BUF >> 16) || (addr >> 16) == (TTX_MMIO_MAILBOX >> 16))
		return 3;
	if ((addr >> 16) == (TTX_MMIO_GPR >> 16) || (addr >> 16) == (TTX_MMIO_CFG >> 16))
		return 4;
	return 7;
}

/* div/rem: 2 cycles for a divisor of 0 or 1 and for INT_MIN / -1, else 6 to
   33 by the dividend's magnitude (its bit length + 1, at least 6). */
static unsigned div_cycles(uint32_t a, uint32_t b, int is_signed)
{
	if (b == 0 || b == 1 || (is_signed && a == 0x80000000u && b == 0xFFFFFFFFu))
		return 2;
	uint32_t m = is_signed && (int32_t)a < 0 ? 0u - a : a;
	unsigned bits = m ? 32 - (unsigned)__builtin_clz(m) : 0;
	return bits + 1 < 6 ? 6 : bits + 1;
}

/* ---- the interpreter ---- */

static uint64_t wake_epoch(const struct ttx_tile *t)
{
	return t->core_epoch + t->stats.insns;
}

static enum ttx_core_wait_reason wait_reason(unsigned core, uint32_t addr, int store)
{
	if ((addr >> 16) == (TTX_MMIO_MAILBOX >> 16))
		return store ? TTX_WAIT_MAILBOX_FULL : TTX_WAIT_MAILBOX_EMPTY;
	if ((addr >> 16) >= (TTX_MMIO_INSTRN_BUF >> 16) && (addr >> 16) <= (TTX_MMIO_INSTRN2_BUF >> 16))
		return TTX_WAIT_INSTRN_FIFO;
	if (core != TTX_CORE_B && (addr & 0xFFFF) >= 4 && (addr & 0xFFFF) <= 8)
		return TTX_WAIT_TTSYNC;
	return TTX_WAIT_PC_BUF;
}

static void trace_insn(struct ttx_tile *t, unsigned core, uint32_t pc);

/* Run core for at most max instructions, or until it waits, halts or
   faults.  *done gets the instructions it retired.
   Dispatch is direct threading (each handler jumps to the next one's
   label); a block's instruction index gives its pc and its cycle (one an
   instruction, plus the stalls added to cyc as they happen). */
static enum ttx_status run_core(struct ttx_tile *t, unsigned core, uint64_t max, uint64_t *done)
{
	static const void *const labels[OP_LIMIT + 1] = {
		[TTX_RV_INVALID] = &&op_INVALID,
#define TTX_RV(name, mn, fmt, match, mask) [TTX_RV_##name] = &&op_##name,
#include "rv32.def"
#undef TTX_RV
		[TTX_RV_TTINSN] = &&op_TTINSN, [OP_END] = &&op_END, [OP_LIMIT] = &&op_END,
	};
	/* tracing: every instruction goes through op_TRACE first */
	const void *traced[OP_LIMIT + 1];
	const void *const *tab = labels;
	if (t->opt.trace_core) {
		for (unsigned i = 0; i < OP_END; i++)
			traced[i] = &&op_TRACE;
		traced[OP_END] = traced[OP_LIMIT] = &&op_END;
		tab = traced;
	}
	struct ttx_rvcore *c = &t->core[core];
	uint32_t r[33];
	memcpy(r, c->x, sizeof(c->x));
	r[32] = 0;
	uint32_t pc = c->pc, next, a, v;
	uint64_t cyc = c->cycle, n = 0;
	enum ttx_status st = TTX_OK;
	const uint32_t local_size = c->local_size;
	uint8_t *const l1 = t->l1, *const local = c->local;
	/* a TRISC's pushes to its thread, inline (interp/riscv_mmio.c push()
	   is the general case: a full FIFO, a ring to grow, RISCV B's path) */
	struct ttx_pipe *push_pipe = core >= TTX_CORE_T0 && core <= TTX_CORE_T2 && !t->timing.on ?
	                             &t->pipe[core - TTX_CORE_T0] : NULL;
	const size_t push_limit = t->timing.on ? TTX_INSTRN_FIFO : TTX_INSTRN_FIFO_AHEAD;
	struct rv_block *short_block = NULL;   /* a block cut short by the budget */
	const struct rv_block *b;
	const struct rv_op *o;
#define IDX ((uint32_t)(o - b->ops))
#define IPC (b->pc + 4 * IDX)
#define NOW (cyc + IDX + 1)
#define DISPATCH goto *tab[o->op]
#define NEXT do { o++; DISPATCH; } while (0)
#define STALL(k, why) do { cyc += (k); c->stall[why] += (k); } while (0)

	const uint64_t limit = t->cores_cycle_limit ? t->cores_cycle_limit : UINT64_MAX;
	for (;;) {
		if (n >= max || cyc >= limit)
			break;
		b = block_at(t, core, pc);
		if (!b) {
			st = strstr(t->error, "out of memory") ? TTX_ENOMEM : TTX_FAULT;
			break;
		}
		if (b->n > max - n) {   /* run only what the budget allows */
			if (!short_block && !(short_block = malloc(sizeof(*short_block)))) {
				st = ttx_fail(t, TTX_ENOMEM, "out of memory");
				break;
			}
			memcpy(short_block, b, sizeof(*b));
			short_block->n = (uint32_t)(max - n);
			short_block->ops[short_block->n].op = OP_LIMIT;
			b = short_block;
		}
		o = b->ops;
		DISPATCH;

	op_TRACE:
		trace_insn(t, core, IPC);
		goto *labels[o->op];
	op_LUI: r[o->rd] = (uint32_t)o->imm; NEXT;
	op_AUIPC: r[o->rd] = IPC + (uint32_t)o->imm; NEXT;
	op_ADDI: r[o->rd] = r[o->rs1] + (uint32_t)o->imm; NEXT;
	op_SLTI: r[o->rd] = (int32_t)r[o->rs1] < o->imm; NEXT;
	op_SLTIU: r[o->rd] = r[o->rs1] < (uint32_t)o->imm; NEXT;
	op_XORI: r[o->rd] = r[o->rs1] ^ (uint32_t)o->imm; NEXT;
	op_ORI: r[o->rd] = r[o->rs1] | (uint32_t)o->imm; NEXT;
	op_ANDI: r[o->rd] = r[o->rs1] & (uint32_t)o->imm; NEXT;
	op_SLLI: r[o->rd] = r[o->rs1] << o->imm; NEXT;
	op_SRLI: r[o->rd] = r[o->rs1] >> o->imm; NEXT;
	op_SRAI: r[o->rd] = (uint32_t)((int32_t)r[o->rs1] >> o->imm); NEXT;
	op_ADD: r[o->rd] = r[o->rs1] + r[o->rs2]; NEXT;
	op_SUB: r[o->rd] = r[o->rs1] - r[o->rs2]; NEXT;
	op_SLL: r[o->rd] = r[o->rs1] << (r[o->rs2] & 31); NEXT;
	op_SLT: r[o->rd] = (int32_t)r[o->rs1] < (int32_t)r[o->rs2]; NEXT;
	op_SLTU: r[o->rd] = r[o->rs1] < r[o->rs2]; NEXT;
	op_XOR: r[o->rd] = r[o->rs1] ^ r[o->rs2]; NEXT;
	op_SRL: r[o->rd] = r[o->rs1] >> (r[o->rs2] & 31); NEXT;
	op_SRA: r[o->rd] = (uint32_t)((int32_t)r[o->rs1] >> (r[o->rs2] & 31)); NEXT;
	op_OR: r[o->rd] = r[o->rs1] | r[o->rs2]; NEXT;
	op_AND: r[o->rd] = r[o->rs1] & r[o->rs2]; NEXT;
	/* M: the Integer Unit is busy for two cycles (multiply) or 2-33
	   (divide); the results the specification defines at the edges
	   (x / 0 = -1, x % 0 = x, INT_MIN / -1 = INT_MIN, its remainder 0) */
	op_MUL:
		r[o->rd] = r[o->rs1] * r[o->rs2];
		STALL(1, TTX_CORE_STALL_MULDIV);
		NEXT;
	op_MULH:
		r[o->rd] = (uint32_t)((uint64_t)((int64_t)(int32_t)r[o->rs1] * (int32_t)r[o->rs2]) >> 32);
		STALL(1, TTX_CORE_STALL_MULDIV);
		NEXT;
	op_MULHSU:
		r[o->rd] = (uint32_t)((uint64_t)((int64_t)(int32_t)r[o->rs1] * (int64_t)(uint64_t)r[o->rs2]) >> 32);
		STALL(1, TTX_CORE_STALL_MULDIV);
		NEXT;
	op_MULHU:
		r[o->rd] = (uint32_t)(((uint64_t)r[o->rs1] * r[o->rs2]) >> 32);
		STALL(1, TTX_CORE_STALL_MULDIV);
		NEXT;
	op_DIV: op_DIVU: op_REM: op_REMU: {
		uint32_t x = r[o->rs1], y = r[o->rs2], q;
		int sgn = o->op == TTX_RV_DIV || o->op == TTX_RV_REM, rem = o->op >= TTX_RV_REM;
		if (y == 0)
			q = rem ? x : 0xFFFFFFFFu;
		else if (sgn && x == 0x80000000u && y == 0xFFFFFFFFu)
			q = rem ? 0 : x;
		else if (sgn)
			q = rem ? (uint32_t)((int32_t)x % (int32_t)y) : (uint32_t)((int32_t)x / (int32_t)y);
		else
			q = rem ? x % y : x / y;
		STALL(div_cycles(x, y, sgn) - 1, TTX_CORE_STALL_MULDIV);
		r[o->rd] = q;
		NEXT;
	}
	op_FENCE: NEXT;   /* "executed as if it were nop" */
	op_LB: op_LH: op_LW: op_LBU: op_LHU: {
		unsigned size = o->op == TTX_RV_LW ? 4 : o->op == TTX_RV_LB || o->op == TTX_RV_LBU ? 1 : 2;
		a = (r[o->rs1] + (uint32_t)o->imm) & ~(size - 1);
		v = 0;
		if (a < TTX_L1_SIZE) {
			memcpy(&v, l1 + a, size);
			c->loop_shared_load = 1;
		} else if (a - TTX_MMIO_LOCAL < local_size) {
			memcpy(&v, local + (a - TTX_MMIO_LOCAL), size);
		} else {
			c->pc = IPC, c->cycle = NOW;
			st = ttx_rv_access(t, core, a, size, 0, &v, 0);
			if (st != TTX_OK)
				goto access_stopped;
			c->loop_shared_load = 1;
		}
		if (o->op == TTX_RV_LB)
			v = (uint32_t)(int32_t)(int8_t)v;
		else if (o->op == TTX_RV_LH)
			v = (uint32_t)(int32_t)(int16_t)v;
		r[o->rd] = v;
		unsigned lat = load_latency(a);
		uint64_t now = NOW;
		if (now < c->sq_drained) {   /* stores queued (MemoryOrdering.md) */
			if (c->sq[c->sq_next].drain > now) {   /* a full queue: the load cannot enter */
				STALL(c->sq[c->sq_next].drain - now, TTX_CORE_STALL_STORE);
				now = c->sq[c->sq_next].drain;
			}
			for (unsigned i = 0; i < 4; i++)   /* a store to its very address is written first */
				if (c->sq[i].addr == a && c->sq[i].drain > now && a < TTX_L1_SIZE)
					lat += (unsigned)(c->sq[i].drain - now);
		}
		if (o->use && o->use < lat)
			STALL(lat - o->use, TTX_CORE_STALL_LOAD);
		NEXT;
	}
	op_TTINSN:
		a = TTX_MMIO_INSTRN_BUF, v = (uint32_t)o->imm;
		c->loop_stored = 1;
		if (push_pipe && tab == labels) {   /* a run of .ttinsn words (o->use long) pushed at once */
			size_t queued = push_pipe->tail - push_pipe->head, k = o->use;
			if (queued + k <= push_limit && queued + k <= push_pipe->cap) {
				for (size_t i = 0; i < k; i++)
					push_pipe->words[push_pipe->tail++ & (push_pipe->cap - 1)] = (uint32_t)o[i].imm;
				o += k;
				DISPATCH;
			}
		}
		goto push;
	op_SB: op_SH: op_SW: {
		unsigned size = o->op == TTX_RV_SB ? 1 : o->op == TTX_RV_SH ? 2 : 4;
		a = (r[o->rs1] + (uint32_t)o->imm) & ~(size - 1), v = r[o->rs2];
		c->loop_stored = 1;
		if (a < TTX_L1_SIZE) {
			memcpy(l1 + a, &v, size);
			ttx_l1_touched(t, a, size);
			/* the store queue: a free entry (the store four back has
			   drained), then its turn among the L1 writes, 5 cycles apart */
			uint64_t now = NOW;
			if (now < c->sq[c->sq_next].drain) {
				STALL(c->sq[c->sq_next].drain - now, TTX_CORE_STALL_STORE);
				now = c->sq[c->sq_next].drain;
			}
			uint64_t drain = c->sq_drained && c->sq_drained + 5 > now + 1 ? c->sq_drained + 5 : now + 1;
			c->sq[c->sq_next].drain = drain, c->sq[c->sq_next].addr = a;
			c->sq_next = (c->sq_next + 1) & 3;
			c->sq_drained = drain;
			NEXT;
		}
		if (a - TTX_MMIO_LOCAL < local_size) {
			memcpy(local + (a - TTX_MMIO_LOCAL), &v, size);
			NEXT;
		}
		if (a != TTX_MMIO_INSTRN_BUF || size != 4)
			goto store_mmio;
	}
	push:
		if (push_pipe) {   /* the common push, inline */
			size_t queued = push_pipe->tail - push_pipe->head;
			if (queued < push_limit && queued < push_pipe->cap) {
				push_pipe->words[push_pipe->tail++ & (push_pipe->cap - 1)] = v;
				NEXT;
			}
		}
	store_mmio: {
		unsigned size = o->op == TTX_RV_SB ? 1 : o->op == TTX_RV_SH ? 2 : 4;
		c->pc = IPC, c->cycle = NOW;
		st = ttx_rv_access(t, core, a, size, 1, &v, 0);
		if (st != TTX_OK)
			goto access_stopped;
		if (c->cycle > NOW)   /* a push waited for room in the FIFO (counted there) */
			cyc += c->cycle - NOW;
		if (c->run != TTX_CORE_RUNNING) {   /* it put itself into reset */
			next = IPC + 4;
			goto stop_after;
		}
		NEXT;
	}
	/* control transfers end the block */
	op_JAL:
		next = IPC + (uint32_t)o->imm;
		r[o->rd] = IPC + 4;
		goto transfer;
	op_JALR:
		next = (r[o->rs1] + (uint32_t)o->imm) & ~1u;
		r[o->rd] = IPC + 4;
		STALL(2, TTX_CORE_STALL_BRANCH);   /* no target predictor */
		goto transfer;
	op_BEQ: op_BNE: op_BLT: op_BGE: op_BLTU: op_BGEU: {
		uint32_t x = r[o->rs1], y = r[o->rs2];
		int taken;
		switch (o->op) {
		case TTX_RV_BEQ: taken = x == y; break;
		case TTX_RV_BNE: taken = x != y; break;
		case TTX_RV_BLT: taken = (int32_t)x < (int32_t)y; break;
		case TTX_RV_BGE: taken = (int32_t)x >= (int32_t)y; break;
		case TTX_RV_BLTU: taken = x < y; break;
		default: taken = x >= y; break;
		}
		next = taken ? IPC + (uint32_t)o->imm : IPC + 4;
		if (taken != (o->imm < 0))   /* predicted: backward taken, forward not */
			STALL(2, TTX_CORE_STALL_BRANCH);
		goto transfer;
	}
	op_ECALL: op_EBREAK:
		/* a debug pause (TT/BabyRISCV/DebugInterface.md): the core halts */
		c->run = TTX_CORE_HALTED;
		t->cores_live &= (uint8_t)~(1u << core);
		next = IPC + 4;
		goto stop_after;
	op_INVALID: {
		uint32_t w;
		uint32_t *g;
		memcpy(&w, code_at(t, core, IPC, &g), 4);
		st = ttx_fail(t, TTX_FAULT, "%s at pc 0x%08X: 0x%08X is not an RV32IM instruction (the hardware "
		              "would run some other instruction: docs/riscv.md)", core_names[core], IPC, w);
		next = IPC;
		goto stop_before;
	}
	op_END:   /* the block ran out without a transfer (or the budget did) */
		n += IDX, cyc += IDX;
		pc = IPC;
		continue;
	transfer:
		n += IDX + 1, cyc += IDX + 1;
		if (next <= IPC) {   /* a backward transfer: is this a loop that only polls? */
			if (next == IPC && o->op != TTX_RV_JALR) {   /* j . (or a branch to itself) */
				c->wait = TTX_WAIT_LOOP, c->wait_addr = next, c->wait_epoch = wake_epoch(t);
				pc = next;
				break;
			}
			if (c->loop_shared_load && !c->loop_stored) {
				if (next == c->loop_pc && memcmp(r, c->loop_x, sizeof(c->loop_x)) == 0) {
					c->wait = TTX_WAIT_LOOP, c->wait_addr = next, c->wait_epoch = wake_epoch(t);
					pc = next;
					break;
				}
				c->loop_pc = next;
				memcpy(c->loop_x, r, sizeof(c->loop_x));
			}
			c->loop_shared_load = c->loop_stored = 0;
		}
		pc = next;
		continue;
	access_stopped:
		if (st == TTX_BLOCKED) {   /* it waits at this instruction */
			int store = o->op == TTX_RV_SB || o->op == TTX_RV_SH || o->op == TTX_RV_SW || o->op == TTX_RV_TTINSN;
			c->wait = (uint8_t)wait_reason(core, a, store);
			c->wait_addr = a;
			c->wait_epoch = wake_epoch(t);
			st = TTX_OK;
		}
		next = IPC;
	stop_before:
		n += IDX, cyc += IDX;
		pc = next;
		break;
	stop_after:
		n += IDX + 1, cyc += IDX + 1;
		pc = next;
		break;
	}
#undef IDX
#undef IPC
#undef NOW
#undef DISPATCH
#undef NEXT
#undef STALL
	free(short_block);
	memcpy(c->x, r, sizeof(c->x));
	c->pc = pc;
	c->cycle = cyc;
	c->insns += n;
	*done = n;
	return st;
}

static void trace_insn(struct ttx_tile *t, unsigned core, uint32_t pc)
{
	uint32_t *g, w;
	memcpy(&w, code_at(t, core, pc, &g), 4);
	t->opt.trace_core(t->opt.trace_core_ctx, core, pc, w);
}


int ttx_rv_all_waiting(const struct ttx_tile *t)
{
	for (unsigned i = 0; i < TTX_CORE_COUNT; i++)
		if ((t->cores_live >> i & 1) && (!t->core[i].wait || t->core[i].wait_epoch != wake_epoch(t)))
			return 0;
	return 1;
}

uint64_t ttx_rv_now(const struct ttx_tile *t)
{
	uint64_t now = t->cycle_floor;
	for (unsigned i = 0; i < TTX_CORE_COUNT; i++)
		if (t->core[i].run == TTX_CORE_RUNNING && !t->core[i].wait && t->core[i].cycle > now)
			now = t->core[i].cycle;
	for (unsigned th = 0; t->timing.on && th < TTX_THREADS; th++)
		if (t->timing.ready[th] > now)
			now = t->timing.ready[th];
	return now;
}

/* The cycle a waiting core goes on at, and the stall's reason: for
   TTSync, when its thread's last instruction completed; for a full FIFO,
   its own (the retried push waits for the entry's cycle, interp/
   riscv_mmio.c); else when the latest agent got to (what released it
   happened by then). */
static uint64_t resume_cycle(const struct ttx_tile *t, unsigned core, const struct ttx_rvcore *c,
                             enum ttx_core_stall *why)
{
	const struct ttx_timing *T = &t->timing;
	unsigned th = core >= TTX_CORE_T0 && core <= TTX_CORE_T2 ? core - TTX_CORE_T0 : 0;
	*why = TTX_CORE_STALL_WAIT;
	if (T->on && c->wait == TTX_WAIT_INSTRN_FIFO && core != TTX_CORE_B) {
		*why = TTX_CORE_STALL_FIFO;
		return c->cycle;
	}
	if (T->on && c->wait == TTX_WAIT_TTSYNC) {
		uint64_t done = 0;
		for (unsigned r = 0; r < TTX_RES_COUNT; r++)
			done = T->done[th][r] > done ? T->done[th][r] : done;
		return done;
	}
	return ttx_rv_now(t);
}

enum ttx_status ttx_rv_run(struct ttx_tile *t, uint64_t budget, uint64_t *executed, int *moved)
{
	*executed = 0;
	*moved = 0;
	t->cores_held = 0;
	const uint64_t limit = t->cores_cycle_limit ? t->cores_cycle_limit : UINT64_MAX;
	for (unsigned core = 0; core < TTX_CORE_COUNT; core++) {
		struct ttx_rvcore *c = &t->core[core];
		if (!(t->cores_live >> core & 1))
			continue;
		if (c->cycle < t->cycle_floor)   /* idle while the chip's clock moved on */
			c->cycle = t->cycle_floor;
		if (c->wait) {
			if (c->wait_epoch == wake_epoch(t))
				continue;   /* nothing it waits on can have changed */
			enum ttx_core_stall why;
			uint64_t now = resume_cycle(t, core, c, &why);
			if (now > c->cycle && t->timing.on && t->opt.core_event) {
				struct ttx_core_event e = { (enum ttx_core)core, 1, (enum ttx_core_wait_reason)c->wait, c->cycle,
				                            now, 0 };
				t->opt.core_event(t->opt.core_event_ctx, &e);
			}
			c->wait = TTX_WAIT_NONE;
			if (now > c->cycle) {
				c->stall[why] += now - c->cycle;
				c->cycle = now;
			}
		}
		if (c->cycle >= limit) {   /* (ttx_run_cycles) it goes on in the next step */
			t->cores_held++;
			continue;
		}
		uint64_t left = QUANTUM;
		if (budget && budget - *executed < left)
			left = budget - *executed;
		if (!left)
			break;
		uint64_t n, start = c->cycle;
		enum ttx_status st = run_core(t, core, left, &n);
		if (n && t->timing.on && t->opt.core_event) {
			struct ttx_core_event e = { (enum ttx_core)core, 0, TTX_WAIT_NONE, start, c->cycle, n };
			t->opt.core_event(t->opt.core_event_ctx, &e);
		}
		*executed += n;
		t->core_insns += n;
		if (n)
			*moved = 1;
		if (st != TTX_OK)
			return st;
	}
	return TTX_OK;
}
