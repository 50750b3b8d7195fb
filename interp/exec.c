/* The interpreter's dispatch: one instruction word to the code that runs it,
 * through one table indexed by opcode (built from src/isa.def, so a single
 * indirect call per instruction).  Every documented instruction has its
 * unit's handler; an undocumented opcode (no TTX_VIEW in isa.def) stops the
 * run with a fault naming it (ttx_fault_undocumented). */
#include <stdlib.h>

#include "tile.h"
#include "sfpu.h"
#include "units.h"
#include "matrix_fp.h"
#include "riscv.h"

typedef int (*handler_fn)(struct ttx_tile *t, unsigned thread, uint32_t word);

static int exec_undocumented(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_undocumented(t, thread, word);
}

/* TC/STALLWAIT.md: NOP does nothing (it is only held back by a STALLWAIT
   whose block mask has every bit set, which the wait gate handles). */
static int exec_nop(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)t, (void)thread, (void)word;
	return TTX_OK;
}

/* Only an expander's output can bring MOP, MOP_CFG or REPLAY here (a MOP
   template or replay buffer holding one): undefined. */
static int exec_frontend(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u was emitted by the MOP or replay "
	                "expander and reached the backend (undefined behaviour, TC/REPLAY.md)",
	                ttx_isa_insn(word >> 24)->mnemonic, word, thread);
}

#define HANDLER_SFPU(m)     ttx_sfpu_##m
#define HANDLER_SCALAR(m)   ttx_scalar_exec
#define HANDLER_SYNC(m)     ttx_sync_exec
#define HANDLER_CONFIG(m)   ttx_config_exec
#define HANDLER_FRONTEND(m) exec_frontend
#define HANDLER_MISC(m)     ttx_misc_exec
#define HANDLER_MATRIX(m)   ttx_matrix_##m
#define HANDLER_UNPACK(m)   ttx_unpack_##m
#define HANDLER_PACK(m)     ttx_pack_##m
#define HANDLER_MOVER(m)    ttx_mover_##m

static const handler_fn handlers[256] = {
#define TTX_INSN(m, op, unit, syn, fields) [op] = HANDLER_##unit(m),
#define TTX_LAYOUT(name, page, fields)
#define TTX_VIEW(m, layout, mask, match)
#define F(n, lo, w)
#define NO_FIELDS
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT
#undef TTX_VIEW
#undef F
#undef NO_FIELDS
};

static inline int dispatch(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	unsigned op = word >> 24;
	if (op == TTX_OP_NOP)
		return exec_nop(t, thread, word);
	if (t->opt.strict && ttx_isa_insns[op].unit == TTX_UNIT_SFPU)
		return ttx_sfpu_exec(t, thread, word);   /* with the hazard check */
	handler_fn h = handlers[op];
	return h ? h(t, thread, word) : exec_undocumented(t, thread, word);
}

/* SFPLOADMACRO's schedule and the STALLWAIT gates before the instruction
   (out of line: the common path then needs no stack frame). */
static __attribute__((noinline)) int exec_scheduled(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	if (t->sfpu.nsched) {
		int discard, r = ttx_sfpu_macro_cycle(t, word, &discard);
		if (r != TTX_OK || discard)
			return r;
	}
	if (t->wait_gate[0].opcode | t->wait_gate[1].opcode | t->wait_gate[2].opcode) {
		int gate = ttx_wait_gate_check(t, thread, word);
		if (gate != TTX_OK)
			return gate;
	}
	return dispatch(t, thread, word);
}

int ttx_interp_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	if (t->sfpu.nsched | t->wait_gate[0].opcode | t->wait_gate[1].opcode | t->wait_gate[2].opcode)
		return exec_scheduled(t, thread, word);
	return dispatch(t, thread, word);
}

int ttx_interp_exec_unit(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	handler_fn h = handlers[word >> 24];
	return h ? h(t, thread, word) : exec_undocumented(t, thread, word);
}

int ttx_interp_idle(struct ttx_tile *t, int *ran)
{
	return ttx_sfpu_macro_drain(t, ran);
}

static void units_free(struct ttx_tile *t)
{
	free(t->srca_cache);
	t->srca_cache = NULL;
	ttx_rv_free(t);
}

enum ttx_status ttx_interp_attach(struct ttx_tile *t)
{
	t->srca_cache = calloc(1, sizeof(*t->srca_cache));
	if (!t->srca_cache)
		return TTX_ENOMEM;
	t->entry.exec = ttx_interp_exec;
	t->entry.idle = ttx_interp_idle;
	t->entry.access = ttx_rv_access;
	t->entry.cores_run = ttx_rv_run;
	t->entry.core_release = ttx_rv_release;
	t->entry.units_free = units_free;
	return TTX_OK;
}
