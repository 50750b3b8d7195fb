/* Shared helpers of the Check suites. */
#ifndef TTX_TEST_UTIL_H
#define TTX_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <check.h>

/* Contents of tests/data/NAME, NUL-terminated; aborts the test if missing. */
char *test_read_data(const char *name, size_t *len);
/* Deterministic PRNG for property tests (xorshift64*). */
uint64_t test_rand(uint64_t *state);
/* A new TCase added to s. */
TCase *test_tcase(Suite *s, const char *name);
/* Run one suite with Check's runner; returns the process exit code. */
int test_run_suite(Suite *s);

#endif
