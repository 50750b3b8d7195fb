/* A libFuzzer target without libFuzzer: LLVMFuzzerTestOneInput on each
   file named, on every prefix of it, and on 300 deterministic mutations
   of it (bit flips, byte changes, inserted and deleted bytes).  `make
   check` builds the three targets with this (tests/test_fuzz_smoke.sh) as
   a smoke test on their seeds; the real fuzzing is `make fuzz` (clang). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 4096

static uint64_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

int main(int argc, char **argv)
{
	static uint8_t in[MAX_INPUT], buf[MAX_INPUT + 1];
	long runs = 0;
	for (int a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");
		if (!f) {
			perror(argv[a]);
			return 2;
		}
		size_t n = fread(in, 1, sizeof(in), f);
		fclose(f);
		for (size_t k = 0; k <= n; k++, runs++) {   /* prefixes (copied: no reading past them) */
			memcpy(buf, in, k);
			LLVMFuzzerTestOneInput(buf, k);
		}
		uint64_t s = (uint64_t)a * 0x9E3779B97F4A7C15ull;
		for (int m = 0; m < 300 && n; m++, runs++) {
			size_t len = n, at = next(&s) % n;
			memcpy(buf, in, n);
			switch (next(&s) % 4) {
			case 0: buf[at] ^= (uint8_t)(1u << next(&s) % 8); break;
			case 1: buf[at] = (uint8_t)next(&s); break;
			case 2: memmove(buf + at + 1, buf + at, n - at); buf[at] = (uint8_t)next(&s); len++; break;
			default: memmove(buf + at, buf + at + 1, n - at - 1); len--; break;
			}
			LLVMFuzzerTestOneInput(buf, len);
		}
	}
	printf("%ld inputs, no crash\n", runs);
	return 0;
}
