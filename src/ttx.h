/* ttx: an emulator of the Tenstorrent Wormhole B0 Tensix coprocessor.
 *
 * Public C API.  A struct ttx_tile holds the whole architectural state of one
 * Tensix tile (L1, Dst, SrcA/SrcB, the SFPU, configuration, GPRs, sync unit,
 * front end).  Tiles share nothing: create as many as you like and drive each
 * from one host thread at a time.  The library never prints; every function
 * that can fail returns an enum ttx_status and leaves a message that
 * ttx_tile_error() returns.
 */
#ifndef TTX_H
#define TTX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TTX_API __attribute__((visibility("default")))
#else
#define TTX_API
#endif

enum ttx_status {
	TTX_OK = 0,
	TTX_FAULT = 1,    /* emulated fault: unimplemented or undocumented
	                     instruction, undefined behaviour (strict), deadlock */
	TTX_EINVAL = 2,   /* bad argument or input */
	TTX_ENOMEM = 3,
	TTX_LIMIT = 4,    /* the instruction budget of ttx_run ran out */
	TTX_INTERRUPTED = 5,   /* the host asked the run to stop (ttx_options.interrupt,
	                          ttx_op_params.progress) */
};

enum ttx_engine {
	TTX_ENGINE_INTERP,
	TTX_ENGINE_JIT,
	TTX_ENGINE_AUTO,
};

#define TTX_THREADS 3
#define TTX_L1_SIZE (1464u * 1024u)
#define TTX_DST_ROWS16 1024          /* DstBits[1024][16] */
#define TTX_DST_ROWS32 512           /* Dst32b[512][16] */
#define TTX_COLS 16
#define TTX_LANES 32
#define TTX_LREGS 17
#define TTX_GPRS 64
#define TTX_CFG_WORDS 188            /* CFG_STATE_SIZE * 4 */
#define TTX_THREAD_CFG_WORDS 57      /* THD_STATE_SIZE */

struct ttx_tile;

/* MAD-class arithmetic (SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT*):
   EXACT is the Wormhole datapath bit for bit; FAST is IEEE fma with inputs
   and results of exponent 0 read and written as +0 and NaN results
   0x7FC00000 -- not bit-exact, for batch simulation (docs/jit.md). */
enum ttx_numerics {
	TTX_NUMERICS_EXACT,
	TTX_NUMERICS_FAST,
};

struct ttx_timing_event;
struct ttx_core_event;
struct ttx_jit_cache;

struct ttx_options {
	/* sizeof(struct ttx_options) of the header the caller was built with
	   (0: this header's), so that later versions can add fields */
	size_t size;
	enum ttx_engine engine;
	enum ttx_numerics numerics;
	/* JIT tiering: compile a block once it has been seen this many times
	   (0: 1 with TTX_ENGINE_JIT, 2 with TTX_ENGINE_AUTO). */
	unsigned jit_threshold;
	int strict;              /* report undefined behaviour as a fault, hazards as warnings */
	/* Called with a one-line message for each warning, e.g. a hazard that
	   hardware does not interlock, reported when strict is set (NULL: none). */
	void (*warn)(void *ctx, const char *message);
	void *warn_ctx;
	/* Called after each retired instruction (NULL: no tracing). */
	void (*trace)(void *ctx, unsigned thread, uint32_t word);
	void *trace_ctx;
	/* Run the cycle model beside the functional one (docs/timing.md):
	   device cycles, unit busy and thread stall cycles, ttx_cycles_get.
	   It never changes results. */
	int timing;
	/* With timing: called for each instruction the model places, or once
	   for a run of instructions compiled together (count > 1), e.g. to
	   write a trace (NULL: none).  Does not turn the JIT off. */
	void (*timing_event)(void *ctx, const struct ttx_timing_event *e);
	void *timing_ctx;
	/* Accesses to addresses outside what the tile maps (NoC, overlay,
	   PIC and debug registers, other memories): a 32-bit load (store 0:
	   set *value) or store (*value) by thread's RISC-V side
	   (ttx_mmio_read/write) or by its instructions (LOADREG, STOREREG,
	   STOREIND MMIO, PACR_SETREG, UNPACR_NOP SETREG).  Return 0 when
	   handled; anything else refuses it, which faults as without a hook
	   (NULL: every such access faults).  Runs on the calling thread. */
	int (*mmio)(void *ctx, unsigned thread, uint32_t addr, int store, uint32_t *value);
	void *mmio_ctx;
	/* A JIT code cache to share with other tiles (ttx_jit_cache_new):
	   a block compiled for one runs on all.  NULL: the tile's own. */
	struct ttx_jit_cache *jit_cache;
	/* Non-NULL: the run stops with TTX_INTERRUPTED soon after *interrupt
	   becomes non-zero (it is read at every scheduler round, and between
	   the kernel runs of an operation).  Set it from a signal handler or
	   another thread with an atomic store. */
	const int *interrupt;
	/* Called before each RISC-V instruction a core executes, with its pc
	   and word (NULL: no tracing; tracing slows the cores down). */
	void (*trace_core)(void *ctx, unsigned core, uint32_t pc, uint32_t word);
	void *trace_core_ctx;
	/* With timing: called for each span of a RISC-V core's time, running
	   (a time slice's instructions) or waiting (NULL: none). */
	void (*core_event)(void *ctx, const struct ttx_core_event *e);
	void *core_event_ctx;
};

/* A JIT code cache several tiles can share, on any threads: blocks
   compiled once, one LLVM instance, one compile thread.  The tiles given
   it in their options keep it alive; release the creator's reference when
   the last tile is created or whenever convenient.  NULL without the JIT
   (--disable-jit) or memory. */
TTX_API struct ttx_jit_cache *ttx_jit_cache_new(void);
TTX_API void ttx_jit_cache_release(struct ttx_jit_cache *c);

/* Grids: ntiles independent tiles (each its own L1, state and programs)
   made with opt, sharing one JIT code cache (unless opt names one or is
   TTX_ENGINE_INTERP), run on a pool of host threads (threads 0: one per
   core).  TTX_EINVAL with the reason for 0 or more than
   TTX_GRID_MAX_TILES tiles or bad options; TTX_ENOMEM. */
#define TTX_GRID_MAX_TILES 65536u
struct ttx_grid;
TTX_API enum ttx_status ttx_grid_create(size_t ntiles, const struct ttx_options *opt, unsigned threads,
                                        struct ttx_grid **out, char *err, size_t errlen);
