# L0 = 1 / sqrt(L0) (FN_RSQRT) or sqrt(L0) (FN_SQRT) (LReg 1-6 scratch).
# y0 = 0x5F3759DF - (x >> 1) as integers (within 0.2 % of 1/sqrt x), three
# Newton steps y = y (1.5 - (x y) y / 2) (relative error 1e-7); sqrt x = x y.
# +-0 and denormals -> +-Inf (rsqrt), +-0 (sqrt); x < 0 -> NaN; +Inf -> +0
# (rsqrt), +Inf (sqrt); NaN -> NaN.
SFPMOV 0, 0, 1, 0                              # L1 = x
SFPSHFT -1, 0, 1, 1                            # L1 = x >> 1 (integer)
SFPLOADI 2, 8, 0x5F37
SFPLOADI 2, 10, 0x59DF
SFPIADD 0, 2, 1, 6                             # L1 = L2 - L1 = y0
SFPLOADI 3, 0, 0xBF00                          # L3 = -1/2
SFPLOADI 4, 0, 0x3FC0                          # L4 = 3/2
.rept 3
SFPMUL 0, 1, 9, 5, 0                           # L5 = x y (not x/2 or y^2: they leave the
SFPNOP                                         #   normal range at its ends)
SFPMUL 5, 1, 9, 5, 0                           # L5 = x y^2
SFPNOP
SFPMAD 5, 3, 4, 5, 0                           # L5 = 3/2 - x/2 y^2
SFPNOP
SFPMUL 1, 5, 9, 1, 0                           # y = y L5
SFPNOP
.endr
.if FN == FN_SQRT
SFPMUL 0, 1, 9, 1, 0                           # L1 = x y = sqrt x
SFPNOP
.endif
SFPEXEXP 0, 0, 5, 1                            # L5 = the exponent field of x
SFPIADD -255, 5, 6, 5                          # L6 = L5 - 255
SFPSETCC 0, 6, 0, 6                            # where x is +-Inf or NaN:
.if FN == FN_SQRT
SFPMOV 0, 0, 1, 0                              #   x
.else
SFPLOADI 1, 0, 0                               #   +0
.endif
SFPENCC 0, 0, 0, 0
SFPSETCC 0, 0, 0, 0                            # where x < 0:
SFPLOADI 1, 8, 0x7FC0                          #   NaN
SFPLOADI 1, 10, 0
SFPENCC 0, 0, 0, 0
SFPLOADI 6, 8, 0x7F80                          # L6 = 0x7F800001
SFPLOADI 6, 10, 0x0001
SFPSETSGN 0, 0, 2, 1                           # L2 = |x|
SFPIADD 0, 2, 6, 10                            # where x is a NaN:
SFPMOV 0, 0, 1, 0                              #   x
SFPENCC 0, 0, 0, 0
SFPSETCC 0, 5, 0, 6                            # where x is +-0 or denormal:
.if FN == FN_SQRT
SFPLOADI 1, 0, 0                               #   0
.else
SFPLOADI 1, 0, 0x7F80                          #   Inf
.endif
SFPMOV 0, 0, 2, 0                              #   ... with x's sign
SFPSETSGN 0, 1, 2, 0
SFPMOV 0, 2, 1, 0
SFPENCC 0, 0, 0, 0
SFPMOV 0, 1, 0, 0                              # L0 = the result
