/* The tile's address space as each RISC-V core sees it (TT/BabyRISCV/README.md
 * "Memory map"): L1, the core's local data RAM, and the memory-mapped
 * devices: Tensix instruction pushes, PCBufs and TTSync, semaphores, GPRs,
 * backend configuration, mailboxes, MOP expander configuration, TDMA-RISC,
 * soft reset, the wall clock and the other debug registers.  docs/riscv.md
 * has the table.
 *
 * ttx_rv_access serves the cores' loads and stores (interp/riscv.c) and the
 * host's ttx_mmio_read/write and ttx_core_read/write: TTX_OK, TTX_BLOCKED
 * when the access must wait (a full FIFO, an empty mailbox, TTSync; the
 * host is refused instead), or a fault naming core, address and width.
 * An access to what a core does not map is a fault, never a silent wrap:
 * the pages say such loads hang and such stores may vanish, which no
 * program means to do.  NoC, overlay and PIC registers (the chip's) go to
 * the host's ttx_options.mmio hook, else fault. */
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "units.h"
#include "riscv.h"

static const char *const core_names[TTX_CORE_COUNT] = { "RISCV B", "RISCV T0", "RISCV T1", "RISCV T2", "RISCV NC" };

static enum ttx_status fail_access(struct ttx_tile *t, unsigned core, uint32_t addr, unsigned size, int store,
                                   const char *why)
{
	const struct ttx_rvcore *c = &t->core[core];
	if (t->access_by_host)
		return ttx_fail(t, TTX_FAULT, "MMIO %s 0x%08X (as %s sees it): %s", store ? "store to" : "load from", addr,
		                core_names[core], why);
	return ttx_fail(t, TTX_FAULT, "%s at pc 0x%08X: %u-byte %s 0x%08X: %s", core_names[core], c->pc, size,
	                store ? "store to" : "load from", addr, why);
}

/* The host's hook for what the tile does not model (ttx_options.mmio):
   thread 0-2 for RISCV T0-T2, 3 for RISCV B, 4 for RISCV NC. */
static enum ttx_status outside(struct ttx_tile *t, unsigned core, uint32_t addr, unsigned size, int store,
                               uint32_t *value, const char *why)
{
	char reason[sizeof(t->error)];
	if (t->opt.mmio) {
		unsigned who = core == TTX_CORE_B ? 3 : core == TTX_CORE_NC ? 4 : core - TTX_CORE_T0;
		uint32_t v = store ? *value : 0;
		t->error[0] = 0;   /* (the hook may give its reason with ttx_fail) */
		if (t->opt.mmio(t->opt.mmio_ctx, who, addr, store, &v) == 0) {
			if (!store)
				*value = v;
			return TTX_OK;
		}
		why = "the host's mmio hook refused it";
		if (t->error[0]) {
			memcpy(reason, t->error, sizeof(reason));
			why = reason;
		}
	}
	return fail_access(t, core, addr, size, store, why);
}

static int is_trisc(unsigned core)
{
	return core >= TTX_CORE_T0 && core <= TTX_CORE_T2;
}

/* ---- soft reset (TT/SoftReset.md) ---- */

uint32_t ttx_rv_reset_pc(const struct ttx_tile *t, unsigned core)
{
	unsigned en = ttx_cfg_get(t, 0, TTX_CFG_TRISC_RESET_PC_OVERRIDE_Reset_PC_Override_en);
	switch (core) {
	case TTX_CORE_B: return 0;
	case TTX_CORE_T0: return en & 1 ? ttx_cfg_get(t, 0, TTX_CFG_TRISC_RESET_PC_SEC0_PC) : 0x6000;
	case TTX_CORE_T1: return en & 2 ? ttx_cfg_get(t, 0, TTX_CFG_TRISC_RESET_PC_SEC1_PC) : 0xA000;
	case TTX_CORE_T2: return en & 4 ? ttx_cfg_get(t, 0, TTX_CFG_TRISC_RESET_PC_SEC2_PC) : 0xE000;
	default:
		return ttx_cfg_get(t, 0, TTX_CFG_NCRISC_RESET_PC_OVERRIDE_Reset_PC_Override_en) ?
		       ttx_cfg_get(t, 0, TTX_CFG_NCRISC_RESET_PC_PC) : 0x12000;
	}
}

