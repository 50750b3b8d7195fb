/* The TCU's JIT against its interpreter (tensil/tcu_jit.c): random
 * programs of every instruction and flag on random architectures (every
 * data type, arrays of 1 to 24 lanes, one to three registers), random
 * memories, a few programs that fault; afterwards every memory, the
 * weights, the registers, the lookup tables, Configure's registers, the
 * statistics, the status and the message must be the same.
 * TTX_TCU_FUZZ_PROGRAMS (default 300) and TTX_TCU_FUZZ_SEED set the run;
 * make check-long runs 20,000. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcu.h"

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

static const char *const dtypes[] = { "FP16BP8", "FP8BP4", "FP16BP8", "FP18BP10", "FP32BP16", "FLOAT32", "FP16BP8" };
static const char *const alus[] = { "noop", "zero", "move", "not", "and", "or", "increment", "decrement", "add",
                                    "subtract", "multiply", "abs", "greater", "greater_equal", "min", "max", "lookup" };
static const char *const moves[][2] = { { "dram0>local", "dram0" }, { "local>dram0", "dram0" },
                                        { "dram1>local", "dram1" }, { "local>dram1", "dram1" },
                                        { "acc>local", "acc" }, { "local>acc", "acc" }, { "local>acc+", "acc" } };

/* an address and stride that (usually) keep count vectors in a memory */
static void operand(char *buf, size_t len, uint64_t depth, unsigned strides, unsigned count, int fault)
{
	unsigned s = rnd(strides);
	uint64_t span = (uint64_t)(count - 1) << s;
	while (span >= depth && s)
		s--, span = (uint64_t)(count - 1) << s;
	uint64_t a = fault ? depth - 1 : span < depth ? rnd((uint32_t)(depth - span)) : 0;
	if (s)
		snprintf(buf, len, "%llu@%u", (unsigned long long)a, 1u << s);
	else
		snprintf(buf, len, "%llu", (unsigned long long)a);
}

static size_t program(const struct ttx_tcu_arch *a, char *text, size_t cap, int allow_fault)
{
	size_t n = 0;
	unsigned N = a->array_size, R = a->simd_registers_depth, ninsn = 5 + rnd(40);
	char l[64], o[64];
	for (unsigned i = 0; i < ninsn; i++) {
		int fault = allow_fault && rnd(40) == 0;
		unsigned count = 1 + rnd(rnd(4) ? 4 : N + 2);
		switch (rnd(10)) {
		case 0:
			n += (size_t)snprintf(text + n, cap - n, "wait 0\n");
			break;
		case 1: case 2:
			operand(l, sizeof(l), a->local_depth, 2, count, fault);
			operand(o, sizeof(o), a->accumulator_depth, 2, count, 0);
			n += (size_t)snprintf(text + n, cap - n, "matmul local %s acc %s count %u%s%s\n", l, o, count,
			                      rnd(2) ? " accumulate" : "", rnd(5) ? "" : " zeroes");
			break;
		case 3: {
			unsigned k = rnd(7);
			uint64_t depth = k <= 1 ? a->dram0_depth : k <= 3 ? a->dram1_depth : a->accumulator_depth;
			operand(l, sizeof(l), a->local_depth, 2, count, 0);
			operand(o, sizeof(o), depth, 2, count, fault);
			n += (size_t)snprintf(text + n, cap - n, "datamove %s local %s %s %s count %u\n", moves[k][0], l, moves[k][1],
			                      o, count);
			break;
		}
		case 4:
			operand(l, sizeof(l), a->local_depth, 2, count, fault);
			n += (size_t)snprintf(text + n, cap - n, "loadweights local %s count %u%s\n", l, count,
			                      rnd(6) ? "" : " zeroes");
			break;
		case 5: case 6: case 7: {
			unsigned alu = rnd(rnd(8) ? 16 : 17), fl = rnd(8);
			unsigned d = rnd(R + 1);
			if (alu == 16)   /* lookup: room for the values' registers */
				d = rnd(2) ? 0 : 1;
			char reg[3][8];
			unsigned v[3] = { rnd(R + 1), rnd(R + 1), d };
			for (int k = 0; k < 3; k++)
				snprintf(reg[k], sizeof(reg[k]), v[k] ? "r%u" : k == 2 ? "out" : "in", v[k]);
			uint64_t w = fault ? a->accumulator_depth : rnd((uint32_t)a->accumulator_depth);
			n += (size_t)snprintf(text + n, cap - n, "simd %s %s %s %s w=%llu r=%u%s%s%s\n", alus[alu], reg[0], reg[1],
			                      reg[2], (unsigned long long)w, rnd((uint32_t)a->accumulator_depth),
			                      fl & 1 ? " read" : "", fl & 2 ? " write" : "", fl & 4 ? " accumulate" : "");
			break;
		}
		case 8:
			n += (size_t)snprintf(text + n, cap - n, "loadlut local %u table %u\n", rnd((uint32_t)a->local_depth),
			                      rnd(R ? R : 1));
			break;
		default:
			n += (size_t)snprintf(text + n, cap - n, "configure %s %u\n", rnd(2) ? "dram0_offset" : "dram1_offset",
			                      rnd(4) ? 0 : rnd(8));
		}
	}
	(void)N;
	return n;
}

