/* The grid operations (issue 30, docs/ops.md "Grid operations"):
 *   1. the 2048 x 2048 x 2048 BFLOAT16 HiFi2 matmul on the 8 x 8 grid:
 *      host seconds on every host core, device cycles;
 *   2. a batch of grid ops on one and on two host threads: seconds, the
 *      ratio, and that results and device cycles agree;
 *   3. the matmul's device time for the configurations of tt-metal's
 *      GEMM_FLOPS report (n150, 8 x 8 grid, "device based utilization"),
 *      as TFLOP/s and utilisation (--svg FILE: a plot).
 *   bench_grid [--quick] [--svg FILE] */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench.h"

struct op_case {
	const char *name;
	size_t m, k, n;          /* matmul M K N; others: rows x cols (n unused) */
	unsigned rows, cols;
};

static float *random_matrix(size_t n, unsigned seed)
{
	float *v = malloc(n * sizeof(float));
	srand(seed);
	for (size_t i = 0; i < n; i++)
		v[i] = (float)rand() / (float)RAND_MAX - 0.5f;
	return v;
}

/* One op on the grid; its seconds, device cycles, result bits checksum. */
static double run(const struct op_case *c, enum ttx_format fmt, enum ttx_fidelity fid, unsigned threads,
                  struct ttx_chip *chip, uint64_t *cycles, uint64_t *sum)
{
	int mm = strcmp(c->name, "matmul") == 0, two = mm || strcmp(c->name, "add") == 0;
	struct ttx_tensor in[2];
	in[0] = (struct ttx_tensor){ random_matrix(c->m * c->k, 1), 1, c->m, c->k };
	in[1] = mm ? (struct ttx_tensor){ random_matrix(c->k * c->n, 2), 1, c->k, c->n }
	           : (struct ttx_tensor){ random_matrix(c->m * c->k, 2), 1, c->m, c->k };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	p.format = fmt, p.out_format = TTX_FORMAT_BF16, p.fidelity = fid;
	p.grid_rows = c->rows, p.grid_cols = c->cols, p.threads = threads, p.chip = chip;
	struct ttx_grid_stats gs;
	p.grid_stats = &gs;
	size_t b, r, k;
	char err[512];
	if (ttx_op_shape(c->name, in, two ? 2 : 1, &p, &b, &r, &k, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "bench_grid: %s\n", err);
		exit(1);
	}
	struct ttx_tensor out = { malloc(b * r * k * sizeof(float)), b, r, k };
	double t0 = now();
	if (ttx_op_run(NULL, c->name, in, two ? 2 : 1, &p, &out, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "bench_grid: %s: %s\n", c->name, err);
		exit(1);
	}
	double t = now() - t0;
	*cycles = gs.cycles;
	uint64_t s = 0;
	for (size_t i = 0; i < b * r * k; i++) {
		uint32_t bits;
		memcpy(&bits, &out.data[i], 4);
		s = s * 31 + bits;
	}
	*sum = s;
	free(in[0].data), free(in[1].data), free(out.data);
	return t;
}

struct gemm {
	size_t size;
	const char *label;
	enum ttx_format fmt;
	enum ttx_fidelity fid;
	double tflops, util;
};

static void write_svg(const char *path, const struct gemm *g, size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	const int W = 640, H = 380, L = 60, B = 50, T = 30, R = 170;
	double ymax = 0;
	for (size_t i = 0; i < n; i++)
		ymax = g[i].tflops > ymax ? g[i].tflops : ymax;
	ymax = ceil(ymax / 10) * 10;
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
	        "font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n", W, H);
	fprintf(f, "<text x='%d' y='18' font-size='14'>ttx: matmul on the 8x8 grid, estimated TFLOP/s at 1 GHz</text>\n", L);
	fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='black'/>\n", L, H - B, W - R, H - B);
	fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='black'/>\n", L, T, L, H - B);
	for (int k = 0; k <= 5; k++) {
		double v = ymax * k / 5;
		int y = H - B - (int)((H - B - T) * k / 5);
		fprintf(f, "<text x='%d' y='%d' text-anchor='end'>%.0f</text>\n", L - 6, y + 4, v);
		fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#ddd'/>\n", L, y, W - R, y);
	}
	static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e" };
	const char *labels[8];
	size_t nl = 0;
	size_t sizes[8], ns = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		for (j = 0; j < nl && strcmp(labels[j], g[i].label) != 0; j++)
			;
		if (j == nl && nl < 8)
			labels[nl++] = g[i].label;
		for (j = 0; j < ns && sizes[j] != g[i].size; j++)
			;
		if (j == ns && ns < 8)
			sizes[ns++] = g[i].size;
	}
	for (size_t s = 0; s < ns; s++) {
		int x = L + (int)((W - R - L) * (s + 0.5) / ns);
		fprintf(f, "<text x='%d' y='%d' text-anchor='middle'>%zu^3</text>\n", x, H - B + 18, sizes[s]);
	}
	fprintf(f, "<text x='%d' y='%d' text-anchor='middle'>M = K = N</text>\n", (L + W - R) / 2, H - 12);
	for (size_t l = 0; l < nl; l++) {
		const char *col = colors[l % 5];
		fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", col);
		for (size_t s = 0; s < ns; s++)
			for (size_t i = 0; i < n; i++)
				if (g[i].size == sizes[s] && strcmp(g[i].label, labels[l]) == 0)
					fprintf(f, "%d,%d ", L + (int)((W - R - L) * (s + 0.5) / ns),
					        H - B - (int)((H - B - T) * g[i].tflops / ymax));
		fprintf(f, "'/>\n<text x='%d' y='%d' fill='%s'>%s</text>\n", W - R + 10, T + 20 + 18 * (int)l, col,
		        labels[l]);
	}
	fprintf(f, "</svg>\n");
	fclose(f);
}

