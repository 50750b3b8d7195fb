/* libFuzzer target: a whole `ttx batch` jobs file through the line reader
   of app/cli_args.c (cli_jobs_line: binary data, blank and # lines, the
   shell-like split, the command check) and the output scan that lets batch
   refuse two jobs writing one file (cli_outputs).  The input may hold NUL
   bytes, control characters and lines of any length.  Checks: a refused
   line has a reason, and a binary one the column of a byte that is not
   text; an accepted line's words lie in its buffer, start with run or op,
   and end with a NULL; every output file cli_outputs reports is one of the
   words or a suffix of one.  ASan/UBSan catch the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct cli_opt opts[] = {
	{ "dst-out", 1, "F", "", CLI_WRITES }, { "l1-out", 2, "A:L:F", "", CLI_WRITES_L1 },
	{ "out", 3, "F", "", CLI_WRITES }, { "out-format", 4, "F", "", 0 }, { "stats", 5, NULL, "", 0 },
	{ "in", 6, "F", "", 0 }, { "perfetto", 7, "F", "", CLI_WRITES }, { NULL, 0, NULL, NULL, 0 },
};

static void fail(const char *what)
{
	fprintf(stderr, "%s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *p = text, *end_text = text + size; p < end_text;) {
		char *end = memchr(p, '\n', (size_t)(end_text - p));
		if (!end)
			end = end_text;
		*end = '\0';
		size_t len = (size_t)(end - p);
		char *buf = malloc(len + 1), *argv[CLI_MAX_ARGS + 1];
		const char *why = NULL;
		size_t column = 0;
		int argc = buf ? cli_jobs_line(p, len, buf, argv, &why, &column) : 0;
		if (argc < 0) {
			if (!why || !*why)
				fail("a refused line without a reason");
			if (column && (column > len || ((unsigned char)p[column - 1] >= 0x20 &&
			                                (unsigned char)p[column - 1] != 0x7F)))
				fail("a binary line's column is not a control byte");
			if (!column && memchr(p, '\0', len))
				fail("a line with a NUL byte refused without its column");
		} else if (argc > 0) {
			if (memchr(p, '\0', len))
				fail("a line with a NUL byte accepted");
			if (strcmp(argv[0], "run") != 0 && strcmp(argv[0], "op") != 0)
				fail("a line accepted that is not run or op");
			if (argv[argc])
				fail("argv not ended by NULL");
			for (int i = 0; i < argc; i++)
				if (argv[i] < buf || argv[i] + strlen(argv[i]) > buf + len)
					fail("a word outside the buffer");
			const char *files[2 * CLI_MAX_ARGS];
			int n = cli_outputs(argc, argv, opts, files, 2 * CLI_MAX_ARGS);
			for (int k = 0; k < n; k++) {
				int inside = 0;
				for (int i = 0; i < argc; i++)
					inside |= files[k] >= argv[i] && files[k] <= argv[i] + strlen(argv[i]);
				if (!inside)
					fail("an output file outside the words");
			}
		}
		free(buf);
		p = end + 1;
	}
	free(text);
	return 0;
}
