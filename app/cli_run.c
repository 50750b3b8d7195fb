/* ttx run: a Tensix program on a fresh tile (README "The ttx command"). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "output.h"
#include "rv32.h"

enum {
	OPT_THREAD = 256, OPT_DST_IN, OPT_DST_OUT, OPT_DST16_OUT, OPT_LREG_OUT, OPT_L1_IN, OPT_L1_OUT,
	OPT_ENGINE, OPT_NUMERICS, OPT_MAX_INSNS, OPT_STATS, OPT_TRACE, OPT_STRICT, OPT_CLOCK, OPT_PERFETTO,
	OPT_ELF, OPT_LOAD, OPT_UNTIL,
};

const struct cli_opt run_options[] = {
	{ "elf", OPT_ELF, "CORE=F", "load ELF32 RISC-V program F for CORE (brisc, ncrisc, trisc0, trisc1, trisc2) by "
	  "its PT_LOAD segments and start CORE at its entry point (repeatable; docs/riscv.md)", 0 },
	{ "load", OPT_LOAD, "[CORE=]F", "place the segments of ELF F without starting a core (L1 only, or CORE's "
	  "memories too; repeatable): for firmware that releases the other cores itself", 0 },
	{ "until", OPT_UNTIL, "ADDR=V[,...]", "end the run as soon as the L1 words at ADDR hold V, as a host polls a "
	  "mailbox", 0 },
	{ "thread", OPT_THREAD, "N", "thread (0-2) a .bin PROGRAM is pushed to (default 0; assembler text chooses "
	  "with .thread)", 0 },
	{ "dst-in", OPT_DST_IN, "F", "load Dst from F: 512 x 16 FP32 values, little-endian (32 KiB)", 0 },
	{ "dst-out", OPT_DST_OUT, "F", "write Dst the same way after the run", CLI_WRITES },
	{ "dst16-out", OPT_DST16_OUT, "F", "write the raw 1024 x 16 16-bit Dst storage (32 KiB)", CLI_WRITES },
	{ "lreg-out", OPT_LREG_OUT, "F", "write LReg 0-7 x 32 lanes x 32 bits (1 KiB)", CLI_WRITES },
	{ "l1-in", OPT_L1_IN, "ADDR:F", "load file F into L1 at ADDR (repeatable; they may not overlap)", 0 },
	{ "l1-out", OPT_L1_OUT, "ADDR:LEN:F", "write LEN bytes of L1 from ADDR to F (repeatable)", CLI_WRITES_L1 },
	{ "engine", OPT_ENGINE, "E", "interp, jit or auto (default auto): jit compiles every block before it runs, "
	  "auto those seen twice, interp none", 0 },
	{ "numerics", OPT_NUMERICS, "N", "exact (default: the Wormhole MAD bit for bit) or fast (IEEE fma, "
	  "flush-to-zero; not bit-exact)", 0 },
	{ "max-insns", OPT_MAX_INSNS, "N", "stop after N instructions, Tensix and RISC-V together (exit 1 if work is "
	  "left)", 0 },
	{ "strict", OPT_STRICT, NULL, "report undefined behaviour as a fault, hazards as warnings", 0 },
	{ "stats", OPT_STATS, NULL, "print execution statistics to stderr, with the cycle model's device cycles, "
	  "unit utilisation, stalls and bottleneck (docs/timing.md)", 0 },
	{ "clock-ghz", OPT_CLOCK, "X", "device clock for the estimated time (default 1.0)", 0 },
	{ "perfetto", OPT_PERFETTO, "F", "write a Chrome/Perfetto JSON trace of the cycle model to F "
	  "(ui.perfetto.dev)", CLI_WRITES },
	{ "trace", OPT_TRACE, "F", "write every executed instruction, Tensix and RISC-V, to F ('-' = stdout)",
	  CLI_WRITES },
	{ NULL, 0, NULL, NULL, 0 },
};

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

static void trace_core_line(void *ctx, unsigned core, uint32_t pc, uint32_t word)
{
	char line[128];
	ttx_rv_disasm(word, pc, line, sizeof(line));
	fprintf((FILE *)ctx, "%s %08X: %08X  %s\n", ttx_core_name((enum ttx_core)core), pc, word, line);
}

struct elf_io { int core; int start; const char *path; };   /* core -1: --load FILE (L1 only) */