int main(int argc, char **argv)
{
	int quick = 0;
	const char *svg = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
			svg = argv[++i];
		else {
			fprintf(stderr, "usage: bench_grid [--quick] [--svg FILE]\n");
			return 2;
		}
	}
	uint64_t cy, sum;
	/* 1. the 2048^3 matmul */
	struct op_case big = { "matmul", 2048, 2048, 2048, 8, 8 };
	if (quick)
		big.m = big.k = big.n = 512;
	double t = run(&big, TTX_FORMAT_BF16, TTX_FIDELITY_HIFI2, 0, NULL, &cy, &sum);
	double flops = 2.0 * big.m * big.k * big.n;
	printf("matmul %zu^3 bf16 hifi2, 8x8, every host core: %.2f s, %llu device cycles (%.1f TFLOP/s at 1 GHz)\n",
	       big.m, t, (unsigned long long)cy, flops / cy * 1e-3);

	/* 2. a batch on one and two threads */
	static const struct op_case batch[] = {
		{ "matmul", 512, 512, 512, 4, 4 }, { "matmul", 256, 1024, 512, 8, 8 }, { "softmax", 512, 1024, 0, 8, 8 },
		{ "add", 1024, 1024, 0, 8, 8 }, { "gelu", 1024, 1024, 0, 8, 8 }, { "layernorm", 512, 1024, 0, 4, 8 },
	};
	size_t nb = sizeof(batch) / sizeof(batch[0]);
	double secs[2] = { 0, 0 };
	/* a chip a thread count, kept through the batch as a batch job would */
	struct ttx_chip *chips[2];
	for (unsigned k = 0; k < 2; k++) {
		struct ttx_chip_options o = { .size = sizeof(o), .threads = k + 1, .harvested_rows = 1u << 10 | 1u << 11 };
		char err[256];
		if (ttx_chip_create(&o, &chips[k], err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "bench_grid: %s\n", err);
			return 1;
		}
	}
	int agree = 1;
	for (size_t i = 0; i < nb; i++) {
		uint64_t c1, s1, c2, s2;
		double t1 = 1e30, t2 = 1e30;
		for (int round = 0; round < (quick ? 1 : 5); round++) {   /* best of five, alternating */
			double a = run(&batch[i], TTX_FORMAT_BF16, TTX_FIDELITY_HIFI4, 1, chips[0], &c1, &s1);
			double b = run(&batch[i], TTX_FORMAT_BF16, TTX_FIDELITY_HIFI4, 2, chips[1], &c2, &s2);
			t1 = a < t1 ? a : t1, t2 = b < t2 ? b : t2;
		}
		secs[0] += t1, secs[1] += t2;
		agree &= c1 == c2 && s1 == s2;
		printf("  %-9s %4zux%-4zu %ux%u: 1 thread %.3f s, 2 threads %.3f s (%.2fx), %llu device cycles\n",
		       batch[i].name, batch[i].m, batch[i].k, batch[i].rows, batch[i].cols, t1, t2, t1 / t2,
		       (unsigned long long)c1);
	}
	ttx_chip_destroy(chips[0]), ttx_chip_destroy(chips[1]);
	printf("batch of %zu grid ops (best of five each): 1 thread %.2f s, 2 threads %.2f s: %.2fx; results and cycles %s\n", nb, secs[0],
	       secs[1], secs[0] / secs[1], agree ? "identical" : "DIFFER");

	/* 3. GEMM_FLOPS's configurations */
	static const struct { const char *label; enum ttx_format fmt; enum ttx_fidelity fid; } cfg[] = {
		{ "BFLOAT16 HiFi2", TTX_FORMAT_BF16, TTX_FIDELITY_HIFI2 }, { "BFLOAT16 HiFi4", TTX_FORMAT_BF16, TTX_FIDELITY_HIFI4 },
		{ "BFLOAT8_B HiFi2", TTX_FORMAT_BFP8, TTX_FIDELITY_HIFI2 }, { "BFLOAT4_B LoFi", TTX_FORMAT_BFP4, TTX_FIDELITY_LOFI },
	};
	static const size_t sizes[] = { 512, 1024, 2048 };
	size_t ns = quick ? 1 : sizeof(sizes) / sizeof(sizes[0]);
	struct gemm g[16];
	size_t n = 0;
	printf("\n| M = K = N | format, fidelity | device cycles | TFLOP/s at 1 GHz | utilisation |\n|---|---|---|---|---|\n");
	for (size_t s = 0; s < ns; s++)
		for (size_t c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++) {
			struct op_case mm = { "matmul", sizes[s], sizes[s], sizes[s], 8, 8 };
			run(&mm, cfg[c].fmt, cfg[c].fid, 0, NULL, &cy, &sum);
			double f = 2.0 * sizes[s] * sizes[s] * sizes[s];
			/* peak: 64 tiles x 2048 MACs a cycle, one fidelity phase each */
			double peak = 64.0 * 2048 * 2 / (cfg[c].fid + 1) * 1e-3;
			g[n] = (struct gemm){ sizes[s], cfg[c].label, cfg[c].fmt, cfg[c].fid, f / cy * 1e-3, 0 };
			g[n].util = g[n].tflops / peak;
			printf("| %zu | %s | %llu | %.1f | %.1f%% |\n", sizes[s], cfg[c].label, (unsigned long long)cy, g[n].tflops,
			       100 * g[n].util);
			n++;
		}
	if (svg)
		write_svg(svg, g, n);
	return 0;
}
