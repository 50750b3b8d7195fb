/* The NoC part of the kernel API for ttx's emulated RISC-V cores (docs/
 * chip.md "Programming model"): reads, writes, multicasts and atomic
 * increments through the tile's NIU request initiators, with barriers
 * that wait on the NIU's counters, and semaphores in L1.  The project's
 * own code, after the concepts tt-metal users know (noc_async_read,
 * noc_async_write_barrier, noc_semaphore_inc, ...); freestanding.
 *
 * NoC addresses: ttx_noc_addr(x, y, addr) names addr in tile (x, y);
 * ttx_noc_mcast_addr(x0, y0, x1, y1, addr) a rectangle.  Coordinates are
 * the NoC's own (NoC #0's on NoC 0, mirrored on NoC 1) or translated
 * ones (x 16-25, y 16-27), which are the same on both NoCs.
 *
 * Each core keeps its own counts of what it issued (a core's requests use
 * its own request initiator: RISCV B 0, NC 1, T0-T2 2-3 shared, so the
 * TRISCs should leave the NoC to B and NC), and the barriers wait until
 * the NIU has counted as many responses as were asked for. */
#ifndef TTX_NOC_H
#define TTX_NOC_H

#include <stdint.h>

#include "ttx_tile_info.h"

#define TTX_NIU_BASE(noc)      (0xFFB20000u + 0x10000u * (noc))
#define TTX_NOC_CMD_BUF(noc, i) (TTX_NIU_BASE(noc) + 0x400u * (i))
/* request initiator registers (NoC/MemoryMap.md) */
#define TTX_NOC_TARG_ADDR_LO   0x00u
#define TTX_NOC_TARG_ADDR_MID  0x04u
#define TTX_NOC_RET_ADDR_LO    0x0Cu
#define TTX_NOC_RET_ADDR_MID   0x10u
#define TTX_NOC_PACKET_TAG     0x18u
#define TTX_NOC_CTRL           0x1Cu
#define TTX_NOC_AT_LEN_BE      0x20u
#define TTX_NOC_AT_DATA        0x24u
#define TTX_NOC_CMD_CTRL       0x28u
#define TTX_NOC_NODE_ID        0x2Cu
/* NOC_CTRL */
#define TTX_NOC_CMD_RD         0u
#define TTX_NOC_CMD_AT         1u
#define TTX_NOC_CMD_WR         2u
#define TTX_NOC_CMD_WR_BE      (1u << 2)
#define TTX_NOC_CMD_WR_INLINE  (1u << 3)
#define TTX_NOC_CMD_RESP_MARKED (1u << 4)
#define TTX_NOC_CMD_BRCST      (1u << 5)
#define TTX_NOC_CMD_BRCST_XY   (1u << 16)
#define TTX_NOC_CMD_BRCST_SRC_INCLUDE (1u << 17)
/* counters (NoC/Counters.md), at NIU_BASE + 0x200 + 4 i */
#define TTX_NIU_COUNTER(noc, i) (TTX_NIU_BASE(noc) + 0x200u + 4u * (i))
#define TTX_NIU_ATOMIC_RESP_RECEIVED 0u
#define TTX_NIU_WR_ACK_RECEIVED      1u
#define TTX_NIU_RD_RESP_RECEIVED     2u
#define TTX_NIU_POSTED_WR_REQ_SENT   11u
#define TTX_NIU_REQS_OUTSTANDING(id) (16u + (id))
/* atomic opcodes and fields of NOC_AT_LEN_BE (NoC/Atomics.md) */
#define TTX_NOC_AT_INCR        (1u << 12)
#define TTX_NOC_AT_WIDTH(bits) (((bits) - 1u) << 2)

#define TTX_NOC_MAX_PACKET     8192u

static inline uint64_t ttx_noc_addr(unsigned x, unsigned y, uint32_t addr)
{
	return (uint64_t)y << 42 | (uint64_t)x << 36 | addr;
}
static inline uint64_t ttx_noc_mcast_addr(unsigned x0, unsigned y0, unsigned x1, unsigned y1, uint32_t addr)
{
	return (uint64_t)y0 << 54 | (uint64_t)x0 << 48 | (uint64_t)y1 << 42 | (uint64_t)x1 << 36 | addr;
}

