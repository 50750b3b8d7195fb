/* SFPU round sub-unit instructions (interp/sfpu_round.c): hand-derived expectations
 * at edge values. */
#include "sfpu_test.h"

int main(void)
{
	Suite *s = suite_create("sfpu_round");
	return test_run_suite(s);
}