/* "CORE=FILE" (with_core 1: required; 0: optional) */
static int parse_elf_spec(const char *spec, int need_core, struct elf_io *e)
{
	const char *eq = strchr(spec, '=');
	e->core = -1;
	e->path = spec;
	if (eq) {
		char name[16];
		enum ttx_core c;
		if ((size_t)(eq - spec) >= sizeof(name))
			return -1;
		memcpy(name, spec, (size_t)(eq - spec));
		name[eq - spec] = '\0';
		if (ttx_core_parse(name, &c) != TTX_OK)
			return need_core ? -1 : (e->core = -1, 0);
		e->core = (int)c;
		e->path = eq + 1;
	} else if (need_core) {
		return -1;
	}
	return *e->path ? 0 : -1;
}

/* "ADDR=V[,ADDR=V...]" */
static int parse_until(const char *spec, uint32_t *addr, uint32_t *value, size_t max, size_t *n)
{
	char buf[1024];
	if (strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	*n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t a, v;
		if (!eq || *n == max)
			return -1;
		*eq = '\0';
		if (parse_u64(tok, &a) || parse_u64(eq + 1, &v) || a >= TTX_L1_SIZE || (a & 3) || v > 0xFFFFFFFFu)
			return -1;
		addr[*n] = (uint32_t)a, value[(*n)++] = (uint32_t)v;
	}
	return *n ? 0 : -1;
}

#define MAX_L1_IO 64

/* Where each core that ran stands (after --max-insns). */
static void report_cores(FILE *f, const struct ttx_tile *t)
{
	for (unsigned c = 0; c < TTX_CORE_COUNT; c++) {
		struct ttx_core_state s;
		ttx_core_state(t, (enum ttx_core)c, &s);
		if (!s.released)
			continue;
		fprintf(f, "ttx:   %s: pc 0x%08X, %s", ttx_core_name((enum ttx_core)c), s.pc,
		        s.halted ? "halted" : s.wait ? "waiting on " : "running");
		if (!s.halted && s.wait)
			fprintf(f, "%s (0x%08X)", ttx_core_wait_name(s.wait), s.wait_addr);
		fputc('\n', f);
	}
}

/* What the run writes: opened once the program is accepted, committed at
   the end (after a fault too: the files show the state at the stop),
   discarded on a usage error or an interrupt. */
struct run_outputs {
	struct output o[5 + MAX_L1_IO];
	int n;
};

static struct output *add_output(struct run_outputs *ro, const char *path, const struct cli_io *io)
{
	struct output *o = &ro->o[ro->n];
	if (output_open(o, path, io->out, io->err))
		return NULL;
	ro->n++;
	return o;
}

static int write_bytes(struct run_outputs *ro, const char *path, const void *data, size_t len,
                       const struct cli_io *io)
{
	struct output *o = add_output(ro, path, io);
	return o ? output_write(o, data, len) : -1;
}

