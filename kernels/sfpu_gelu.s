# L0 = gelu(L0) = x Phi(x), Phi(x) = (1 + erf(x / sqrt 2)) / 2 (LReg 1-7 and
# the pass's scratch row).  With z = |x| / sqrt 2, t = 1 / (1 + p z) and
# Q = (a1 t + ... + a5 t^5) e^(-z^2) (Abramowitz & Stegun 7.1.26: Q is
# 1 - erf z within 1.5e-7), Phi = 1 - Q/2 for x >= 0 and Q/2 for x < 0.
SFPMOV 0, 0, 7, 0                              # L7 = x
SFPSETSGN 0, 0, 0, 1                           # L0 = |x|
SFPLOADI 1, 8, 0x3E6D                          # L1 = p / sqrt 2 = 0.2316419
SFPLOADI 1, 10, 0x3388
SFPMAD 0, 1, 10, 0, 0                          # L0 = 1 + p z
SFPNOP
.include "sfpu_recip.s"                        # L0 = t
SFPSTORE 0, LOAD_FP32, 0, SCRATCH               # keep t
SFPLOADI 1, 0, 0xBF00                          # L1 = -1/2
SFPMUL 7, 1, 9, 1, 0                           # L1 = -x/2
SFPNOP
SFPMUL 7, 1, 9, 0, 0                           # L0 = -x^2/2 = -z^2
SFPNOP
.include "sfpu_exp.s"                          # L0 = e^(-z^2)
SFPLOAD 1, LOAD_FP32, 0, SCRATCH                # L1 = t
SFPLOADI 2, 8, 0x3F87                          # a5 = 1.061405429
SFPLOADI 2, 10, 0xDC22
SFPLOADI 3, 8, 0xBFBA                          # a4 = -1.453152027
SFPLOADI 3, 10, 0x00E3
SFPMAD 2, 1, 3, 2, 0
SFPLOADI 3, 8, 0x3FB5                          # a3 = 1.421413741
SFPLOADI 3, 10, 0xF0E3
SFPMAD 2, 1, 3, 2, 0
SFPLOADI 3, 8, 0xBE91                          # a2 = -0.284496736
SFPLOADI 3, 10, 0xA98E
SFPMAD 2, 1, 3, 2, 0
SFPLOADI 3, 8, 0x3E82                          # a1 = 0.254829592
SFPLOADI 3, 10, 0x7906
SFPMAD 2, 1, 3, 2, 0
SFPNOP
SFPMUL 2, 1, 9, 2, 0                           # L2 = t (a1 + ... + a5 t^4)
SFPNOP
SFPMUL 2, 0, 9, 2, 0                           # L2 = Q
SFPLOADI 3, 0, 0xBF00                          # L3 = -1/2
SFPMAD 2, 3, 10, 0, 0                          # L0 = 1 - Q/2
SFPNOP
SFPSETCC 0, 7, 0, 0                            # where x < 0:
SFPLOADI 3, 0, 0x3F00
SFPMUL 2, 3, 9, 0, 0                           #   L0 = Q/2
SFPNOP
SFPENCC 0, 0, 0, 0
SFPMUL 7, 0, 9, 0, 0                           # x Phi(x)
SFPNOP
