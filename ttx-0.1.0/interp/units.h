/* Entry points of the execution units other than the SFPU (interp/sfpu.h). */
#ifndef TTX_INTERP_UNITS_H
#define TTX_INTERP_UNITS_H

#include "tile.h"

/* Execute one instruction of the unit: TTX_OK, TTX_BLOCKED (the thread
   waits and retries the same instruction later) or a fault. */
int ttx_scalar_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_sync_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
int ttx_config_exec(struct ttx_tile *t, unsigned thread, uint32_t word);

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

/* The wait gate (TC/STALLWAIT.md, TC/SEMWAIT.md): TTX_BLOCKED when the
   thread's latched wait blocks `word`, else TTX_OK.  Called for every
   instruction before it executes. */
int ttx_sync_gate(struct ttx_tile *t, unsigned thread, uint32_t word);

#endif
