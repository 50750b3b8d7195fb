/* LLK-style TRISC0 ("unpack", tests/test_riscv_elf.sh): fills Dst rows
 * 0-3 with 1.0 through the SFPU (SFPLOADI, SFPSTORE: .ttinsn words mixed
 * into the code), hands them to TRISC1 with semaphore 0, reports done. */
#include "ttx_rv.h"

int main(void)
{
	TTI_SEMINIT(1, 0, 0x1);                 /* semaphore 0: max 1, value 0 */
	TTI_SFPLOADI(0, 0, 0x3F80);             /* L0 = 1.0 (BF16 immediate) */
	TTI_SFPSTORE(0, 3, 0, 0);               /* Dst rows 0-3 = L0 (FP32) */
	TTI_SEMPOST(0x1);
	ttx_wait_tensix_done();
	((volatile uint32_t *)0x16200u)[0] = 1;
	return 0;
}
