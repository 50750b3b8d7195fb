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
	{ "thread", 1, "N", "", 0 }, { "dst-in", 2, "F", "", 0 }, { "dst-out", 3, "F", "", CLI_WRITES },
	{ "dst16-out", 4, "F", "", CLI_WRITES }, { "lreg-out", 5, "F", "", CLI_WRITES }, { "l1-in", 6, "A:F", "", 0 },
	{ "l1-out", 7, "A:L:F", "", CLI_WRITES_L1 }, { "engine", 8, "E", "", 0 }, { "numerics", 9, "N", "", 0 },
	{ "max-insns", 10, "N", "", 0 }, { "stats", 11, NULL, "", 0 }, { "trace", 12, "F", "", CLI_WRITES },
	{ "strict", 13, NULL, "", 0 }, { "in", 14, "F", "", 0 }, { "out", 15, "F", "", CLI_WRITES },
	{ "format", 16, "F", "", 0 }, { "out-format", 17, "F", "", 0 }, { "fidelity", 18, "F", "", 0 },
	{ "progress", 19, NULL, "", 0 }, { "list", 20, NULL, "", 0 }, { "jobs", 21, "N", "", 0 },
	{ "o", 22, "F", "", CLI_WRITES }, { NULL, 0, NULL, NULL, 0 },
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
		struct cli_scan scan = { argc, argv, 0, 0, NULL, NULL };
		int c, steps = 0;
		while ((c = cli_next(&scan, opts)) != CLI_END) {
			if (c == CLI_BAD && (!scan.why || !*scan.why)) {
				fprintf(stderr, "a bad argument without a reason\n");
				abort();
			}
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
