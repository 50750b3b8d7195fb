# Transpose of NT tiles, as LLK does it: the unpacker transposes each 16 x 16
# face on its way to SrcA (Haloize_mode), the moves to Dst exchange faces 1
# and 2 (in_math.s FACE_SWAP), the SFPU copies the tile to an FP32 output
# slot and the packer writes it as OUT_FMT.  Haloize_mode needs SrcA (it is
# undefined when unpacking to Dst), whose 19 bits hold no FP32 datum, so
# with PLANES an FP32 tile comes as two INT16 tiles, its high halves and its
# low halves (app/ops.c splits the bytes), moved unchanged (sign-magnitude
# INT16 is a bit shuffle in SrcA; Zero_Flag_disabled_src stops MOVA2D
# flushing) and joined again by the SFPU (SFPLOAD HI16, then LO16_ONLY).
#
# Symbols (app/ops.c): NT, PLANES, IN_FMT, IN_ADDR, IN_TILE, LOAD_MODE,
# SRCA_FMT, OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN, PACK_EXP.

.include "common.s"
.equ TO_DST, 0
.equ U_HALO, 1
.equ FACE_SWAP, 1
.equ ACC, 64
.equ LOAD_HI16, 7
.equ LOAD_LO16_ONLY, 14

.thread 0
.include "in_setup.s"
.rept NT * (1 + PLANES), T
.set TADDR, IN_ADDR + T * IN_TILE
.include "in_unpack.s"
.endr

.thread 1
.include "math_setup.s"
.if PLANES
SETDMAREG 0, 1, 0, 34                          # ALU_ACC_CTRL_Zero_Flag_disabled_src
SETDMAREG 0, 0, 0, 35
WRCFG 17, 0, 2
NOP
.endif
.rept NT, T
.if PLANES
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_HI16, 0, 0                 # the high halves, in place
SFPSTORE 0, LOAD_FP32, 1, ACC
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.endif
.include "in_math.s"
.include "out_begin.s"
.rept 32, I
.if PLANES
SFPLOAD 0, LOAD_FP32, 0, ACC
SFPLOAD 0, LOAD_LO16_ONLY, 0, 0            # the low halves joined to them
.else
SFPLOAD 0, LOAD_MODE, 0, 0
.endif
SFPSTORE 0, LOAD_FP32, 1, OUT_ROW + 64 * (T % 2)
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.include "out_end.s"
.endr

.thread 2
.include "pack_setup.s"
.rept NT, T
.set OADDR, OUT_ADDR + T * OUT_TILE
.include "out_pack.s"
.endr
