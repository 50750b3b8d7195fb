# Softmax along the rows of NB bands of BT tiles (a band: one row of tiles,
# at IN_ADDR + (b BT + k) IN_TILE), the way LLK splits it (docs/ops.md):
#   1. the row maximum m: the band's tiles combined element-wise (max) in an
#      FP32 accumulator, then within the tile (red_rows.s) -> Dst32 MAXT;
#   2. s = sum of e^(x - m): the same over the band, then 1 / s (sfpu_recip.s)
#      -> Dst32 RCP;
#   3. each tile again: e^(x - m) (1 / s) -> an output slot -> L1 as OUT_FMT.
# The unpacker streams the band three times; padding columns hold -Inf (e^-Inf
# is 0).
#
# Symbols (app/ops.c): NB, BT, IN_FMT, IN_ADDR, IN_TILE, TO_DST, LOAD_MODE,
# SRCA_FMT, OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN, PACK_EXP.

.include "common.s"
.equ ACC, 64
.equ MAXT, 128
.equ RCP, 192

.thread 0
.include "in_setup.s"
.rept NB, B
.rept 3
.rept BT, K
.set TADDR, IN_ADDR + (B * BT + K) * IN_TILE
.include "in_unpack.s"
.endr
.endr
.endr

.thread 1
.include "math_setup.s"
.rept NB, B
# 1: m
.set ROP, 1
.rept BT, K
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
.if K > 0
SFPLOAD 1, LOAD_FP32, 0, ACC
.set RA, 0
.set RB, 1
.include "red_op.s"
.endif
SFPSTORE 0, LOAD_FP32, 1, ACC
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.endr
.set RSRC, ACC
.set RDST, MAXT
.include "red_rows.s"
# 2: 1 / s
.set ROP, 0
.rept BT, K
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
SFPLOAD 1, LOAD_FP32, 0, MAXT
SFPMOV 0, 1, 1, 1                              # -m
SFPADD 0, 10, 1, 0, 0                          # x - m
SFPNOP
.include "sfpu_exp.s"
.if K > 0
SFPLOAD 1, LOAD_FP32, 0, ACC
SFPADD 0, 10, 1, 0, 0
SFPNOP
.endif
SFPSTORE 0, LOAD_FP32, 1, ACC
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.endr
.set RSRC, ACC
.set RDST, RCP
.include "red_rows.s"
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, RCP
.include "sfpu_recip.s"
SFPSTORE 0, LOAD_FP32, 1, RCP
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
# 3: e^(x - m) / s
.rept BT, K
.set T, B * BT + K
.include "in_math.s"
.include "out_begin.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
SFPLOAD 1, LOAD_FP32, 0, MAXT
SFPMOV 0, 1, 1, 1
SFPADD 0, 10, 1, 0, 0
SFPNOP
.include "sfpu_exp.s"
SFPLOAD 1, LOAD_FP32, 0, RCP
SFPMUL 0, 1, 9, 0, 0
SFPNOP
SFPSTORE 0, LOAD_FP32, 1, OUT_ROW + 64 * (T % 2)
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.include "out_end.s"
.endr
.endr

.thread 2
.include "pack_setup.s"
.rept NB * BT, T
.set OADDR, OUT_ADDR + T * OUT_TILE
.include "out_pack.s"
.endr
