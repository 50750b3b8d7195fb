# The SFPU function FN applied to LReg 0 (FP32), one 32-datum pass; LReg 1-7
# are scratch, and so is Dst32 row SCRATCH of the pass (its Dst addresses
# are relative to the Dst RWC, 2 I for pass I: unary.s).  Every
# function ends with no MAD result pending on LReg 0 (TC/SFPMAD.md: its
# result may not be read on the next cycle).
.if FN == FN_EXP
.include "sfpu_exp.s"
.endif
.if FN == FN_LOG
.include "sfpu_log.s"
.endif
.if FN == FN_RECIP
.include "sfpu_recip.s"
.endif
.if FN == FN_SQRT || FN == FN_RSQRT
.include "sfpu_rsqrt.s"
.endif
.if FN == FN_SIGMOID
SFPMOV 0, 0, 0, 1                              # L0 = -x
.include "sfpu_exp.s"
SFPADD 0, 10, 10, 0, 0                         # 1 + e^-x
SFPNOP
.include "sfpu_recip.s"
.endif
.if FN == FN_TANH
.include "sfpu_tanh.s"
.endif
.if FN == FN_GELU
.include "sfpu_gelu.s"
.endif
.if FN == FN_GELU_TANH
# x * sigmoid(2 k (x + 0.044715 x^3)), k = sqrt(2 / pi): the tanh form
SFPMOV 0, 0, 7, 0                              # L7 = x
SFPMUL 0, 0, 9, 1, 0                           # L1 = x^2
SFPLOADI 2, 8, 0x3D37                          # L2 = 0.044715
SFPLOADI 2, 10, 0x2713
SFPMAD 1, 2, 10, 1, 0                          # L1 = 1 + 0.044715 x^2
SFPLOADI 2, 8, 0xBFCC                          # L2 = -2 sqrt(2/pi) = -1.5957691
SFPLOADI 2, 10, 0x422A
SFPMUL 0, 2, 9, 0, 0                           # L0 = -2 k x
SFPNOP
SFPMUL 0, 1, 9, 0, 0                           # L0 = -2 k x (1 + 0.044715 x^2)
SFPNOP
.include "sfpu_exp.s"
SFPADD 0, 10, 10, 0, 0                         # 1 + e^(-z)
SFPNOP
.include "sfpu_recip.s"
SFPMUL 0, 7, 9, 0, 0                           # x sigmoid(z)
SFPNOP
.endif
.if FN == FN_SILU
SFPMOV 0, 0, 7, 0                              # L7 = x
SFPMOV 0, 0, 0, 1                              # L0 = -x
.include "sfpu_exp.s"
SFPADD 0, 10, 10, 0, 0
SFPNOP
.include "sfpu_recip.s"
SFPMUL 0, 7, 9, 0, 0                           # x sigmoid(x)
SFPNOP
.endif
.if FN == FN_RELU
SFPSETCC 0, 0, 0, 0                            # where x < 0 (the sign bit: -0 too)
SFPLOADI 0, 0, 0                               #   0
SFPENCC 0, 0, 0, 0
.endif
.if FN == FN_LEAKY_RELU
SFPSETCC 0, 0, 0, 0                            # where x < 0
SFPLOADI 1, 8, PARAM >> 16                     #   x * slope
SFPLOADI 1, 10, PARAM & 0xFFFF
SFPMUL 0, 1, 9, 0, 0
SFPNOP
SFPENCC 0, 0, 0, 0
.endif
.if FN == FN_ABS
SFPABS 0, 0, 0, 1
.endif
.if FN == FN_SQUARE
SFPMUL 0, 0, 9, 0, 0
SFPNOP
.endif
.if FN == FN_POWER
.include "sfpu_power.s"
.endif
.if FN == FN_NEG
SFPMOV 0, 0, 0, 1
.endif
