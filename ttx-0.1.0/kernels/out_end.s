# Thread 1: the output slot is written (semaphore 3 for out_pack.s).
STALLWAIT B_SYNC, C_SFPU
SEMPOST 0b1000
