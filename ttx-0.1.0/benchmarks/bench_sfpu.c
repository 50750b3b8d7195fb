/* SFPU interpreter speed: emulated SFPU instructions per second on one core
 * for straight-line SFPMAD-heavy code, integer/bitwise/flag code and a mixed
 * kernel (load, MAD chain, predication, store).  benchmarks/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* Run `body` (n words) `reps` times after `setup`; returns instructions/s. */
static double measure(const char *name, const uint32_t *setup, size_t nsetup,
                      const uint32_t *body, size_t n, long reps)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };   /* the interpreter alone; bench_jit compares */
	struct ttx_tile *t = ttx_tile_new(&opt);
	for (size_t i = 0; i < nsetup; i++)
		ttx_push(t, 0, setup[i]);
	if (ttx_run(t, 0) != TTX_OK) {
		fprintf(stderr, "%s: %s\n", name, ttx_tile_error(t));
		exit(1);
	}
	double best = 0;
	for (int round = 0; round < 3; round++) {
		for (long r = 0; r < reps; r++)
			for (size_t i = 0; i < n; i++)
				ttx_push(t, 0, body[i]);
		double t0 = now();
		if (ttx_run(t, 0) != TTX_OK) {
			fprintf(stderr, "%s: %s\n", name, ttx_tile_error(t));
			exit(1);
		}
		double rate = (double)n * (double)reps / (now() - t0);
		if (rate > best)
			best = rate;
	}
	ttx_tile_destroy(t);
	printf("%-28s %8.1f M insns/s  %8.1f G lane-ops/s\n", name, best / 1e6, best * 32 / 1e9);
	return best;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 100000;
	/* LReg 0-3 hold 1.0001, 0.9999, 0.5, -0.25 (BF16 immediates). */
	const uint32_t setup[] = {
		enc("SFPLOADI 0, 0, 0x3F80"), enc("SFPLOADI 1, 0, 0x3F7F"),
		enc("SFPLOADI 2, 0, 0x3F00"), enc("SFPLOADI 3, 0, 0xBE80"),
		enc("SFPLOADI 4, 2, 0x1234"), enc("SFPLOADI 5, 2, 0x0F0F"),
	};
	/* SFPMAD lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1 */
	const uint32_t mad[] = {
		enc("SFPMAD 0, 1, 2, 6, 0"), enc("SFPMAD 1, 2, 3, 7, 0"),
		enc("SFPMAD 2, 3, 0, 6, 0"), enc("SFPMAD 3, 0, 1, 7, 0"),
		enc("SFPADD 0, 10, 2, 6, 0"), enc("SFPMUL 1, 3, 9, 7, 0"),
		enc("SFPMAD 6, 7, 2, 6, 0"), enc("SFPMAD 7, 6, 3, 7, 0"),
	};
	/* SFPIADD imm12, lreg_c, lreg_dest, instr_mod1; SFPAND/OR/XOR/NOT/SHFT similar. */
	const uint32_t integer[] = {
		enc("SFPIADD 1, 4, 6, 5"), enc("SFPAND 0, 5, 6, 0"), enc("SFPOR 0, 4, 7, 0"),
		enc("SFPXOR 0, 6, 7, 0"), enc("SFPSHFT 3, 0, 6, 1"), enc("SFPNOT 0, 7, 6, 0"),
		enc("SFPIADD 0, 6, 7, 4"), enc("SFPSETCC 0, 7, 0, 4"), enc("SFPENCC 0, 0, 0, 10"),
		enc("SFPLZ 0, 4, 6, 0"),
	};
	/* Mixed: load, 4 MADs, a predicated block, store. */
	const uint32_t mixed[] = {
		enc("SFPLOAD 6, 3, 0, 0"), enc("SFPMAD 6, 0, 2, 7, 0"), enc("SFPMAD 7, 6, 1, 7, 0"),
		enc("SFPSETCC 0, 7, 0, 0"), enc("SFPMAD 7, 3, 2, 7, 0"), enc("SFPENCC 0, 0, 0, 10"),
		enc("SFPMAD 7, 1, 9, 6, 0"), enc("SFPSTORE 6, 3, 0, 4"),
	};
	printf("SFPU interpreter, one core, %ld repetitions of each body\n", reps);
	measure("SFPMAD-heavy straight line", setup, 6, mad, 8, reps);
	measure("integer/bitwise/flags", setup, 6, integer, 10, reps);
	measure("mixed kernel", setup, 6, mixed, 8, reps);
	return 0;
}
