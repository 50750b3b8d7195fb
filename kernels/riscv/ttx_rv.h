/* The kernel API for ttx's emulated RISC-V cores (docs/riscv.md "Kernels in
 * C"): the tile's address map, pushing Tensix instructions, semaphores,
 * TTSync, mailboxes, PCBufs, soft reset and the wall clock, and circular
 * buffers in L1 shared by the three TRISCs.  The project's own code, after
 * the concepts tt-metal and tt-llk users know; freestanding, for
 * riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32. */
#ifndef TTX_RV_H
#define TTX_RV_H

#include <stdint.h>

#include "tensix_ops.h"

/* ---- the address map (TT/BabyRISCV/README.md) ---- */
#define TTX_L1_SIZE            0x16E000u
#define TTX_LOCAL_BASE         0xFFB00000u
#define TTX_TDMA_BASE          0xFFB11000u
#define TTX_DEBUG_BASE         0xFFB12000u
#define TTX_MOP_CFG_BASE       0xFFB80000u
#define TTX_NC_IRAM_BASE       0xFFC00000u
#define TTX_GPR_BASE           0xFFE00000u
#define TTX_INSTRN_BUF_BASE    0xFFE40000u
#define TTX_INSTRN1_BUF_BASE   0xFFE50000u
#define TTX_INSTRN2_BUF_BASE   0xFFE60000u
#define TTX_PC_BUF_BASE        0xFFE80000u
#define TTX_PC1_BUF_BASE       0xFFE90000u
#define TTX_PC2_BUF_BASE       0xFFEA0000u
#define TTX_SEMAPHORE_BASE     0xFFE80020u
#define TTX_MAILBOX_BASE(i)    (0xFFEC0000u + 0x1000u * (i))   /* 0 B, 1 T0, 2 T1, 3 T2 */
#define TTX_CFG_BASE           0xFFEF0000u
#define TTX_SOFT_RESET_0       (TTX_DEBUG_BASE + 0x1B0u)
#define TTX_WALL_CLOCK_L       (TTX_DEBUG_BASE + 0x1F0u)
#define TTX_WALL_CLOCK_H       (TTX_DEBUG_BASE + 0x1F8u)
#define TTX_PC_BUF_OVERRIDE    (TTX_DEBUG_BASE + 0x090u)
#define TTX_SOFT_RESET_B       (1u << 11)
#define TTX_SOFT_RESET_T(i)    (1u << (12 + (i)))
#define TTX_SOFT_RESET_NC      (1u << 18)
/* Config words (src/cfg_regs.def): the TRISC and NCRISC reset-PC overrides */
#define TTX_CFG_TRISC_RESET_PC(i)        (158u + (i))
#define TTX_CFG_TRISC_RESET_PC_OVERRIDE  161u
#define TTX_CFG_NCRISC_RESET_PC          162u
#define TTX_CFG_NCRISC_RESET_PC_OVERRIDE 163u

#define TTX_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

static inline void ttx_write(uint32_t addr, uint32_t v) { TTX_REG(addr) = v; }
static inline uint32_t ttx_read(uint32_t addr) { return TTX_REG(addr); }

/* ---- pushing Tensix instructions (PushTensixInstruction.md) ---- */

/* A compile-time word as one .ttinsn instruction (the word rotated left by
   two: the cores' custom extension). */
#define TTX_TTINSN(w) __asm__ volatile(".word %0" : : "i"((((uint32_t)(w)) << 2) | (((uint32_t)(w)) >> 30)) : "memory")
/* A word computed at run time: a store to INSTRN_BUF_BASE (T_i: thread i;
   RISCV B: thread 0, after the MOP expander). */
static inline void ttx_push(uint32_t w) { TTX_REG(TTX_INSTRN_BUF_BASE) = w; }
/* RISCV B only: to thread 0, 1 or 2 (after the MOP expander). */
static inline void ttx_push_thread(unsigned thread, uint32_t w)
{
	TTX_REG(TTX_INSTRN_BUF_BASE + 0x10000u * thread) = w;
}
/* MOP expander configuration of this TRISC's thread (MOPExpander.md). */
static inline void ttx_mop_cfg(unsigned i, uint32_t v) { TTX_REG(TTX_MOP_CFG_BASE + 4 * i) = v; }

/* ---- TTSync (TTSync.md) ---- */

/* Wait until the Tensix thread of this TRISC has no instruction in flight. */
static inline void ttx_wait_tensix_done(void)
{
	uint32_t v;
	TTX_REG(TTX_PC_BUF_BASE + 4) = 0;   /* orders the earlier pushes before the load */
	v = TTX_REG(TTX_PC_BUF_BASE + 4);
	__asm__ volatile("andi %0, %0, 0" : "+r"(v));   /* wait for the result */
}
/* Wait until this TRISC's MOP expander has expanded everything queued. */
static inline void ttx_wait_mop_done(void)
{
	uint32_t v;
	TTX_REG(TTX_PC_BUF_BASE + 8) = 0;
	v = TTX_REG(TTX_PC_BUF_BASE + 8);
	__asm__ volatile("andi %0, %0, 0" : "+r"(v));
}

/* ---- semaphores (TC/SyncUnit.md; T0-T2) ---- */
static inline uint32_t ttx_sem_read(unsigned i) { return TTX_REG(TTX_SEMAPHORE_BASE + 4 * i); }
static inline void ttx_sem_post(unsigned i) { TTX_REG(TTX_SEMAPHORE_BASE + 4 * i) = 0; }
static inline void ttx_sem_get(unsigned i) { TTX_REG(TTX_SEMAPHORE_BASE + 4 * i) = 1; }
static inline void ttx_sem_wait_nonzero(unsigned i) { while (ttx_sem_read(i) == 0) {} }