TTX_API size_t ttx_grid_size(const struct ttx_grid *g);
/* Tile index (NULL out of range): drive it like any tile between runs. */
TTX_API struct ttx_tile *ttx_grid_tile(struct ttx_grid *g, size_t index);
/* job(ctx, i, tile i) once for every tile, on the pool: at most `threads`
   jobs at once, each tile on one thread at a time; returns when all are
   done.  A job returns 0 or a non-zero code (a ttx_status); every job runs
   whatever the others return, and the status of the lowest failing index
   is returned (TTX_FAULT for codes outside the enum) with that index in
   *failed_index (may be NULL).  TTX_EINVAL for a NULL grid or job. */
TTX_API enum ttx_status ttx_grid_run(struct ttx_grid *g, int (*job)(void *ctx, size_t index, struct ttx_tile *t),
                                     void *ctx, size_t *failed_index);
TTX_API void ttx_grid_destroy(struct ttx_grid *g);

/* The execution units instructions go to (TC/README.md), the index of
   ttx_stats.insns_by_unit. */
enum ttx_unit {
	TTX_UNIT_FRONTEND,   /* the MOP and replay expanders: MOP, MOP_CFG, REPLAY */
	TTX_UNIT_MISC,
	TTX_UNIT_MATRIX,
	TTX_UNIT_SFPU,
	TTX_UNIT_UNPACK,
	TTX_UNIT_PACK,
	TTX_UNIT_MOVER,
	TTX_UNIT_SCALAR,
	TTX_UNIT_SYNC,
	TTX_UNIT_CONFIG,
	TTX_UNIT_COUNT
};
/* "frontend", "misc", "matrix", "sfpu", ...; "?" out of range. */
TTX_API const char *ttx_unit_name(enum ttx_unit unit);

struct ttx_stats {
	/* Instructions the units executed, all threads (a MOP's or a replay's
	   expansion included; the MOP, MOP_CFG and REPLAY words themselves,
	   which the front end's expanders consume, are not: they are
	   insns_by_unit[0], the front end, and in insns_by_opcode).  So insns
	   is the sum of insns_by_thread and of insns_by_unit[1..9]. */
	uint64_t insns;
	uint64_t insns_by_unit[TTX_UNIT_COUNT];   /* by enum ttx_unit (ttx_unit_name) */
	uint64_t insns_interp, insns_jit;
	uint64_t insns_jit_fallback;     /* of insns_jit, run by interpreter calls inside compiled blocks */
	uint64_t jit_blocks_compiled;
	double jit_compile_seconds;      /* total */
	double jit_compile_median_seconds;
	uint64_t insns_by_thread[TTX_THREADS];
	double wall_seconds;             /* time spent inside ttx_run */
	uint64_t insns_by_opcode[256];   /* by opcode (ttx_opcode_name) */
};

/* Why a thread could not issue its next instruction on the cycle after
   the previous one (the binding constraint; docs/timing.md). */
enum ttx_stall {
	TTX_STALL_UNIT,        /* the unit it goes to was still busy */
	TTX_STALL_STALLWAIT,   /* held at the Wait Gate by STALLWAIT */
	TTX_STALL_SEMWAIT,     /* held at the Wait Gate by SEMWAIT */
	TTX_STALL_SRC,         /* SrcA/SrcB bank not yet handed over (dvalid) */
	TTX_STALL_MUTEX,       /* ATGETM waiting for a mutex */
	TTX_STALL_FRONTEND,    /* MOP expander transition, REPLAY recording, MOP_CFG */
	TTX_STALL_COUNT
};
/* "unit", "stallwait", "semwait", "src", "mutex", "frontend"; "?" out of range. */
TTX_API const char *ttx_stall_name(enum ttx_stall reason);

/* The cycle model's totals (ttx_options.timing), since the tile was
   created or reset.  Cycles count from 0 at reset. */
struct ttx_cycles {
	uint64_t device_cycles;                   /* the cycle after the last result is ready */
	uint64_t busy_by_unit[TTX_UNIT_COUNT];    /* cycles each unit was executing (union of its work) */
	uint64_t issued[TTX_THREADS];             /* instructions each thread issued */
	uint64_t busy[TTX_THREADS];               /* cycles a thread spent issuing (>= issued: some block it longer) */
	uint64_t stalled[TTX_THREADS][TTX_STALL_COUNT];
	uint64_t stalled_on_unit[TTX_THREADS][TTX_UNIT_COUNT];  /* TTX_STALL_UNIT by unit */
	uint64_t macs;                            /* multiplier-array MACs: 2048 per MVMUL/DOTPV (peak per cycle) */
	uint64_t l1_bytes_read, l1_bytes_written; /* by the unpackers, packers and mover */
};
#define TTX_PEAK_MACS_PER_CYCLE 2048
TTX_API void ttx_cycles_get(const struct ttx_tile *t, struct ttx_cycles *out);
/* The unit busy the most cycles (the first of equals, Matrix Unit first);
   TTX_UNIT_COUNT when none was busy or c is NULL. */
TTX_API enum ttx_unit ttx_cycles_bottleneck(const struct ttx_cycles *c);

/* One placement by the cycle model (ttx_options.timing_event). */
struct ttx_timing_event {
	unsigned thread;
	enum ttx_unit unit;       /* TTX_UNIT_MISC for NOP-like instructions */
	uint32_t word;            /* the (first) instruction */
	uint32_t count;           /* instructions: 1, or a compiled block's */
	uint64_t issue;           /* cycle the (first) instruction issued */
	uint64_t done;            /* cycle its (last) result is ready */
	uint64_t unit_free;       /* cycle its unit can take the next one (0: it used none) */
	uint64_t stall;           /* cycles the thread waited before issue */
	enum ttx_stall reason;    /* why, when stall > 0 */
};

/* Blocked-thread report of a deadlock or of ttx_run stopping with work left. */
struct ttx_thread_state {
	int pending;          /* instructions still queued (including a blocked one) */
	int blocked;          /* the thread waits on a condition nobody can satisfy */
	uint32_t word;        /* the instruction it waits at */
	unsigned recording;   /* a REPLAY Load still open: the instructions it has yet to record */
};

/* A tile with these options (NULL: TTX_ENGINE_AUTO, exact numerics).
   TTX_EINVAL for options this library cannot honour (an engine or numerics
   value out of range, TTX_ENGINE_JIT in a build without the JIT, a size
   larger than it knows), TTX_ENOMEM; err gets the reason. */
TTX_API enum ttx_status ttx_tile_create(const struct ttx_options *opt, struct ttx_tile **out, char *err,
                                        size_t errlen);
