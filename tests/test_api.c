/* The public C API (ttx.h) at its edges: NULL arguments give TTX_EINVAL (or
 * a documented value) instead of a crash, sizes that overflow are refused,
 * and a host can stop a run (ttx_options.interrupt, a progress callback
 * returning non-zero) or cap an operation's memory (max_memory). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "util.h"

START_TEST(test_op_api_nulls)
{
	char err[256];
	float a[4] = { 1, 2, 3, 4 };
	struct ttx_tensor in = { a, 1, 2, 2 };
	size_t b, r, c, n;
	/* ttx_op_shape with NULL output pointers */
	ck_assert_int_eq(ttx_op_shape("relu", &in, 1, NULL, NULL, &r, &c, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "NULL"));
	ck_assert_int_eq(ttx_op_shape("relu", &in, 1, NULL, &b, NULL, &c, err, sizeof(err)), TTX_EINVAL);
	ck_assert_int_eq(ttx_op_shape("relu", &in, 1, NULL, &b, &r, NULL, err, sizeof(err)), TTX_EINVAL);
	ck_assert_int_eq(ttx_op_shape("relu", &in, 1, NULL, &b, &r, &c, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(ttx_op_shape(NULL, &in, 1, NULL, &b, &r, &c, err, sizeof(err)), TTX_EINVAL);
	ck_assert_int_eq(ttx_op_shape("relu", NULL, 1, NULL, &b, &r, &c, err, sizeof(err)), TTX_EINVAL);
	/* ttx_op_list(NULL): the list, ended by an entry without a name */
	const struct ttx_op_info *ops = ttx_op_list(NULL), *counted = ttx_op_list(&n);
	ck_assert_ptr_eq(ops, counted);
	ck_assert_ptr_null(ops[n].name);
	for (size_t i = 0; i < n; i++)
		ck_assert_ptr_nonnull(ops[i].name);
	ttx_op_params_default(NULL);   /* does nothing */
	ck_assert_int_eq(ttx_op_memory("relu", &in, 1, NULL, NULL, err, sizeof(err)), TTX_EINVAL);
}
END_TEST

START_TEST(test_asm_api_nulls)
{
	char err[256];
	uint32_t w = 7;
	struct ttx_program *p = (struct ttx_program *)&w;
	ck_assert_int_eq(ttx_asm_line(NULL, &w, err, sizeof(err)), TTX_EINVAL);
	ck_assert_str_eq(err, "ttx_asm_line: text is NULL");
	ck_assert_int_eq(ttx_asm_line("NOP", NULL, err, sizeof(err)), TTX_EINVAL);
	ck_assert_str_eq(err, "ttx_asm_line: word is NULL");
	ck_assert_int_eq(ttx_asm_line("NOP", &w, NULL, 0), TTX_OK);
	ck_assert_uint_eq(w, 0x02000000);
	ck_assert_int_eq(ttx_program_parse(NULL, 5, "x", &p, err, sizeof(err)), TTX_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err, "ttx_program_parse: text is NULL");
	ck_assert_int_eq(ttx_program_parse("NOP", 3, "x", NULL, err, sizeof(err)), TTX_EINVAL);
	/* NULL text of length 0 is an empty program */
	ck_assert_int_eq(ttx_program_parse(NULL, 0, "x", &p, err, sizeof(err)), TTX_OK);
	ck_assert_uint_eq(ttx_program_size(p), 0);
	ttx_program_free(p);
}
END_TEST

START_TEST(test_format_bytes_overflow)
{
	ck_assert_uint_eq(ttx_format_bytes(TTX_FORMAT_FP32, 16), 64);
	ck_assert_uint_eq(ttx_format_bytes(TTX_FORMAT_FP32, (1ull << 62) + 1), 0);
	ck_assert_uint_eq(ttx_format_bytes(TTX_FORMAT_BFP8, SIZE_MAX), 0);
	ck_assert_uint_eq(ttx_format_bytes(TTX_FORMAT_BF16, (1ull << 58)), 1ull << 59);
	/* and the encoder refuses such a count instead of writing past out */
	float in[16] = { 0 };
	uint8_t out[64];
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP32, TTX_ROUND_NEAREST_EVEN, in, (1ull << 62) + 1, out,
	                                   sizeof(out)), TTX_EINVAL);
}
END_TEST

/* A program that runs for many seconds on either engine: 100,000 MOPs of
   127 x 127 SFPMADs (SFPMAD 1, 2, 3, 4, 0: work compiled code cannot skip). */
static void push_long_program(struct ttx_tile *t)
{
	static const uint32_t cfg[9] = { 127, 127, 0x02000000, 0x02000000, 0x02000000, 0x84012340, 0x02000000,
	                                 0x84012340, 0x84012340 };
	for (unsigned i = 0; i < 9; i++)
		ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB80000u + 4 * i, cfg[i]), TTX_OK);
	uint32_t mop;
	ck_assert_int_eq(ttx_asm_line("MOP 1, 0, 0", &mop, NULL, 0), TTX_OK);
	for (int i = 0; i < 100000; i++)
		ck_assert_int_eq(ttx_push(t, 0, mop), TTX_OK);
}

