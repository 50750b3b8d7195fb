# L0 = tanh L0 (LReg 1-7 scratch).  |x| >= 0.55: 1 - 2 / (1 + e^(2|x|)), with
# x's sign; |x| < 0.55: x P(x^2), P a degree-4 fit of tanh(x)/x (relative
# error 6e-8), so small arguments keep their relative precision.
SFPMOV 0, 0, 7, 0                              # L7 = x
SFPSETSGN 0, 0, 0, 1                           # L0 = |x|
SFPADD 0, 10, 0, 0, 0                          # L0 = 2|x|
SFPNOP
.include "sfpu_exp.s"
SFPADD 0, 10, 10, 0, 0                         # 1 + e^(2|x|)
SFPNOP
.include "sfpu_recip.s"
SFPLOADI 1, 0, 0xC000                          # L1 = -2
SFPMAD 0, 1, 10, 0, 0                          # L0 = 1 - 2 / (1 + e^(2|x|)) = tanh |x|
SFPNOP
SFPMOV 0, 7, 1, 0                              # L1 = x
SFPSETSGN 0, 0, 1, 0                           # L1 = tanh |x| with x's sign
SFPMOV 0, 1, 0, 0
SFPSETSGN 0, 7, 1, 1                           # L1 = |x|
SFPLOADI 2, 8, 0xBF0C                          # L2 = -0.55
SFPLOADI 2, 10, 0xCCCD
SFPADD 1, 10, 2, 2, 0                          # L2 = |x| - 0.55
SFPNOP
SFPSETCC 0, 2, 0, 0                            # where |x| < 0.55:
SFPMUL 7, 7, 9, 1, 0                           #   L1 = u = x^2
SFPLOADI 2, 8, 0x3C85                          #   c4
SFPLOADI 2, 10, 0xB9FF
SFPLOADI 3, 8, 0xBD57                          #   c3
SFPLOADI 3, 10, 0x6D5F
SFPMAD 2, 1, 3, 2, 0                           #   P = c4 u + c3
SFPLOADI 3, 8, 0x3E08                          #   c2
SFPLOADI 3, 10, 0x62E6
SFPMAD 2, 1, 3, 2, 0
SFPLOADI 3, 8, 0xBEAA                          #   c1
SFPLOADI 3, 10, 0xA9F8
SFPMAD 2, 1, 3, 2, 0
SFPLOADI 3, 8, 0x3F7F                          #   c0
SFPLOADI 3, 10, 0xFFFF
SFPMAD 2, 1, 3, 2, 0
SFPNOP
SFPMUL 7, 2, 9, 0, 0                           #   L0 = x P(x^2)
SFPNOP
SFPENCC 0, 0, 0, 0
