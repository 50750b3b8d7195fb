/* The interpreter's dispatch: one instruction word to the unit that runs it.
 * Units not implemented yet stop the run with a fault naming the instruction
 * (src/tile.c ttx_fault_unimplemented); each unit gets its own file here as it
 * is implemented (interp/sfpu.c, interp/matrix.c, ...). */
#include "tile.h"

int ttx_interp_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	switch (word >> 24) {
	case TTX_OP_NOP:
		/* TC/STALLWAIT.md: NOP does nothing (it is only held back by a
		   STALLWAIT whose block mask has every bit set). */
		return TTX_OK;
	default:
		return ttx_fault_unimplemented(t, thread, word);
	}
}
