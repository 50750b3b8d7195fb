/* The programs in examples/ run and compute what their comments say. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "util.h"

struct trace { uint32_t word[512]; uint8_t thread[512]; unsigned n; };

static void record(void *ctx, unsigned thread, uint32_t word)
{
	struct trace *tr = ctx;
	if (tr->n < 512) {
		tr->word[tr->n] = word;
		tr->thread[tr->n++] = (uint8_t)thread;
	}
}

static struct ttx_tile *run_example(const char *name, struct trace *tr)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", TTX_EXAMPLES, name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	static char text[65536];
	size_t len = fread(text, 1, sizeof(text), f);
	fclose(f);
	struct ttx_options opt = { .trace = record, .trace_ctx = tr };
	struct ttx_tile *t = ttx_tile_new(&opt);
	struct ttx_program *p;
	char err[256];
	memset(tr, 0, sizeof(*tr));
	ck_assert_msg(ttx_program_parse(text, len, path, &p, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert_msg(ttx_program_run(t, p, 100000) == TTX_OK, "%s", ttx_tile_error(t));
	ttx_program_free(p);
	return t;
}

/* Position in the trace of the n-th (0-based) retirement of `opcode` by `thread`. */
static unsigned nth(const struct trace *tr, unsigned thread, unsigned opcode, unsigned n)
{
	for (unsigned i = 0; i < tr->n; i++)
		if (tr->thread[i] == thread && tr->word[i] >> 24 == opcode && n-- == 0)
			return i;
	ck_abort_msg("thread %u never retired opcode 0x%02X", thread, opcode);
	return 0;
}

START_TEST(test_first_example)
{
	struct trace tr;
	struct ttx_tile *t = run_example("first.s", &tr);
	ck_assert_uint_eq(tr.n, 6);
	ck_assert_uint_eq(t->gpr[0][5], 0x12345678);   /* the .mmio store into GPR 5 */
	ttx_tile_destroy(t);
}
END_TEST

/* Lane l of region r holds x = (2 l + 2) 2^r; thread 1 computes x * x + 1,
   exact in FP32 (at most 128^2 + 1); thread 2 copies region r to rows
   64 + 16 r.  Lane l of each 4-row group is row l / 8, column 2 (l % 8). */
START_TEST(test_three_threads_example)
{
	struct trace tr;
	struct ttx_tile *t = run_example("three_threads.s", &tr);
	for (unsigned r = 0; r < 2; r++) {
		for (unsigned g = 0; g < 4; g++) {
			for (unsigned lane = 0; lane < 32; lane++) {
				float x = (float)((2 * lane + 2) << r), y = x * x + 1.0f;
				uint32_t want;
				memcpy(&want, &y, 4);
				unsigned row = 16 * r + 4 * g + lane / 8, col = 2 * (lane % 8);
				ck_assert_msg(ttx_unshuffle_fp32(ttx_dst32_get(t, row, col)) == want,
				              "region %u row %u col %u", r, row, col);
				ck_assert_msg(ttx_unshuffle_fp32(ttx_dst32_get(t, 64 + row, col)) == want,
				              "copy of region %u row %u col %u", r, row, col);
			}
		}
	}
	/* The hand-offs happened in order: thread 1's first SFPMAD after thread
	   0's first SEMPOST; thread 2's first SFPLOAD after thread 1's first
	   SEMPOST; region 1's MADs after thread 0's second SEMPOST. */
	ck_assert_uint_gt(nth(&tr, 1, TTX_OP_SFPMAD, 0), nth(&tr, 0, TTX_OP_SEMPOST, 0));
	ck_assert_uint_gt(nth(&tr, 2, TTX_OP_SFPLOAD, 0), nth(&tr, 1, TTX_OP_SEMPOST, 0));
	ck_assert_uint_gt(nth(&tr, 1, TTX_OP_SFPMAD, 4), nth(&tr, 0, TTX_OP_SEMPOST, 1));
	/* 2 MOPs x 4 replays x 4 instructions ran on thread 1. */
	unsigned mads = 0;
	for (unsigned i = 0; i < tr.n; i++)
		mads += tr.thread[i] == 1 && tr.word[i] >> 24 == TTX_OP_SFPMAD;
	ck_assert_uint_eq(mads, 8);
	/* Both tokens of each semaphore were taken. */
	ck_assert_uint_eq(t->semaphores[0].value, 0);
	ck_assert_uint_eq(t->semaphores[1].value, 0);
	ttx_tile_destroy(t);
}
END_TEST

