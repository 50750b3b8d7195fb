/* Scalar Unit (ThCon, TC/ScalarUnit.md): GPR arithmetic, L1/MMIO loads and stores, atomics, REG2FLOP. */
#include "tile.h"
#include "units.h"

int ttx_scalar_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}
