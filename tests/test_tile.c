/* Tile state, host access and the run loop. */
#include <string.h>

#include "tile.h"
#include "util.h"

START_TEST(test_reset_lreg_constants)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint32_t l[TTX_LANES];
	ck_assert_int_eq(ttx_lreg_read(t, 10, l), TTX_OK);
	ck_assert_uint_eq(l[31], 0x3F800000);
	ck_assert_int_eq(ttx_lreg_read(t, 15, l), TTX_OK);
	ck_assert_uint_eq(l[31], 62);
	ck_assert_int_eq(ttx_lreg_read(t, 17, l), TTX_EINVAL);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tile");
	TCase *tc = tcase_create("state");
	tcase_add_test(tc, test_reset_lreg_constants);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
