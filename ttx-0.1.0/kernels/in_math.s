# Thread 1: wait for the next input tile and put it in the input slot, where
# SFPLOAD reads it as LOAD_MODE at rows 0-63 (Dst16 rows for the SrcA path,
# Dst32 rows for TO_DST), faces 1 and 2 exchanged with FACE_SWAP (the
# SrcA path).  in_done.s gives the slot back.
.if TO_DST
SEMWAIT B_SYNC | B_SFPU, 0b0010, 1             # the slot is full
SEMGET 0b0010
.else
STALLWAIT B_MATH, C_SFPU                       # the SFPU has finished with the slot
.if !defined(FACE_SWAP)
.set FACE_SWAP, 0
.endif
.rept 8, R
.set F, R / 2                                  # the face, and with FACE_SWAP faces 1 and 2 exchanged
.if FACE_SWAP && (F == 1 || F == 2)
.set F, 3 - F
.endif
MOVA2D 0, 8 * R, 0, 2, 16 * F + 8 * (R % 2)    # SrcA rows -> Dst16 rows (waits for the bank)
.endr
CLEARDVALID 1, 0                               # SrcA back to the unpacker
STALLWAIT B_SFPU, C_MATH                       # the moves are done before the SFPU reads
.endif
