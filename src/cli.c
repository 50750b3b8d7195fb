/* ttx: command-line front end of libttx.  The interface is a contract other
 * tools rely on (README.md): keep commands, options, file formats and exit
 * codes stable.  Exit codes: 0 success, 1 emulated fault, 2 usage or input. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
	"usage: ttx asm IN.s -o OUT.bin\n"
	"       ttx disasm IN.bin\n"
	"       ttx run PROGRAM [options]\n"
	"       ttx op NAME --in A.npy [--in B.npy ...] --out C.npy [options]\n"
	"       ttx op --list\n"
	"       ttx demo [options]\n"
	"       ttx --help | --version\n"
	"\n"
	"run options:\n"
	"  --thread N            thread (0-2) that a .bin PROGRAM is pushed to (default 0)\n"
	"  --dst-in F            load Dst from F: 512x16 FP32 values, little-endian (32 KiB)\n"
	"  --dst-out F           write Dst the same way after the run\n"
	"  --dst16-out F         write the raw 1024x16 16-bit Dst storage (32 KiB)\n"
	"  --lreg-out F          write LReg 0-7 x 32 lanes x 32 bits (1 KiB)\n"
	"  --l1-in ADDR:F        load file F into L1 at ADDR (repeatable)\n"
	"  --l1-out ADDR:LEN:F   write LEN bytes of L1 from ADDR to F (repeatable)\n"
	"  --engine E            interp, jit or auto (default auto): jit compiles every SFPU\n"
	"                        block, auto those seen twice, interp none\n"
	"  --numerics N          exact (default: Wormhole MAD bit for bit) or fast (IEEE fma,\n"
	"                        flush-to-zero; not bit-exact)\n"
	"  --max-insns N         stop after N instructions (exit 1 if work is left)\n"
	"  --strict              report undefined behaviour as a fault, hazards as warnings\n"
	"  --stats               print execution statistics to stderr\n"
	"  --trace F             write every executed instruction to F ('-' = stdout)\n"
	"\n"
	"PROGRAM: *.bin = raw little-endian 32-bit words; anything else = assembler text.\n"
	"\n"
	"op options (docs/ops.md):\n"
	"  --in F.npy            an input (float32, float16, float64, int8/16/32, uint8; 1-D,\n"
	"                        2-D, or 3-D with a leading batch dimension; repeatable)\n"
	"  --out F.npy           the result, float32\n"
	"  --format F            L1 format of the inputs: bf16 (default), fp16, fp32, bfp8, ...\n"
	"  --out-format F        L1 format the tile writes the result in (default fp32)\n"
	"  --fidelity F          lofi, hifi2, hifi3 or hifi4 (default): matmul's phases\n"
	"  --dim D               rows (default), cols or all: reduce_sum, reduce_max\n"
	"  --param X             the op's parameter (ttx op --list)\n"
	"  --engine, --numerics  as for run; --stats as for run, summed over the op's kernels\n"
	"  --progress            a progress line on stderr\n"
	"\n"
	"demo options: --engine E (default: both, side by side), --size M,K,N, --quick\n";

int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ttx: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'ttx --help'.\n");
	return EXIT_USAGE;
}

/* Read a whole file; NULL with a message on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ttx: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (n < cap)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else {
			buf = nb;
		}
	}
	int err = ferror(f);
	fclose(f);
	if (!buf || err) {
		fprintf(stderr, "ttx: %s: %s\n", path, buf ? "read error" : "out of memory");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "ttx: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t k = fwrite(data, 1, len, f);
	int bad = k != len || (f == stdout ? fflush(f) : fclose(f)) != 0;
	if (bad)
		fprintf(stderr, "ttx: %s: write error\n", path);
	return bad ? -1 : 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Words of a .bin file (little-endian). */
