/* libFuzzer target: the command line's argument handling (app/cli_args.c).
   The input is one line of a `ttx batch` jobs file: it is split as a shell
   would (cli_split_line), and the words are scanned with cli_next against
   the options of `ttx run` and `ttx op` (flags, options with values, "--",
   unique abbreviations).  Checks: the words lie inside the split buffer
   and are terminated; every value cli_next hands out is one of the words
   or a suffix of one ("--name=value"); the scan ends.  ASan/UBSan catch
   the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct cli_opt opts[] = {
	{ "thread", 1, 1 }, { "dst-in", 1, 2 }, { "dst-out", 1, 3 }, { "dst16-out", 1, 4 }, { "lreg-out", 1, 5 },
	{ "l1-in", 1, 6 }, { "l1-out", 1, 7 }, { "engine", 1, 8 }, { "numerics", 1, 9 }, { "max-insns", 1, 10 },
	{ "stats", 0, 11 }, { "trace", 1, 12 }, { "strict", 0, 13 }, { "in", 1, 14 }, { "out", 1, 15 },
	{ "format", 1, 16 }, { "out-format", 1, 17 }, { "fidelity", 1, 18 }, { "progress", 0, 19 },
	{ "list", 0, 20 }, { "jobs", 1, 21 }, { NULL, 0, 0 },
};

static int inside(const char *p, char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), *buf = malloc(size + 1);
	char *argv[CLI_MAX_ARGS + 1];
	if (!line || !buf) {
		free(line), free(buf);
		return 0;
	}
	memcpy(line, data, size);
	line[size] = '\0';
	const char *why = NULL;
	int argc = cli_split_line(line, buf, argv, &why);
	if (argc < 0) {
		if (!why || !*why) {
			fprintf(stderr, "a rejected line without a reason\n");
			abort();
		}
	} else {
		for (int i = 0; i < argc; i++)
			if (argv[i] < buf || argv[i] + strlen(argv[i]) > buf + size) {
				fprintf(stderr, "word %d outside the buffer\n", i);
				abort();
			}
		argv[argc] = NULL;
		struct cli_scan scan = { argc, argv, 0, 0, NULL };
		int c, steps = 0;
		while ((c = cli_next(&scan, opts)) != CLI_END) {
			if (scan.arg && !inside(scan.arg, argv, argc)) {
				fprintf(stderr, "option %d: a value outside the words\n", c);
				abort();
			}
			if (++steps > argc + 1) {
				fprintf(stderr, "the scan does not end\n");
				abort();
			}
		}
	}
	free(line), free(buf);
	return 0;
}
