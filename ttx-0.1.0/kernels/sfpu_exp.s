# L0 = e^L0 (LReg 1-6 scratch).  n = round(x / ln 2), by adding 1.5 * 2^23;
# r = x - n ln 2 with ln 2 in two parts (n ln2_hi is exact); e^r by a
# degree-6 polynomial (|r| <= ln(2)/2: relative error 2e-8); 2^n added to the
# exponent field as an integer.  x >= 88.72284 (ln FLT_MAX) gives +Inf,
# x < -87.33655 (ln 2^-126) +0 (the SFPU has no denormals), NaN stays NaN.
SFPLOADI 1, 8, 0x3FB8                          # L1 = 1 / ln 2
SFPLOADI 1, 10, 0xAA3B
SFPLOADI 2, 8, 0x4B40                          # L2 = 1.5 * 2^23
SFPLOADI 2, 10, 0x0000
SFPMAD 0, 1, 2, 1, 0                           # L1 = x / ln 2 + 1.5 * 2^23: n in the low bits
SFPLOADI 2, 8, 0xCB40                          # L2 = -1.5 * 2^23
SFPADD 1, 10, 2, 2, 0                          # L2 = n
SFPLOADI 3, 8, 0xBF31                          # L3 = -ln2_hi = -0.693145751953125
SFPLOADI 3, 10, 0x7200
SFPMAD 2, 3, 0, 3, 0                           # L3 = x - n ln2_hi
SFPLOADI 4, 8, 0xB5BF                          # L4 = -ln2_lo
SFPLOADI 4, 10, 0xBE8E
SFPMAD 2, 4, 3, 3, 0                           # L3 = r
SFPLOADI 4, 8, 0x3AB6                          # c6
SFPLOADI 4, 10, 0xD3AC
SFPLOADI 5, 8, 0x3C09                          # c5
SFPLOADI 5, 10, 0x37D6
SFPMAD 4, 3, 5, 4, 0                           # p = c6 r + c5
SFPLOADI 5, 8, 0x3D2A                          # c4
SFPLOADI 5, 10, 0xAA32
SFPMAD 4, 3, 5, 4, 0
SFPLOADI 5, 8, 0x3E2A                          # c3
SFPLOADI 5, 10, 0xAA02
SFPMAD 4, 3, 5, 4, 0
SFPLOADI 5, 0, 0x3F00                          # c2 = 1/2
SFPMAD 4, 3, 5, 4, 0
SFPNOP
SFPMAD 4, 3, 10, 4, 0                          # c1 = 1
SFPNOP
SFPMAD 4, 3, 10, 4, 0                          # c0 = 1: L4 = e^r
SFPLOADI 5, 8, 0x4B40                          # L5 = 0x4B400000
SFPLOADI 5, 10, 0x0000
SFPIADD 0, 1, 5, 6                             # L5 = L1 - L5 = n (integer)
SFPSHFT 23, 0, 5, 1                            # L5 = n << 23
SFPIADD 0, 4, 5, 4                             # L5 = e^r * 2^n (exponent field + n)
SFPLOADI 6, 8, 0xC2B1                          # L6 = -88.72284
SFPLOADI 6, 10, 0x7218
SFPADD 0, 10, 6, 6, 0                          # L6 = x - 88.72284
SFPNOP
SFPSETCC 0, 6, 0, 4                            # where x >= 88.72284:
SFPLOADI 5, 0, 0x7F80                          #   +Inf
SFPENCC 0, 0, 0, 0
SFPLOADI 6, 8, 0x42AE                          # L6 = 87.33655
SFPLOADI 6, 10, 0xAC50
SFPADD 0, 10, 6, 6, 0                          # L6 = x + 87.33655
SFPNOP
SFPSETCC 0, 6, 0, 0                            # where x < -87.33655:
SFPLOADI 5, 0, 0                               #   +0
SFPENCC 0, 0, 0, 0
SFPSETSGN 0, 0, 6, 1                           # L6 = |x| (sign cleared)
SFPLOADI 1, 8, 0x7F80                          # L1 = 0x7F800001
SFPLOADI 1, 10, 0x0001
SFPIADD 0, 6, 1, 10                            # where |x| (integer) - L1 >= 0, a NaN:
SFPMOV 0, 0, 5, 0                              #   x
SFPENCC 0, 0, 0, 0
SFPMOV 0, 5, 0, 0                              # L0 = the result