/* ttx_tile_create without the reason: NULL on failure. */
TTX_API struct ttx_tile *ttx_tile_new(const struct ttx_options *opt);
TTX_API void ttx_tile_destroy(struct ttx_tile *t);
/* Power-on state (see docs/state.md for the values and where they come from). */
TTX_API void ttx_tile_reset(struct ttx_tile *t);
TTX_API const char *ttx_tile_error(const struct ttx_tile *t);

/* State access.  Addresses and indices are checked: TTX_EINVAL if out of range. */
TTX_API enum ttx_status ttx_l1_read(struct ttx_tile *t, uint32_t addr, void *buf, size_t len);
TTX_API enum ttx_status ttx_l1_write(struct ttx_tile *t, uint32_t addr, const void *buf, size_t len);
/* Dst as the raw 1024x16 16-bit storage (TC/Dst.md DstBits), row-major. */
/* Dst as flat arrays, row after row: TTX_DST_ROWS16 x TTX_COLS values for
   the 16-bit view, TTX_DST_ROWS32 x TTX_COLS for the 32-bit one (a
   uint16_t d[1024][16] passes as &d[0][0]). */
TTX_API void ttx_dst16_read(const struct ttx_tile *t, uint16_t *out);
TTX_API void ttx_dst16_write(struct ttx_tile *t, const uint16_t *in);
/* Dst as 512x16 FP32 values: what SFPLOAD Mod0 = 3 returns for each Dst32b datum,
   i.e. UnshuffleFP32(Dst32b[r][c]) (TC/SFPLOAD.md, TC/Dst.md). */
TTX_API void ttx_dst32_read(const struct ttx_tile *t, uint32_t *out);
TTX_API void ttx_dst32_write(struct ttx_tile *t, const uint32_t *in);
TTX_API enum ttx_status ttx_lreg_read(struct ttx_tile *t, unsigned reg, uint32_t lanes[TTX_LANES]);
TTX_API enum ttx_status ttx_lreg_write(struct ttx_tile *t, unsigned reg, const uint32_t lanes[TTX_LANES]);
TTX_API enum ttx_status ttx_gpr_read(struct ttx_tile *t, unsigned thread, unsigned index, uint32_t *value);
TTX_API enum ttx_status ttx_gpr_write(struct ttx_tile *t, unsigned thread, unsigned index, uint32_t value);
/* Config[bank][word] (32-bit) and ThreadConfig[thread][index] (16-bit). */
TTX_API enum ttx_status ttx_cfg_read(struct ttx_tile *t, unsigned bank, unsigned word, uint32_t *value);
TTX_API enum ttx_status ttx_cfg_write(struct ttx_tile *t, unsigned bank, unsigned word, uint32_t value);
TTX_API enum ttx_status ttx_thread_cfg_read(struct ttx_tile *t, unsigned thread, unsigned index, uint16_t *value);
TTX_API enum ttx_status ttx_thread_cfg_write(struct ttx_tile *t, unsigned thread, unsigned index, uint16_t value);
/* Named configuration fields (cfg_defines.h names, e.g. "ALU_ACC_CTRL_Fp32_enabled").
   For a ThreadConfig field, bank_or_thread is the thread; else the Config bank. */
TTX_API enum ttx_status ttx_cfg_field_read(struct ttx_tile *t, const char *name, unsigned bank_or_thread, uint32_t *value);
TTX_API enum ttx_status ttx_cfg_field_write(struct ttx_tile *t, const char *name, unsigned bank_or_thread, uint32_t value);

/* Push an instruction word to a thread's instruction pipe (what a TRISC store
   to INSTRN_BUF_BASE does).  Nothing executes until ttx_run. */
TTX_API enum ttx_status ttx_push(struct ttx_tile *t, unsigned thread, uint32_t word);
/* A 32-bit store by RISC-V T<thread> into the tile's address space: L1
   (0x0 - 0x16DFFF), MOP config (0xFFB80000), GPRs (0xFFE00000), semaphores,
   Config/ThreadConfig (0xFFEF0000), ...  Takes effect immediately. */
TTX_API enum ttx_status ttx_mmio_write(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t value);
TTX_API enum ttx_status ttx_mmio_read(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t *value);

/* Run until every pushed instruction has executed (TTX_OK), until no thread
   can make progress (TTX_FAULT, deadlock, described in ttx_tile_error and
   ttx_thread_state), or for at most max_insns instructions (0 = no bound;
   TTX_LIMIT when reached with work left).  Faults name the instruction. */
TTX_API enum ttx_status ttx_run(struct ttx_tile *t, uint64_t max_insns);
/* Like ttx_run, but a thread blocked on a condition is not a fault: return
   TTX_OK once no thread can progress.  For hosts that will change state
   (an MMIO write, more pushes) and call again. */
TTX_API enum ttx_status ttx_run_until_stalled(struct ttx_tile *t, uint64_t max_insns);
TTX_API void ttx_thread_state(const struct ttx_tile *t, unsigned thread, struct ttx_thread_state *out);
/* Step by device time (needs ttx_options.timing): run like
   ttx_run_until_stalled, but a thread stops before an instruction it could
   not issue before device cycle `cycle` (one that waits may be placed after
   it).  TTX_LIMIT when a thread stopped there with work left, TTX_OK when
   all work ran or only stalled work is left.  Runs on the interpreter (a
   compiled block could overshoot); 0 = no cycle bound. */
TTX_API enum ttx_status ttx_run_cycles(struct ttx_tile *t, uint64_t cycle, uint64_t max_insns);

/* ---- The five baby RISC-V cores (docs/riscv.md) ----
 * Each tile has RISCV B, T0, T1, T2 and NC, RV32IM with the .ttinsn
 * extension (TT/BabyRISCV/README.md), all in soft reset at power-on.  A
 * released core runs under ttx_run with the Tensix threads; ttx_run ends
 * when every released core has halted (ebreak, ecall) or waits in a loop
 * nothing can end (j ., or polling what no other agent will change) and
 * the threads are idle, and max_insns counts RISC-V instructions too. */
