/* ttx demo: a transformer MLP block on the emulated tile (docs/ops.md).
 *
 *   H = X W1, G = gelu(H), Y = G W2, P = softmax(Y)
 *
 * X is M x K, W1 K x N, W2 N x N (default 128 x 256 x 256), random with
 * fixed seeds, BF16 in L1 and HiFi2 by default.  Each operation's result is
 * compared with a float64 computation of the same operation on the same
 * inputs (as the tile received them, after their conversion to the L1
 * format), against the bound docs/ops.md derives for it; the run repeats on
 * each engine, whose results must agree bit for bit.  Exit 0 only if every
 * error is within its bound and the engines agree. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum { NOPS = 4 };
static const char *const op_names[NOPS] = { "matmul", "gelu", "matmul", "softmax" };
static const char *const op_what[NOPS] = { "H = X W1", "G = gelu(H)", "Y = G W2", "P = softmax(Y)" };

struct run {
	float *out[NOPS];
	double seconds[NOPS];
	struct ttx_cycles cycles[NOPS];   /* the cycle model's, per operation */
	struct ttx_stats stats;
	double wall;
};

struct progress {
	const char *engine;
	int op;
	FILE *err;
};

static int show_progress(void *ctx, double f)
{
	const struct progress *p = ctx;
	fprintf(p->err, "\r  %-6s %d/4 %-14s %3.0f%%", p->engine, p->op + 1, op_what[p->op], 100 * f);
	fflush(p->err);
	return 0;
}

