/* What the host (app/gridops.c) and the data-movement kernel
 * (kernels/riscv/grid_dm.c) of the grid operations share (docs/ops.md
 * "Grid operations", docs/chip.md "Programming model"): where things are
 * in a tile's L1 and the kernel's arguments.
 *
 * L1 of a grid tile:
 *   0x0000-0x2FFF  RISCV B's data-movement kernel (its reset PC is 0)
 *   0x3000-0x4FFF  RISCV NC's (started at 0x3000 by the reset-PC override)
 *   0x5000         the compute kernels' arguments (ttx_kargs.h)
 *   0x5100         B's data-movement arguments, 0x5800 NC's
 *   0x5F00         semaphores: in0 arrived, in1 arrived (16 bytes apart)
 *   0x6000-        the TRISCs' code (trisc0.ld ...), then the data */
#ifndef TTX_GRID_H
#define TTX_GRID_H

#include <stdint.h>

#define TTX_DM_B_CODE      0x0000u
#define TTX_DM_NC_CODE     0x3000u
#define TTX_DM_ARGS(core)  ((core) ? 0x5800u : 0x5100u)   /* 0: RISCV B, 1: NC */
#define TTX_DM_SEM(i)      (0x5F00u + 16u * (i))
#define TTX_DM_MAGIC       0x54544D44u                     /* "TTMD" */
#define TTX_DM_RUNS        64
#define TTX_DM_BUFS        4
#define TTX_DRAM_BANKS     6

/* count pages of buffer buf, first, first + page_stride, ..., to or from
   L1 at l1, l1 + l1_stride, ... */
struct ttx_dm_run {
	uint32_t l1, l1_stride, buf, first, count, page_stride;
};

/* An interleaved buffer: page p in DRAM bank p % 6 at base + (p / 6) page_bytes. */
struct ttx_dm_buf {
	uint32_t base, page_bytes;
};

struct ttx_dm_args {
	uint32_t magic;
	uint32_t write;                    /* 0: DRAM to L1; 1: L1 to DRAM */
	uint32_t noc;                      /* the NoC this core uses (B 0, NC 1) */
	uint32_t nruns;
	uint32_t bank_xy[TTX_DRAM_BANKS];  /* each bank's endpoint, x | y << 8, in this NoC's coordinates */
	struct ttx_dm_buf bufs[TTX_DM_BUFS];
	/* then: [mc_addr, mc_addr + mc_len) to the Tensix tiles of the
	   rectangle mc_rect (x0 | y0 << 8 | x1 << 16 | y1 << 24, this NoC's
	   coordinates; mc_dests of them), and the semaphore mc_sem of each + 1 */
	uint32_t mc_len, mc_addr, mc_rect, mc_dests, mc_sem;
	/* then: wait until the semaphore wait_sem holds at least wait_value */
	uint32_t wait_sem, wait_value;
	uint32_t done;                     /* the kernel sets it to 1 as it ends */
	struct ttx_dm_run runs[TTX_DM_RUNS];
};

#endif
