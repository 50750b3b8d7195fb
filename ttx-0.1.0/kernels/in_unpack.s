# Thread 0: the tile at L1 address TADDR into the input slot (in_setup.s):
# through SrcA with the dvalid handshake (in_math.s moves it to Dst16 rows
# 0-63), or into Dst32 rows 0-63 once the math thread has freed the slot
# (semaphore 0; semaphore 1 then says the slot is full).
.include "unpack_tile.s"
.if TO_DST
SEMWAIT B_SYNC | B_UNPACK, 0b0001, 1           # the slot is free
SEMGET 0b0001
UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1   # L1 -> Dst32 rows 0-63
STALLWAIT B_SYNC, C_UNPACK0
SEMPOST 0b0010                                 # the slot is full
.else
STALLWAIT B_UNPACK, C_SRCA_FREE                # the SrcA bank is back (dvalid)
UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1   # L1 -> SrcA, the bank to the Matrix Unit
.endif