static const uint32_t reset_bit[TTX_CORE_COUNT] = { 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 18 };

/* The writable mailboxes of `core` lose their contents when it enters
   reset; a TRISC's MOP expander FIFO is discarded too. */
static void enter_reset(struct ttx_tile *t, unsigned core)
{
	struct ttx_rvcore *c = &t->core[core];
	c->run = TTX_CORE_IN_RESET;
	c->wait = TTX_WAIT_NONE;
	t->cores_live &= (uint8_t)~(1u << core);
	if (core <= TTX_CORE_T2)
		for (unsigned to = 0; to < 4; to++)
			t->mailbox[core][to].n = 0;
	if (is_trisc(core)) {
		struct ttx_pipe *p = &t->pipe[core - TTX_CORE_T0];
		p->head = p->tail;
	}
}

void ttx_rv_release(struct ttx_tile *t, unsigned core, uint32_t pc)
{
	struct ttx_rvcore *c = &t->core[core];
	uint64_t now = ttx_rv_now(t);
	memset(c->x, 0, sizeof(c->x));
	c->pc = pc;
	if (now > c->cycle)   /* it starts when it is released, not at cycle 0 */
		c->cycle = now;
	c->run = TTX_CORE_RUNNING;
	c->wait = TTX_WAIT_NONE;
	c->loop_pc = 0xFFFFFFFFu;
	t->soft_reset &= ~reset_bit[core];
	t->cores_live |= (uint8_t)(1u << core);
	if (is_trisc(core))
		t->pc_buf[core - TTX_CORE_T0].n = 0;   /* its PCBuf's contents are discarded */
	t->core_epoch++;
}

static void write_soft_reset(struct ttx_tile *t, uint32_t v)
{
	uint32_t old = t->soft_reset;
	t->soft_reset = v;
	for (unsigned core = 0; core < TTX_CORE_COUNT; core++) {
		uint32_t b = reset_bit[core];
		if ((v & b) && !(old & b))
			enter_reset(t, core);
		else if (!(v & b) && (old & b))
			ttx_rv_release(t, core, ttx_rv_reset_pc(t, core));
	}
	t->soft_reset = v;
}

/* ---- Tensix instruction pushes (TT/BabyRISCV/PushTensixInstruction.md) ---- */

static enum ttx_status push(struct ttx_tile *t, unsigned core, unsigned thread, uint32_t word, int from_host)
{
	struct ttx_pipe *p = &t->pipe[thread];
	if (core == TTX_CORE_B) {   /* the mux after the MOP expander */
		if ((uint8_t)(p->b_tail - p->b_head) == TTX_FROM_B_FIFO)
			return from_host ? ttx_fail(t, TTX_EINVAL, "the FIFO from RISCV B to thread %u is full", thread)
			                 : TTX_BLOCKED;
		p->from_b[p->b_tail++ % TTX_FROM_B_FIFO] = word;
		return TTX_OK;
	}
	/* Under the cycle model the FIFO holds what the hardware's does, so that
	   a full one stalls the core when it would; otherwise a core may run
	   further ahead (results do not depend on it, and the threads then see
	   long runs of words, which the JIT compiles as blocks). */
	if (!from_host && p->tail - p->head >= (t->timing.on ? TTX_INSTRN_FIFO : TTX_INSTRN_FIFO_AHEAD))
		return TTX_BLOCKED;
	struct ttx_rvcore *c = &t->core[core];
	if (!from_host && t->timing.on && p->tail >= TTX_INSTRN_FIFO) {
		/* the entry is free once the word TTX_INSTRN_FIFO before this one
		   left (if that was long ago, its cycle is no longer kept: free) */
		uint64_t seq = p->tail - TTX_INSTRN_FIFO;
		uint64_t free_at = p->head - seq <= TTX_POP_RING ? t->timing.pop_at[thread][seq % TTX_POP_RING] : 0;
		if (free_at > c->cycle) {
			c->stall[TTX_CORE_STALL_FIFO] += free_at - c->cycle;
			c->cycle = free_at;
		}
	}
	enum ttx_status st = ttx_push(t, thread, word);
	if (st == TTX_OK && !from_host && t->timing.on) {   /* its arrival, for the cycle model */
		if (!p->at && !(p->at = calloc(p->cap, sizeof(*p->at))))
			return ttx_fail(t, TTX_ENOMEM, "out of memory");
		p->at[(p->tail - 1) & (p->cap - 1)] = c->cycle;
	}
	return st;
}

