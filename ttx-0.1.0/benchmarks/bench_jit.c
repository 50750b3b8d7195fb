/* Interpreter against JIT on the same SFPU programs, in one run, one core:
 * emulated SFPU instructions per second (and 32 lane-ops per instruction),
 * the ratio, and the JIT's median compile time per block.  Programs:
 *   - straight-line SFPMAD-heavy code (pushed instruction by instruction),
 *     with exact and with fast numerics;
 *   - integer/bitwise/flag code (pushed);
 *   - the SFPMAD code with +Inf in LReg 0 (special values in every lane);
 *   - 32-instruction kernels in the replay buffer (MADs; integer code),
 *     played back by REPLAY;
 *   - a MOP-looped kernel (template 1, 127 x 127 alternating MADs);
 *   - exp(x) on Dst, written in SFPU assembly: range reduction with
 *     SFPEXEXP/SFPSETEXP, a Horner polynomial, predicated squaring.
 * benchmarks/RESULTS.md records the figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define MMIO_MOP_CFG 0xFFB80000u

struct program {
	const char *name;
	const uint32_t *setup;     /* run once, not timed */
	size_t nsetup;
	const uint32_t *body;      /* pushed reps times per round */
	size_t nbody;
	long reps;
	const uint32_t *mop_cfg;   /* MopCfg[9] written before the setup, or NULL */
	int dst_inputs;            /* Dst rows 0-63 = x in [-8, 8) */
};

static void check(struct ttx_tile *t, enum ttx_status st, const char *name)
{
	if (st != TTX_OK) {
		fprintf(stderr, "%s: %s\n", name, ttx_tile_error(t));
		exit(1);
	}
}

/* Emulated instructions per second, best of three timed rounds after a
   warm-up round (which compiles, for the JIT). */
static double measure(const struct program *p, enum ttx_engine engine, enum ttx_numerics numerics,
                      double *median_compile, int timing)
{
	struct ttx_options opt = { .engine = engine, .numerics = numerics, .timing = timing };
	struct ttx_tile *t = ttx_tile_new(&opt);
	if (p->mop_cfg)
		for (unsigned i = 0; i < 9; i++)
			ttx_mmio_write(t, 0, MMIO_MOP_CFG + 4 * i, p->mop_cfg[i]);
	for (size_t i = 0; i < p->nsetup; i++)
		ttx_push(t, 0, p->setup[i]);
	check(t, ttx_run(t, 0), p->name);
	if (p->dst_inputs) {
		static uint32_t dst[512][16];
		for (unsigned r = 0; r < 64; r++)
			for (unsigned c = 0; c < 16; c++) {
				float x = -8.0f + 16.0f * (float)((r * 16 + c) * 37 % 1024) / 1024.0f;
				memcpy(&dst[r][c], &x, 4);
			}
		ttx_dst32_write(t, &dst[0][0]);
	}
	double best = 0;
	for (int round = 0; round < 4; round++) {
		for (long r = 0; r < p->reps; r++)
			for (size_t i = 0; i < p->nbody; i++)
				ttx_push(t, 0, p->body[i]);
		struct ttx_stats before, after;
		ttx_stats_get(t, &before);
		double t0 = now();
		check(t, ttx_run(t, 0), p->name);
		double dt = now() - t0;
		ttx_stats_get(t, &after);
		double rate = (double)(after.insns - before.insns) / dt;
		if (round > 0 && rate > best)
			best = rate;
	}
	if (median_compile) {
		struct ttx_stats s;
		ttx_stats_get(t, &s);
		*median_compile = s.jit_compile_median_seconds;
	}
	ttx_tile_destroy(t);
	return best;
}

struct result {
	const char *name;
	double interp, jit, fast;
};

