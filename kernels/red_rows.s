# Reduce (ROP) each row of the FP32 tile at Dst32 rows RSRC.. and write the
# result to every column of that row of the tile at RDST.. (RDST may be
# RSRC).  Per group of 4 rows: the four 8-lane loads of the row's 32
# columns (left / right face, even / odd columns) combined, then the 8 lanes
# of each row combined by rotating them (SFPSHFT2 SUBVEC_SHFLROR1) by 1, 2
# and 4, so that every lane ends with the whole row.  LReg 0-3.  The
# groups address Dst relative to the Dst RWC (from 0: math_setup.s), so
# each is the same words.
.rept 8, G
SFPLOAD 0, LOAD_FP32, 0, RSRC                  # Dst RWC = the group's 32 (G / 4) + 4 (G % 4)
SFPLOAD 1, LOAD_FP32, 0, RSRC + 2
SFPLOAD 2, LOAD_FP32, 0, RSRC + 16
SFPLOAD 3, LOAD_FP32, 0, RSRC + 18
.set RA, 0
.set RB, 1
.include "red_op.s"
.set RA, 2
.set RB, 3
.include "red_op.s"
.set RA, 0
.set RB, 2
.include "red_op.s"
.set RB, 1
.rept 3, S
SFPSHFT2 0, 0, 1, 3                            # L1 = L0 rotated by one lane
SFPNOP
.rept (1 << S) - 1
SFPSHFT2 0, 1, 1, 3                            # ... by 2^S lanes
SFPNOP
.endr
.include "red_op.s"
.endr
SFPSTORE 0, LOAD_FP32, 0, RDST
SFPSTORE 0, LOAD_FP32, 0, RDST + 2
SFPSTORE 0, LOAD_FP32, 0, RDST + 16
.if G % 4 == 3
SFPSTORE 0, LOAD_FP32, 3, RDST + 18            # ADDR_MOD 3: the next 4 groups, 20 rows on
.else
SFPSTORE 0, LOAD_FP32, 2, RDST + 18            # ADDR_MOD 2: the next group, 4 rows on
.endif
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0
