# C = A B for a block of MT x NT output tiles with KT tiles of inner
# dimension, three threads as an LLK matmul runs them (docs/ops.md):
#   thread 0 (unpack)  for each output tile (i, j) and each k: tile (k, j)
#                      of B into SrcA (unpacker 0) and tile (i, k) of A
#                      into SrcB (unpacker 1), each bank then handed to the
#                      Matrix Unit (the dvalid handshake);
#   thread 1 (math)    Dst32 += SrcB @ SrcA: 16 MVMULs a fidelity phase
#                      (a replay buffer), PHASES phases (LoFi 1 ... HiFi4
#                      4), both banks back after the last; the output tile
#                      accumulates over k in FP32 Dst rows 64 s .. 64 s + 63
#                      of slot s (two slots: math fills one while the
#                      packer drains the other);
#   thread 2 (pack)    the slot to C as OUT_FMT (pack_setup.s), adding to
#                      what is in L1 when L1_ACC (the inner dimension split
#                      over several runs, app/ops.c).
# L1 (host-arranged streams): A tile (i, k) at A_ADDR + (i KT + k) A_TILE,
# B tile (k, j) at B_ADDR + (j KT + k) B_TILE, C tile (i, j) at
# C_ADDR + (i NT + j) C_TILE.
# Semaphores: 2 free Dst slots, 3 filled Dst slots.
#
# One tile pair is 2 x 2 faces of 16 x 16: C face (fi, fj) += A face
# (fi, fk) B face (fk, fj) over fk, 8 rows (h) an MVMUL.  A face f sits in
# SrcB rows 16 f .. 16 f + 15, B face f in SrcA rows 16 f ..; MVMUL takes
# SrcA rows RWC.SrcA & 0x38 (16 of them), SrcB rows RWC.SrcB & 0x38 (8),
# Dst rows DstRow + slot.  In the order (fi, fk, fj, h) the counters move
# by  X: SrcB += 8;  Y: SrcA += 16, SrcB -= 8;  Z: SrcA += 16, SrcB += 8;
# W (the 16th): both cleared, fidelity phase + 1.  (TC/MVMUL.md, RWCs.md)
#
# Symbols (app/ops.c): MT, NT, KT, IN_FMT, SRC_FMT, A_ADDR, A_TILE, B_ADDR,
# B_TILE, C_ADDR, C_TILE, PHASES, L1_ACC, OUT_FMT, PACK_INTER, PACK_IN,
# PACK_EXP.

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
SETADCXX 3, 1023, 0                            # both unpackers: datums 0-1023
.rept MT, I
.rept NT, J
.rept KT, K
.set U, 0
.set TADDR, B_ADDR + (J * KT + K) * B_TILE
.include "unpack_tile.s"
.set U, 1
.set TADDR, A_ADDR + (I * KT + K) * A_TILE
.include "unpack_tile.s"
STALLWAIT B_UNPACK, C_SRCA_FREE | C_SRCB_FREE  # both banks back from the Matrix Unit
UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1   # SrcA <- B (k, j), FlipSrc
UNPACR 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1   # SrcB <- A (i, k), FlipSrc
.endr
.endr
.endr