static uint32_t *read_words(const char *path, size_t *count)
{
	size_t len;
	unsigned char *buf = (unsigned char *)read_file(path, &len);
	if (!buf)
		return NULL;
	if (len % 4) {
		fprintf(stderr, "ttx: %s: size %zu is not a multiple of 4 (truncated instruction word)\n", path, len);
		free(buf);
		return NULL;
	}
	uint32_t *w = malloc((len / 4 + 1) * sizeof(*w));
	if (!w) {
		fprintf(stderr, "ttx: %s: out of memory\n", path);
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

static struct ttx_program *load_program(const char *path, unsigned thread)
{
	size_t len;
	if (has_suffix(path, ".bin")) {
		size_t n;
		uint32_t *w = read_words(path, &n);
		if (!w)
			return NULL;
		struct ttx_program *p = ttx_program_from_words(w, n, thread);
		free(w);
		if (!p)
			fprintf(stderr, "ttx: out of memory\n");
		return p;
	}
	char *text = read_file(path, &len);
	if (!text)
		return NULL;
	struct ttx_program *p;
	char err[512];
	if (ttx_program_parse(text, len, path, &p, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "%s\n", err);
		p = NULL;
	}
	free(text);
	return p;
}

static int cmd_asm(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (++i == argc)
				return usage_error("asm: -o needs a file name%s", "");
			out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("asm: unknown option '%s'", argv[i]);
		} else if (in) {
			return usage_error("asm: more than one input file ('%s')", argv[i]);
		} else {
			in = argv[i];
		}
	}
	if (!in || !out)
		return usage_error("asm: usage: ttx asm IN.s -o OUT.bin%s", "");
	struct ttx_program *p = load_program(in, 0);
	if (!p)
		return EXIT_USAGE;
	size_t n = ttx_program_size(p);
	unsigned char *buf = malloc(n * 4 + 1);
	int rc = 0;
	for (size_t i = 0; i < n && buf; i++) {
		const struct ttx_item *it = ttx_program_item(p, i);
		if (it->kind != TTX_ITEM_INSN || it->thread != 0) {
			fprintf(stderr, "%s:%u: %s cannot be stored in a .bin file (words for thread 0 only); "
			        "run the text with 'ttx run'\n", in, it->line,
			        it->kind == TTX_ITEM_MMIO ? ".mmio" : "an instruction for another thread");
			rc = EXIT_USAGE;
			break;
		}
		for (int b = 0; b < 4; b++)
			buf[4 * i + (size_t)b] = (unsigned char)(it->word >> (8 * b));
	}
	if (!buf) {
		fprintf(stderr, "ttx: out of memory\n");
		rc = EXIT_USAGE;
	}
	if (!rc && write_file(out, buf, n * 4))
		rc = EXIT_USAGE;
	free(buf);
	ttx_program_free(p);
	return rc;
}

static int cmd_disasm(int argc, char **argv)
{
	if (argc != 1 || (argv[0][0] == '-' && argv[0][1]))
		return usage_error("disasm: usage: ttx disasm IN.bin%s", "");
	size_t n;
	uint32_t *w = read_words(argv[0], &n);
	if (!w)
		return EXIT_USAGE;
	for (size_t i = 0; i < n; i++) {
		char line[256];
		if (ttx_disasm(w[i], line, sizeof(line)))
			fprintf(stderr, "%s: warning: word %zu (0x%08X) is not a known instruction encoding\n",
			        argv[0], i, w[i]);
		printf("%s\n", line);
	}
	free(w);
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

struct l1_io { uint32_t addr, len; const char *path; };

/* "ADDR:F" or "ADDR:LEN:F" */
static int parse_l1_spec(const char *spec, int with_len, struct l1_io *io)
{
	char buf[4096];
	if (strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	char *c1 = strchr(buf, ':');
	if (!c1)
		return -1;
	*c1 = '\0';
	uint64_t a, l = 0;
	if (parse_u64(buf, &a) || a > 0xFFFFFFFFu)
		return -1;
	char *rest = c1 + 1;
	if (with_len) {
		char *c2 = strchr(rest, ':');
		if (!c2)
			return -1;
		*c2 = '\0';
		if (parse_u64(rest, &l) || l > 0xFFFFFFFFu)
			return -1;
		rest = c2 + 1;
	}
	if (!*rest)
		return -1;
	io->addr = (uint32_t)a;
	io->len = (uint32_t)l;
	io->path = spec + (rest - buf);
	return 0;
}

static void trace_line(void *ctx, unsigned thread, uint32_t word)
{
	char line[256];
	ttx_disasm(word, line, sizeof(line));
	fprintf((FILE *)ctx, "T%u %08X  %s\n", thread, word, line);
}

void warn_line(void *ctx, const char *message)
{
	(void)ctx;
	fprintf(stderr, "ttx: warning: %s\n", message);
}

int parse_engine(const char *s, enum ttx_engine *out)
{
	static const char *const names[] = { "interp", "jit", "auto" };
	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum ttx_engine)i;
			return 0;
		}
	return -1;
}

