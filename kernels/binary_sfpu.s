# C = A op B element-wise on the SFPU, in FP32 (op = EOP: 0 add, 1 sub,
# 2 mul), for FP32 operands: the Matrix Unit would read them as TF32 and
# align the addends 10 bits below the larger (docs/ops.md).  NT units of
# two tiles, A then B (the host repeats broadcast operands), through the
# input slot (in_unpack.s); A is kept in Dst32 rows 64-127.
#
# Symbols (app/ops.c): NT, EOP, IN_FMT, IN_ADDR, IN_TILE, TO_DST, LOAD_MODE,
# SRCA_FMT, OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN, PACK_EXP.

.include "common.s"
.equ ACC, 64

.thread 0
.include "in_setup.s"
.rept 2 * NT, T
.set TADDR, IN_ADDR + T * IN_TILE
.include "in_unpack.s"
.endr

.thread 1
.include "math_setup.s"
.rept NT, T
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
SFPSTORE 0, LOAD_FP32, 1, ACC
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.include "in_math.s"
.include "out_begin.s"
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, ACC
SFPLOAD 1, LOAD_MODE, 0, 0
.if EOP == 0
SFPADD 0, 10, 1, 0, 0
.endif
.if EOP == 1
SFPMOV 0, 1, 1, 1
SFPADD 0, 10, 1, 0, 0
.endif
.if EOP == 2
SFPMUL 0, 1, 9, 0, 0
.endif
SFPNOP
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
