/* The JIT: blocks of SFPU instructions compiled to native 32-lane code with
 * LLVM (docs/jit.md).
 *   jit/cache.c  which blocks exist (pipe runs, replay playbacks, MOP
 *                expansions), the code cache and its keys, tiering, running
 *                a compiled block in place of the interpreter;
 *   jit/emit.c   LLVM IR for a block, one emitter per instruction, with a
 *                call into the interpreter for what is not emitted natively;
 *   jit/orc.c    ORC LLJIT set-up, the optimisation pipeline, symbol lookup.
 * Builds without LLVM (--disable-jit) use jit/nojit.c instead. */
#ifndef TTX_JIT_H
#define TTX_JIT_H

#include <stddef.h>
#include <stdint.h>

struct ttx_tile;
struct ttx_jit;

/* Fill in the JIT's entries of the tile's entry points (or none, when it is not
   to be used: --engine interp, --strict, tracing, a build without LLVM),
   taking a reference to the cache in the tile's options. */
void ttx_jit_attach(struct ttx_tile *t);
/* Wait until the compile thread has compiled everything queued to it
   (--engine auto; for tests and benchmarks). */
void ttx_jit_wait(struct ttx_tile *t);

/* ---- between the files of the JIT ---- */

/* A compiled block: returns 0, or (index + 1) << 8 | code when it stopped
   at the instruction at index (in program order): code is the status of
   its fault, or one of these two (ttx_jit_call_unit): */
#define TTX_JIT_STALL 0xFE   /* it must wait: not executed, it goes to the front end's slot */
#define TTX_JIT_YIELD 0xFD   /* it ran, and another thread may act now */
typedef uint32_t (*ttx_block_fn)(struct ttx_tile *t, uint32_t thread);

/* What a block executes: a straight run of words, or a MOP expansion whose
   loops the code keeps (TC/MOPExpander.md). */
struct ttx_block_desc {
	const uint32_t *words;        /* straight run */
	size_t nwords;
	int is_mop;                   /* MOP: template 0 or 1 from mop_word */
	uint32_t mop_word, mop_cfg[9];
	uint16_t mask_hi;
	uint32_t row_masked;          /* lanes ROW_MASK disables (LaneConfig) */
	int fast_numerics;
};

/* Whether the JIT can take word into a block (natively or through the
   interpreter), and whether it is emitted natively. */
int ttx_jit_can_take(uint32_t word);
int ttx_jit_is_native(uint32_t word);
/* A Matrix Unit, unpacker or packer instruction: taken into blocks, the
   interpreter running it (ttx_jit_call_unit), where it may stop the block
   (a MOP's expansion then goes on in the interpreter). */
int ttx_jit_is_unit_word(uint32_t word);

/* Build the LLVM module for a block and compile it (jit/emit.c, jit/orc.c).
   NULL on failure with a message in err. */
struct ttx_orc;
struct ttx_orc *ttx_orc_new(char *err, size_t errlen);
void ttx_orc_free(struct ttx_orc *o);
ttx_block_fn ttx_orc_compile(struct ttx_orc *o, const struct ttx_block_desc *d, char *err, size_t errlen);

/* The calls compiled code makes back into ttx (jit/cache.c). */
uint32_t ttx_jit_call_interp(struct ttx_tile *t, uint32_t thread, uint32_t word);
uint32_t ttx_jit_call_unit(struct ttx_tile *t, uint32_t thread, uint32_t word);
void ttx_jit_call_mad(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t enable);

/* Offsets of the state compiled code touches. */
size_t ttx_jit_offset_lreg(unsigned r);
size_t ttx_jit_offset_lane_flags(void);
size_t ttx_jit_offset_use_lane_flags(void);
size_t ttx_jit_offset_flag_stack(unsigned depth, int use);   /* entry depth: LaneFlags or Use */
size_t ttx_jit_offset_flag_stack_size(void);                /* uint8_t[32] */

#endif
