# L0 = 1 / L0 (LReg 1-6 scratch).  y0 = 0x7EF311C7 - |x| as integers (within
# 12 % of 1/|x|), three Newton steps y = y (2 - |x| y) (relative error 1e-7),
# the sign of x.  +-0 and denormals -> +-Inf; |x| >= 2^126 -> +-0 (1/x is
# below FP32's normal range, or FLT_MIN itself for 2^126); +-Inf -> +-0;
# NaN -> NaN.
SFPSETSGN 0, 0, 1, 1                           # L1 = |x|
SFPSETSGN 0, 0, 3, 1                           # L3 = |x|
SFPLOADI 2, 8, 0x7EF3
SFPLOADI 2, 10, 0x11C7
SFPIADD 0, 2, 3, 6                             # L3 = L2 - L3 = y0
SFPSETSGN 1, 0, 4, 1                           # L4 = -|x|
SFPLOADI 6, 0, 0x4000                          # L6 = 2
.rept 3
SFPMAD 4, 3, 6, 5, 0                           # L5 = 2 - |x| y
SFPNOP
SFPMUL 3, 5, 9, 3, 0                           # y = y L5
SFPNOP
.endr
SFPEXEXP 0, 1, 5, 1                            # L5 = the exponent field of |x|
SFPSETCC 0, 5, 0, 6                            # where it is 0:
SFPLOADI 3, 0, 0x7F80                          #   +Inf
SFPENCC 0, 0, 0, 0
SFPIADD -253, 5, 5, 5
SFPSETCC 0, 5, 0, 4                            # where it is 253 or more:
SFPLOADI 3, 0, 0                               #   +0
SFPENCC 0, 0, 0, 0
SFPLOADI 5, 8, 0x7F80                          # L5 = 0x7F800001
SFPLOADI 5, 10, 0x0001
SFPIADD 0, 1, 5, 10                            # where |x| is a NaN:
SFPMOV 0, 1, 3, 0                              #   |x|
SFPENCC 0, 0, 0, 0
SFPSETSGN 0, 3, 0, 0                           # L0 = |y| with the sign of x
