/* Front-end speeds of the foundation: assembling, disassembling, and the run
 * loop's per-instruction overhead (NOPs, which execute nothing).  Reports
 * operations per second on one core; see benchmarks/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	static const uint32_t sample[] = {
		0x84012340, 0x71020001, 0x72030000, 0x45000080, 0xA2000000, 0x26000000, 0x8F000000, 0x02000000,
	};
	const size_t ns = sizeof(sample) / sizeof(sample[0]);
	char text[ns][128], err[256];
	for (size_t i = 0; i < ns; i++)
		ttx_disasm(sample[i], text[i], sizeof(text[i]));

	double t0 = now();
	unsigned sink = 0;
	for (long i = 0; i < n; i++) {
		char buf[128];
		ttx_disasm(sample[i % ns] ^ (uint32_t)(i & 0xF0), buf, sizeof(buf));
		sink += (unsigned char)buf[0];
	}
	double t_dis = now() - t0;

	t0 = now();
	for (long i = 0; i < n; i++) {
		uint32_t w;
		if (ttx_asm_line(text[i % ns], &w, err, sizeof(err)) != TTX_OK)
			return fprintf(stderr, "asm failed: %s\n", err), 1;
		sink += w;
	}
	double t_asm = now() - t0;

	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };   /* the interpreter alone; bench_jit compares */
	struct ttx_tile *t = ttx_tile_new(&opt);
	for (long i = 0; i < n; i++)
		ttx_push(t, (unsigned)(i % 3), 0x02000000);
	t0 = now();
	if (ttx_run(t, 0) != TTX_OK)
		return fprintf(stderr, "run failed: %s\n", ttx_tile_error(t)), 1;
	double t_run = now() - t0;
	ttx_tile_destroy(t);

	/* The same NOP stream through the MOP expander (template 1: 127 x 127
	   LoopOps per MOP) and through replay playback (32 words per REPLAY). */
	t = ttx_tile_new(&opt);
	ttx_mmio_write(t, 0, 0xFFB80000, 127);          /* OuterCount */
	ttx_mmio_write(t, 0, 0xFFB80004, 127);          /* InnerCount */
	for (unsigned i = 2; i < 9; i++)
		ttx_mmio_write(t, 0, 0xFFB80000 + 4 * i, 0x02000000);
	long mops = n / (127 * 127) + 1;
	for (long i = 0; i < mops; i++)
		ttx_push(t, 0, 0x01800000);                  /* MOP template 1 */
	t0 = now();
	if (ttx_run(t, 0) != TTX_OK)
		return fprintf(stderr, "run failed: %s\n", ttx_tile_error(t)), 1;
	double t_mop = now() - t0;
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	double mop_insns = (double)st.insns;
	ttx_tile_destroy(t);

	t = ttx_tile_new(&opt);
	ttx_push(t, 0, 0x04000000 | 0 << 4 | 1);          /* REPLAY load 64 (count 0) */
	for (int i = 0; i < 64; i++)
		ttx_push(t, 0, 0x02000000);
	long plays = n / 64 + 1;
	for (long i = 0; i < plays; i++)
		ttx_push(t, 0, 0x04000000);                  /* REPLAY play 64 from 0 */
	t0 = now();
	if (ttx_run(t, 0) != TTX_OK)
		return fprintf(stderr, "run failed: %s\n", ttx_tile_error(t)), 1;
	double t_rep = now() - t0;
	ttx_stats_get(t, &st);
	double rep_insns = (double)st.insns;
	ttx_tile_destroy(t);

	printf("disassemble: %.1f M words/s\n", n / t_dis / 1e6);
	printf("assemble:    %.1f M lines/s\n", n / t_asm / 1e6);
	printf("run loop:    %.1f M NOPs/s (3 threads, pushed directly)\n", n / t_run / 1e6);
	printf("MOP:         %.1f M NOPs/s (template 1 expansion, 1 thread)\n", mop_insns / t_mop / 1e6);
	printf("REPLAY:      %.1f M NOPs/s (64-word playback, 1 thread)\n", rep_insns / t_rep / 1e6);
	return sink == 42; /* keep the loops */
}
