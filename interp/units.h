/* Entry points of the execution units other than the SFPU (interp/sfpu.h),
 * and of the interpreter as a whole (interp/exec.c). */
#ifndef TTX_INTERP_UNITS_H
#define TTX_INTERP_UNITS_H

#include "tile.h"

/* Fill in the tile's entry points with the interpreter's and create
   the units' own state (TTX_ENOMEM when it cannot). */
enum ttx_status ttx_interp_attach(struct ttx_tile *t);
/* Execute one instruction of a thread: TTX_OK when it retired; TTX_BLOCKED
   when the thread must wait. */
int ttx_interp_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
/* The instruction's handler alone (no wait gate, no SFPLOADMACRO cycle):
   what a compiled block calls for an instruction it does not emit. */
int ttx_interp_exec_unit(struct ttx_tile *t, unsigned thread, uint32_t word);
/* Idle cycles when no thread can issue: lets scheduled work finish.
   *ran is set when anything executed. */
int ttx_interp_idle(struct ttx_tile *t, int *ran);

/* Execute one instruction of the unit: TTX_OK, TTX_BLOCKED (the thread
   waits and retries the same instruction later) or a fault. */
int ttx_scalar_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_sync_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_config_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
/* The immediate effects of a write to Config[bank][word] by WRCFG, RMWCIB
   (by_rmwcib set) or a RISC-V store, made after the word is stored
   (TC/BackendConfiguration.md "Special cases"; interp/config.c).  Host writes
   through ttx_cfg_write have none: they set the storage only. */
void ttx_cfg_write_effects(struct ttx_tile *t, unsigned bank, unsigned word, int by_rmwcib);

/* The Matrix Unit (interp/matrix.c): one entry point per opcode isa.def
   gives it, plus SETDVALID (a Miscellaneous Unit instruction that hands
   Src banks to the Matrix Unit). */
int ttx_matrix_MOVD2A(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MOVDBGA2D(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MOVD2B(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MOVB2A(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_ZEROACC(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_ZEROSRC(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MOVA2D(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MOVB2D(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_TRNSPSRCA(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_RAREB(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_TRNSPSRCB(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SHIFTXA(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SHIFTXB(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETASHRMH0(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETASHRMH1(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETASHRMV(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETPKEDGOF(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETASHRMH(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_CLREXPHIST(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_CONV3S1(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_CONV3S2(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MPOOL3S1(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_APOOL3S1(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MVMUL(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_ELWMUL(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_ELWADD(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_DOTPV(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_ELWSUB(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MPOOL3S2(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_APOOL3S2(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_GMPOOL(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_GAPOOL(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_GATESRCRST(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_CLEARDVALID(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETRWC(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_INCRWC(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETIBRWC(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_MFCONV3S1(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_matrix_SETDVALID(struct ttx_tile *t, unsigned thread, uint32_t word);

/* The Miscellaneous Unit (interp/adc.c): the ADC instructions, SETDVALID. */
int ttx_misc_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
/* REG2FLOP's ADC mode (TC/REG2FLOP_ADC.md). */
int ttx_adc_reg2flop(struct ttx_tile *t, unsigned thread, uint32_t word);

/* The unpackers (interp/unpack.c), the packers (interp/pack.c), the mover
   (interp/mover.c). */
int ttx_unpack_UNPACR(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_unpack_UNPACR_NOP(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_pack_PACR(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_pack_PACR_SETREG(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_pack_TBUFCMD(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_mover_XMOV(struct ttx_tile *t, unsigned thread, uint32_t word);
/* SETDMAREG's special InputSource 0-9 (TC/SETDMAREG_Special.md): the packer
   state as Values[4]. */
void ttx_pack_special_values(struct ttx_tile *t, unsigned thread, unsigned source, unsigned which_packers,
                             uint32_t values[4]);
/* TDMA-RISC registers, 0xFFB11000-0xFFB11FFF (TT/TDMA-RISC.md). */
enum ttx_status ttx_tdma_mmio_write(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t value);
enum ttx_status ttx_tdma_mmio_read(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t *value);

#endif
