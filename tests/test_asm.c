/* Assembler and disassembler: syntax, directives, error messages. */
#include <string.h>

#include "ttx.h"
#include "util.h"

static uint32_t asm1(const char *text)
{
	uint32_t w = 0;
	char err[256];
	ck_assert_msg(ttx_asm_line(text, &w, err, sizeof(err)) == TTX_OK, "'%s': %s", text, err);
	return w;
}

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

int main(void)
{
	Suite *s = suite_create("asm");
	TCase *tc = tcase_create("syntax");
	tcase_add_test(tc, test_llk_macro_forms);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