/* What a core issued and has yet to see completed, per NoC. */
struct ttx_noc_counts {
	uint32_t reads, acks, atomics;
};
/* (in the core's own data memory: each core has its own) */
static struct ttx_noc_counts ttx_noc_issued[2];

static inline unsigned ttx_noc_buf(void)
{
	/* by the core running this: mhartid is not there, so each kernel
	   picks with TTX_NOC_BUF (default: 0 for RISCV B, 1 for NC) */
#ifdef TTX_NOC_BUF
	return TTX_NOC_BUF;
#else
	return 0;
#endif
}

static inline uint32_t ttx_noc_reg(unsigned noc, uint32_t off)
{
	return *(volatile uint32_t *)(uintptr_t)(TTX_NOC_CMD_BUF(noc, ttx_noc_buf()) + off);
}
static inline void ttx_noc_set(unsigned noc, uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)(TTX_NOC_CMD_BUF(noc, ttx_noc_buf()) + off) = v;
}
static inline uint32_t ttx_noc_counter(unsigned noc, unsigned i)
{
	return *(volatile uint32_t *)(uintptr_t)TTX_NIU_COUNTER(noc, i);
}
/* This tile's coordinates on NoC noc (its own): for NOC_RET_ADDR */
static inline uint32_t ttx_noc_my_xy(unsigned noc)
{
	uint32_t id = *(volatile uint32_t *)(uintptr_t)(TTX_NIU_BASE(noc) + TTX_NOC_NODE_ID);
	return (id & 63) << 4 | (id >> 6 & 63) << 10;   /* as NOC_*_ADDR_MID holds them */
}

/* Start counting from what the NIU has counted so far (a kernel that runs
   after others on the same NIU). */
static inline void ttx_noc_init(unsigned noc)
{
	ttx_noc_issued[noc].reads = ttx_noc_counter(noc, TTX_NIU_RD_RESP_RECEIVED);
	ttx_noc_issued[noc].acks = ttx_noc_counter(noc, TTX_NIU_WR_ACK_RECEIVED);
	ttx_noc_issued[noc].atomics = ttx_noc_counter(noc, TTX_NIU_ATOMIC_RESP_RECEIVED);
}

static inline void ttx_noc_wait_ready(unsigned noc)
{
	while (ttx_noc_reg(noc, TTX_NOC_CMD_CTRL) & 1) {}
}

static inline void ttx_noc_issue(unsigned noc, uint64_t targ, uint64_t ret, uint32_t ctrl, uint32_t len_be,
                                 uint32_t data)
{
	ttx_noc_wait_ready(noc);
	ttx_noc_set(noc, TTX_NOC_TARG_ADDR_LO, (uint32_t)targ);
	ttx_noc_set(noc, TTX_NOC_TARG_ADDR_MID, (uint32_t)(targ >> 32));
	ttx_noc_set(noc, TTX_NOC_RET_ADDR_LO, (uint32_t)ret);
	ttx_noc_set(noc, TTX_NOC_RET_ADDR_MID, (uint32_t)(ret >> 32));
	ttx_noc_set(noc, TTX_NOC_CTRL, ctrl);
	ttx_noc_set(noc, TTX_NOC_AT_LEN_BE, len_be);
	ttx_noc_set(noc, TTX_NOC_AT_DATA, data);
	ttx_noc_set(noc, TTX_NOC_CMD_CTRL, 1);
}

static inline uint32_t ttx_noc_packets(uint32_t len)
{
	return len ? (len + TTX_NOC_MAX_PACKET - 1) / TTX_NOC_MAX_PACKET : 1;
}

/* len bytes at src (any tile) to L1 dst here. */
static inline void ttx_noc_read(unsigned noc, uint64_t src, uint32_t dst, uint32_t len)
{
	ttx_noc_issue(noc, src, (uint64_t)ttx_noc_my_xy(noc) << 32 | dst, TTX_NOC_CMD_RD, len, 0);
	ttx_noc_issued[noc].reads += ttx_noc_packets(len);
}
static inline void ttx_noc_read_barrier(unsigned noc)
{
	while (ttx_noc_counter(noc, TTX_NIU_RD_RESP_RECEIVED) != ttx_noc_issued[noc].reads) {}
}

