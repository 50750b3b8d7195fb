/* A token around the grid (tests/test_grid_cli.sh, ttx grid): tile 0
 * increments the next tile's semaphore, each tile waits for its own, notes
 * the wall clock and passes the token on, so the last tile's increment
 * comes back to tile 0.  With MODE 1 every tile waits for a semaphore no
 * one increments: a deadlock across the grid. */
#include "ttx_rv.h"
#include "ttx_noc.h"

#define SEM  0x18000u
#define OUT  0x18100u   /* the wall clock when the token came, this tile's index */
#define MODE 0x18200u

static void pass_on(const volatile struct ttx_tile_info *ti, unsigned next)
{
	unsigned r = next / ti->cols, c = next % ti->cols;
	ttx_noc_atomic_inc(0, ttx_noc_addr(ti->x[c], ti->y[r], SEM), 1);
}

int main(void)
{
	const volatile struct ttx_tile_info *ti = ttx_tile_info();
	volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)OUT;
	if (ti->magic != TTX_TILE_INFO_MAGIC)
		return 1;
	unsigned n = ti->rows * ti->cols, me = ti->row * ti->cols + ti->col, next = (me + 1) % n;
	ttx_noc_init(0);
	if (*(volatile uint32_t *)(uintptr_t)MODE == 1) {
		ttx_sem_wait_min((volatile uint32_t *)(uintptr_t)SEM, 1);
		return 0;
	}
	if (me == 0 && n > 1)
		pass_on(ti, next);
	if (n > 1)
		ttx_sem_wait_min((volatile uint32_t *)(uintptr_t)SEM, 1);
	out[0] = (uint32_t)ttx_wall_clock();
	out[1] = me;
	if (me != 0)
		pass_on(ti, next);
	return 0;
}
