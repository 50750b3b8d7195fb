#include <stdio.h>
#include <stdlib.h>

#include "util.h"

char *test_read_data(const char *name, size_t *len)
{
	const char *dir = getenv("TTX_TEST_DATA");
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : TTX_TEST_DATA, name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	ck_assert(buf != NULL);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

uint64_t test_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

int test_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

TCase *test_tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);
	suite_add_tcase(s, tc);
	return tc;
}

void test_push_words(struct ttx_tile *t, unsigned thread, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(ttx_push(t, thread, w[i]), TTX_OK);
}
