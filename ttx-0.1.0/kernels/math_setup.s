# Thread 1's set-up for the SFPU kernels: semaphores (0: the input slot is
# free (TO_DST), 1: it is full, 2: free output slots (two), 3: full output
# slots); ALU formats (SrcA for MOVA2D, Dst for the packer); predication on
# with every lane enabled.  Dst32 rows: 0-63 input slot, 64-255 the
# kernel's own tiles, 256-383 output slots (OUT_ROW), 384-447 the SFPU
# functions' scratch (SCRATCH).
.equ OUT_ROW, 256
.equ SCRATCH, 384
SEMINIT 1, 1, 0b0001
SEMINIT 1, 0, 0b0010
SEMINIT 2, 2, 0b0100
SEMINIT 2, 0, 0b1000
.equ ALU, (SRCA_FMT << 17) | (PACK_INTER << 25)
SETDMAREG 0, ALU & 0xFFFF, 0, 32               # ALU_FORMAT_SPEC: SrcA (MOVA2D), Dstacc (the packer)
SETDMAREG 0, ALU >> 16, 0, 33
WRCFG 16, 0, 1
NOP
SFPENCC 3, 0, 0, 10
