# Reduce (ROP) each column of the FP32 tile at Dst32 rows RSRC.. and write
# the result to every row of that column of the tile at RDST.. (RDST may be
# RSRC).  LReg j (0-3) gathers the column group j (left / right face,
# even / odd columns) over the 8 groups of 4 rows; SFPTRANSP then puts
# group j's four partial rows in lane row j of LReg 0-3, combining them
# leaves group j's columns in lane row j of LReg 0, and a second SFPTRANSP
# of four copies spreads lane row j over all of LReg j.  LReg 0-4.
SFPLOAD 0, LOAD_FP32, 0, RSRC
SFPLOAD 1, LOAD_FP32, 0, RSRC + 2
SFPLOAD 2, LOAD_FP32, 0, RSRC + 16
SFPLOAD 3, LOAD_FP32, 0, RSRC + 18
.set RB, 4
.rept 7, G
.set R0, 32 * ((G + 1) / 4) + 4 * ((G + 1) % 4)
.rept 4, J
SFPLOAD 4, LOAD_FP32, 0, RSRC + R0 + 16 * (J / 2) + 2 * (J % 2)
.set RA, J
.include "red_op.s"
.endr
.endr
SFPTRANSP 0, 0, 0, 0
.set RA, 0
.set RB, 1
.include "red_op.s"
.set RA, 2
.set RB, 3
.include "red_op.s"
.set RA, 0
.set RB, 2
.include "red_op.s"
SFPMOV 0, 0, 1, 0
SFPMOV 0, 0, 2, 0
SFPMOV 0, 0, 3, 0
SFPTRANSP 0, 0, 0, 0
.rept 8, G
.set R0, 32 * (G / 4) + 4 * (G % 4)
.rept 4, J
SFPSTORE J, LOAD_FP32, 0, RDST + R0 + 16 * (J / 2) + 2 * (J % 2)
.endr
.endr