/* ---- TTSync (TT/BabyRISCV/TTSync.md) and PCBufs (PCBufs.md) ---- */

static int pc_buf_override(const struct ttx_tile *t, unsigned i, unsigned bit)
{
	return (t->pc_buf_override >> (10 * i + bit)) & 1;
}

/* Thread i has in-flight instructions: queued, being expanded, waiting. */
static int thread_busy(const struct ttx_tile *t, unsigned i)
{
	const struct ttx_pipe *p = &t->pipe[i];
	return ttx_frontend_busy(t, i) || p->b_head != p->b_tail || t->wait_gate[i].opcode;
}

static int mop_busy(const struct ttx_tile *t, unsigned i)
{
	const struct ttx_pipe *p = &t->pipe[i];
	if (t->fe[i].mop_active)
		return 1;
	for (size_t k = p->head; k != p->tail; k++)
		if (p->words[k & (p->cap - 1)] >> 24 == TTX_OP_MOP)
			return 1;
	return 0;
}

static enum ttx_status pc_buf_trisc(struct ttx_tile *t, unsigned core, uint32_t off, int store, uint32_t *v,
                                    int from_host)
{
	unsigned i = core - TTX_CORE_T0;
	if (off < 4) {   /* the T side of PCBuf[i]: writes discarded, reads pop */
		if (store)
			return TTX_OK;
		if (t->pc_buf[i].n == 0) {
			if (pc_buf_override(t, i, 0)) {
				*v = (t->pc_buf_override >> (10 * i + 2)) & 0xFF;
				return TTX_OK;
			}
			return from_host ? ttx_fail(t, TTX_EINVAL, "PCBuf[%u] is empty (a load would wait)", i)
			                 : TTX_BLOCKED;
		}
		*v = t->pc_buf[i].v[t->pc_buf[i].head];
		t->pc_buf[i].head = (uint8_t)((t->pc_buf[i].head + 1) % 16);
		t->pc_buf[i].n--;
		return TTX_OK;
	}
	if (off == 4 || off == 8) {   /* CoprocessorDoneCheck, MOPExpanderDoneCheck */
		if (store)
			return TTX_OK;
		int busy = off == 4 ? thread_busy(t, i) : mop_busy(t, i);
		if (busy && !(pc_buf_override(t, i, 0) && pc_buf_override(t, i, 1)))
			return from_host ? ttx_fail(t, TTX_EINVAL, "thread %u is busy (a load would wait)", i) : TTX_BLOCKED;
		*v = 0;   /* "undefined": ttx returns 0 */
		return TTX_OK;
	}
	return TTX_EINVAL;   /* not here: the caller goes on */
}

static enum ttx_status pc_buf_b(struct ttx_tile *t, unsigned i, int store, uint32_t *v, int from_host)
{
	if (store) {
		if (t->pc_buf[i].n == 16)
			return from_host ? ttx_fail(t, TTX_EINVAL, "PCBuf[%u] is full", i) : TTX_BLOCKED;
		t->pc_buf[i].v[(t->pc_buf[i].head + t->pc_buf[i].n) % 16] = *v;
		t->pc_buf[i].n++;
		return TTX_OK;
	}
	if (pc_buf_override(t, i, 0) && pc_buf_override(t, i, 1)) {
		*v = 0;
		return TTX_OK;
	}
	/* empty, T_i waiting on its PCBuf read, Tensix T_i idle */
	const struct ttx_rvcore *ti = &t->core[TTX_CORE_T0 + i];
	if (t->pc_buf[i].n == 0 && ti->run == TTX_CORE_RUNNING && ti->wait == TTX_WAIT_PC_BUF &&
	    ti->wait_addr == TTX_MMIO_PC_BUF && !thread_busy(t, i)) {
		*v = 0;
		return TTX_OK;
	}
	return from_host ? ttx_fail(t, TTX_EINVAL, "PCBuf[%u]: a load would wait", i) : TTX_BLOCKED;
}