enum ttx_core { TTX_CORE_B, TTX_CORE_T0, TTX_CORE_T1, TTX_CORE_T2, TTX_CORE_NC, TTX_CORE_COUNT };
/* Why a running core is not advancing. */
enum ttx_core_wait_reason {
	TTX_WAIT_NONE,
	TTX_WAIT_LOOP,            /* a loop that repeats the same state: polling (or j .) */
	TTX_WAIT_INSTRN_FIFO,     /* a Tensix push into a full instruction FIFO */
	TTX_WAIT_TTSYNC,          /* CoprocessorDoneCheck / MOPExpanderDoneCheck */
	TTX_WAIT_MAILBOX_EMPTY,   /* popping an empty mailbox */
	TTX_WAIT_MAILBOX_FULL,    /* pushing into full mailboxes */
	TTX_WAIT_PC_BUF,          /* a PCBuf read (either side) or a push into a full one */
	TTX_WAIT_REASON_COUNT
};
/* Where a core's cycles went besides issuing (the cycle model, docs/riscv.md). */
enum ttx_core_stall {
	TTX_CORE_STALL_LOAD,      /* waiting for a load's result */
	TTX_CORE_STALL_MULDIV,    /* a multiply or divide occupying the Integer Unit */
	TTX_CORE_STALL_BRANCH,    /* a mispredicted branch's bubble */
	TTX_CORE_STALL_STORE,     /* a full store queue (L1 written one per 5 cycles) */
	TTX_CORE_STALL_FIFO,      /* a push into a full instruction FIFO */
	TTX_CORE_STALL_WAIT,      /* TTSync, mailboxes, PCBufs, polling loops */
	TTX_CORE_STALL_COUNT
};
struct ttx_core_state {
	int released;             /* out of soft reset */
	int halted;               /* stopped by ebreak or ecall */
	enum ttx_core_wait_reason wait;
	uint32_t wait_addr;       /* the address of the access it waits on */
	uint32_t pc;
	uint64_t insns, cycles;   /* retired; the core's cycle count */
	uint64_t stalls[TTX_CORE_STALL_COUNT];
};
/* A span of a core's time under the cycle model (ttx_options.core_event). */
struct ttx_core_event {
	enum ttx_core core;
	int waiting;                        /* 0: running, 1: waiting */
	enum ttx_core_wait_reason wait;     /* waiting: on what */
	uint64_t start, end;                /* cycles: [start, end) */
	uint64_t insns;                     /* running: instructions retired in it */
};
/* "brisc", "trisc0", "trisc1", "trisc2", "ncrisc" (NULL past the last);
   ttx_core_parse also takes "b", "t0".."t2", "nc" in any case. */
TTX_API const char *ttx_core_name(enum ttx_core core);
TTX_API enum ttx_status ttx_core_parse(const char *name, enum ttx_core *out);
TTX_API const char *ttx_core_wait_name(enum ttx_core_wait_reason why);
/* A RISC-V instruction word as text ("addi a0, a1, -5", ".ttinsn 0x..."),
   pc-relative targets as addresses; 1 for a word that is not RV32IM. */
TTX_API int ttx_rv_disasm(uint32_t word, uint32_t pc, char *buf, size_t len);
TTX_API const char *ttx_core_stall_name(enum ttx_core_stall why);
/* Place the PT_LOAD segments of an ELF32 RISC-V little-endian image at
   their load addresses (p_paddr) in the memories they name as `core` sees
   them: L1, its local data RAM, RISCV NC's instruction RAM (the bytes past
   p_filesz are zeroed).  *entry (may be NULL) gets the entry point.
   TTX_EINVAL, with the reason, for a malformed image, a segment outside
   every memory of the core or overlapping L1 another core's image took,
   an entry point outside the memory the core executes from; nothing is
   written then.  core TTX_CORE_COUNT: no core, L1 only, no entry check. */
TTX_API enum ttx_status ttx_elf_load(struct ttx_tile *t, enum ttx_core core, const void *image, size_t len,
                                     uint32_t *entry);
/* Release core from soft reset at pc (its registers zeroed), as writing
   RISCV_DEBUG_REG_SOFT_RESET_0 does with the reset PC. */
TTX_API enum ttx_status ttx_core_start(struct ttx_tile *t, enum ttx_core core, uint32_t pc);
/* x0-x31 as 0-31, pc as 32. */
TTX_API enum ttx_status ttx_core_reg_read(struct ttx_tile *t, enum ttx_core core, unsigned reg, uint32_t *value);
TTX_API enum ttx_status ttx_core_reg_write(struct ttx_tile *t, enum ttx_core core, unsigned reg, uint32_t value);
TTX_API void ttx_core_state(const struct ttx_tile *t, enum ttx_core core, struct ttx_core_state *out);
/* A 32-bit load or store by `core` (aligned): what its sw/lw does, except
   that an access that would wait (an empty mailbox, a full FIFO) is
   TTX_EINVAL instead. */
TTX_API enum ttx_status ttx_core_write(struct ttx_tile *t, enum ttx_core core, uint32_t addr, uint32_t value);
TTX_API enum ttx_status ttx_core_read(struct ttx_tile *t, enum ttx_core core, uint32_t addr, uint32_t *value);
/* Run as ttx_run, ending also (TTX_OK) as soon as every L1 word addr[i]
   holds value[i] (checked between the cores' time slices), the way a host
   polls mailboxes in L1. */
TTX_API enum ttx_status ttx_run_until(struct ttx_tile *t, uint64_t max_insns, const uint32_t *addr,
                                      const uint32_t *value, size_t n);

TTX_API void ttx_stats_get(const struct ttx_tile *t, struct ttx_stats *out);
/* The mnemonic of an opcode (0-255), NULL if it has none. */
TTX_API const char *ttx_opcode_name(unsigned opcode);

/* Instruction set: assemble and disassemble single instructions. */
/* Encode a text line ("SFPMAD 1, 2, 3, 4, 0", "TTI_SFPNOP", ".word 0x...").
   Directives are not accepted here.  TTX_EINVAL with a message in err. */
TTX_API enum ttx_status ttx_asm_line(const char *text, uint32_t *word, char *err, size_t errlen);
/* Disassemble one word into buf (tt-llk operand order; reassembles to the
   same word).  Returns 0, or 1 when the word is not a known instruction or
   sets bits no field covers (then printed as .word). */
TTX_API int ttx_disasm(uint32_t word, char *buf, size_t len);

/* Programs: assembler text (docs/assembly.md) or raw words, with the host-side
   directives .mmio and .thread.  A .mmio store takes effect once every
   instruction before it (in all threads) has executed or is blocked waiting:
   ttx_program_run runs the tile until it stalls, then performs the store. */
struct ttx_program;
enum ttx_item_kind { TTX_ITEM_INSN, TTX_ITEM_MMIO };
struct ttx_item {
	enum ttx_item_kind kind;
	unsigned thread;
	uint32_t word;           /* TTX_ITEM_INSN */
	uint32_t addr, value;    /* TTX_ITEM_MMIO */
	unsigned line;           /* source line, 0 for words */
	const char *file;        /* its file (an .include'd one, or the program's); NULL for words */
};
TTX_API enum ttx_status ttx_program_parse(const char *text, size_t len, const char *filename,
                                          struct ttx_program **out, char *err, size_t errlen);
