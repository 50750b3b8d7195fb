/* ttx batch scaling: the same 64 jobs (32 matmuls through `ttx op`, 32
 * SFPU programs through `ttx run`) on 1 and on 2 worker threads, wall time
 * of each, the outputs compared byte for byte; and the memory of a tile.
 *
 * Usage: bench_batch [TTX] (default ./ttx; run from the build directory). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ttx.h"

#define NJOBS 64

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A float32 .npy of rows x cols pseudo-random values in [-2, 2). */
static void write_npy(const char *path, unsigned rows, unsigned cols, uint64_t seed)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	char dict[118];
	int n = snprintf(dict, sizeof(dict), "{'descr': '<f4', 'fortran_order': False, 'shape': (%u, %u), }", rows, cols);
	memset(dict + n, ' ', sizeof(dict) - 1 - (size_t)n);
	dict[sizeof(dict) - 1] = '\n';   /* 10 + 118 = 128 bytes of header */
	fwrite("\x93NUMPY\x01\x00\x76\x00", 1, 10, f);
	fwrite(dict, 1, sizeof(dict), f);
	for (unsigned i = 0; i < rows * cols; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		float x = (float)(seed >> 40) / (float)(1 << 24) * 4 - 2;
		fwrite(&x, 4, 1, f);
	}
	fclose(f);
}

static long file_bytes(const char *path, char **data)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	*data = malloc((size_t)n + 1);
	if (fread(*data, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	fclose(f);
	return n;
}

static double run_batch(const char *ttx, const char *dir, const char *out, unsigned threads, const char *engine)
{
	char jobs[512], cmd[1024];
	snprintf(jobs, sizeof(jobs), "%s/jobs-%s.txt", dir, out);
	FILE *f = fopen(jobs, "w");
	for (unsigned i = 0; i < NJOBS; i++) {
		if (i % 2)
			fprintf(f, "run %s/sfpu.s --dst-in %s/dst.bin --dst-out %s/%s-%u.dst --engine %s\n", dir, dir, dir, out, i,
			        engine);
		else
			fprintf(f, "op matmul --in %s/a%u.npy --in %s/b.npy --out %s/%s-%u.npy --fidelity hifi2 --engine %s\n",
			        dir, i % 8, dir, dir, out, i, engine);
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s batch %s --jobs %u 2>%s/%s.log", ttx, jobs, threads, dir, out);
	double t0 = now();
	if (system(cmd) != 0) {
		fprintf(stderr, "bench_batch: '%s' failed\n", cmd);
		exit(1);
	}
	return now() - t0;
}

/* Resident memory of the process, bytes (Linux). */
static long rss_bytes(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * sysconf(_SC_PAGESIZE);
}

int main(int argc, char **argv)
{
	const char *ttx = argc > 1 ? argv[1] : "./ttx";
	char dir[] = "/tmp/ttx-bench-batch-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[512];
	for (unsigned i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "%s/a%u.npy", dir, i);
		write_npy(path, 256, 256, 11 + i);
	}
	snprintf(path, sizeof(path), "%s/b.npy", dir);
	write_npy(path, 256, 256, 99);
	/* the SFPU job: a MAD/integer loop over Dst rows, 64 times */
	snprintf(path, sizeof(path), "%s/sfpu.s", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "SFPLOADI 4, 0, 0x3F00\nSFPLOADI 5, 0, 0x3E80\n");
	for (int r = 0; r < 256; r++)
		for (int k = 0; k < 16; k++)
			fprintf(f, "SFPLOAD 0, 3, 0, %d\nSFPMAD 0, 4, 5, 1, 0\nSFPMAD 1, 0, 4, 2, 0\nSFPIADD 3, 2, 2, 5\n"
			        "SFPSTORE 2, 3, 0, %d\n", (k % 16) * 4, (k % 16) * 4);
	fclose(f);
	snprintf(path, sizeof(path), "%s/dst.bin", dir);
	f = fopen(path, "wb");
	for (unsigned i = 0; i < 512 * 16; i++) {
		float x = (float)(i % 97) / 32.0f - 1.5f;
		fwrite(&x, 4, 1, f);
	}
	fclose(f);

	/* best of three of each, for the interpreter and the default engine
	   (the JIT, one code cache shared by the batch's tiles); every output
	   compared with the first run's */
	static const char *const engines[2] = { "interp", "auto" };
	double wall[2][2] = { { 1e30, 1e30 }, { 1e30, 1e30 } };
	for (int e = 0; e < 2; e++)
		for (int round = 0; round < 3; round++)
			for (unsigned w = 1; w <= 2; w++) {
				char out[32];
				snprintf(out, sizeof(out), "%s%u", engines[e], w);
				double x = run_batch(ttx, dir, out, w, engines[e]);
				wall[e][w - 1] = x < wall[e][w - 1] ? x : wall[e][w - 1];
			}
	int same = 1;
	for (unsigned i = 0; i < NJOBS; i++) {
		const char *ext = i % 2 ? "dst" : "npy";
		char p1[600], *d1 = NULL;
		snprintf(p1, sizeof(p1), "%s/interp1-%u.%s", dir, i, ext);
		long n1 = file_bytes(p1, &d1);
		for (int k = 1; k < 4; k++) {
			char p2[600], *d2 = NULL;
			snprintf(p2, sizeof(p2), "%s/%s%d-%u.%s", dir, engines[k / 2], k % 2 + 1, i, ext);
			long n2 = file_bytes(p2, &d2);
			same &= n1 > 0 && n1 == n2 && memcmp(d1, d2, (size_t)n1) == 0;
			free(d2);
		}
		free(d1);
	}
	/* memory: eight interpreter tiles with all of L1 written (every page
	   of the tile in use) */
	static uint8_t l1[TTX_L1_SIZE];
	memset(l1, 0x5A, sizeof(l1));
	long before = rss_bytes();
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t[8];
	for (int i = 0; i < 8; i++) {
		t[i] = ttx_tile_new(&opt);
		ttx_l1_write(t[i], 0, l1, sizeof(l1));
	}
	long per_tile = (rss_bytes() - before) / 8;
	for (int i = 0; i < 8; i++)
		ttx_tile_destroy(t[i]);
	printf("64 jobs (32 x op matmul 256x256x256 HiFi2, 32 x run of a 20,482-instruction SFPU program), "
	       "best of 3\n\n");
	printf("| engine | worker threads | wall time | jobs/s | speed-up |\n|---|---|---|---|---|\n");
	for (int e = 0; e < 2; e++) {
		printf("| %s | 1 | %.3f s | %.1f | 1.00 |\n", engines[e], wall[e][0], NJOBS / wall[e][0]);
		printf("| %s | 2 | %.3f s | %.1f | %.2f |\n", engines[e], wall[e][1], NJOBS / wall[e][1],
		       wall[e][0] / wall[e][1]);
	}
	printf("\noutputs of the four runs: %s\n", same ? "identical, byte for byte" : "DIFFERENT");
	printf("memory per tile (interpreter, resident with L1 written): %.2f MiB\n", (double)per_tile / (1 << 20));
	printf("(scratch files in %s)\n", dir);
	return same ? 0 : 1;
}
