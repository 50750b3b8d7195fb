/* The Tensil TCU (tensil/, docs/tensil.md): the layout, the architecture
 * reader, the arithmetic of every data type, the weights' order, every
 * SIMD operation and flag, DataMove's kinds, LoadLUT / Lookup, Configure,
 * the assembler and disassembler, models, and bad programs: expected
 * values derived by hand from the rules docs/tensil.md states (the 40
 * reference cases are tests/test_tensil_vectors). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttx.h"

static struct ttx_tcu_arch arch(const char *dtype, unsigned n, unsigned regs, unsigned threads)
{
	char json[512], err[256];
	snprintf(json, sizeof(json),
	         "{\"data_type\": \"%s\", \"array_size\": %u, \"dram0_depth\": 64, \"dram1_depth\": 64, "
	         "\"local_depth\": 64, \"accumulator_depth\": 32, \"simd_registers_depth\": %u, \"stride0_depth\": 4, "
	         "\"stride1_depth\": 4, \"number_of_threads\": %u, \"thread_queue_depth\": 8}",
	         dtype, n, regs, threads);
	struct ttx_tcu_arch a;
	ck_assert_msg(ttx_tcu_arch_parse(json, strlen(json), "test", &a, err, sizeof(err)) == TTX_OK, "%s", err);
	return a;
}

static struct ttx_tcu *tcu(const struct ttx_tcu_arch *a, enum ttx_engine e)
{
	struct ttx_tcu *t;
	char err[256];
	ck_assert_msg(ttx_tcu_create(a, e, &t, err, sizeof(err)) == TTX_OK, "%s", err);
	return t;
}

/* Assemble text and run it; the status. */
static enum ttx_status run(struct ttx_tcu *t, const struct ttx_tcu_arch *a, const char *text)
{
	void *prog;
	size_t n;
	char err[256];
	ck_assert_msg(ttx_tcu_assemble(a, text, strlen(text), "t.tasm", &prog, &n, err, sizeof(err)) == TTX_OK, "%s",
	              err);
	enum ttx_status st = ttx_tcu_run(t, prog, n, "t.tprog", 0);
	free(prog);
	return st;
}

/* 16-bit memories (FP16BP8) */
static void put16(struct ttx_tcu *t, enum ttx_tcu_memory m, unsigned at, const int16_t *v, unsigned n)
{
	ck_assert_int_eq(ttx_tcu_write(t, m, at, v, n), TTX_OK);
}

static void get16(struct ttx_tcu *t, enum ttx_tcu_memory m, unsigned at, int16_t *v, unsigned n)
{
	ck_assert_int_eq(ttx_tcu_read(t, m, at, v, n), TTX_OK);
}

START_TEST(test_layout)
{
	/* the four layouts of the reference cases, and threads */
	struct ttx_tcu_arch a = arch("FP16BP8", 4, 1, 1);
	ck_assert_uint_eq(ttx_tcu_instruction_bytes(&a), 4);   /* 8 + 8 + 8 bits of operands, 8 of header */
	a.dram0_depth = 1000, a.dram1_depth = 300, a.local_depth = 100, a.accumulator_depth = 20, a.stride0_depth = 8,
	a.stride1_depth = 8;
	ck_assert_uint_eq(ttx_tcu_instruction_bytes(&a), 6);   /* 10 -> 16, 13 -> 16, 7 -> 8, 8 */
	a.dram0_depth = 4096, a.dram1_depth = 1024, a.local_depth = 512, a.accumulator_depth = 128;
	ck_assert_uint_eq(ttx_tcu_instruction_bytes(&a), 7);   /* 12 -> 16, 15 -> 16, 9 -> 16, 8 */
	a.number_of_threads = 2;
	ck_assert_uint_eq(ttx_tcu_instruction_bytes(&a), 8);   /* the header: 8 + 1 -> 16 */
	/* where the fields are: matmul local 34@4 acc 29@8 count 1 zeroes on the first layout */
	a = arch("FP16BP8", 4, 1, 1);
	void *prog;
	size_t n;
	char err[256];
	const char *text = "matmul local 34@4 acc 29@8 count 1 zeroes\n";
	ck_assert_int_eq(ttx_tcu_assemble(&a, text, strlen(text), "t", &prog, &n, err, sizeof(err)), TTX_OK);
	static const uint8_t want[4] = { 2 << 6 | 34, 3 << 6 | 29, 0, 0x12 };   /* 0000.tprog's first instruction */
	ck_assert_uint_eq(n, 4);
	ck_assert_mem_eq(prog, want, 4);
	free(prog);
	/* a thread prefix lands above the opcode */
	a.number_of_threads = 2;
	text = "t1: matmul local 0 acc 0 count 1\n";
	ck_assert_int_eq(ttx_tcu_assemble(&a, text, strlen(text), "t", &prog, &n, err, sizeof(err)), TTX_OK);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(((uint8_t *)prog)[3], 0x10);
	ck_assert_uint_eq(((uint8_t *)prog)[4], 1);
	free(prog);
}
END_TEST

