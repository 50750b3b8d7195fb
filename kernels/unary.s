# Unary SFPU operation over NT tiles: L1 -> Dst -> SFPU -> Dst -> L1, three
# threads as an LLK compute kernel runs them (docs/ops.md):
#   thread 0 (unpack)  tile t at IN_ADDR + t * IN_TILE into SrcA (16-bit
#                      formats, with the dvalid handshake) or, for FP32 and
#                      TF32 (TO_DST), straight into Dst32 rows 0-63;
#   thread 1 (math)    SrcA -> Dst16 rows 0-63 (MOVA2D); 32 SFPU passes of 32
#                      datums: SFPLOAD (LOAD_MODE), the function (sfpu_fn.s,
#                      FN), SFPSTORE as FP32 to Dst32 rows 64-127;
#   thread 2 (pack)    Dst32 rows 64-127 -> L1 at OUT_ADDR + t * OUT_TILE as
#                      OUT_FMT.
# Semaphores: 0 Dst input rows free, 1 input in Dst (TO_DST), 2 Dst output
# rows free, 3 output in Dst.  Dst32 rows 128-191 are the function's scratch
# (SCRATCH).
#
# Symbols (src/ops.c): NT, IN_FMT, IN_ADDR, IN_TILE, TO_DST, LOAD_MODE,
# SRCA_FMT, OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN, PACK_EXP, FN,
# PARAM (the function's parameter as FP32 bits).

.include "common.s"
.equ SCRATCH, 128

# ---- thread 0: unpack ----
.thread 0
.if !TO_DST
SETC16 3, 4                                    # SRCA_SET_SetOvrdWithAddr (not to Dst: it masks the row)
.endif
.set U, 0
.set U_FMT, IN_FMT
.set U_OUT, IN_FMT
.set U_TO_DST, TO_DST
.include "unpack_setup.s"
SETADCXX 1, 1023, 0
.rept NT, T
.set TADDR, IN_ADDR + T * IN_TILE
.include "unpack_tile.s"
.if TO_DST
SEMWAIT B_SYNC | B_UNPACK, 0b0001, 1           # Dst input rows free
SEMGET 0b0001
UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1   # L1 -> Dst32 rows 0-63
STALLWAIT B_SYNC, C_UNPACK0
SEMPOST 0b0010                                 # input in Dst
.else
STALLWAIT B_UNPACK, C_SRCA_FREE                # the SrcA bank is back (dvalid)
UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1   # L1 -> SrcA, the bank to the Matrix Unit
.endif
.endr

# ---- thread 1: math ----
.thread 1
SEMINIT 1, 1, 0b0001                           # 0: input rows free
SEMINIT 1, 0, 0b0010                           # 1: input in Dst
SEMINIT 1, 1, 0b0100                           # 2: output rows free
SEMINIT 1, 0, 0b1000                           # 3: output in Dst
.equ ALU, (SRCA_FMT << 17) | (PACK_INTER << 25)
SETDMAREG 0, ALU & 0xFFFF, 0, 32               # ALU_FORMAT_SPEC: SrcA (MOVA2D), Dstacc (the packer)
SETDMAREG 0, ALU >> 16, 0, 33
WRCFG 16, 0, 1
NOP
SFPENCC 3, 0, 0, 10                            # predication on, every lane enabled
.rept NT, T
.if TO_DST
SEMWAIT B_SYNC | B_SFPU, 0b0010, 1             # input in Dst
SEMGET 0b0010
.else
.rept 8, R
MOVA2D 0, 8 * R, 0, 2, 8 * R                   # SrcA rows -> Dst16 rows (waits for the bank)
.endr
CLEARDVALID 1, 0                               # SrcA back to the unpacker
STALLWAIT B_SFPU, C_MATH                       # the moves are done before the SFPU reads Dst
.endif
SEMWAIT B_SYNC | B_SFPU, 0b0100, 1             # output rows free
SEMGET 0b0100
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 2 * I
.include "sfpu_fn.s"
SFPSTORE 0, LOAD_FP32, 0, 64 + 2 * I
.endr
STALLWAIT B_SYNC, C_SFPU
.if TO_DST
SEMPOST 0b0001                                 # input rows free
.endif
SEMPOST 0b1000                                 # output in Dst
.endr

# ---- thread 2: pack ----
.thread 2
.include "pack_setup.s"
.rept NT, T
SEMWAIT B_SYNC | B_PACK, 0b1000, 1             # output in Dst
SEMGET 0b1000
SETDMAREG 0, ((OUT_ADDR + T * OUT_TILE) / 16 - 1) & 0xFFFF, 0, 40
SETDMAREG 0, ((OUT_ADDR + T * OUT_TILE) / 16 - 1) >> 16, 0, 41
WRCFG 20, 0, 57                                # THCON_SEC0_REG1_L1_Dest_addr
NOP
PACR 0, 0, 1, 0, 0, 0, 1                       # Dst32 rows 64-127 -> L1, Last
STALLWAIT B_SYNC, C_PACK0
SEMPOST 0b0100                                 # output rows free
.endr
