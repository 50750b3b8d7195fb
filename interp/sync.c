/* Sync Unit (TC/SyncUnit.md): STALLWAIT, SEMWAIT (which latch a wait in the
 * thread's Wait Gate, src/wait_gate.c), SEMINIT, SEMPOST, SEMGET, ATGETM,
 * ATRELM.
 *
 * - SEMWAIT can replace a latched wait when the latched block mask lacks B1
 *   (TC/SEMWAIT.md); STALLWAIT is blocked by every block bit, so it always
 *   waits until the previous wait is forgotten.
 * - ATGETM / ATRELM wait at the Wait Gate by returning TTX_BLOCKED.  The
 *   scheduler's order gives the page's fairness: after thread i releases a
 *   mutex, (i + 1) % 3 has the next turn.  Among threads waiting for a free
 *   mutex, the first in round order acquires it.  The "maybe wait a cycle or
 *   two" of the functional models is not modelled.  An invalid index
 *   (1 or > 7) waits forever: the run ends as a deadlock naming the
 *   instruction.
 * - RDCFG hardware bug (TC/RDCFG.md): "simultaneous" means issued in the same
 *   scheduler round.  The first RDCFG of a round (lowest thread) executes; an
 *   RDCFG of a later thread that passes the gate in that round is dropped
 *   (retires without writing its GPR); interp/config.c, with the round
 *   counter of src/run.c. */
#include <string.h>

#include "tile.h"
#include "units.h"

/* ---- Latched waits ---- */

/* TC/STALLWAIT.md functional model, including the mask-0 defaults. */
static int exec_stallwait(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_STALLWAIT a = ttx_decode_STALLWAIT(word);
	struct ttx_wait_gate *g = &t->wait_gate[thread];
	g->opcode = TTX_OP_STALLWAIT;
	g->condition_mask = (uint16_t)(a.ConditionMask ? a.ConditionMask : 0x7F);
	g->block_mask = (uint16_t)(a.BlockMask ? a.BlockMask : 1u << 6);
	g->semaphore_mask = 0;
	return TTX_OK;
}

/* TC/SEMWAIT.md: ConditionMask 0 latches a STALLWAIT with conditions 0x7F. */
static int exec_semwait(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SEMWAIT a = ttx_decode_SEMWAIT(word);
	struct ttx_wait_gate *g = &t->wait_gate[thread];
	if (a.ConditionMask) {
		g->opcode = TTX_OP_SEMWAIT;
		g->condition_mask = (uint16_t)a.ConditionMask;
		g->semaphore_mask = (uint8_t)a.SemaphoreMask;
	} else {
		g->opcode = TTX_OP_STALLWAIT;
		g->condition_mask = 0x7F;
		g->semaphore_mask = 0;
	}
	g->block_mask = (uint16_t)(a.BlockMask ? a.BlockMask : 1u << 6);
	return TTX_OK;
}

/* ---- Semaphores (TC/SEMINIT.md, TC/SEMPOST.md, TC/SEMGET.md) ---- */

static int exec_seminit(struct ttx_tile *t, uint32_t word)
{
	struct ttx_args_SEMINIT a = ttx_decode_SEMINIT(word);
	for (unsigned i = 0; i < 8; i++)
		if (a.SemaphoreMask & (1u << i)) {
			t->semaphores[i].value = (uint8_t)a.NewValue;
			t->semaphores[i].max = (uint8_t)a.NewMax;
		}
	return TTX_OK;
}

static int exec_sempost(struct ttx_tile *t, uint32_t word)
{
	struct ttx_args_SEMPOST a = ttx_decode_SEMPOST(word);
	for (unsigned i = 0; i < 8; i++)
		if ((a.SemaphoreMask & (1u << i)) && t->semaphores[i].value < 15)
			t->semaphores[i].value++;
	return TTX_OK;
}

static int exec_semget(struct ttx_tile *t, uint32_t word)
{
	struct ttx_args_SEMGET a = ttx_decode_SEMGET(word);
	for (unsigned i = 0; i < 8; i++)
		if ((a.SemaphoreMask & (1u << i)) && t->semaphores[i].value > 0)
			t->semaphores[i].value--;
	return TTX_OK;
}

/* ---- Mutexes (TC/ATGETM.md, TC/ATRELM.md) ---- */

static int valid_mutex(unsigned index)
{
	return index != 1 && index <= 7;
}

static int exec_atgetm(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	unsigned index = ttx_decode_ATGETM(word).Index;
	if (!valid_mutex(index))
		return TTX_BLOCKED;          /* "Invalid index causes infinite wait." */
	int8_t *owner = &t->mutex_owner[index];
	if (*owner >= 0 && *owner != (int8_t)thread)
		return TTX_BLOCKED;          /* held by another thread */
	*owner = (int8_t)thread;
	return TTX_OK;
}

static int exec_atrelm(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	unsigned index = ttx_decode_ATRELM(word).Index;
	if (!valid_mutex(index))
		return TTX_BLOCKED;          /* "Invalid index causes infinite wait." */
	if (t->mutex_owner[index] == (int8_t)thread)
		t->mutex_owner[index] = -1;
	return TTX_OK;                   /* not the holder: completes, no change */
}

int ttx_sync_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	switch (word >> 24) {
	case TTX_OP_STALLWAIT: return exec_stallwait(t, thread, word);
	case TTX_OP_SEMWAIT:   return exec_semwait(t, thread, word);
	case TTX_OP_SEMINIT:   return exec_seminit(t, word);
	case TTX_OP_SEMPOST:   return exec_sempost(t, word);
	case TTX_OP_SEMGET:    return exec_semget(t, word);
	case TTX_OP_ATGETM:    return exec_atgetm(t, thread, word);
	case TTX_OP_ATRELM:    return exec_atrelm(t, thread, word);
	default:               return ttx_fault_undocumented(t, thread, word);
	}
}
