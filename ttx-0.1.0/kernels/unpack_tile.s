# Point unpacker U (configured by unpack_setup.s) at the tile at L1 address
# TADDR, once the unpacker has finished with the previous one.
STALLWAIT B_CFG, C_UNPACK0 << U
SETDMAREG 0, (TADDR / 16 - 1) & 0xFFFF, 0, 2 * (16 + 12 * U + 6)
SETDMAREG 0, (TADDR / 16 - 1) >> 16, 0, 2 * (16 + 12 * U + 6) + 1
WRCFG 16 + 12 * U + 6, 0, 52 + 40 * U + 12     # THCON_SECn_REG3_Base_address
NOP
