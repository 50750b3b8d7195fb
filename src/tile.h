/* The architectural state of one Tensix tile, as plain structs (no globals).
 * Internal to libttx; the public view is src/ttx.h.  Each member cites the page
 * that defines it; docs/state.md lists the power-on values and their sources. */
#ifndef TTX_TILE_H
#define TTX_TILE_H

#include <stdint.h>
#include <stdbool.h>

#include "ttx.h"
#include "isa.h"

/* Memory map of the tile as seen by the RISC-V cores (TT/BabyRISCV/README.md;
   interp/riscv_mmio.c implements it, docs/riscv.md tabulates it). */
#define TTX_MMIO_LOCAL        0xFFB00000u  /* each core's local data RAM */
#define TTX_MMIO_TDMA         0xFFB11000u  /* TDMA-RISC registers (TT/TDMA-RISC.md) */
#define TTX_MMIO_DEBUG        0xFFB12000u  /* tile control / debug / status (TT/TileControlDebugStatus.md) */
#define TTX_MMIO_PIC          0xFFB13000u
#define TTX_MMIO_NOC0         0xFFB20000u  /* NoC 0, NoC 1, overlay: up to 0xFFB7FFFF (the chip's) */
#define TTX_MMIO_NC_IRAM      0xFFC00000u  /* RISCV NC instruction RAM (TT/BabyRISCV/InstructionRAM.md) */
#define TTX_MMIO_INSTRN1_BUF  0xFFE50000u  /* RISCV B: push to T1, after the MOP expander */
#define TTX_MMIO_INSTRN2_BUF  0xFFE60000u  /* RISCV B: push to T2 */
#define TTX_MMIO_PC1_BUF      0xFFE90000u  /* RISCV B: PCBuf[1] */
#define TTX_MMIO_PC2_BUF      0xFFEA0000u
#define TTX_MMIO_MAILBOX      0xFFEC0000u  /* four 4 KiB windows (TT/BabyRISCV/Mailboxes.md) */
#define TTX_MMIO_MOP_CFG      0xFFB80000u  /* MopCfg[9], write-only */
#define TTX_MMIO_GPR          0xFFE00000u  /* GPRs[thread][64] */
#define TTX_MMIO_INSTRN_BUF   0xFFE40000u  /* push an instruction (before the MOP expander) */
#define TTX_MMIO_PC_BUF       0xFFE80000u
#define TTX_MMIO_SEMAPHORES   0xFFE80020u  /* PC_BUF_BASE + 4 * PC_BUF_SEMAPHORE_BASE (8) */
#define TTX_MMIO_CFG          0xFFEF0000u  /* Config[2][188], then ThreadConfig[3][57] x 16 B */
/* Registers of the debug region (offsets from TTX_MMIO_DEBUG; tile_regs.json). */
#define TTX_DBG_CFGREG_RD_CNTL    0x058u
#define TTX_DBG_CFGREG_RDDATA     0x078u
#define TTX_DBG_PC_BUF_OVERRIDE   0x090u   /* RISCV_DEBUG_REG_TRISC_PC_BUF_OVERRIDE */
#define TTX_DBG_INSTRN_BUF_CTRL0  0x0A0u
#define TTX_DBG_INSTRN_BUF_CTRL1  0x0A4u
#define TTX_DBG_INSTRN_BUF_STATUS 0x0A8u
#define TTX_DBG_SOFT_RESET_0      0x1B0u   /* TT/SoftReset.md */
#define TTX_DBG_WALL_CLOCK_L      0x1F0u   /* TT/DebugTimestamper.md */
#define TTX_DBG_WALL_CLOCK_H      0x1F8u
#define TTX_DBG_TIMESTAMP         0x1FCu
#define TTX_SOFT_RESET_CORES      0x47800u /* bits 11-14 (B, T0-T2) and 18 (NC): the reset value */

/* Config words at or above this index are shared by both banks. */
#define TTX_CFG_GLOBAL_BASE 152            /* GLOBAL_CFGREG_BASE_ADDR32 */
#define TTX_CFG_THCON_BASE 52              /* THCON_CFGREG_BASE_ADDR32 */

/* Named configuration fields, from src/cfg_regs.def. */
enum ttx_cfg_field {
#define TTX_CFG_FIELD(name, word, shift, width) TTX_CFG_##name,
#define TTX_THCFG_FIELD(name, index, shift, width)
#include "cfg_regs.def"
#undef TTX_CFG_FIELD
#undef TTX_THCFG_FIELD
	TTX_CFG_FIELD_COUNT
};

enum ttx_thread_cfg_field {
#define TTX_CFG_FIELD(name, word, shift, width)
#define TTX_THCFG_FIELD(name, index, shift, width) TTX_THCFG_##name,
#include "cfg_regs.def"
#undef TTX_CFG_FIELD
#undef TTX_THCFG_FIELD
	TTX_THCFG_FIELD_COUNT
};

