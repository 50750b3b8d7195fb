/* The data-movement kernel of the grid operations (app/gridops.c,
 * docs/ops.md "Grid operations"), on RISCV B (NoC #0) or RISCV NC (NoC
 * #1): pages of interleaved DRAM buffers to L1 or back, then optionally a
 * multicast of what arrived to the other tiles of a row or column with a
 * semaphore increment for each, or a wait for such a multicast.  Its
 * arguments are at TTX_DM_ARGS (ttx_grid.h). */
#include "ttx_rv.h"
#include "ttx_noc.h"
#include "ttx_grid.h"

#ifndef DM_CORE
#error "DM_CORE: 0 for RISCV B, 1 for RISCV NC"
#endif

int main(void)
{
	volatile struct ttx_dm_args *a = (volatile struct ttx_dm_args *)(uintptr_t)TTX_DM_ARGS(DM_CORE);
	if (a->magic != TTX_DM_MAGIC)
		for (;;)
			__asm__ volatile("ebreak");
	unsigned noc = a->noc;
	ttx_noc_init(noc);
	for (uint32_t r = 0; r < a->nruns; r++) {
		volatile struct ttx_dm_run *run = &a->runs[r];
		uint32_t base = a->bufs[run->buf].base, page = a->bufs[run->buf].page_bytes;
		uint32_t l1 = run->l1, p = run->first;
		for (uint32_t i = 0; i < run->count; i++, l1 += run->l1_stride, p += run->page_stride) {
			uint32_t bank = p % TTX_DRAM_BANKS, xy = a->bank_xy[bank];
			uint64_t dram = ttx_noc_addr(xy & 0xFF, xy >> 8, base + (p / TTX_DRAM_BANKS) * page);
			if (a->write)
				ttx_noc_write(noc, l1, dram, page);
			else
				ttx_noc_read(noc, dram, l1, page);
		}
	}
	if (a->write)
		ttx_noc_write_barrier(noc);
	else
		ttx_noc_read_barrier(noc);
	if (a->mc_len) {
		uint32_t rect = a->mc_rect;
		unsigned x0 = rect & 0xFF, y0 = rect >> 8 & 0xFF, x1 = rect >> 16 & 0xFF, y1 = rect >> 24;
		ttx_noc_write_multicast(noc, a->mc_addr, ttx_noc_mcast_addr(x0, y0, x1, y1, a->mc_addr), a->mc_len,
		                        a->mc_dests, 0);
		ttx_noc_write_barrier(noc);
		/* (the data is there: the semaphores say so) */
		ttx_noc_issue(noc, ttx_noc_mcast_addr(x0, y0, x1, y1, a->mc_sem), 0, TTX_NOC_CMD_AT | TTX_NOC_CMD_BRCST,
		              TTX_NOC_AT_INCR | TTX_NOC_AT_WIDTH(32), 1);
	}
	if (a->wait_sem)
		ttx_sem_wait_min((volatile uint32_t *)(uintptr_t)a->wait_sem, a->wait_value);
	a->done = 1;
	return 0;
}
