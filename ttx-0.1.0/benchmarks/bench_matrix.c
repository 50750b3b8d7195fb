/* Matrix Unit speed: emulated multiply-accumulates per second on one core,
 * interpreter and JIT in the same run, next to the host's own fp32 FMA peak
 * measured in the same run (benchmarks/RESULTS.md).
 *
 *   - replayed MVMULs: per fidelity phase a SETC16 of the phase and one
 *     REPLAY of 16 MVMULs on distinct Dst blocks (the LLK's inner loop);
 *     8 x 16 x 16 = 2048 MACs each;
 *   - replayed ELWADD / ELWMUL: 128 elements each (counted as MACs);
 *   - the kernel library's tile matmul (unpack + math + pack, ttx_op_run)
 *     on 256 x 256 x 256 bf16.
 *
 * Usage: bench_matrix [--quick] [--only SUBSTRING] [--svg FILE] */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "bench.h"

enum kind { MVMUL, ELWADD, ELWMUL, MATMUL };

struct job {
	const char *label;
	enum kind kind;
	const char *style;         /* "bf16", "fp16", "int8" */
	bool dst32;                /* Fp32_enabled (INT8: always 32-bit) */
	unsigned phases;           /* fidelity phases: 1 LoFi, 2 HiFi2, 4 HiFi4 */
	const char *ref;           /* MATMUL: the MVMUL job its math is, for the ratio */
};

static const struct job jobs[] = {
	{ "MVMUL BF16 LoFi", MVMUL, "bf16", false, 1, NULL },
	{ "MVMUL BF16 HiFi4", MVMUL, "bf16", false, 4, NULL },
	{ "MVMUL BF16 LoFi, FP32 Dst", MVMUL, "bf16", true, 1, NULL },
	{ "MVMUL BF16 HiFi4, FP32 Dst", MVMUL, "bf16", true, 4, NULL },
	{ "MVMUL FP16 LoFi", MVMUL, "fp16", false, 1, NULL },
	{ "MVMUL FP16 HiFi4", MVMUL, "fp16", false, 4, NULL },
	{ "MVMUL INT8 LoFi", MVMUL, "int8", true, 1, NULL },
	{ "MVMUL INT8 HiFi4", MVMUL, "int8", true, 4, NULL },
	{ "ELWADD BF16", ELWADD, "bf16", false, 1, NULL },
	{ "ELWMUL BF16 LoFi", ELWMUL, "bf16", false, 1, NULL },
	{ "tile matmul 256^3 bf16 LoFi", MATMUL, "bf16", true, 1, "MVMUL BF16 LoFi, FP32 Dst" },
	{ "tile matmul 256^3 bf16 HiFi4", MATMUL, "bf16", true, 4, "MVMUL BF16 HiFi4, FP32 Dst" },
};
#define NJOBS (sizeof(jobs) / sizeof(jobs[0]))

static void run_or_die(struct ttx_tile *t, const char *what)
{
	if (ttx_run(t, 0) != TTX_OK) {
		fprintf(stderr, "bench_matrix: %s: %s\n", what, ttx_tile_error(t));
		exit(1);
	}
}

/* Pseudo-random values +-[2^-3, 2^4) in the Dst layout the job's MOVD2A /
   MOVD2B read (TC/Dst.md), written to Dst rows 0..63. */
static void fill_dst(struct ttx_tile *t, const struct job *j)
{
	static uint32_t d32[512][16];
	static uint16_t d16[1024][16];
	uint64_t s = 0x9E3779B97F4A7C15ull;
	for (unsigned r = 0; r < 64; r++)
		for (unsigned c = 0; c < 16; c++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			uint32_t sign = (uint32_t)(s >> 63), e = 124 + (uint32_t)(s >> 40) % 7, man = (uint32_t)s & 0x7FFFFF;
			if (!strcmp(j->style, "int8"))   /* magnitude 0..127 in the mantissa, any exponent */
				e = 127, man = ((uint32_t)s & 0x7F) << 16;
			d32[r][c] = sign << 31 | e << 23 | man;
			if (!strcmp(j->style, "fp16"))   /* Sign, Man10, Exp5 */
				d16[r][c] = (uint16_t)(sign << 15 | (man >> 13) << 5 | (e - 112));
			else                             /* Sign, Man7, Exp8 */
				d16[r][c] = (uint16_t)(sign << 15 | (man >> 16) << 8 | e);
		}
	if (j->dst32)
		ttx_dst32_write(t, &d32[0][0]);
	else
		ttx_dst16_write(t, &d16[0][0]);
}

/* Config word 1 (src/cfg_regs.def): SrcA format bits 17-20, SrcB 21-24,
   Fp32_enabled bit 29, INT8 math bit 31. */
static uint32_t cfg_word1(const struct job *j)
{
	uint32_t fmt = !strcmp(j->style, "bf16") ? 5 : !strcmp(j->style, "fp16") ? 1 : 14;
	return fmt << 17 | fmt << 21 | (uint32_t)j->dst32 << 29 | (uint32_t)!strcmp(j->style, "int8") << 31;
}

