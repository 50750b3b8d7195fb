# Thread 2: the T-th output tile, in Dst32 rows OUT_ROW + 64 (T % 2), to L1
# at OADDR as OUT_FMT (packer 0 configured by pack_setup.s); then the slot
# is free again.  GPRs 40-43.
SEMWAIT B_SYNC | B_PACK, 0b1000, 1             # a full slot
SEMGET 0b1000
SETDMAREG 0, (OADDR / 16 - 1) & 0xFFFF, 0, 80
SETDMAREG 0, (OADDR / 16 - 1) >> 16, 0, 81
SETDMAREG 0, OUT_ROW + 64 * (T % 2), 0, 82
SETDMAREG 0, 0, 0, 83
WRCFG 40, 0, 57                                # THCON_SEC0_REG1_L1_Dest_addr
WRCFG 41, 0, 152                               # DEST_TARGET_REG_CFG_PACK_SEC0_Offset
NOP
PACR 0, 0, 1, 0, 0, 0, 1                       # 1024 datums -> L1, Last
STALLWAIT B_SYNC, C_PACK0
SEMPOST 0b0100                                 # the slot is free