/* ---- Tensix GPRs (TC/ScalarUnit.md) ---- */
/* T_i: its own thread's GPR r; RISCV B: thread t's at 0x100 * t. */
static inline void ttx_gpr_write(unsigned r, uint32_t v) { TTX_REG(TTX_GPR_BASE + 4 * r) = v; }
static inline uint32_t ttx_gpr_read(unsigned r) { return TTX_REG(TTX_GPR_BASE + 4 * r); }

/* ---- backend configuration (TC/BackendConfiguration.md) ---- */
static inline void ttx_cfg_write(unsigned word, uint32_t v) { TTX_REG(TTX_CFG_BASE + 4 * word) = v; }
static inline uint32_t ttx_cfg_read(unsigned word) { return TTX_REG(TTX_CFG_BASE + 4 * word); }

/* ---- mailboxes (Mailboxes.md; B, T0-T2: core ids 0-3) ---- */
static inline void ttx_mailbox_send(unsigned to, uint32_t v) { TTX_REG(TTX_MAILBOX_BASE(to)) = v; }
static inline uint32_t ttx_mailbox_recv(unsigned from) { return TTX_REG(TTX_MAILBOX_BASE(from)); }
static inline int ttx_mailbox_ready(unsigned from) { return TTX_REG(TTX_MAILBOX_BASE(from) + 4) != 0; }

/* ---- PCBufs (PCBufs.md) ---- */
/* RISCV B: push v to TRISC i; T_i: pop what B pushed (waits). */
static inline void ttx_pcbuf_push(unsigned i, uint32_t v) { TTX_REG(TTX_PC_BUF_BASE + 0x10000u * i) = v; }
static inline uint32_t ttx_pcbuf_pop(void) { return TTX_REG(TTX_PC_BUF_BASE); }

/* ---- soft reset (TT/SoftReset.md) and the wall clock (DebugTimestamper.md) ---- */
/* RISCV B: start TRISC i at pc (the reset-PC override), or all three. */
static inline void ttx_trisc_start(unsigned i, uint32_t pc)
{
	ttx_cfg_write(TTX_CFG_TRISC_RESET_PC(i), pc);
	ttx_cfg_write(TTX_CFG_TRISC_RESET_PC_OVERRIDE, ttx_cfg_read(TTX_CFG_TRISC_RESET_PC_OVERRIDE) | 1u << i);
	TTX_REG(TTX_SOFT_RESET_0) = TTX_REG(TTX_SOFT_RESET_0) & ~TTX_SOFT_RESET_T(i);
}
static inline void ttx_ncrisc_start(uint32_t pc)
{
	ttx_cfg_write(TTX_CFG_NCRISC_RESET_PC, pc);
	ttx_cfg_write(TTX_CFG_NCRISC_RESET_PC_OVERRIDE, 1);
	TTX_REG(TTX_SOFT_RESET_0) = TTX_REG(TTX_SOFT_RESET_0) & ~TTX_SOFT_RESET_NC;
}
static inline uint64_t ttx_wall_clock(void)
{
	uint32_t lo = TTX_REG(TTX_WALL_CLOCK_L);
	return (uint64_t)TTX_REG(TTX_WALL_CLOCK_H) << 32 | lo;
}

/* ---- circular buffers in L1 (between the three TRISCs) ----
 * A buffer of `pages` pages of `page_bytes` at `base`, with two counters
 * in L1 (pages pushed, pages popped) that each side only increments: the
 * producer reserves space, writes (or has the packer write), pushes; the
 * consumer waits, reads (or has the unpacker read), pops.  The counters'
 * addresses are all either side needs. */
struct ttx_cb {
	uint32_t base, page_bytes, pages;
	volatile uint32_t *pushed, *popped;   /* in L1 */
	uint32_t next;                        /* this side's own count */
};
static inline void ttx_cb_init(struct ttx_cb *cb, uint32_t base, uint32_t page_bytes, uint32_t pages,
                               uint32_t counters)
{
	cb->base = base, cb->page_bytes = page_bytes, cb->pages = pages;
	cb->pushed = (volatile uint32_t *)(uintptr_t)counters;
	cb->popped = (volatile uint32_t *)(uintptr_t)(counters + 4);
	cb->next = 0;
}
/* the producer: wait for room for n pages; the address of the next one */
static inline uint32_t ttx_cb_reserve(struct ttx_cb *cb, uint32_t n)
{
	while (cb->next - *cb->popped + n > cb->pages) {}
	return cb->base + (cb->next % cb->pages) * cb->page_bytes;
}
static inline void ttx_cb_push(struct ttx_cb *cb, uint32_t n) { cb->next += n; *cb->pushed = cb->next; }
/* the consumer: wait for n pages; the address of the first */
static inline uint32_t ttx_cb_wait(struct ttx_cb *cb, uint32_t n)
{
	while (*cb->pushed - cb->next < n) {}
	return cb->base + (cb->next % cb->pages) * cb->page_bytes;
}
static inline void ttx_cb_pop(struct ttx_cb *cb, uint32_t n) { cb->next += n; *cb->popped = cb->next; }

/* The end of a kernel, LLK style: a value in an L1 mailbox word for the
   host (ttx run --until ADDR=VALUE), then nothing more to do. */
static inline void __attribute__((noreturn)) ttx_done(uint32_t addr, uint32_t value)
{
	TTX_REG(addr) = value;
	for (;;) {}
}

#endif
