/* The Tensil TCU against the reference cases (tests/vectors/tensil, from
 * Tensil's own emulator; README.md there): each program on its
 * architecture with its memories, DRAM0 compared, under each engine given
 * on the command line (interp, jit, auto).
 *   test_tensil_vectors DIR [ENGINE...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"
#include "slurp.h"

/* One case; 0 when DRAM0 matches. */
static int run_case(const char *dir, const char *id, const char *compare, enum ttx_engine engine)
{
	char path[1024], err[512];
	size_t len, plen, d0len, d1len, llen, elen;
	snprintf(path, sizeof(path), "%s/%s.tarch", dir, id);
	char *tarch = (char *)test_slurp(path, &len);
	snprintf(path, sizeof(path), "%s/%s.tprog", dir, id);
	char *prog = (char *)test_slurp(path, &plen);
	snprintf(path, sizeof(path), "%s/%s.dram0.bin", dir, id);
	char *d0 = (char *)test_slurp(path, &d0len);
	snprintf(path, sizeof(path), "%s/%s.dram1.bin", dir, id);
	char *d1 = (char *)test_slurp(path, &d1len);
	snprintf(path, sizeof(path), "%s/%s.local.bin", dir, id);
	char *loc = (char *)test_slurp(path, &llen);
	snprintf(path, sizeof(path), "%s/%s.expect", dir, id);
	char *exp = (char *)test_slurp(path, &elen);
	int bad = 1;
	struct ttx_tcu_arch a;
	struct ttx_tcu *t = NULL;
	if (!tarch || !prog || !d0 || !d1 || !loc || !exp) {
		printf("FAIL %s: a file is missing\n", id);
		goto out;
	}
	if (ttx_tcu_arch_parse(tarch, len, id, &a, err, sizeof(err)) != TTX_OK ||
	    ttx_tcu_create(&a, engine, &t, err, sizeof(err)) != TTX_OK) {
		printf("FAIL %s: %s\n", id, err);
		goto out;
	}
	size_t vb = ttx_tcu_value_bytes(&a) * a.array_size;
	if (ttx_tcu_write(t, TTX_TCU_DRAM0, 0, d0, d0len / vb) || ttx_tcu_write(t, TTX_TCU_DRAM1, 0, d1, d1len / vb) ||
	    ttx_tcu_write(t, TTX_TCU_LOCAL, 0, loc, llen / vb)) {
		printf("FAIL %s: %s\n", id, ttx_tcu_error(t));
		goto out;
	}
	if (ttx_tcu_run(t, prog, plen, id, 0) != TTX_OK) {
		printf("FAIL %s: %s\n", id, ttx_tcu_error(t));
		goto out;
	}
	char *got = malloc(elen);
	ttx_tcu_read(t, TTX_TCU_DRAM0, 0, got, elen / vb);
	bad = 0;
	for (size_t v = 0; v < elen / vb; v++) {
		if (strcmp(compare, "all") != 0) {   /* a list of vector indices */
			char want[32];
			snprintf(want, sizeof(want), ",%zu,", v);
			char list[4096];
			snprintf(list, sizeof(list), ",%s,", compare);
			if (!strstr(list, want))
				continue;
		}
		if (memcmp(got + v * vb, exp + v * vb, vb) != 0) {
			if (!bad)
				printf("FAIL %s: DRAM0 vector %zu differs\n", id, v);
			bad++;
		}
	}
	free(got);
out:
	ttx_tcu_destroy(t);
	free(tarch), free(prog), free(d0), free(d1), free(loc), free(exp);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_tensil_vectors DIR [interp|jit|auto ...]\n");
		return 2;
	}
	char path[1024];
	snprintf(path, sizeof(path), "%s/MANIFEST.tsv", argv[1]);
	FILE *m = fopen(path, "r");
	if (!m) {
		printf("FAIL no %s\n", path);
		return 1;
	}
	const char *engines[8] = { "interp" };
	int ne = argc > 2 ? argc - 2 : 1;
	for (int i = 2; i < argc && i < 10; i++)
		engines[i - 2] = argv[i];
	int failed = 0, cases = 0;
	char line[8192];
	while (fgets(line, sizeof(line), m)) {
		if (line[0] == '#' || strncmp(line, "id\t", 3) == 0)
			continue;
		char *id = strtok(line, "\t\n"), *kind = strtok(NULL, "\t\n"), *compare = strtok(NULL, "\t\n");
		if (!id || !kind || !compare)
			continue;
		for (int e = 0; e < ne; e++) {
			enum ttx_engine eng = strcmp(engines[e], "jit") == 0 ? TTX_ENGINE_JIT
			                      : strcmp(engines[e], "auto") == 0 ? TTX_ENGINE_AUTO : TTX_ENGINE_INTERP;
			cases++;
			if (run_case(argv[1], id, compare, eng)) {
				printf("  (engine %s)\n", engines[e]);
				failed++;
			}
		}
	}
	fclose(m);
	printf("test_tensil_vectors: %d cases, %d failed\n", cases, failed);
	return failed != 0 || cases == 0;
}
