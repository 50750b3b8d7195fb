/* The per-thread Wait Gate of the front end (TC/STALLWAIT.md, TC/SEMWAIT.md):
 * which instructions a latched wait holds back, and when the wait is
 * forgotten.  STALLWAIT and SEMWAIT latch a wait (interp/sync.c); every
 * instruction passes through ttx_wait_gate_check before its unit runs it.
 *
 * The Wait Gate of each thread holds at most one latched wait instruction
 * (struct ttx_wait_gate): {Opcode, ConditionMask, BlockMask, SemaphoreMask}.
 * ttx_wait_gate_check() returns TTX_BLOCKED while the thread's latched wait
 * blocks the instruction (block_bits[] below) and its conditions are not all
 * met.
 *
 * How ttx maps the hardware's cycle-by-cycle behaviour onto its scheduler
 * (src/run.c: one instruction per thread per turn, T0, T1, T2):
 *
 * - Conditions are re-evaluated "continuously" (TC/STALLWAIT.md): at every
 *   call of the gate, by any thread, the latched waits of all three threads
 *   are evaluated and those whose conditions are all met are forgotten.  So a
 *   wait can be forgotten while its thread only issues instructions it does
 *   not block, or issues nothing at all.
 * - Busy conditions.  ttx executes every unit synchronously: an instruction
 *   has finished when the next one of any thread starts.  STALLWAIT C0
 *   (ThCon memory requests), C1-C2 (unpackers), C3-C6 (packers), C7 (FPU),
 *   C12 (mover), C13 (RISC-V stores: ttx_mmio_write takes effect at once) and
 *   C14 (SFPU) are therefore always met.  The default condition mask 0x7F
 *   (C0-C6) is always met.  C8-C11 (Src bank ownership, TC/SrcASrcB.md) and
 *   the SEMWAIT semaphore conditions are real cross-thread conditions.
 * - The one-cycle lag between the conditions being met and the block being
 *   removed: the instruction after a STALLWAIT or SEMWAIT reaches the gate on
 *   the thread's next turn, after every other thread has had a turn, so it is
 *   always held for at least one cycle as the page requires.  When it arrives
 *   and the conditions are met, it passes on that same turn; ttx does not
 *   block it for one more turn (that would make a lone thread a deadlock). */
#include <string.h>

#include "tile.h"

#define B(n) (1u << (n))

/* The exact set of instructions each block bit holds back, from the table
   "The exact set of instructions blocked from starting by each bit" of
   TC/STALLWAIT.md, transcribed row by row (alphabetical, as on the page).
   MOP, MOP_CFG and REPLAY never reach the Wait Gate; NOP is special (blocked
   only when all nine bits are set, see blocks(): no single bit here).  Opcodes missing from the
   table (TRNSPSRCA, RAREB, SETASHRM*, SETPKEDGOF, SETIBRWC, TBUFCMD) are
   undocumented and fault when executed; no bit holds them back. */
