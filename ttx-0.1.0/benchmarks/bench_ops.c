/* Tensor operations (docs/ops.md) on one core: elements per second (MACs per
 * second for matmul) and emulated instructions per second, interpreter and
 * JIT measured in the same run.  The time is all of ttx_op_run: conversion
 * and tiling on the host, assembling the kernels, and the tile's run.
 *
 *   bench_ops [--quick] [--svg FILE] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct job {
	const char *label, *op, *fmt;
	size_t m, k, n;               /* matmul: M K N; others: rows x cols (and B's shape for binary ops) */
	int fidelity;
	int nin;
};

static const struct job jobs[] = {
	{ "matmul 256^3 bf16 HiFi2", "matmul", "bf16", 256, 256, 256, 1, 2 },
	{ "matmul 512^3 bf16 HiFi4", "matmul", "bf16", 512, 512, 512, 3, 2 },
	{ "matmul 512^3 bf16 LoFi", "matmul", "bf16", 512, 512, 512, 0, 2 },
	{ "add 512x512 bf16", "add", "bf16", 512, 0, 512, 3, 2 },
	{ "mul 512x512 bf16 HiFi4", "mul", "bf16", 512, 0, 512, 3, 2 },
	{ "add 512x512 fp32 (SFPU)", "add", "fp32", 512, 0, 512, 3, 2 },
	{ "reduce_sum rows 512x512", "reduce_sum", "fp32", 512, 0, 512, 3, 1 },
	{ "reduce_max all 512x512", "reduce_max", "bf16", 512, 0, 512, 3, 1 },
	{ "softmax 256x512", "softmax", "bf16", 256, 0, 512, 3, 1 },
	{ "layernorm 256x512", "layernorm", "bf16", 256, 0, 512, 3, 1 },
	{ "transpose 512x512 bf16", "transpose", "bf16", 512, 0, 512, 3, 1 },
	{ "exp 512x512", "exp", "fp32", 512, 0, 512, 3, 1 },
	{ "gelu 512x512", "gelu", "bf16", 512, 0, 512, 3, 1 },
	{ "sigmoid 512x512", "sigmoid", "bf16", 512, 0, 512, 3, 1 },
	{ "sqrt 512x512", "sqrt", "fp32", 512, 0, 512, 3, 1 },
	{ "relu 512x512", "relu", "bf16", 512, 0, 512, 3, 1 },
};
#define NJOBS (sizeof(jobs) / sizeof(jobs[0]))

struct result {
	double rate[2], ips[2];       /* per engine: elements (MACs) / s, instructions / s */
};

static double run(const struct job *j, enum ttx_engine engine, int reps, double *ips)
{
	size_t a_rows = j->m, a_cols = j->k ? j->k : j->n, b_rows = j->k ? j->k : j->m, b_cols = j->n;
	float *a = malloc(a_rows * a_cols * sizeof(float)), *b = malloc(b_rows * b_cols * sizeof(float));
	uint64_t s = 1;
	for (size_t i = 0; i < a_rows * a_cols; i++)
		a[i] = (float)((s = s * 6364136223846793005ull + 1) >> 40) / (float)(1 << 24) * 4 - 2;
	for (size_t i = 0; i < b_rows * b_cols; i++)
		b[i] = (float)((s = s * 6364136223846793005ull + 1) >> 40) / (float)(1 << 24) * 4 - 2;
	struct ttx_tensor in[2] = { { a, 1, a_rows, a_cols }, { b, 1, b_rows, b_cols } };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	ttx_format_parse(j->fmt, &p.format);
	p.fidelity = (enum ttx_fidelity)j->fidelity;
	size_t ob, orow, ocol;
	char err[256];
	if (ttx_op_shape(j->op, in, (unsigned)j->nin, &p, &ob, &orow, &ocol, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "bench_ops: %s: %s\n", j->label, err);
		exit(1);
	}
	struct ttx_tensor out = { malloc(ob * orow * ocol * sizeof(float)), ob, orow, ocol };
	struct ttx_options opt = { .engine = engine };
	struct ttx_tile *t = ttx_tile_new(&opt);
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		if (ttx_op_run(t, j->op, in, (unsigned)j->nin, &p, &out, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "bench_ops: %s: %s\n", j->label, err);
			exit(1);
		}
		double dt = now() - t0;
		if (dt < best)
			best = dt;
	}
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	*ips = (double)st.insns / reps / best;
	ttx_tile_destroy(t);
	free(a), free(b), free(out.data);
	double work = j->k ? (double)j->m * (double)j->k * (double)j->n : (double)j->m * (double)j->n;
	return work / best;
}

