/* A TRISC that pushes Tensix words from L1 (tests/run_vectors.c --riscv):
 * the count at 0x20000, the words from 0x20004, each by a sw to
 * INSTRN_BUF_BASE; then it waits until its thread has run them all
 * (TTSync), writes 0x600D at 0x1FFF8 for a host polling L1 (the libttsim
 * driver test) and halts. */
#include "ttx_rv.h"

int main(void)
{
	const volatile uint32_t *n = (const volatile uint32_t *)0x20000u, *w = n + 1;
	for (uint32_t i = 0; i < *n; i++)
		ttx_push(w[i]);
	ttx_wait_tensix_done();
	*(volatile uint32_t *)0x1FFF8u = 0x600Du;
	return 0;
}
