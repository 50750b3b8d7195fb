# Reduction (ROP: 0 sum, 1 max) of NB bands of BT tiles each (a band is the
# tiles one result tile reduces: a row of tiles for DIM 0, a column of
# tiles for DIM 1, all of a matrix for DIM 2; the host lays each band out
# in order at IN_ADDR + (b BT + t) IN_TILE).  The math thread combines the
# band's tiles element-wise into an FP32 accumulator tile (Dst32 rows
# 64-127), then reduces it within the tile (red_rows.s, red_cols.s) into an
# output slot, the result repeated along the reduced dimension (DIM 3: no
# reduction within the tile; the accumulator is the result).
#
# Symbols (app/ops.c): NB, BT, DIM, ROP, IN_FMT, IN_ADDR, IN_TILE, TO_DST,
# LOAD_MODE, SRCA_FMT, OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN,
# PACK_EXP.

.include "common.s"
.equ ACC, 64

.thread 0
.include "in_setup.s"
.rept NB * BT, T
.set TADDR, IN_ADDR + T * IN_TILE
.include "in_unpack.s"
.endr

.thread 1
.include "math_setup.s"
.rept NB, T
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
.include "out_begin.s"
.set RSRC, ACC
.set RDST, OUT_ROW + 64 * (T % 2)
.if DIM == 0 || DIM == 2
.include "red_rows.s"
.set RSRC, RDST
.endif
.if DIM == 1 || DIM == 2
.include "red_cols.s"
.endif
.if DIM == 3                                   # a part of a long band: the accumulator itself
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, ACC
SFPSTORE 0, LOAD_FP32, 1, RDST
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.endif
.include "out_end.s"
.endr

.thread 2
.include "pack_setup.s"
.rept NB, T
.set OADDR, OUT_ADDR + T * OUT_TILE
.include "out_pack.s"
.endr
