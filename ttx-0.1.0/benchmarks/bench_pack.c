/* Unpacker and packer throughput on one core: tiles (1024 datums) per second
 * and L1 bytes per second, per L1 format, interpreter.  An UNPACR moves a
 * whole tile from L1 into SrcA (FP32 and the integers into Dst); a PACR
 * moves 1024 datums of Dst to L1 (Last set: every tile flushed).
 * benchmarks/RESULTS.md records the figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define IN 0x10000u
#define OUT 0x40000u

static void cfg(struct ttx_tile *t, unsigned word, uint32_t v)
{
	if (ttx_cfg_write(t, 0, word, v) != TTX_OK) {
		fprintf(stderr, "bench_pack: %s\n", ttx_tile_error(t));
		exit(1);
	}
}

static void run(struct ttx_tile *t, const char *what)
{
	if (ttx_run(t, 0) != TTX_OK) {
		fprintf(stderr, "bench_pack: %s: %s\n", what, ttx_tile_error(t));
		exit(1);
	}
}

/* Best of three rounds of n instructions `word`; instructions/s. */
static double rate(struct ttx_tile *t, uint32_t word, long n, const char *what)
{
	double best = 0;
	for (int r = 0; r < 3; r++) {
		for (long i = 0; i < n; i++)
			ttx_push(t, 0, word);
		double t0 = now();
		run(t, what);
		double v = (double)n / (now() - t0);
		best = v > best ? v : best;
	}
	return best;
}

static double unpack_rate(enum ttx_format f, long n)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t = ttx_tile_new(&opt);
	unsigned code = f == TTX_FORMAT_UINT8 ? TTX_FORMAT_INT8 : (unsigned)f;
	int to_dst = f == TTX_FORMAT_FP32 || f == TTX_FORMAT_TF32 || f == TTX_FORMAT_INT32 || f == TTX_FORMAT_INT8 ||
	             f == TTX_FORMAT_UINT8;
	cfg(t, 52, code | 1u << 4 | 1024u << 16);
	cfg(t, 53, 1u | 1u << 16);
	cfg(t, 60, code);
	cfg(t, 61, 1u | (to_dst ? 1u << 4 : 0));
	cfg(t, 64, IN / 16 - 1);
	cfg(t, 72, 64);
	cfg(t, 74, 1024);
	if (!to_dst)
		ttx_thread_cfg_write(t, 0, 3, 4);   /* SRCA_SET_SetOvrdWithAddr */
	ttx_push(t, 0, enc("SETADCXX 1, 1023, 0"));
	run(t, "set-up");
	double r = rate(t, enc("UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1"), n, ttx_format_name(f));
	ttx_tile_destroy(t);
	return r;
}

static double pack_rate(enum ttx_format f, long n)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t = ttx_tile_new(&opt);
	unsigned code = f == TTX_FORMAT_UINT8 ? TTX_FORMAT_INT8 : (unsigned)f;
	/* the Dst type and IntermediateFormat each output format is packed from */
	unsigned inter, in = code;
	int read32 = 0;
	switch (f) {
	case TTX_FORMAT_FP32: case TTX_FORMAT_TF32: inter = code, read32 = 1; break;
	case TTX_FORMAT_INT32: case TTX_FORMAT_INT8: case TTX_FORMAT_UINT8: inter = code, read32 = 1; break;
	case TTX_FORMAT_BFP4: case TTX_FORMAT_BFP2: inter = in = TTX_FORMAT_BFP8; break;
	case TTX_FORMAT_BFP4A: case TTX_FORMAT_BFP2A: inter = in = TTX_FORMAT_BFP8A; break;
	default: inter = code; break;
	}
	cfg(t, 1, inter << 25);
	cfg(t, 14, (uint32_t)read32 | (f == TTX_FORMAT_UINT8 ? 2u : 0));
	cfg(t, 20, 0xFFFF);
	cfg(t, 24, 16u << 8);
	cfg(t, 56, 4u << 16);
	cfg(t, 57, OUT / 16 - 1);
	cfg(t, 58, 1u | code << 4 | in << 8);
	ttx_push(t, 0, enc("SETADCXX 4, 1023, 0"));
	run(t, "set-up");
	double r = rate(t, enc("PACR 0, 0, 1, 0, 0, 0, 1"), n, ttx_format_name(f));
	ttx_tile_destroy(t);
	return r;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	static const enum ttx_format fmts[] = {
		TTX_FORMAT_FP32, TTX_FORMAT_TF32, TTX_FORMAT_BF16, TTX_FORMAT_FP16, TTX_FORMAT_FP8,
		TTX_FORMAT_BFP8, TTX_FORMAT_BFP4, TTX_FORMAT_BFP2, TTX_FORMAT_BFP8A, TTX_FORMAT_BFP4A,
		TTX_FORMAT_BFP2A, TTX_FORMAT_INT32, TTX_FORMAT_INT16, TTX_FORMAT_INT8, TTX_FORMAT_UINT8,
	};
	printf("Unpack (UNPACR, L1 -> SrcA or Dst) and pack (PACR, Dst -> L1), one tile of 1024 datums each,\n"
	       "interpreter, one core, best of 3 x %ld\n\n", n);
	printf("| format | tile bytes | unpack tiles/s | unpack MB/s | pack tiles/s | pack MB/s |\n");
	printf("|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		size_t bytes = ttx_format_tile_bytes(fmts[i]);
		double u = unpack_rate(fmts[i], n), p = pack_rate(fmts[i], n);
		printf("| %s | %zu | %.0f k | %.0f | %.0f k | %.0f |\n", ttx_format_name(fmts[i]), bytes, u / 1e3,
		       u * (double)bytes / 1e6, p / 1e3, p * (double)bytes / 1e6);
		fflush(stdout);
	}
	return 0;
}