struct ttx_cfg_field_info {
	const char *name;
	uint16_t word;
	uint8_t shift, width;
};
extern const struct ttx_cfg_field_info ttx_cfg_fields[TTX_CFG_FIELD_COUNT];
extern const struct ttx_cfg_field_info ttx_thread_cfg_fields[TTX_THCFG_FIELD_COUNT];

/* SrcA / SrcB: 2 banks x 64 rows x 16 columns of 19-bit data (TC/SrcASrcB.md). */
enum ttx_src_client { TTX_SRC_UNPACKERS, TTX_SRC_MATRIX_UNIT };
struct ttx_src_bank {
	uint8_t allowed_client;    /* enum ttx_src_client, reset Unpackers */
	uint32_t rows[64][TTX_COLS];
};

/* Vector Unit (SFPU) state (TC/VectorUnit.md, TC/LReg.md, TC/SFPCONFIG.md).
   Per-lane booleans are 32-bit masks, bit i = lane i. */
#define TTX_FLAG_STACK_DEPTH 8
struct ttx_sfpu {
	uint32_t lreg[TTX_LREGS][TTX_LANES];
	uint32_t lane_flags;
	uint32_t use_lane_flags;           /* UseLaneFlagsForLaneEnable */
	struct ttx_flag_entry { uint32_t lane_flags, use_lane_flags; } flag_stack[TTX_FLAG_STACK_DEPTH];
	uint8_t flag_stack_size[TTX_LANES]; /* the stack is per lane; depth per lane */
	uint32_t lane_config[TTX_LANES];   /* 18 bits each */
	struct {
		uint16_t misc;                 /* 12 bits */
		uint32_t sequence[4];
		uint32_t instruction_template[4];
	} load_macro_config[TTX_LANES];
	uint32_t prng[TTX_LANES];          /* AdvancePRNG state (TC/VectorUnit.md) */
	/* LReg[VC] as last read by SFPSHFT2 Mod1 = 2 or 3 (the vc0 that
	   SUBVEC_SHFLSHR1's HardwareBug() reads, TC/SFPSHFT2.md); reset 0. */
	uint32_t shflror1_vc[TTX_LANES];
	/* SFPLOADMACRO (TC/SFPLOADMACRO.md): instructions scheduled on the simple,
	   MAD, round and store sub-units, and the operands of the one executing. */
	struct ttx_sfpu_sched {
		uint32_t word;
		uint16_t addr;                 /* store: Dst address computed by SFPLOADMACRO */
		uint8_t unit;                  /* 0 simple, 1 MAD, 2 round, 3 store */
		uint8_t remaining;             /* delay left */
		uint8_t by_insns;              /* WaitForElapsedInstructions */
		uint8_t vb, vc, vd, vb_set, mod0, thread;
	} sched[32];
	uint8_t nsched;
	struct { uint8_t active, vb, vc, vd, vb_set; } macro_ops;
	/* --strict hazard check: LRegs written by the previous SFPU instruction
	   when its result is not ready on the next cycle (MAD-class), and it. */
	uint32_t pending_writes;
	uint32_t pending_word;
};

/* ADCs (TC/ADCs.md): per thread, one set for each unpacker and one shared by
   the four packers, two channels each.  X is 18 bits, Y 13, Z and W 8; the
   counters are stored wider and masked when written. */
struct ttx_adc_channel {
	uint32_t x, x_cr, y, y_cr, z, z_cr, w, w_cr;
};
struct ttx_adc {
	struct ttx_adc_channel ch[2];
};
struct ttx_adc_set {
	struct ttx_adc unpacker[2], packers;
};

/* One packer's output stream (TC/Packers/OutputAddressGenerator.md): the
   16-byte buffer before L1, its fill in bits, the L1 byte address it goes
   to, and NeedsNewAddress. */
struct ttx_pack_stream {
	uint32_t addr;
	uint8_t needs_new;
	uint16_t fill;
	uint8_t buf[16];
};

/* The packer pipeline's state between and across PACR instructions
   (TC/Packers/README.md; interp/pack.c). */
struct ttx_packer {
	struct ttx_pack_stream rsi, exps, data;     /* RSIStream, ExponentStream, DataStream */
	/* BFP output: the datums of the block of 16 being assembled */
	uint32_t block[16];
	uint8_t block_len;
	/* compression (TC/Packers/Compression.md): the last augmented datum,
	   held back with its zero count, and the group of 32 being filled */
	uint8_t have_pending, pending_absorbed, row_started;
	uint32_t pending;
	uint8_t pending_count;
	uint32_t group[32];
	uint8_t group_count[32], group_len;
	uint16_t augmented;                     /* augmented datums of the tile so far */
	uint16_t rows;                          /* compression rows of the tile so far */
	uint8_t row_nonzero;
	uint8_t concat;                         /* the previous PACR had Concat */
	/* tile position generator (TC/Packers/EdgeMasking.md) */
	uint32_t tpg_x, tpg_y, tpg_z;
	/* sideband metadata (TC/Packers/ExponentHistogram.md, TT/TDMA-RISC.md) */
	uint8_t exp_hist[32], exp_hist_max;
	uint16_t acc_tile_size[TTX_THREADS], last_tile_size, tile_words;
	uint8_t last_thread;
	uint32_t all_zero_flags;
	uint16_t l1_dest_addr_offset;
	/* the metadata FIFO (Enable_out_fifo); depth 8 (choice: the page gives none) */
	struct { uint16_t size; uint32_t zero_flags; } fifo[8];
	uint8_t fifo_len;
};
#define TTX_PACK_FIFO 8

