// Every operand and line form of the assembler (docs/assembly.md).
# plain mnemonic, operands in tt-llk order
SFPMAD 1, 2, 3, 4, 0
sfpnop
// the tt-llk macro spellings, with and without ';'
TTI_SFPMAD(1, 2, 3, 4, 0);
TT_SFPLOADI(0, 2, 0x3F80);
TT_OP_SFPLOADI(1, 10, 0x4000)
TTI_NOP;
// call-style operand list on a plain mnemonic
SFPLOADI(2, 0, 0xBF80)
// expressions: parentheses, precedence, unary operators, bases, C suffixes
SETC16 (1 << 2) + 3, 0x1234 & 0xFF
SETC16 ~0 & 0x3F, 0b1010 | 0x100
SETC16 017, 2 * 3 ^ 1
SETC16 1u, 0x10UL >> 2
SFPIADD -1, 0, 1, 1
SFPLOADI 3, 2, -0x4000 & 0xFFFF
SFPIADD -(2048), 1, 2, 5
// raw words and host-side directives
.word 0x02000000
.word 0xFFFFFFFF
.thread 2
SEMPOST 4
.mmio 0xFFE80020, 0
.mmio 0xFFE00000, -1
.thread 0
SEMGET 4
