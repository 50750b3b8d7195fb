/* The exact Wormhole MAD on one core: the 32-lane kernel that SFPMAD and
 * friends run in both engines (interp/sfpu_mad.c ttx_wh_mad_lanes), called
 * directly on operands of three kinds, and the scalar model for scale.
 * Figures are lanes/s and 32-lane MADs/s, best of five rounds.
 * benchmarks/RESULTS.md records them (issue 12: before and after the
 * alignment-sticky fix).
 *
 * bench_mad TABLE (tests/vectors/mad/mad_table.bin) also counts, per
 * operand class, the records where --numerics fast disagrees with the
 * table (docs/sfpu.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "wh_fp.h"

#define N 4096   /* operand sets of 32 lanes: 1.5 MiB, in L2/L3 */

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* kind 0: normal numbers, exponents 90..164 (the table's class "normal");
   kind 1: the addend 20..35 binades below or above the product ("gap");
   kind 2: model-like data, exponents 110..130 */
static uint32_t operand(int kind)
{
	uint32_t r = rnd();
	unsigned lo = kind == 2 ? 110 : 90, span = kind == 2 ? 21 : 75;
	return (r & 0x807FFFFFu) | (lo + rnd() % span) << 23;
}

static uint32_t a[N][32], b[N][32], c[N][32], d[N][32];

static void fill(int kind)
{
	for (unsigned i = 0; i < N; i++)
		for (unsigned l = 0; l < 32; l++) {
			a[i][l] = operand(kind), b[i][l] = operand(kind), c[i][l] = operand(kind);
			if (kind == 1) {
				int ep = (int)(a[i][l] >> 23 & 0xFF) + (int)(b[i][l] >> 23 & 0xFF) - 127;
				int e = ep + (rnd() & 1 ? 1 : -1) * (int)(20 + rnd() % 16);
				c[i][l] = (c[i][l] & 0x807FFFFFu) | (uint32_t)(e < 1 ? 1 : e > 254 ? 254 : e) << 23;
			}
		}
}

static double lanes_rate(void)
{
	double best = 0;
	for (int round = 0; round < 5; round++) {
		double t0 = now();
		for (int rep = 0; rep < 20; rep++)
			for (unsigned i = 0; i < N; i++)
				ttx_wh_mad_lanes(d[i], a[i], b[i], c[i]);
		double r = 20.0 * N * 32 / (now() - t0);
		best = r > best ? r : best;
	}
	return best;
}

static double scalar_rate(void)
{
	double best = 0;
	uint32_t sink = 0;
	for (int round = 0; round < 3; round++) {
		double t0 = now();
		for (unsigned i = 0; i < N; i++)
			for (unsigned l = 0; l < 32; l++)
				sink ^= ttx_wh_mad(a[i][l], b[i][l], c[i][l]);
		double r = (double)N * 32 / (now() - t0);
		best = r > best ? r : best;
	}
	if (sink == 0x12345678)
		printf(" ");
	return best;
}

/* SFPMAD under --numerics fast on every record of the MAD table. */
static int fast_disagreement(const char *path)
{
	static const char *const cls[8] = { "uniform", "normal", "cancel", "gap", "ties", "edges", "special", "ml" };
	FILE *f = fopen(path, "rb");
	static uint8_t raw[262144 * 16];
	if (!f || fread(raw, 16, 262144, f) != 262144) {
		fprintf(stderr, "bench_mad: cannot read 262144 records from %s\n", path);
		return 2;
	}
	fclose(f);
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .numerics = TTX_NUMERICS_FAST };
	struct ttx_tile *t = ttx_tile_new(&opt);
	unsigned bad[8] = { 0 };
	for (unsigned base = 0; base < 262144; base += 32) {
		uint32_t v[4][32], r[32];
		for (unsigned l = 0; l < 32; l++)
			for (unsigned k = 0; k < 4; k++) {
				const uint8_t *p = raw + 16 * (base + l) + 4 * k;
				v[k][l] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
			}
		for (unsigned k = 0; k < 3; k++)
			ttx_lreg_write(t, k, v[k]);
		ttx_push(t, 0, enc("SFPMAD 0, 1, 2, 3, 0"));
		if (ttx_run(t, 0) != TTX_OK) {
			fprintf(stderr, "bench_mad: %s\n", ttx_tile_error(t));
			return 1;
		}
		ttx_lreg_read(t, 3, r);
		for (unsigned l = 0; l < 32; l++)
			bad[(base + l) / 32768] += r[l] != v[3][l];
	}
	ttx_tile_destroy(t);
	printf("\n--numerics fast against the MAD table (records that differ, of 32768 per class):\n\n| class |");
	for (int k = 0; k < 8; k++)
		printf(" %s |", cls[k]);
	printf("\n|---|---|---|---|---|---|---|---|---|\n| differ |");
	for (int k = 0; k < 8; k++)
		printf(" %u (%.2f %%) |", bad[k], 100.0 * bad[k] / 32768);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const kind[3] = { "normal (exponents 90..164)", "gap (addend 20..35 binades off)",
	                                     "model data (exponents 110..130)" };
	printf("| operands | 32-lane kernel, M lanes/s | M SFPMAD/s | scalar model, M lanes/s |\n");
	printf("|---|---|---|---|\n");
	for (int k = 0; k < 3; k++) {
		fill(k);
		double v = lanes_rate(), s = scalar_rate();
		printf("| %s | %.0f | %.1f | %.0f |\n", kind[k], v / 1e6, v / 32e6, s / 1e6);
		fflush(stdout);
	}
	return argc > 1 ? fast_disagreement(argv[1]) : 0;
}