# ---- thread 1: math ----
.thread 1
SEMINIT 2, 2, 0b0100                           # 2: free slots
SEMINIT 2, 0, 0b1000                           # 3: filled slots
.equ ALU, (SRC_FMT << 17) | (SRC_FMT << 21) | (PACK_INTER << 25) | (1 << 29)   # formats, Fp32_enabled
SETDMAREG 0, ALU & 0xFFFF, 0, 32
SETDMAREG 0, ALU >> 16, 0, 33
WRCFG 16, 0, 1                                 # ALU_FORMAT_SPEC_REG0.., ALU_ACC_CTRL
NOP
SETC16 7, 8 << 8                               # ADDR_MOD 0 (X): SrcB += 8
SETC16 23, 0
SETC16 9, 16 | (56 << 8)                       # ADDR_MOD 1 (Y): SrcA += 16, SrcB -= 8 (6-bit counters)
SETC16 24, 0
SETC16 11, 16 | (8 << 8)                       # ADDR_MOD 2 (Z): SrcA += 16, SrcB += 8
SETC16 25, 0
SETC16 13, 0x8080                              # ADDR_MOD 3 (W): clear SrcA, SrcB
SETC16 26, 1 << 13                             #   FidelityIncr 1
REPLAY 0, 16, 0, 1                             # record one fidelity phase of a tile pair
MVMUL 0, 0, 0, 0                               #   fi 0, fk 0: C faces 0, 1
MVMUL 0, 0, 1, 8
MVMUL 0, 0, 0, 16
MVMUL 0, 0, 2, 24
MVMUL 0, 0, 0, 0                               #   fi 0, fk 1
MVMUL 0, 0, 1, 8
MVMUL 0, 0, 0, 16
MVMUL 0, 0, 2, 24
MVMUL 0, 0, 0, 32                              #   fi 1, fk 0: C faces 2, 3
MVMUL 0, 0, 1, 40
MVMUL 0, 0, 0, 48
MVMUL 0, 0, 2, 56
MVMUL 0, 0, 0, 32                              #   fi 1, fk 1
MVMUL 0, 0, 1, 40
MVMUL 0, 0, 0, 48
MVMUL 0, 0, 3, 56
.rept MT * NT, T
.set S, 1 + T % 2                              # Dst32 rows 64 S ..: slots 1 and 2 (rows 64-191)
SEMWAIT B_SYNC | B_MATH, 0b0100, 1             # a free slot
SEMGET 0b0100
STALLWAIT B_CFG, C_MATH                        # the previous tile's MVMULs are done
SETC16 1, 64 * S                               # DEST_TARGET_REG_CFG_MATH_Offset
ZEROACC 0b101, 0, 4 * S                        # the slot's 64 Dst32 rows read as 0
ZEROACC 0b101, 0, 4 * S + 1
ZEROACC 0b101, 0, 4 * S + 2
ZEROACC 0b101, 0, 4 * S + 3
SETRWC 0, 0, 0, 0, 0, 0b1011                   # (ZEROACC applied ADDR_MOD 0) counters 0
.rept KT
.rept PHASES
REPLAY 0, 16, 0, 0
.endr
SETRWC 3, 0, 0, 0, 0, 0b1011                   # both banks back; SrcA, SrcB, fidelity counters 0
.endr
STALLWAIT B_SYNC, C_MATH
SEMPOST 0b1000                                 # a filled slot
.endr

# ---- thread 2: pack ----
.thread 2
.equ PACK_ROW, 64
.include "pack_setup.s"
.if L1_ACC
SETDMAREG 0, 0, 0, 80                          # GPR 40 = 1 << 21: Pack_L1_Acc
SETDMAREG 0, 1 << 5, 0, 81
WRCFG 40, 0, 59
NOP
.endif
SETDMAREG 0, 64, 0, 84                         # GPR 42, 43: the slots' first rows
SETDMAREG 0, 0, 0, 85
SETDMAREG 0, 128, 0, 86
SETDMAREG 0, 0, 0, 87
.rept MT * NT, T
SEMWAIT B_SYNC | B_PACK, 0b1000, 1             # a filled slot
SEMGET 0b1000
.set CADDR, C_ADDR + T * C_TILE
SETDMAREG 0, (CADDR / 16 - 1) & 0xFFFF, 0, 82
SETDMAREG 0, (CADDR / 16 - 1) >> 16, 0, 83
WRCFG 41, 0, 57                                # THCON_SEC0_REG1_L1_Dest_addr
WRCFG 42 + T % 2, 0, 152                       # DEST_TARGET_REG_CFG_PACK_SEC0_Offset
NOP
PACR 0, 0, 1, 0, 0, 0, 1                       # 1024 datums -> L1, Last
STALLWAIT B_SYNC, C_PACK0
SEMPOST 0b0100                                 # a free slot
.endr