START_TEST(test_arch_errors)
{
	static const struct { const char *json, *msg; } cases[] = {
		{ "{\"data_type\": \"FP16BP8\"}", "\"array_size\" is missing" },
		{ "[1, 2]", "an architecture is a JSON object" },
		{ "{\"data_type\": \"FP12\"}", "expected FP16BP8, FP8BP4" },
		{ "{\"data_type\": 7}", "expected a string" },
		{ "{\"data_type\": \"FP16BP8\",\n \"array_sise\": 4}", "test:2:2: \"array_sise\" is not a key" },
		{ "{\"data_type\": \"FP16BP8\", \"array_size\": 4.5}", "\"array_size\": expected a whole number" },
		{ "{\"data_type\": \"FP16BP8\", \"array_size\": 0}", "\"array_size\": expected a whole number from 1" },
		{ "{\"data_type\": \"FP16BP8\",\n\n  \"array_size\" 4}", "test:3:16: expected ':'" },
		{ "{\"data_type\": \"FP16BP8\"", "expected ',' or '}'" },
		{ "", "expected a value" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ttx_tcu_arch a;
		char err[512];
		ck_assert_int_eq(ttx_tcu_arch_parse(cases[i].json, strlen(cases[i].json), "test", &a, err, sizeof(err)),
		                 TTX_EINVAL);
		ck_assert_msg(strstr(err, cases[i].msg), "case %zu: %s", i, err);
	}
}
END_TEST

/* One lane: out = mac(x, w, bias) through a MatMul (row 0 the bias, row 1
   the weight), as raw values of the type. */
static uint32_t mac1(const char *dtype, uint32_t x, uint32_t w, uint32_t bias)
{
	struct ttx_tcu_arch a = arch(dtype, 1, 1, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	uint8_t img[4 * 3];
	unsigned vb = ttx_tcu_value_bytes(&a);
	uint32_t vals[3] = { bias, w, x };
	for (unsigned i = 0; i < 3; i++)
		for (unsigned k = 0; k < vb; k++)
			img[i * vb + k] = (uint8_t)(vals[i] >> (8 * k));
	ck_assert_int_eq(ttx_tcu_write(t, TTX_TCU_LOCAL, 0, img, 3), TTX_OK);
	ck_assert_int_eq(run(t, &a, "loadweights local 0 count 2\nmatmul local 2 acc 0 count 1\n"), TTX_OK);
	uint8_t out[4] = { 0 };
	ck_assert_int_eq(ttx_tcu_read(t, TTX_TCU_ACCUMULATORS, 0, out, 1), TTX_OK);
	ttx_tcu_destroy(t);
	uint32_t r = 0;
	for (unsigned k = 0; k < vb; k++)
		r |= (uint32_t)out[k] << (8 * k);
	return r;
}

START_TEST(test_fixed_point)
{
	/* FP16BP8: 1.5 x 0.5 = 0.75; half an LSB rounds to even: 1/256 x 0.5
	   -> 0, 3/256 x 0.5 -> 2/256, -1/256 x 0.5 -> 0, -3/256 x 0.5 ->
	   -2/256; saturation both ways; the bias joins before the rounding:
	   0.5/256 + 1/256 = 1.5/256 -> 2/256 */
	ck_assert_uint_eq(mac1("FP16BP8", 0x0180, 0x0080, 0), 0x00C0);
	ck_assert_uint_eq(mac1("FP16BP8", 1, 0x0080, 0), 0);
	ck_assert_uint_eq(mac1("FP16BP8", 3, 0x0080, 0), 2);
	ck_assert_uint_eq(mac1("FP16BP8", 0xFFFF, 0x0080, 0), 0);
	ck_assert_uint_eq(mac1("FP16BP8", 0xFFFD, 0x0080, 0), 0xFFFE);
	ck_assert_uint_eq(mac1("FP16BP8", 0x7FFF, 0x7FFF, 0), 0x7FFF);
	ck_assert_uint_eq(mac1("FP16BP8", 0x8000, 0x7FFF, 0), 0x8000);
	ck_assert_uint_eq(mac1("FP16BP8", 1, 0x0080, 1), 2);
	ck_assert_uint_eq(mac1("FP16BP8", 0x7000, 0x0100, 0x7000), 0x7FFF);
	/* FP8BP4: 1.5 x 0.5 = 0.75 (0x0C); 1/16 x 0.5 ties to 0; saturation */
	ck_assert_uint_eq(mac1("FP8BP4", 0x18, 0x08, 0), 0x0C);
	ck_assert_uint_eq(mac1("FP8BP4", 0x01, 0x08, 0), 0);
	ck_assert_uint_eq(mac1("FP8BP4", 0x03, 0x08, 0), 0x02);
	ck_assert_uint_eq(mac1("FP8BP4", 0x7F, 0x7F, 0), 0x7F);
	/* FP18BP10 (three bytes an image value, 18 bits sign-extended) */
	ck_assert_uint_eq(mac1("FP18BP10", 0x600, 0x200, 0), 0x300);
	ck_assert_uint_eq(mac1("FP18BP10", 0x1FFFF, 0x1FFFF, 0), 0x1FFFF);
	ck_assert_uint_eq(mac1("FP18BP10", 0x3FFFF, 0x200, 0), 0);   /* -1/1024 x 0.5: tie to even */
	ck_assert_uint_eq(mac1("FP18BP10", 0x20000, 0x400, 0), 0xFE0000);   /* -128 x 1 (sign-extended to 24 bits) */
	/* FP32BP16 */
	ck_assert_uint_eq(mac1("FP32BP16", 0x18000, 0x8000, 0), 0xC000);
	ck_assert_uint_eq(mac1("FP32BP16", 0x7FFFFFFF, 0x7FFFFFFF, 0), 0x7FFFFFFF);
	ck_assert_uint_eq(mac1("FP32BP16", 0x80000000u, 0x10000, 0x80000000u), 0x80000000u);
	/* FLOAT32: the product rounded, then the sum (no fused multiply-add):
	   (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11; minus 1 is
	   2^-11 exactly (fused: 2^-11 + 2^-24) */
	float x = 1.0f + 0x1p-12f, bias = -1.0f, r;
	uint32_t xb, bb;
	memcpy(&xb, &x, 4), memcpy(&bb, &bias, 4);
	uint32_t got = mac1("FLOAT32", xb, xb, bb);
	memcpy(&r, &got, 4);
	ck_assert(r == 0x1p-11f);
	/* image values: FP18BP10 keeps 18 bits, sign-extended */
	struct ttx_tcu_arch a = arch("FP18BP10", 1, 1, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	uint8_t in[3] = { 0xFF, 0xFF, 0xFF }, out[3];
	ttx_tcu_write(t, TTX_TCU_DRAM0, 0, in, 1);
	ttx_tcu_read(t, TTX_TCU_DRAM0, 0, out, 1);
	ck_assert(out[0] == 0xFF && out[1] == 0xFF && out[2] == 0xFF);
	ttx_tcu_destroy(t);
	/* conversions from float: nearest, ties to even, saturating */
	a = arch("FP16BP8", 1, 1, 1);
	float f[5] = { 0.75f, 1.0f / 512, 3.0f / 512, 1000.0f, -1000.0f };
	int16_t img[5];
	ttx_tcu_from_float(&a, f, img, 5);
	ck_assert(img[0] == 0xC0 && img[1] == 0 && img[2] == 2 && img[3] == 0x7FFF && img[4] == -0x8000);
}
END_TEST

/* N = 2: the bias then the rows in memory order (LoadWeights takes its
   vectors last address first, so the first becomes row 0); a shorter load
   shifts the rows down. */
START_TEST(test_weights)
{
	struct ttx_tcu_arch a = arch("FP16BP8", 2, 1, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	const int16_t w[8] = { 1 << 8, 2 << 8, 3 << 8, 4 << 8, 5 << 8, 6 << 8, 1 << 8, 2 << 8 };   /* bias, row 1, row 2, input */
	put16(t, TTX_TCU_LOCAL, 0, w, 4);
	ck_assert_int_eq(run(t, &a, "loadweights local 0 count 3\nmatmul local 3 acc 0 count 1\n"), TTX_OK);
	int16_t out[2];
	get16(t, TTX_TCU_ACCUMULATORS, 0, out, 1);
	ck_assert_int_eq(out[0], (1 + 3 * 1 + 5 * 2) << 8);
	ck_assert_int_eq(out[1], (2 + 4 * 1 + 6 * 2) << 8);
	/* one more vector (the input, [1, 2]) becomes the bias; the rows move
	   down: row 1 = the old bias [1, 2], row 2 = [3, 4] */
	ck_assert_int_eq(run(t, &a, "loadweights local 3 count 1\nmatmul local 3 acc 1 count 1\n"), TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 1, out, 1);
	ck_assert_int_eq(out[0], (1 + 1 * 1 + 3 * 2) << 8);
	ck_assert_int_eq(out[1], (2 + 2 * 1 + 4 * 2) << 8);
	/* zeroes: rows of zeros, the input ignored; accumulate adds */
	ck_assert_int_eq(run(t, &a, "loadweights local 0 count 3 zeroes\nmatmul local 3 acc 1 count 1 accumulate\n"
	                            "matmul local 3 acc 2 count 1 zeroes\n"), TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 1, out, 1);
	ck_assert_int_eq(out[0], 8 << 8);   /* unchanged: + 0 */
	ck_assert_int_eq(out[1], 12 << 8);
	ttx_tcu_destroy(t);
}
END_TEST

/* Every SIMD operation on one lane: left = register 1 (a), right = the
   input read from the accumulators (b). */
static int16_t alu1(const char *op, int16_t a, int16_t b)
{
	struct ttx_tcu_arch ar = arch("FP16BP8", 1, 1, 1);
	struct ttx_tcu *t = tcu(&ar, TTX_ENGINE_INTERP);
	put16(t, TTX_TCU_ACCUMULATORS, 0, &a, 1);
	put16(t, TTX_TCU_ACCUMULATORS, 1, &b, 1);
	char text[200];
	snprintf(text, sizeof(text), "simd move in in r1 w=0 r=0 read\nsimd %s r1 in out w=2 r=1 read write\n", op);
	ck_assert_int_eq(run(t, &ar, text), TTX_OK);
	int16_t out;
	get16(t, TTX_TCU_ACCUMULATORS, 2, &out, 1);
	ttx_tcu_destroy(t);
	return out;
}

START_TEST(test_simd_ops)
{
	const int16_t one = 256;
	ck_assert_int_eq(alu1("noop", 5, 7), 7);           /* the input */
	ck_assert_int_eq(alu1("zero", 5, 7), 0);
	ck_assert_int_eq(alu1("move", 5, 7), 5);
	ck_assert_int_eq(alu1("not", 5, 7), ~5);            /* bitwise */
	ck_assert_int_eq(alu1("and", 0x0F0, 0x0FF), 0x0F0);
	ck_assert_int_eq(alu1("or", 0x100, 0x003), 0x103);
	ck_assert_int_eq(alu1("increment", 5, 7), 5 + one);
	ck_assert_int_eq(alu1("increment", 0x7FF0, 7), 0x7FFF);
	ck_assert_int_eq(alu1("decrement", 5, 7), 5 - one);
	ck_assert_int_eq(alu1("add", 0x7000, 0x7000), 0x7FFF);
	ck_assert_int_eq(alu1("subtract", 5, 7), -2);
	ck_assert_int_eq(alu1("subtract", -0x7000, 0x7000), -0x8000);
	ck_assert_int_eq(alu1("multiply", 0x0180, 0x0080), 0x00C0);
	ck_assert_int_eq(alu1("multiply", 3, 0x0080), 2);   /* ties to even */
	ck_assert_int_eq(alu1("abs", -5, 7), 5);
	ck_assert_int_eq(alu1("abs", -0x8000, 7), 0x7FFF);
	ck_assert_int_eq(alu1("greater", 8, 7), one);
	ck_assert_int_eq(alu1("greater", 7, 7), 0);
	ck_assert_int_eq(alu1("greater_equal", 7, 7), one);
	ck_assert_int_eq(alu1("greater_equal", 6, 7), 0);
	ck_assert_int_eq(alu1("min", -3, 7), -3);
	ck_assert_int_eq(alu1("max", -3, 7), 7);
}
END_TEST

/* The flags and destinations (docs/tensil.md "SIMD"). */
START_TEST(test_simd_flags)
{
	struct ttx_tcu_arch a = arch("FP16BP8", 2, 2, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	const int16_t v[6] = { 10, 20, 1, 2, 100, 200 };
	put16(t, TTX_TCU_ACCUMULATORS, 0, v, 3);
	int16_t o[2];
	/* no read: the input is zero; a register destination takes the
	   result, the accumulators do not (even with write) */
	ck_assert_int_eq(run(t, &a, "simd add in in r1 w=2 r=0 write\n"), TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 2, o, 1);
	ck_assert(o[0] == 100 && o[1] == 200);
	/* r1 = acc[0] (read); then r1 += acc[1] (accumulate into the register) */
	ck_assert_int_eq(run(t, &a, "simd move in in r1 w=0 r=0 read\nsimd move in in r1 w=0 r=1 read accumulate\n"
	                            "simd move r1 in out w=2 r=0 write\n"), TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 2, o, 1);
	ck_assert(o[0] == 11 && o[1] == 22);
	/* out with write and accumulate adds to the accumulators; without
	   write nothing is written */
	ck_assert_int_eq(run(t, &a, "simd move in in out w=2 r=1 read write accumulate\n"
	                            "simd zero in in out w=2 r=1 read accumulate\n"), TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 2, o, 1);
	ck_assert(o[0] == 12 && o[1] == 24);
	/* a second register, left and right */
	ck_assert_int_eq(run(t, &a, "simd move in in r2 w=0 r=1 read\nsimd subtract r2 r1 out w=0 r=0 write\n"),
	                 TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 0, o, 1);
	ck_assert(o[0] == 1 - 11 && o[1] == 2 - 22);
	ttx_tcu_destroy(t);
}
END_TEST

/* LoadLUT and Lookup (docs/tensil.md: table 0 the keys, each table a
   vector; the closest key, the first of equals; the difference to the
   destination, table i's value to the i-th register after it). */
START_TEST(test_lookup)
{
	struct ttx_tcu_arch a = arch("FP16BP8", 4, 2, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	const int16_t keys[4] = { 0, 100, 200, 300 }, vals[4] = { 7, 8, 9, 10 }, x[4] = { 149, 150, 260, -50 };
	put16(t, TTX_TCU_LOCAL, 0, keys, 1);
	put16(t, TTX_TCU_LOCAL, 1, vals, 1);
	put16(t, TTX_TCU_ACCUMULATORS, 0, x, 1);
	ck_assert_int_eq(run(t, &a, "loadlut local 0 table 0\nloadlut local 1 table 1\n"
	                            "simd lookup in in r1 w=0 r=0 read\n"
	                            "simd move r1 in out w=1 r=0 write\nsimd move r2 in out w=2 r=0 write\n"), TTX_OK);
	int16_t d[4], v[4];
	get16(t, TTX_TCU_ACCUMULATORS, 1, d, 1);
	get16(t, TTX_TCU_ACCUMULATORS, 2, v, 1);
	ck_assert(d[0] == 49 && d[1] == 50 && d[2] == -40 && d[3] == -50);   /* 150: 100 and 200 tie: 100 */
	ck_assert(v[0] == 8 && v[1] == 8 && v[2] == 10 && v[3] == 7);
	/* a table the architecture does not have; room for the values */
	void *prog;
	size_t n;
	char err[256];
	const char *bad = "loadlut local 0 table 2\n";
	ck_assert_int_eq(ttx_tcu_assemble(&a, bad, strlen(bad), "t", &prog, &n, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(ttx_tcu_run(t, prog, n, "t.tprog", 0), TTX_EINVAL);
	ck_assert_msg(strstr(ttx_tcu_error(t), "instruction #0 (loadlut): table 2"), "%s", ttx_tcu_error(t));
	free(prog);
	ck_assert_int_eq(run(t, &a, "simd lookup in in r2 w=0 r=0 read\n"), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tcu_error(t), "register r2 and the 1 after it"), "%s", ttx_tcu_error(t));
	ttx_tcu_destroy(t);
}
END_TEST

START_TEST(test_datamove)
{
	struct ttx_tcu_arch a = arch("FP16BP8", 2, 1, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	int16_t d0[8], o[8];
	for (int i = 0; i < 8; i++)
		d0[i] = (int16_t)(i + 1);
	put16(t, TTX_TCU_DRAM0, 0, d0, 4);
	/* DRAM0 vectors 0, 2 (stride 2) to local 5, 6; to DRAM1 8, 12 (stride
	   4); to accumulators; accumulate with saturation; back to DRAM0 */
	ck_assert_int_eq(run(t, &a, "datamove dram0>local local 5 dram0 0@2 count 2\n"
	                            "datamove local>dram1 local 5 dram1 8@4 count 2\n"
	                            "datamove dram1>local local 10 dram1 12 count 1\n"
	                            "datamove local>acc local 5 acc 3 count 2\n"
	                            "datamove local>acc+ local 5 acc 3 count 2\n"
	                            "datamove acc>local local 20 acc 3 count 2\n"
	                            "datamove local>dram0 local 20 dram0 30 count 2\n"), TTX_OK);
	get16(t, TTX_TCU_DRAM1, 8, o, 1);
	ck_assert(o[0] == 1 && o[1] == 2);
	get16(t, TTX_TCU_LOCAL, 10, o, 1);
	ck_assert(o[0] == 5 && o[1] == 6);
	get16(t, TTX_TCU_DRAM0, 30, o, 2);
	ck_assert(o[0] == 2 && o[1] == 4 && o[2] == 10 && o[3] == 12);
	const int16_t big[2] = { 0x7000, -0x7000 };
	put16(t, TTX_TCU_LOCAL, 40, big, 1);
	ck_assert_int_eq(run(t, &a, "datamove local>acc local 40 acc 0 count 1\ndatamove local>acc+ local 40 acc 0 count 1\n"),
	                 TTX_OK);
	get16(t, TTX_TCU_ACCUMULATORS, 0, o, 1);
	ck_assert(o[0] == 0x7FFF && o[1] == -0x8000);
	/* Configure's DRAM0 offset moves DRAM0 addresses */
	ck_assert_int_eq(run(t, &a, "configure dram0_offset 30\ndatamove dram0>local local 50 dram0 1 count 1\n"
	                            "configure dram0_offset 0\n"), TTX_OK);
	get16(t, TTX_TCU_LOCAL, 50, o, 1);
	ck_assert(o[0] == 10 && o[1] == 12);
	ttx_tcu_destroy(t);
}
END_TEST

START_TEST(test_bad_programs)
{
	struct ttx_tcu_arch a = arch("FP16BP8", 4, 1, 1);
	struct ttx_tcu *t = tcu(&a, TTX_ENGINE_INTERP);
	static const uint8_t odd[5] = { 0 };
	ck_assert_int_eq(ttx_tcu_run(t, odd, 5, "p.tprog", 0), TTX_EINVAL);
	ck_assert_msg(strstr(ttx_tcu_error(t), "p.tprog: 5 bytes is not a whole number of 4-byte instructions"), "%s",
	              ttx_tcu_error(t));
	static const uint8_t op6[8] = { 0, 0, 0, 0, 0, 0, 0, 0x60 };
	ck_assert_int_eq(ttx_tcu_run(t, op6, 8, "p.tprog", 0), TTX_EINVAL);
	ck_assert_msg(strstr(ttx_tcu_error(t), "instruction #1 (byte 4): opcode 6 has no meaning"), "%s",
	              ttx_tcu_error(t));
	static const uint8_t kind5[4] = { 0, 0, 0, 0x25 };
	ck_assert_int_eq(ttx_tcu_run(t, kind5, 4, "p.tprog", 0), TTX_EINVAL);
	ck_assert_msg(strstr(ttx_tcu_error(t), "DataMove kind 5 has no meaning"), "%s", ttx_tcu_error(t));
	static const uint8_t cfg3[4] = { 3, 0, 0, 0x70 };
	ck_assert_int_eq(ttx_tcu_run(t, cfg3, 4, "p.tprog", 0), TTX_EINVAL);
	ck_assert_msg(strstr(ttx_tcu_error(t), "configuration register 3 has no meaning"), "%s", ttx_tcu_error(t));
	static const uint8_t alu17[4] = { 0, 0, 17 << 3, 0x40 };
	ck_assert_int_eq(ttx_tcu_run(t, alu17, 4, "p.tprog", 0), TTX_EINVAL);
	ck_assert_msg(strstr(ttx_tcu_error(t), "SIMD operation 17 has no meaning"), "%s", ttx_tcu_error(t));
	/* past a memory while running: a fault naming the instruction */
	ck_assert_int_eq(run(t, &a, "wait 0\nmatmul local 60@4 acc 0 count 2\n"), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tcu_error(t), "instruction #1 (matmul): 2 vectors from local memory address 60, stride 4, "
	                     "run past its 64"), "%s", ttx_tcu_error(t));
	ck_assert_int_eq(run(t, &a, "datamove local>dram0 local 0 dram0 63 count 2\n"), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tcu_error(t), "DRAM0 address 63"), "%s", ttx_tcu_error(t));
	ck_assert_int_eq(run(t, &a, "simd move in in out w=40 r=0 write\n"), TTX_FAULT);
	/* a limit */
	void *prog;
	size_t n;
	char err[256];
	const char *text = "wait 0\nwait 0\nwait 0\n";
	ck_assert_int_eq(ttx_tcu_assemble(&a, text, strlen(text), "t", &prog, &n, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(ttx_tcu_run(t, prog, n, "t", 2), TTX_LIMIT);
	free(prog);
	ttx_tcu_destroy(t);
}
END_TEST

START_TEST(test_asm)
{
	struct ttx_tcu_arch a = arch("FP16BP8", 4, 2, 2);
	static const struct { const char *text, *msg; } bad[] = {
		{ "matmul local 64 acc 0 count 1\n", "t.tasm:1: local address 64 does not fit its 6 bits" },
		{ "\n\nmatmul local 3@3 acc 0 count 1\n", "t.tasm:3: local stride 3: expected a power of two" },
		{ "datamove acc>local local 0 dram0 0 count 1\n", "expected 'acc' as word 5" },
		{ "datamove sideways local 0 acc 0 count 1\n", "datamove kind 'sideways'" },
		{ "simd frobnicate in in out w=0 r=0\n", "simd operation 'frobnicate'" },
		{ "simd move r3 in out w=0 r=0\n", "register r3: the architecture has 2" },
		{ "matmul local 0 acc 0 count 0\n", "count '0'" },
		{ "t2: wait 0\n", "'t2:': a thread from t0 to t1" },
		{ "jump 5\n", "'jump' is not an instruction" },
		{ "configure warp 1\n", "configure register 'warp'" },
		{ ".insn 0x12345678901234\n", ".insn: expected one 0x hexadecimal word of at most 6 bytes" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *prog;
		size_t n;
		char err[256];
		ck_assert_int_eq(ttx_tcu_assemble(&a, bad[i].text, strlen(bad[i].text), "t.tasm", &prog, &n, err,
		                                  sizeof(err)), TTX_EINVAL);
		ck_assert_msg(strstr(err, bad[i].msg), "case %zu: %s", i, err);
	}
	/* every form reassembles from its disassembly; bytes the text cannot
	   say come back as .insn */
	const char *text = "nop\nt1: wait 0\nmatmul local 1@2 acc 3@8 count 4 accumulate zeroes\n"
	                   "datamove local>acc+ local 1 acc 2 count 3\nloadweights local 5@4 count 5 zeroes\n"
	                   "simd max r2 in r1 w=3 r=4 read write accumulate\nloadlut local 2 table 1\n"
	                   "configure dram1_offset 7\n.insn 0x000000001700\n";
	void *prog;
	size_t n;
	char err[256], *dis = NULL;
	ck_assert_int_eq(ttx_tcu_assemble(&a, text, strlen(text), "t", &prog, &n, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(ttx_tcu_disassemble(&a, prog, n, "t", &dis, err, sizeof(err)), TTX_OK);
	ck_assert_msg(strstr(dis, "simd max r2 in r1 w=3 r=4 read write accumulate") && strstr(dis, ".insn 0x000000001700") &&
	              strstr(dis, "t1: wait 0") && strstr(dis, "wait 0\n"), "%s", dis);
	void *again;
	size_t m;
	ck_assert_int_eq(ttx_tcu_assemble(&a, dis, strlen(dis), "t", &again, &m, err, sizeof(err)), TTX_OK);
	ck_assert_uint_eq(m, n);
	ck_assert_mem_eq(again, prog, n);
	free(prog), free(again), free(dis);
	/* a SIMD register the field holds but the architecture lacks (r3 of
	   2): decodes, is refused by the assembler as text, so it
	   disassembles as .insn (found by fuzz_tensil) */
	void *r1, *r2;
	size_t n1, n2;
	ck_assert_int_eq(ttx_tcu_assemble(&a, "simd move in in r1 w=0 r=0", 26, "t", &r1, &n1, err, sizeof(err)), TTX_OK);
	ck_assert_int_eq(ttx_tcu_assemble(&a, "simd move in in r2 w=0 r=0", 26, "t", &r2, &n2, err, sizeof(err)), TTX_OK);
	uint8_t r3[16];
	for (size_t i = 0; i < n2; i++)
		r3[i] = ((uint8_t *)r2)[i] | (((uint8_t *)r1)[i] ^ ((uint8_t *)r2)[i]);   /* dest 1 | 2 = 3 */
	ck_assert_int_eq(ttx_tcu_disassemble(&a, r3, n2, "t", &dis, err, sizeof(err)), TTX_OK);
	ck_assert_msg(strstr(dis, ".insn 0x") && !strstr(dis, "r3"), "%s", dis);
	ck_assert_int_eq(ttx_tcu_assemble(&a, dis, strlen(dis), "t", &again, &m, err, sizeof(err)), TTX_OK);
	ck_assert_uint_eq(m, n2);
	ck_assert_mem_eq(again, r3, n2);
	free(r1), free(r2), free(again), free(dis);
}
END_TEST

/* A model: constants in DRAM1, an input, an output. */
START_TEST(test_model)
{
	char dir[] = "/tmp/ttx_tmodelXXXXXX", path[512];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct ttx_tcu_arch a = arch("FP16BP8", 2, 1, 1);
	/* y = W x + b: the weights from DRAM1 (bias, rows), x from DRAM0 at 4 */
	const char *text = "datamove dram1>local local 0 dram1 0 count 3\nloadweights local 0 count 3\n"
	                   "datamove dram0>local local 8 dram0 4 count 1\nmatmul local 8 acc 0 count 1\n"
	                   "datamove acc>local local 9 acc 0 count 1\ndatamove local>dram0 local 9 dram0 10 count 1\n";
	void *prog;
	size_t n;
	char err[512];
	ck_assert_int_eq(ttx_tcu_assemble(&a, text, strlen(text), "t", &prog, &n, err, sizeof(err)), TTX_OK);
	snprintf(path, sizeof(path), "%s/m.tprog", dir);
	FILE *f = fopen(path, "wb");
	fwrite(prog, 1, n, f), fclose(f), free(prog);
	const int16_t w[6] = { 1 << 8, 2 << 8, 3 << 8, 4 << 8, 5 << 8, 6 << 8 };
	snprintf(path, sizeof(path), "%s/m.tdata", dir);
	f = fopen(path, "wb");
	fwrite(w, 1, sizeof(w), f), fclose(f);
	snprintf(path, sizeof(path), "%s/m.tmodel", dir);
	f = fopen(path, "w");
	fprintf(f, "{\"name\": \"m\", \"program\": {\"file_name\": \"m.tprog\", \"size\": %zu},\n"
	           " \"consts\": [{\"file_name\": \"m.tdata\", \"base\": 0, \"size\": 3}],\n"
	           " \"inputs\": [{\"name\": \"x\", \"base\": 4, \"size\": 1}],\n"
	           " \"outputs\": [{\"name\": \"y\", \"base\": 10, \"size\": 1}],\n"
	           " \"arch\": {\"data_type\": \"FP16BP8\", \"array_size\": 2, \"dram0_depth\": 64, \"dram1_depth\": 64,"
	           " \"local_depth\": 64, \"accumulator_depth\": 32, \"simd_registers_depth\": 1, \"stride0_depth\": 4,"
	           " \"stride1_depth\": 4, \"number_of_threads\": 1, \"thread_queue_depth\": 8},\n"
	           " \"load_consts_to_local\": false}\n", n);
	fclose(f);
	struct ttx_tcu_model *m;
	ck_assert_msg(ttx_tcu_model_load(path, &m, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert_uint_eq(m->ninputs, 1);
	ck_assert_str_eq(m->outputs[0].name, "y");
	struct ttx_tcu *t = tcu(&m->arch, TTX_ENGINE_INTERP);
	const float x[2] = { 1.0f, -0.5f };
	float y[2];
	const float *ins[1] = { x };
	float *outs[1] = { y };
	ck_assert_msg(ttx_tcu_model_run(t, m, ins, outs) == TTX_OK, "%s", ttx_tcu_error(t));
	ck_assert(y[0] == 1 + 3 * 1 + 5 * -0.5f && y[1] == 2 + 4 * 1 + 6 * -0.5f);
	ttx_tcu_destroy(t);
	ttx_tcu_model_free(m);
	/* a broken model names the key */
	f = fopen(path, "w");
	fprintf(f, "{\"name\": \"m\", \"program\": {\"file_name\": \"m.tprog\"}, \"inputs\": [], \"outputs\": [{\"nam\": 1}],"
	           " \"arch\": {\"data_type\": \"FP16BP8\"}}\n");
	fclose(f);
	ck_assert_int_eq(ttx_tcu_model_load(path, &m, err, sizeof(err)), TTX_EINVAL);
	ck_assert_msg(strstr(err, "\"array_size\" is missing") && strstr(err, "arch"), "%s", err);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tensil");
	TCase *tc = tcase_create("tensil");
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_arch_errors);
	tcase_add_test(tc, test_fixed_point);
	tcase_add_test(tc, test_weights);
	tcase_add_test(tc, test_simd_ops);
	tcase_add_test(tc, test_simd_flags);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_datamove);
	tcase_add_test(tc, test_bad_programs);
	tcase_add_test(tc, test_asm);
	tcase_add_test(tc, test_model);
	suite_add_tcase(s, tc);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