/* ---- mailboxes (TT/BabyRISCV/Mailboxes.md) ---- */

static enum ttx_status mailbox(struct ttx_tile *t, unsigned core, uint32_t addr, int store, uint32_t *v,
                               int from_host)
{
	unsigned k = (addr - TTX_MMIO_MAILBOX) >> 12;   /* 0-3: B, T0, T1, T2 */
	unsigned me = core;                             /* B = 0, T0-T2 = 1-3: the same numbering */
	if (store) {
		unsigned total = 0;
		for (unsigned to = 0; to < 4; to++)
			total += t->mailbox[me][to].n;
		if (t->mailbox[me][k].n == 4 || total >= 4)
			return from_host ? ttx_fail(t, TTX_EINVAL, "%s's mailboxes are full", core_names[core])
			                 : TTX_BLOCKED;
		t->mailbox[me][k].v[(t->mailbox[me][k].head + t->mailbox[me][k].n) % 4] = *v;
		t->mailbox[me][k].n++;
		return TTX_OK;
	}
	if (addr & 4) {   /* a query: anything to read? */
		*v = t->mailbox[k][me].n != 0;
		return TTX_OK;
	}
	if (t->mailbox[k][me].n == 0)
		return from_host ? ttx_fail(t, TTX_EINVAL, "the mailbox from %s to %s is empty (a load would wait)",
		                            core_names[k], core_names[core]) : TTX_BLOCKED;
	*v = t->mailbox[k][me].v[t->mailbox[k][me].head];
	t->mailbox[k][me].head = (uint8_t)((t->mailbox[k][me].head + 1) % 4);
	t->mailbox[k][me].n--;
	return TTX_OK;
}

/* ---- the debug registers (TT/TileControlDebugStatus.md and the pages it links) ---- */

static uint32_t instrn_buf_status(const struct ttx_tile *t)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < TTX_THREADS; i++) {
		const struct ttx_pipe *p = &t->pipe[i];
		if (p->tail - p->head < TTX_INSTRN_FIFO)
			s |= 1u << i;        /* not full */
		if (p->tail == p->head)
			s |= 1u << (4 + i);  /* empty */
	}
	return s;
}