/* RWCs (TC/RWCs.md), one set per thread. */
struct ttx_rwc {
	uint16_t dst, dst_cr;              /* 10 bits */
	uint8_t srca, srca_cr;             /* 6 bits */
	uint8_t srcb, srcb_cr;             /* 6 bits */
	uint8_t fidelity_phase;            /* 2 bits */
	uint8_t extra_addr_mod_bit;        /* 1 bit */
};

/* MOP expander configuration (TC/MOPExpander.md), written through MMIO. */
struct ttx_mop_cfg {
	uint32_t cfg[9];
};

/* One thread's front end (TC/MOPExpander.md, TC/REPLAY.md): the state of
   both expanders as explicit generators, and the instruction that waits to
   pass the wait gate and execute. */
#define TTX_REPLAY_SIZE 32
struct ttx_frontend {
	/* MOP expander */
	uint16_t mask_hi;                  /* latched by MOP_CFG */
	uint8_t mop_active, mop_template;
	uint32_t mop_cfg[9];               /* sampled when the MOP starts */
	uint32_t mask;                     /* template 0 */
	uint32_t outer, outer_count, inner, inner_count;
	uint32_t loop_op, loop_op_flip;    /* template 1 */
	uint8_t step;                      /* position inside an iteration */
	/* Replay expander */
	uint32_t replay[TTX_REPLAY_SIZE];
	uint8_t replay_mode;               /* 0 pass, 1 load, 2 play */
	uint8_t replay_exec;
	uint8_t replay_index;
	uint8_t replay_left;               /* 1..64 */
	/* The next instruction for the wait gate and the backend. */
	uint8_t has_slot;
	uint32_t slot;
};

/* A thread's Wait Gate (TC/STALLWAIT.md, TC/SEMWAIT.md): the wait
   instruction interp/sync.c latched, re-evaluated by src/wait_gate.c until
   its conditions are met. */
struct ttx_wait_gate {
	uint8_t opcode;                    /* TTX_OP_STALLWAIT, TTX_OP_SEMWAIT; 0 = none */
	uint8_t semaphore_mask;            /* SEMWAIT: bit i = Semaphores[i] */
	uint16_t block_mask;               /* B0-B8 */
	uint16_t condition_mask;           /* STALLWAIT C0-C14, SEMWAIT C0-C1 */
};

/* One thread's instruction pipe: words pushed and not yet executed.  A
   RISC-V core's push waits while TTX_INSTRN_FIFO words are queued (the
   frontend's FIFO before the MOP expander; its depth is not documented:
   docs/riscv.md); the host's pushes are not bounded. */
#define TTX_FROM_B_FIFO 16
#define TTX_INSTRN_FIFO 32
#define TTX_INSTRN_FIFO_AHEAD 16384  /* without the cycle model (interp/riscv_mmio.c) */
struct ttx_pipe {
	uint32_t *words;
	size_t head, tail, cap;            /* ring buffer, cap a power of two; tail - head queued */
	bool blocked;                      /* the head instruction waits */
	uint64_t blocked_epoch;            /* the tile's sync_epoch when it last did */
	/* What RISCV B pushes through INSTRN_BUF/INSTRN1/INSTRN2: the mux after
	   the MOP expander (TC/README.md "Frontend"); taken when no MOP is
	   being expanded, before the next word of the pipe. */
	uint32_t from_b[TTX_FROM_B_FIFO];
	uint8_t b_head, b_tail;
	/* under the cycle model, the cycle each word a RISC-V core pushed
	   reached the FIFO (beside words[], same ring; NULL until a core
	   pushes), so that the thread does not issue it earlier */
	uint64_t *at;
};


/* ---- The five baby RISC-V cores (TT/BabyRISCV/README.md; interp/riscv.c,
   interp/riscv_mmio.c, docs/riscv.md) ---- */
