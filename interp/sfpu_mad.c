/* Vector Unit (SFPU) MAD sub-unit (TC/VectorUnit.md "Sub-units"):
 * SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT, SFPLUTFP32. */
#include "sfpu.h"

int ttx_sfpu_SFPMAD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPADD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPMUL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPMULI(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPADDI(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPLUT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPLUTFP32(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}
