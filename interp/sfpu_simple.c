/* Vector Unit (SFPU) simple sub-unit (TC/VectorUnit.md "Sub-units"): integer
 * and bit-field instructions, predication, SFPMOV, SFPSWAP, SFPTRANSP, SFPCAST. */
#include "sfpu.h"

int ttx_sfpu_SFPDIVP2(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPEXEXP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPEXMAN(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPIADD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSHFT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSETCC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPMOV(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPABS(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPAND(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPOR(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPNOT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPLZ(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSETEXP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSETMAN(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPPUSHC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPPOPC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSETSGN(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPENCC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPCOMPC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPTRANSP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPXOR(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPCAST(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sfpu_SFPSWAP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}