enum ttx_core_run { TTX_CORE_IN_RESET, TTX_CORE_RUNNING, TTX_CORE_HALTED, TTX_CORE_STOPPED };
/* Why a running core does not advance (enum ttx_core_wait_reason, ttx.h). */
struct ttx_rv_cache;                   /* interp/riscv.c: pre-decoded blocks */
struct ttx_rvcore {
	uint32_t x[32];
	uint32_t pc;
	uint8_t run;                       /* enum ttx_core_run */
	uint8_t wait;                      /* enum ttx_core_wait_reason, 0: not waiting */
	uint32_t wait_addr;                /* the access it waits on */
	uint64_t wait_epoch;               /* t->core_epoch when it began to wait */
	uint32_t local_size;               /* 4 KiB (B, NC) or 2 KiB (T0-T2) */
	uint8_t local[4096];               /* local data RAM (TT/BabyRISCV/README.md) */
	/* a polling loop (docs/riscv.md "Waiting"): the registers at the last
	   backward branch to loop_pc, and what the iteration did */
	uint32_t loop_pc;
	uint8_t loop_stored, loop_shared_load;
	uint32_t loop_x[32];
	/* the cycle model (always kept: it is cheap, and the wall clock reads it) */
	uint64_t cycle;
	/* the Load/Store Unit's store queue (BabyRISCV/MemoryOrdering.md: four
	   entries; L1 stores drain one per 5 cycles, README.md): each L1
	   store's address and drain cycle, oldest at sq_next */
	struct { uint64_t drain; uint32_t addr; } sq[4];
	uint64_t sq_drained;               /* the cycle the queue is empty */
	uint8_t sq_next;
	uint64_t insns;
	uint64_t stall[TTX_CORE_STALL_COUNT];
	struct ttx_rv_cache *cache;
};

/* The cycle model (src/timing.c, docs/timing.md): each thread's and
   resource's next free cycle, fed instruction by instruction in the order
   the functional scheduler retires them.  Never read by the functional
   model. */
enum ttx_timing_res {
	TTX_RES_MATRIX, TTX_RES_SFPU,
	TTX_RES_UNPACK_ADDR,               /* the address stage both unpackers share */
	TTX_RES_UNPACK0, TTX_RES_UNPACK1,  /* each unpacker's L1 reads */
	TTX_RES_PACK,                      /* the packers' L1 writes */
	TTX_RES_MOVER, TTX_RES_SCALAR, TTX_RES_CONFIG, TTX_RES_SYNC,
	TTX_RES_COUNT,
	TTX_RES_NONE = TTX_RES_COUNT
};
#define TTX_POP_RING 512             /* more than a thread pops between two core slices */
#define TTX_PUSH_LATENCY 2           /* a pushed word's cycles from the store to the thread's issue */
struct ttx_timing {
	uint8_t on;
	uint8_t mop_ended[TTX_THREADS];    /* a MOP expansion ended: the transition penalty is due */
	uint8_t gate_op[TTX_THREADS];      /* the timing side of the Wait Gate: opcode, block mask, */
	uint16_t gate_mask[TTX_THREADS];
	uint64_t gate_until[TTX_THREADS];  /* first cycle a blocked instruction may issue */
	uint8_t owners;                    /* bit b: Src bank b (A0 A1 B0 B1) owned by the Matrix Unit */
	uint64_t ready[TTX_THREADS];       /* first cycle the thread may issue */
	uint64_t free[TTX_RES_COUNT];      /* first cycle the resource accepts work */
	uint64_t sfpnop_free;              /* SFPNOP may take the last cycle of SFPSWAP & co. */
	uint64_t done[TTX_THREADS][TTX_RES_COUNT];   /* last completion of the thread's work there */
	uint64_t busy_until[TTX_UNIT_COUNT];
	uint64_t src_stamp[4], sem_stamp[8], mutex_stamp[8];   /* cycle of the last hand-over */
	/* set by the units for the instruction being executed */
	uint64_t dep[TTX_THREADS];         /* a Src bank hand-over it waited for */
	uint32_t xfer_cycles;              /* unpack/pack/mover: cycles of L1 traffic */
	/* the cycle each of the thread's last TTX_POP_RING pipe words left the
	   FIFO (by sequence number): when a core's push into a full FIFO could
	   go on (interp/riscv.c) */
	uint64_t pop_at[TTX_THREADS][TTX_POP_RING];
	struct ttx_cycles c;
};

/* An instruction that must wait: the thread keeps it and retries it on its
   next turn (src/run.c). */
#define TTX_BLOCKED 100

/* How the core reaches the execution units (interp/) and the JIT (jit/)
   without depending on them: entry points those floors fill in when a tile
   is created (ttx_interp_attach, ttx_jit_attach; docs/architecture.md). */