static enum ttx_status debug_reg(struct ttx_tile *t, unsigned core, uint32_t addr, int store, uint32_t *v)
{
	uint32_t off = addr - TTX_MMIO_DEBUG;
	switch (off) {
	case TTX_DBG_SOFT_RESET_0:
		if (store)
			write_soft_reset(t, *v);
		else
			*v = t->soft_reset;
		return TTX_OK;
	case TTX_DBG_WALL_CLOCK_L:
	case TTX_DBG_WALL_CLOCK_L + 4:
	case TTX_DBG_WALL_CLOCK_H: {
		uint64_t now = t->core[core].cycle;
		if (off == TTX_DBG_WALL_CLOCK_L)
			t->wall_clock_hi_at = (uint32_t)(now >> 32);
		if (!store)
			*v = off == TTX_DBG_WALL_CLOCK_L ? (uint32_t)now : off == TTX_DBG_WALL_CLOCK_H ? t->wall_clock_hi_at
			                                                                             : (uint32_t)(now >> 32);
		return TTX_OK;
	}
	case TTX_DBG_PC_BUF_OVERRIDE:
		if (store)
			t->pc_buf_override = *v & 0x3FFFFFFFu;
		else
			*v = t->pc_buf_override;
		return TTX_OK;
	case TTX_DBG_INSTRN_BUF_STATUS:
		if (!store)
			*v = instrn_buf_status(t);
		return TTX_OK;
	case TTX_DBG_INSTRN_BUF_CTRL1:
		if (store)
			t->instrn_buf_ctrl[1] = *v;
		else
			*v = t->instrn_buf_ctrl[1];
		return TTX_OK;
	case TTX_DBG_INSTRN_BUF_CTRL0:
		if (!store) {
			*v = t->instrn_buf_ctrl[0];
			return TTX_OK;
		}
		/* bits 4-6 rising while bits 0-2 hold the FIFO: push CTRL1 */
		for (unsigned i = 0; i < TTX_THREADS; i++)
			if ((*v >> i & 1) && (*v >> (4 + i) & 1) && !(t->instrn_buf_ctrl[0] >> (4 + i) & 1))
				ttx_push(t, i, t->instrn_buf_ctrl[1]);
		t->instrn_buf_ctrl[0] = *v & 0x77;
		return TTX_OK;
	case TTX_DBG_CFGREG_RD_CNTL:   /* (TC/BackendConfiguration.md "Debug registers") */
		if (store) {
			unsigned x = *v & 0x7FF;
			t->cfgreg_rd_data = x < 2 * TTX_CFG_WORDS ? t->config[x / TTX_CFG_WORDS][x % TTX_CFG_WORDS] : 0;
		} else {
			*v = 0;
		}
		return TTX_OK;
	case TTX_DBG_CFGREG_RDDATA:
		if (!store)
			*v = t->cfgreg_rd_data;
		return TTX_OK;
	/* The debug array read port (RISCV_DEBUG_REG_DBG_ARRAY_RD_EN, _CMD,
	   _DATA): the pages list its registers and no protocol, so this one is
	   ttx's (docs/riscv.md "The debug array read port"): CMD holds a row
	   (bits 0-11), a 32-bit word of it (12-15) and an array (16-18: 0 SrcA,
	   1 SrcB, 2 Dst); DATA reads that word while EN is 1.  Dst rows are
	   DstBits' 1024 raw rows, word k columns 2k (low half) and 2k + 1;
	   SrcA/SrcB rows are bank * 64 + row, word k column k. */
	case 0x060: case 0x064:
		if (store)
			*(off == 0x060 ? &t->dbg_array_rd_en : &t->dbg_array_rd_cmd) = *v;
		else
			*v = off == 0x060 ? t->dbg_array_rd_en : t->dbg_array_rd_cmd;
		return TTX_OK;
	case 0x06C: {
		if (store)
			return TTX_OK;
		uint32_t cmd = t->dbg_array_rd_cmd, row = cmd & 0xFFF, word = cmd >> 12 & 15, array = cmd >> 16 & 7;
		*v = 0;
		if (!(t->dbg_array_rd_en & 1))
			return TTX_OK;
		if (array == 2 && row < TTX_DST_ROWS16 && word < TTX_COLS / 2)
			*v = t->dst[row][2 * word] | (uint32_t)t->dst[row][2 * word + 1] << 16;
		else if (array < 2 && row < 128)
			*v = (array ? t->srcb : t->srca)[row >> 6].rows[row & 63][word];
		return TTX_OK;
	}
	}
	/* the rest of the region (performance counters, the daisychain, the
	   timestamper's buffers, ...): plain storage, reads as 0 until written */
	if (off < sizeof(t->debug_regs)) {
		if (store)
			t->debug_regs[off / 4] = *v;
		else
			*v = t->debug_regs[off / 4];
		return TTX_OK;
	}
	return fail_access(t, core, addr, 4, store, "no register there in the tile control / debug region");
}

/* ---- the dispatcher ---- */

