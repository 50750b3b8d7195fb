# Thread 1: wait for the next input tile and put it in the input slot, where
# SFPLOAD reads it as LOAD_MODE at rows 0-63 (Dst16 rows for the SrcA path,
# Dst32 rows for TO_DST).  in_done.s gives the slot back.
.if TO_DST
SEMWAIT B_SYNC | B_SFPU, 0b0010, 1             # the slot is full
SEMGET 0b0010
.else
STALLWAIT B_MATH, C_SFPU                       # the SFPU has finished with the slot
.rept 8, R
MOVA2D 0, 8 * R, 0, 2, 8 * R                   # SrcA rows -> Dst16 rows (waits for the bank)
.endr
CLEARDVALID 1, 0                               # SrcA back to the unpacker
STALLWAIT B_SFPU, C_MATH                       # the moves are done before the SFPU reads
.endif