static void same_state(const struct ttx_tcu *x, const struct ttx_tcu *y, const char *text)
{
	const struct ttx_tcu_arch *a = &x->arch;
	size_t N = a->array_size;
	ck_assert_msg(memcmp(x->local, y->local, a->local_depth * N * 4) == 0, "local memory differs:\n%s", text);
	ck_assert_msg(memcmp(x->acc, y->acc, a->accumulator_depth * N * 4) == 0, "accumulators differ:\n%s", text);
	ck_assert_msg(memcmp(x->dram0, y->dram0, a->dram0_depth * N * 4) == 0, "DRAM0 differs:\n%s", text);
	ck_assert_msg(memcmp(x->dram1, y->dram1, a->dram1_depth * N * 4) == 0, "DRAM1 differs:\n%s", text);
	ck_assert_msg(memcmp(x->weights, y->weights, (N + 1) * N * 4) == 0, "weights differ:\n%s", text);
	ck_assert_msg(memcmp(x->regs, y->regs, a->simd_registers_depth * N * 4) == 0, "registers differ:\n%s", text);
	ck_assert_msg(memcmp(x->lut, y->lut, x->lut_tables * N * 4) == 0, "tables differ:\n%s", text);
	ck_assert_msg(memcmp(x->config, y->config, sizeof(x->config)) == 0, "configuration differs:\n%s", text);
	ck_assert_msg(x->stats.insns == y->stats.insns && x->stats.macs == y->stats.macs &&
	              x->stats.cycles == y->stats.cycles && x->stats.vectors_moved == y->stats.vectors_moved &&
	              memcmp(x->stats.insns_by_opcode, y->stats.insns_by_opcode, sizeof(x->stats.insns_by_opcode)) == 0,
	              "statistics differ (insns %llu %llu, MACs %llu %llu, cycles %llu %llu):\n%s",
	              (unsigned long long)x->stats.insns, (unsigned long long)y->stats.insns,
	              (unsigned long long)x->stats.macs, (unsigned long long)y->stats.macs,
	              (unsigned long long)x->stats.cycles, (unsigned long long)y->stats.cycles, text);
}

