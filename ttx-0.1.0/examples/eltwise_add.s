# C = A + B over 8 tiles of 32x32, the way an LLK kernel runs it: three
# threads, each configuring and driving its own unit.
#
#   ./ttx run examples/eltwise_add.s \
#       --l1-in 0x10000:examples/eltwise_add.a.bin \
#       --l1-in 0x20000:examples/eltwise_add.b.bin \
#       --l1-out 0x30000:8704:c.bin --stats
#   cmp c.bin examples/eltwise_add.c.bin
#
# L1: A at 0x10000 and B at 0x20000, 8 BF16 tiles each (2048 bytes a tile,
# faces in order); C at 0x30000, 8 BFP8 (bfp8_b) tiles of 1088 bytes (64
# bytes of shared exponents, then 1024 of data).  The inputs are multiples
# of 1/8 below 8 in magnitude, so A + B is exact in BF16 and the only
# rounding is the packer's BFP8 blocks (to nearest, ties away from zero):
# tests/test_examples.c checks C against the host conversion of A + B.
#
# Thread 0 (unpack): each UNPACR moves one whole tile (1024 datums) into a
#   SrcA / SrcB bank and gives the bank to the Matrix Unit (FlipSrc); ADC Z
#   steps to the next tile.  With two banks the unpacker runs a tile ahead.
#   Before each tile it waits until both of its banks are back from the
#   Matrix Unit (STALLWAIT C8, C9: the dvalid handshake), so no UNPACR
#   relies on the hardware's own wait and the program passes --strict.  The
#   per-tile sequence is a replay buffer, played 8 times.
# Thread 1 (math): waits for Dst (semaphore 1), adds the tile with 8 ELWADDs
#   of 8 rows (ADDR_MOD 1 steps SrcA, SrcB and Dst by 8; the last one,
#   ADDR_MOD 2, clears them and hands both banks back), posts semaphore 0.
# Thread 2 (pack): waits for semaphore 0, sets the tile's L1 address
#   (WRCFG from GPR 20), packs Dst's 1024 datums to BFP8 (PACR, Last), moves
#   the address on by 1088 bytes, waits for the packer and frees Dst
#   (semaphore 1).

# ---- thread 0: unpack ----
.thread 0
SETC16 3, 4                    # SRCA_SET_SetOvrdWithAddr: SrcA rows are Dest_cntx0_address / 16 - 4
SETDMAREG 0, 0x0015, 0, 16     # GPR 8 = 0x04000015: TileDescriptor: BF16, uncompressed, XDim 1024
SETDMAREG 0, 0x0400, 0, 17
SETDMAREG 0, 0x0001, 0, 18     # GPR 9 = 0x00080001: YDim 1, ZDim 8
SETDMAREG 0, 0x0008, 0, 19
SETDMAREG 0, 5, 0, 20          # GPR 10 = 5: BF16 out
SETDMAREG 0, 0, 0, 21
SETDMAREG 0, 1, 0, 22          # GPR 11 = 1: Disable_zero_compress_cntx0
SETDMAREG 0, 0, 0, 23
SETDMAREG 0, 0x0FFF, 0, 24     # GPR 12 = 0x0FFF: A at (0x0FFF + 1) * 16 = 0x10000
SETDMAREG 0, 0, 0, 25
SETDMAREG 0, 0x1FFF, 0, 26     # GPR 13 = 0x1FFF: B at 0x20000
SETDMAREG 0, 0, 0, 27
SETDMAREG 0, 64, 0, 28         # GPR 14 = 64: Dest_cntx0_address (SrcA row 0)
SETDMAREG 0, 0, 0, 29
SETDMAREG 0, 1024, 0, 30       # GPR 15 = 1024: Tile_x_dim_cntx0
SETDMAREG 0, 0, 0, 31
WRCFG 8, 0, 52                 # THCON_SEC0_REG0_TileDescriptor (unpacker 0)
WRCFG 9, 0, 53
WRCFG 10, 0, 60                # THCON_SEC0_REG2_Out_data_format
WRCFG 11, 0, 61
WRCFG 12, 0, 64                # THCON_SEC0_REG3_Base_address
WRCFG 14, 0, 72                # THCON_SEC0_REG5_Dest_cntx0_address
WRCFG 15, 0, 74                # THCON_SEC0_REG5_Tile_x_dim_cntx0
WRCFG 8, 0, 92                 # THCON_SEC1_*: the same for unpacker 1, B's address
WRCFG 9, 0, 93
WRCFG 10, 0, 100
WRCFG 11, 0, 101
WRCFG 13, 0, 104
NOP
SETADCXX 3, 1023, 0            # both unpackers: datums 0-1023 of each tile
REPLAY 0, 3, 0, 1              # record the per-tile sequence
STALLWAIT 0x08, 0x300          #   hold UNPACR (B3) until both unpacker banks are free (C8, C9)
UNPACR 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1    # SrcA <- A tile, FlipSrc, ADC Z += 1
UNPACR 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1    # SrcB <- B tile, FlipSrc, ADC Z += 1
REPLAY 0, 3, 0, 0              # tiles 0-7
REPLAY 0, 3, 0, 0
REPLAY 0, 3, 0, 0
REPLAY 0, 3, 0, 0
REPLAY 0, 3, 0, 0
REPLAY 0, 3, 0, 0
REPLAY 0, 3, 0, 0
REPLAY 0, 3, 0, 0

