.equ N, 3
.set X, N * 2
.rept N, I
SETC16 0, X + I
.endr
.if defined(N) && N > 2
SFPNOP
.else
NOP
.endif
.include "common.s"
SETC16 1, FMT_BF16 | (C_SFPU >> 4)