int parse_numerics(const char *s, enum ttx_numerics *out)
{
	if (strcmp(s, "exact") == 0 || strcmp(s, "fast") == 0) {
		*out = s[0] == 'e' ? TTX_NUMERICS_EXACT : TTX_NUMERICS_FAST;
		return 0;
	}
	return -1;
}

void print_stats(const struct ttx_stats *s)
{
	static const char *const units[] = {
		"frontend", "misc", "matrix", "sfpu", "unpack", "pack", "mover", "scalar", "sync", "config",
	};
	fprintf(stderr, "instructions: %" PRIu64 " (interp %" PRIu64 ", jit %" PRIu64 ")\n",
	        s->insns, s->insns_interp, s->insns_jit);
	fprintf(stderr, "by thread:");
	for (int i = 0; i < TTX_THREADS; i++)
		fprintf(stderr, " T%d %" PRIu64, i, s->insns_by_thread[i]);
	fprintf(stderr, "\nby unit:");
	for (int i = 0; i < 10; i++)
		if (s->insns_by_unit[i])
			fprintf(stderr, " %s %" PRIu64, units[i], s->insns_by_unit[i]);
	/* the most frequent instructions, most first */
	fprintf(stderr, "\nby instruction:");
	unsigned shown[12];
	for (int k = 0; k < 12; k++) {
		int best = -1;
		for (unsigned op = 0; op < 256; op++) {
			int seen = 0;
			for (int j = 0; j < k; j++)
				seen |= shown[j] == op;
			if (!seen && s->insns_by_opcode[op] && (best < 0 || s->insns_by_opcode[op] > s->insns_by_opcode[best]))
				best = (int)op;
		}
		if (best < 0)
			break;
		shown[k] = (unsigned)best;
		fprintf(stderr, " %s %" PRIu64, ttx_opcode_name((unsigned)best), s->insns_by_opcode[best]);
	}
	if (s->insns_jit)
		fprintf(stderr, "\njit: %.1f%% of instructions in compiled blocks (%.1f%% native), "
		        "%" PRIu64 " blocks compiled in %.3f s (median %.2f ms)",
		        100.0 * (double)s->insns_jit / (double)s->insns,
		        100.0 * (double)(s->insns_jit - s->insns_jit_fallback) / (double)s->insns,
		        s->jit_blocks_compiled, s->jit_compile_seconds, s->jit_compile_median_seconds * 1e3);
	fprintf(stderr, "\nwall time: %.6f s\n", s->wall_seconds);
	if (s->wall_seconds > 0)
		fprintf(stderr, "emulated instructions/s: %.0f\n", (double)s->insns / s->wall_seconds);
}

enum {
	OPT_THREAD = 256, OPT_DST_IN, OPT_DST_OUT, OPT_DST16_OUT, OPT_LREG_OUT, OPT_L1_IN, OPT_L1_OUT,
	OPT_ENGINE, OPT_NUMERICS, OPT_MAX_INSNS, OPT_STATS, OPT_TRACE, OPT_STRICT,
};

#define MAX_L1_IO 64

