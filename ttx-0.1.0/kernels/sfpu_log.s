# L0 = ln L0 (LReg 1-6 scratch).  x = 2^e m with m in [sqrt(1/2), sqrt(2)):
# ln x = e ln 2 + t P(t), t = m - 1, P a degree-8 fit of ln(1+t)/t
# (relative error 5e-8).  Special inputs, from the bits: +Inf -> +Inf,
# NaN -> NaN, x < 0 -> NaN, +-0 and denormals (which the SFPU reads as 0) -> -Inf.
SFPEXEXP 0, 0, 1, 1                            # L1 = the exponent field b
SFPSETEXP 127, 0, 2, 1                         # L2 = m in [1, 2)
SFPLOADI 3, 8, 0xBFB5                          # L3 = -sqrt(2)
SFPLOADI 3, 10, 0x04F3
SFPADD 2, 10, 3, 3, 0                          # L3 = m - sqrt(2)
SFPNOP
SFPSETCC 0, 3, 0, 4                            # where m >= sqrt(2):
SFPSETEXP 126, 2, 2, 1                         #   m / 2
SFPIADD 1, 1, 1, 5                             #   b + 1
SFPENCC 0, 0, 0, 0
SFPADD 2, 10, 11, 2, 0                         # L2 = t = m - 1 (LReg 11 = -1)
SFPCAST 1, 1, 0                                # L1 = b as FP32
SFPLOADI 3, 8, 0xC2FE                          # L3 = -127
SFPLOADI 3, 10, 0
SFPADD 1, 10, 3, 1, 0                          # L1 = e = b - 127 (exact)
SFPLOADI 4, 8, 0x3DB3                          # c8
SFPLOADI 4, 10, 0x1375
SFPLOADI 5, 8, 0xBE13                          # c7
SFPLOADI 5, 10, 0x394F
SFPMAD 4, 2, 5, 4, 0
SFPLOADI 5, 8, 0x3E19                          # c6
SFPLOADI 5, 10, 0x1428
SFPMAD 4, 2, 5, 4, 0
SFPLOADI 5, 8, 0xBE29                          # c5
SFPLOADI 5, 10, 0x94DF
SFPMAD 4, 2, 5, 4, 0
SFPLOADI 5, 8, 0x3E4C                          # c4
SFPLOADI 5, 10, 0x5C05
SFPMAD 4, 2, 5, 4, 0
SFPLOADI 5, 8, 0xBE80                          # c3
SFPLOADI 5, 10, 0x02D3
SFPMAD 4, 2, 5, 4, 0
SFPLOADI 5, 8, 0x3EAA                          # c2
SFPLOADI 5, 10, 0xABC8
SFPMAD 4, 2, 5, 4, 0
SFPLOADI 5, 8, 0xBEFF                          # c1
SFPLOADI 5, 10, 0xFFFC
SFPMAD 4, 2, 5, 4, 0
SFPNOP
SFPMAD 4, 2, 10, 4, 0                          # c0 = 1: L4 = P(t)
SFPNOP
SFPMUL 4, 2, 9, 4, 0                           # L4 = t P(t)
SFPLOADI 5, 8, 0x3F31                          # L5 = ln 2
SFPLOADI 5, 10, 0x7218
SFPMAD 1, 5, 4, 5, 0                           # L5 = e ln 2 + t P(t)
SFPNOP
SFPEXEXP 0, 0, 6, 1                            # L6 = the exponent field of x
SFPIADD -255, 6, 6, 5                          # L6 - 255
SFPSETCC 0, 6, 0, 6                            # where it is 255 (Inf, NaN):
SFPMOV 0, 0, 5, 0                              #   x
SFPENCC 0, 0, 0, 0
SFPSETCC 0, 0, 0, 0                            # where x < 0 (the sign bit):
SFPLOADI 5, 8, 0x7FC0                          #   NaN
SFPLOADI 5, 10, 0
SFPENCC 0, 0, 0, 0
SFPEXEXP 0, 0, 6, 1
SFPSETCC 0, 6, 0, 6                            # where the exponent field is 0 (+-0, denormals):
SFPLOADI 5, 0, 0xFF80                          #   -Inf
SFPENCC 0, 0, 0, 0
SFPMOV 0, 5, 0, 0                              # L0 = the result
