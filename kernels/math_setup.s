# Thread 1's set-up for the SFPU kernels: semaphores (0: the input slot is
# free (TO_DST), 1: it is full, 2: free output slots (two), 3: full output
# slots); ALU formats (SrcA for MOVA2D, Dst for the packer); predication on
# with every lane enabled.  Dst32 rows: 0-63 input slot, 64-255 the
# kernel's own tiles, 256-383 output slots (OUT_ROW), 384-447 the SFPU
# functions' scratch (SCRATCH).  A loop of 32 SFPU passes addresses Dst
# relative to the Dst RWC, 2 I for pass I: the last store of each pass
# steps it (ADDR_MOD 1) and a SETRWC after the loop puts it back, so every
# pass is the same words (one compiled pass, docs/jit.md).
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
SETC16 24, 2                                   # ADDR_MOD 1: Dst RWC += 2 (a pass's last store)
SETC16 25, 4                                   # ADDR_MOD 2: += 4, ADDR_MOD 3: += 20 (red_rows.s)
SETC16 26, 20