START_TEST(test_differential)
{
	if (!ttx_jit_available())
		return;
	const char *s = getenv("TTX_TCU_FUZZ_PROGRAMS"), *seed = getenv("TTX_TCU_FUZZ_SEED");
	unsigned programs = s ? (unsigned)atoi(s) : 300;
	rng = seed ? (uint64_t)strtoull(seed, NULL, 0) * 0x9E3779B97F4A7C15ull + 1 : 0x1234567;
	static char text[1 << 16];
	unsigned native = 0;
	for (unsigned p = 0; p < programs; p++) {
		char json[512], err[512];
		const char *dt = dtypes[rnd(sizeof(dtypes) / sizeof(dtypes[0]))];
		unsigned N = 1 + rnd(rnd(3) ? 8 : 24), R = 1 + rnd(3);
		snprintf(json, sizeof(json),
		         "{\"data_type\": \"%s\", \"array_size\": %u, \"dram0_depth\": %u, \"dram1_depth\": %u, "
		         "\"local_depth\": %u, \"accumulator_depth\": %u, \"simd_registers_depth\": %u, \"stride0_depth\": 4, "
		         "\"stride1_depth\": 4, \"number_of_threads\": 1, \"thread_queue_depth\": 8}",
		         dt, N, 16 + rnd(60), 16 + rnd(60), 24 + rnd(60), 8 + rnd(40), R);
		struct ttx_tcu_arch a;
		ck_assert_msg(ttx_tcu_arch_parse(json, strlen(json), "fuzz", &a, err, sizeof(err)) == TTX_OK, "%s", err);
		size_t len = program(&a, text, sizeof(text), p % 7 == 0);
		void *prog;
		size_t plen;
		ck_assert_msg(ttx_tcu_assemble(&a, text, len, "fuzz", &prog, &plen, err, sizeof(err)) == TTX_OK, "%s\n%s", err,
		              text);
		struct ttx_tcu *x, *y;
		ck_assert_int_eq(ttx_tcu_create(&a, TTX_ENGINE_INTERP, &x, err, sizeof(err)), TTX_OK);
		ck_assert_int_eq(ttx_tcu_create(&a, TTX_ENGINE_JIT, &y, err, sizeof(err)), TTX_OK);
		/* the same random memories: values over the type's whole range */
		unsigned vb = ttx_tcu_value_bytes(&a);
		uint64_t depths[4] = { a.local_depth, a.accumulator_depth, a.dram0_depth, a.dram1_depth };
		for (unsigned m = 0; m < 4; m++) {
			size_t bytes = depths[m] * N * vb;
			uint8_t *img = malloc(bytes);
			for (size_t i = 0; i < bytes; i++)
				img[i] = (uint8_t)(rnd(4) ? rnd(256) : rnd(2) ? 0 : 0xFF);
			if (a.data_type == TTX_TCU_FLOAT32)   /* floats of moderate size, some special */
				for (size_t i = 0; i + 3 < bytes; i += 4)
					img[i + 3] = (uint8_t)((img[i + 3] & 0x80) | (rnd(16) ? 0x3C + rnd(8) : 0x7F));
			ttx_tcu_write(x, (enum ttx_tcu_memory)m, 0, img, depths[m]);
			ttx_tcu_write(y, (enum ttx_tcu_memory)m, 0, img, depths[m]);
			free(img);
		}
		/* twice: the second run starts from the first's state */
		for (int run = 0; run < 2; run++) {
			enum ttx_status sx = ttx_tcu_run(x, prog, plen, "fuzz", 0), sy = ttx_tcu_run(y, prog, plen, "fuzz", 0);
			ck_assert_msg(sx == sy, "status %d (interpreter) and %d (JIT): %s / %s\n%s", sx, sy, ttx_tcu_error(x),
			              ttx_tcu_error(y), text);
			if (sx != TTX_OK)
				ck_assert_str_eq(ttx_tcu_error(x), ttx_tcu_error(y));
			same_state(x, y, text);
		}
		native += y->stats.insns_jit > 0;
		ttx_tcu_destroy(x), ttx_tcu_destroy(y);
		free(prog);
	}
	ck_assert_msg(native > programs / 2, "only %u of %u programs ran compiled", native, programs);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tensil_jit");
	TCase *tc = tcase_create("differential");
	tcase_set_timeout(tc, 3600);
	tcase_add_test(tc, test_differential);
	suite_add_tcase(s, tc);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
