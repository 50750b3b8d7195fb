/* Shared helpers of the Check suites. */
#ifndef TTX_TEST_UTIL_H
#define TTX_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <check.h>

#include "ttx.h"

/* Contents of tests/data/NAME, NUL-terminated; aborts the test if missing. */
char *test_read_data(const char *name, size_t *len);
/* Deterministic PRNG for property tests (xorshift64*). */
uint64_t test_rand(uint64_t *state);
/* A new TCase added to s. */
TCase *test_tcase(Suite *s, const char *name);
/* Run one suite with Check's runner; returns the process exit code. */
int test_run_suite(Suite *s);

/* Push words to a thread's pipe, failing the test if a push fails. */
void test_push_words(struct ttx_tile *t, unsigned thread, const uint32_t *w, size_t n);
#define PUSH(t, thread, ...) do { \
	const uint32_t w_[] = { __VA_ARGS__ }; \
	test_push_words(t, thread, w_, sizeof(w_) / sizeof(w_[0])); \
} while (0)
#define RUN_OK(t) ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t))

#endif