static void *slurp(const char *name, size_t want)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", TTX_EXAMPLES, name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	void *buf = malloc(want + 1);
	size_t n = fread(buf, 1, want + 1, f);
	fclose(f);
	ck_assert_msg(n == want, "%s: %zu bytes, want %zu", path, n, want);
	return buf;
}

/* eltwise_add.s: C = A + B over 8 BF16 tiles, out as BFP8.  The result is
   the host's BFP8 conversion (to nearest, ties away) of the exact sums, and
   equals the committed expected file, under every engine and --strict.
   The three threads' hand-offs: each PACR after the matching SEMPOST of the
   math thread, each UNPACR pair after the previous tile's banks came back. */
static void eltwise_add(enum ttx_engine engine, int strict)
{
	uint8_t *a = slurp("eltwise_add.a.bin", 16384), *b = slurp("eltwise_add.b.bin", 16384);
	uint8_t *c = slurp("eltwise_add.c.bin", 8704);
	float fa[32 * 256], fb[32 * 256];
	uint8_t want[8704], got[8704];
	ck_assert_int_eq(ttx_untilize(TTX_FORMAT_BF16, a, 16384, fa, 32, 256), TTX_OK);
	ck_assert_int_eq(ttx_untilize(TTX_FORMAT_BF16, b, 16384, fb, 32, 256), TTX_OK);
	for (unsigned i = 0; i < 32 * 256; i++)
		fa[i] += fb[i];   /* exact: multiples of 1/8 below 16 in magnitude */
	ck_assert_int_eq(ttx_tilize(TTX_FORMAT_BFP8, TTX_ROUND_NEAREST_AWAY, fa, 32, 256, want, sizeof(want)), TTX_OK);
	ck_assert(memcmp(want, c, sizeof(want)) == 0);

	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", TTX_EXAMPLES, "eltwise_add.s");
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	static char text[65536];
	size_t len = fread(text, 1, sizeof(text), f);
	fclose(f);
	struct trace tr;
	memset(&tr, 0, sizeof(tr));
	struct ttx_options opt = { .engine = engine, .strict = strict };
	if (engine == TTX_ENGINE_INTERP)
		opt.trace = record, opt.trace_ctx = &tr;
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_int_eq(ttx_l1_write(t, 0x10000, a, 16384), TTX_OK);
	ck_assert_int_eq(ttx_l1_write(t, 0x20000, b, 16384), TTX_OK);
	struct ttx_program *p;
	char err[256];
	ck_assert_msg(ttx_program_parse(text, len, path, &p, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert_msg(ttx_program_run(t, p, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ttx_program_free(p);
	ck_assert_int_eq(ttx_l1_read(t, 0x30000, got, sizeof(got)), TTX_OK);
	ck_assert(memcmp(got, want, sizeof(want)) == 0);
	if (engine == TTX_ENGINE_INTERP && tr.n < 512)
		for (unsigned k = 0; k < 8; k++)
			ck_assert_uint_gt(nth(&tr, 2, TTX_OP_PACR, k), nth(&tr, 1, TTX_OP_SEMPOST, k));
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns_by_thread[0] > 0 && st.insns_by_thread[1] > 0 && st.insns_by_thread[2] > 0, 1);
	ttx_tile_destroy(t);
	free(a), free(b), free(c);
}

START_TEST(test_eltwise_add_example)
{
	eltwise_add(TTX_ENGINE_INTERP, 0);
	eltwise_add(TTX_ENGINE_INTERP, 1);
	if (ttx_jit_available())
		eltwise_add(TTX_ENGINE_JIT, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("examples");
	TCase *tc = tcase_create("examples");
	tcase_add_test(tc, test_first_example);
	tcase_add_test(tc, test_three_threads_example);
	tcase_add_test(tc, test_eltwise_add_example);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