/* The same, with symbols predefined for the program's expressions (as if by
   .equ).  .include "NAME" finds NAME in ttx's kernel library first
   (ttx_kernel_names), then as a file relative to the including file. */
struct ttx_asm_symbol {
	const char *name;
	int64_t value;
};
TTX_API enum ttx_status ttx_program_parse_with(const char *text, size_t len, const char *filename,
                                               const struct ttx_asm_symbol *syms, size_t nsyms,
                                               struct ttx_program **out, char *err, size_t errlen);
/* The kernel library (the .s files of kernels/, built into libttx): the text of a kernel
   by name ("unary.s"); 0 if found, -1 if not. */
TTX_API int ttx_kernel_find(const char *name, const char **text, size_t *len);
/* The names of the library's kernels, NULL-terminated. */
TTX_API const char *const *ttx_kernel_names(void);
TTX_API struct ttx_program *ttx_program_from_words(const uint32_t *words, size_t n, unsigned thread);
TTX_API size_t ttx_program_size(const struct ttx_program *p);
TTX_API const struct ttx_item *ttx_program_item(const struct ttx_program *p, size_t i);
TTX_API void ttx_program_free(struct ttx_program *p);
TTX_API enum ttx_status ttx_program_run(struct ttx_tile *t, const struct ttx_program *p, uint64_t max_insns);

/* ---- A Wormhole B0 chip (docs/chip.md) ----
 * The NoC grid of 10 x 12 tiles (NoC #0 coordinates, NoC/Coordinates.md):
 * 80 Tensix tiles (x 1-4 and 6-9, y 1-5 and 7-11) less harvested rows,
 * each a tile of this library with its five RISC-V cores and the cycle
 * model on; 18 DRAM tiles, three to each of 6 channels of 2 GiB; the
 * PCI Express tile (0, 3) with its configuration space and TLB windows;
 * the ARC tile (0, 10) with its reset unit; 16 Ethernet tiles (rows 0
 * and 6) and the rest router-only.  Coordinates are NoC #0's, or
 * translated ones (x, y >= 16, NoC/Coordinates.md "Coordinate
 * Translation").  Reentrant: one chip per handle, any number of them. */
#define TTX_CHIP_COLS 10
#define TTX_CHIP_ROWS 12
struct ttx_chip;
enum ttx_tile_kind {
	TTX_TILE_NONE, TTX_TILE_TENSIX, TTX_TILE_DRAM, TTX_TILE_PCIE, TTX_TILE_ARC, TTX_TILE_ETH, TTX_TILE_ROUTER,
	TTX_TILE_HARVESTED
};
struct ttx_chip_options {
	size_t size;                   /* sizeof(struct ttx_chip_options) of the caller's header (0: this one's) */
	struct ttx_options tile;       /* each Tensix tile's (timing is always on) */
	unsigned threads;              /* host threads ttx_chip_clock steps tiles on (0: 1); results do not depend on it */
	uint16_t harvested_rows;       /* bit y: the Tensix row at NoC #0 y is fused off (y 1-5, 7-11) */
};
TTX_API enum ttx_status ttx_chip_create(const struct ttx_chip_options *opt, struct ttx_chip **out, char *err,
                                        size_t errlen);
TTX_API void ttx_chip_destroy(struct ttx_chip *c);
/* The last error's message (never NULL). */
TTX_API const char *ttx_chip_error(const struct ttx_chip *c);
TTX_API enum ttx_tile_kind ttx_chip_tile_kind(struct ttx_chip *c, unsigned x, unsigned y);
TTX_API const char *ttx_tile_kind_name(enum ttx_tile_kind k);
/* The Tensix tile at (x, y), NULL for any other kind: drive it as any tile
   between ttx_chip_clock calls. */
TTX_API struct ttx_tile *ttx_chip_tile(struct ttx_chip *c, unsigned x, unsigned y);
/* Read or write a tile's address space as the NoC sees it (a Tensix tile:
   L1, TDMA-RISC, the tile control / debug registers, NIU and overlay
   registers; DRAM; the ARC tile's CSM and reset unit; the PCI Express
   tile's host side through the DMA callbacks).  TTX_EINVAL with the
   reason for no tile there or an address the tile does not map. */
TTX_API enum ttx_status ttx_chip_noc_read(struct ttx_chip *c, unsigned x, unsigned y, uint64_t addr, void *buf,
                                          size_t len);
TTX_API enum ttx_status ttx_chip_noc_write(struct ttx_chip *c, unsigned x, unsigned y, uint64_t addr,
                                           const void *buf, size_t len);
/* The PCI Express tile's BAR0 (512 MiB, PCIExpressTile/README.md): TLB
   windows, their configuration at 0x1FC00000, NIU registers, ARC. */
TTX_API enum ttx_status ttx_chip_bar_read(struct ttx_chip *c, uint64_t offset, void *buf, size_t len);
TTX_API enum ttx_status ttx_chip_bar_write(struct ttx_chip *c, uint64_t offset, const void *buf, size_t len);
/* PCI configuration space, aligned 32-bit registers: vendor 0x1E52,
   device 0x401E, BAR0 a 64-bit prefetchable 512 MiB window at
   TTX_CHIP_BAR0_ADDR. */
#define TTX_CHIP_BAR0_ADDR 0x100000000ull
#define TTX_CHIP_BAR0_SIZE (512ull << 20)
TTX_API enum ttx_status ttx_chip_pci_config_read(struct ttx_chip *c, uint32_t offset, uint32_t *value);
TTX_API enum ttx_status ttx_chip_pci_config_write(struct ttx_chip *c, uint32_t offset, uint32_t value);
/* Device-initiated accesses to host memory (through the PCI Express
   tile, NoC addresses 0x8_0000_0000 up): the host's callbacks. */
TTX_API void ttx_chip_set_dma(struct ttx_chip *c, void (*read)(void *ctx, uint64_t addr, void *buf, size_t len),
                              void (*write)(void *ctx, uint64_t addr, const void *buf, size_t len), void *ctx);
/* Advance every tile's cores and Tensix threads by `cycles` device
   cycles (a core may finish the block it is in past the end).  TTX_FAULT
   with the tile and its message when one faults. */
TTX_API enum ttx_status ttx_chip_clock(struct ttx_chip *c, uint64_t cycles);
TTX_API uint64_t ttx_chip_cycles(const struct ttx_chip *c);
/* Whether the tile at (x, y) has nothing left to do: no released core, no
   Tensix work, no NoC packet to or from it (any other kind of tile: 1). */
