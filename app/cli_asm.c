/* ttx asm and ttx disasm: assembler text to raw words and back
 * (docs/assembly.md); also the program loader that ttx run uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "output.h"

/* A program file's largest size: 16 Mi instruction words (text: the same
   number of bytes, 64 MiB). */
#define MAX_PROGRAM_BYTES (64u << 20)

const struct cli_opt asm_options[] = {
	{ "o", 'o', "OUT.bin", "the output: raw little-endian 32-bit words for thread 0", CLI_WRITES },
	{ NULL, 0, NULL, NULL, 0 },
};

const struct cli_opt disasm_options[] = {
	{ NULL, 0, NULL, NULL, 0 },
};

/* .bin or .BIN (any case: a file system or a tool that upper-cases names
   keeps it words) */
int cli_is_bin(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcasecmp(path + n - 4, ".bin") == 0;
}

/* Words of a .bin file (little-endian). */
static uint32_t *read_words(const char *path, size_t *count, FILE *err)
{
	size_t len;
	unsigned char *buf = (unsigned char *)read_file(path, &len, err, MAX_PROGRAM_BYTES);
	if (!buf)
		return NULL;
	if (len % 4) {
		fprintf(err, "ttx: %s: size %zu is not a multiple of 4 (truncated instruction word)\n", path, len);
		free(buf);
		return NULL;
	}
	uint32_t *w = malloc((len / 4 + 1) * sizeof(*w));
	if (!w) {
		fprintf(err, "ttx: %s: out of memory\n", path);
		free(buf);
		return NULL;
	}
	for (size_t i = 0; i < len / 4; i++)
		w[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 |
		       (uint32_t)buf[4 * i + 2] << 16 | (uint32_t)buf[4 * i + 3] << 24;
	free(buf);
	*count = len / 4;
	return w;
}

struct ttx_program *cli_load_program(const char *path, unsigned thread, FILE *err)
{
	size_t len;
	if (cli_is_bin(path)) {
		size_t n;
		uint32_t *w = read_words(path, &n, err);
		if (!w)
			return NULL;
		struct ttx_program *p = ttx_program_from_words(w, n, thread);
		free(w);
		if (!p)
			fprintf(err, "ttx: out of memory\n");
		return p;
	}
	char *text = read_file(path, &len, err, MAX_PROGRAM_BYTES);
	if (!text)
		return NULL;
	struct ttx_program *p;
	char msg[512];
	if (ttx_program_parse(text, len, strcmp(path, "-") ? path : "<stdin>", &p, msg, sizeof(msg)) != TTX_OK) {
		fprintf(err, "%s\n", msg);
		p = NULL;
	}
	free(text);
	return p;
}

int cmd_asm(const struct cli_io *io, int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	int c;
	while ((c = cli_next(&scan, asm_options)) != CLI_END) {
		if (c == 'o')
			out = scan.arg;
		else if (c == CLI_BAD)
			return cli_bad_option(io->err, "asm", &scan);
		else if (in)
			return usage_error(io->err, "asm: more than one input file ('%s')", scan.arg);
		else
			in = scan.arg;
	}
	if (!in || !out)
		return usage_error(io->err, "asm: usage: ttx asm IN.s -o OUT.bin%s", "");
	struct ttx_program *p = cli_load_program(in, 0, io->err);
	if (!p)
		return EXIT_USAGE;
	size_t n = ttx_program_size(p);
	unsigned char *buf = malloc(n * 4 + 1);
	int rc = 0;
	for (size_t i = 0; i < n && buf; i++) {
		const struct ttx_item *it = ttx_program_item(p, i);
		if (it->kind != TTX_ITEM_INSN || it->thread != 0) {
			fprintf(io->err, "%s:%u: %s cannot be stored in a .bin file (words for thread 0 only); "
			        "run the text with 'ttx run'\n", in, it->line,
			        it->kind == TTX_ITEM_MMIO ? ".mmio" : "an instruction for another thread");
			rc = EXIT_USAGE;
			break;
		}
		for (int b = 0; b < 4; b++)
			buf[4 * i + (size_t)b] = (unsigned char)(it->word >> (8 * b));
	}
	if (!buf) {
		fprintf(io->err, "ttx: out of memory\n");
		rc = EXIT_USAGE;
	}
	struct output o;
	if (!rc && output_open(&o, out, io->out, io->err) == 0) {
		output_write(&o, buf, n * 4);
		rc = output_commit(&o, io->err) ? EXIT_USAGE : 0;
	} else if (!rc) {
		rc = EXIT_USAGE;
	}
	free(buf);
	ttx_program_free(p);
	return rc;
}

int cmd_disasm(const struct cli_io *io, int argc, char **argv)
{
	const char *in = NULL;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	int c;
	while ((c = cli_next(&scan, disasm_options)) != CLI_END) {
		if (c == CLI_BAD)
			return cli_bad_option(io->err, "disasm", &scan);
		if (in)
			return usage_error(io->err, "disasm: more than one input file ('%s')", scan.arg);
		in = scan.arg;
	}
	if (!in)
		return usage_error(io->err, "disasm: usage: ttx disasm IN.bin%s", "");
	size_t n;
	uint32_t *w = read_words(in, &n, io->err);
	if (!w)
		return EXIT_USAGE;
	for (size_t i = 0; i < n; i++) {
		char line[256];
		if (ttx_disasm(w[i], line, sizeof(line)))
			fprintf(io->err, "%s: warning: word %zu (0x%08X) is not a known instruction encoding\n", in, i, w[i]);
		fprintf(io->out, "%s\n", line);
	}
	free(w);
	return finish_output(io->out, "standard output", io->err) ? EXIT_USAGE : 0;
}
