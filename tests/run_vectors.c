/* Runs reference vector cases (tests/vectors/, see its README.md) and compares
 * the listed Dst rows bit for bit.
 *
 *   run_vectors DIR [--engine interp|jit|auto] [--family F]... [--id NNNN]... [-v] [-c] [--riscv PUSHER]
 *
 * With --riscv, the words are not pushed by the host: they go to L1 at
 * 0x20004 (their count at 0x20000) and RISCV T0 runs PUSHER, an ELF that
 * pushes them to thread 0 through INSTRN_BUF (tests/riscv/pusher.c).
 *
 * Prints one line per failing case (first differing row/column with both
 * values, and with -c the number of differing cells) and a final
 * "N passed, N failed" line; exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"
#include "slurp.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* "0-31,120-135" -> row flags */
static int parse_rows(const char *spec, unsigned char rows[TTX_DST_ROWS32])
{
	memset(rows, 0, TTX_DST_ROWS32);
	while (*spec) {
		char *end;
		long a = strtol(spec, &end, 10), b = a;
		if (end == spec)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b >= TTX_DST_ROWS32 || a > b)
			return -1;
		for (long r = a; r <= b; r++)
			rows[r] = 1;
		spec = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return 0;
}

static int listed(const char *what, char **list, int n)
{
	if (!n)
		return 1;
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], what) == 0)
			return 1;
	return 0;
}

static const unsigned char *pusher;
static size_t pusher_len;

static int run_case(const char *dir, const char *id, const char *rows_spec, enum ttx_engine engine,
                    int verbose, int count, char *why, size_t whylen)
{
	char path[1024];
	size_t blen, dlen;
	snprintf(path, sizeof(path), "%s/%s.bin", dir, id);
	unsigned char *bin = test_slurp(path, &blen);
	snprintf(path, sizeof(path), "%s/%s.dst", dir, id);
	unsigned char *exp = test_slurp(path, &dlen);
	unsigned char rows[TTX_DST_ROWS32];
	int ok = 0;
	if (!bin || !exp || blen % 4 || dlen != TTX_DST_ROWS32 * TTX_COLS * 4 || parse_rows(rows_spec, rows)) {
		snprintf(why, whylen, "missing or malformed case files");
		goto out;
	}
	size_t n = blen / 4;
	uint32_t *words = malloc(n * sizeof(*words) + 1);
	for (size_t i = 0; i < n; i++)
		words[i] = le32(bin + 4 * i);
	struct ttx_options opt = { .engine = engine };
	struct ttx_tile *t = ttx_tile_new(&opt);
	struct ttx_program *p = ttx_program_from_words(pusher ? NULL : words, pusher ? 0 : n, 0);
	enum ttx_status st = TTX_OK;
	if (pusher) {
		uint32_t count32 = (uint32_t)n, entry;
		ttx_l1_write(t, 0x20000, &count32, 4);
		ttx_l1_write(t, 0x20004, words, n * 4);   /* (a little-endian host) */
		st = ttx_elf_load(t, TTX_CORE_T0, pusher, pusher_len, &entry);
		if (st == TTX_OK)
			st = ttx_core_start(t, TTX_CORE_T0, entry);
	}
	free(words);
	if (st != TTX_OK || ttx_program_run(t, p, 0) != TTX_OK) {
		snprintf(why, whylen, "%s", ttx_tile_error(t));
	} else {
		static uint32_t dst[TTX_DST_ROWS32][TTX_COLS];
		ttx_dst32_read(t, &dst[0][0]);
		unsigned bad = 0;
		for (unsigned r = 0; r < TTX_DST_ROWS32 && (count || !bad); r++) {
			if (!rows[r])
				continue;
			for (unsigned c = 0; c < TTX_COLS; c++) {
				uint32_t want = le32(exp + 4 * (r * TTX_COLS + c));
				if (dst[r][c] != want && !bad++)
					snprintf(why, whylen, "row %u col %u: got 0x%08X, expected 0x%08X", r, c, dst[r][c], want);
			}
		}
		ok = !bad;
		if (bad && count) {
			size_t l = strlen(why);
			snprintf(why + l, whylen - l, " (%u cells differ)", bad);
		}
		if (ok && verbose) {
			struct ttx_stats s;
			ttx_stats_get(t, &s);
			snprintf(why, whylen, "%llu instructions", (unsigned long long)s.insns);
		}
	}
	ttx_program_free(p);
	ttx_tile_destroy(t);
out:
	free(bin);
	free(exp);
	return ok;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	char *families[64], *ids[256];
	int nf = 0, ni = 0, verbose = 0, count = 0;
	enum ttx_engine engine = TTX_ENGINE_AUTO;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--family") == 0 && i + 1 < argc && nf < 64)
			families[nf++] = argv[++i];
		else if (strcmp(argv[i], "--id") == 0 && i + 1 < argc && ni < 256)
			ids[ni++] = argv[++i];
		else if (strcmp(argv[i], "--engine") == 0 && i + 1 < argc) {
			const char *e = argv[++i];
			engine = strcmp(e, "interp") == 0 ? TTX_ENGINE_INTERP : strcmp(e, "jit") == 0 ? TTX_ENGINE_JIT : TTX_ENGINE_AUTO;
		} else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (strcmp(argv[i], "-c") == 0)
			count = 1;
		else if (strcmp(argv[i], "--riscv") == 0 && i + 1 < argc) {
			pusher = test_slurp(argv[++i], &pusher_len);
			if (!pusher) {
				fprintf(stderr, "run_vectors: cannot read %s\n", argv[i]);
				return 2;
			}
		}
		else if (!dir && argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "usage: run_vectors DIR [--engine E] [--family F]... [--id NNNN]... [-v] [-c]\n");
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "usage: run_vectors DIR [--engine E] [--family F]... [--id NNNN]... [-v] [-c]\n");
		return 2;
	}
	if (engine == TTX_ENGINE_JIT && !ttx_jit_available()) {
		printf("vectors %s: --engine jit skipped (this build has no JIT)\n", dir);
		return 0;
	}
	char path[1024];
	size_t len;
	snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
	char *manifest = (char *)test_slurp(path, &len);
	if (!manifest) {
		fprintf(stderr, "run_vectors: cannot read %s\n", path);
		return 2;
	}
	int passed = 0, failed = 0;
	for (char *line = strtok(manifest, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#' || strncmp(line, "id\t", 3) == 0)
			continue;
		char *fields[6] = { 0 };
		char *p = line;
		for (int f = 0; f < 6 && p; f++) {
			fields[f] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (!fields[4])
			continue;
		if (!listed(fields[1], families, nf) || !listed(fields[0], ids, ni))
			continue;
		char why[512] = "";
		if (run_case(dir, fields[0], fields[4], engine, verbose, count, why, sizeof(why))) {
			passed++;
			if (verbose)
				printf("PASS %s %-10s %s\n", fields[0], fields[1], why);
		} else {
			failed++;
			printf("FAIL %s %-10s %s\n", fields[0], fields[1], why);
		}
	}
	free(manifest);
	printf("vectors %s%s: %d passed, %d failed\n", dir, pusher ? " (pushed by RISCV T0)" : "", passed, failed);
	return failed ? 1 : 0;
}
