/* scalar unit instructions (interp/scalar.c): hand-derived expectations at edge values. */
#include "tile.h"
#include "util.h"

int main(void)
{
	Suite *s = suite_create("scalar");
	return test_run_suite(s);
}
