/* Entry points of the execution units other than the SFPU (interp/sfpu.h). */
#ifndef TTX_INTERP_UNITS_H
#define TTX_INTERP_UNITS_H

#include "tile.h"

/* Execute one instruction of the unit: TTX_OK, TTX_BLOCKED (the thread
   waits and retries the same instruction later) or a fault. */
int ttx_scalar_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_sync_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_config_exec(struct ttx_tile *t, unsigned thread, uint32_t word);

/* The wait gate (TC/STALLWAIT.md, TC/SEMWAIT.md): TTX_BLOCKED when the
   thread's latched wait blocks `word`, else TTX_OK.  Called for every
   instruction before it executes. */
int ttx_sync_gate(struct ttx_tile *t, unsigned thread, uint32_t word);

#endif