static const uint16_t block_bits[256] = {
	[TTX_OP_ADDDMAREG] = B(0) | B(5),
	[TTX_OP_ADDRCRXY] = B(0),
	[TTX_OP_ADDRCRZW] = B(0),
	[TTX_OP_APOOL3S1] = B(6),
	[TTX_OP_APOOL3S2] = B(6),
	[TTX_OP_ATCAS] = B(0) | B(5),
	[TTX_OP_ATGETM] = B(1),
	[TTX_OP_ATINCGET] = B(0) | B(5),
	[TTX_OP_ATINCGETPTR] = B(0) | B(5),
	[TTX_OP_ATRELM] = B(1),
	[TTX_OP_ATSWAP] = B(0) | B(5),
	[TTX_OP_BITWOPDMAREG] = B(0) | B(5),
	[TTX_OP_CLEARDVALID] = B(6),
	[TTX_OP_CLREXPHIST] = B(6),
	[TTX_OP_CMPDMAREG] = B(0) | B(5),
	[TTX_OP_CONV3S1] = B(6),
	[TTX_OP_CONV3S2] = B(6),
	[TTX_OP_DMANOP] = B(0) | B(5),
	[TTX_OP_DOTPV] = B(6),
	[TTX_OP_ELWADD] = B(6),
	[TTX_OP_ELWMUL] = B(6),
	[TTX_OP_ELWSUB] = B(6),
	[TTX_OP_FLUSHDMA] = B(0) | B(5),
	[TTX_OP_GAPOOL] = B(6),
	[TTX_OP_GATESRCRST] = B(6),
	[TTX_OP_GMPOOL] = B(6),
	[TTX_OP_INCADCXY] = B(0),
	[TTX_OP_INCADCZW] = B(0),
	[TTX_OP_INCRWC] = B(6),
	[TTX_OP_LOADIND] = B(0) | B(5),
	[TTX_OP_LOADREG] = B(0) | B(5),
	[TTX_OP_MFCONV3S1] = B(6),
	[TTX_OP_MOVA2D] = B(6),
	[TTX_OP_MOVB2A] = B(6),
	[TTX_OP_MOVB2D] = B(6),
	[TTX_OP_MOVD2A] = B(6),
	[TTX_OP_MOVD2B] = B(6),
	[TTX_OP_MOVDBGA2D] = B(6),
	[TTX_OP_MPOOL3S1] = B(6),
	[TTX_OP_MPOOL3S2] = B(6),
	[TTX_OP_MULDMAREG] = B(0) | B(5),
	[TTX_OP_MVMUL] = B(6),
	[TTX_OP_PACR] = B(0) | B(2),
	[TTX_OP_PACR_SETREG] = B(0) | B(2),
	[TTX_OP_RDCFG] = B(7),
	[TTX_OP_REG2FLOP] = B(0) | B(5),
	[TTX_OP_RMWCIB0] = B(7),
	[TTX_OP_RMWCIB1] = B(7),
	[TTX_OP_RMWCIB2] = B(7),
	[TTX_OP_RMWCIB3] = B(7),
	[TTX_OP_RSTDMA] = B(0),
	[TTX_OP_SEMGET] = B(1),
	[TTX_OP_SEMINIT] = B(1),
	[TTX_OP_SEMPOST] = B(1),
	[TTX_OP_SEMWAIT] = B(1),
	[TTX_OP_SETADC] = B(0),
	[TTX_OP_SETADCXX] = B(0),
	[TTX_OP_SETADCXY] = B(0),
	[TTX_OP_SETADCZW] = B(0),
	[TTX_OP_SETC16] = B(7),
	[TTX_OP_SETDMAREG] = B(0) | B(5),
	[TTX_OP_SETDVALID] = B(0),
	[TTX_OP_SETRWC] = B(6),
	[TTX_OP_SFPABS] = B(8),
	[TTX_OP_SFPADD] = B(8),
	[TTX_OP_SFPADDI] = B(8),
	[TTX_OP_SFPAND] = B(8),
	[TTX_OP_SFPCAST] = B(8),
	[TTX_OP_SFPCOMPC] = B(8),
	[TTX_OP_SFPCONFIG] = B(8),
	[TTX_OP_SFPDIVP2] = B(8),
	[TTX_OP_SFPENCC] = B(8),
	[TTX_OP_SFPEXEXP] = B(8),
	[TTX_OP_SFPEXMAN] = B(8),
	[TTX_OP_SFPIADD] = B(8),
	[TTX_OP_SFPLOAD] = B(8),
	[TTX_OP_SFPLOADI] = B(8),
	[TTX_OP_SFPLOADMACRO] = B(8),
	[TTX_OP_SFPLUT] = B(8),
	[TTX_OP_SFPLUTFP32] = B(8),
	[TTX_OP_SFPLZ] = B(8),
	[TTX_OP_SFPMAD] = B(8),
	[TTX_OP_SFPMOV] = B(8),
	[TTX_OP_SFPMUL] = B(8),
	[TTX_OP_SFPMULI] = B(8),
	[TTX_OP_SFPNOP] = B(8),
	[TTX_OP_SFPNOT] = B(8),
	[TTX_OP_SFPOR] = B(8),
	[TTX_OP_SFPPOPC] = B(8),
	[TTX_OP_SFPPUSHC] = B(8),
	[TTX_OP_SFPSETCC] = B(8),
	[TTX_OP_SFPSETEXP] = B(8),
	[TTX_OP_SFPSETMAN] = B(8),
	[TTX_OP_SFPSETSGN] = B(8),
	[TTX_OP_SFPSHFT] = B(8),
	[TTX_OP_SFPSHFT2] = B(8),
	[TTX_OP_SFPSTOCHRND] = B(8),
	[TTX_OP_SFPSTORE] = B(8),
	[TTX_OP_SFPSWAP] = B(8),
	[TTX_OP_SFPTRANSP] = B(8),
	[TTX_OP_SFPXOR] = B(8),
	[TTX_OP_SHIFTDMAREG] = B(0) | B(5),
	[TTX_OP_SHIFTXA] = B(6),
	[TTX_OP_SHIFTXB] = B(6),
	[TTX_OP_STALLWAIT] = 0x1FF,
	[TTX_OP_STOREIND] = B(0) | B(5),
	[TTX_OP_STOREREG] = B(0) | B(5),
	[TTX_OP_SUBDMAREG] = B(0) | B(5),
	[TTX_OP_TRNSPSRCB] = B(6),
	[TTX_OP_UNPACR] = B(0) | B(3),
	[TTX_OP_UNPACR_NOP] = B(0) | B(3),
	[TTX_OP_WRCFG] = B(7),
	[TTX_OP_XMOV] = B(0) | B(4),
	[TTX_OP_ZEROACC] = B(6),
	[TTX_OP_ZEROSRC] = B(6),
};