static int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "thread", required_argument, NULL, OPT_THREAD },
		{ "dst-in", required_argument, NULL, OPT_DST_IN },
		{ "dst-out", required_argument, NULL, OPT_DST_OUT },
		{ "dst16-out", required_argument, NULL, OPT_DST16_OUT },
		{ "lreg-out", required_argument, NULL, OPT_LREG_OUT },
		{ "l1-in", required_argument, NULL, OPT_L1_IN },
		{ "l1-out", required_argument, NULL, OPT_L1_OUT },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "numerics", required_argument, NULL, OPT_NUMERICS },
		{ "max-insns", required_argument, NULL, OPT_MAX_INSNS },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ NULL, 0, NULL, 0 },
	};
	const char *dst_in = NULL, *dst_out = NULL, *dst16_out = NULL, *lreg_out = NULL, *trace = NULL;
	struct l1_io l1_in[MAX_L1_IO], l1_out[MAX_L1_IO];
	int n_in = 0, n_out = 0, stats = 0;
	uint64_t thread = 0, max_insns = 0;
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .warn = warn_line };
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_THREAD:
			if (parse_u64(optarg, &thread) || thread >= TTX_THREADS)
				return usage_error("--thread '%s': threads are 0, 1 and 2", optarg);
			break;
		case OPT_DST_IN: dst_in = optarg; break;
		case OPT_DST_OUT: dst_out = optarg; break;
		case OPT_DST16_OUT: dst16_out = optarg; break;
		case OPT_LREG_OUT: lreg_out = optarg; break;
		case OPT_TRACE: trace = optarg; break;
		case OPT_STATS: stats = 1; break;
		case OPT_STRICT: opt.strict = 1; break;
		case OPT_L1_IN:
			if (n_in == MAX_L1_IO || parse_l1_spec(optarg, 0, &l1_in[n_in]))
				return usage_error("--l1-in '%s': expected ADDR:FILE", optarg);
			n_in++;
			break;
		case OPT_L1_OUT:
			if (n_out == MAX_L1_IO || parse_l1_spec(optarg, 1, &l1_out[n_out]))
				return usage_error("--l1-out '%s': expected ADDR:LEN:FILE", optarg);
			n_out++;
			break;
		case OPT_ENGINE:
			if (parse_engine(optarg, &opt.engine))
				return usage_error("--engine '%s': expected interp, jit or auto", optarg);
			break;
		case OPT_NUMERICS:
			if (parse_numerics(optarg, &opt.numerics))
				return usage_error("--numerics '%s': expected exact or fast", optarg);
			break;
		case OPT_MAX_INSNS:
			if (parse_u64(optarg, &max_insns) || max_insns == 0)
				return usage_error("--max-insns '%s': expected a positive number", optarg);
			break;
		default:
			return usage_error("run: unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error("run: expected exactly one PROGRAM%s", "");
	if (opt.engine == TTX_ENGINE_JIT && !ttx_jit_available())
		return usage_error("--engine jit: %s", "this build has no JIT compiler (configured with "
		                   "--disable-jit); use --engine interp or auto");
	if (opt.engine == TTX_ENGINE_JIT && (opt.strict || trace))
		return usage_error("--engine jit: %s", "--strict and --trace need the interpreter's "
		                   "instruction-by-instruction view; use --engine interp or auto");
	const char *path = argv[optind];

	FILE *trace_file = NULL;
	if (trace) {
		trace_file = strcmp(trace, "-") == 0 ? stdout : fopen(trace, "w");
		if (!trace_file) {
			fprintf(stderr, "ttx: %s: %s\n", trace, strerror(errno));
			return EXIT_USAGE;
		}
		opt.trace = trace_line;
		opt.trace_ctx = trace_file;
	}

	int rc = EXIT_USAGE;
	struct ttx_program *prog = load_program(path, (unsigned)thread);
	struct ttx_tile *t = prog ? ttx_tile_new(&opt) : NULL;
	if (prog && !t)
		fprintf(stderr, "ttx: out of memory creating the tile\n");
	if (!t)
		goto done;
	if (dst_in) {
		size_t len;
		char *d = read_file(dst_in, &len);
		if (!d)
			goto done;
		if (len != TTX_DST_ROWS32 * TTX_COLS * 4) {
			fprintf(stderr, "ttx: %s: size %zu, expected %d bytes (512 x 16 x 32-bit)\n",
			        dst_in, len, TTX_DST_ROWS32 * TTX_COLS * 4);
			free(d);
			goto done;
		}
		static uint32_t dst[TTX_DST_ROWS32][TTX_COLS];
		const unsigned char *b = (const unsigned char *)d;
		for (size_t i = 0; i < TTX_DST_ROWS32 * TTX_COLS; i++)
			dst[i / TTX_COLS][i % TTX_COLS] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
			                                  (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
		ttx_dst32_write(t, dst);
		free(d);
	}
	for (int i = 0; i < n_in; i++) {
		size_t len;
		char *d = read_file(l1_in[i].path, &len);
		if (!d)
			goto done;
		enum ttx_status st = ttx_l1_write(t, l1_in[i].addr, d, len);
		free(d);
		if (st != TTX_OK) {
			fprintf(stderr, "ttx: --l1-in %s: %s\n", l1_in[i].path, ttx_tile_error(t));
			goto done;
		}
	}

	enum ttx_status st = ttx_program_run(t, prog, max_insns);
	if (st == TTX_OK) {
		rc = 0;
	} else {
		fprintf(stderr, "ttx: %s: %s\n", path, ttx_tile_error(t));
		rc = st == TTX_EINVAL ? EXIT_USAGE : EXIT_FAULT;
	}
	if (stats) {
		struct ttx_stats s;
		ttx_stats_get(t, &s);
		print_stats(&s);
	}

	/* Outputs are written after faults too: they show the state at the stop. */
	if (dst_out) {
		static uint32_t dst[TTX_DST_ROWS32][TTX_COLS];
		static unsigned char b[TTX_DST_ROWS32 * TTX_COLS * 4];
		ttx_dst32_read(t, dst);
		for (size_t i = 0; i < TTX_DST_ROWS32 * TTX_COLS; i++)
			for (int k = 0; k < 4; k++)
				b[4 * i + (size_t)k] = (unsigned char)(dst[i / TTX_COLS][i % TTX_COLS] >> (8 * k));
		if (write_file(dst_out, b, sizeof(b)))
			rc = EXIT_USAGE;
	}
	if (dst16_out) {
		static uint16_t dst[TTX_DST_ROWS16][TTX_COLS];
		static unsigned char b[TTX_DST_ROWS16 * TTX_COLS * 2];
		ttx_dst16_read(t, dst);
		for (size_t i = 0; i < TTX_DST_ROWS16 * TTX_COLS; i++) {
			b[2 * i] = (unsigned char)dst[i / TTX_COLS][i % TTX_COLS];
			b[2 * i + 1] = (unsigned char)(dst[i / TTX_COLS][i % TTX_COLS] >> 8);
		}
		if (write_file(dst16_out, b, sizeof(b)))
			rc = EXIT_USAGE;
	}
	if (lreg_out) {
		unsigned char b[8 * TTX_LANES * 4];
		for (unsigned r = 0; r < 8; r++) {
			uint32_t lanes[TTX_LANES];
			ttx_lreg_read(t, r, lanes);
			for (unsigned l = 0; l < TTX_LANES; l++)
				for (int k = 0; k < 4; k++)
					b[(r * TTX_LANES + l) * 4 + (unsigned)k] = (unsigned char)(lanes[l] >> (8 * k));
		}
		if (write_file(lreg_out, b, sizeof(b)))
			rc = EXIT_USAGE;
	}
	for (int i = 0; i < n_out; i++) {
		unsigned char *b = malloc(l1_out[i].len ? l1_out[i].len : 1);
		if (!b) {
			fprintf(stderr, "ttx: out of memory\n");
			rc = EXIT_USAGE;
			break;
		}
		if (ttx_l1_read(t, l1_out[i].addr, b, l1_out[i].len) != TTX_OK) {
			fprintf(stderr, "ttx: --l1-out %s: %s\n", l1_out[i].path, ttx_tile_error(t));
			rc = EXIT_USAGE;
		} else if (write_file(l1_out[i].path, b, l1_out[i].len)) {
			rc = EXIT_USAGE;
		}
		free(b);
	}
done:
	if (trace_file && trace_file != stdout)
		fclose(trace_file);
	ttx_tile_destroy(t);
	ttx_program_free(prog);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("missing command (asm, disasm, run, op or demo)%s", "");
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("ttx %s (%s)\n", ttx_version(), ttx_jit_available() ? "LLVM JIT" : "interpreter only");
		return 0;
	}
	if (strcmp(cmd, "asm") == 0)
		return cmd_asm(argc - 2, argv + 2);
	if (strcmp(cmd, "disasm") == 0)
		return cmd_disasm(argc - 2, argv + 2);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "op") == 0)
		return cmd_op(argc - 1, argv + 1);
	if (strcmp(cmd, "demo") == 0)
		return cmd_demo(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (asm, disasm, run, op or demo)", cmd);
}
