# Thread 1: wait for a free output slot (semaphore 2); the next tile goes to
# Dst32 rows OUT_ROW + 64 (T % 2), as out_pack.s expects.
SEMWAIT B_SYNC | B_SFPU, 0b0100, 1
SEMGET 0b0100
