/* Helpers shared by the benchmark programs. */
#ifndef TTX_BENCH_H
#define TTX_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ttx.h"

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One instruction from its assembler text; exits on a typo. */
static inline uint32_t enc(const char *text)
{
	uint32_t w;
	char err[256];
	if (ttx_asm_line(text, &w, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "benchmark: %s\n", err);
		exit(2);
	}
	return w;
}

#endif