/* A bar chart of the results (log scale, instructions/s), for RESULTS.md. */
static void write_svg(const char *path, const struct result *r, size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	const int w = 760, row_h = 70, left = 250, top = 40, width = w - left - 20;
	const double lo = 1e7, hi = 1e10;   /* 10 M to 10 G instructions/s */
	static const char *const colour[3] = { "#9e9e9e", "#1f77b4", "#ff7f0e" };
	static const char *const label[3] = { "interpreter", "JIT (exact)", "JIT (--numerics fast)" };
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
	        "font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n", w, top + row_h * (int)n + 60);
	fprintf(f, "<text x='%d' y='20' font-size='14'>Emulated SFPU instructions/s, one core (log scale)</text>\n", left);
	for (int d = 7; d <= 10; d++) {
		double x = left + width * (d - 7) / 3.0;
		fprintf(f, "<line x1='%.0f' y1='%d' x2='%.0f' y2='%d' stroke='#ddd'/>", x, top, x, top + row_h * (int)n);
		fprintf(f, "<text x='%.0f' y='%d' text-anchor='middle'>%s</text>\n", x, top + row_h * (int)n + 15,
		        d == 7 ? "10 M" : d == 8 ? "100 M" : d == 9 ? "1 G" : "10 G");
	}
	for (size_t i = 0; i < n; i++) {
		double v[3] = { r[i].interp, r[i].jit, r[i].fast };
		int y = top + row_h * (int)i;
		fprintf(f, "<text x='%d' y='%d' text-anchor='end'>%s</text>\n", left - 8, y + 36, r[i].name);
		for (int k = 0; k < 3; k++) {
			double x = v[k] <= lo ? 0 : width * log10(v[k] / lo) / log10(hi / lo);
			fprintf(f, "<rect x='%d' y='%d' width='%.1f' height='18' fill='%s'/>", left, y + 6 + 20 * k, x, colour[k]);
			fprintf(f, "<text x='%.0f' y='%d'>%.0f M</text>\n", left + x + 4, y + 20 + 20 * k, v[k] / 1e6);
		}
	}
	for (int k = 0; k < 3; k++)
		fprintf(f, "<rect x='%d' y='%d' width='12' height='12' fill='%s'/><text x='%d' y='%d'>%s</text>\n",
		        left + 180 * k, top + row_h * (int)n + 30, colour[k], left + 180 * k + 16,
		        top + row_h * (int)n + 41, label[k]);
	fprintf(f, "</svg>\n");
	fclose(f);
}

/* --timing: the cost of the cycle model (ttx_options.timing), each
   engine with it off and on, measured one after the other. */
static void timing_row(const struct program *p)
{
	double v[4];
	for (int k = 0; k < 4; k++)
		v[k] = measure(p, k < 2 ? TTX_ENGINE_INTERP : TTX_ENGINE_JIT, TTX_NUMERICS_EXACT, NULL, k & 1);
	printf("| %-34s | %8.1f M | %8.1f M | %6.2fx | %8.1f M | %8.1f M | %6.2fx |\n", p->name, v[0] / 1e6,
	       v[1] / 1e6, v[0] / v[1], v[2] / 1e6, v[3] / 1e6, v[2] / v[3]);
	fflush(stdout);
}

