SFPMAD 1, 2, 3, 4, 0
TTI_SFPMAD(1,2,3,4,0);
TT_OP_SFPLOADI(0, 2, 0x3F80)
.word 0x8F000000
.thread 1
.mmio 0xFFE80020, 0
# comment
NOP // comment
SETC16 (1 << 2) + 3, -1 & 0xFF
SFPIADD -1, 0, 1, 1
REPLAY 0, 4, 1, 1
MOP 1, 0, 0
SETDMAREG 0, 0xFFFF, 0, 5