/* MACs/s of replayed Matrix Unit instructions under one engine. */
static double run_replay(const struct job *j, enum ttx_engine engine, long reps)
{
	struct ttx_options opt = { .engine = engine };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ttx_cfg_write(t, 0, 1, cfg_word1(j));
	fill_dst(t, j);
	char line[64];
	ttx_push(t, 0, enc("SETDVALID 3"));
	for (unsigned r = 0; r < 64; r += 4) {
		snprintf(line, sizeof(line), "MOVD2A 0, %u, 0, 2, %u", r, r);
		ttx_push(t, 0, enc(line));
		snprintf(line, sizeof(line), "MOVD2B 0, %u, 0, 2, %u", r, r);
		ttx_push(t, 0, enc(line));
	}
	/* the replay buffer: 16 instructions on Dst rows 64 + 8 i */
	ttx_push(t, 0, enc("REPLAY 0, 16, 0, 1"));
	for (unsigned i = 0; i < 16; i++) {
		unsigned row = 64 + 8 * i;
		if (j->kind == MVMUL)
			snprintf(line, sizeof(line), "MVMUL 0, 0, 0, %u", row);
		else if (j->kind == ELWADD)
			snprintf(line, sizeof(line), "ELWADD 0, 1, 0, 0, %u", row);
		else
			snprintf(line, sizeof(line), "ELWMUL 0, 0, 0, 0, %u", row);
		ttx_push(t, 0, enc(line));
	}
	run_or_die(t, j->label);
	double macs = j->kind == MVMUL ? 2048 : 128, best = 0;
	for (int round = 0; round < 3; round++) {
		for (long r = 0; r < reps; r++)
			for (unsigned ph = 0; ph < j->phases; ph++) {
				snprintf(line, sizeof(line), "SETC16 6, %u", ph);   /* FIDELITY_BASE */
				ttx_push(t, 0, enc(line));
				ttx_push(t, 0, enc("REPLAY 0, 16, 0, 0"));
			}
		double t0 = now();
		run_or_die(t, j->label);
		double rate = macs * 16 * j->phases * (double)reps / (now() - t0);
		best = rate > best ? rate : best;
	}
	ttx_tile_destroy(t);
	return best;
}

/* MACs/s of the kernel library's matmul, all of ttx_op_run. */
static double run_matmul(const struct job *j, enum ttx_engine engine, int reps)
{
	const size_t n = 256;
	float *a = malloc(n * n * sizeof(float)), *b = malloc(n * n * sizeof(float)), *o = malloc(n * n * sizeof(float));
	uint64_t s = 1;
	for (size_t i = 0; i < n * n; i++) {
		a[i] = (float)((s = s * 6364136223846793005ull + 1) >> 40) / (float)(1 << 24) * 4 - 2;
		b[i] = (float)((s = s * 6364136223846793005ull + 1) >> 40) / (float)(1 << 24) * 4 - 2;
	}
	struct ttx_tensor in[2] = { { a, 1, n, n }, { b, 1, n, n } }, out = { o, 1, n, n };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	ttx_format_parse(j->style, &p.format);
	p.fidelity = j->phases == 4 ? TTX_FIDELITY_HIFI4 : TTX_FIDELITY_LOFI;
	struct ttx_options opt = { .engine = engine };
	struct ttx_tile *t = ttx_tile_new(&opt);
	char err[256];
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		if (ttx_op_run(t, "matmul", in, 2, &p, &out, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "bench_matrix: %s: %s\n", j->label, err);
			exit(1);
		}
		double dt = now() - t0;
		best = dt < best ? dt : best;
	}
	ttx_tile_destroy(t);
	free(a), free(b), free(o);
	return (double)n * n * n / best;
}

/* The host's fp32 FMA peak on one core: 12 independent chains of 16-wide
   vectors (GCC vector extension; -march=native contracts a * b + c into
   FMA). */
typedef float v16sf __attribute__((vector_size(64)));

static double host_fma_peak(long iters)
{
	v16sf acc[12], m, a;
	for (int i = 0; i < 16; i++)
		m[i] = 0.999999f, a[i] = 1e-7f;
	for (int k = 0; k < 12; k++)
		for (int i = 0; i < 16; i++)
			acc[k][i] = (float)(k + i);
	double best = 0;
	for (int round = 0; round < 3; round++) {
		double t0 = now();
		for (long it = 0; it < iters; it++)
			for (int k = 0; k < 12; k++)
				acc[k] = acc[k] * m + a;
		double rate = 12.0 * 16 * (double)iters / (now() - t0);
		best = rate > best ? rate : best;
	}
	float sink = 0;
	for (int k = 0; k < 12; k++)
		for (int i = 0; i < 16; i++)
			sink += acc[k][i];
	if (sink == 12345.0f)   /* keeps the chains live */
		printf(" ");
	return best;
}

/* Bars of both engines per job (log scale) with the host peak and the
   25 % target as lines. */
