/* Decoding and disassembly of the baby RISC-V cores' RV32IM instructions
 * (src/rv32.def; the RISC-V unprivileged specification, chapter "RV32I Base
 * Integer Instruction Set", and the M extension). */
#include <stdio.h>

#include "rv32.h"

const struct ttx_rv_info ttx_rv_table[TTX_RV_COUNT] = {
	[TTX_RV_INVALID] = { ".word", TTX_RVF_NONE, 0, 0 },
#define TTX_RV(name, mn, fmt, match, mask) [TTX_RV_##name] = { mn, TTX_RVF_##fmt, match, mask },
#include "rv32.def"
#undef TTX_RV
	[TTX_RV_TTINSN] = { ".ttinsn", TTX_RVF_TTINSN, 0, 3 },
};

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

const char *ttx_rv_reg_name(unsigned r)
{
	return reg_names[r & 31];
}

/* bits hi..lo of w */
static uint32_t bits(uint32_t w, unsigned hi, unsigned lo)
{
	return (w >> lo) & ((2u << (hi - lo)) - 1u);
}

static int32_t sext(uint32_t v, unsigned width)
{
	uint32_t m = 1u << (width - 1);
	return (int32_t)((v ^ m) - m);
}

struct ttx_rv_insn ttx_rv_decode(uint32_t w)
{
	struct ttx_rv_insn in = { TTX_RV_INVALID, 0, 0, 0, 0 };
	if ((w & 3) != 3) {   /* .ttinsn: IMM32 rotated left by two */
		in.op = TTX_RV_TTINSN;
		in.imm = (int32_t)(w >> 2 | w << 30);
		return in;
	}
	for (unsigned op = 1; op < TTX_RV_TTINSN; op++)
		if ((w & ttx_rv_table[op].mask) == ttx_rv_table[op].match) {
			in.op = (uint8_t)op;
			break;
		}
	in.rd = (uint8_t)bits(w, 11, 7);
	in.rs1 = (uint8_t)bits(w, 19, 15);
	in.rs2 = (uint8_t)bits(w, 24, 20);
	switch (ttx_rv_table[in.op].format) {
	case TTX_RVF_I:
	case TTX_RVF_LOAD:
		in.imm = sext(bits(w, 31, 20), 12);
		break;
	case TTX_RVF_SHIFT:
		in.imm = (int32_t)bits(w, 24, 20);
		break;
	case TTX_RVF_S:
		in.imm = sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12);
		break;
	case TTX_RVF_B:
		in.imm = sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 | bits(w, 11, 8) << 1, 13);
		break;
	case TTX_RVF_U:
		in.imm = (int32_t)(w & 0xFFFFF000u);
		break;
	case TTX_RVF_J:
		in.imm = sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 |
		              bits(w, 30, 21) << 1, 21);
		break;
	default:
		break;
	}
	/* operands the format does not have read as x0 (no false dependences) */
	enum ttx_rv_format f = ttx_rv_table[in.op].format;
	if (f != TTX_RVF_R && f != TTX_RVF_S && f != TTX_RVF_B)
		in.rs2 = 0;
	if (f == TTX_RVF_U || f == TTX_RVF_J || f == TTX_RVF_NONE)
		in.rs1 = 0;
	if (f == TTX_RVF_S || f == TTX_RVF_B || f == TTX_RVF_NONE)
		in.rd = 0;
	return in;
}

int ttx_rv_disasm(uint32_t w, uint32_t pc, char *buf, size_t len)
{
	struct ttx_rv_insn in = ttx_rv_decode(w);
	const struct ttx_rv_info *info = &ttx_rv_table[in.op];
	const char *mn = info->mnemonic, *rd = reg_names[in.rd], *r1 = reg_names[in.rs1], *r2 = reg_names[in.rs2];
	switch (in.op == TTX_RV_INVALID ? TTX_RVF_NONE : info->format) {
	case TTX_RVF_R: snprintf(buf, len, "%s %s, %s, %s", mn, rd, r1, r2); break;
	case TTX_RVF_I:
	case TTX_RVF_SHIFT: snprintf(buf, len, "%s %s, %s, %d", mn, rd, r1, in.imm); break;
	case TTX_RVF_LOAD: snprintf(buf, len, "%s %s, %d(%s)", mn, rd, in.imm, r1); break;
	case TTX_RVF_S: snprintf(buf, len, "%s %s, %d(%s)", mn, r2, in.imm, r1); break;
	case TTX_RVF_B: snprintf(buf, len, "%s %s, %s, 0x%X", mn, r1, r2, pc + (uint32_t)in.imm); break;
	case TTX_RVF_U: snprintf(buf, len, "%s %s, 0x%X", mn, rd, (uint32_t)in.imm >> 12); break;
	case TTX_RVF_J: snprintf(buf, len, "%s %s, 0x%X", mn, rd, pc + (uint32_t)in.imm); break;
	case TTX_RVF_TTINSN: snprintf(buf, len, ".ttinsn 0x%08X", (uint32_t)in.imm); break;
	default:
		if (in.op == TTX_RV_INVALID)
			snprintf(buf, len, ".word 0x%08X  # not an RV32IM instruction", w);
		else
			snprintf(buf, len, "%s", mn);
	}
	return in.op == TTX_RV_INVALID;
}
