/* Assembler and disassembler: syntax, directives, error messages.
 *
 * Every expected word below is derived by hand from the F(name, lo, width)
 * rows of src/isa.def: word = opcode << 24 | sum(value << lo).  The comment
 * next to each case shows the derivation. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "ttx.h"
#include "util.h"

static uint32_t asm1(const char *text)
{
	uint32_t w = 0;
	char err[256] = "";
	ck_assert_msg(ttx_asm_line(text, &w, err, sizeof(err)) == TTX_OK, "'%s': %s", text, err);
	return w;
}

#define ASM_EQ(text, word) \
	ck_assert_msg(asm1(text) == (uint32_t)(word), "'%s' -> 0x%08X, expected 0x%08X", \
	              text, asm1(text), (uint32_t)(word))

/* The line must be rejected with exactly this message. */
static void asm_err(const char *text, const char *msg)
{
	uint32_t w = 0xDEADBEEF;
	char err[256] = "";
	enum ttx_status st = ttx_asm_line(text, &w, err, sizeof(err));
	ck_assert_msg(st == TTX_EINVAL, "'%s' accepted (0x%08X), expected error '%s'", text, w, msg);
	ck_assert_msg(strcmp(err, msg) == 0, "'%s': message '%s', expected '%s'", text, err, msg);
}

/* The line must be rejected with a message containing every given part. */
static void asm_err_has(const char *text, const char *part1, const char *part2)
{
	uint32_t w = 0xDEADBEEF;
	char err[256] = "";
	enum ttx_status st = ttx_asm_line(text, &w, err, sizeof(err));
	ck_assert_msg(st == TTX_EINVAL, "'%s' accepted (0x%08X), expected error with '%s'", text, w, part1);
	ck_assert_msg(strstr(err, part1) != NULL, "'%s': message '%s' lacks '%s'", text, err, part1);
	if (part2)
		ck_assert_msg(strstr(err, part2) != NULL, "'%s': message '%s' lacks '%s'", text, err, part2);
}

/* ------------------------------------------------------------------------ */
/* syntax: every way of spelling an instruction                              */

START_TEST(test_llk_macro_forms)
{
	/* TT_OP_SFPMAD(lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1) */
	ck_assert_uint_eq(asm1("SFPMAD 1, 2, 3, 4, 0"), 0x84012340);
	ck_assert_uint_eq(asm1("TTI_SFPMAD(1, 2, 3, 4, 0);"), 0x84012340);
	ck_assert_uint_eq(asm1("TT_SFPMAD(1, 2, 3, 4, 0)"), 0x84012340);
	ck_assert_uint_eq(asm1("TT_OP_SFPMAD(1,2,3,4,0)"), 0x84012340);
	ck_assert_uint_eq(asm1("sfpmad 1, 2, 3, 4, 0  // lower case"), 0x84012340);
	ck_assert_uint_eq(asm1("TTI_SFPNOP"), 0x8F000000);
	ck_assert_uint_eq(asm1("TTI_NOP;"), 0x02000000);
	ck_assert_uint_eq(asm1("NOP"), 0x02000000);
	/* tt-llk spells SFPSTOCHRND as SFP_STOCH_RND */
	ck_assert_uint_eq(asm1("TTI_SFP_STOCH_RND(0, 0, 0, 0, 1, 2)"), asm1("SFPSTOCHRND 0, 0, 0, 0, 1, 2"));
}
END_TEST

START_TEST(test_syntax_forms)
{
	/* SFPMAD 0x84: a@16 b@12 c@8 d@4 mod1@0:
	   1<<16 | 2<<12 | 3<<8 | 4<<4 | 0 = 0x012340 */
	const uint32_t mad = 0x84012340;
	ASM_EQ("SFPMAD 1,2,3,4,0", mad);
	ASM_EQ("SFPMAD 1, 2, 3, 4, 0;", mad);                 /* plain with ';' */
	ASM_EQ("SFPMAD(1, 2, 3, 4, 0)", mad);                 /* plain with parens */
	ASM_EQ("SFPMAD(1, 2, 3, 4, 0);", mad);
	ASM_EQ("TTI_SFPMAD(1, 2, 3, 4, 0)", mad);             /* macros without ';' */
	ASM_EQ("TT_SFPMAD(1, 2, 3, 4, 0);", mad);
	ASM_EQ("TT_OP_SFPMAD(1, 2, 3, 4, 0);", mad);
	ASM_EQ("TTI_SFPMAD (1, 2, 3, 4, 0) ;", mad);          /* spaces around ( and ; */
	ASM_EQ("  \tTTI_SFPMAD( 1 ,2 , 3,\t4 , 0 )\t;  \r", mad); /* blanks, tab, CR */
	ASM_EQ("\t SFPMAD\t1 ,2 , 3,4,0  ;  ", mad);
	/* case-insensitive mnemonics, with and without a macro prefix */
	ASM_EQ("SfPmAd 1, 2, 3, 4, 0", mad);
	ASM_EQ("TTI_sfpmad(1, 2, 3, 4, 0);", mad);
	ASM_EQ("TT_OP_SfpMad(1, 2, 3, 4, 0)", mad);
	ASM_EQ("sfp_stoch_rnd 1, 2, 3, 4, 5, 6", 0x8E223456);
	/* SFPSTOCHRND 0x8E: rnd_mode@21 imm8_math@16 b@12 c@8 d@4 mod1@0:
	   1<<21=0x200000 | 2<<16=0x20000 | 3<<12 | 4<<8 | 5<<4 | 6 = 0x223456 */
	ASM_EQ("SFPSTOCHRND 1, 2, 3, 4, 5, 6", 0x8E223456);
	ASM_EQ("TTI_SFP_STOCH_RND(1, 2, 3, 4, 5, 6);", 0x8E223456);
	/* SFPLOAD 0x70: lreg_ind@20 instr_mod0@16 sfpu_addr_mode@14 dest_reg_addr@0:
	   2<<20=0x200000 | 3<<16=0x30000 | 1<<14=0x4000 | 0x40 = 0x234040 */
	ASM_EQ("TTI_SFPLOAD(2, 3, 1, 0x40)", 0x70234040);
	/* SFPSTORE 0x72: 3<<20=0x300000 | 0 | 3<<14=0xC000 | 0x3FF = 0x30C3FF */
	ASM_EQ("SFPSTORE 3, 0, 3, 0x3FF", 0x7230C3FF);
	/* SFPLOADI 0x71: lreg_ind@20 instr_mod0@16 imm16@0: 1<<20 | 2<<16 | 0x1234 */
	ASM_EQ("SFPLOADI 1, 2, 0x1234", 0x71121234);
	/* ZEROACC 0x10: clear_mode@19 AddrMode@15 dst@0: 4<<19=0x200000 | 1<<15=0x8000 | 0x3FF */
	ASM_EQ("ZEROACC 4, 1, 0x3FF", 0x102083FF);
	/* SETC16 0xB2: setc16_reg@16 setc16_value@0 */
	ASM_EQ("TT_SETC16(0xAB, 0xCDEF)", 0xB2ABCDEF);
	/* SEMPOST 0xA4: sem_sel@2 (8 bits): 1<<2 = 4 */
	ASM_EQ("SEMPOST 1", 0xA4000004);
	ASM_EQ("TTI_SEMPOST(1);", 0xA4000004);
	/* REPLAY 0x04: start_idx@14 len@4 execute_while_loading@1 load_mode@0:
	   2<<14=0x8000 | 3<<4=0x30 | 1<<1=2 | 0 = 0x8032 */
	ASM_EQ("REPLAY 2, 3, 1, 0", 0x04008032);
	/* the whole line of a directive works too */
	ASM_EQ(".word 0x84012340", mad);
	ASM_EQ("  .word 0x84012340  # raw", mad);
}
END_TEST