TTX_API int ttx_chip_tile_idle(struct ttx_chip *c, unsigned x, unsigned y);
/* Clock the chip until no tile has anything left to do (TTX_OK); after
   max_cycles (0: no limit) TTX_LIMIT; when nothing moved for stall_cycles
   (0: never look) -- no instruction retired anywhere, no packet routed --
   TTX_FAULT, the error naming every live core, its tile, what it waits on
   and its pc: a deadlock across tiles. */
TTX_API enum ttx_status ttx_chip_run(struct ttx_chip *c, uint64_t max_cycles, uint64_t stall_cycles);
/* That report for the chip as it is ("tile (x, y) RISCV NC polling at pc
   0x..; ..."): the characters written (at most len - 1). */
TTX_API size_t ttx_chip_waiting_report(const struct ttx_chip *c, char *buf, size_t len);
/* The NoC's and DRAM's work so far (docs/chip.md "The NoC"). */
struct ttx_chip_stats {
	uint64_t cycles;                    /* ttx_chip_cycles */
	uint64_t packets, flits;            /* routed, both NoCs */
	uint64_t link_busy_max;             /* the busiest link's flits */
	unsigned link_noc, link_x, link_y;  /* where it is (NoC #0 coordinates of its router) */
	const char *link_kind;              /* "into the NoC", "X", "Y", "out of the NoC" */
	uint64_t link_busy_total;           /* flits summed over every link */
	uint64_t dram_bytes[6], dram_busy[6];   /* by channel: moved, cycles serving */
};
TTX_API void ttx_chip_stats_get(const struct ttx_chip *c, struct ttx_chip_stats *out);
/* Count the NoC's and DRAM's work from now (cycles stay the chip's). */
TTX_API void ttx_chip_stats_reset(struct ttx_chip *c);

/* ---- Data formats and host-side conversions (docs/formats.md) ----
 * The L1 data formats of the unpackers and packers, by their hardware codes
 * (TC/Unpackers/FormatConversion.md).  BFP8/BFP4/BFP2 share one 8-bit
 * exponent per 16 datums (tt-metal's Bfp8_b etc.); BFP8A/BFP4A/BFP2A a 5-bit
 * one (tt-metal's Bfp8 etc.).  FP8 is e5m2.  UINT8 is INT8's code read as
 * unsigned (ALU_FORMAT_SPEC_REG0_SrcAUnsigned / PCK_DEST_RD_CTRL_Read_unsigned).
 * The integer formats are sign-magnitude, except UINT8.
 *
 * Layouts: a run of n datums ("flat") is the datums in order, packed LSB
 * first (BFP4: two per byte, BFP2: four); for the BFP formats it is preceded
 * by the exponent section, one byte per 16 datums, padded to 16 bytes.  A
 * 32x32 tile is the flat run of its 1024 datums in face order (faces 0-3 =
 * top-left, top-right, bottom-left, bottom-right 16x16 blocks, each row by
 * row), as the unpackers read and the packers write it.  A tensor of
 * rows x cols (multiples of 32) is its tiles in row-major order.
 *
 * These functions are independent of the emulated unpackers and packers: the
 * tests compare the two. */
enum ttx_format {
	TTX_FORMAT_FP32 = 0, TTX_FORMAT_FP16 = 1, TTX_FORMAT_BFP8A = 2, TTX_FORMAT_BFP4A = 3,
	TTX_FORMAT_TF32 = 4, TTX_FORMAT_BF16 = 5, TTX_FORMAT_BFP8 = 6, TTX_FORMAT_BFP4 = 7,
	TTX_FORMAT_INT32 = 8, TTX_FORMAT_INT16 = 9, TTX_FORMAT_FP8 = 10, TTX_FORMAT_BFP2A = 11,
	TTX_FORMAT_INT8 = 14, TTX_FORMAT_BFP2 = 15,
	TTX_FORMAT_UINT8 = 16,
};

/* How encoding rounds a value that the format cannot hold exactly:
   to nearest (ties to even, as IEEE and NumPy), to nearest with ties away
   from zero (the hardware's deterministic rounding), or toward zero.
   Values beyond the range saturate to the largest magnitude, except in
   FP32/TF32/BF16, where rounding to nearest overflows to Inf as in IEEE. */
enum ttx_rounding {
	TTX_ROUND_NEAREST_EVEN,
	TTX_ROUND_NEAREST_AWAY,
	TTX_ROUND_TRUNCATE,
};

/* "fp32", "tf32", "bf16", "fp16", "fp8", "bfp8", "bfp4", "bfp2", "bfp8a",
   "bfp4a", "bfp2a", "int8", "uint8", "int16", "int32"; NULL if not a format. */
TTX_API const char *ttx_format_name(enum ttx_format f);
/* The format of a name (case-insensitive; also "bfp8_b" etc. for BFP8 and
   "lf8" for FP8).  TTX_EINVAL if unknown. */
TTX_API enum ttx_status ttx_format_parse(const char *name, enum ttx_format *out);
/* L1 bytes of a flat run of n datums (BFP: the exponent section and the data,
   each padded to 16 bytes); 0 if f is not a format or the count does not
   fit a size_t. */
TTX_API size_t ttx_format_bytes(enum ttx_format f, size_t n);
/* L1 bytes of one 32x32 tile. */
TTX_API size_t ttx_format_tile_bytes(enum ttx_format f);

/* Encode n values into a flat run (BFP: n a multiple of 16).  TTX_EINVAL on
   a bad format, size or out_len < ttx_format_bytes(f, n).  The _int variants
   take integers (integer formats: exact up to saturation; float formats: the
   nearest value). */
TTX_API enum ttx_status ttx_format_encode(enum ttx_format f, enum ttx_rounding r, const float *in, size_t n,
                                          void *out, size_t out_len);
TTX_API enum ttx_status ttx_format_encode_int(enum ttx_format f, const int32_t *in, size_t n, void *out,
                                              size_t out_len);
/* Decode a flat run of n datums: every datum's exact value (FP16/FP8 with
   exponent 31 are numbers, not Inf/NaN; a BFP datum of sign 1 and magnitude 0
   is -Inf for BFP8/4/2 and -65536 for the A formats, TC/FloatBitPatterns.md). */
TTX_API enum ttx_status ttx_format_decode(enum ttx_format f, const void *in, size_t in_len, float *out, size_t n);
TTX_API enum ttx_status ttx_format_decode_int(enum ttx_format f, const void *in, size_t in_len, int32_t *out,
                                              size_t n);
/* A row-major rows x cols tensor (multiples of 32) to its tiled L1 image and
   back (rows / 32 * cols / 32 * ttx_format_tile_bytes(f) bytes). */
