/* LLK-style TRISC1 ("math"): waits for semaphore 0 (polling it from the
 * core), then doubles Dst rows 0-3 (x + x by SFPMAD with 1.0), posts
 * semaphore 1 for TRISC2, reports done. */
#include "ttx_rv.h"

int main(void)
{
	ttx_sem_wait_nonzero(0);
	TTI_SEMGET(0x1);
	TTI_SEMINIT(1, 0, 0x2);
	TTI_SFPLOAD(0, 3, 0, 0);
	TTI_SFPMAD(0, 10, 0, 1, 0);             /* L1 = L0 * 1.0 + L0 */
	TTI_SFPNOP();
	TTI_SFPSTORE(1, 3, 0, 0);
	TTI_SEMPOST(0x2);
	ttx_wait_tensix_done();
	((volatile uint32_t *)0x16200u)[1] = 1;
	return 0;
}
