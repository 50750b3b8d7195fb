/* ttx: command-line front end of libttx.  The interface is a contract other
 * tools rely on (README.md): keep commands, options, file formats and exit
 * codes stable.  Exit codes: 0 success, 1 emulated fault, 2 usage or input. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* The expanders' opcodes (src/isa.def), counted apart by --stats. */
enum { TTX_OPCODE_MOP = 0x01, TTX_OPCODE_MOP_CFG = 0x03, TTX_OPCODE_REPLAY = 0x04 };

static const char usage_text[] =
	"usage: ttx asm IN.s -o OUT.bin\n"
	"       ttx disasm IN.bin\n"
	"       ttx run PROGRAM [options]\n"
	"       ttx op NAME --in A.npy [--in B.npy ...] --out C.npy [options]\n"
	"       ttx op --list\n"
	"       ttx batch JOBS [--jobs N] [--progress]\n"
	"       ttx demo [options]\n"
	"       ttx --help | --version\n"
	"\n"
	"run options:\n"
	"  --thread N            thread (0-2) that a .bin PROGRAM is pushed to (default 0; text\n"
	"                        programs choose with .thread)\n"
	"  --dst-in F            load Dst from F: 512x16 FP32 values, little-endian (32 KiB)\n"
	"  --dst-out F           write Dst the same way after the run\n"
	"  --dst16-out F         write the raw 1024x16 16-bit Dst storage (32 KiB)\n"
	"  --lreg-out F          write LReg 0-7 x 32 lanes x 32 bits (1 KiB)\n"
	"  --l1-in ADDR:F        load file F into L1 at ADDR (repeatable; they may not overlap)\n"
	"  --l1-out ADDR:LEN:F   write LEN bytes of L1 from ADDR to F (repeatable)\n"
	"  --engine E            interp, jit or auto (default auto): jit compiles every SFPU\n"
	"                        block, auto those seen twice, interp none\n"
	"  --numerics N          exact (default: Wormhole MAD bit for bit) or fast (IEEE fma,\n"
	"                        flush-to-zero; not bit-exact)\n"
	"  --max-insns N         stop after N instructions (exit 1 if work is left)\n"
	"  --strict              report undefined behaviour as a fault, hazards as warnings\n"
	"  --stats               print execution statistics to stderr, with the cycle model's\n"
	"                        device cycles, unit utilisation and stalls (docs/timing.md)\n"
	"  --clock-ghz X         device clock for the estimated time (default 1.0)\n"
	"  --perfetto F          write a Chrome/Perfetto trace of the cycle model to F (JSON)\n"
	"  --trace F             write every executed instruction to F ('-' = stdout)\n"
	"\n"
	"PROGRAM: *.bin (or .BIN) = raw little-endian 32-bit words (at most 16 Mi); anything else\n"
	"= assembler text; '-' = assembler text from standard input.  Numbers in options are\n"
	"decimal or 0x-hexadecimal.  Every output's writes are checked (exit 2 on an error).\n"
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
	"batch: each line of JOBS (blank and #-lines aside) is the arguments of one 'run ...' or\n"
	"'op ...' command, split as a shell would; the jobs run on N threads (default: every\n"
	"core), their output follows in file order, messages as JOBS:LINE: ...; exit 1 if any\n"
	"job failed or a line is malformed.  --progress: a progress line even when stderr is\n"
	"not a terminal.\n"
	"\n"
	"demo options: --engine E (default: both, side by side), --size M,K,N, --quick\n";

int usage_error(FILE *err, const char *fmt, const char *arg)
{
	fprintf(err, "ttx: ");
	fprintf(err, fmt, arg);
	fprintf(err, "\nTry 'ttx --help'.\n");
	return EXIT_USAGE;
}

/* Read a whole file; NULL with a message on failure. */
/* Read a whole file ("-": standard input) of at most max bytes (what is
   larger is refused as soon as it is seen: /dev/zero ends); NULL with a
   message on failure. */