int cmd_run(const struct cli_io *io, int argc, char **argv)
{
	const char *dst_in = NULL, *dst_out = NULL, *dst16_out = NULL, *lreg_out = NULL, *trace = NULL;
	const char *perfetto = NULL;
	double clock_ghz = 1.0;
	struct perfetto *pf = NULL;
	struct l1_io l1_in[MAX_L1_IO], l1_out[MAX_L1_IO];
	struct elf_io elves[16];
	uint32_t until_addr[32], until_value[32];
	size_t n_until = 0;
	int n_in = 0, n_out = 0, stats = 0, thread_given = 0, n_elf = 0;
	uint64_t thread = 0, max_insns = io->max_insns;
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .warn = warn_line, .warn_ctx = io->err,
	                           .jit_cache = io->jit_cache, .interrupt = io->interrupt };
	const char *path = NULL;
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	while ((c = cli_next(&scan, run_options)) != CLI_END) {
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
		case OPT_ELF:
		case OPT_LOAD:
			if (n_elf == 16 || parse_elf_spec(optarg, c == OPT_ELF, &elves[n_elf]))
				return usage_error(io->err, c == OPT_ELF ? "--elf '%s': expected CORE=FILE with CORE one of brisc, "
				                   "ncrisc, trisc0, trisc1, trisc2" : "--load '%s': expected FILE or CORE=FILE", optarg);
			elves[n_elf].start = c == OPT_ELF;
			for (int i = 0; i < n_elf; i++)
				if (elves[i].start && elves[n_elf].start && elves[i].core == elves[n_elf].core)
					return usage_error(io->err, "--elf: %s is given twice", ttx_core_name((enum ttx_core)elves[i].core));
			n_elf++;
			break;
		case OPT_UNTIL: {
			size_t k;
			if (parse_until(optarg, until_addr + n_until, until_value + n_until, 32 - n_until, &k))
				return usage_error(io->err, "--until '%s': expected ADDR=VALUE[,ADDR=VALUE...] with 4-byte aligned "
				                   "L1 addresses (at most 32)", optarg);
			n_until += k;
			break;
		}
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
			return cli_bad_option(io->err, "run", &scan);
		}
	}
	if (!path && !n_elf)
		return usage_error(io->err, "run: expected a PROGRAM, or RISC-V programs (--elf, --load)%s", "");
	if (opt.engine == TTX_ENGINE_JIT && !ttx_jit_available())
		return usage_error(io->err, "--engine jit: %s", "this build has no JIT compiler (configured with "
		                   "--disable-jit); use --engine interp or auto");
	if (opt.engine == TTX_ENGINE_JIT && (opt.strict || trace))
		return usage_error(io->err, "--engine jit: %s", "--strict and --trace need the interpreter's "
		                   "instruction-by-instruction view; use --engine interp or auto");

	if (trace && perfetto && strcmp(trace, "-") == 0 && strcmp(perfetto, "-") == 0)
		return usage_error(io->err, "--trace - and --perfetto - would both write to standard output%s", "");
	if (thread_given && (!path || !cli_is_bin(path)))
		return usage_error(io->err, "--thread applies to a .bin program; in assembler text (%s) .thread "
		                   "chooses the threads", path ? path : "no PROGRAM");
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

	int rc = EXIT_USAGE, commit = 0;
	struct run_outputs *ro = calloc(1, sizeof(*ro));
	struct ttx_program *prog = !ro ? NULL : path ? cli_load_program(path, (unsigned)thread, io->err)
	                                            : ttx_program_from_words(NULL, 0, 0);
	struct ttx_tile *t = NULL;
	if (!ro)
		fprintf(io->err, "ttx: out of memory\n");
	if (!prog)
		goto done;
	int have_program = path != NULL;
	if (!path)
		path = elves[0].path;   /* (messages name the first ELF) */
	/* outputs are created only once the program is accepted */
	if (trace) {
		struct output *o = add_output(ro, trace, io);
		if (!o)
			goto done;
		opt.trace = trace_line;
		opt.trace_ctx = o->f;
		opt.trace_core = trace_core_line;
		opt.trace_core_ctx = o->f;
	}
	opt.timing = stats || perfetto;
	if (perfetto) {
		struct output *o = add_output(ro, perfetto, io);
		if (!o || !(pf = perfetto_open(o->f))) {
			if (o)
				fprintf(io->err, "ttx: out of memory\n");
			goto done;
		}
		opt.timing_event = perfetto_event;
		opt.core_event = perfetto_core_event;
		opt.timing_ctx = pf;
		opt.core_event_ctx = pf;
	}
	t = ttx_tile_new(&opt);
	if (!t) {
		fprintf(io->err, "ttx: out of memory creating the tile\n");
		goto done;
	}
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

	/* the RISC-V programs: placed in order, then the --elf cores started */
	for (int i = 0; i < n_elf; i++) {
		size_t len;
		char *image = read_file(elves[i].path, &len, io->err, 64u << 20);
		uint32_t entry;
		if (!image)
			goto done;
		enum ttx_status est = ttx_elf_load(t, elves[i].core < 0 ? TTX_CORE_COUNT : (enum ttx_core)elves[i].core,
		                                  image, len, &entry);
		free(image);
		if (est != TTX_OK) {
			fprintf(io->err, "ttx: %s: %s\n", elves[i].path, ttx_tile_error(t));
			goto done;
		}
		if (elves[i].start)
			ttx_core_start(t, (enum ttx_core)elves[i].core, entry);
	}
	enum ttx_status st = ttx_program_run(t, prog, max_insns);
	if (st == TTX_OK && n_until)
		st = ttx_run_until(t, max_insns, until_addr, until_value, n_until);
	if (st == TTX_INTERRUPTED) {
		fprintf(io->err, "ttx: %s: %s\n", path, ttx_tile_error(t));
		rc = EXIT_INTERRUPTED;
		goto done;
	}
	commit = 1;
	if (st == TTX_OK) {
		rc = 0;
	} else if (st == TTX_LIMIT) {
		fprintf(io->err, "ttx: %s: stopped after %" PRIu64 " instructions (--max-insns), with work left\n", path,
		        max_insns);
		report_cores(io->err, t);
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
	if (have_program && ttx_program_size(prog) == 0)
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
		print_core_stats(io->err, t);
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
			commit = 0;
		} else {
			if (dst_out) {
				ttx_dst32_read(t, &d32[0][0]);
				for (size_t i = 0; i < TTX_DST_ROWS32 * TTX_COLS; i++)
					for (int k = 0; k < 4; k++)
						b[4 * i + (size_t)k] = (unsigned char)(d32[i / TTX_COLS][i % TTX_COLS] >> (8 * k));
				if (write_bytes(ro, dst_out, b, TTX_DST_ROWS32 * TTX_COLS * 4, io))
					rc = EXIT_USAGE, commit = 0;
			}
			if (dst16_out && commit) {
				ttx_dst16_read(t, &d16[0][0]);
				for (size_t i = 0; i < TTX_DST_ROWS16 * TTX_COLS; i++) {
					b[2 * i] = (unsigned char)d16[i / TTX_COLS][i % TTX_COLS];
					b[2 * i + 1] = (unsigned char)(d16[i / TTX_COLS][i % TTX_COLS] >> 8);
				}
				if (write_bytes(ro, dst16_out, b, TTX_DST_ROWS16 * TTX_COLS * 2, io))
					rc = EXIT_USAGE, commit = 0;
			}
		}
		free(d32), free(d16), free(b);
	}
	if (lreg_out && commit) {
		unsigned char b[8 * TTX_LANES * 4];
		for (unsigned r = 0; r < 8; r++) {
			uint32_t lanes[TTX_LANES];
			ttx_lreg_read(t, r, lanes);
			for (unsigned l = 0; l < TTX_LANES; l++)
				for (int k = 0; k < 4; k++)
					b[(r * TTX_LANES + l) * 4 + (unsigned)k] = (unsigned char)(lanes[l] >> (8 * k));
		}
		if (write_bytes(ro, lreg_out, b, sizeof(b), io))
			rc = EXIT_USAGE, commit = 0;
	}
	for (int i = 0; i < n_out && commit; i++) {
		unsigned char *b = malloc(l1_out[i].len ? l1_out[i].len : 1);
		if (!b) {
			fprintf(io->err, "ttx: out of memory\n");
			rc = EXIT_USAGE, commit = 0;
		} else if (ttx_l1_read(t, l1_out[i].addr, b, l1_out[i].len) != TTX_OK) {
			fprintf(io->err, "ttx: --l1-out %s: %s\n", l1_out[i].path, ttx_tile_error(t));
			rc = EXIT_USAGE, commit = 0;
		} else if (write_bytes(ro, l1_out[i].path, b, l1_out[i].len, io)) {
			rc = EXIT_USAGE, commit = 0;
		}
		free(b);
	}
done:
	if (pf) {
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		if (perfetto_finish(pf, &cy) && commit)
			rc = EXIT_USAGE, commit = 0;
	}
	/* all the outputs or none */
	for (int i = 0; ro && i < ro->n; i++) {
		if (commit && output_commit(&ro->o[i], io->err))
			rc = EXIT_USAGE, commit = 0;
		else if (!commit)
			output_discard(&ro->o[i]);
	}
	free(ro);
	ttx_tile_destroy(t);
	ttx_program_free(prog);
	return rc;
}