# ---- thread 1: math ----
.thread 1
SEMINIT 1, 0, 0b01             # semaphore 0 "tile in Dst": max 1, value 0
SEMINIT 1, 1, 0b10             # semaphore 1 "Dst free": max 1, value 1
SETDMAREG 0, 0, 0, 32          # GPR 16 = 0x0AAA0000: SrcA, SrcB and Dstacc BF16
SETDMAREG 0, 0x0AAA, 0, 33
WRCFG 16, 0, 1
NOP
SETC16 9, 0x0808               # ADDR_MOD_AB_SEC1: SrcA += 8, SrcB += 8
SETC16 24, 8                   # ADDR_MOD_DST_SEC1: Dst += 8
SETC16 11, 0x8080              # ADDR_MOD_AB_SEC2: clear SrcA, SrcB
SETC16 25, 0x800               # ADDR_MOD_DST_SEC2: clear Dst
REPLAY 0, 11, 0, 1             # record one tile
SEMWAIT 0x42, 0b10, 1          #   wait while Dst is not free (blocks sync and FPU)
SEMGET 0b10
ELWADD 0, 0, 0, 1, 0           #   rows 0-7, then ADDR_MOD 1
ELWADD 0, 0, 0, 1, 0
ELWADD 0, 0, 0, 1, 0
ELWADD 0, 0, 0, 1, 0
ELWADD 0, 0, 0, 1, 0
ELWADD 0, 0, 0, 1, 0
ELWADD 0, 0, 0, 1, 0
ELWADD 3, 0, 0, 2, 0           #   rows 56-63; both banks back to the unpackers; RWCs cleared
SEMPOST 0b01                   #   tile in Dst
REPLAY 0, 11, 0, 0             # tiles 0-7
REPLAY 0, 11, 0, 0
REPLAY 0, 11, 0, 0
REPLAY 0, 11, 0, 0
REPLAY 0, 11, 0, 0
REPLAY 0, 11, 0, 0
REPLAY 0, 11, 0, 0
REPLAY 0, 11, 0, 0

# ---- thread 2: pack ----
.thread 2
SETDMAREG 0, 0, 0, 34          # GPR 17 = 0x00040000: Exp_section_size 4 (64 bytes)
SETDMAREG 0, 4, 0, 35
SETDMAREG 0, 0x0561, 0, 36     # GPR 18 = 0x561: Disable_zero_compress, BFP8 out, BF16 in
SETDMAREG 0, 0, 0, 37
SETDMAREG 0, 4, 0, 38          # GPR 19 = 4: PCK_DEST_RD_CTRL_Read_int8 (BF16 read as is)
SETDMAREG 0, 0, 0, 39
SETDMAREG 0, 0x2FFF, 0, 40     # GPR 20 = 0x2FFF: C at (0x2FFF + 1) * 16 = 0x30000
SETDMAREG 0, 0, 0, 41
SETDMAREG 0, 68, 0, 42         # GPR 21 = 68: 1088 bytes a tile, in 16-byte units
SETDMAREG 0, 0, 0, 43
SETDMAREG 0, 0x1000, 0, 44     # GPR 22 = 0x1000: pack_reads_per_xy_plane 16
SETDMAREG 0, 0, 0, 45
SETDMAREG 0, 0xFFFF, 0, 46     # GPR 23 = 0xFFFF: edge mask, every column
SETDMAREG 0, 0, 0, 47
WRCFG 17, 0, 56                # THCON_SEC0_REG1: packer 0
WRCFG 18, 0, 58
WRCFG 19, 0, 14                # PCK_DEST_RD_CTRL
WRCFG 22, 0, 24                # PACK_COUNTERS_SEC0
WRCFG 23, 0, 20                # PCK_EDGE_OFFSET_SEC0_mask
NOP
SETADCXX 4, 1023, 0            # 1024 datums from Dst row 0
REPLAY 0, 8, 0, 1              # record one tile
SEMWAIT 0x06, 0b01, 1          #   wait for a tile in Dst (blocks sync and packers)
SEMGET 0b01
WRCFG 20, 0, 57                #   THCON_SEC0_REG1_L1_Dest_addr
NOP
PACR 0, 0, 1, 0, 0, 0, 1       #   Dst -> L1 as BFP8, Last
ADDDMAREG 0, 20, 21, 20        #   the next tile's address
STALLWAIT 0x02, 0x08           #   packer 0 done (C3) before Dst is freed
SEMPOST 0b10                   #   Dst free
REPLAY 0, 8, 0, 0              # tiles 0-7
REPLAY 0, 8, 0, 0
REPLAY 0, 8, 0, 0
REPLAY 0, 8, 0, 0
REPLAY 0, 8, 0, 0
REPLAY 0, 8, 0, 0
REPLAY 0, 8, 0, 0
REPLAY 0, 8, 0, 0