static char *read_file(const char *path, size_t *len, FILE *err, size_t max)
{
	int is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(err, "ttx: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	while (buf && n <= max) {
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
	int bad = ferror(f);
	if (!is_stdin)
		fclose(f);
	if (!buf || bad || n > max) {
		if (buf && !bad)
			fprintf(err, "ttx: %s: larger than %zu bytes, the most it can hold\n", path, max);
		else
			fprintf(err, "ttx: %s: %s\n", path, buf ? "read error" : "out of memory");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A program file's largest size: 16 Mi instruction words (text: the same
   number of bytes, 64 MiB). */
#define MAX_PROGRAM_BYTES (64u << 20)

/* The final flush of an output, with its error: 0, or -1 after a message. */
static int finish_output(FILE *f, const char *what, FILE *err)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	fprintf(err, "ttx: %s: write error: %s\n", what, strerror(errno ? errno : EIO));
	return -1;
}

static int write_file(const struct cli_io *io, const char *path, const void *data, size_t len)
{
	FILE *f = strcmp(path, "-") == 0 ? io->out : fopen(path, "wb");
	if (!f) {
		fprintf(io->err, "ttx: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t k = fwrite(data, 1, len, f);
	int bad = k != len || (f == io->out ? fflush(f) : fclose(f)) != 0;
	if (bad)
		fprintf(io->err, "ttx: %s: write error\n", path);
	return bad ? -1 : 0;
}

/* .bin or .BIN (any case: a file system or a tool that upper-cases names
   keeps it words) */
static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcasecmp(s + n - m, suffix) == 0;
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

static struct ttx_program *load_program(const char *path, unsigned thread, FILE *err)
{
	size_t len;
	if (has_suffix(path, ".bin")) {
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

static int cmd_asm(const struct cli_io *io, int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (++i == argc)
				return usage_error(io->err, "asm: -o needs a file name%s", "");
			out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error(io->err, "asm: unknown option '%s'", argv[i]);
		} else if (in) {
			return usage_error(io->err, "asm: more than one input file ('%s')", argv[i]);
		} else {
			in = argv[i];
		}
	}
	if (!in || !out)
		return usage_error(io->err, "asm: usage: ttx asm IN.s -o OUT.bin%s", "");
	struct ttx_program *p = load_program(in, 0, io->err);
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
	if (!rc && write_file(io, out, buf, n * 4))
		rc = EXIT_USAGE;
	free(buf);
	ttx_program_free(p);
	return rc;
}

static int cmd_disasm(const struct cli_io *io, int argc, char **argv)
{
	if (argc != 1 || (argv[0][0] == '-' && argv[0][1]))
		return usage_error(io->err, "disasm: usage: ttx disasm IN.bin%s", "");
	size_t n;
	uint32_t *w = read_words(argv[0], &n, io->err);
	if (!w)
		return EXIT_USAGE;
	for (size_t i = 0; i < n; i++) {
		char line[256];
		if (ttx_disasm(w[i], line, sizeof(line)))
			fprintf(io->err, "%s: warning: word %zu (0x%08X) is not a known instruction encoding\n",
			        argv[0], i, w[i]);
		fprintf(io->out, "%s\n", line);
	}
	free(w);
	return finish_output(io->out, "standard output", io->err) ? EXIT_USAGE : 0;
}

/* Decimal or 0x-hexadecimal, nothing else: no blanks, signs or octal
   ("010" is ten). */
static int parse_u64(const char *s, uint64_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	if (!*digits || strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") != strlen(digits))
		return -1;
	errno = 0;
	char *end;
	unsigned long long x = strtoull(digits, &end, hex ? 16 : 10);
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
	fprintf((FILE *)ctx, "ttx: warning: %s\n", message);
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

/* --stats.  "instructions" are those the units executed (a MOP's or a
   replay's expansion included); the MOP, MOP_CFG and REPLAY words the
   expanders consume are counted apart, so that the total, the sum by
   thread and the sum by unit agree. */
void print_stats(FILE *f, const struct ttx_stats *s)
{
	fprintf(f, "instructions: %" PRIu64 " (interp %" PRIu64 ", jit %" PRIu64 ")\n",
	        s->insns, s->insns_interp, s->insns_jit);
	fprintf(f, "by thread:");
	for (int i = 0; i < TTX_THREADS; i++)
		fprintf(f, " T%d %" PRIu64, i, s->insns_by_thread[i]);
	fprintf(f, "\nby unit:");
	for (int i = TTX_UNIT_MISC; i < TTX_UNIT_COUNT; i++)   /* the front end: the expander words below */
		if (s->insns_by_unit[i])
			fprintf(f, " %s %" PRIu64, ttx_unit_name((enum ttx_unit)i), s->insns_by_unit[i]);
	/* the most frequent instructions, most first */
	fprintf(f, "\nby instruction:");
	unsigned shown[12];
	for (int k = 0; k < 12; k++) {
		int best = -1;
		for (unsigned op = 0; op < 256; op++) {
			int seen = 0;
			for (int j = 0; j < k; j++)
				seen |= shown[j] == op;
			if (!seen && s->insns_by_opcode[op] && op != TTX_OPCODE_MOP && op != TTX_OPCODE_MOP_CFG &&
			    op != TTX_OPCODE_REPLAY && (best < 0 || s->insns_by_opcode[op] > s->insns_by_opcode[best]))
				best = (int)op;
		}
		if (best < 0)
			break;
		shown[k] = (unsigned)best;
		fprintf(f, " %s %" PRIu64, ttx_opcode_name((unsigned)best), s->insns_by_opcode[best]);
	}
	if (s->insns_by_unit[TTX_UNIT_FRONTEND])
		fprintf(f, "\nexpander words (not in the counts above): MOP %" PRIu64 ", MOP_CFG %" PRIu64 ", REPLAY %" PRIu64,
		        s->insns_by_opcode[TTX_OPCODE_MOP], s->insns_by_opcode[TTX_OPCODE_MOP_CFG],
		        s->insns_by_opcode[TTX_OPCODE_REPLAY]);
	if (s->insns_jit)
		fprintf(f, "\njit: %.1f%% of instructions in compiled blocks (%.1f%% native), "
		        "%" PRIu64 " blocks compiled in %.3f s (median %.2f ms)",
		        100.0 * (double)s->insns_jit / (double)s->insns,
		        100.0 * (double)(s->insns_jit - s->insns_jit_fallback) / (double)s->insns,
		        s->jit_blocks_compiled, s->jit_compile_seconds, s->jit_compile_median_seconds * 1e3);
	fprintf(f, "\nwall time: %.6f s\n", s->wall_seconds);
	if (s->wall_seconds > 0)
		fprintf(f, "emulated instructions/s: %.0f\n", (double)s->insns / s->wall_seconds);
}

/* The cycle model's lines of --stats (docs/timing.md). */
void print_cycles(FILE *f, const struct ttx_cycles *c, double clock_ghz)
{
	static const enum ttx_unit shown[] = { TTX_UNIT_MATRIX, TTX_UNIT_SFPU, TTX_UNIT_UNPACK, TTX_UNIT_PACK,
	                                       TTX_UNIT_MOVER, TTX_UNIT_SCALAR, TTX_UNIT_SYNC, TTX_UNIT_CONFIG };
	double cycles = (double)c->device_cycles;
	fprintf(f, "device cycles: %" PRIu64 "\n", c->device_cycles);
	fprintf(f, "estimated device time: %.3f us at %.2f GHz\n", cycles / (clock_ghz * 1e3), clock_ghz);
	fprintf(f, "busy cycles by unit:");
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(f, " %s %" PRIu64, ttx_unit_name(shown[i]), c->busy_by_unit[shown[i]]);
	fprintf(f, "\nutilisation:");
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(f, " %s %.1f%%", ttx_unit_name(shown[i]),
		        cycles > 0 ? 100.0 * (double)c->busy_by_unit[shown[i]] / cycles : 0.0);
	fprintf(f, "\n");
	for (unsigned th = 0; th < TTX_THREADS; th++) {
		if (!c->issued[th])
			continue;
		uint64_t stalled = 0;
		for (int r = 0; r < TTX_STALL_COUNT; r++)
			stalled += c->stalled[th][r];
		fprintf(f, "thread T%u: %" PRIu64 " issued, busy %" PRIu64 ", stalled %" PRIu64, th, c->issued[th],
		        c->busy[th], stalled);
		/* the top stall reasons, most first; unit stalls by unit */
		uint64_t amount[TTX_STALL_COUNT + TTX_UNIT_COUNT];
		for (int r = 0; r < TTX_STALL_COUNT; r++)
			amount[r] = r == TTX_STALL_UNIT ? 0 : c->stalled[th][r];
		for (int u = 0; u < TTX_UNIT_COUNT; u++)
			amount[TTX_STALL_COUNT + u] = c->stalled_on_unit[th][u];
		const char *sep = " (";
		for (int k = 0; k < 3; k++) {
			int best = -1;
			for (int r = 0; r < TTX_STALL_COUNT + TTX_UNIT_COUNT; r++)
				if (amount[r] && (best < 0 || amount[r] > amount[best]))
					best = r;
			if (best < 0)
				break;
			if (best < TTX_STALL_COUNT)
				fprintf(f, "%s%s %" PRIu64, sep, ttx_stall_name((enum ttx_stall)best), amount[best]);
			else
				fprintf(f, "%s%s busy %" PRIu64, sep, ttx_unit_name((enum ttx_unit)(best - TTX_STALL_COUNT)),
				        amount[best]);
			amount[best] = 0;
			sep = ", ";
		}
		fprintf(f, "%s\n", sep[0] == ',' ? ")" : "");
	}
	fprintf(f, "MACs/cycle: %.1f of %d (%.1f%%)\n", cycles > 0 ? (double)c->macs / cycles : 0.0,
	        TTX_PEAK_MACS_PER_CYCLE,
	        cycles > 0 ? 100.0 * (double)c->macs / cycles / TTX_PEAK_MACS_PER_CYCLE : 0.0);
	enum ttx_unit top = ttx_cycles_bottleneck(c);
	if (top != TTX_UNIT_COUNT)
		fprintf(f, "bottleneck: %s (busy %.1f%% of the device cycles)\n", ttx_unit_name(top),
		        100.0 * (double)c->busy_by_unit[top] / cycles);
}

/* --clock-ghz: a positive number of GHz. */
int parse_clock(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v > 0) || v > 100)
		return -1;
	*out = v;
	return 0;
}

enum {
	OPT_THREAD = 256, OPT_DST_IN, OPT_DST_OUT, OPT_DST16_OUT, OPT_LREG_OUT, OPT_L1_IN, OPT_L1_OUT,
	OPT_ENGINE, OPT_NUMERICS, OPT_MAX_INSNS, OPT_STATS, OPT_TRACE, OPT_STRICT, OPT_CLOCK, OPT_PERFETTO,
};

#define MAX_L1_IO 64

int cmd_run(const struct cli_io *io, int argc, char **argv)
{
	static const struct cli_opt longopts[] = {
		{ "thread", 1, OPT_THREAD },
		{ "dst-in", 1, OPT_DST_IN },
		{ "dst-out", 1, OPT_DST_OUT },
		{ "dst16-out", 1, OPT_DST16_OUT },
		{ "lreg-out", 1, OPT_LREG_OUT },
		{ "l1-in", 1, OPT_L1_IN },
		{ "l1-out", 1, OPT_L1_OUT },
		{ "engine", 1, OPT_ENGINE },
		{ "numerics", 1, OPT_NUMERICS },
		{ "max-insns", 1, OPT_MAX_INSNS },
		{ "stats", 0, OPT_STATS },
		{ "trace", 1, OPT_TRACE },
		{ "strict", 0, OPT_STRICT },
		{ "clock-ghz", 1, OPT_CLOCK },
		{ "perfetto", 1, OPT_PERFETTO },
		{ NULL, 0, 0 },
	};
	const char *dst_in = NULL, *dst_out = NULL, *dst16_out = NULL, *lreg_out = NULL, *trace = NULL;
	const char *perfetto = NULL;
	double clock_ghz = 1.0;
	struct perfetto *pf = NULL;
	struct l1_io l1_in[MAX_L1_IO], l1_out[MAX_L1_IO];
	int n_in = 0, n_out = 0, stats = 0, thread_given = 0;
	uint64_t thread = 0, max_insns = 0;
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .warn = warn_line, .warn_ctx = io->err,
	                           .jit_cache = io->jit_cache };
	const char *path = NULL;
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL };
	while ((c = cli_next(&scan, longopts)) != CLI_END) {
		const char *optarg = scan.arg;
		switch (c) {
		case CLI_POSITIONAL:
			if (path)
				return usage_error(io->err, "run: expected exactly one PROGRAM, got '%s' too", optarg);
			path = optarg;
			break;
		case OPT_THREAD:
			if (parse_u64(optarg, &thread) || thread >= TTX_THREADS)
				return usage_error(io->err, "--thread '%s': threads are 0, 1 and 2", optarg);
			thread_given = 1;
			break;
		case OPT_DST_IN: dst_in = optarg; break;
		case OPT_DST_OUT: dst_out = optarg; break;
		case OPT_DST16_OUT: dst16_out = optarg; break;
		case OPT_LREG_OUT: lreg_out = optarg; break;
		case OPT_TRACE: trace = optarg; break;
		case OPT_STATS: stats = 1; break;
		case OPT_STRICT: opt.strict = 1; break;
		case OPT_PERFETTO: perfetto = optarg; break;
		case OPT_CLOCK:
			if (parse_clock(optarg, &clock_ghz))
				return usage_error(io->err, "--clock-ghz '%s': expected a positive number of GHz", optarg);
			break;
		case OPT_L1_IN:
			if (n_in == MAX_L1_IO || parse_l1_spec(optarg, 0, &l1_in[n_in]))
				return usage_error(io->err, "--l1-in '%s': expected ADDR:FILE", optarg);
			n_in++;
			break;
		case OPT_L1_OUT:
			if (n_out == MAX_L1_IO || parse_l1_spec(optarg, 1, &l1_out[n_out]))
				return usage_error(io->err, "--l1-out '%s': expected ADDR:LEN:FILE", optarg);
			n_out++;
			break;
		case OPT_ENGINE:
			if (parse_engine(optarg, &opt.engine))
				return usage_error(io->err, "--engine '%s': expected interp, jit or auto", optarg);
			break;
		case OPT_NUMERICS:
			if (parse_numerics(optarg, &opt.numerics))
				return usage_error(io->err, "--numerics '%s': expected exact or fast", optarg);
			break;
		case OPT_MAX_INSNS:
			if (parse_u64(optarg, &max_insns) || max_insns == 0)
				return usage_error(io->err, "--max-insns '%s': expected a positive number", optarg);
			break;
		default:
			return usage_error(io->err, "run: unknown or incomplete option '%s'", optarg);
		}
	}
	if (!path)
		return usage_error(io->err, "run: expected exactly one PROGRAM%s", "");
	if (opt.engine == TTX_ENGINE_JIT && !ttx_jit_available())
		return usage_error(io->err, "--engine jit: %s", "this build has no JIT compiler (configured with "
		                   "--disable-jit); use --engine interp or auto");
	if (opt.engine == TTX_ENGINE_JIT && (opt.strict || trace))
		return usage_error(io->err, "--engine jit: %s", "--strict and --trace need the interpreter's "
		                   "instruction-by-instruction view; use --engine interp or auto");

	if (trace && perfetto && strcmp(trace, "-") == 0 && strcmp(perfetto, "-") == 0)
		return usage_error(io->err, "--trace - and --perfetto - would both write to standard output%s", "");
	if (thread_given && !has_suffix(path, ".bin"))
		return usage_error(io->err, "--thread applies to a .bin program; in assembler text (%s) .thread "
		                   "chooses the threads", path);
	/* L1 inputs may not overlap: one would silently overwrite the other */
	for (int i = 0; i < n_in; i++)
		for (int k = 0; k < i; k++) {
			struct stat a, b;
			if (stat(l1_in[i].path, &a) || stat(l1_in[k].path, &b))
				continue;   /* reported when read */
			uint64_t ai = l1_in[i].addr, ak = l1_in[k].addr;
			if (ai < ak + (uint64_t)b.st_size && ak < ai + (uint64_t)a.st_size && a.st_size && b.st_size) {
				fprintf(io->err, "ttx: --l1-in %s at 0x%" PRIX64 " overlaps --l1-in %s at 0x%" PRIX64 "\n",
				        l1_in[i].path, ai, l1_in[k].path, ak);
				return EXIT_USAGE;
			}
		}

	int rc = EXIT_USAGE;
	FILE *trace_file = NULL;
	struct ttx_program *prog = load_program(path, (unsigned)thread, io->err);
	/* outputs are created only once the program is accepted */
	if (prog && trace) {
		trace_file = strcmp(trace, "-") == 0 ? io->out : fopen(trace, "w");
		if (!trace_file) {
			fprintf(io->err, "ttx: %s: %s\n", trace, strerror(errno));
			ttx_program_free(prog);
			return EXIT_USAGE;
		}
		opt.trace = trace_line;
		opt.trace_ctx = trace_file;
	}
	opt.timing = stats || perfetto;
	if (prog && perfetto) {
		pf = perfetto_open(perfetto, io->out, io->err);
		if (!pf) {
			ttx_program_free(prog);
			if (trace_file && trace_file != io->out)
				fclose(trace_file);
			return EXIT_USAGE;
		}
		opt.timing_event = perfetto_event;
		opt.timing_ctx = pf;
	}
	struct ttx_tile *t = prog ? ttx_tile_new(&opt) : NULL;
	if (prog && !t)
		fprintf(io->err, "ttx: out of memory creating the tile\n");
	if (!t)
		goto done;
	if (dst_in) {
		size_t len;
		char *d = read_file(dst_in, &len, io->err, TTX_DST_ROWS32 * TTX_COLS * 4);
		if (!d)
			goto done;
		if (len != TTX_DST_ROWS32 * TTX_COLS * 4) {
			fprintf(io->err, "ttx: %s: size %zu, expected %d bytes (512 x 16 x 32-bit)\n",
			        dst_in, len, TTX_DST_ROWS32 * TTX_COLS * 4);
			free(d);
			goto done;
		}
		uint32_t (*dst)[TTX_COLS] = malloc(sizeof(uint32_t[TTX_DST_ROWS32][TTX_COLS]));
		const unsigned char *b = (const unsigned char *)d;
		for (size_t i = 0; dst && i < TTX_DST_ROWS32 * TTX_COLS; i++)
			dst[i / TTX_COLS][i % TTX_COLS] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
			                                  (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
		if (dst)
			ttx_dst32_write(t, &dst[0][0]);
		free(dst);
		free(d);
		if (!dst) {
			fprintf(io->err, "ttx: out of memory\n");
			goto done;
		}
	}
	for (int i = 0; i < n_in; i++) {
		size_t len;
		char *d = read_file(l1_in[i].path, &len, io->err, TTX_L1_SIZE);
		if (!d)
			goto done;
		enum ttx_status st = ttx_l1_write(t, l1_in[i].addr, d, len);
		free(d);
		if (st != TTX_OK) {
			fprintf(io->err, "ttx: --l1-in %s: %s\n", l1_in[i].path, ttx_tile_error(t));
			goto done;
		}
	}

	enum ttx_status st = ttx_program_run(t, prog, max_insns);
	if (st == TTX_OK) {
		rc = 0;
	} else if (st == TTX_LIMIT) {
		fprintf(io->err, "ttx: %s: stopped after %" PRIu64 " instructions (--max-insns), with work left\n", path,
		        max_insns);
		rc = EXIT_FAULT;
	} else {
		fprintf(io->err, "ttx: %s: %s\n", path, ttx_tile_error(t));
		rc = st == TTX_EINVAL ? EXIT_USAGE : EXIT_FAULT;
	}
	/* What ran without fault yet looks unintended: an empty program, a
	   REPLAY recording left open (warnings under --strict, notes in
	   --stats) */
	char notes[2][160];
	int nnotes = 0;
	if (ttx_program_size(prog) == 0)
		snprintf(notes[nnotes++], sizeof(notes[0]), "%s is empty: nothing ran", path);
	for (unsigned th = 0; th < TTX_THREADS && nnotes < 2; th++) {
		struct ttx_thread_state ts;
		ttx_thread_state(t, th, &ts);
		if (ts.recording)
			snprintf(notes[nnotes++], sizeof(notes[0]), "thread %u left a REPLAY recording open (%u more "
			         "instructions to record)", th, ts.recording);
	}
	for (int i = 0; i < nnotes && opt.strict; i++)
		fprintf(io->err, "ttx: warning: %s\n", notes[i]);
	if (stats) {
		struct ttx_stats s;
		ttx_stats_get(t, &s);
		print_stats(io->err, &s);
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		print_cycles(io->err, &cy, clock_ghz);
		for (int i = 0; i < nnotes; i++)
			fprintf(io->err, "note: %s\n", notes[i]);
		if (finish_output(io->err, "--stats", io->err))
			rc = EXIT_USAGE;
	}

	/* Outputs are written after faults too: they show the state at the stop. */
	if (dst_out || dst16_out) {
		/* 32 KiB each, on the heap: commands may run in threads (ttx batch) */
		uint32_t (*d32)[TTX_COLS] = malloc(sizeof(uint32_t[TTX_DST_ROWS32][TTX_COLS]));
		uint16_t (*d16)[TTX_COLS] = malloc(sizeof(uint16_t[TTX_DST_ROWS16][TTX_COLS]));
		unsigned char *b = malloc(TTX_DST_ROWS32 * TTX_COLS * 4);
		if (!d32 || !d16 || !b) {
			fprintf(io->err, "ttx: out of memory\n");
			rc = EXIT_USAGE;
		} else if (dst_out) {
			ttx_dst32_read(t, &d32[0][0]);
			for (size_t i = 0; i < TTX_DST_ROWS32 * TTX_COLS; i++)
				for (int k = 0; k < 4; k++)
					b[4 * i + (size_t)k] = (unsigned char)(d32[i / TTX_COLS][i % TTX_COLS] >> (8 * k));
			if (write_file(io, dst_out, b, TTX_DST_ROWS32 * TTX_COLS * 4))
				rc = EXIT_USAGE;
		}
		if (d16 && b && dst16_out) {
			ttx_dst16_read(t, &d16[0][0]);
			for (size_t i = 0; i < TTX_DST_ROWS16 * TTX_COLS; i++) {
				b[2 * i] = (unsigned char)d16[i / TTX_COLS][i % TTX_COLS];
				b[2 * i + 1] = (unsigned char)(d16[i / TTX_COLS][i % TTX_COLS] >> 8);
			}
			if (write_file(io, dst16_out, b, TTX_DST_ROWS16 * TTX_COLS * 2))
				rc = EXIT_USAGE;
		}
		free(d32), free(d16), free(b);
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
		if (write_file(io, lreg_out, b, sizeof(b)))
			rc = EXIT_USAGE;
	}
	for (int i = 0; i < n_out; i++) {
		unsigned char *b = malloc(l1_out[i].len ? l1_out[i].len : 1);
		if (!b) {
			fprintf(io->err, "ttx: out of memory\n");
			rc = EXIT_USAGE;
			break;
		}
		if (ttx_l1_read(t, l1_out[i].addr, b, l1_out[i].len) != TTX_OK) {
			fprintf(io->err, "ttx: --l1-out %s: %s\n", l1_out[i].path, ttx_tile_error(t));
			rc = EXIT_USAGE;
		} else if (write_file(io, l1_out[i].path, b, l1_out[i].len)) {
			rc = EXIT_USAGE;
		}
		free(b);
	}
done:
	if (trace_file) {
		int bad = finish_output(trace_file, trace, io->err);
		if (trace_file != io->out && fclose(trace_file) != 0 && !bad) {
			fprintf(io->err, "ttx: %s: write error: %s\n", trace, strerror(errno));
			bad = 1;
		}
		if (bad)
			rc = EXIT_USAGE;
	}
	if (pf) {
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		if (perfetto_close(pf, &cy))
			rc = EXIT_USAGE;
	}
	ttx_tile_destroy(t);
	ttx_program_free(prog);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error(stderr, "missing command (asm, disasm, run, op, batch or demo)%s", "");
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("ttx %s (%s)\n", ttx_version(), ttx_jit_available() ? "LLVM JIT" : "interpreter only");
		return 0;
	}
	struct cli_io io = { stderr, stdout, NULL };
	int rc;
	if (strcmp(cmd, "asm") == 0)
		rc = cmd_asm(&io, argc - 2, argv + 2);
	else if (strcmp(cmd, "disasm") == 0)
		rc = cmd_disasm(&io, argc - 2, argv + 2);
	else if (strcmp(cmd, "run") == 0)
		rc = cmd_run(&io, argc - 1, argv + 1);
	else if (strcmp(cmd, "op") == 0)
		rc = cmd_op(&io, argc - 1, argv + 1);
	else if (strcmp(cmd, "demo") == 0)
		rc = cmd_demo(argc - 1, argv + 1);
	else if (strcmp(cmd, "batch") == 0)
		rc = cmd_batch(argc - 1, argv + 1);
	else
		return usage_error(stderr, "unknown command '%s' (asm, disasm, run, op, batch or demo)", cmd);
	/* whatever a command printed must have reached its destination */
	if (rc != EXIT_USAGE && finish_output(stdout, "standard output", stderr))
		rc = EXIT_USAGE;
	return rc;
}
