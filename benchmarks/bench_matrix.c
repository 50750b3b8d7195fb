/* Matrix Unit interpreter speed: emulated multiply-accumulates per second of
 * MVMUL-heavy code on one core (LLK-style blocks of 16 MVMULs over distinct
 * Dst blocks), next to the host's own fp32 FMA peak measured in the same
 * run.  benchmarks/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ttx.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t enc(const char *text)
{
	uint32_t w;
	char err[256];
	if (ttx_asm_line(text, &w, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "bench_matrix: %s: %s\n", text, err);
		exit(2);
	}
	return w;
}

static void run(struct ttx_tile *t, const char *what)
{
	if (ttx_run(t, 0) != TTX_OK) {
		fprintf(stderr, "%s: %s\n", what, ttx_tile_error(t));
		exit(1);
	}
}

/* Emulated MACs/s: `phases` fidelity phases per block of 16 MVMULs (8x16x16
   = 2048 MACs each); cfg_word1 is Config word 1 (formats, Fp32_enabled,
   INT8 math). */
static double measure(const char *name, uint32_t cfg_word1, unsigned phases, long reps)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	ttx_cfg_write(t, 0, 1, cfg_word1);
	/* Dst rows 0..63 hold pseudo-random data; MOVD2A/MOVD2B copy them to
	   all 64 rows of SrcA and SrcB. */
	static uint32_t dst[512][16];
	uint64_t s = 0x9E3779B97F4A7C15ull;
	for (unsigned r = 0; r < 512; r++)
		for (unsigned c = 0; c < 16; c++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			dst[r][c] = (uint32_t)(0x3E000000u | (s & 0x81FFFFFFu));   /* +-[2^-3, 2^4) */
		}
	ttx_dst32_write(t, dst);
	char line[64];
	ttx_push(t, 0, enc("SETDVALID 3"));
	for (unsigned r = 0; r < 64; r += 4) {
		snprintf(line, sizeof(line), "MOVD2A 0, %u, 0, 2, %u", r, r);
		ttx_push(t, 0, enc(line));
		snprintf(line, sizeof(line), "MOVD2B 0, %u, 0, 2, %u", r, r);
		ttx_push(t, 0, enc(line));
	}
	run(t, name);
	/* One block: per phase, 16 MVMULs on Dst rows 64 + 8 i (SrcA/SrcB rows
	   from the RWCs, all 0 here); SETRWC between phases sets nothing but
	   stands for the LLK's phase loop.  The phase comes from SETC16 of
	   FIDELITY_BASE (ThreadConfig 6). */
	uint32_t body[4 * 18];
	size_t n = 0;
	for (unsigned ph = 0; ph < phases; ph++) {
		snprintf(line, sizeof(line), "SETC16 6, %u", ph);
		body[n++] = enc(line);
		for (unsigned i = 0; i < 16; i++) {
			snprintf(line, sizeof(line), "MVMUL 0, 0, 0, %u", 64 + 8 * i);
			body[n++] = enc(line);
		}
	}
	double best = 0;
	for (int round = 0; round < 3; round++) {
		for (long r = 0; r < reps; r++)
			for (size_t i = 0; i < n; i++)
				ttx_push(t, 0, body[i]);
		double t0 = now();
		run(t, name);
		double rate = 2048.0 * 16 * phases * (double)reps / (now() - t0);
		if (rate > best)
			best = rate;
	}
	ttx_tile_destroy(t);
	printf("%-34s %8.1f k MVMUL/s  %8.3f G MAC/s\n", name, best / 2048 / 1e3, best / 1e9);
	return best;
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
		if (rate > best)
			best = rate;
	}
	float sink = 0;
	for (int k = 0; k < 12; k++)
		for (int i = 0; i < 16; i++)
			sink += acc[k][i];
	printf("%-34s %8.3f G FMA/s  (checksum %g)\n", "host fp32 FMA peak, one core", best / 1e9, (double)sink);
	return best;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 2000;
	printf("Matrix Unit interpreter, one core, %ld repetitions of each block\n", reps);
	/* Config word 1: SrcA fmt bits 17-20, SrcB 21-24, Fp32_enabled bit 29,
	   INT8_math bit 31 (src/cfg_regs.def). */
	uint32_t bf16 = 5u << 17 | 5u << 21, fp16 = 1u << 17 | 1u << 21, int8 = 14u << 17 | 14u << 21;
	double lofi = measure("MVMUL BF16 -> BF16 Dst, LoFi", bf16, 1, reps);
	measure("MVMUL BF16 -> FP32 Dst, HiFi4", bf16 | 1u << 29, 4, reps / 4);
	measure("MVMUL FP16 -> FP16 Dst, HiFi2", fp16, 2, reps / 2);
	double i8 = measure("MVMUL INT8 -> INT32 Dst, 4 phases", int8 | 1u << 31, 4, reps / 4);
	double host = host_fma_peak(20000000);
	printf("ratio emulated MAC/s : host FMA/s = 1 : %.0f (BF16 LoFi), 1 : %.0f (INT8)\n",
	       host / lofi, host / i8);
	return 0;
}