/* Bars of both engines per job, log scale. */
static void write_svg(const char *path, const struct result *r)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	const int w = 820, row_h = 44, left = 230, top = 40, width = w - left - 90, n = (int)NJOBS;
	const double lo = 1e5, hi = 1e10;
	static const char *const colour[2] = { "#9e9e9e", "#1f77b4" };
	static const char *const label[2] = { "interpreter", "JIT (--engine jit)" };
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
	        "font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n", w, top + row_h * n + 60);
	fprintf(f, "<text x='%d' y='20' font-size='14'>ttx op, one core: elements/s (matmul: MACs/s), log scale"
	        "</text>\n", left);
	for (int d = 5; d <= 10; d++) {
		double x = left + width * (d - 5) / 5.0;
		fprintf(f, "<line x1='%.0f' y1='%d' x2='%.0f' y2='%d' stroke='#ddd'/>", x, top, x, top + row_h * n);
		fprintf(f, "<text x='%.0f' y='%d' text-anchor='middle'>1e%d</text>\n", x, top + row_h * n + 15, d);
	}
	for (int i = 0; i < n; i++) {
		int y = top + row_h * i;
		fprintf(f, "<text x='%d' y='%d' text-anchor='end'>%s</text>\n", left - 8, y + 24, jobs[i].label);
		for (int k = 0; k < 2; k++) {
			double v = r[i].rate[k], x = v <= lo ? 0 : width * log10(v / lo) / log10(hi / lo);
			fprintf(f, "<rect x='%d' y='%d' width='%.1f' height='16' fill='%s'/>", left, y + 4 + 18 * k, x,
			        colour[k]);
			fprintf(f, "<text x='%.0f' y='%d'>%.3g</text>\n", left + x + 4, y + 17 + 18 * k, v);
		}
	}
	for (int k = 0; k < 2; k++)
		fprintf(f, "<rect x='%d' y='%d' width='12' height='12' fill='%s'/><text x='%d' y='%d'>%s</text>\n",
		        left + 200 * k, top + row_h * n + 30, colour[k], left + 200 * k + 16, top + row_h * n + 41,
		        label[k]);
	fprintf(f, "</svg>\n");
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *svg = NULL;
	int reps = 3;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
			svg = argv[++i];
		else if (strcmp(argv[i], "--quick") == 0)
			reps = 1;
		else {
			fprintf(stderr, "usage: bench_ops [--quick] [--svg FILE]\n");
			return 2;
		}
	}
	int engines = ttx_jit_available() ? 2 : 1;
	static struct result res[NJOBS];
	printf("%-26s %14s %14s %8s %14s %14s\n", "operation", "interp el/s", "jit el/s", "jit/int", "interp ins/s",
	       "jit ins/s");
	for (size_t i = 0; i < NJOBS; i++) {
		for (int e = 0; e < engines; e++)
			res[i].rate[e] = run(&jobs[i], e ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP, reps, &res[i].ips[e]);
		printf("%-26s %14.3g %14.3g %8.2f %14.3g %14.3g\n", jobs[i].label, res[i].rate[0], res[i].rate[1],
		       engines == 2 ? res[i].rate[1] / res[i].rate[0] : 0, res[i].ips[0], res[i].ips[1]);
		fflush(stdout);
	}
	if (svg)
		write_svg(svg, res);
	return 0;
}