/* len bytes of L1 src here to dst (any tile), acknowledged. */
static inline void ttx_noc_write(unsigned noc, uint32_t src, uint64_t dst, uint32_t len)
{
	ttx_noc_issue(noc, (uint64_t)ttx_noc_my_xy(noc) << 32 | src, dst, TTX_NOC_CMD_WR | TTX_NOC_CMD_RESP_MARKED,
	              len, 0);
	ttx_noc_issued[noc].acks += ttx_noc_packets(len);
}
/* The same to every Tensix tile of a rectangle (dests of them: the
   acknowledgements to wait for), this one included if it is in it and
   self is set. */
static inline void ttx_noc_write_multicast(unsigned noc, uint32_t src, uint64_t rect, uint32_t len, uint32_t dests,
                                           int self)
{
	ttx_noc_issue(noc, (uint64_t)ttx_noc_my_xy(noc) << 32 | src, rect,
	              TTX_NOC_CMD_WR | TTX_NOC_CMD_RESP_MARKED | TTX_NOC_CMD_BRCST |
	              (self ? TTX_NOC_CMD_BRCST_SRC_INCLUDE : 0), len, 0);
	ttx_noc_issued[noc].acks += ttx_noc_packets(len) * dests;
}
/* A 32-bit value to dst (any tile), posted. */
static inline void ttx_noc_write_word(unsigned noc, uint64_t dst, uint32_t value)
{
	ttx_noc_issue(noc, dst, 0, TTX_NOC_CMD_WR | TTX_NOC_CMD_WR_INLINE, 0xFu << (dst & 0xC), value);
}
static inline void ttx_noc_write_barrier(unsigned noc)
{
	while (ttx_noc_counter(noc, TTX_NIU_WR_ACK_RECEIVED) != ttx_noc_issued[noc].acks) {}
}

/* Add incr to the 32-bit word at dst (any tile's L1), posted. */
static inline void ttx_noc_atomic_inc(unsigned noc, uint64_t dst, uint32_t incr)
{
	ttx_noc_issue(noc, dst, 0, TTX_NOC_CMD_AT, TTX_NOC_AT_INCR | TTX_NOC_AT_WIDTH(32) | ((uint32_t)dst >> 2 & 3),
	              incr);
}
/* The same, with the old value written to L1 ret here; wait with
   ttx_noc_atomic_barrier. */
static inline void ttx_noc_atomic_inc_get(unsigned noc, uint64_t dst, uint32_t incr, uint32_t ret)
{
	ttx_noc_issue(noc, dst, (uint64_t)ttx_noc_my_xy(noc) << 32 | ret, TTX_NOC_CMD_AT | TTX_NOC_CMD_RESP_MARKED,
	              TTX_NOC_AT_INCR | TTX_NOC_AT_WIDTH(32) | ((uint32_t)dst >> 2 & 3), incr);
	ttx_noc_issued[noc].atomics++;
}
static inline void ttx_noc_atomic_barrier(unsigned noc)
{
	while (ttx_noc_counter(noc, TTX_NIU_ATOMIC_RESP_RECEIVED) != ttx_noc_issued[noc].atomics) {}
}

/* Where this tile is in the grid `ttx grid` runs it on, and the NoC #0
   coordinates of the tile at row r, column c. */
static inline const volatile struct ttx_tile_info *ttx_tile_info(void)
{
	return (const volatile struct ttx_tile_info *)(uintptr_t)TTX_TILE_INFO_ADDR;
}
/* (on NoC 1 the coordinates are mirrored: ttx_noc_x/y give them) */
static inline unsigned ttx_noc_x(unsigned noc, unsigned c)
{
	unsigned x = ttx_tile_info()->x[c];
	return noc ? 9 - x : x;
}
static inline unsigned ttx_noc_y(unsigned noc, unsigned r)
{
	unsigned y = ttx_tile_info()->y[r];
	return noc ? 11 - y : y;
}

/* Semaphores: words in L1 that other tiles increment or set. */
static inline void ttx_sem_wait(volatile uint32_t *sem, uint32_t value)
{
	while (*sem != value) {}
}
static inline void ttx_sem_wait_min(volatile uint32_t *sem, uint32_t value)
{
	while (*sem < value) {}
}

#endif
