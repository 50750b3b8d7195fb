# C = A op B element-wise over NT tiles, op = EOP: 0 add (ELWADD), 1 sub
# (ELWSUB), 2 mul (ELWMUL, PHASES fidelity phases), B broadcast by BCAST:
# 0 none, 1 its row 0 down the rows, 2 its column 0 along the columns,
# 3 its [0][0] everywhere (TC/ELWADD.md: BroadcastSrcBRow, BroadcastSrcBCol0).
#   thread 0 (unpack)  tile t of A (IN_ADDR + 2t IN_TILE) into SrcA, of B
#                      (the next tile: the host interleaves them, repeating
#                      broadcast tiles) into SrcB, with the dvalid handshake;
#   thread 1 (math)    8 ELW instructions of 8 rows a phase into an FP32 Dst
#                      slot (Dst32 rows 64 s, s = 1, 2), recorded once in
#                      the replay buffer and played for each tile;
#   thread 2 (pack)    the slot to OUT_ADDR + t OUT_TILE as OUT_FMT.
# SrcA group r (rows 8r..8r+7) lies in face r / 2; the SrcB row it pairs
# with is 8r (none), 16 (face % 2) (row 0 of A's column half), 32 (face / 2)
# + 8 (r % 2) (column 0 of A's row half) or 0 (scalar).  The ADDR_MODs step
# the counters from one to the next; the last clears them (and counts a
# fidelity phase).
#
# Symbols (app/ops.c): NT, EOP, BCAST, PHASES, IN_FMT, SRC_FMT, IN_ADDR,
# IN_TILE, OUT_ADDR, OUT_TILE, OUT_FMT, PACK_INTER, PACK_IN, PACK_EXP.

.include "common.s"

# ---- thread 0: unpack ----
.thread 0
SETC16 3, 4                                    # SRCA_SET_SetOvrdWithAddr: SrcA rows 0-63 by address
.set U_FMT, IN_FMT
.set U_OUT, SRC_FMT
.set U_TO_DST, 0
.set U, 0
.include "unpack_setup.s"
.set U, 1
.include "unpack_setup.s"
SETADCXX 3, 1023, 0
.rept NT, T
.set U, 0
.set TADDR, IN_ADDR + 2 * T * IN_TILE
.include "unpack_tile.s"
.set U, 1
.set TADDR, IN_ADDR + (2 * T + 1) * IN_TILE
.include "unpack_tile.s"
STALLWAIT B_UNPACK, C_SRCA_FREE | C_SRCB_FREE
UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1
UNPACR 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1
.endr

# ---- thread 1: math ----
.thread 1
SEMINIT 2, 2, 0b0100                           # 2: free slots
SEMINIT 2, 0, 0b1000                           # 3: filled slots
.equ ALU, (SRC_FMT << 17) | (SRC_FMT << 21) | (PACK_INTER << 25) | (1 << 29)
SETDMAREG 0, ALU & 0xFFFF, 0, 32
SETDMAREG 0, ALU >> 16, 0, 33
WRCFG 16, 0, 1                                 # formats, ALU_ACC_CTRL_Fp32_enabled
NOP
# ADDR_MOD 0-2: SrcA += 8 and SrcB += the step of the broadcast pattern; 3: clear
.if BCAST == 0
.equ STEP0, 8
.equ STEP1, 8
.equ STEP2, 8
.endif
.if BCAST == 1
.equ STEP0, 0
.equ STEP1, 16
.equ STEP2, 48                                 # -16 in the 6-bit counter
.endif
.if BCAST == 2
.equ STEP0, 8
.equ STEP1, 56                                 # -8
.equ STEP2, 24
.endif
.if BCAST == 3
.equ STEP0, 0
.equ STEP1, 0
.equ STEP2, 0
.endif
SETC16 7, 8 | (STEP0 << 8)
SETC16 23, 0
SETC16 9, 8 | (STEP1 << 8)
SETC16 24, 0
SETC16 11, 8 | (STEP2 << 8)
SETC16 25, 0
SETC16 13, 0x8080                              # clear SrcA, SrcB
SETC16 26, 1 << 13                             # fidelity phase + 1
# the ADDR_MOD after group r (0-6) for each broadcast pattern
.set MODS, 0
.if BCAST == 1 || BCAST == 2
.set MODS, 0x0102010                           # nibble 6 - r: 0, 1, 0, 2, 0, 1, 0
.endif
.set REPS, 1
.if EOP == 2
.set REPS, PHASES
.endif
.set BROW, (BCAST & 1) << 1 | (BCAST >> 1)    # instr_mod19: BroadcastSrcBRow << 1 | BroadcastSrcBCol0
# one tile's ELW instructions (REPS x 8 <= 32), recorded once in the replay buffer
REPLAY 0, 8 * REPS, 0, 1
.rept REPS
.rept 8, R
.set M, 3
.if R < 7
.set M, (MODS >> (4 * (6 - R))) & 0xF
.endif
.if EOP == 0
ELWADD 0, 0, BROW, M, 8 * R
.endif
.if EOP == 1
ELWSUB 0, 0, BROW, M, 8 * R
.endif
.if EOP == 2
ELWMUL 0, 0, BROW, M, 8 * R
.endif
.endr
.endr
.rept NT, T
.set S, 1 + T % 2
SEMWAIT B_SYNC | B_MATH, 0b0100, 1             # a free slot
SEMGET 0b0100
STALLWAIT B_CFG, C_MATH                        # the previous tile's instructions are done
SETC16 1, 64 * S                               # DEST_TARGET_REG_CFG_MATH_Offset
.if EOP == 2
ZEROACC 0b101, 0, 4 * S                        # ELWMUL adds to Dst: start from 0
ZEROACC 0b101, 0, 4 * S + 1
ZEROACC 0b101, 0, 4 * S + 2
ZEROACC 0b101, 0, 4 * S + 3
.endif
SETRWC 0, 0, 0, 0, 0, 0b1011
REPLAY 0, 8 * REPS, 0, 0
SETRWC 3, 0, 0, 0, 0, 0b1011                   # both banks back; counters and fidelity 0
STALLWAIT B_SYNC, C_MATH
SEMPOST 0b1000
.endr

# ---- thread 2: pack ----
.thread 2
.include "pack_setup.s"
SETDMAREG 0, 64, 0, 84                         # GPR 42, 43: the slots' first rows
SETDMAREG 0, 0, 0, 85
SETDMAREG 0, 128, 0, 86
SETDMAREG 0, 0, 0, 87
.rept NT, T
SEMWAIT B_SYNC | B_PACK, 0b1000, 1
SEMGET 0b1000
.set CADDR, OUT_ADDR + T * OUT_TILE
SETDMAREG 0, (CADDR / 16 - 1) & 0xFFFF, 0, 82
SETDMAREG 0, (CADDR / 16 - 1) >> 16, 0, 83
WRCFG 41, 0, 57
WRCFG 42 + T % 2, 0, 152
NOP
PACR 0, 0, 1, 0, 0, 0, 1
STALLWAIT B_SYNC, C_PACK0
SEMPOST 0b0100
.endr
