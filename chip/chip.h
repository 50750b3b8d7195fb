/* A Wormhole B0 chip (docs/chip.md): the NoC grid of tiles, each Tensix
 * tile a ttx_tile with its five RISC-V cores, DRAM as memory, the PCI
 * Express tile's configuration space and TLB windows, the ARC tile's reset
 * unit, and per tile the NIU and overlay registers (storage until the NoC
 * moves data, docs/chip.md "Not yet").  Floor 4: it uses tiles as the
 * floors below make them. */
#ifndef TTX_CHIP_H
#define TTX_CHIP_H

#include <pthread.h>
#include <sys/types.h>

#include "tile.h"
#include "noc.h"

#define CHIP_X TTX_CHIP_COLS
#define CHIP_Y TTX_CHIP_ROWS
#define DRAM_CHANNELS 6
#define DRAM_CHANNEL_BYTES (2ull << 30)     /* two 1 GiB GDDR6 channels behind each group of three tiles */
#define DRAM_PAGE_BITS 16                   /* allocated on first write; unwritten DRAM reads as 0 */
#define NIU_REG_BYTES 0x1000                /* the registers of an NIU (NoC/MemoryMap.md) */
#define OVERLAY_BYTES 0x40000               /* 0xFFB40000-0xFFB7FFFF (NoC/Overlay/) */
#define TLB_COUNT 186                       /* PCIExpressTile/TLBs.md */
#define ARC_CSM_BYTES (512u << 10)

/* One NoC endpoint. */
struct chip_tile {
	struct ttx_chip *chip;
	enum ttx_tile_kind kind;
	uint8_t x, y;                      /* NoC #0 coordinates */
	uint8_t index, group;              /* NOC_ENDPOINT_ID's tile and group index */
	struct ttx_tile *tile;             /* TTX_TILE_TENSIX */
	uint32_t *niu[2];                  /* NIU #0 / #1 registers (allocated with the chip) */
	uint8_t *overlay;                  /* Tensix and Ethernet: allocated on first access */
	uint8_t *l1;                       /* Ethernet: its L1, as storage (allocated on first access) */
	struct noc_queue outbox;           /* Tensix: messages its NIUs sent this quantum (noc.c) */
	struct noc_queue inbox;            /* Tensix: messages to take effect here, a heap on (cycle, seq) */
	uint64_t out_seq;
	uint64_t work_seen, last_work;     /* instructions retired so far, in the last quantum (clock.c) */
	uint8_t active;                    /* in the chip's active list (clock.c) */
	uint8_t exposed;                   /* handed out by ttx_chip_tile: the host may queue work directly */
};

struct chip_pool;

struct ttx_chip {
	struct chip_tile grid[CHIP_X][CHIP_Y];
	uint16_t harvested_rows;
	uint8_t translate_x[32], translate_y[32];   /* translated coordinate -> NoC #0 (0xFF: none) */
	uint8_t **dram[DRAM_CHANNELS];              /* pages */
	/* the PCI Express tile */
	uint64_t tlb[TLB_COUNT];
	uint64_t tlb_written[(TLB_COUNT + 63) / 64];   /* configured since power-on */
	uint32_t pci_command, bar0_lo, bar0_hi;     /* configuration space */
	void (*dma_read)(void *ctx, uint64_t addr, void *buf, size_t len);
	void (*dma_write)(void *ctx, uint64_t addr, const void *buf, size_t len);
	void *dma_ctx;
	/* the ARC tile */
	uint8_t *arc_csm;
	uint32_t arc_reset_unit[0x10000 / 4];
	/* the NoC (noc.c) */
	struct noc_state noc;
	struct noc_queue far;                       /* messages for DRAM and other endpoints, a heap */
	struct noc_queue chip_out;                  /* their responses */
	/* time */
	uint64_t cycle;                             /* device cycles ttx_chip_clock has run */
	struct chip_tile *active[CHIP_X * CHIP_Y];  /* Tensix tiles that may have work (clock.c) */
	unsigned nactive;
	unsigned threads;
	struct chip_pool *pool;
	pid_t pool_pid;                             /* (a forked child makes its own) */
	struct ttx_options tile_opt;
	char error[4096];                           /* (a deadlock report names every waiting core) */
};

/* The endpoint at NoC #0 (x, y) or translated (x, y) (both >= 16), NULL
   for no tile there. */
struct chip_tile *chip_at(struct ttx_chip *c, unsigned x, unsigned y);
/* A tile's NoC address space (chip.c): read or write len bytes at addr. */
enum ttx_status chip_tile_access(struct ttx_chip *c, struct chip_tile *ct, uint64_t addr, void *buf, size_t len,
                                 int store);
/* An access on the ARC tile's XBAR (chip.c). */
enum ttx_status chip_arc_access(struct ttx_chip *c, uint32_t addr, uint8_t *buf, size_t len, int store);
enum ttx_status chip_fail(struct ttx_chip *c, enum ttx_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A Tensix tile may have work from now on: ttx_chip_clock looks at it
   (clock.c); an idle core or thread of it takes up work at this cycle. */
void chip_activate(struct ttx_chip *c, struct chip_tile *ct);
/* Step the active Tensix tiles to device cycle `target` (clock.c). */
enum ttx_status chip_step(struct ttx_chip *c, uint64_t target);
void chip_pool_free(struct ttx_chip *c);
/* A 32-bit access to a Tensix tile's registers from the NoC or the host
   (chip.c); cycle: when (a request initiator's NOC_CMD_CTRL issues then). */
enum ttx_status chip_tensix_reg(struct ttx_chip *c, struct chip_tile *ct, uint32_t addr, uint32_t *v, int store,
                                uint64_t cycle);

/* noc.c */
enum ttx_status chip_noc_issue(struct chip_tile *ct, unsigned noc, unsigned initiator, uint64_t cycle);
enum ttx_status chip_noc_route(struct ttx_chip *c, uint64_t boundary);
enum ttx_status chip_noc_advance(struct ttx_chip *c, struct chip_tile *ct, uint64_t end);
int chip_noc_busy(const struct ttx_chip *c);
void chip_noc_free(struct ttx_chip *c);
/* The cycle a host write through the PCI Express tile's TLB lands at NoC
   #0 (x, y) (no contention). */
uint64_t chip_noc_host_arrival(struct ttx_chip *c, unsigned noc, int multicast, unsigned x0, unsigned y0,
                               unsigned x1, unsigned y1, unsigned x, unsigned y, size_t len);

#endif
