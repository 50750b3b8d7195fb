/* SFPU simple sub-unit instructions (interp/sfpu_simple.c): hand-derived expectations
 * at edge values. */
#include "sfpu_test.h"

int main(void)
{
	Suite *s = suite_create("sfpu_simple");
	return test_run_suite(s);
}
