/* LLK-style firmware on RISCV B (tests/test_riscv_elf.sh): the TRISCs'
 * start PCs set through the reset-PC override registers and the three
 * released through soft reset, as tt-metal's firmware does; runtime
 * arguments in L1 (0x16100: the three start PCs); the TRISCs report
 * through L1 mailboxes, which B gathers into 0x16000 = 0x600D. */
#include "ttx_rv.h"

int main(void)
{
	const volatile uint32_t *args = (const volatile uint32_t *)0x16100u;
	volatile uint32_t *done = (volatile uint32_t *)0x16200u;
	for (unsigned i = 0; i < 3; i++)
		ttx_trisc_start(i, args[i]);
	while (done[0] != 1 || done[1] != 1 || done[2] != 1) {}
	ttx_done(0x16000u, 0x600D);
}