static void *set_later(void *arg)
{
	nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELAXED);
	return NULL;
}

START_TEST(test_interrupt_stops_a_run)
{
	static const enum ttx_engine engines[] = { TTX_ENGINE_INTERP, TTX_ENGINE_JIT };
	for (int e = 0; e < 2; e++) {
		if (engines[e] == TTX_ENGINE_JIT && !ttx_jit_available())
			continue;
		int flag = 0;
		struct ttx_options opt = { .engine = engines[e], .interrupt = &flag };
		struct ttx_tile *t = ttx_tile_new(&opt);
		push_long_program(t);
		pthread_t th;
		pthread_create(&th, NULL, set_later, &flag);
		ck_assert_int_eq(ttx_run(t, 0), TTX_INTERRUPTED);
		pthread_join(th, NULL);
		ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "interrupted after"));
		/* set beforehand: nothing runs */
		struct ttx_stats s0, s1;
		ttx_stats_get(t, &s0);
		ck_assert_int_eq(ttx_run(t, 0), TTX_INTERRUPTED);
		ttx_stats_get(t, &s1);
		ck_assert_uint_eq(s1.insns, s0.insns);
		ttx_tile_destroy(t);
	}
}
END_TEST

static int stop_at_half(void *ctx, double fraction)
{
	int *calls = ctx;
	++*calls;
	return fraction >= 0.5;
}

START_TEST(test_progress_stops_an_op)
{
	/* 512 x 512: four blocks of 8 x 8 output tiles, a kernel run each */
	size_t n = 512 * 512;
	float *a = calloc(n, sizeof(float)), *o = calloc(n, sizeof(float));
	struct ttx_tensor in[2] = { { a, 1, 512, 512 }, { a, 1, 512, 512 } }, out = { o, 1, 512, 512 };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	int calls = 0;
	p.progress = stop_at_half, p.progress_ctx = &calls;
	p.fidelity = TTX_FIDELITY_LOFI;
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t = ttx_tile_new(&opt);
	char err[256];
	ck_assert_int_eq(ttx_op_run(t, "matmul", in, 2, &p, &out, err, sizeof(err)), TTX_INTERRUPTED);
	ck_assert_str_eq(err, "interrupted");
	ck_assert_int_eq(calls, 2);   /* at 1/4, then 1/2: stop */
	/* the interrupt flag stops an op between kernel runs too */
	int flag = 1;
	struct ttx_options opt2 = { .engine = TTX_ENGINE_INTERP, .interrupt = &flag };
	struct ttx_tile *t2 = ttx_tile_new(&opt2);
	p.progress = NULL;
	ck_assert_int_eq(ttx_op_run(t2, "relu", in, 1, &p, &out, err, sizeof(err)), TTX_INTERRUPTED);
	ttx_tile_destroy(t2);
	ttx_tile_destroy(t);
	free(a), free(o);
}
END_TEST

START_TEST(test_op_memory_limit)
{
	float one = 1;
	/* (65536, 1) + (1, 65536): the result alone is 16 GiB */
	struct ttx_tensor in[2] = { { &one, 1, 65536, 1 }, { &one, 1, 1, 65536 } };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	size_t bytes = 0;
	char err[256];
	ck_assert_int_eq(ttx_op_memory("add", in, 2, &p, &bytes, err, sizeof(err)), TTX_OK);
	ck_assert_uint_ge(bytes, 65536ull * 65536 * 4);
	/* a small op needs a little more than its result */
	struct ttx_tensor small = { &one, 1, 1, 1 };
	ck_assert_int_eq(ttx_op_memory("relu", &small, 1, &p, &bytes, err, sizeof(err)), TTX_OK);
	ck_assert_uint_ge(bytes, 4096);
	ck_assert_uint_lt(bytes, 1 << 20);
	/* max_memory refuses before anything is allocated or run */
	struct ttx_tile *t = ttx_tile_new(NULL);
	float r;
	struct ttx_tensor out = { &r, 1, 1, 1 };
	p.max_memory = 1000;
	ck_assert_int_eq(ttx_op_run(t, "relu", &small, 1, &p, &out, err, sizeof(err)), TTX_ENOMEM);
	ck_assert_ptr_nonnull(strstr(err, "relu of 1 x 1 x 1 needs"));
	ck_assert_ptr_nonnull(strstr(err, "more than the limit of 1000"));
	struct ttx_stats s;
	ttx_stats_get(t, &s);
	ck_assert_uint_eq(s.insns, 0);
	p.max_memory = 0;   /* no limit */
	ck_assert_int_eq(ttx_op_run(t, "relu", &small, 1, &p, &out, err, sizeof(err)), TTX_OK);
	ck_assert(r == 1);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("api");
	TCase *tc = test_tcase(s, "edges");
	tcase_add_test(tc, test_op_api_nulls);
	tcase_add_test(tc, test_asm_api_nulls);
	tcase_add_test(tc, test_format_bytes_overflow);
	tc = test_tcase(s, "stop");
	tcase_add_test(tc, test_interrupt_stops_a_run);
	tcase_add_test(tc, test_progress_stops_an_op);
	tcase_add_test(tc, test_op_memory_limit);
	return test_run_suite(s);
}
