/* SFPU load, store, SFPLOADI, SFPCONFIG, SFPLOADMACRO (interp/sfpu.c): hand-derived expectations
 * at edge values. */
#include "sfpu_test.h"

int main(void)
{
	Suite *s = suite_create("sfpu");
	return test_run_suite(s);
}
