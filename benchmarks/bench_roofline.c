/* A roofline of the kernel library on one Tensix tile, from the cycle
 * model (docs/timing.md): for each kernel, the MACs per device cycle it
 * achieves against its arithmetic intensity (MACs per byte of L1 the
 * unpackers and packers move), under the multiplier array's peak (2048
 * MACs/cycle) and the unpackers' L1 bandwidth (two unpackers at x1 speed:
 * 32 bytes/cycle; at their joint best, five 16-byte reads: 80).
 *
 *   bench_roofline [--quick] [--out PREFIX]
 *
 * prints a table, writes PREFIX.dat and PREFIX.gp and, when gnuplot is on
 * the PATH, PREFIX.svg and PREFIX.png (default PREFIX: roofline). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct kernel {
	const char *label, *op;
	enum ttx_format fmt;
	size_t m, k, n;
	enum ttx_fidelity fid;
};

static const struct kernel kernels[] = {
	{ "matmul 32^3 bf16 LoFi", "matmul", TTX_FORMAT_BF16, 32, 32, 32, TTX_FIDELITY_LOFI },
	{ "matmul 256^3 bf16 LoFi", "matmul", TTX_FORMAT_BF16, 256, 256, 256, TTX_FIDELITY_LOFI },
	{ "matmul 256^3 bf16 HiFi2", "matmul", TTX_FORMAT_BF16, 256, 256, 256, TTX_FIDELITY_HIFI2 },
	{ "matmul 256^3 bf16 HiFi4", "matmul", TTX_FORMAT_BF16, 256, 256, 256, TTX_FIDELITY_HIFI4 },
	{ "matmul 256^3 bfp8 LoFi", "matmul", TTX_FORMAT_BFP8, 256, 256, 256, TTX_FIDELITY_LOFI },
	{ "matmul 256^3 bfp4 LoFi", "matmul", TTX_FORMAT_BFP4, 256, 256, 256, TTX_FIDELITY_LOFI },
	{ "mul 256x256 bf16 LoFi", "mul", TTX_FORMAT_BF16, 256, 0, 256, TTX_FIDELITY_LOFI },
	{ "mul 256x256 bf16 HiFi4", "mul", TTX_FORMAT_BF16, 256, 0, 256, TTX_FIDELITY_HIFI4 },
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

struct point {
	double intensity, macs_per_cycle, cycles, bytes;
	const char *bottleneck;
};

static int run(const struct kernel *k, int quick, struct point *pt)
{
	size_t m = k->m, kk = k->k, n = k->n;
	if (quick && m > 64)
		m = 64;
	int binary_mm = strcmp(k->op, "matmul") == 0;
	size_t arows = m, acols = binary_mm ? kk : n, brows = binary_mm ? kk : m, bcols = n;
	float *a = malloc(arows * acols * sizeof(float)), *b = malloc(brows * bcols * sizeof(float));
	float *c = malloc(m * n * sizeof(float));
	if (!a || !b || !c)
		return -1;
	for (size_t i = 0; i < arows * acols; i++)
		a[i] = (float)((i * 7919) % 13) * 0.125f - 0.75f;
	for (size_t i = 0; i < brows * bcols; i++)
		b[i] = (float)((i * 104729) % 11) * 0.125f - 0.625f;
	struct ttx_tensor in[2] = { { a, 1, arows, acols }, { b, 1, brows, bcols } }, out = { c, 1, m, n };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	p.format = k->fmt;
	p.fidelity = k->fid;
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .timing = 1 };
	struct ttx_tile *t = ttx_tile_new(&opt);
	char err[256];
	int rc = ttx_op_run(t, k->op, in, 2, &p, &out, err, sizeof(err)) == TTX_OK ? 0 : -1;
	if (rc)
		fprintf(stderr, "%s: %s\n", k->label, err);
	struct ttx_cycles cy;
	ttx_cycles_get(t, &cy);
	pt->bytes = (double)(cy.l1_bytes_read + cy.l1_bytes_written);
	pt->cycles = (double)cy.device_cycles;
	pt->intensity = pt->bytes > 0 ? (double)cy.macs / pt->bytes : 0;
	pt->macs_per_cycle = cy.device_cycles ? (double)cy.macs / (double)cy.device_cycles : 0;
	pt->bottleneck = ttx_unit_name(ttx_cycles_bottleneck(&cy));
	ttx_tile_destroy(t);
	free(a), free(b), free(c);
	return rc;
}

int main(int argc, char **argv)
{
	int quick = 0;
	const char *prefix = "roofline";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			prefix = argv[++i];
		else {
			fprintf(stderr, "usage: bench_roofline [--quick] [--out PREFIX]\n");
			return 2;
		}
	}
	char path[1024];
	snprintf(path, sizeof(path), "%s.dat", prefix);
	FILE *dat = fopen(path, "w");
	if (!dat) {
		perror(path);
		return 2;
	}
	fprintf(dat, "# intensity(MAC/byte) MACs/cycle device_cycles L1_bytes \"kernel\"\n");
	printf("| %-28s | %13s | %10s | %12s | %10s | %-10s |\n", "kernel", "device cycles", "MACs/cycle",
	       "MACs/L1 byte", "% of peak", "bottleneck");
	printf("|------------------------------|---------------|------------|--------------|------------|------------|\n");
	for (size_t i = 0; i < NKERNELS; i++) {
		struct point pt;
		if (run(&kernels[i], quick, &pt))
			return 1;
		printf("| %-28s | %13.0f | %10.1f | %12.2f | %9.1f%% | %-10s |\n", kernels[i].label, pt.cycles,
		       pt.macs_per_cycle, pt.intensity, 100 * pt.macs_per_cycle / TTX_PEAK_MACS_PER_CYCLE, pt.bottleneck);
		fprintf(dat, "%g %g %.0f %.0f \"%s\"\n", pt.intensity, pt.macs_per_cycle, pt.cycles, pt.bytes,
		        kernels[i].label);
		fflush(stdout);
	}
	fclose(dat);
	snprintf(path, sizeof(path), "%s.gp", prefix);
	FILE *gp = fopen(path, "w");
	if (!gp) {
		perror(path);
		return 2;
	}
	/* multiplier-array peak; unpacker L1 bandwidth x1 (2 x 16 B) and the
	   best both unpackers reach together (5 x 16 B), TT/L1.md */
	fprintf(gp, "set logscale xy\nset xlabel 'arithmetic intensity (MACs per byte of L1 moved)'\n"
	        "set ylabel 'multiplier-array MACs per device cycle (each fidelity phase counts)'\nset key bottom right\nset grid\n"
	        "set title 'ttx cycle model: kernel library on one Wormhole Tensix tile'\n"
	        "set xrange [0.05:2000]\nset yrange [1:4096]\n"
	        "peak = %d\nbw1 = 32\nbw4 = 80\n"
	        "roof(x, bw) = (bw * x < peak) ? bw * x : peak\n"
	        "plot roof(x, bw1) lw 2 lc rgb '#888888' t 'roof: 2048 MACs/cycle, unpackers at x1 (32 B/cycle)', \\\n"
	        "     roof(x, bw4) lw 1 dt 2 lc rgb '#888888' t 'unpackers at their best (80 B/cycle)', \\\n"
	        "     '%s.dat' u 1:2 w p pt 7 ps 1.2 lc rgb '#1f77b4' t 'kernels', \\\n"
	        "     '' u 1:2:5 w labels left offset 0.8,0 font ',8' noenhanced notitle\n",
	        TTX_PEAK_MACS_PER_CYCLE, prefix);
	fclose(gp);
	char cmd[3200];
	snprintf(cmd, sizeof(cmd),
	         "command -v gnuplot >/dev/null 2>&1 && "
	         "gnuplot -e \"set terminal svg size 900,600 dynamic; set output '%s.svg'\" '%s.gp' && "
	         "gnuplot -e \"set terminal png size 900,600; set output '%s.png'\" '%s.gp'",
	         prefix, prefix, prefix, prefix);
	if (system(cmd) == 0)
		printf("\nwrote %s.svg and %s.png\n", prefix, prefix);
	else
		printf("\nno gnuplot: plot %s.gp by hand\n", prefix);
	return 0;
}
