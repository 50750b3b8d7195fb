/* Helpers for SFPU tests: a tile, per-lane LReg set-up, running words. */
#ifndef TTX_SFPU_TEST_H
#define TTX_SFPU_TEST_H

#include <string.h>

#include "sfpu.h"
#include "util.h"

/* Run instruction words on thread 0 of t; fail the test on any fault. */
static inline void sfpu_run(struct ttx_tile *t, const uint32_t *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(ttx_push(t, 0, words[i]), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
}

#define SFPU_RUN(t, ...) do { \
	const uint32_t words_[] = { __VA_ARGS__ }; \
	sfpu_run(t, words_, sizeof(words_) / sizeof(words_[0])); \
} while (0)

static inline void sfpu_set_lanes(struct ttx_tile *t, unsigned reg, const uint32_t lanes[TTX_LANES])
{
	memcpy(t->sfpu.lreg[reg], lanes, sizeof(t->sfpu.lreg[reg]));
}

static inline void sfpu_fill(struct ttx_tile *t, unsigned reg, uint32_t value)
{
	for (unsigned l = 0; l < TTX_LANES; l++)
		t->sfpu.lreg[reg][l] = value;
}

/* Encode an instruction from tt-llk-order operands through the table. */
static inline uint32_t sfpu_asm(const char *text)
{
	uint32_t w = 0;
	char err[256];
	ck_assert_msg(ttx_asm_line(text, &w, err, sizeof(err)) == TTX_OK, "%s: %s", text, err);
	return w;
}

#endif