/* A 32-bit register access in the MMIO windows (addr aligned). */
static enum ttx_status register_access(struct ttx_tile *t, unsigned core, uint32_t addr, int store, uint32_t *v,
                                       int from_host)
{
	unsigned th = core - TTX_CORE_T0;   /* for T0-T2 */
	int trisc = is_trisc(core), b = core == TTX_CORE_B, nc = core == TTX_CORE_NC;
	if (addr >= TTX_MMIO_TDMA && addr < TTX_MMIO_TDMA + 0x1000)
		return store ? ttx_tdma_mmio_write(t, trisc ? th : 0, addr, *v)
		             : ttx_tdma_mmio_read(t, trisc ? th : 0, addr, v);
	if (addr >= TTX_MMIO_DEBUG && addr < TTX_MMIO_DEBUG + 0x1000)
		return debug_reg(t, core, addr, store, v);
	if (addr >= TTX_MMIO_PIC && addr < TTX_MMIO_PIC + 0x1000)
		return outside(t, core, addr, 4, store, v, "the PIC registers are not modelled");
	if (addr >= TTX_MMIO_NOC0 && addr < 0xFFB80000u)
		return outside(t, core, addr, 4, store, v, "NoC and overlay registers belong to the chip (ttx_options.mmio)");
	if (addr >= TTX_MMIO_MOP_CFG && addr < TTX_MMIO_MOP_CFG + 9 * 4 && trisc) {
		if (!store)
			return fail_access(t, core, addr, 4, 0, "the MOP expander configuration is write-only (TC/MOPExpander.md)");
		t->mop[th].cfg[(addr - TTX_MMIO_MOP_CFG) / 4] = *v;
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_NC_IRAM && addr < TTX_MMIO_NC_IRAM + 0x10000 && nc) {
		if (store)
			return TTX_OK;   /* "stores to the region are silently discarded" */
		return fail_access(t, core, addr, 4, 0, "the Load/Store Unit cannot read the instruction RAM (the load "
		                   "would never return, TT/BabyRISCV/InstructionRAM.md)");
	}
	if (nc)
		return fail_access(t, core, addr, 4, store, "not mapped for RISCV NC");
	if (addr >= TTX_MMIO_GPR && addr < TTX_MMIO_GPR + 0x1000) {
		/* B sees the three threads' GPRs at 0x100 apart, T_i its own */
		unsigned thread = b ? (addr >> 8 & 0xF) : th, i = (addr >> 2) & 63;
		if (thread >= TTX_THREADS || (!b && addr >= TTX_MMIO_GPR + TTX_GPRS * 4))
			return fail_access(t, core, addr, 4, store, "no GPR there");
		if (store)
			t->gpr[thread][i] = *v;
		else
			*v = t->gpr[thread][i];
		return TTX_OK;
	}
	if ((addr >> 16) == (TTX_MMIO_INSTRN_BUF >> 16) || ((addr >> 16) == (TTX_MMIO_INSTRN1_BUF >> 16) && b) ||
	    ((addr >> 16) == (TTX_MMIO_INSTRN2_BUF >> 16) && b)) {
		if (!store)
			return fail_access(t, core, addr, 4, 0, "the instruction buffer takes stores only");
		return push(t, core, b ? ((addr >> 16) & 0xF) - 4 : th, *v, from_host);
	}
	if ((addr >> 16) == (TTX_MMIO_INSTRN1_BUF >> 16) || (addr >> 16) == (TTX_MMIO_INSTRN2_BUF >> 16))
		return fail_access(t, core, addr, 4, store, "INSTRN1/2_BUF are RISCV B's (a TRISC's store there hangs "
		                   "it, TT/BabyRISCV/PushTensixInstruction.md)");
	if (b && (addr >> 16) >= (TTX_MMIO_PC_BUF >> 16) && (addr >> 16) <= (TTX_MMIO_PC2_BUF >> 16))
		return pc_buf_b(t, ((addr >> 16) & 0xF) - 8, store, v, from_host);
	if (trisc && (addr >> 16) == (TTX_MMIO_PC_BUF >> 16)) {
		uint32_t off = addr - TTX_MMIO_PC_BUF;
		if (off < 0x20) {
			enum ttx_status st = pc_buf_trisc(t, core, off, store, v, from_host);
			if (st != TTX_EINVAL || off <= 8)
				return st;
			return fail_access(t, core, addr, 4, store, "no TTSync register there");
		}
		unsigned i = (off - 0x20) / 4;
		if (i >= 8)
			return fail_access(t, core, addr, 4, store, "there are 8 semaphores (0xFFE80020-0xFFE8003F)");
		if (!store) {
			*v = t->semaphores[i].value;
		} else if (*v & 1) {   /* TC/SyncUnit.md: odd = SEMGET, even = SEMPOST, saturating */
			if (t->semaphores[i].value > 0)
				t->semaphores[i].value--;
		} else if (t->semaphores[i].value < 15) {
			t->semaphores[i].value++;
		}
		if (store && !from_host && t->timing.on)   /* a SEMWAIT it releases goes on from the core's cycle */
			t->timing.sem_stamp[i] = t->core[core].cycle;
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_MAILBOX && addr < TTX_MMIO_MAILBOX + 0x4000)
		return mailbox(t, core, addr, store, v, from_host);
	if (addr >= TTX_MMIO_CFG && addr < TTX_MMIO_CFG + 0x10000) {
		uint32_t w = (addr - TTX_MMIO_CFG) / 4, th_base = 2 * TTX_CFG_WORDS;
		if (w < th_base) {
			if (store) {
				ttx_cfg_write(t, w / TTX_CFG_WORDS, w % TTX_CFG_WORDS, *v);
				ttx_cfg_write_effects(t, w / TTX_CFG_WORDS, w % TTX_CFG_WORDS, 0);
			} else {
				*v = t->config[w / TTX_CFG_WORDS][w % TTX_CFG_WORDS];
			}
			return TTX_OK;
		}
		uint32_t e = (addr - TTX_MMIO_CFG - th_base * 4) / 16;
		if (e < TTX_THREADS * TTX_THREAD_CFG_WORDS) {
			if (store)
				return fail_access(t, core, addr, 4, 1, "ThreadConfig cannot be written by RISC-V stores; push "
				                   "SETC16 instead");
			*v = (addr - TTX_MMIO_CFG - th_base * 4) % 16 == 0 ?
			     t->thread_config[e / TTX_THREAD_CFG_WORDS][e % TTX_THREAD_CFG_WORDS] : 0;
			return TTX_OK;
		}
		return fail_access(t, core, addr, 4, store, "past the backend configuration");
	}
	return outside(t, core, addr, 4, store, v, "not mapped for this core");
}

