/* The exact Wormhole MAD on one core: the 32-lane kernel that SFPMAD and
 * friends run in both engines (interp/sfpu_mad.c ttx_wh_mad_lanes), called
 * directly on operands of three kinds, and the scalar model for scale.
 * Figures are lanes/s and 32-lane MADs/s, best of five rounds; beside
 * them a design not adopted, the MAD in fp64 lanes (checked bit for bit on
 * the same operands, AVX-512 hosts only).
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

/* ---- a design not adopted, kept to time it (issue 15; docs/jit.md
   "Limits"): the MAD in fp64 lanes.  The product of two 24-bit
   significands is exact in a double; both it and the addend are rounded
   to odd at the frame's bit 0 u = 2^(max(ep, ec) - 26) by adding S =
   2^(max + 26), whose ulp is u, with rounding toward zero and ORing the
   sticky into the last bit (an operand entirely below u dropped), the two
   are added exactly, and the conversion to FP32 rounds to nearest even:
   the datapath's result, bit for bit (checked below), with Inf/NaN
   operands, product overflow and results below 2^-126 left to the scalar
   model.  Eight lanes per vector instead of sixteen. ---- */
#if defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512DQ__)
#include <immintrin.h>

static uint32_t mad8(uint32_t *out, const uint32_t *pa, const uint32_t *pb, const uint32_t *pc)
{
	const __m256i E = _mm256_set1_epi32(0x7F800000), ABS = _mm256_set1_epi32(0x7FFFFFFF);
	__m256i va = _mm256_loadu_si256((const void *)pa), vb = _mm256_loadu_si256((const void *)pb);
	__m256i vc = _mm256_loadu_si256((const void *)pc);
	__m256i ea = _mm256_srli_epi32(_mm256_and_si256(va, E), 23), eb = _mm256_srli_epi32(_mm256_and_si256(vb, E), 23);
	__m256i ec = _mm256_srli_epi32(_mm256_and_si256(vc, E), 23);
	const __m256i zero = _mm256_setzero_si256();
	__mmask8 za = _mm256_cmpeq_epi32_mask(ea, zero), zb = _mm256_cmpeq_epi32_mask(eb, zero);
	__mmask8 zc = _mm256_cmpeq_epi32_mask(ec, zero);
	__m256i ep = _mm256_sub_epi32(_mm256_add_epi32(ea, eb), _mm256_set1_epi32(127));
	/* product present: ea, eb != 0 and ep >= 0 */
	__mmask8 pnz = ~(za | zb) & _mm256_cmpge_epi32_mask(ep, zero);
	/* rare: exponent 255 anywhere, product overflow */
	__mmask8 rare = _mm256_cmpeq_epi32_mask(_mm256_max_epu32(_mm256_max_epu32(ea, eb), ec), _mm256_set1_epi32(255)) |
	                (pnz & _mm256_cmpgt_epi32_mask(ep, _mm256_set1_epi32(254)));
	__m256i e = _mm256_max_epi32(_mm256_mask_mov_epi32(_mm256_set1_epi32(-1000), pnz, ep),
	                             _mm256_mask_mov_epi32(_mm256_set1_epi32(-1000), ~zc, ec));
	/* S = 2^(e - 127 + 26): its ulp is the frame's bit 0 */
	__m512i s_bits = _mm512_cvtepi32_epi64(_mm256_add_epi32(e, _mm256_set1_epi32(922)));
	__m512d S = _mm512_castsi512_pd(_mm512_slli_epi64(s_bits, 52));
	__m512d A = _mm512_cvtps_pd(_mm256_castsi256_ps(_mm256_maskz_and_epi32(~za, va, ABS)));
	__m512d B = _mm512_cvtps_pd(_mm256_castsi256_ps(_mm256_maskz_and_epi32(~zb, vb, ABS)));
	__m512d C = _mm512_cvtps_pd(_mm256_castsi256_ps(_mm256_maskz_and_epi32(~zc, vc, ABS)));
	__m512d P = _mm512_maskz_mul_pd(pnz, A, B);
	/* round to odd at S's ulp, an operand entirely below it dropped */
	__m512d tp = _mm512_add_round_pd(P, S, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
	__m512d tc = _mm512_add_round_pd(C, S, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
	__m512d dp = _mm512_sub_pd(tp, S), dc = _mm512_sub_pd(tc, S);
	const __m512d dzero = _mm512_setzero_pd();
	const __m512i one = _mm512_set1_epi64(1);
	__mmask8 sp = _mm512_cmp_pd_mask(dp, P, _CMP_NEQ_OQ) & _mm512_cmp_pd_mask(dp, dzero, _CMP_NEQ_OQ);
	__mmask8 sc = _mm512_cmp_pd_mask(dc, C, _CMP_NEQ_OQ) & _mm512_cmp_pd_mask(dc, dzero, _CMP_NEQ_OQ);
	tp = _mm512_castsi512_pd(_mm512_mask_or_epi64(_mm512_castpd_si512(tp), sp, _mm512_castpd_si512(tp), one));
	tc = _mm512_castsi512_pd(_mm512_mask_or_epi64(_mm512_castpd_si512(tc), sc, _mm512_castpd_si512(tc), one));
	__m512d p1 = _mm512_sub_pd(tp, S), c1 = _mm512_sub_pd(tc, S);
	/* signs */
	__mmask8 np = _mm256_movepi32_mask(_mm256_xor_si256(va, vb)), nc = _mm256_movepi32_mask(vc);
	p1 = _mm512_mask_sub_pd(p1, np, dzero, p1);
	c1 = _mm512_mask_sub_pd(c1, nc, dzero, c1);
	__m512d sum = _mm512_add_pd(p1, c1);
	/* below 2^-126 and not zero: the scalar model */
	__m512d mag = _mm512_abs_pd(sum);
	rare |= _mm512_cmp_pd_mask(mag, _mm512_set1_pd(0x1p-126), _CMP_LT_OQ) & _mm512_cmp_pd_mask(mag, dzero, _CMP_NEQ_OQ);
	_mm256_storeu_ps((float *)out, _mm512_cvtpd_ps(sum));
	return rare;
}

static uint32_t mad32_f64(uint32_t out[32], const uint32_t x[32], const uint32_t y[32], const uint32_t z[32])
{
	uint32_t rare = 0;
	for (int g = 0; g < 4; g++)
		rare |= mad8(out + 8 * g, x + 8 * g, y + 8 * g, z + 8 * g) << (8 * g);
	for (uint32_t m = rare; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		out[i] = ttx_wh_mad(x[i], y[i], z[i]);
	}
	return rare;
}

static double f64_rate(long *differ)
{
	double best = 0;
	*differ = 0;
	for (unsigned i = 0; i < N; i++) {
		mad32_f64(d[i], a[i], b[i], c[i]);
		for (unsigned l = 0; l < 32; l++)
			*differ += d[i][l] != ttx_wh_mad(a[i][l], b[i][l], c[i][l]);
	}
	for (int round = 0; round < 5; round++) {
		double t0 = now();
		for (int rep = 0; rep < 20; rep++)
			for (unsigned i = 0; i < N; i++)
				mad32_f64(d[i], a[i], b[i], c[i]);
		double r = 20.0 * N * 32 / (now() - t0);
		best = r > best ? r : best;
	}
	return best;
}
#else
static double f64_rate(long *differ)
{
	*differ = 0;
	return 0;   /* (needs AVX-512) */
}
#endif

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
	printf("| operands | 32-lane kernel, M lanes/s | M SFPMAD/s | fp64 design, M SFPMAD/s (lanes differing) | "
	       "scalar model, M lanes/s |\n");
	printf("|---|---|---|---|---|\n");
	for (int k = 0; k < 3; k++) {
		fill(k);
		long differ;
		double v = lanes_rate(), f = f64_rate(&differ), s = scalar_rate();
		printf("| %s | %.0f | %.1f | %.1f (%ld) | %.0f |\n", kind[k], v / 1e6, v / 32e6, f / 32e6, differ, s / 1e6);
		fflush(stdout);
		if (differ)
			return 1;
	}
	return argc > 1 ? fast_disagreement(argv[1]) : 0;
}
