# L0 = L0^PARAM (LReg 1-6 scratch).  An integer exponent of magnitude P_ABS
# <= 31 (P_INT): square and multiply, and a reciprocal for a negative one
# (P_NEG): 0^0 = 1.  A larger integer exponent (P_BIGINT): e^(p ln |x|)
# with the sign of x when p is odd (P_ODD; L7 keeps x).  Any other
# exponent: e^(p ln x), so x < 0 gives NaN, x = 0 gives 0 (p > 0) or +Inf
# (p < 0).
.if P_INT
SFPLOADI 1, 0, 0x3F80                          # L1 = 1
SFPMOV 0, 0, 2, 0                              # L2 = x
.rept 5, K
.if (P_ABS >> K) & 1
SFPMUL 1, 2, 9, 1, 0                           # L1 *= x^(2^K)
SFPNOP
.endif
.if P_ABS >> (K + 1)
SFPMUL 2, 2, 9, 2, 0                           # L2 = x^(2^(K+1))
SFPNOP
.endif
.endr
SFPMOV 0, 1, 0, 0
.if P_NEG
.include "sfpu_recip.s"
.endif
.else
.if P_BIGINT
SFPMOV 0, 0, 7, 0                              # L7 = x
SFPSETSGN 0, 0, 0, 1                           # L0 = |x|
.endif
.include "sfpu_log.s"
SFPLOADI 1, 8, PARAM >> 16                     # L1 = p
SFPLOADI 1, 10, PARAM & 0xFFFF
SFPMUL 0, 1, 9, 0, 0                           # p ln x
SFPNOP
.include "sfpu_exp.s"
.if P_BIGINT && P_ODD
SFPSETSGN 0, 0, 7, 0                           # L7 = |L0| with the sign of x
SFPMOV 0, 7, 0, 0
.endif
.endif