/* splitmix64 and Box-Muller: the same numbers on every machine. */
static double uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return ((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

static void normal(float *v, size_t n, double scale, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		double u = uniform(&seed), w = uniform(&seed);
		v[i] = (float)(scale * sqrt(-2 * log(u + 0x1.0p-60)) * cos(2 * M_PI * w));
	}
}

/* Values as the tile computes with them: converted to the L1 format, then
   read by the unpacker into Src, which flushes what is below the smallest
   normal of the Src style (FP16's 2^-14 for fp16, fp8 and the bfp*a
   formats, 2^-126 for the others) to zero (TC/MatrixUnit.md
   FlushDenormals; the host's ttx_format_decode keeps denormals,
   docs/formats.md). */
static double *as_tile(const float *x, size_t n, enum ttx_format f)
{
	size_t bytes = ttx_format_bytes(f, (n + 15) / 16 * 16);
	float *pad = calloc((n + 15) / 16 * 16, sizeof(float));
	unsigned char *enc = malloc(bytes);
	double *out = malloc(n * sizeof(double));
	int fp16_style = f == TTX_FORMAT_FP16 || f == TTX_FORMAT_FP8 || f == TTX_FORMAT_BFP8A ||
	                 f == TTX_FORMAT_BFP4A || f == TTX_FORMAT_BFP2A;
	double smallest = fp16_style ? 0x1.0p-14 : 0x1.0p-126;
	if (pad && enc && out) {
		memcpy(pad, x, n * sizeof(float));
		ttx_format_encode(f, TTX_ROUND_NEAREST_EVEN, pad, (n + 15) / 16 * 16, enc, bytes);
		ttx_format_decode(f, enc, bytes, pad, (n + 15) / 16 * 16);
		for (size_t i = 0; i < n; i++)
			out[i] = fabs(pad[i]) < smallest ? 0.0 : pad[i];
	}
	free(pad), free(enc);
	if (!(pad && enc))
		free(out), out = NULL;
	return out;
}

/* The bound on |C - A B| / sum |a||b| (docs/ops.md): the dropped
   multiplicand bits of the fidelity phases (BF16 family: SrcA 5 bits a
   phase, SrcB 7), and the alignment of the products 10 bits below the
   largest of each half of 16 (2^-8 of the sum of magnitudes at worst), and
   Dst's FP32 rounding once per tile of K. */
static double matmul_eps(enum ttx_fidelity fid, size_t k)
{
	static const double fid_eps[4] = { 0x1.0p-4 + 0x1.0p-7, 0x1.0p-7, 0x1.0p-11, 0 };
	return fid_eps[fid] + 0x1.0p-8 + (double)(k / 32 + 1) * 0x1.0p-23;
}

struct check {
	double err, bound;     /* the worst error / its bound */
	const char *what;
	size_t quirks;         /* matmul outliers of docs/matrix.md departure 10 */
};

/* An error of -2^n (within 2^-6): an accumulation that cancelled to exactly
   -1 unit of the FP32 grid, written as -2^(R+4) (docs/matrix.md departure
   10, docs/ops.md); about one in 2^23 accumulation steps. */
static int departure10(double d)
{
	if (!(d < 0))
		return 0;
	double p = exp2(round(log2(-d)));
	return fabs(-d / p - 1) < 0x1.0p-6;
}

static struct check check_matmul(const float *a, const float *b, const float *c, size_t M, size_t K, size_t N,
                                 enum ttx_format f, enum ttx_fidelity fid)
{
	double *qa = as_tile(a, M * K, f), *qb = as_tile(b, K * N, f), worst = 0, eps = matmul_eps(fid, K);
	size_t quirks = 0;
	for (size_t i = 0; qa && qb && i < M; i++)
		for (size_t j = 0; j < N; j++) {
			double r = 0, s = 0;
			for (size_t k = 0; k < K; k++)
				r += qa[i * K + k] * qb[k * N + j], s += fabs(qa[i * K + k] * qb[k * N + j]);
			double e = fabs(c[i * N + j] - r) / (s > 0 ? s : 1);
			if (e > eps && departure10(c[i * N + j] - r)) {
				quirks++;
				continue;
			}
			if (e > worst || e != e)
				worst = e;
		}
	free(qa), free(qb);
	/* more outliers than the accumulation steps explain count as errors */
	size_t steps = M * N * (K / 16 + 1) * ((size_t)fid + 1);
	if (quirks > (steps >> 21) + 2)
		worst = INFINITY;
	return (struct check) { worst, eps, "max |C - AB| / sum|a||b|", quirks };
}

/* gelu: the erf of Abramowitz and Stegun 7.1.26 (absolute error 1.5e-7) in
   FP32: |y - ref| <= 2e-7 |x| + 2^-20 |ref|. */
static struct check check_gelu(const float *x, const float *y, size_t n, enum ttx_format f)
{
	double *q = as_tile(x, n, f), worst = 0;
	for (size_t i = 0; q && i < n; i++) {
		double r = 0.5 * q[i] * erfc(-q[i] / sqrt(2.0));
		double e = fabs(y[i] - r) / (2e-7 * fabs(q[i]) + 0x1.0p-20 * fabs(r) + 1e-37);
		if (e > worst || e != e)
			worst = e;
	}
	free(q);
	return (struct check) { worst, 1, "max |y - ref| / (2e-7|x| + 2^-20|ref|)", 0 };
}

/* softmax: each FP32 step (exp, sum, reciprocal, product) within a few
   units of the last place: |p - ref| <= (2^-20 + N 2^-24) ref + 2^-126. */
static struct check check_softmax(const float *x, const float *p, size_t M, size_t N, enum ttx_format f)
{
	double *q = as_tile(x, M * N, f), worst = 0, bound = 0x1.0p-20 + (double)N * 0x1.0p-24;
	for (size_t i = 0; q && i < M; i++) {
		double m = -INFINITY, s = 0;
		for (size_t j = 0; j < N; j++)
			m = q[i * N + j] > m ? q[i * N + j] : m;
		for (size_t j = 0; j < N; j++)
			s += exp(q[i * N + j] - m);
		for (size_t j = 0; j < N; j++) {
			double r = exp(q[i * N + j] - m) / s, e = fabs(p[i * N + j] - r) / (r + 0x1.0p-126);
			if (e > worst || e != e)
				worst = e;
		}
	}
	free(q);
	return (struct check) { worst, bound, "max |p - ref| / ref", 0 };
}

static int run_block(const struct cli_io *io, const char *engine_name, enum ttx_engine engine,
                     struct ttx_jit_cache *cache, const float *x, const float *w1, const float *w2, size_t M, size_t K,
                     size_t N, const struct ttx_op_params *base, struct run *r)
{
	struct ttx_options opt = { .engine = engine, .warn = warn_line, .warn_ctx = io->err, .timing = 1,
	                           .jit_cache = cache, .interrupt = io->interrupt };
	struct ttx_tile *t = ttx_tile_new(&opt);
	if (!t) {
		fprintf(io->err, "ttx: out of memory\n");
		return EXIT_USAGE;
	}
	struct progress pr = { engine_name, 0, io->err };
	struct ttx_op_params p = *base;
	int tty = io->err == stderr && isatty(STDERR_FILENO);
	if (tty)
		p.progress = show_progress, p.progress_ctx = &pr;
	else
		fprintf(io->err, "  running on the %s ...\n", engine_name);
	size_t rows[NOPS] = { M, M, M, M }, cols[NOPS] = { N, N, N, N };
	const float *a[NOPS] = { x, NULL, NULL, NULL }, *b[NOPS] = { w1, NULL, w2, NULL };
	size_t ar[NOPS] = { M, M, M, M }, ac[NOPS] = { K, N, N, N }, bcols[NOPS] = { N, 0, N, 0 };
	char err[512];
	double t0 = cli_seconds();
	for (int i = 0; i < NOPS; i++) {
		pr.op = i;
		struct ttx_tensor in[2] = { { (float *)(i ? r->out[i - 1] : a[0]), 1, ar[i], ac[i] },
		                            { (float *)b[i], 1, ac[i], bcols[i] } };
		struct ttx_tensor out = { malloc(rows[i] * cols[i] * sizeof(float)), 1, rows[i], cols[i] };
		r->out[i] = out.data;
		double s = cli_seconds();
		struct ttx_cycles before;
		ttx_cycles_get(t, &before);
		enum ttx_status st = out.data ? ttx_op_run(t, op_names[i], in, b[i] ? 2 : 1, &p, &out, err, sizeof(err))
		                              : TTX_ENOMEM;
		if (st != TTX_OK) {
			fprintf(io->err, "\nttx: demo: %s: %s\n", op_what[i], out.data ? err : "out of memory");
			ttx_tile_destroy(t);
			return st == TTX_INTERRUPTED ? EXIT_INTERRUPTED : st == TTX_FAULT ? EXIT_FAULT : EXIT_USAGE;
		}
		r->seconds[i] = cli_seconds() - s;
		/* this operation's share of the totals */
		struct ttx_cycles *c = &r->cycles[i];
		ttx_cycles_get(t, c);
		c->device_cycles -= before.device_cycles;
		c->macs -= before.macs;
		for (int u = 0; u < TTX_UNIT_COUNT; u++)
			c->busy_by_unit[u] -= before.busy_by_unit[u];
	}
	r->wall = cli_seconds() - t0;
	ttx_stats_get(t, &r->stats);
	ttx_tile_destroy(t);
	if (tty)
		fprintf(io->err, "\r%60s\r", "");
	return 0;
}

static int parse_size(const char *s, size_t *m, size_t *k, size_t *n)
{
	unsigned long a, b, c;
	char tail;
	if (sscanf(s, "%lu,%lu,%lu%c", &a, &b, &c, &tail) != 3 || !a || !b || !c || a > 4096 || b > 4096 || c > 4096)
		return -1;
	*m = a, *k = b, *n = c;
	return 0;
}

enum { OPT_ENGINE = 256, OPT_SIZE, OPT_FORMAT, OPT_FIDELITY, OPT_QUICK };

const struct cli_opt demo_options[] = {
	{ "engine", OPT_ENGINE, "E", "interp, jit or both (default: both, side by side, when built with the JIT)", 0 },
	{ "size", OPT_SIZE, "M,K,N", "X is M x K, W1 K x N, W2 N x N (default 128,256,256; 1 to 4096 each)", 0 },
	{ "quick", OPT_QUICK, NULL, "a small block: 32,64,64", 0 },
	{ "format", OPT_FORMAT, "F", "L1 format of the inputs: bf16 (default), fp16, fp32, fp8, bfp8, bfp4, bfp2, "
	  "bfp8a, bfp4a or bfp2a", 0 },
	{ "fidelity", OPT_FIDELITY, "F", "lofi, hifi2 (default), hifi3 or hifi4: the matmuls' phases", 0 },
	{ NULL, 0, NULL, NULL, 0 },
};

/* The formats the operations take (app/ops.c). */
static int op_format(enum ttx_format f)
{
	return f != TTX_FORMAT_TF32 && f != TTX_FORMAT_INT8 && f != TTX_FORMAT_UINT8 && f != TTX_FORMAT_INT16 &&
	       f != TTX_FORMAT_INT32;
}

int cmd_demo(const struct cli_io *io, int argc, char **argv)
{
	size_t M = 128, K = 256, N = 256;
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	p.fidelity = TTX_FIDELITY_HIFI2;
	int engines = ttx_jit_available() ? 3 : 1;   /* bit 0 interp, bit 1 jit */
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	while ((c = cli_next(&scan, demo_options)) != CLI_END) {
		const char *optarg = scan.arg;
		switch (c) {
		case OPT_ENGINE:
			if (strcmp(optarg, "interp") == 0)
				engines = 1;
			else if (strcmp(optarg, "jit") == 0 && ttx_jit_available())
				engines = 2;
			else if (strcmp(optarg, "both") == 0 && ttx_jit_available())
				engines = 3;
			else
				return usage_error(io->err, "--engine '%s': expected interp, jit or both (jit and both need a "
				                   "build with the JIT)", optarg);
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &M, &K, &N))
				return usage_error(io->err, "--size '%s': expected M,K,N (1 to 4096 each)", optarg);
			break;
		case OPT_QUICK: M = 32, K = 64, N = 64; break;
		case OPT_FORMAT:
			if (ttx_format_parse(optarg, &p.format) != TTX_OK || !op_format(p.format))
				return usage_error(io->err, "--format '%s': expected fp32, bf16, fp16, fp8, bfp8, bfp4, bfp2, "
				                   "bfp8a, bfp4a or bfp2a", optarg);
			break;
		case OPT_FIDELITY:
			if (parse_fidelity(optarg, &p.fidelity))
				return usage_error(io->err, "--fidelity '%s': expected lofi, hifi2, hifi3 or hifi4", optarg);
			break;
		case CLI_POSITIONAL:
			return usage_error(io->err, "demo: unexpected argument '%s'", optarg);
		default:
			return cli_bad_option(io->err, "demo", &scan);
		}
	}

	float *x = malloc(M * K * sizeof(float)), *w1 = malloc(K * N * sizeof(float)), *w2 = malloc(N * N * sizeof(float));
	if (!x || !w1 || !w2) {
		fprintf(io->err, "ttx: out of memory\n");
		return EXIT_USAGE;
	}
	normal(x, M * K, 1.0, 1);
	normal(w1, K * N, 1.0 / sqrt((double)K), 2);
	normal(w2, N * N, 2.0 / sqrt((double)N), 3);
	const char *fmt = ttx_format_name(p.format);
	static const char *const fid_names[] = { "LoFi", "HiFi2", "HiFi3", "HiFi4" };
	fprintf(io->out, "ttx demo: a transformer MLP block on one emulated Wormhole Tensix tile\n");
	fprintf(io->out, "  X %zux%zu, W1 %zux%zu, W2 %zux%zu; %s in L1, %s, FP32 accumulation in Dst\n\n", M, K, K, N, N, N, fmt,
	       fid_names[p.fidelity]);
	fflush(io->out);

	/* The JIT runs twice on one code cache: the first run compiles, the
	   second shows the speed once compiled (as in a batch, a Python
	   session or a larger model). */
	struct run runs[3] = { 0 };
	static const char *const eng_names[3] = { "interp", "jit", "jit again" };
	static const char *const eng_what[3] = { "interpreter", "JIT", "JIT again (compiled code reused)" };
	struct ttx_jit_cache *cache = engines & 2 ? ttx_jit_cache_new() : NULL;
	int rc = 0;
	for (int e = 0; e < 3; e++)
		if (engines & (1 << (e ? 1 : 0)) &&
		    (rc = run_block(io, eng_what[e], e ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP, cache, x, w1, w2, M, K, N, &p,
		                    &runs[e])) != 0)
			goto done;
	const struct run *r = &runs[engines & 1 ? 0 : 1];

	struct check ck[NOPS] = {
		check_matmul(x, w1, r->out[0], M, K, N, p.format, p.fidelity),
		check_gelu(r->out[0], r->out[1], M * N, p.format),
		check_matmul(r->out[1], w2, r->out[2], M, N, N, p.format, p.fidelity),
		check_softmax(r->out[2], r->out[3], M, N, p.format),
	};
	fprintf(io->out, "  %-16s %-36s %10s %10s\n", "operation", "error against float64 (same inputs)", "error", "bound");
	for (int i = 0; i < NOPS; i++) {
		int ok = ck[i].err <= ck[i].bound;
		fprintf(io->out, "  %-16s %-36s %10.3g %10.3g  %s", op_what[i], ck[i].what, ck[i].err, ck[i].bound,
		       ok ? "ok" : "OUT OF BOUND");
		if (ck[i].quirks)
			fprintf(io->out, " (and %zu outlier%s of -2^n: docs/ops.md)", ck[i].quirks, ck[i].quirks == 1 ? "" : "s");
		fprintf(io->out, "\n");
		if (!ok)
			rc = EXIT_FAULT;
	}
	if (engines == 3) {
		int same = 1;
		for (int i = 0; i < NOPS; i++)
			same &= memcmp(runs[0].out[i], runs[1].out[i], M * N * sizeof(float)) == 0 &&
			        memcmp(runs[0].out[i], runs[2].out[i], M * N * sizeof(float)) == 0;
		fprintf(io->out, "  interpreter and JIT results: %s\n", same ? "identical, bit for bit" : "DIFFERENT");
		if (!same)
			rc = EXIT_FAULT;
	}

	/* device time (docs/timing.md) beside the host's */
	fprintf(io->out, "\n  %-16s %12s %10s %10s %-10s %12s %10s\n", "operation", "device cyc", "us @1GHz", "MACs/cyc",
	       "bottleneck", "host s", "host/dev");
	uint64_t total = 0;
	for (int i = 0; i < NOPS; i++) {
		const struct ttx_cycles *cy = &r->cycles[i];
		double dev = (double)cy->device_cycles * 1e-9;
		fprintf(io->out, "  %-16s %12llu %10.1f %10.1f %-10s %12.4f %9.0fx\n", op_what[i], (unsigned long long)cy->device_cycles,
		       dev * 1e6, cy->device_cycles ? (double)cy->macs / (double)cy->device_cycles : 0.0,
		       ttx_unit_name(ttx_cycles_bottleneck(cy)), r->seconds[i], dev > 0 ? r->seconds[i] / dev : 0.0);
		total += cy->device_cycles;
	}
	fprintf(io->out, "  %-16s %12llu %10.1f   (one tile; the MAC peak is %d per cycle)\n", "block",
	       (unsigned long long)total, (double)total * 1e-3, TTX_PEAK_MACS_PER_CYCLE);

	double macs = (double)M * (double)K * (double)N + (double)M * (double)N * (double)N;
	fprintf(io->out, "\n  %-10s %7s %14s %14s %12s\n", "engine", "seconds", "instructions", "instr/s", "MAC/s");
	for (int e = 0; e < 3; e++) {
		if (!(engines & (1 << (e ? 1 : 0))))
			continue;
		const struct run *u = &runs[e];
		fprintf(io->out, "  %-10s %7.3f %14llu %14.3g %12.3g\n", eng_names[e], u->wall, (unsigned long long)u->stats.insns,
		       (double)u->stats.insns / u->wall, macs / u->wall);
	}
	if (engines & 2)
		fprintf(io->out, "  the first JIT run compiled %llu blocks in %.3f s\n",
		       (unsigned long long)runs[1].stats.jit_blocks_compiled, runs[1].stats.jit_compile_seconds);
	if (engines == 3)
		for (int e = 1; e < 3; e++)
			fprintf(io->out, "  %s / interp: %.2fx on the whole block (matmul %.2fx, SFPU ops %.2fx)\n", eng_names[e],
			       runs[0].wall / runs[e].wall, (runs[0].seconds[0] + runs[0].seconds[2]) /
			       (runs[e].seconds[0] + runs[e].seconds[2]), (runs[0].seconds[1] + runs[0].seconds[3]) /
			       (runs[e].seconds[1] + runs[e].seconds[3]));
	fprintf(io->out, "\n%s\n", rc ? "FAILED" : "every result within its bound");
done:
	for (int e = 0; e < 3; e++)
		for (int i = 0; i < NOPS; i++)
			free(runs[e].out[i]);
	ttx_jit_cache_release(cache);
	free(x), free(w1), free(w2);
	return rc;
}
