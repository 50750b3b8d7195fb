/* NoC requests from a core (tests/test_noc.c drives it; kernels/riscv/
 * ttx_noc.h): what to do comes in L1 at ARGS, the wall clock before and
 * after it and the counters go to RESULTS. */
#include "ttx_rv.h"
#include "ttx_noc.h"

#define ARGS    0x20000u
#define RESULTS 0x20100u
#define DATA    0x21000u   /* what is sent */
#define INTO    0x23000u   /* what arrives */
#define SEM     0x25000u   /* a semaphore */

enum { DO_WRITE = 1, DO_READ, DO_INC, DO_WAIT, DO_MCAST, DO_WORD, DO_BAD_TYPE, DO_BAD_SRC, DO_MCAST_INC };

struct args {
	uint32_t what, noc, x, y, len, n, x1, y1, dests, self;
};

int main(void)
{
	volatile struct args *a = (volatile struct args *)(uintptr_t)ARGS;
	volatile uint32_t *res = (volatile uint32_t *)(uintptr_t)RESULTS;
	unsigned noc = a->noc;
	uint32_t start = (uint32_t)ttx_wall_clock();
	switch (a->what) {
	case DO_WRITE:
		ttx_noc_write(noc, DATA, ttx_noc_addr(a->x, a->y, INTO), a->len);
		res[1] = (uint32_t)ttx_wall_clock();   /* issued */
		ttx_noc_write_barrier(noc);
		break;
	case DO_READ:
		ttx_noc_read(noc, ttx_noc_addr(a->x, a->y, DATA), INTO, a->len);
		res[1] = (uint32_t)ttx_wall_clock();   /* issued */
		ttx_noc_read_barrier(noc);
		break;
	case DO_INC:   /* n posted increments, then one that returns the old value */
		for (uint32_t i = 0; i < a->n; i++)
			ttx_noc_atomic_inc(noc, ttx_noc_addr(a->x, a->y, SEM), 1);
		ttx_noc_atomic_inc_get(noc, ttx_noc_addr(a->x, a->y, SEM), 100, RESULTS + 16);
		ttx_noc_atomic_barrier(noc);
		break;
	case DO_WAIT:   /* until the semaphore holds at least n */
		ttx_sem_wait_min((volatile uint32_t *)(uintptr_t)SEM, a->n);
		break;
	case DO_MCAST:
		ttx_noc_write_multicast(noc, DATA, ttx_noc_mcast_addr(a->x, a->y, a->x1, a->y1, INTO), a->len, a->dests,
		                        a->self);
		ttx_noc_write_barrier(noc);
		break;
	case DO_WORD:
		ttx_noc_write_word(noc, ttx_noc_addr(a->x, a->y, INTO + 4), 0xC0FFEE);
		break;
	case DO_BAD_TYPE:   /* request type 3 is reserved */
		ttx_noc_issue(noc, 0, 0, 3, 4, 0);
		break;
	case DO_BAD_SRC:    /* a write's data must be in this tile's L1 */
		ttx_noc_issue(noc, (uint64_t)ttx_noc_my_xy(noc) << 32 | 0x200000u, ttx_noc_addr(a->x, a->y, INTO),
		              TTX_NOC_CMD_WR, 4, 0);
		break;
	case DO_MCAST_INC:  /* every tile of a rectangle's semaphore + 1 */
		ttx_noc_issue(noc, ttx_noc_mcast_addr(a->x, a->y, a->x1, a->y1, SEM), 0, TTX_NOC_CMD_AT | TTX_NOC_CMD_BRCST,
		              TTX_NOC_AT_INCR | TTX_NOC_AT_WIDTH(32), 1);
		break;
	}
	uint32_t end = (uint32_t)ttx_wall_clock();
	res[0] = start;
	res[2] = end;
	res[3] = ttx_noc_counter(noc, TTX_NIU_REQS_OUTSTANDING(0));
	ttx_done(RESULTS + 0x20, 0xD0E);
}
