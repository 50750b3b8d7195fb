# Thread 1: the SFPU is done with the input slot (in_math.s).
.if TO_DST
STALLWAIT B_SYNC, C_SFPU
SEMPOST 0b0001                                 # the slot is free
.endif