START_TEST(test_no_operand_forms)
{
	/* NOP 0x02, SFPNOP 0x8F, DMANOP 0x60, TRNSPSRCB 0x16: no fields, word = op << 24 */
	static const char *const nop[] = {
		"NOP", "NOP;", "NOP()", "NOP ( )", "NOP();", "nop", "Nop ;",
		"TTI_NOP", "TTI_NOP;", "TTI_NOP()", "TTI_NOP();", "TT_NOP", "TT_NOP()",
		"TT_OP_NOP", "TT_OP_NOP()", "  TTI_NOP ( ) ; ", "TTI_nop",
	};
	for (size_t i = 0; i < sizeof(nop) / sizeof(nop[0]); i++)
		ASM_EQ(nop[i], 0x02000000);
	ASM_EQ("SFPNOP", 0x8F000000);
	ASM_EQ("TTI_SFPNOP()", 0x8F000000);
	ASM_EQ("DMANOP;", 0x60000000);
	ASM_EQ("trnspsrcb", 0x16000000);
	ASM_EQ("TRNSPSRCA", 0x14000000);
	/* a no-operand macro needs no '(' */
	ASM_EQ("TT_OP_SFPNOP;", 0x8F000000);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* numbers                                                                    */

START_TEST(test_numbers)
{
	/* SETC16 0xB2: setc16_reg@16 (8 bits) setc16_value@0 (16 bits) */
	ASM_EQ("SETC16 0, 0", 0xB2000000);
	ASM_EQ("SETC16 10, 65535", 0xB20AFFFF);          /* decimal: 10<<16 | 0xFFFF */
	ASM_EQ("SETC16 007, 00", 0xB2070000);            /* leading zeros: 7 either way */
	/* TT_OP_* macros add shifted operands, so LLK code writes a 16-bit value as
	   SETDMAREG's 14-bit Payload_SigSel: accepted where the documented layout
	   (SETDMAREG_Immediate: NewValue 23:8) has one field there and the spilled-
	   into operand is zero; 0x45FFFF05 = 0x45 << 24 | 0xFFFF << 8 | 5. */
	ASM_EQ("TT_SETDMAREG(0, 0xFFFF, 0, 5)", 0x45FFFF05);
	/* STOREIND_L1's 2-bit Size (22:21) spans RegSizeSel and SizeSel:
	   MemHierSel 1 << 23 | 3 << 21 = 0x66E00000. */
	ASM_EQ("STOREIND 1, 0, 3, 0, 0, 0, 0", 0x66E00000);
	/* Not when the spilled-into operand is set, nor in SETDMAREG's Special
	   mode (bit 7), whose layout has no field there. */
	asm_err_has("SETDMAREG 1, 0xFFFF, 0, 5", "Payload_SigSel = 65535 out of range", NULL);
	asm_err_has("SETDMAREG 0, 0xFFFF, 1, 5", "Payload_SigSel = 65535 out of range", NULL);
	ASM_EQ("SETC16 010, 0", 0xB2080000);             /* a leading 0 means octal, as in C */
	ASM_EQ("SETC16 1, 2\n", 0xB2010002);             /* a trailing newline (fgets) is fine */
	ASM_EQ("SETC16 0x1f, 0XaBcD", 0xB21FABCD);       /* hex, both cases, 0X */
	ASM_EQ("SETC16 0x00FF, 0x0", 0xB2FF0000);
	ASM_EQ("SETC16 0b101, 0B11110000", 0xB20500F0);  /* binary: 5<<16 | 0xF0 */
	/* C integer suffixes, as pasted from LLK code */
	ASM_EQ("SETC16 1u, 0x10UL", 0xB2010010);
	ASM_EQ("SETC16 4ul, 5LL", 0xB2040005);
	ASM_EQ("SETC16 0b11U, 2l", 0xB2030002);
	ASM_EQ("TTI_SETC16(0x7FU, 0xFFFFu);", 0xB27FFFFF);
	/* SEMPOST sem_sel@2: 10<<2 = 40 = 0x28, 0xFF<<2 = 0x3FC */
	ASM_EQ("SEMPOST 10", 0xA4000028);
	ASM_EQ("SEMPOST 0xFF", 0xA40003FC);

	/* malformed numbers; columns count from 1 */
	asm_err("SETC16 0x1G, 0", "<line>:1:11: invalid digit 'G' in number");
	asm_err("SETC16 0b102, 0", "<line>:1:12: invalid digit '2' in number");
	asm_err("SETC16 12a, 0", "<line>:1:10: invalid digit 'a' in number");
	asm_err("SETC16 0x, 0", "<line>:1:8: expected digits after the base prefix");
	asm_err("SETC16 0b, 0", "<line>:1:8: expected digits after the base prefix");
	asm_err("SETC16 0, 0x10000000000", "<line>:1:11: number too large");
	asm_err("SETC16 0, 99999999999999999999", "<line>:1:11: number too large");
	asm_err("SETC16 0, $5", "<line>:1:11: expected a number, found '$'");
}
END_TEST

/* ------------------------------------------------------------------------ */
/* expressions                                                                */

START_TEST(test_expressions)
{
	/* SETC16 0xB2: the second operand is the 16-bit value at bit 0 */
	ASM_EQ("SETC16 0, (1 << 2) + 3", 0xB2000007);     /* 4 + 3 */
	ASM_EQ("TTI_SETC16((1 << 2) + 3, 0)", 0xB2070000); /* 7 << 16 */
	ASM_EQ("SETC16 0, 1 << 2 + 3", 0xB2000020);       /* + binds tighter: 1 << 5 */
	ASM_EQ("SETC16 0, 2 + 3 * 4", 0xB200000E);        /* 14 */
	ASM_EQ("SETC16 0, (2 + 3) * 4", 0xB2000014);      /* 20 */
	ASM_EQ("SETC16 0, 3 * (4 + 1) - 0b10", 0xB200000D); /* 15 - 2 = 13 */
	ASM_EQ("SETC16 0, 10 - 4 - 3", 0xB2000003);       /* left associative: (10-4)-3 */
	ASM_EQ("SETC16 0, 1 << 2 << 3", 0xB2000020);      /* (1<<2)<<3 = 32 */
	ASM_EQ("SETC16 0, 256 >> 2 >> 1", 0xB2000020);    /* (256>>2)>>1 = 32 */
	ASM_EQ("SETC16 0, 0x8000 >> 15", 0xB2000001);
	ASM_EQ("SETC16 0, 0xF0 | 0x0F & 0x3C", 0xB20000FC); /* & before |: 0xF0 | 0x0C */
	ASM_EQ("SETC16 0, 0xFF ^ 0x0F | 0x100", 0xB20001F0); /* ^ before |: 0xF0 | 0x100 */
	ASM_EQ("SETC16 0, 6 ^ 3 & 5", 0xB2000007);        /* & before ^: 6 ^ 1 */
	ASM_EQ("SETC16 0, 1 | 2 ^ 3", 0xB2000001);        /* ^ before |: 1 | 1 */
	ASM_EQ("SETC16 0, 0xFF & 0x0F + 1", 0xB2000010);  /* + before &: 0xFF & 0x10 */
	ASM_EQ("SETC16 0, ~0 & 0xFFFF", 0xB200FFFF);
	ASM_EQ("SETC16 0, ~0x00FF & 0xFFFF", 0xB200FF00);
	ASM_EQ("SETC16 0, -1 + 5", 0xB2000004);
	ASM_EQ("SETC16 0, - 2 * -3", 0xB2000006);         /* unary minus binds to the primary */
	ASM_EQ("SETC16 0, -(2 - 5)", 0xB2000003);
	ASM_EQ("SETC16 0, +7", 0xB2000007);
	ASM_EQ("SETC16 0, ~~5", 0xB2000005);
	ASM_EQ("SETC16 0, --5", 0xB2000005);
	ASM_EQ("SETC16 0, ((((1))))", 0xB2000001);
	ASM_EQ("SETC16 0, 1u << 4", 0xB2000010);          /* suffix inside an expression */
	ASM_EQ("SETC16 0, 3*4", 0xB200000C);              /* no blanks needed */
	ASM_EQ("SETC16 2*3, 1<<15|1", 0xB2068001);        /* 6<<16 | 0x8001 */
	ASM_EQ("SFPMAD 1+0, 1*2, 6>>1, 2<<1, 0&1", 0x84012340);
	/* intermediate values may exceed the field as long as the result fits */
	ASM_EQ("SETC16 0, (1 << 32) >> 20", 0xB2001000);

	ASM_EQ("SETC16 0, 7 / 2", 0xB2000003);
	ASM_EQ("SETC16 0, 7 % 4", 0xB2000003);
	ASM_EQ("SETC16 0, (2 < 3) + (3 <= 3) + (4 > 3) + (4 >= 5) + (1 == 1) + (1 != 1)", 0xB2000004);
	ASM_EQ("SETC16 0, (1 && 0) + (1 || 0) + !0 + !7", 0xB2000002);
	asm_err("SETC16 0, 4 / 0", "<line>:1:13: division by zero");
	asm_err("SETC16 0, 4 @ 2", "<line>:1:13: unexpected '@' after the operands");
	asm_err("SETC16 0, (1 + 2", "<line>:1:17: expected ')'");
	asm_err("SETC16 0, 1 +", "<line>:1:14: expected a number");
	asm_err("SETC16 0, 1 << 41", "<line>:1:13: shift count 41 out of range");
	asm_err("SETC16 0, 1 >> -1", "<line>:1:13: shift count -1 out of range");
	asm_err("SETC16 0, 1 << 40", "<line>:1:13: value out of range");
	asm_err("SETC16 0, 0xFFFFFFFFFF + 1", "<line>:1:24: value out of range");
}
END_TEST

/* BUG (src/asm.c parse_binary): '*' and '<<' wrap around 64 bits before the
   range check, so an out-of-range expression silently becomes a small value
   (2^32 * 2^32 = 2^64 -> 0; 2^24 << 40 = 2^64 -> 0).  Both must be rejected. */
START_TEST(test_multiply_overflow_rejected)
{
	asm_err_has("SETC16 0, 0x10000000000 * 0", "number too large", NULL);  /* fine today */
	asm_err_has("SETC16 0, 0x10000 * 0x1000000", "value out of range", NULL); /* 2^40: fine */
	asm_err_has("SETC16 0, 0x100000000 * 0x100000000", "value out of range", NULL); /* 2^64 */
	asm_err_has("SETC16 0, -0x100000000 * 0x100000000", "value out of range", NULL);
}
END_TEST

START_TEST(test_shift_overflow_rejected)
{
	asm_err_has("SETC16 0, 1 << 40", "value out of range", NULL);                  /* fine today */
	asm_err_has("SETC16 0, 0x1000000 << 40", "value out of range", NULL);          /* 2^64 */
	asm_err_has("SETC16 0, 0x8000000 << 37", "value out of range", NULL);          /* 2^64 */
}
END_TEST

/* BUG (src/asm.c parse_insn): in the plain syntax, an operand list whose first
   operand starts with '(' is taken for the macro-call form "MNEMONIC(...)",
   so valid expressions are rejected ("unexpected ',' after the operands"). */
START_TEST(test_plain_first_operand_in_parens)
{
	/* the call form keeps working */
	ASM_EQ("SETC16((1), 2)", 0xB2010002);
	ASM_EQ("SEMPOST (1)", 0xA4000004);
	ASM_EQ("SETC16 (1 << 2) + 3, 0", 0xB2070000);     /* 7 << 16 */
	ASM_EQ("SETC16 (1), 2", 0xB2010002);
	ASM_EQ("SEMPOST (1) | 2", 0xA400000C);            /* 3 << 2 */
	ASM_EQ("SFPIADD (-1) >> 1, 0, 0, 0", 0x79FFF000); /* -1 -> 0xFFF << 12 */
}
END_TEST

/* ------------------------------------------------------------------------ */
/* negative operands and field ranges                                          */

START_TEST(test_negative_operands)
{
	/* SFPIADD 0x79: imm12_math@12 (12 bits) lreg_c@8 lreg_dest@4 instr_mod1@0 */
	ASM_EQ("SFPIADD -1, 2, 3, 1", 0x79FFF231);       /* 0xFFF<<12 | 2<<8 | 3<<4 | 1 */
	ASM_EQ("SFPIADD -2048, 0, 0, 0", 0x79800000);    /* -2^11 = 0x800 -> 0x800000 */
	ASM_EQ("SFPIADD -(1 << 11), 0, 0, 0", 0x79800000);
	ASM_EQ("SFPIADD 2047, 0, 0, 0", 0x797FF000);
	ASM_EQ("SFPIADD 4095, 0, 0, 0", 0x79FFF000);     /* same bits as -1 */
	ASM_EQ("SFPIADD ~0, 0, 0, 0", 0x79FFF000);
	ASM_EQ("SFPIADD -5, 0, 0, 0", 0x79FFB000);       /* 4096-5 = 0xFFB */
	ASM_EQ("SFPIADD 0, 0, 0, -8", 0x79000008);       /* 4-bit mod1: -8 = 0b1000 */
	asm_err("SFPIADD -2049, 0, 0, 0",
	        "<line>:1:9: SFPIADD operand imm12_math = -2049 out of range (12 bits: 0..4095)");
	asm_err("SFPIADD 0, 0, 0, -9",
	        "<line>:1:18: SFPIADD operand instr_mod1 = -9 out of range (4 bits: 0..15)");
	/* SFPMAD a@16 (4 bits): -1 -> 0xF, -8 -> 0x8 */
	ASM_EQ("SFPMAD -1, 0, 0, 0, 0", 0x840F0000);
	ASM_EQ("SFPMAD -8, 0, 0, 0, 0", 0x84080000);
	asm_err("SFPMAD -9, 0, 0, 0, 0",
	        "<line>:1:8: SFPMAD operand lreg_src_a = -9 out of range (4 bits: 0..15)");
	/* 1-bit field: SETDMAREG SetSignalsMode@7; -1 -> 1 -> 0x80 */
	ASM_EQ("SETDMAREG 0, 0, -1, 0", 0x45000080);
	asm_err_has("SETDMAREG 0, 0, -2, 0", "SETDMAREG operand SetSignalsMode = -2 out of range", NULL);
	/* 24-bit field: SETASHRMV reg_mask2@0 */
	ASM_EQ("SETASHRMV -1", 0x1CFFFFFF);
	ASM_EQ("SETASHRMV -0x800000", 0x1C800000);
	asm_err_has("SETASHRMV -0x800001", "SETASHRMV operand reg_mask2 = -8388609 out of range", NULL);
	/* 16-bit field: SFPLOADI imm16@0 */
	ASM_EQ("SFPLOADI 0, 4, -0x8000", 0x71048000);    /* 4<<16 | 0x8000 */
	ASM_EQ("SFPLOADI 0, 4, -1", 0x7104FFFF);
	asm_err_has("SFPLOADI 0, 4, -0x8001", "SFPLOADI operand imm16 = -32769 out of range", "16 bits");
}
END_TEST

START_TEST(test_field_limits)
{
	/* max accepted, max + 1 rejected with the mnemonic and the field named */
	ASM_EQ("SEMPOST 255", 0xA40003FC);               /* 0xFF << 2 */
	asm_err("SEMPOST 256", "<line>:1:9: SEMPOST operand sem_sel = 256 out of range (8 bits: 0..255)");
	ASM_EQ("SFPMAD 0, 0, 0, 15, 0", 0x840000F0);     /* 15 << 4 */
	asm_err("SFPMAD 0, 0, 0, 16, 0",
	        "<line>:1:17: SFPMAD operand lreg_dest = 16 out of range (4 bits: 0..15)");
	asm_err("TTI_SFPMAD(0, 0, 0, 0, 0x10)",
	        "<line>:1:24: SFPMAD operand instr_mod1 = 16 out of range (4 bits: 0..15)");
	ASM_EQ("SETC16 255, 0xFFFF", 0xB2FFFFFF);
	asm_err("SETC16 256, 0",
	        "<line>:1:8: SETC16 operand setc16_reg = 256 out of range (8 bits: 0..255)");
	asm_err("SETC16 0, 0x10000",
	        "<line>:1:11: SETC16 operand setc16_value = 65536 out of range (16 bits: 0..65535)");
	/* STALLWAIT 0xA2: stall_res@15 (9 bits) wait_res@0 (15 bits): 511<<15 = 0xFF8000 | 0x7FFF */
	ASM_EQ("STALLWAIT 511, 0x7FFF", 0xA2FFFFFF);
	asm_err_has("STALLWAIT 512, 0", "STALLWAIT operand stall_res = 512", "(9 bits: 0..511)");
	asm_err_has("STALLWAIT 0, 0x8000", "STALLWAIT operand wait_res = 32768", "(15 bits: 0..32767)");
	/* MOP 0x01: mop_type@23 (1) loop_count@16 (7) zmask_lo16@0 (16) */
	ASM_EQ("MOP 1, 127, 0xFFFF", 0x01FFFFFF);
	ASM_EQ("MOP 1, 0, 0", 0x01800000);
	asm_err_has("MOP 2, 0, 0", "MOP operand mop_type = 2", "(1 bits: 0..1)");
	asm_err_has("MOP 0, 128, 0", "MOP operand loop_count = 128", "(7 bits: 0..127)");
	/* REPLAY: start_idx@14 (10) len@4 (10) execute_while_loading@1 (3) load_mode@0 (1):
	   0x3FF<<14 = 0xFFC000 | 0x3FF<<4 = 0x3FF0 | 7<<1 = 0xE | 1 = 0xFFFFFF */
	ASM_EQ("REPLAY 1023, 1023, 7, 1", 0x04FFFFFF);
	asm_err_has("REPLAY 1024, 0, 0, 0", "REPLAY operand start_idx = 1024", NULL);
	asm_err_has("REPLAY 0, 0, 8, 0", "REPLAY operand execute_while_loading = 8", NULL);
	/* 24-bit fields: SETASHRMV reg_mask2@0, MOP_CFG zmask_hi16@0 */
	ASM_EQ("SETASHRMV 0xFFFFFF", 0x1CFFFFFF);
	asm_err_has("SETASHRMV 0x1000000", "SETASHRMV operand reg_mask2 = 16777216",
	            "(24 bits: 0..16777215)");
	ASM_EQ("MOP_CFG 0xFFFFFF", 0x03FFFFFF);
	/* the biggest values of SFPIADD's imm12 */
	asm_err("SFPIADD 4096, 0, 0, 0",
	        "<line>:1:9: SFPIADD operand imm12_math = 4096 out of range (12 bits: 0..4095)");
}
END_TEST

/* ------------------------------------------------------------------------ */
/* errors                                                                     */

START_TEST(test_operand_count)
{
	asm_err("SFPMAD 1, 2, 3",
	        "<line>:1:1: SFPMAD takes 5 operands (lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, "
	        "instr_mod1), got 3");
	asm_err("TTI_SFPMAD(1, 2, 3, 4, 0, 5)",
	        "<line>:1:1: SFPMAD takes 5 operands (lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, "
	        "instr_mod1), got 6");
	asm_err("SEMPOST", "<line>:1:1: SEMPOST takes 1 operand (sem_sel), got 0");
	asm_err("TTI_SEMPOST()", "<line>:1:1: SEMPOST takes 1 operand (sem_sel), got 0");
	asm_err("SEMPOST 1, 2", "<line>:1:1: SEMPOST takes 1 operand (sem_sel), got 2");
	asm_err("NOP 1", "<line>:1:1: NOP takes 0 operands (none), got 1");
	asm_err("TTI_NOP(0)", "<line>:1:1: NOP takes 0 operands (none), got 1");
	asm_err("  SETC16 1", "<line>:1:3: SETC16 takes 2 operands (setc16_reg, setc16_value), got 1");
	asm_err("TTI_SFP_STOCH_RND(1)",
	        "<line>:1:1: SFPSTOCHRND takes 6 operands (rnd_mode, imm8_math, lreg_src_b, lreg_src_c, "
	        "lreg_dest, instr_mod1), got 1");
	asm_err_has("SFPMAD 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "too many operands", NULL);
	asm_err("TTI_SFPMAD(1, 2, 3, 4, 0", "<line>:1:25: expected ')' or ','");
	asm_err("SEMPOST 1,", "<line>:1:11: expected a number");
	asm_err("SFPMAD 1,,2,3,4", "<line>:1:10: expected a number, found ','");
}
END_TEST

/* BUG (src/asm.c parse_insn, line 276): the message quotes the mnemonic with the
   blanks after it ("expected '(' after TTI_SFPMAD "), because it measures
   lx->p - s after skip_space(). */
START_TEST(test_macro_needs_parens)
{
	/* a macro spelling with operands needs its parentheses */
	asm_err_has("TTI_SFPMAD 1, 2, 3, 4, 0", "<line>:1:12: expected '(' after TTI_SFPMAD", NULL);
	asm_err_has("TT_OP_SETC16 1, 2", "<line>:1:14: expected '(' after TT_OP_SETC16", NULL);
	asm_err("TTI_SFPMAD 1, 2, 3, 4, 0", "<line>:1:12: expected '(' after TTI_SFPMAD");
	asm_err("TT_SEMPOST\t1", "<line>:1:12: expected '(' after TT_SEMPOST");
}
END_TEST

START_TEST(test_unknown_names)
{
	asm_err("FOO 1", "<line>:1:1: unknown mnemonic 'FOO'");
	asm_err("  SFPMADD 1, 2, 3, 4, 0", "<line>:1:3: unknown mnemonic 'SFPMADD'");
	asm_err("TTI_FOO(1);", "<line>:1:1: unknown mnemonic 'TTI_FOO'");
	asm_err("TTI_", "<line>:1:1: unknown mnemonic 'TTI_'");
	asm_err("TT_OP_", "<line>:1:1: unknown mnemonic 'TT_OP_'");
	asm_err("SFP_NOP", "<line>:1:1: unknown mnemonic 'SFP_NOP'");
	asm_err("", "<line>:1:1: expected an instruction mnemonic");
	asm_err("   ", "<line>:1:4: expected an instruction mnemonic");
	asm_err("# just a comment", "<line>:1:1: expected an instruction mnemonic");
	asm_err("(1)", "<line>:1:1: expected an instruction mnemonic");
	asm_err(";", "<line>:1:1: expected an instruction mnemonic");
	/* symbols are not known: operands must be numbers */
	asm_err("SFPLOAD p_sfpu::LREG0, 0, 0, 0",
	        "<line>:1:9: unknown symbol 'p_sfpu' (operands must be numbers)");
	asm_err("TTI_SFPLOAD(0, 0, ADDR_MOD_3, 0)",
	        "<line>:1:19: unknown symbol 'ADDR_MOD_3' (operands must be numbers)");
	asm_err("SETC16 0, x1 + 2", "<line>:1:11: unknown symbol 'x1' (operands must be numbers)");
	asm_err("NOP foo", "<line>:1:5: unknown symbol 'foo' (operands must be numbers)");
}
END_TEST

START_TEST(test_trailing_garbage)
{
	asm_err("SFPMAD 1,2,3,4,0 5", "<line>:1:18: unexpected '5' after the operands");
	asm_err("NOP ; x", "<line>:1:7: unexpected 'x' after the operands");
	asm_err("TTI_NOP(); junk", "<line>:1:12: unexpected 'j' after the operands");
	asm_err("TTI_SEMPOST(1);;", "<line>:1:16: unexpected ';' after the operands");
	asm_err("TTI_SEMPOST(1) 2", "<line>:1:16: unexpected '2' after the operands");
	asm_err("SEMPOST 1)", "<line>:1:10: unexpected ')' after the operands");
	asm_err("SEMPOST 2 $ 1", "<line>:1:11: unexpected '$' after the operands");
	asm_err(".word 1 2", "<line>:1:9: unexpected '2'");
	asm_err(".word 5;", "<line>:1:8: unexpected ';'");
}
END_TEST

START_TEST(test_comments)
{
	ASM_EQ("NOP # comment", 0x02000000);
	ASM_EQ("NOP // comment", 0x02000000);
	ASM_EQ("NOP#comment", 0x02000000);
	ASM_EQ("NOP//comment", 0x02000000);
	ASM_EQ("TTI_NOP; // trailing", 0x02000000);
	/* operands after the comment start are ignored: SEMPOST 4 -> 4<<2 = 0x10 */
	ASM_EQ("SEMPOST 4 // , 5", 0xA4000010);
	ASM_EQ("SEMPOST 4 # 5", 0xA4000010);
	ASM_EQ("SEMPOST 4# 5 // 6", 0xA4000010);
	ASM_EQ("SEMPOST 4 //# 5", 0xA4000010);
	ASM_EQ(".word 0x02000000 // raw", 0x02000000);
	/* a comment cuts an operand list short */
	asm_err("SETC16 1, # 2", "<line>:1:11: expected a number");
}
END_TEST

START_TEST(test_asm_line_directives)
{
	ASM_EQ(".word 0", 0x00000000);
	ASM_EQ(".word 0xFFFFFFFF", 0xFFFFFFFF);
	ASM_EQ(".word (0x84 << 24) | 0x12340", 0x84012340);
	asm_err(".word 0x100000000", "<line>:1:7: .word value out of range (32 bits)");
	asm_err(".word -1", "<line>:1:7: .word value out of range (32 bits)");
	asm_err(".word", "<line>:1:1: .word takes one operand");
	asm_err(".word 1, 2", "<line>:1:1: .word takes one operand");
	/* only .word makes a word */
	asm_err(".thread 1", "<line>:1:1: only .word is allowed here");
	asm_err(".mmio 0x100, 0", "<line>:1:1: only .word is allowed here");
	asm_err(".foo 1", "<line>:1:1: only .word is allowed here");
	/* an error leaves *word alone and tolerates a missing message buffer */
	uint32_t w = 0x12345678;
	ck_assert_int_eq(ttx_asm_line("FOO", &w, NULL, 0), TTX_EINVAL);
	ck_assert_uint_eq(w, 0x12345678);
	ck_assert_int_eq(ttx_asm_line("SEMPOST 1", &w, NULL, 0), TTX_OK);
	ck_assert_uint_eq(w, 0xA4000004);
}
END_TEST

START_TEST(test_error_buffer_truncation)
{
	/* a short buffer holds a NUL-terminated prefix and nothing is written past it */
	char buf[32];
	uint32_t w;
	for (size_t len = 1; len < 24; len++) {
		memset(buf, 'Z', sizeof(buf));
		ck_assert_int_eq(ttx_asm_line("SFPMAD 1, 2, 3", &w, buf, len), TTX_EINVAL);
		ck_assert_uint_eq(strlen(buf), len - 1);
		ck_assert_int_eq(strncmp(buf, "<line>:1:1: SFPMAD takes 5", len - 1), 0);
		for (size_t i = len; i < sizeof(buf); i++)
			ck_assert_int_eq(buf[i], 'Z');
	}
}
END_TEST

/* ------------------------------------------------------------------------ */
/* programs: ttx_program_parse                                                */

static struct ttx_program *parse_ok(const char *text, size_t len)
{
	struct ttx_program *p = NULL;
	char err[256] = "";
	ck_assert_msg(ttx_program_parse(text, len, "prog.s", &p, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert(p != NULL);
	return p;
}

static void parse_err(const char *text, size_t len, const char *file, const char *msg)
{
	struct ttx_program *p = (struct ttx_program *)&p; /* must be reset to NULL */
	char err[256] = "";
	ck_assert_int_eq(ttx_program_parse(text, len, file, &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_msg(strcmp(err, msg) == 0, "message '%s', expected '%s'", err, msg);
}
#define PARSE_ERR(lit, msg) parse_err(lit, sizeof(lit) - 1, "prog.s", msg)

static void check_insn(const struct ttx_program *p, size_t i, unsigned thread, uint32_t word, unsigned line)
{
	const struct ttx_item *it = ttx_program_item(p, i);
	ck_assert_ptr_nonnull(it);
	ck_assert_msg(it->kind == TTX_ITEM_INSN, "item %zu is not an instruction", i);
	ck_assert_msg(it->thread == thread, "item %zu: thread %u, expected %u", i, it->thread, thread);
	ck_assert_msg(it->word == word, "item %zu: word 0x%08X, expected 0x%08X", i, it->word, word);
	ck_assert_msg(it->line == line, "item %zu: line %u, expected %u", i, it->line, line);
}

static void check_mmio(const struct ttx_program *p, size_t i, unsigned thread, uint32_t addr, uint32_t value,
                       unsigned line)
{
	const struct ttx_item *it = ttx_program_item(p, i);
	ck_assert_ptr_nonnull(it);
	ck_assert_msg(it->kind == TTX_ITEM_MMIO, "item %zu is not a store", i);
	ck_assert_msg(it->thread == thread, "item %zu: thread %u, expected %u", i, it->thread, thread);
	ck_assert_msg(it->addr == addr, "item %zu: addr 0x%08X, expected 0x%08X", i, it->addr, addr);
	ck_assert_msg(it->value == value, "item %zu: value 0x%08X, expected 0x%08X", i, it->value, value);
	ck_assert_msg(it->line == line, "item %zu: line %u, expected %u", i, it->line, line);
}

START_TEST(test_program_items)
{
	static const char text[] =
		"# header comment\n"                       /* 1 */
		"NOP\n"                                    /* 2: T0 0x02000000 */
		".thread 1\n"                              /* 3 */
		"  SFPMAD 1, 2, 3, 4, 0 // c\n"            /* 4: T1 0x84012340 */
		".word 0x8F000000\n"                       /* 5: T1 SFPNOP */
		".thread 2   # switch\n"                   /* 6 */
		".mmio 0xFFE80020, -1\n"                   /* 7: T2 store, -1 = 0xFFFFFFFF */
		"TTI_SEMPOST(1);\n"                        /* 8: T2 0xA4000004 */
		".thread 0\n"                              /* 9 */
		"\n"                                       /* 10 */
		"\t.word (0x02 << 24) | 1   # reserved bit\n" /* 11: T0 0x02000001 */
		".mmio 0x100, 0x12345678";                 /* 12: T0 store, no final newline */
	struct ttx_program *p = parse_ok(text, sizeof(text) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 7);
	check_insn(p, 0, 0, 0x02000000, 2);
	check_insn(p, 1, 1, 0x84012340, 4);
	check_insn(p, 2, 1, 0x8F000000, 5);
	check_mmio(p, 3, 2, 0xFFE80020, 0xFFFFFFFF, 7);
	check_insn(p, 4, 2, 0xA4000004, 8);
	check_insn(p, 5, 0, 0x02000001, 11);
	check_mmio(p, 6, 0, 0x100, 0x12345678, 12);
	ck_assert_ptr_null(ttx_program_item(p, 7));
	ttx_program_free(p);
}
END_TEST

START_TEST(test_program_line_endings)
{
	/* CRLF line endings and a trailing newline */
	static const char crlf[] = "NOP\r\n\r\nSEMPOST 1\r\n.thread 2\r\nTTI_NOP;\r\n";
	struct ttx_program *p = parse_ok(crlf, sizeof(crlf) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 3);
	check_insn(p, 0, 0, 0x02000000, 1);
	check_insn(p, 1, 0, 0xA4000004, 3);
	check_insn(p, 2, 2, 0x02000000, 5);
	ttx_program_free(p);
	/* the length bounds the text: what follows is not read */
	static const char cut[] = "NOP\nFOO";
	p = parse_ok(cut, 4);
	ck_assert_uint_eq(ttx_program_size(p), 1);
	ttx_program_free(p);
}
END_TEST

START_TEST(test_program_empty)
{
	struct ttx_program *p = parse_ok("", 0);
	ck_assert_uint_eq(ttx_program_size(p), 0);
	ck_assert_ptr_null(ttx_program_item(p, 0));
	ttx_program_free(p);
	static const char comments[] = "# a\n// b\n   \n\t# c ; NOP\n\n// .word 1\n#";
	p = parse_ok(comments, sizeof(comments) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 0);
	ttx_program_free(p);
	/* .thread alone makes no item */
	static const char thread_only[] = ".thread 2\n.thread 1\n";
	p = parse_ok(thread_only, sizeof(thread_only) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 0);
	ttx_program_free(p);
	ttx_program_free(NULL);
}
END_TEST

START_TEST(test_program_directives)
{
	/* .thread: 0-2 */
	static const char threads[] = ".thread 0\nNOP\n.thread 1\nNOP\n.thread 2\nNOP\n.thread 0x1\nNOP";
	struct ttx_program *p = parse_ok(threads, sizeof(threads) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 4);
	check_insn(p, 0, 0, 0x02000000, 2);
	check_insn(p, 1, 1, 0x02000000, 4);
	check_insn(p, 2, 2, 0x02000000, 6);
	check_insn(p, 3, 1, 0x02000000, 8);
	ttx_program_free(p);
	PARSE_ERR(".thread 3", "prog.s:1:9: .thread 3: threads are 0, 1 and 2");
	PARSE_ERR("NOP\n.thread -1", "prog.s:2:9: .thread -1: threads are 0, 1 and 2");
	PARSE_ERR(".thread", "prog.s:1:1: .thread takes one operand");
	PARSE_ERR(".thread 1, 2", "prog.s:1:1: .thread takes one operand");
	/* .mmio ADDR, VALUE: aligned 32-bit address, 32-bit value (negative allowed) */
	static const char mmio[] = ".mmio 0xFFE80024, 0\n.mmio 0, 0xFFFFFFFF\n.mmio 0xFFE000FC, -0x80000000";
	p = parse_ok(mmio, sizeof(mmio) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 3);
	check_mmio(p, 0, 0, 0xFFE80024, 0, 1);
	check_mmio(p, 1, 0, 0, 0xFFFFFFFF, 2);
	check_mmio(p, 2, 0, 0xFFE000FC, 0x80000000, 3);
	ttx_program_free(p);
	PARSE_ERR(".mmio 0xFFE80022, 0", "prog.s:1:7: .mmio address must be a 4-byte aligned 32-bit address");
	PARSE_ERR(".mmio 1, 0", "prog.s:1:7: .mmio address must be a 4-byte aligned 32-bit address");
	PARSE_ERR(".mmio 0x100000000, 0", "prog.s:1:7: .mmio address must be a 4-byte aligned 32-bit address");
	PARSE_ERR(".mmio -4, 0", "prog.s:1:7: .mmio address must be a 4-byte aligned 32-bit address");
	PARSE_ERR(".mmio 0, 0x100000000", "prog.s:1:10: .mmio value out of range (32 bits)");
	PARSE_ERR(".mmio 0, -0x80000001", "prog.s:1:10: .mmio value out of range (32 bits)");
	PARSE_ERR(".mmio 0x100", "prog.s:1:1: .mmio takes two operands (ADDR, VALUE)");
	PARSE_ERR(".mmio", "prog.s:1:1: .mmio takes two operands (ADDR, VALUE)");
	PARSE_ERR(".mmio 0, 1, 2", "prog.s:1:13: too many operands");
	/* .word */
	PARSE_ERR(".word 0x100000000", "prog.s:1:7: .word value out of range (32 bits)");
	PARSE_ERR("NOP\n  .word", "prog.s:2:3: .word takes one operand");
	/* unknown directives */
	PARSE_ERR(".foo 1", "prog.s:1:1: unknown directive '.foo' (.word, .thread, .mmio, .equ, .rept, .if, .include)");
	PARSE_ERR("NOP\n\t.org 0x100", "prog.s:2:2: unknown directive '.org' (.word, .thread, .mmio, .equ, .rept, .if, .include)");
	PARSE_ERR(".", "prog.s:1:1: unknown directive '.' (.word, .thread, .mmio, .equ, .rept, .if, .include)");
}
END_TEST

START_TEST(test_program_error_positions)
{
	/* line and column of the offending token (columns count bytes from 1) */
	PARSE_ERR("NOP\n\n  # c\n    SFPMAD 1, 2, 3, 4, 16\n",
	          "prog.s:4:24: SFPMAD operand instr_mod1 = 16 out of range (4 bits: 0..15)");
	PARSE_ERR("NOP\nNOP\n\tBOGUS 1\n", "prog.s:3:2: unknown mnemonic 'BOGUS'");
	PARSE_ERR("NOP\n.thread 1\n.thread 3\n", "prog.s:3:9: .thread 3: threads are 0, 1 and 2");
	PARSE_ERR("NOP\nFOO", "prog.s:2:1: unknown mnemonic 'FOO'");
	PARSE_ERR("NOP\r\nNOP x\r\n", "prog.s:2:5: unknown symbol 'x' (define it with .equ)");
	PARSE_ERR("# c\n// d\nSETC16 0, 1 +\n", "prog.s:3:14: expected a number");
	PARSE_ERR("NOP # ok\nSFPMAD 1, 2, 3  // short\n",
	          "prog.s:2:1: SFPMAD takes 5 operands (lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, "
	          "instr_mod1), got 3");
	/* the first error wins */
	PARSE_ERR("FOO\nBAR\n", "prog.s:1:1: unknown mnemonic 'FOO'");
	/* no file name: <input> */
	parse_err("NOP\n  FOO", 9, NULL, "<input>:2:3: unknown mnemonic 'FOO'");
	parse_err("X", 1, "dir/a b.s", "dir/a b.s:1:1: unknown mnemonic 'X'");
}
END_TEST

START_TEST(test_program_nul)
{
	/* a NUL byte anywhere on a line, comments included, is an error at its column */
	PARSE_ERR("NOP\nSEM\0POST 1\n", "prog.s:2:4: NUL byte in assembler text");
	PARSE_ERR("NOP # a\0b\n", "prog.s:1:8: NUL byte in assembler text");
	PARSE_ERR("\0", "prog.s:1:1: NUL byte in assembler text");
	/* the terminator of a C string counted in the length */
	static const char with_nul[] = "NOP\n";
	parse_err(with_nul, sizeof(with_nul), "prog.s", "prog.s:2:1: NUL byte in assembler text");
}
END_TEST

START_TEST(test_program_from_words)
{
	static const uint32_t w[] = { 0x02000000, 0x84012340, 0x00000000 };
	struct ttx_program *p = ttx_program_from_words(w, 3, 2);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(ttx_program_size(p), 3);
	for (size_t i = 0; i < 3; i++)
		check_insn(p, i, 2, w[i], 0);
	ttx_program_free(p);
	p = ttx_program_from_words(NULL, 0, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(ttx_program_size(p), 0);
	ttx_program_free(p);
}
END_TEST

/* .equ / .set / .rept / .if / .include (docs/assembly.md) */
START_TEST(test_program_macros)
{
	static const char text[] =
		".equ N, 3\n"                    /* 1 */
		".set X, N * 2\n"                /* 2 */
		".rept N, I\n"                   /* 3 */
		"SETC16 0, X + I\n"              /* 4 */
		".endr\n"                        /* 5 */
		".set X, 100\n"                  /* 6: .set may redefine */
		".if X == 100 && defined(N)\n"   /* 7 */
		"SETC16 1, X % 7\n"              /* 8 */
		".else\n"                        /* 9 */
		"SETC16 1, 0\n"                  /* 10 */
		".endif\n"                       /* 11 */
		".if defined(Y)\n"               /* 12 */
		"SETC16 2, 0\n"                  /* 13 */
		".endif\n"                       /* 14 */
		".rept 2, I\n"                   /* 15: nested, the inner index shadows */
		".rept 2, J\n"                   /* 16 */
		".equ K, 10 * I + J\n"           /* 17: local to the iteration */
		"SETC16 3, K\n"                  /* 18 */
		".endr\n"
		".endr\n";
	struct ttx_program *p = parse_ok(text, sizeof(text) - 1);
	ck_assert_uint_eq(ttx_program_size(p), 8);
	check_insn(p, 0, 0, 0xB2000006, 4);
	check_insn(p, 1, 0, 0xB2000007, 4);
	check_insn(p, 2, 0, 0xB2000008, 4);
	check_insn(p, 3, 0, 0xB2010002, 8);
	check_insn(p, 4, 0, 0xB2030000, 18);
	check_insn(p, 5, 0, 0xB2030001, 18);
	check_insn(p, 6, 0, 0xB203000A, 18);
	check_insn(p, 7, 0, 0xB203000B, 18);
	ttx_program_free(p);

	/* symbols from the caller */
	static const struct ttx_asm_symbol syms[] = { { "A", 5 }, { "B", 2 } };
	static const char t2[] = "SETC16 B, A * B\n.rept A - B\nNOP\n.endr\n";
	char err[256] = "";
	ck_assert_int_eq(ttx_program_parse_with(t2, sizeof(t2) - 1, "k.s", syms, 2, &p, err, sizeof(err)), TTX_OK);
	ck_assert_uint_eq(ttx_program_size(p), 4);
	check_insn(p, 0, 0, 0xB202000A, 1);
	ttx_program_free(p);

	/* a library kernel is included by name, and its lines carry its name */
	static const char t3[] = ".include \"common.s\"\nSETC16 0, FMT_BF16\n";
	p = parse_ok(t3, sizeof(t3) - 1);
	check_insn(p, 0, 0, 0xB2000005, 2);
	ck_assert_str_eq(ttx_program_item(p, 0)->file, "prog.s");
	ttx_program_free(p);

	PARSE_ERR(".equ N, 1\n.equ N, 2\n", "prog.s:2:6: 'N' is already defined as 1");
	PARSE_ERR(".rept 2\nNOP\n", "prog.s:1:1: .rept without .endr");
	PARSE_ERR(".endr\n", "prog.s:1:1: .endr without its opening directive");
	PARSE_ERR(".if 1\nNOP\n", "prog.s:1:1: .if without .endif");
	PARSE_ERR(".else\n", "prog.s:1:1: .else without its opening directive");
	PARSE_ERR(".rept -1\n.endr\n", "prog.s:1:1: .rept count -1 out of range (0..1000000)");
	PARSE_ERR(".rept 2, 9x\n.endr\n", "prog.s:1:10: expected the name of the index after ','");
	PARSE_ERR(".equ 1, 2\n", "prog.s:1:6: .equ takes a name and a value");
	PARSE_ERR(".equ A 2\n", "prog.s:1:8: expected ',' after the name");
	PARSE_ERR(".if Q\n.endif\n", "prog.s:1:5: unknown symbol 'Q' (define it with .equ)");
	PARSE_ERR(".include \"no-such-file.s\"\n",
	          "prog.s:1:11: cannot open 'no-such-file.s' (not a library kernel, and no such file)");
	/* a kernel with an error reports the kernel's own line */
	static const char t4[] = ".include \"unpack_tile.s\"\n";
	p = NULL;
	ck_assert_int_eq(ttx_program_parse(t4, sizeof(t4) - 1, "prog.s", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_msg(strncmp(err, "unpack_tile.s:", 14) == 0 && strstr(err, "unknown symbol"), "%s", err);
	/* runaway expansion and nesting are errors, not hangs */
	PARSE_ERR(".rept 1000000\n.rept 1000000\nNOP\n.endr\n.endr\n",
	          "prog.s:3:1: the program has more than 1048576 instructions and stores (a runaway .rept?)");
	/* bodies that emit nothing expand too: the lines handled are counted
	   (a fuzzer input took minutes before) */
	PARSE_ERR(".rept 1000000\n.rept 1000000\n.set X, 1\n.endr\n.endr\n",
	          "prog.s:3:1: the program expands to more than 16777216 lines (a runaway .rept?)");
	char deep[1200];
	size_t n = 0;
	n += (size_t)sprintf(deep + n, "SETC16 0, ");
	for (int k = 0; k < 300; k++)
		deep[n++] = '(';
	deep[n++] = '1';
	for (int k = 0; k < 300; k++)
		deep[n++] = ')';
	deep[n] = '\0';
	p = NULL;
	ck_assert_int_eq(ttx_program_parse(deep, n, "prog.s", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_msg(strstr(err, "expression nests too deeply") != NULL, "%s", err);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* disassembler                                                               */

static void dis_eq(uint32_t word, const char *text, int ret)
{
	char buf[256];
	memset(buf, 'Z', sizeof(buf));
	int r = ttx_disasm(word, buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, text) == 0, "0x%08X -> '%s', expected '%s'", word, buf, text);
	ck_assert_msg(r == ret, "0x%08X: returned %d, expected %d", word, r, ret);
}

START_TEST(test_disasm_text)
{
	dis_eq(0x84012340, "SFPMAD 1, 2, 3, 4, 0", 0);
	/* 0x840AB5C9: a = 0xA, b = 0xB, c = 5, d = 0xC, mod1 = 9 (>= 10 in hex) */
	dis_eq(0x840AB5C9, "SFPMAD 0xA, 0xB, 5, 0xC, 9", 0);
	dis_eq(0x02000000, "NOP", 0);
	dis_eq(0x8F000000, "SFPNOP", 0);
	dis_eq(0xB2ABCDEF, "SETC16 0xAB, 0xCDEF", 0);
	dis_eq(0xA4000024, "SEMPOST 9", 0);                /* 9 << 2 */
	dis_eq(0xA4000028, "SEMPOST 0xA", 0);              /* 10 << 2 */
	dis_eq(0xA40003FC, "SEMPOST 0xFF", 0);
	/* a negative operand comes back as its field bits */
	dis_eq(0x79FFF231, "SFPIADD 0xFFF, 2, 3, 1", 0);
	dis_eq(0x04FFFFFF, "REPLAY 0x3FF, 0x3FF, 7, 1", 0);
	/* undocumented opcode: known mnemonic, no layout, no annotation */
	dis_eq(0x14000000, "TRNSPSRCA", 0);
	/* mode annotations: the documented layout that applies, when its name differs */
	dis_eq(0x45123405, "SETDMAREG 0, 0x1234, 0, 5  # SETDMAREG_Immediate", 0); /* bit 7 = 0 */
	dis_eq(0x4540108C, "SETDMAREG 1, 0x10, 1, 0xC  # SETDMAREG_Special", 0);   /* bit 7 = 1 */
	dis_eq(0x8E223456, "SFPSTOCHRND 1, 2, 3, 4, 5, 6", 0);                     /* bit 3 = 0 */
	dis_eq(0x8E223458, "SFPSTOCHRND 1, 2, 3, 4, 5, 8  # SFPSTOCHRNDi", 0);     /* bit 3 = 1 */
	/* ADDDMAREG: OpBisConst@23 Result@12 OpB@6 OpA@0: 1<<23 | 3<<12 | 5<<6 | 7 */
	dis_eq(0x58803147, "ADDDMAREG 1, 3, 5, 7  # ADDDMAREGi", 0);
	dis_eq(0x58003147, "ADDDMAREG 0, 3, 5, 7", 0);
	dis_eq(0x22000000, "CONV3S1 0, 0, 0, 0  # LEGACY3S", 0);
	dis_eq(0xB3000000, "RMWCIB0 0, 0, 0  # RMWCIB", 0);
	dis_eq(0x43000002, "UNPACR_NOP 0, 2  # UNPACR_NOP_Nop", 0);
}
END_TEST

START_TEST(test_disasm_word_fallback)
{
	/* opcodes outside the ISA */
	dis_eq(0x00000000, ".word 0x00000000  # unknown opcode 0x00", 1);
	dis_eq(0xFFFFFFFF, ".word 0xFFFFFFFF  # unknown opcode 0xFF", 1);
	dis_eq(0x05ABCDEF, ".word 0x05ABCDEF  # unknown opcode 0x05", 1);
	/* known opcodes with bits no operand covers */
	dis_eq(0x02000001, ".word 0x02000001  # NOP with bits 0x000001 outside its operands", 1);
	dis_eq(0x02800000, ".word 0x02800000  # NOP with bits 0x800000 outside its operands", 1);
	dis_eq(0x8F000100, ".word 0x8F000100  # SFPNOP with bits 0x000100 outside its operands", 1);
	/* SEMPOST uses only bits 9:2: 0xFFFFFF & ~0x3FC = 0xFFFC03 */
	dis_eq(0xA4FFFFFF, ".word 0xA4FFFFFF  # SEMPOST with bits 0xFFFC03 outside its operands", 1);
	dis_eq(0xA4000001, ".word 0xA4000001  # SEMPOST with bits 0x000001 outside its operands", 1);
	/* SFPCAST uses bits 11:0 */
	dis_eq(0x90001000, ".word 0x90001000  # SFPCAST with bits 0x001000 outside its operands", 1);
	/* and such text reassembles to the same word */
	ASM_EQ(".word 0x02000001  # NOP with bits 0x000001 outside its operands", 0x02000001);
}
END_TEST

START_TEST(test_disasm_short_buffer)
{
	static const uint32_t words[] = {
		0x84012340, 0x4540108C, 0x00000000, 0x02000001, 0x02000000, 0x840AB5C9,
	};
	char full[256], buf[64];
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		int want = ttx_disasm(words[k], full, sizeof(full));
		for (size_t len = 1; len < 60; len++) {
			memset(buf, 'Z', sizeof(buf));
			int r = ttx_disasm(words[k], buf, len);
			size_t exp = strlen(full) < len - 1 ? strlen(full) : len - 1;
			ck_assert_msg(strlen(buf) == exp, "0x%08X len %zu: '%s'", words[k], len, buf);
			ck_assert_int_eq(strncmp(buf, full, exp), 0);
			for (size_t i = len; i < sizeof(buf); i++)
				ck_assert_msg(buf[i] == 'Z', "0x%08X len %zu: byte %zu written", words[k], len, i);
			if (want)   /* an unknown word is reported whatever the length */
				ck_assert_int_eq(r, 1);
		}
	}
	/* len 8: "SFPMAD " and ".word 0" */
	memset(buf, 'Z', sizeof(buf));
	ttx_disasm(0x84012340, buf, 8);
	ck_assert_str_eq(buf, "SFPMAD ");
	ck_assert_int_eq(buf[8], 'Z');
	ck_assert_int_eq(ttx_disasm(0x00000000, buf, 8), 1);
	ck_assert_str_eq(buf, ".word 0");
	/* len 1: empty string; len 0: nothing written */
	memset(buf, 'Z', sizeof(buf));
	ttx_disasm(0x84012340, buf, 1);
	ck_assert_int_eq(buf[0], '\0');
	ck_assert_int_eq(buf[1], 'Z');
	memset(buf, 'Z', sizeof(buf));
	ck_assert_int_eq(ttx_disasm(0x84012340, buf, 0), 1);
	ck_assert_int_eq(buf[0], 'Z');
}
END_TEST

/* word -> text -> word, for every opcode, random operands and random words */
START_TEST(test_disasm_round_trip)
{
	char buf[256];
	for (unsigned op = 0; op < 256; op++) {
		uint32_t w = (uint32_t)op << 24;
		int r = ttx_disasm(w, buf, sizeof(buf));
		ck_assert_msg(r == (ttx_isa_insn(op)->mnemonic ? 0 : 1), "opcode 0x%02X: returned %d", op, r);
		ck_assert_uint_eq(asm1(buf), w);
	}
	uint64_t seed = 0x5EEDC0DE1234ull;
	for (int i = 0; i < 20000; i++) {
		uint32_t w = (uint32_t)test_rand(&seed);
		const struct ttx_insn_info *in = ttx_isa_insn(w >> 24);
		if (in->mnemonic && (i & 1))
			w &= ~ttx_isa_reserved_bits(in);   /* a valid encoding */
		int r = ttx_disasm(w, buf, sizeof(buf));
		int valid = in->mnemonic && !(w & ttx_isa_reserved_bits(in));
		ck_assert_msg(r == !valid, "0x%08X -> '%s' returned %d", w, buf, r);
		ck_assert_msg(asm1(buf) == w, "0x%08X -> '%s' -> 0x%08X", w, buf, asm1(buf));
		/* lower case reassembles too */
		for (char *c = buf; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		ck_assert_msg(asm1(buf) == w, "0x%08X -> '%s' -> 0x%08X", w, buf, asm1(buf));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("asm");
	TCase *tc = tcase_create("syntax");
	tcase_add_test(tc, test_llk_macro_forms);
	tcase_add_test(tc, test_syntax_forms);
	tcase_add_test(tc, test_no_operand_forms);
	tcase_add_test(tc, test_comments);
	suite_add_tcase(s, tc);

	tc = tcase_create("numbers");
	tcase_add_test(tc, test_numbers);
	suite_add_tcase(s, tc);

	tc = tcase_create("expressions");
	tcase_add_test(tc, test_expressions);
	tcase_add_test(tc, test_multiply_overflow_rejected);
	tcase_add_test(tc, test_shift_overflow_rejected);
	tcase_add_test(tc, test_plain_first_operand_in_parens);
	suite_add_tcase(s, tc);

	tc = tcase_create("ranges");
	tcase_add_test(tc, test_negative_operands);
	tcase_add_test(tc, test_field_limits);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_operand_count);
	tcase_add_test(tc, test_macro_needs_parens);
	tcase_add_test(tc, test_unknown_names);
	tcase_add_test(tc, test_trailing_garbage);
	tcase_add_test(tc, test_asm_line_directives);
	tcase_add_test(tc, test_error_buffer_truncation);
	suite_add_tcase(s, tc);

	tc = tcase_create("program");
	/* the runaway-expansion case fills 16 M items before it stops: seconds
	   on a loaded machine, more than Check's default 4 */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_program_items);
	tcase_add_test(tc, test_program_line_endings);
	tcase_add_test(tc, test_program_empty);
	tcase_add_test(tc, test_program_directives);
	tcase_add_test(tc, test_program_error_positions);
	tcase_add_test(tc, test_program_nul);
	tcase_add_test(tc, test_program_from_words);
	tcase_add_test(tc, test_program_macros);
	suite_add_tcase(s, tc);

	tc = tcase_create("disasm");
	tcase_add_test(tc, test_disasm_text);
	tcase_add_test(tc, test_disasm_word_fallback);
	tcase_add_test(tc, test_disasm_short_buffer);
	tcase_add_test(tc, test_disasm_round_trip);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
