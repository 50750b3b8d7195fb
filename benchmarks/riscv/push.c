/* bench_riscv: a TRISC pushing Tensix words in a loop (SFPNOP and
 * SFPIADD, the kind a kernel pushes between its MOPs), the number of
 * iterations from L1 0x16000; then it waits for its thread. */
#include "ttx_rv.h"

int main(void)
{
	uint32_t n = *(volatile uint32_t *)0x16000u;
	for (uint32_t i = 0; i < n; i++) {
		TTI_SFPIADD(1, 1, 1, 5);
		TTI_SFPNOP();
		TTI_SFPIADD(2, 2, 2, 5);
		TTI_SFPNOP();
	}
	ttx_wait_tensix_done();
	return 0;
}
