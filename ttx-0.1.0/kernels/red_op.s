# LReg RA = RA op LReg RB, op = ROP: 0 sum (SFPADD), 1 max (SFPSWAP: RA gets
# the larger, RB the smaller).  Both results take two cycles (TC/SFPMAD.md,
# TC/SFPSWAP.md), hence the SFPNOP.
.if ROP == 0
SFPADD RA, 10, RB, RA, 0
.else
SFPSWAP 0, RA, RB, 1
.endif
SFPNOP