TTX_API enum ttx_status ttx_tilize(enum ttx_format f, enum ttx_rounding r, const float *in, size_t rows,
                                   size_t cols, void *out, size_t out_len);
TTX_API enum ttx_status ttx_tilize_int(enum ttx_format f, const int32_t *in, size_t rows, size_t cols, void *out,
                                       size_t out_len);
TTX_API enum ttx_status ttx_untilize(enum ttx_format f, const void *in, size_t in_len, float *out, size_t rows,
                                     size_t cols);
TTX_API enum ttx_status ttx_untilize_int(enum ttx_format f, const void *in, size_t in_len, int32_t *out,
                                         size_t rows, size_t cols);

/* ---- Tensor operations (docs/ops.md) ----
 * One operation on host float32 arrays, computed by the emulated tile: the
 * inputs are converted to `format` and tiled into L1 (ttx_tilize), a kernel
 * of the library (kernels/) runs on the tile's three threads, and the result
 * is read back from L1 in `out_format`.  No host arithmetic produces a
 * result.  Arrays are row-major batch x rows x cols; sizes that are not
 * multiples of 32 are padded (where the op allows it, docs/ops.md). */
enum ttx_fidelity {
	TTX_FIDELITY_LOFI,     /* phase 0 */
	TTX_FIDELITY_HIFI2,    /* phases 0-1 */
	TTX_FIDELITY_HIFI3,    /* phases 0-2 */
	TTX_FIDELITY_HIFI4,    /* phases 0-3 */
};
enum ttx_dim {
	TTX_DIM_ROWS,          /* along each row: the result has one column */
	TTX_DIM_COLS,          /* along each column: one row */
	TTX_DIM_ALL,           /* the whole matrix: 1 x 1 */
};
struct ttx_op_params {
	enum ttx_format format;      /* L1 format of the inputs */
	enum ttx_format out_format;  /* L1 format the tile writes the result in */
	enum ttx_fidelity fidelity;  /* matmul, mul */
	enum ttx_dim dim;            /* reduce_sum, reduce_max */
	double param;                /* leaky_relu slope, power exponent, layernorm epsilon */
	int has_param;               /* param was given (else the op's default) */
	/* Called between the kernel runs of an operation with the fraction
	   done; returning non-zero stops it (TTX_INTERRUPTED). */
	int (*progress)(void *ctx, double fraction);
	void *progress_ctx;
	/* Refuse (TTX_ENOMEM, nothing allocated) an operation whose memory,
	   as ttx_op_memory counts it, exceeds this many bytes; 0: no limit. */
	size_t max_memory;
	/* The kernels that drive the tile: TTX_KERNELS_ASM, the assembler
	   kernels of kernels/ pushed by the host; TTX_KERNELS_RISCV, the same
	   words pushed by C programs on RISCV T0-T2 (kernels/riscv/ops_*.c,
	   docs/riscv.md), whose results are the same bits. */
	enum ttx_kernels { TTX_KERNELS_ASM, TTX_KERNELS_RISCV } kernels;
	/* A grid of a chip's tiles (docs/ops.md "Grid operations"): 0 x 0
	   runs on the tile given to ttx_op_run, the host moving data, as
	   above; R x C (1-8 each) runs on that part of the 8 x 8 worker grid
	   of an emulated chip (an n150: two rows harvested) made for the op:
	   inputs and results in its DRAM, moved by data-movement kernels on
	   RISCV B and NC, computed by the C kernels on RISCV T0-T2 (kernels is
	   ignored); with shard, in each tile's L1 instead.  The tile given to
	   ttx_op_run is not used (it may be NULL). */
	unsigned grid_rows, grid_cols;
	int shard;
	unsigned threads;                  /* host threads stepping the grid (0: one per host core) */
	struct ttx_grid_stats *grid_stats; /* filled when not NULL */
	/* The chip to run a grid op on (its first grid_rows Tensix rows and
	   grid_cols columns; threads is then its own), kept from op to op so
	   a batch of ops does not make one each time; NULL: a chip made for
	   the op.  The op uses its tiles' L1 and its DRAM freely and resets
	   the chip's statistics (ttx_chip_stats_reset). */
	struct ttx_chip *chip;
};
/* A grid op's device time and where it went. */
struct ttx_grid_stats {
	uint64_t cycles;                   /* device cycles from the first kernel's start to the last one's end */
	unsigned rows, cols, phases;       /* the grid; kernel launches (data movement and compute) */
	uint64_t macs;                     /* Matrix Unit MACs over all tiles */
	uint64_t busy_by_unit[TTX_UNIT_COUNT];   /* unit busy cycles summed over the tiles */
	struct ttx_chip_stats chip;        /* the NoC and DRAM */
	double host_seconds;
};
/* bf16 inputs, fp32 result, HiFi4, rows, no param, assembler kernels. */
TTX_API void ttx_op_params_default(struct ttx_op_params *p);
struct ttx_tensor {
	float *data;
	size_t batch, rows, cols;
};
struct ttx_op_info {
	const char *name;
	unsigned min_inputs, max_inputs;
	const char *params;          /* the parameters it uses, for --list */
	const char *summary;
};
/* The operations; *n gets their number. */
TTX_API const struct ttx_op_info *ttx_op_list(size_t *n);
/* The result's shape for these inputs, or TTX_EINVAL with the reason. */
TTX_API enum ttx_status ttx_op_shape(const char *op, const struct ttx_tensor *in, unsigned nin,
                                     const struct ttx_op_params *p, size_t *batch, size_t *rows, size_t *cols,
                                     char *err, size_t errlen);
/* The bytes an operation needs on the host for these inputs: its result
   array and what ttx_op_run allocates while it runs (tiled copies of the
   inputs and the result, broadcast copies), computed from the shapes alone;
   *bytes is SIZE_MAX when the count overflows.  TTX_EINVAL as ttx_op_shape. */
TTX_API enum ttx_status ttx_op_memory(const char *op, const struct ttx_tensor *in, unsigned nin,
                                      const struct ttx_op_params *p, size_t *bytes, char *err, size_t errlen);
/* Run the operation on tile t (reset between kernel runs; its statistics
   accumulate).  out->data must hold the shape ttx_op_shape gives. */
TTX_API enum ttx_status ttx_op_run(struct ttx_tile *t, const char *op, const struct ttx_tensor *in, unsigned nin,
                                   const struct ttx_op_params *p, struct ttx_tensor *out, char *err, size_t errlen);