struct ttx_entry_points {
	/* interp/: execute one instruction of a thread (Wait Gate, then its
	   unit): TTX_OK when it retired, TTX_BLOCKED or a fault. */
	int (*exec)(struct ttx_tile *t, unsigned thread, uint32_t word);
	/* A cycle in which no thread issues: lets scheduled work finish; *ran
	   is set when anything executed. */
	int (*idle)(struct ttx_tile *t, int *ran);
	/* A load or store of size 1, 2 or 4 by RISC-V core `core` (enum
	   ttx_core) into the tile's address map (interp/riscv_mmio.c):
	   TTX_OK, TTX_BLOCKED (from_host: refused instead) or a fault. */
	enum ttx_status (*access)(struct ttx_tile *t, unsigned core, uint32_t addr, unsigned size, int store,
	                          uint32_t *value, int from_host);
	/* The live RISC-V cores' time slices (interp/riscv.c): at most budget
	   instructions (0: a slice each), *executed of them ran, *moved when a
	   core advanced. */
	enum ttx_status (*cores_run)(struct ttx_tile *t, uint64_t budget, uint64_t *executed, int *moved);
	/* Release a core from soft reset at pc. */
	void (*core_release)(struct ttx_tile *t, unsigned core, uint32_t pc);
	void (*units_free)(struct ttx_tile *t);
	/* jit/ (NULL in a build without it): run what the thread has next as
	   one compiled block (instructions retired, 0 = none, -status on a
	   fault); a quick look whether it might; its statistics; free its
	   per-tile state. */
	long (*jit_step)(struct ttx_tile *t, unsigned thread, uint64_t budget);
	int (*jit_wants)(const struct ttx_tile *t, unsigned thread);
	void (*jit_stats)(const struct ttx_tile *t, struct ttx_stats *out);
	void (*jit_free)(struct ttx_tile *t);
};

struct ttx_tile {
	struct ttx_options opt;
	uint8_t *l1;                                  /* TTX_L1_SIZE bytes (TT/L1.md) */
	uint16_t dst[TTX_DST_ROWS16][TTX_COLS];       /* DstBits (TC/Dst.md) */
	struct ttx_src_bank srca[2], srcb[2];
	uint8_t matrix_srca_bank, matrix_srcb_bank;   /* MatrixUnit::SrcABank/SrcBBank */
	/* DstBits rows marked undefined by ZEROACC (bit r of word r / 32); the
	   rows are also zeroed, and any write defines them (TC/ZEROACC.md).
	   Reset: all defined. */
	uint32_t dst_undefined[TTX_DST_ROWS16 / 32];
	/* The SrcA row address the last FPU instruction computed: SHIFTXA's
	   HardwareBug() input block (TC/SHIFTXA.md).  Reset 0. */
	uint8_t matrix_last_srca_row;
	uint8_t unpacker_src_bank[2];                 /* Unpackers[0/1]::SrcBank */
	/* Unpackers[0/1]::SrcRow[thread]: 0/16/32/48, set by SETDVALID and UNPACR
	   (TC/SETDVALID.md), read by STOREIND to Src (TC/STOREIND_Src.md); reset 0. */
	uint8_t unpacker_src_row[2][TTX_THREADS];
	/* Unpackers[0/1]::ContextCounter[thread] (TC/UNPACR_Regular.md) and
	   SetRegAcc (TC/UNPACR_NOP_SETREG.md); reset 0. */
	uint8_t unpacker_context[2][TTX_THREADS];
	uint32_t unpacker_setreg_acc[2];
	struct ttx_adc_set adc[TTX_THREADS];          /* TC/ADCs.md */
	struct ttx_packer packer[4];                  /* TC/Packers/README.md */
	/* TDMA-RISC (TT/TDMA-RISC.md): PACR_SETREG / UNPACR_NOP address windows,
	   PACR_SETREG value scalers, the mover's command parameters. */
	uint32_t pack_setreg_base[2], unpack_setreg_base[2];
	uint16_t pack_setreg_scaler[4];
	uint32_t pack_reg_addr_raw, unpack_reg_addr_raw, scaler_raw;
	uint32_t mover_params[4], mover_cmd_base[TTX_THREADS];
	/* 1 + the thread whose Scalar Unit instruction has started and not
	   finished (an ATCAS or ATINCGETPTR retrying, a STOREIND waiting for
	   Src), 0 when idle: meanwhile no other thread's instruction may enter
	   the unit (TC/ScalarUnit.md).  Reset 0. */
	uint8_t scalar_busy;
	struct ttx_sfpu sfpu;
	struct ttx_rwc rwc[TTX_THREADS];
	uint32_t config[2][TTX_CFG_WORDS];            /* TC/BackendConfiguration.md */
	uint16_t thread_config[TTX_THREADS][TTX_THREAD_CFG_WORDS];
	uint32_t gpr[TTX_THREADS][TTX_GPRS];          /* TC/ScalarUnit.md */
	struct { uint8_t value, max; } semaphores[8]; /* TC/SyncUnit.md */
	int8_t mutex_owner[8];                        /* -1 = free; index 1 unused */
	struct ttx_wait_gate wait_gate[TTX_THREADS];  /* TC/STALLWAIT.md; reset: none latched */
	/* Scheduler rounds (src/run.c), and the round and thread of the last
	   RDCFG that executed (its multi-thread hardware bug, interp/config.c). */
	uint64_t round, rdcfg_round;
	uint8_t rdcfg_thread;
	/* Counts the retired instructions that can release a waiting thread
	   (all but SFPU instructions and NOP) and the starts of runs: a thread
	   that waited at this epoch still waits (src/run.c, ttx_jit_alone). */
	uint64_t sync_epoch;
	struct ttx_mop_cfg mop[TTX_THREADS];
	struct ttx_frontend fe[TTX_THREADS];
	struct ttx_pipe pipe[TTX_THREADS];
	/* The floors above the core (docs/architecture.md): the entry points
	   by which the core reaches them, and their per-tile state.  The JIT's
	   (jit/) is created at its first block, NULL until then; jit_on clears
	   when it cannot be used; jit_skip[thread] counts instructions the
	   interpreter runs before the JIT looks at that thread again. */
	struct ttx_entry_points entry;
	struct ttx_jit *jit;
	struct ttx_srca_cache *srca_cache;            /* interp/matrix_fp.h */
	/* What the top floor keeps with a tile (the kernels app/ops.c
	   assembled), freed by attachment_free when the tile is destroyed. */
	void *attachment;
	void (*attachment_free)(void *attachment);
	uint8_t jit_on;
	uint32_t jit_skip[TTX_THREADS];
	/* The RISC-V cores and what connects them (TT/BabyRISCV/). */
	struct ttx_rvcore core[TTX_CORE_COUNT];
	uint8_t nc_iram[16384];                       /* RISCV NC's instruction RAM */
	uint32_t soft_reset;                          /* RISCV_DEBUG_REG_SOFT_RESET_0 */
	uint32_t pc_buf_override;                     /* RISCV_DEBUG_REG_TRISC_PC_BUF_OVERRIDE */
	uint32_t instrn_buf_ctrl[2], cfgreg_rd_data, debug_regs[0x220 / 4];
	uint32_t dbg_array_rd_en, dbg_array_rd_cmd;   /* the debug array read port (docs/riscv.md) */
	uint32_t wall_clock_hi_at;
	struct { uint32_t v[16]; uint8_t head, n; } pc_buf[TTX_THREADS];      /* TT/BabyRISCV/PCBufs.md */
	struct { uint32_t v[4]; uint8_t head, n; } mailbox[4][4];             /* [from][to], Mailboxes.md */
	uint8_t cores_live;                           /* bit c: core c released and not halted */
	/* ttx_run_cycles: cores stop before this cycle (0: no limit), and
	   cores_held counts those that stopped there with work left; a
	   chip stepping its tiles sets cycle_floor, the earliest cycle an
	   idle core or thread takes up work at (docs/chip.md) */
	uint64_t cores_cycle_limit, cycle_floor;
	unsigned cores_held;
	/* the L1 ranges ELF images were loaded into, by core (src/elf.c) */
	struct ttx_loaded { uint32_t start, end; uint8_t core; } loaded[64];
	unsigned nloaded;
	/* write generations of L1's 4 KiB pages and of the instruction RAM:
	   decoded RISC-V code is valid while its page's is unchanged
	   (ttx_l1_touched); code_gen_all invalidates everything */
	uint32_t code_gen[(TTX_L1_SIZE + 4095) / 4096], code_gen_iram, code_gen_all;
	uint64_t core_epoch;                          /* bumped by what can wake a waiting core */
	uint64_t core_insns;                          /* RISC-V instructions retired */
	uint8_t access_by_host;                       /* (the access being made is the host's: for messages) */
	struct ttx_timing timing;
	struct ttx_stats stats;          /* insns_by_unit is derived from op_counts */
	uint64_t op_counts[256];         /* instructions retired (or expanded) per opcode */
	char error[256];
};

