/* The baby RISC-V cores' instruction set (src/rv32.def): decoding to
 * operands and disassembly.  The interpreter (interp/riscv.c) runs what
 * ttx_rv_decode returns. */
#ifndef TTX_RV32_H
#define TTX_RV32_H

#include <stddef.h>
#include <stdint.h>

#include "ttx.h"   /* ttx_rv_disasm */

enum ttx_rv_format { TTX_RVF_R, TTX_RVF_I, TTX_RVF_SHIFT, TTX_RVF_LOAD, TTX_RVF_S, TTX_RVF_B, TTX_RVF_U,
                     TTX_RVF_J, TTX_RVF_NONE, TTX_RVF_TTINSN };

enum ttx_rv_op {
	TTX_RV_INVALID,
#define TTX_RV(name, mn, fmt, match, mask) TTX_RV_##name,
#include "rv32.def"
#undef TTX_RV
	TTX_RV_TTINSN,
	TTX_RV_COUNT
};

/* One decoded instruction.  imm is sign-extended (U: the upper 20 bits in
   place; B and J: the byte offset; TTINSN: the Tensix word). */
struct ttx_rv_insn {
	uint8_t op;          /* enum ttx_rv_op */
	uint8_t rd, rs1, rs2;
	int32_t imm;
};

struct ttx_rv_info {
	const char *mnemonic;
	enum ttx_rv_format format;
	uint32_t match, mask;
};
extern const struct ttx_rv_info ttx_rv_table[TTX_RV_COUNT];

/* Decode a word; op TTX_RV_INVALID for a word no row matches. */
struct ttx_rv_insn ttx_rv_decode(uint32_t word);
/* The ABI name of register r (zero, ra, sp, ...). */
const char *ttx_rv_reg_name(unsigned r);

#endif