/* ---- The Tensil TCU (docs/tensil.md) ----
 * A second target: Tensil's Tensor Compute Unit, an open systolic-array
 * accelerator, as its reference emulator defines it, for .tprog programs
 * and .tarch architectures. */
enum ttx_tcu_dtype { TTX_TCU_FP16BP8, TTX_TCU_FP8BP4, TTX_TCU_FP18BP10, TTX_TCU_FP32BP16, TTX_TCU_FLOAT32 };
struct ttx_tcu_arch {
	enum ttx_tcu_dtype data_type;
	uint32_t array_size;
	uint64_t dram0_depth, dram1_depth, local_depth, accumulator_depth;   /* vectors */
	uint32_t simd_registers_depth, stride0_depth, stride1_depth, number_of_threads, thread_queue_depth;
};
/* A .tarch file's JSON (its 11 keys, each required): TTX_EINVAL naming the
   file, the place and the key at fault. */
TTX_API enum ttx_status ttx_tcu_arch_parse(const char *json, size_t len, const char *name, struct ttx_tcu_arch *out,
                                           char *err, size_t errlen);
/* Bytes of one value in memory images (little-endian two's complement, or
   an IEEE single for FLOAT32), of one instruction. */
TTX_API unsigned ttx_tcu_value_bytes(const struct ttx_tcu_arch *a);
TTX_API unsigned ttx_tcu_instruction_bytes(const struct ttx_tcu_arch *a);
TTX_API const char *ttx_tcu_dtype_name(enum ttx_tcu_dtype t);
struct ttx_tcu;
/* engine: TTX_ENGINE_INTERP, _JIT (compile every program before it runs)
   or _AUTO (programs run more than once). */
TTX_API enum ttx_status ttx_tcu_create(const struct ttx_tcu_arch *a, enum ttx_engine engine, struct ttx_tcu **out,
                                       char *err, size_t errlen);
TTX_API void ttx_tcu_destroy(struct ttx_tcu *t);
TTX_API const char *ttx_tcu_error(const struct ttx_tcu *t);
enum ttx_tcu_memory { TTX_TCU_LOCAL, TTX_TCU_ACCUMULATORS, TTX_TCU_DRAM0, TTX_TCU_DRAM1 };
/* vectors vectors from vector index `at` of a memory, as a memory image:
   array_size values of ttx_tcu_value_bytes a vector. */
TTX_API enum ttx_status ttx_tcu_write(struct ttx_tcu *t, enum ttx_tcu_memory m, uint64_t at, const void *data,
                                      uint64_t vectors);
TTX_API enum ttx_status ttx_tcu_read(struct ttx_tcu *t, enum ttx_tcu_memory m, uint64_t at, void *data,
                                     uint64_t vectors);
/* Run a .tprog program (name for messages; max_insns 0: no limit):
   TTX_EINVAL for a program that is not one (its file, instruction and
   field named), TTX_FAULT for one that goes wrong running (an address
   past a memory), TTX_LIMIT when max_insns ran out. */
TTX_API enum ttx_status ttx_tcu_run(struct ttx_tcu *t, const void *prog, size_t len, const char *name,
                                    uint64_t max_insns);
struct ttx_tcu_stats {
	uint64_t insns, insns_by_opcode[16];
	uint64_t macs;                 /* MatMul multiply-accumulates (array_size squared a vector) */
	uint64_t vectors_moved;        /* by DataMove, LoadWeights, LoadLUT */
	uint64_t cycles;               /* the estimate of docs/tensil.md "Cycles" */
	uint64_t insns_jit;            /* of insns, run as compiled code */
	double wall_seconds;
};
TTX_API void ttx_tcu_stats_get(const struct ttx_tcu *t, struct ttx_tcu_stats *out);
/* Assembler text (docs/tensil.md "Assembly") to a .tprog image (*prog
   malloc'ed, free it), and back; TTX_EINVAL with "name:line: ..." . */
TTX_API enum ttx_status ttx_tcu_assemble(const struct ttx_tcu_arch *a, const char *text, size_t len, const char *name,
                                         void **prog, size_t *prog_len, char *err, size_t errlen);
TTX_API enum ttx_status ttx_tcu_disassemble(const struct ttx_tcu_arch *a, const void *prog, size_t len,
                                            const char *name, char **text, char *err, size_t errlen);

/* Values between float and a memory image of the architecture's type:
   round to nearest (ties to even) and saturate; FLOAT32 as is. */
TTX_API void ttx_tcu_from_float(const struct ttx_tcu_arch *a, const float *in, void *image, size_t n);
TTX_API void ttx_tcu_to_float(const struct ttx_tcu_arch *a, const void *image, float *out, size_t n);
/* Called with each instruction's text before it runs (NULL: none). */
TTX_API void ttx_tcu_set_trace(struct ttx_tcu *t, void (*trace)(void *ctx, size_t index, const char *text),
                               void *ctx);

/* A compiled model (.tmodel, as Tensil's compiler writes it): the
   architecture, the program and its constants (.tdata), the inputs and
   outputs as vectors of DRAM0. */
struct ttx_tcu_model_io {
	char *name;
	uint64_t base, size;              /* vectors */
};
struct ttx_tcu_model {
	char *name;
	struct ttx_tcu_arch arch;
	char *program;                    /* the .tprog's path */
	struct ttx_tcu_model_const { char *path; uint64_t base, size; } *consts;
	size_t nconsts, ninputs, noutputs;
	struct ttx_tcu_model_io *inputs, *outputs;
	int load_consts_to_local;         /* the constants go to local memory, else DRAM1 */
};
/* Read a .tmodel (paths in it are relative to its folder): TTX_EINVAL
   naming the file, place and key at fault. */
TTX_API enum ttx_status ttx_tcu_model_load(const char *path, struct ttx_tcu_model **out, char *err, size_t errlen);
TTX_API void ttx_tcu_model_free(struct ttx_tcu_model *m);
/* Run it on t (made for m->arch): inputs[i] holds inputs[i].size x
   array_size floats, outputs[i] gets outputs[i].size x array_size. */
TTX_API enum ttx_status ttx_tcu_model_run(struct ttx_tcu *t, const struct ttx_tcu_model *m, const float *const *inputs,
                                          float *const *outputs);

/* This header's version (the library's: ttx_version() returns the same as
   a string, "MAJOR.MINOR.PATCH"). */
#define TTX_VERSION_MAJOR 0
#define TTX_VERSION_MINOR 1
#define TTX_VERSION_PATCH 0
TTX_API const char *ttx_version(void);
/* Non-zero when this build can compile code with LLVM (--engine jit). */
TTX_API int ttx_jit_available(void);

#ifdef __cplusplus
}
#endif

#endif
