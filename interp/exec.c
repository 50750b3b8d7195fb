/* The interpreter's dispatch: one instruction word to the unit that runs it.
 * A unit that is not implemented yet stops the run with a fault naming the
 * instruction (src/tile.c ttx_fault_unimplemented). */
#include "tile.h"
#include "sfpu.h"
#include "units.h"

int ttx_interp_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	const struct ttx_insn_info *insn = ttx_isa_insn(word >> 24);
	if (t->sfpu.nsched) {
		int discard, r = ttx_sfpu_macro_cycle(t, word, &discard);
		if (r != TTX_OK || discard)
			return r;
	}
	if (!insn->mnemonic)
		return ttx_fault_unimplemented(t, thread, word);
	if (t->wait_gate[0].opcode | t->wait_gate[1].opcode | t->wait_gate[2].opcode) {
		int gate = ttx_sync_gate(t, thread, word);
		if (gate != TTX_OK)
			return gate;
	}
	switch (insn->unit) {
	case TTX_UNIT_SCALAR:
		return ttx_scalar_exec(t, thread, word);
	case TTX_UNIT_SYNC:
		return ttx_sync_exec(t, thread, word);
	case TTX_UNIT_CONFIG:
		return ttx_config_exec(t, thread, word);
	case TTX_UNIT_SFPU:
		return ttx_sfpu_exec(t, thread, word);
	case TTX_UNIT_FRONTEND:
		/* Only an expander's output can bring MOP, MOP_CFG or REPLAY here
		   (a MOP template or replay buffer holding one): undefined. */
		return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u was emitted by the MOP or replay "
		                "expander and reached the backend (undefined behaviour, TC/REPLAY.md)",
		                insn->mnemonic, word, thread);
	case TTX_UNIT_MISC:
		/* TC/STALLWAIT.md: NOP does nothing (it is only held back by a
		   STALLWAIT whose block mask has every bit set). */
		if (word >> 24 == TTX_OP_NOP)
			return TTX_OK;
		return ttx_fault_unimplemented(t, thread, word);
	default:
		return ttx_fault_unimplemented(t, thread, word);
	}
}

int ttx_interp_idle(struct ttx_tile *t, int *ran)
{
	return ttx_sfpu_macro_drain(t, ran);
}
