/* Sync Unit (TC/SyncUnit.md) and the per-thread wait gate: STALLWAIT, SEMWAIT, semaphores, mutexes. */
#include "tile.h"
#include "units.h"

int ttx_sync_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}

int ttx_sync_gate(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)t, (void)thread, (void)word;
	return TTX_OK;
}
