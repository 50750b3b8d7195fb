/* The Tensil TCU (issue 32): multiply-accumulates a second on a MatMul-
 * heavy program on the largest shipped architecture (Tensil's zcu104:
 * a 32 x 32 array, FP16BP8), and on the smaller ones, interpreter and JIT
 * (compiled once, then timed), best of five.
 *   bench_tensil [--quick] */
#include <string.h>

#include "bench.h"

static const char *const archs[][2] = {
	{ "zcu104 (32x32)", "{\"data_type\": \"FP16BP8\", \"array_size\": 32, \"dram0_depth\": 2097152, "
	  "\"dram1_depth\": 2097152, \"local_depth\": 16384, \"accumulator_depth\": 4096, \"simd_registers_depth\": 1, "
	  "\"stride0_depth\": 8, \"stride1_depth\": 8, \"number_of_threads\": 1, \"thread_queue_depth\": 8}" },
	{ "ultra96v2 (16x16)", "{\"data_type\": \"FP16BP8\", \"array_size\": 16, \"dram0_depth\": 1048576, "
	  "\"dram1_depth\": 1048576, \"local_depth\": 20480, \"accumulator_depth\": 4096, \"simd_registers_depth\": 1, "
	  "\"stride0_depth\": 8, \"stride1_depth\": 8, \"number_of_threads\": 1, \"thread_queue_depth\": 8}" },
	{ "pynqz1 (8x8)", "{\"data_type\": \"FP16BP8\", \"array_size\": 8, \"dram0_depth\": 1048576, "
	  "\"dram1_depth\": 1048576, \"local_depth\": 8192, \"accumulator_depth\": 2048, \"simd_registers_depth\": 1, "
	  "\"stride0_depth\": 8, \"stride1_depth\": 8, \"number_of_threads\": 1, \"thread_queue_depth\": 8}" },
};

int main(int argc, char **argv)
{
	int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	printf("| architecture | interpreter | JIT | JIT / interpreter | JIT compile |\n|---|---|---|---|---|\n");
	for (size_t k = 0; k < sizeof(archs) / sizeof(archs[0]); k++) {
		struct ttx_tcu_arch a;
		char err[256];
		if (ttx_tcu_arch_parse(archs[k][1], strlen(archs[k][1]), archs[k][0], &a, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "bench_tensil: %s\n", err);
			return 1;
		}
		/* weights from local memory, then MatMuls over 2048 vectors into
		   the accumulators, some accumulating, a SIMD ReLU pass */
		char text[8192];
		size_t n = 0;
		unsigned count = a.accumulator_depth < 2048 ? (unsigned)a.accumulator_depth : 2048;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "loadweights local 0 count %u\n", a.array_size + 1);
		for (int i = 0; i < (quick ? 4 : 20); i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "matmul local 64 acc 0 count %u%s\n", count,
			                      i % 2 ? " accumulate" : "");
		n += (size_t)snprintf(text + n, sizeof(text) - n, "simd max in r1 out w=0 r=0 read write\n");
		void *prog;
		size_t len;
		if (ttx_tcu_assemble(&a, text, n, "bench", &prog, &len, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "bench_tensil: %s\n", err);
			return 1;
		}
		double rate[2] = { 0, 0 }, compile = 0;
		for (int e = 0; e < 2; e++) {
			struct ttx_tcu *t;
			if (ttx_tcu_create(&a, e ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP, &t, err, sizeof(err)) != TTX_OK) {
				fprintf(stderr, "bench_tensil: %s\n", err);
				return 1;
			}
			size_t vb = ttx_tcu_value_bytes(&a) * a.array_size;
			uint8_t *img = malloc(vb * (64 + count));
			srand(1);
			for (size_t i = 0; i < vb * (64 + count); i++)
				img[i] = (uint8_t)(rand() >> 7);
			ttx_tcu_write(t, TTX_TCU_LOCAL, 0, img, 64 + count);
			free(img);
			double t0 = now();
			if (ttx_tcu_run(t, prog, len, "bench", 0) != TTX_OK) {   /* (the JIT compiles here) */
				fprintf(stderr, "bench_tensil: %s\n", ttx_tcu_error(t));
				return 1;
			}
			double first = now() - t0, best = 1e30;
			for (int r = 0; r < (quick ? 1 : 5); r++) {
				struct ttx_tcu_stats s0, s1;
				ttx_tcu_stats_get(t, &s0);
				double t1 = now();
				ttx_tcu_run(t, prog, len, "bench", 0);
				double dt = now() - t1;
				ttx_tcu_stats_get(t, &s1);
				if (dt < best)
					best = dt, rate[e] = (double)(s1.macs - s0.macs) / dt;
			}
			if (e)
				compile = first - best;
			ttx_tcu_destroy(t);
		}
		printf("| %s | %.2f G MAC/s | %.2f G MAC/s | %.2fx | %.0f ms |\n", archs[k][0], rate[0] * 1e-9, rate[1] * 1e-9,
		       rate[1] / rate[0], compile * 1e3);
		free(prog);
	}
	return 0;
}
