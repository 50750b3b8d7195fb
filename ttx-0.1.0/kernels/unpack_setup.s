# Unpacker U's configuration (thread 0) for whole uncompressed 32x32 tiles
# of L1 format U_FMT, one UNPACR a tile (multi-context mode, context 0):
# into SrcA / SrcB as register format U_OUT (U_HALO: each 16 x 16 face
# transposed, unpacker 0 only), or (U = 0, U_TO_DST) straight into Dst.  TC/UNPACR_Regular.md.  GPRs UG..UG+6 (16-22 for unpacker 0,
# 28-34 for unpacker 1); unpack_tile.s sets the tile's address in UG+6.
.set UG, 16 + 12 * U
.set USEC, 52 + 40 * U                         # THCON_SEC0 / THCON_SEC1
.set UD0, U_FMT | 0x10 | (1024 << 16)          # TileDescriptor: uncompressed, XDim 1024
SETDMAREG 0, UD0 & 0xFFFF, 0, 2 * UG
SETDMAREG 0, UD0 >> 16, 0, 2 * UG + 1
SETDMAREG 0, 1, 0, 2 * UG + 2                  # YDim 1, ZDim 1
SETDMAREG 0, 1, 0, 2 * UG + 3
.if !defined(U_HALO)
.set U_HALO, 0
.endif
SETDMAREG 0, U_OUT | (U_HALO << 8), 0, 2 * UG + 4   # REG2_Out_data_format, Haloize_mode
SETDMAREG 0, 0, 0, 2 * UG + 5
SETDMAREG 0, 1 | (U_TO_DST << 4), 0, 2 * UG + 6   # Disable_zero_compress_cntx0, Unpack_if_sel_cntx0
SETDMAREG 0, 0, 0, 2 * UG + 7
SETDMAREG 0, 64, 0, 2 * UG + 8                 # Dest_cntx0_address: (row 4) - 4 = SrcA / Dst row 0
SETDMAREG 0, 0, 0, 2 * UG + 9
SETDMAREG 0, 1024, 0, 2 * UG + 10              # Tile_x_dim_cntx0
SETDMAREG 0, 0, 0, 2 * UG + 11
WRCFG UG, 0, USEC
WRCFG UG + 1, 0, USEC + 1
WRCFG UG + 2, 0, USEC + 8
WRCFG UG + 3, 0, USEC + 9
.if U == 0
WRCFG UG + 4, 0, 72
WRCFG UG + 5, 0, 74
.endif
NOP