/* A tile with its power-on state and no entry points (src/tile.c): the
   floors above fill in t->entry (ttx_tile_create, jit/engine.c). */
enum ttx_status ttx_tile_alloc(const struct ttx_options *opt, struct ttx_tile **out, char *err, size_t errlen);

/* Helpers shared by the units (src/tile.c). */
/* ttx_tile_reset without clearing L1 (the grid ops keep data there
   between kernel runs, app/gridops.c). */
void ttx_tile_reset_keep_l1(struct ttx_tile *t);
enum ttx_status ttx_fail(struct ttx_tile *t, enum ttx_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum ttx_status ttx_fault_undocumented(struct ttx_tile *t, unsigned thread, uint32_t word);
/* A warning for the host (ttx_options.warn), e.g. a hazard under --strict. */
void ttx_warn(struct ttx_tile *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

uint32_t ttx_cfg_get(const struct ttx_tile *t, unsigned bank, enum ttx_cfg_field f);
void ttx_cfg_set(struct ttx_tile *t, unsigned bank, enum ttx_cfg_field f, uint32_t value);
uint32_t ttx_thread_cfg_get(const struct ttx_tile *t, unsigned thread, enum ttx_thread_cfg_field f);
void ttx_thread_cfg_set(struct ttx_tile *t, unsigned thread, enum ttx_thread_cfg_field f, uint32_t value);
/* The Config bank a thread's instructions use (ThreadConfig CFG_STATE_ID_StateID). */
unsigned ttx_cfg_bank(const struct ttx_tile *t, unsigned thread);

/* Every writer of L1 reports what it wrote: RISC-V code decoded from those
   pages is stale, and a core waiting on memory may go on. */
static inline void ttx_l1_touched(struct ttx_tile *t, uint32_t addr, size_t len)
{
	if (!len || addr >= TTX_L1_SIZE)
		return;
	uint32_t last = (uint32_t)((addr + len - 1 < TTX_L1_SIZE ? addr + len - 1 : TTX_L1_SIZE - 1) >> 12);
	for (uint32_t p = addr >> 12; p <= last; p++)
		t->code_gen[p]++;
	t->core_epoch++;
}

/* ApplyAddrMod / ApplyPartialAddrMod (TC/RWCs.md). */
void ttx_apply_addr_mod(struct ttx_tile *t, unsigned thread, unsigned addr_mod, bool update_fidelity);

/* Dst32b[row][col] (TC/Dst.md): row is a 10-bit index; Dst32b[Row] lives
   in DstBits[AdjRow] (high half) and DstBits[AdjRow + 8] (low half). */
static inline unsigned ttx_dst32_adj_row(unsigned row)
{
	return ((row & 0x1F8u) << 1) | (row & 0x207u);
}

static inline uint32_t ttx_dst32_get(const struct ttx_tile *t, unsigned row, unsigned col)
{
	unsigned adj = ttx_dst32_adj_row(row & 0x3FF);
	return ((uint32_t)t->dst[adj][col] << 16) | t->dst[(adj + 8) & 0x3FF][col];
}

/* A write to DstBits row r makes it defined again (TC/ZEROACC.md). */
static inline void ttx_dst16_define(struct ttx_tile *t, unsigned row16)
{
	t->dst_undefined[(row16 & 0x3FF) >> 5] &= ~(1u << (row16 & 31));
}

static inline void ttx_dst32_set(struct ttx_tile *t, unsigned row, unsigned col, uint32_t value)
{
	unsigned adj = ttx_dst32_adj_row(row & 0x3FF);
	ttx_dst16_define(t, adj);
	ttx_dst16_define(t, (adj + 8) & 0x3FF);
	t->dst[adj][col] = (uint16_t)(value >> 16);
	t->dst[(adj + 8) & 0x3FF][col] = (uint16_t)value;
}

/* Dst32b keeps FP32 as {sign:1, mantissa_hi:7, exponent:8, mantissa_lo:16}
   from bit 31 down (Diagrams Dst32_FP32); SFPLOAD Mod0 = 3 unshuffles it
   (TC/SFPLOAD.md UnshuffleFP32, TC/SFPSTORE.md FP32Shuffle). */
static inline uint32_t ttx_unshuffle_fp32(uint32_t d)
{
	uint32_t hi = d >> 16;
	return ((hi & 0x8000u) << 16) | ((hi & 0xFFu) << 23) | (((hi >> 8) & 0x7Fu) << 16) | (d & 0xFFFFu);
}

static inline uint32_t ttx_shuffle_fp32(uint32_t v)
{
	uint32_t hi = ((v >> 16) & 0x8000u) | (((v >> 16) & 0x7Fu) << 8) | ((v >> 23) & 0xFFu);
	return (hi << 16) | (v & 0xFFFFu);
}

/* Front end (src/frontend.c): make fe->slot the thread's next instruction
   for the backend.  Returns 1 when there is one, 0 when the thread has run
   dry. */
int ttx_frontend_fetch(struct ttx_tile *t, unsigned thread);

/* Whether a compiled block of thread th may run now: running its
   instructions back to back is what the round-robin scheduler would do
   (src/run.c). */
int ttx_jit_alone(const struct ttx_tile *t, unsigned th);

/* Why a RISC-V store to addr cannot be emulated (NULL: it can), for
   ttx_mmio_write and for the assembler's check of .mmio. */
const char *ttx_mmio_store_problem(uint32_t addr);
/* The words one MOP instruction expands to with MopCfg cfg and the latched
   MaskHi, in order, as the MOP expander emits them (for the JIT, which
   counts and checks them).  Returns how many there are. */
size_t ttx_mop_expand(const uint32_t cfg[9], uint32_t mop_word, uint16_t mask_hi,
                      void (*emit)(void *ctx, uint32_t word), void *ctx);
/* A MOP expansion the JIT stopped after its expander had emitted `done`
   words: fe's expander as the interpreter would have it then (the MOP
   active, the next word the one after them); emit sees those words.
   Returns the last of them. */
uint32_t ttx_mop_resume(struct ttx_frontend *fe, const uint32_t cfg[9], uint32_t mop_word, size_t done,
                        void (*emit)(void *ctx, uint32_t word), void *ctx);

/* A REPLAY instruction reaching the replay expander: recording (Load) or
   playback of Count words (0 = 64) from Index (TC/REPLAY.md). */
void ttx_replay_start(struct ttx_frontend *fe, uint32_t word);

/* The pipe's head word leaves the FIFO (under the cycle model, with words
   a RISC-V core pushed): the thread waits for it to have arrived, and its
   pop cycle is kept for the core (src/timing.c). */
void ttx_timing_pop(struct ttx_tile *t, unsigned thread);

/* The common case inline: a plain instruction at the head of the pipe while
   neither expander is busy. */
static inline int ttx_frontend_next(struct ttx_tile *t, unsigned thread)
{
	struct ttx_frontend *fe = &t->fe[thread];
	struct ttx_pipe *p = &t->pipe[thread];
	if (fe->has_slot)
		return 1;
	if (!fe->mop_active && !fe->replay_mode && p->b_head == p->b_tail) {
		if (p->head == p->tail)
			return 0;
		uint32_t w = p->words[p->head & (p->cap - 1)];
		unsigned op = w >> 24;
		if (op != TTX_OP_MOP && op != TTX_OP_MOP_CFG && op != TTX_OP_REPLAY) {
			if (p->at)
				ttx_timing_pop(t, thread);
			p->head++;
			fe->slot = w;
			fe->has_slot = 1;
			return 1;
		}
	}
	return ttx_frontend_fetch(t, thread);
}

/* Whether the thread has anything left: a waiting instruction, an
   expansion in progress or words in its pipe. */
static inline int ttx_frontend_busy(const struct ttx_tile *t, unsigned thread)
{
	const struct ttx_frontend *fe = &t->fe[thread];
	const struct ttx_pipe *p = &t->pipe[thread];
	return fe->has_slot || fe->mop_active || fe->replay_mode == 2 || p->head != p->tail || p->b_head != p->b_tail;
}

/* The cycle model (src/timing.c).  ttx_timing_insn places an instruction
   thread th retired (after the unit ran it); the others are the hooks the
   front end, the Wait Gate and the units call while timing is on. */
void ttx_timing_reset(struct ttx_tile *t);
void ttx_timing_resume(struct ttx_tile *t, const struct ttx_timing *before);
void ttx_timing_insn(struct ttx_tile *t, unsigned th, uint32_t word);
void ttx_timing_frontend(struct ttx_tile *t, unsigned th, unsigned cycles);
void ttx_timing_gate_release(struct ttx_tile *t, unsigned th, const struct ttx_wait_gate *g);
/* L1 traffic of the instruction being executed (the units call these). */
void ttx_timing_unpacker(struct ttx_tile *t, uint64_t bits, unsigned throttle, int x1_only, int x2_max);
void ttx_timing_packer(struct ttx_tile *t, uint32_t writes, uint32_t datums, int accumulate);
void ttx_timing_mover(struct ttx_tile *t, uint32_t bytes, int from_l1, int to_l1);
/* A Src bank hand-over the instruction depends on (bank: 0-1 SrcA, 2-3 SrcB). */
static inline void ttx_timing_src_dep(struct ttx_tile *t, unsigned th, unsigned bank)
{
	if (t->timing.on && t->timing.src_stamp[bank & 3] > t->timing.dep[th])
		t->timing.dep[th] = t->timing.src_stamp[bank & 3];
}
/* The JIT's summary of a compiled block (SFPU and NOP instructions only):
   its placement follows from the thread's and the SFPU's entry state. */
struct ttx_timing_block {
	uint32_t n, lead;                  /* instructions; NOPs before the first SFPU one */
	uint32_t first_word, sfpu_word;    /* the first instruction, the first SFPU one */
	uint8_t started;                   /* an SFPU instruction was seen */
	/* cycles after the first SFPU instruction's issue: */
	uint32_t ready_off, free_off, sfpnop_off, done_sfpu, done_all, busy_end;
	uint32_t busy, first_occ;          /* SFPU busy cycles; the first one's occupancy */
	uint32_t stall;                    /* stall cycles inside the block */
};
void ttx_timing_block_add(struct ttx_timing_block *b, uint32_t word);
void ttx_timing_block_run(struct ttx_tile *t, unsigned th, const struct ttx_timing_block *b, uint64_t times);
/* Whether a compiled block may run now without the model losing a wait. */
static inline int ttx_timing_gate_open(const struct ttx_tile *t, unsigned th)
{
	return !t->timing.on || t->timing.gate_until[th] <= t->timing.ready[th];
}

/* The Wait Gate (src/wait_gate.c; TC/STALLWAIT.md, TC/SEMWAIT.md):
   TTX_BLOCKED when the thread's latched wait blocks `word`, else TTX_OK;
   called for every instruction before its unit executes it.  It forgets
   the latched waits (of every thread) whose conditions are met. */
int ttx_wait_gate_check(struct ttx_tile *t, unsigned thread, uint32_t word);
/* Does a latched block mask hold back an instruction with this opcode? */
int ttx_wait_gate_blocks(unsigned block_mask, unsigned opcode);
/* Thread th's latched wait holds: latched, its conditions not all met. */
int ttx_wait_gate_holds(const struct ttx_tile *t, unsigned th);

/* CLOCK_MONOTONIC in seconds: the host times in statistics (run.c). */
double ttx_monotonic_seconds(void);

#endif