static void write_svg(const char *path, double rate[][2], int engines, double peak)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	const int w = 860, row_h = 40, left = 230, top = 50, width = w - left - 40, n = (int)NJOBS;
	const double lo = 1e7, hi = 1e11;
#define XPOS(v) (left + (int)((double)width * (log10((v) < lo ? lo : (v)) - 7) / (log10(hi) - 7)))
	static const char *const colour[2] = { "#9e9e9e", "#1f77b4" };
	static const char *const label[2] = { "interpreter", "JIT" };
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
	        "font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n", w, top + n * row_h + 50);
	fprintf(f, "<text x='%d' y='20' font-size='14'>Matrix Unit, one core: emulated MAC/s (log scale)</text>\n", left);
	for (int e = 0; e < engines; e++)
		fprintf(f, "<rect x='%d' y='30' width='12' height='10' fill='%s'/><text x='%d' y='39'>%s</text>\n",
		        left + 160 * e, colour[e], left + 160 * e + 16, label[e]);
	for (double v = lo; v <= hi; v *= 10)
		fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#ddd'/><text x='%d' y='%d' "
		        "text-anchor='middle'>%.0e</text>\n", XPOS(v), top, XPOS(v), top + n * row_h, XPOS(v),
		        top + n * row_h + 15, v);
	for (int i = 0; i < n; i++) {
		int y = top + i * row_h;
		fprintf(f, "<text x='%d' y='%d' text-anchor='end'>%s</text>\n", left - 6, y + row_h / 2 + 4, jobs[i].label);
		for (int e = 0; e < engines; e++)
			fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>\n", left, y + 6 + e * 14,
			        XPOS(rate[i][e]) - left, 12, colour[e]);
	}
	fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#d62728' stroke-width='2'/>"
	        "<text x='%d' y='%d' fill='#d62728' text-anchor='end'>host fp32 FMA peak %.1f G/s</text>\n",
	        XPOS(peak), top - 4, XPOS(peak), top + n * row_h, XPOS(peak) - 4, top + n * row_h + 32, peak / 1e9);
	fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#d62728' stroke-dasharray='4 3'/>"
	        "<text x='%d' y='%d' fill='#d62728' text-anchor='end'>25 %%</text>\n",
	        XPOS(peak / 4), top - 4, XPOS(peak / 4), top + n * row_h, XPOS(peak / 4) - 4, top + n * row_h + 32);
	fprintf(f, "</svg>\n");
	fclose(f);
#undef XPOS
}

int main(int argc, char **argv)
{
	const char *svg = NULL, *only = NULL;
	long reps = 1000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--svg") && i + 1 < argc)
			svg = argv[++i];
		else if (!strcmp(argv[i], "--quick"))
			reps = 100;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];   /* jobs whose label contains it (profiling) */
		else {
			fprintf(stderr, "usage: bench_matrix [--quick] [--only SUBSTRING] [--svg FILE]\n");
			return 2;
		}
	}
	int engines = ttx_jit_available() ? 2 : 1;
	double peak = host_fma_peak(20000000);
	printf("host fp32 FMA peak, one core: %.2f G FMA/s\n\n", peak / 1e9);
	printf("| path | interp G MAC/s | JIT G MAC/s | JIT / interp | best / host peak |\n|---|---|---|---|---|\n");
	static double rate[NJOBS][2];
	for (size_t i = 0; i < NJOBS; i++) {
		if (only && !strstr(jobs[i].label, only))
			continue;
		for (int e = 0; e < engines; e++)
			rate[i][e] = jobs[i].kind == MATMUL
			             ? run_matmul(&jobs[i], e ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP, reps >= 1000 ? 3 : 1)
			             : run_replay(&jobs[i], e ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP,
			                          reps / (long)jobs[i].phases);
		double best = rate[i][0] > rate[i][engines - 1] ? rate[i][0] : rate[i][engines - 1];
		printf("| %s | %.3f | %.3f | %.2f | %.1f %% |\n", jobs[i].label, rate[i][0] / 1e9,
		       rate[i][engines - 1] / 1e9, rate[i][engines - 1] / rate[i][0], 100 * best / peak);
		fflush(stdout);
	}
	/* the kernel's MVMULs (FP32 Dst) count every fidelity phase: so do
	   the tile matmul's MACs here */
	for (size_t i = 0; i < NJOBS; i++)
		for (size_t r = 0; jobs[i].ref && r < NJOBS; r++)
			if (!strcmp(jobs[r].label, jobs[i].ref) && rate[i][0] > 0 && rate[r][0] > 0) {
				double m = fmax(rate[i][0], rate[i][engines - 1]) * jobs[i].phases;
				printf("\n%s: %.0f %% of the %s rate (phases counted)", jobs[i].label,
				       100 * m / fmax(rate[r][0], rate[r][engines - 1]), jobs[r].label);
			}
	printf("\n");
	if (svg)
		write_svg(svg, rate, engines, peak);
	return 0;
}
