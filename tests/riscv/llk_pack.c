/* LLK-style TRISC2 ("pack"): waits for semaphore 1, copies Dst rows 0-3 to
 * rows 64-67 through the SFPU (the host reads them with --dst-out), waits
 * for its thread (TTSync) and reports done. */
#include "ttx_rv.h"

int main(void)
{
	ttx_sem_wait_nonzero(1);
	TTI_SEMGET(0x2);
	TTI_SFPLOAD(2, 3, 0, 0);                /* L2 = Dst rows 0-3 */
	TTI_SFPSTORE(2, 3, 0, 64);              /* to rows 64-67 */
	ttx_wait_tensix_done();
	((volatile uint32_t *)0x16200u)[2] = 1;
	return 0;
}