static void row(const struct program *p, int fast_too, struct result *res)
{
	double compile = 0;
	double interp = measure(p, TTX_ENGINE_INTERP, TTX_NUMERICS_EXACT, NULL, 0);
	double jit = measure(p, TTX_ENGINE_JIT, TTX_NUMERICS_EXACT, &compile, 0);
	res->name = p->name;
	res->interp = interp;
	res->jit = jit;
	res->fast = 0;
	printf("| %-34s | %8.1f M | %8.1f M | %6.1fx | %6.2f ms |", p->name, interp / 1e6, jit / 1e6,
	       jit / interp, compile * 1e3);
	if (fast_too) {
		double fast = measure(p, TTX_ENGINE_JIT, TTX_NUMERICS_FAST, NULL, 0);
		res->fast = fast;
		printf(" %8.1f M |\n", fast / 1e6);
	} else {
		printf("          |\n");
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	/* bench_jit [SCALE] [--svg FILE] [--timing] */
	long scale = 1;
	const char *svg = NULL;
	int timing = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
			svg = argv[++i];
		else if (strcmp(argv[i], "--timing") == 0)
			timing = 1;
		else
			scale = atol(argv[i]);
	}
	if (scale < 1)
		scale = 1;
	if (!ttx_jit_available()) {
		fprintf(stderr, "bench_jit: this build has no JIT (configured with --disable-jit)\n");
		return 2;
	}
	const uint32_t setup[] = {
		enc("SFPLOADI 0, 0, 0x3F80"), enc("SFPLOADI 1, 0, 0x3F7F"), enc("SFPLOADI 2, 0, 0x3F00"),
		enc("SFPLOADI 3, 0, 0xBE80"), enc("SFPLOADI 4, 2, 0x1234"), enc("SFPLOADI 5, 2, 0x0F0F"),
	};
	const uint32_t mad[] = {
		enc("SFPMAD 0, 1, 2, 6, 0"), enc("SFPMAD 1, 2, 3, 7, 0"), enc("SFPMAD 2, 3, 0, 6, 0"),
		enc("SFPMAD 3, 0, 1, 7, 0"), enc("SFPADD 0, 10, 2, 6, 0"), enc("SFPMUL 1, 3, 9, 7, 0"),
		enc("SFPMAD 6, 7, 2, 6, 0"), enc("SFPMAD 7, 6, 3, 7, 0"),
	};
	const uint32_t integer[] = {
		enc("SFPIADD 1, 4, 6, 5"), enc("SFPAND 0, 5, 6, 0"), enc("SFPOR 0, 4, 7, 0"),
		enc("SFPXOR 0, 6, 7, 0"), enc("SFPSHFT 3, 0, 6, 1"), enc("SFPNOT 0, 7, 6, 0"),
		enc("SFPIADD 0, 6, 7, 4"), enc("SFPSETCC 0, 7, 0, 4"), enc("SFPENCC 0, 0, 0, 10"),
		enc("SFPLZ 0, 4, 6, 0"),
	};
	/* Replay: record 32 instructions (4 x the MAD body) once, then play. */
	uint32_t replay_setup[6 + 1 + 32];
	memcpy(replay_setup, setup, sizeof(setup));
	replay_setup[6] = enc("REPLAY 0, 32, 0, 1");
	for (int i = 0; i < 32; i++)
		replay_setup[7 + i] = mad[i % 8];
	const uint32_t replay_body[] = { enc("REPLAY 0, 32, 0, 0") };
	uint32_t replay_int_setup[6 + 1 + 32];
	memcpy(replay_int_setup, replay_setup, 7 * sizeof(uint32_t));
	for (int i = 0; i < 32; i++)
		replay_int_setup[7 + i] = integer[i % 10];
	/* The MAD body on Inf operands: LReg 0 = +Inf, so every MAD has an
	   Inf operand or an Inf product (attention masks, overflowed
	   activations); no lane makes a NaN. */
	uint32_t inf_setup[6];
	memcpy(inf_setup, setup, sizeof(setup));
	inf_setup[0] = enc("SFPLOADI 0, 0, 0x7F80");
	/* MOP template 1: 127 outer x (127 x 2) inner alternating MADs. */
	const uint32_t nop = enc("NOP");
	const uint32_t mop_cfg[9] = { 127, 127, nop, nop, nop, enc("SFPMAD 0, 1, 2, 6, 0"),
	                              enc("SFPMAD 6, 1, 3, 7, 0"), enc("SFPMAD 7, 0, 2, 6, 0"),
	                              enc("SFPMAD 7, 0, 2, 6, 0") };
	const uint32_t mop_body[] = { enc("MOP 1, 0, 0") };
	/* exp(x) for 4 rows of Dst (32 lanes x 4): x = Dst, e = exponent(x);
	   where e >= 0, x = x * 2^-(e + 1) (exponent field set to 126);
	   p = 1 + x (1 + x (1/2 + x (1/6 + x/24))); then square p (e + 1) times
	   where e >= 0 (up to 8 squarings: |x| < 256). */
	const uint32_t exp_setup[] = {
		enc("SFPLOADI 4, 0, 0x3F80"),      /* 1 */
		enc("SFPLOADI 5, 0, 0x3F00"),      /* 1/2 */
		enc("SFPLOADI 6, 0, 0x3E2B"),      /* ~1/6 */
		enc("SFPLOADI 7, 0, 0x3D2B"),      /* ~1/24 */
	};
	uint32_t exp_body[64];
	size_t ne = 0;
	exp_body[ne++] = enc("SFPLOAD 0, 3, 0, 0");          /* x */
	exp_body[ne++] = enc("SFPEXEXP 0, 0, 1, 0");         /* e */
	exp_body[ne++] = enc("SFPSETCC 0, 1, 0, 4");         /* e >= 0 */
	exp_body[ne++] = enc("SFPSETEXP 126, 0, 0, 1");      /* x = x with exponent 126 */
	exp_body[ne++] = enc("SFPENCC 0, 0, 0, 10");
	exp_body[ne++] = enc("SFPMAD 0, 7, 6, 2, 0");        /* x/24 + 1/6 */
	exp_body[ne++] = enc("SFPMAD 2, 0, 5, 2, 0");        /* * x + 1/2 */
	exp_body[ne++] = enc("SFPMAD 2, 0, 4, 2, 0");        /* * x + 1 */
	exp_body[ne++] = enc("SFPMAD 2, 0, 4, 2, 0");        /* * x + 1 */
	for (int k = 0; k < 8; k++) {
		exp_body[ne++] = enc("SFPSETCC 0, 1, 0, 4");     /* e >= 0 */
		exp_body[ne++] = enc("SFPMUL 2, 2, 9, 2, 0");    /* p = p * p */
		exp_body[ne++] = enc("SFPIADD 0xFFF, 1, 1, 5");  /* e -= 1 */
		exp_body[ne++] = enc("SFPENCC 0, 0, 0, 10");
	}
	exp_body[ne++] = enc("SFPSTORE 2, 3, 0, 64");
	/* Dst rows for the kernel: x in [-8, 8). */
	const struct program programs[] = {
		{ "SFPMAD-heavy straight line", setup, 6, mad, 8, 100000 * scale, NULL, 0 },
		{ "integer/bitwise/flags", setup, 6, integer, 10, 100000 * scale, NULL, 0 },
		{ "SFPMAD-heavy, Inf operands", inf_setup, 6, mad, 8, 100000 * scale, NULL, 0 },
		{ "replayed kernel (32 MADs)", replay_setup, 39, replay_body, 1, 50000 * scale, NULL, 0 },
		{ "replayed kernel (32 integer ops)", replay_int_setup, 39, replay_body, 1, 50000 * scale, NULL, 0 },
		{ "MOP-looped kernel (127x254 MADs)", setup, 6, mop_body, 1, 20 * scale, mop_cfg, 0 },
		{ "exp(x) kernel (SFPU assembly)", exp_setup, 4, exp_body, ne, 20000 * scale, NULL, 1 },
	};
	size_t nprog = sizeof(programs) / sizeof(programs[0]);
	if (timing) {
		printf("The cycle model's cost: emulated instructions/s without and with it (slowdown)\n\n");
		printf("| %-34s | %10s | %10s | %7s | %10s | %10s | %7s |\n", "program", "interp", "+ cycles", "slower",
		       "JIT", "+ cycles", "slower");
		printf("|------------------------------------|------------|------------|---------|------------|"
		       "------------|---------|\n");
		for (size_t i = 0; i < nprog; i++)
			timing_row(&programs[i]);
		return 0;
	}
	printf("SFPU programs, one core: emulated SFPU instructions/s (x 32 lanes = lane-ops/s)\n\n");
	printf("| %-34s | %10s | %10s | %7s | %9s | %10s |\n", "program", "interp", "JIT", "ratio",
	       "compile", "JIT fast");
	printf("|%s|%s|%s|%s|%s|%s|\n", "------------------------------------", "------------",
	       "------------", "---------", "-----------", "------------");
	struct result res[sizeof(programs) / sizeof(programs[0])];
	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
		row(&programs[i], 1, &res[i]);
	if (svg)
		write_svg(svg, res, sizeof(programs) / sizeof(programs[0]));
	return 0;
}
