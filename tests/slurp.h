/* A whole file in memory, NUL-terminated (for the tests and tools that
   read vector sets, ELF images and architectures): NULL when it cannot be
   opened or read. */
#ifndef TTX_TESTS_SLURP_H
#define TTX_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

static inline unsigned char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = NULL;
	long n = -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
		buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*len = (size_t)n;
	}
	return buf;
}

#endif
