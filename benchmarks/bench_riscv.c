/* The RISC-V cores' speed (benchmarks/RESULTS.md): emulated RISC-V
 * instructions per host second on a tight integer loop and on a word-copy
 * loop in L1, and Tensix words per second pushed by a TRISC loop against
 * the same words pushed by the host (as `ttx run words.bin` does), under
 * the interpreter and the JIT (which compiles the pushed Tensix words, not
 * the RISC-V code); and tensor ops with their kernels pushed by the host
 * (assembler) against the same words pushed by C programs on RISCV T0-T2
 * (ttx op --kernels riscv).
 *
 *   bench_riscv [ELF_DIR]   (default: benchmarks/riscv of the build tree) */
#include <string.h>

#include "bench.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "bench_riscv: %s: cannot open (build with the RISC-V cross compiler)\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(2);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Run ELF dir/name on T0 with its argument at 0x16000; the best of three
   wall times; *insns gets the cores' and *tensix the threads' counts. */
static double run(const char *dir, const char *name, uint32_t arg, enum ttx_engine engine, uint64_t *insns,
                  uint64_t *tensix)
{
	char path[1024];
	size_t len;
	snprintf(path, sizeof(path), "%s/%s.trisc0.elf", dir, name);
	unsigned char *elf = slurp(path, &len);
	double best = 1e30;
	for (int rep = 0; rep < 3; rep++) {
		struct ttx_options opt = { .engine = engine };
		struct ttx_tile *t = ttx_tile_new(&opt);
		uint32_t entry;
		ttx_l1_write(t, 0x16000, &arg, 4);
		if (ttx_elf_load(t, TTX_CORE_T0, elf, len, &entry) != TTX_OK || ttx_core_start(t, TTX_CORE_T0, entry)) {
			fprintf(stderr, "bench_riscv: %s: %s\n", path, ttx_tile_error(t));
			exit(1);
		}
		double t0 = now();
		if (ttx_run(t, 0) != TTX_OK) {
			fprintf(stderr, "bench_riscv: %s: %s\n", path, ttx_tile_error(t));
			exit(1);
		}
		double dt = now() - t0;
		struct ttx_core_state s;
		struct ttx_stats st;
		ttx_core_state(t, TTX_CORE_T0, &s);
		ttx_stats_get(t, &st);
		*insns = s.insns;
		*tensix = st.insns;
		if (dt < best)
			best = dt;
		ttx_tile_destroy(t);
	}
	free(elf);
	return best;
}

/* The same Tensix words as push.c, pushed by the host. */
static double host_push(uint32_t n, enum ttx_engine engine)
{
	uint32_t w[4] = { enc("SFPIADD 1, 1, 1, 5"), enc("SFPNOP"), enc("SFPIADD 2, 2, 2, 5"), enc("SFPNOP") };
	double best = 1e30;
	for (int rep = 0; rep < 3; rep++) {
		struct ttx_options opt = { .engine = engine };
		struct ttx_tile *t = ttx_tile_new(&opt);
		double t0 = now();
		for (uint32_t i = 0; i < n; i++)
			for (int k = 0; k < 4; k++)
				ttx_push(t, 0, w[k]);
		if (ttx_run(t, 0) != TTX_OK)
			exit(1);
		double dt = now() - t0;
		if (dt < best)
			best = dt;
		ttx_tile_destroy(t);
	}
	return best;
}

/* Seconds for op `name` on a x b (and b x c for matmul) bf16 inputs with
   kernels k, best of three on one tile of this engine. */
static double op_time(const char *name, size_t a, size_t b, size_t c, enum ttx_kernels k, enum ttx_engine engine)
{
	struct ttx_options opt = { .engine = engine };
	struct ttx_tile *t = ttx_tile_new(&opt);
	int matmul = strcmp(name, "matmul") == 0;
	size_t nout = matmul ? a * c : a * b;
	float *x = malloc(a * b * sizeof(float)), *y = malloc(b * c * sizeof(float)), *out = malloc(nout * sizeof(float));
	for (size_t i = 0; i < a * b; i++)
		x[i] = (float)((i * 7919 % 1000) / 500.0 - 1.0);
	for (size_t i = 0; i < b * c; i++)
		y[i] = (float)((i * 104729 % 1000) / 500.0 - 1.0);
	struct ttx_tensor in[2] = { { x, 1, a, b }, { y, 1, b, c } }, o = { out, 1, a, matmul ? c : b };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	p.kernels = k;
	char err[256];
	double best = 1e30;
	for (int rep = 0; rep < 3; rep++) {
		double t0 = now();
		if (ttx_op_run(t, name, in, matmul ? 2 : 1, &p, &o, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "bench_riscv: %s: %s\n", name, err);
			exit(1);
		}
		double dt = now() - t0;
		best = dt < best ? dt : best;
	}
	free(x), free(y), free(out);
	ttx_tile_destroy(t);
	return best;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "benchmarks/riscv";
	uint64_t insns, tensix;
	printf("RISC-V cores, one host core (best of 3)\n\n");
	double dt = run(dir, "loop", 20000000, TTX_ENGINE_INTERP, &insns, &tensix);
	printf("integer loop        %12llu instructions %8.3f s  %7.1f M instructions/s\n", (unsigned long long)insns,
	       dt, (double)insns / dt * 1e-6);
	dt = run(dir, "copy", 400, TTX_ENGINE_INTERP, &insns, &tensix);
	printf("word copy in L1     %12llu instructions %8.3f s  %7.1f M instructions/s (%.0f MB/s copied)\n",
	       (unsigned long long)insns, dt, (double)insns / dt * 1e-6, 400.0 * 65536 / dt * 1e-6);
	static const enum ttx_engine engines[] = { TTX_ENGINE_INTERP, TTX_ENGINE_JIT };
	static const char *const names[] = { "interp", "jit" };
	for (int e = 0; e < 2; e++) {
		if (engines[e] == TTX_ENGINE_JIT && !ttx_jit_available())
			continue;
		uint32_t n = 1000000;
		double core = run(dir, "push", n, engines[e], &insns, &tensix), host = host_push(n, engines[e]);
		printf("TRISC pushes (%-6s) %10llu Tensix words %8.3f s  %7.1f M words/s; from the host %.3f s: %.2fx\n",
		       names[e], (unsigned long long)tensix, core, (double)tensix / core * 1e-6, host, core / host);
	}
	static const struct { const char *name; size_t a, b, c; } ops[] = {
		{ "matmul", 256, 256, 256 }, { "exp", 512, 512, 0 }, { "softmax", 256, 512, 0 },
		{ "tanh", 512, 512, 0 },
	};
	printf("\nops, kernels pushed by the host (asm) and by RISCV T0-T2 (riscv), seconds:\n");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (int e = 0; e < 2; e++) {
			if (engines[e] == TTX_ENGINE_JIT && !ttx_jit_available())
				continue;
			double as = op_time(ops[i].name, ops[i].a, ops[i].b, ops[i].c, TTX_KERNELS_ASM, engines[e]);
			double rv = op_time(ops[i].name, ops[i].a, ops[i].b, ops[i].c, TTX_KERNELS_RISCV, engines[e]);
			printf("%-10s %zux%zu%s%.0zu (%-6s)  asm %.4f  riscv %.4f  riscv/asm %.2f\n", ops[i].name, ops[i].a,
			       ops[i].b, ops[i].c ? "x" : "", ops[i].c, names[e], as, rv, rv / as);
		}
	return 0;
}
