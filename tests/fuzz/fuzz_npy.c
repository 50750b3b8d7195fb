/* libFuzzer target: the .npy reader of the command line (app/npy.c).  Any
   bytes: a file either parses into float32 data whose size matches its
   shape, or is rejected with a message; ASan/UBSan catch the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npy a;
	char err[512];
	if (npy_parse(data, size, "fuzz.npy", &a, err, sizeof(err)) != 0) {
		if (!err[0] || strncmp(err, "fuzz.npy: ", 10) != 0) {
			fprintf(stderr, "a rejection without a message: '%s'\n", err);
			abort();
		}
		return 0;
	}
	size_t n = 1;
	for (int i = 0; i < a.ndim; i++)
		n *= a.shape[i];
	volatile float sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += a.data[i];   /* every element readable */
	if (a.ndim < 1 || a.ndim > 3 || n == 0)
		abort();
	npy_free(&a);
	return 0;
}
