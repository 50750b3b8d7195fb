/* The baby RISC-V cores (interp/riscv.c) and their address map
 * (interp/riscv_mmio.c). */
#ifndef TTX_INTERP_RISCV_H
#define TTX_INTERP_RISCV_H

#include "tile.h"

/* A load or store of size 1, 2 or 4 by core (the address rounded down to
   the size): TTX_OK, TTX_BLOCKED when it must wait (from_host: refused
   with TTX_EINVAL instead), or a fault with the message in t->error. */
enum ttx_status ttx_rv_access(struct ttx_tile *t, unsigned core, uint32_t addr, unsigned size, int store,
                              uint32_t *value, int from_host);
/* Out of soft reset at pc, registers zeroed (TT/SoftReset.md). */
void ttx_rv_release(struct ttx_tile *t, unsigned core, uint32_t pc);
/* The pc a core starts at when released (the reset-PC overrides). */
uint32_t ttx_rv_reset_pc(const struct ttx_tile *t, unsigned core);
/* Give every live core a time slice (docs/riscv.md "Scheduling"): at most
   budget instructions in all (0: no bound); *executed counts them, and
   *moved is set when any core advanced.  A fault stops it. */
enum ttx_status ttx_rv_run(struct ttx_tile *t, uint64_t budget, uint64_t *executed, int *moved);
/* The latest cycle any agent has reached: where a core that waited takes
   up again (the event that released it happened by then), and where a
   released core starts. */
uint64_t ttx_rv_now(const struct ttx_tile *t);
/* Whether every live core waits on something nothing has touched since
   (running the tile would change nothing). */
int ttx_rv_all_waiting(const struct ttx_tile *t);
/* The decoded code, freed with the tile. */
void ttx_rv_free(struct ttx_tile *t);

#endif
