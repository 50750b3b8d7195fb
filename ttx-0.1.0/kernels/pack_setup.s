# Packer 0's configuration for a tile of Dst32 rows PACK_ROW.. (FP32) to L1
# as OUT_FMT (the early conversion to PACK_INTER, the late one from PACK_IN
# to OUT_FMT, TC/Packers/FormatConversion.md), all 1024 datums of a tile
# per PACR.  GPRs 34-39 of the packing thread.  Symbols: OUT_FMT,
# PACK_INTER, PACK_IN, PACK_EXP (BFP exponent section, 16-byte units),
# PACK_ROW (default 64; out_pack.s sets it for each tile).
.if !defined(PACK_ROW)
.equ PACK_ROW, 64
.endif
SETDMAREG 0, 0, 0, 68                          # GPR 34 = PACK_EXP << 16: Exp_section_size
SETDMAREG 0, PACK_EXP, 0, 69
SETDMAREG 0, 1 | (OUT_FMT << 4) | (PACK_IN << 8), 0, 70   # GPR 35: Disable_zero_compress, formats
SETDMAREG 0, 0, 0, 71
SETDMAREG 0, 1, 0, 72                          # GPR 36 = 1: PCK_DEST_RD_CTRL_Read_32b_data
SETDMAREG 0, 0, 0, 73
SETDMAREG 0, 16 << 8, 0, 74                    # GPR 37: PACK_COUNTERS_SEC0 (16 rows a plane)
SETDMAREG 0, 0, 0, 75
SETDMAREG 0, 0xFFFF, 0, 76                     # GPR 38: PCK_EDGE_OFFSET_SEC0_mask: every column
SETDMAREG 0, 0, 0, 77
SETDMAREG 0, PACK_ROW, 0, 78                   # GPR 39: DEST_TARGET_REG_CFG_PACK_SEC0_Offset (rows)
SETDMAREG 0, 0, 0, 79
WRCFG 34, 0, 56
WRCFG 35, 0, 58
WRCFG 36, 0, 14
WRCFG 37, 0, 24
WRCFG 38, 0, 20
WRCFG 39, 0, 152
NOP
SETADCXX 4, 1023, 0                            # 1024 datums from the offset row
