/* Vector Unit (SFPU) round sub-unit (TC/VectorUnit.md "Sub-units"):
 * SFPSTOCHRND and SFPSHFT2. */
#include "sfpu.h"

int ttx_sfpu_SFPSTOCHRND(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSHFT2(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}
