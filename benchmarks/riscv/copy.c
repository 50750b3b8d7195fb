/* bench_riscv: copying 64 KiB within L1 word by word, the number of
 * copies from L1 0x16000. */
#include "ttx_rv.h"

int main(void)
{
	uint32_t n = *(volatile uint32_t *)0x16000u;
	volatile uint32_t *src = (volatile uint32_t *)0x20000u, *dst = (volatile uint32_t *)0x40000u;
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t i = 0; i < 16384; i += 4) {
			uint32_t a = src[i], b = src[i + 1], c = src[i + 2], d = src[i + 3];
			dst[i] = a, dst[i + 1] = b, dst[i + 2] = c, dst[i + 3] = d;
		}
	return 0;
}
