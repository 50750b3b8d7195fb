# Unary SFPU operation over NT tiles: L1 -> Dst -> SFPU -> Dst -> L1, three
# threads as an LLK compute kernel runs them (docs/ops.md):
#   thread 0 (unpack)  tile t at IN_ADDR + t IN_TILE into the input slot
#                      (in_unpack.s: through SrcA, or straight to Dst);
#   thread 1 (math)    32 SFPU passes of 32 datums: SFPLOAD (LOAD_MODE),
#                      the function (sfpu_fn.s, FN), SFPSTORE as FP32 to an
#                      output slot;
#   thread 2 (pack)    the slot to L1 at OUT_ADDR + t OUT_TILE as OUT_FMT.
#
# Symbols (app/ops.c): NT, IN_FMT, IN_ADDR, IN_TILE, TO_DST, LOAD_MODE,
# SRCA_FMT, OUT_FMT, OUT_ADDR, OUT_TILE, PACK_INTER, PACK_IN, PACK_EXP, FN,
# PARAM (the function's parameter as FP32 bits).

.include "common.s"

.thread 0
.include "in_setup.s"
.rept NT, T
.set TADDR, IN_ADDR + T * IN_TILE
.include "in_unpack.s"
.endr

.thread 1
.include "math_setup.s"
.rept NT, T
.include "in_math.s"
.include "out_begin.s"
# Pass I's Dst rows are 2 I ahead of the tile's: the Dst RWC, stepped by the
# pass's last store (ADDR_MOD 1), so every pass is the same words and the
# JIT compiles one pass for all 32.
.rept 32, I
SFPLOAD 0, LOAD_MODE, 0, 0
.include "sfpu_fn.s"
SFPSTORE 0, LOAD_FP32, 1, OUT_ROW + 64 * (T % 2)
.endr
SETRWC 0, 0, 0, 0, 0, 0b0100                   # Dst RWC back to 0 (ADDR_MOD 1 stepped it by 2 a pass)
.include "in_done.s"
.include "out_end.s"
.endr

.thread 2
.include "pack_setup.s"
.rept NT, T
.set OADDR, OUT_ADDR + T * OUT_TILE
.include "out_pack.s"
.endr
