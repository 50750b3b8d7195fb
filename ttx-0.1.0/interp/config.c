/* Configuration Unit (TC/ConfigurationUnit.md): SETC16, WRCFG, RDCFG,
 * RMWCIB0-3, and the immediate effects of Config writes
 * (TC/BackendConfiguration.md "Special cases").
 *
 * Choices where the pages are silent:
 * - Out-of-range indices are undefined behaviour on the pages; ttx faults
 *   with a message naming the instruction, the index and the bound.
 * - Writes with side effects (ttx_cfg_write_effects, shared by WRCFG, RMWCIB
 *   and RISC-V stores through ttx_mmio_write):
 *   - STATE_RESET_EN (word 4): any write except by RMWCIB zeroes words 0-151
 *     of the written bank, the written word included.  A 128-bit WRCFG to
 *     words 4-7 stores all four words first, then the reset clears them.
 *   - PRNG_SEED_Seed_Val (word 164): the page says the value "(re-)seeds
 *     all the PRNGs" without the rule; ttx sets the PRNG state of every SFPU
 *     lane to the 32-bit value written.  RMWCIB seeds too (only STATE_RESET_EN
 *     excepts it), with the whole word after the byte update; an RMWCIB is a
 *     write even when its mask is 0.
 *   - RISCV_IC_INVALIDATE: ttx models no RISC-V instruction caches: no effect.
 *   Host writes through ttx_cfg_write / ttx_cfg_field_write set the storage
 *   only (a debugger's view).
 * - SETC16 effects: the clock-gater words (CG_CTRL_*) have no architectural
 *   effect in ttx; UNPACK_MISC_CFG_CfgContextCntReset_0/1 reset unpacker
 *   context counters that ttx does not model yet (see thread_cfg_effects).
 * - RDCFG bug: see interp/sync.c (RDCFGs of one scheduler round). */
#include "tile.h"
#include "units.h"

#define CFG_WORDS TTX_CFG_WORDS            /* CFG_STATE_SIZE * 4 */

void ttx_cfg_write_effects(struct ttx_tile *t, unsigned bank, unsigned word, int by_rmwcib)
{
	if (word == ttx_cfg_fields[TTX_CFG_STATE_RESET_EN].word && !by_rmwcib) {
		for (unsigned j = 0; j < TTX_CFG_GLOBAL_BASE; j++)
			t->config[bank & 1][j] = 0;
	}
	if (word == ttx_cfg_fields[TTX_CFG_PRNG_SEED_Seed_Val].word) {
		uint32_t seed = ttx_cfg_get(t, bank, TTX_CFG_PRNG_SEED_Seed_Val);
		for (unsigned lane = 0; lane < TTX_LANES; lane++)
			t->sfpu.prng[lane] = seed;
	}
}

/* Immediate effects of SETC16 (TC/BackendConfiguration.md): none that ttx
   models.  The clock gaters (CG_CTRL_EN_Regblocks, CG_CTRL_EN_Hyst,
   CG_CTRL_KICK_Regblocks) only change power; the unpacker configuration
   context counters reset by UNPACK_MISC_CFG_CfgContextCntReset_0/1 are not
   part of struct ttx_tile yet -- the unpacker model should reset them here. */
static void thread_cfg_effects(struct ttx_tile *t, unsigned thread, unsigned index)
{
	(void)t, (void)thread, (void)index;
}

static int bad_index(struct ttx_tile *t, unsigned thread, uint32_t word, const char *what,
                     unsigned index, unsigned bound, const char *page)
{
	return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u: %s %u is not below %u "
	                "(undefined behaviour, %s)", ttx_isa_insn(word >> 24)->mnemonic, word,
	                thread, what, index, bound, page);
}

