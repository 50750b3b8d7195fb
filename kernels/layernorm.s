# Layer norm along the rows of NB bands of BT tiles (a band: one row of
# tiles at IN_ADDR + (b BT + k) IN_TILE), in three passes over the band
# (docs/ops.md):
#   1. mean = (sum of x) / N -> Dst32 MEAN (red_rows.s, then a product);
#   2. var = (sum of (x - mean)^2) / N - PADC mean^2 (PADC = padding columns
#      / N: they hold 0 and added mean^2 each), rstd = 1 / sqrt(var + EPS)
#      (sfpu_rsqrt.s) -> Dst32 RSTD;
#   3. y = (x - mean) rstd, and with AFFINE y gamma + beta (gamma and beta:
#      rows repeated down their tiles, BT tiles each at G_ADDR, BETA_ADDR,
#      streamed after each x tile) -> an output slot -> L1 as OUT_FMT.
#
# Symbols (app/ops.c): NB, BT, INV_N, PADC, EPS (FP32 bits), AFFINE, G_ADDR,
# BETA_ADDR, IN_FMT, IN_ADDR, IN_TILE, TO_DST, LOAD_MODE, SRCA_FMT,
# OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN, PACK_EXP.

.include "common.s"
.equ ACC, 64
.equ MEAN, 128
.equ RSTD, 192
.set ROP, 0
.set FN, FN_RSQRT

.thread 0
.include "in_setup.s"
.rept NB, B
.rept 2
.rept BT, K
.set TADDR, IN_ADDR + (B * BT + K) * IN_TILE
.include "in_unpack.s"
.endr
.endr
.rept BT, K
.set TADDR, IN_ADDR + (B * BT + K) * IN_TILE
.include "in_unpack.s"
.if AFFINE
.set TADDR, G_ADDR + K * IN_TILE
.include "in_unpack.s"
.set TADDR, BETA_ADDR + K * IN_TILE
.include "in_unpack.s"
.endif
.endr
.endr

.thread 1
.include "math_setup.s"
.rept NB, B
# 1: mean
.rept BT, K
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
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
.set RDST, MEAN
.include "red_rows.s"
SFPLOADI 2, 8, INV_N >> 16
SFPLOADI 2, 10, INV_N & 0xFFFF
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, MEAN
SFPMUL 0, 2, 9, 0, 0
SFPNOP
SFPSTORE 0, LOAD_FP32, 1, MEAN
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
# 2: rstd
.rept BT, K
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
SFPLOAD 1, LOAD_FP32, 0, MEAN
SFPMOV 0, 1, 1, 1
SFPADD 0, 10, 1, 0, 0                          # x - mean
SFPNOP
.if K > 0
SFPLOAD 1, LOAD_FP32, 0, ACC
SFPMAD 0, 0, 1, 0, 0                           # + (x - mean)^2
.else
SFPMUL 0, 0, 9, 0, 0
.endif
SFPNOP
SFPSTORE 0, LOAD_FP32, 1, ACC
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.endr
.set RSRC, ACC
.set RDST, RSTD
.include "red_rows.s"
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, RSTD
SFPLOAD 1, LOAD_FP32, 0, MEAN
SFPLOADI 2, 8, INV_N >> 16
SFPLOADI 2, 10, INV_N & 0xFFFF
SFPMUL 0, 2, 9, 0, 0                           # sum / N
SFPLOADI 2, 8, (PADC >> 16) ^ 0x8000
SFPLOADI 2, 10, PADC & 0xFFFF
SFPMUL 1, 1, 9, 1, 0                           # mean^2
SFPNOP
SFPMAD 1, 2, 0, 0, 0                           # - PADC mean^2
SFPLOADI 2, 8, EPS >> 16
SFPLOADI 2, 10, EPS & 0xFFFF
SFPNOP
SFPADD 0, 10, 2, 0, 0                          # + EPS
SFPNOP
.include "sfpu_rsqrt.s"
SFPSTORE 0, LOAD_FP32, 1, RSTD
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
# 3: y
.rept BT, K
.set T, B * BT + K
.set O, OUT_ROW + 64 * (T % 2)
.include "in_math.s"
.include "out_begin.s"
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
SFPLOAD 1, LOAD_FP32, 0, MEAN
SFPMOV 0, 1, 1, 1
SFPADD 0, 10, 1, 0, 0
SFPLOAD 1, LOAD_FP32, 0, RSTD
SFPNOP
SFPMUL 0, 1, 9, 0, 0
SFPNOP
SFPSTORE 0, LOAD_FP32, 1, O
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.if AFFINE
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, O
SFPLOAD 1, LOAD_MODE, 0, 0
SFPMUL 0, 1, 9, 0, 0                           # gamma
SFPNOP
SFPSTORE 0, LOAD_FP32, 1, O
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.include "in_math.s"
.rept 32, I
SFPLOAD 0, LOAD_FP32, 0, O
SFPLOAD 1, LOAD_MODE, 0, 0
SFPADD 0, 10, 1, 0, 0                          # beta
SFPNOP
SFPSTORE 0, LOAD_FP32, 1, O
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.endif
.include "out_end.s"
.endr
.endr

.thread 2
.include "pack_setup.s"
.rept NB * BT, T
.set OADDR, OUT_ADDR + T * OUT_TILE
.include "out_pack.s"
.endr
