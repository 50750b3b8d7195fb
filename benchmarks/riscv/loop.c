/* bench_riscv: a tight integer loop (shifts, xors, adds, a branch), its
 * count from L1 0x16000, its result to 0x16004. */
#include "ttx_rv.h"

int main(void)
{
	uint32_t n = *(volatile uint32_t *)0x16000u, acc = 1;
	for (uint32_t i = 0; i < n; i++)
		acc = (acc << 1 ^ acc >> 3) + i;
	*(volatile uint32_t *)0x16004u = acc;
	return 0;
}