enum ttx_status ttx_rv_access(struct ttx_tile *t, unsigned core, uint32_t addr, unsigned size, int store,
                              uint32_t *value, int from_host)
{
	struct ttx_rvcore *c = &t->core[core];
	t->access_by_host = (uint8_t)from_host;
	addr &= ~(size - 1);   /* "unaligned accesses are silently rounded down" */
	if (addr < TTX_L1_SIZE) {
		uint8_t *p = t->l1 + addr;
		if (store) {
			memcpy(p, value, size);   /* little-endian host */
			ttx_l1_touched(t, addr, size);
		} else {
			*value = 0;
			memcpy(value, p, size);
		}
		return TTX_OK;
	}
	if (addr - TTX_MMIO_LOCAL < c->local_size) {
		uint8_t *p = c->local + (addr - TTX_MMIO_LOCAL);
		if (store) {
			memcpy(p, value, size);
		} else {
			*value = 0;
			memcpy(value, p, size);
		}
		return TTX_OK;
	}
	if (addr >= TTX_L1_SIZE && addr < 0x01000000u)
		return fail_access(t, core, addr, size, store, "past the end of L1 (0x16DFFF)");
	if (addr - TTX_MMIO_LOCAL < 0x1000)
		return fail_access(t, core, addr, size, store, "past the core's local data RAM");
	/* the registers: a narrower access reads or writes its bytes of the
	   aligned word (stores: a read-modify-write where the register reads back) */
	uint32_t word = addr & ~3u, v = 0;
	unsigned shift = 8 * (addr & 3);
	enum ttx_status st;
	if (store && size < 4) {
		uint32_t mask = (size == 1 ? 0xFFu : 0xFFFFu) << shift;
		v = *value << shift;
		uint32_t old = 0;
		/* the plain-storage registers keep their other bytes */
		if ((word >= TTX_MMIO_DEBUG && word < TTX_MMIO_DEBUG + 0x1000) || (word >= TTX_MMIO_CFG && word < TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4) ||
		    (word >= TTX_MMIO_GPR && word < TTX_MMIO_GPR + 0x1000))
			if (register_access(t, core, word, 0, &old, 1) == TTX_OK)
				v = (old & ~mask) | (v & mask);
	} else if (store) {
		v = *value;
	}
	st = register_access(t, core, word, store, &v, from_host);
	if (st == TTX_OK && !store)
		*value = size == 4 ? v : (v >> shift) & (size == 1 ? 0xFFu : 0xFFFFu);
	if (st == TTX_OK && store)
		t->core_epoch++;   /* whoever waits on a register may go on */
	return st;
}
