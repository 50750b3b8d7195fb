/* config unit instructions (interp/config.c): hand-derived expectations at edge values. */
#include "tile.h"
#include "util.h"

int main(void)
{
	Suite *s = suite_create("config");
	return test_run_suite(s);
}