#undef B

/* Does a latched block mask hold back an instruction with this opcode?
   With all nine bits set "all instructions will be blocked", NOP included. */
int ttx_wait_gate_blocks(unsigned block_mask, unsigned opcode)
{
	if (block_mask == 0x1FF)
		return 1;
	return (block_bits[opcode] & block_mask) != 0;
}

/* STALLWAIT conditions C8-C11 (TC/STALLWAIT.md): "keep on waiting if" the
   named Src bank is not owned by the named client.  Every other condition is
   already met in ttx (see the top of this file). */
static int stallwait_met(const struct ttx_tile *t, unsigned cond)
{
	if ((cond & (1u << 8)) && t->srca[t->unpacker_src_bank[0] & 1].allowed_client != TTX_SRC_UNPACKERS)
		return 0;
	if ((cond & (1u << 9)) && t->srcb[t->unpacker_src_bank[1] & 1].allowed_client != TTX_SRC_UNPACKERS)
		return 0;
	if ((cond & (1u << 10)) && t->srca[t->matrix_srca_bank & 1].allowed_client != TTX_SRC_MATRIX_UNIT)
		return 0;
	if ((cond & (1u << 11)) && t->srcb[t->matrix_srcb_bank & 1].allowed_client != TTX_SRC_MATRIX_UNIT)
		return 0;
	return 1;
}

/* SEMWAIT conditions (TC/SEMWAIT.md): C0 keeps waiting while any selected
   semaphore has Value == 0, C1 while any has Value >= Max. */
static int semwait_met(const struct ttx_tile *t, unsigned cond, unsigned sem_mask)
{
	for (unsigned i = 0; i < 8; i++) {
		if (!(sem_mask & (1u << i)))
			continue;
		if ((cond & 1) && t->semaphores[i].value == 0)
			return 0;
		if ((cond & 2) && t->semaphores[i].value >= t->semaphores[i].max)
			return 0;
	}
	return 1;
}

static int conditions_met(const struct ttx_tile *t, const struct ttx_wait_gate *g)
{
	if (g->opcode == TTX_OP_SEMWAIT)
		return semwait_met(t, g->condition_mask, g->semaphore_mask);
	return stallwait_met(t, g->condition_mask);
}

int ttx_wait_gate_holds(const struct ttx_tile *t, unsigned th)
{
	const struct ttx_wait_gate *g = &t->wait_gate[th];
	return g->opcode && !conditions_met(t, g);
}

int ttx_wait_gate_check(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	/* The common case: no thread has a latched wait. */
	if (!(t->wait_gate[0].opcode | t->wait_gate[1].opcode | t->wait_gate[2].opcode))
		return TTX_OK;
	for (unsigned th = 0; th < TTX_THREADS; th++) {
		struct ttx_wait_gate *g = &t->wait_gate[th];
		if (g->opcode && conditions_met(t, g)) {
			if (t->timing.on)
				ttx_timing_gate_release(t, th, g);
			memset(g, 0, sizeof(*g));
		}
	}
	const struct ttx_wait_gate *g = &t->wait_gate[thread];
	if (g->opcode && ttx_wait_gate_blocks(g->block_mask, word >> 24))
		return TTX_BLOCKED;
	return TTX_OK;
}