/* TC/SETC16.md */
static int exec_setc16(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETC16 a = ttx_decode_SETC16(word);
	if (a.CfgIndex >= TTX_THREAD_CFG_WORDS)
		return bad_index(t, thread, word, "CfgIndex", a.CfgIndex, TTX_THREAD_CFG_WORDS, "TC/SETC16.md");
	t->thread_config[thread][a.CfgIndex] = (uint16_t)a.NewValue;
	thread_cfg_effects(t, thread, a.CfgIndex);
	return TTX_OK;
}

/* TC/WRCFG.md: 32 bits from GPRs[InputReg], or 128 bits from the aligned
   GPRs[InputReg & ~3 ..] to Config[StateID][CfgIndex & ~3 ..]. */
static int exec_wrcfg(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_WRCFG a = ttx_decode_WRCFG(word);
	if (a.CfgIndex >= CFG_WORDS)
		return bad_index(t, thread, word, "CfgIndex", a.CfgIndex, CFG_WORDS, "TC/WRCFG.md");
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned n = a.Is128Bit ? 4 : 1;
	unsigned cfg = a.Is128Bit ? a.CfgIndex & ~3u : a.CfgIndex;
	unsigned gpr = a.Is128Bit ? a.InputReg & ~3u : a.InputReg;
	for (unsigned k = 0; k < n; k++)
		ttx_cfg_write(t, bank, cfg + k, t->gpr[thread][gpr + k]);
	for (unsigned k = 0; k < n; k++)
		ttx_cfg_write_effects(t, bank, cfg + k, 0);
	return TTX_OK;
}

/* TC/RDCFG.md, with the multi-thread hardware bug: RDCFGs of several threads
   at the same time are dropped but one.  In ttx "the same time" is one
   round of the scheduler (src/run.c): the first RDCFG of a round executes,
   those of other threads later in that round retire without writing. */
static int exec_rdcfg(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_RDCFG a = ttx_decode_RDCFG(word);
	if (a.CfgIndex >= CFG_WORDS)
		return bad_index(t, thread, word, "CfgIndex", a.CfgIndex, CFG_WORDS, "TC/RDCFG.md");
	if (t->rdcfg_round == t->round && t->rdcfg_thread != thread)
		return TTX_OK;
	t->gpr[thread][a.ResultReg] = t->config[ttx_cfg_bank(t, thread)][a.CfgIndex];
	t->rdcfg_round = t->round;
	t->rdcfg_thread = (uint8_t)thread;
	return TTX_OK;
}

/* TC/RMWCIB.md: byte Index1 (the opcode's digit) of Config[StateID][Index4]
   becomes (NewValue & Mask) | (old & ~Mask). */
static int exec_rmwcib(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_RMWCIB a = ttx_decode_RMWCIB(word);
	unsigned index1 = (word >> 24) - TTX_OP_RMWCIB0;
	if (a.Index4 >= CFG_WORDS)
		return bad_index(t, thread, word, "Index4", a.Index4, CFG_WORDS, "TC/RMWCIB.md");
	unsigned bank = ttx_cfg_bank(t, thread);
	uint32_t mask = a.Mask << (8 * index1);
	uint32_t old = t->config[bank][a.Index4];
	uint32_t value = ((a.NewValue << (8 * index1)) & mask) | (old & ~mask);
	ttx_cfg_write(t, bank, a.Index4, value);
	ttx_cfg_write_effects(t, bank, a.Index4, 1);
	return TTX_OK;
}

int ttx_config_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	switch (word >> 24) {
	case TTX_OP_SETC16:  return exec_setc16(t, thread, word);
	case TTX_OP_WRCFG:   return exec_wrcfg(t, thread, word);
	case TTX_OP_RDCFG:   return exec_rdcfg(t, thread, word);
	case TTX_OP_RMWCIB0:
	case TTX_OP_RMWCIB1:
	case TTX_OP_RMWCIB2:
	case TTX_OP_RMWCIB3: return exec_rmwcib(t, thread, word);
	default:             return ttx_fault_undocumented(t, thread, word);
	}
}
