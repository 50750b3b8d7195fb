/* sync unit instructions (interp/sync.c): hand-derived expectations at edge values. */
#include "tile.h"
#include "util.h"

int main(void)
{
	Suite *s = suite_create("sync");
	return test_run_suite(s);
}
