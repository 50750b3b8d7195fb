/* SFPU mad sub-unit instructions (interp/sfpu_mad.c): hand-derived expectations
 * at edge values. */
#include "sfpu_test.h"

int main(void)
{
	Suite *s = suite_create("sfpu_mad");
	return test_run_suite(s);
}
