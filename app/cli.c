/* ttx: command-line front end of libttx.  The interface is a contract other
 * tools rely on (README.md): keep commands, options, file formats and exit
 * codes stable.  Exit codes: 0 success, 1 emulated fault, 2 usage or input,
 * 130 interrupted (SIGINT, SIGTERM).
 *
 * The commands and their options are tables (each command's file has its
 * options); --help and --man (the man page, docs/ttx.1) are printed from
 * them, so the two cannot drift from what the commands accept. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The expanders' opcodes (src/isa.def), counted apart by --stats. */
enum { TTX_OPCODE_MOP = 0x01, TTX_OPCODE_MOP_CFG = 0x03, TTX_OPCODE_REPLAY = 0x04 };

/* ---- the commands ---- */

static const struct cli_command commands[] = {
	{ "asm", "IN.s -o OUT.bin", "assemble a program (docs/assembly.md) into raw little-endian 32-bit words "
	  "for thread 0", asm_options, cmd_asm },
	{ "disasm", "IN.bin", "disassemble words; the output reassembles to the same words", disasm_options,
	  cmd_disasm },
	{ "run", "PROGRAM [options]", "run a program on a fresh tile.  PROGRAM: *.bin (any case) is raw "
	  "little-endian 32-bit words (at most 16 Mi), anything else assembler text, '-' assembler text from "
	  "standard input.  A run ends when every instruction has executed and no thread waits; a program that "
	  "cannot finish is a deadlock naming each blocked thread.  Output files are written after a fault too, "
	  "showing the state at the stop.  Numbers in options are decimal or 0x-hexadecimal.",
	  run_options, cmd_run },
	{ "op", "NAME --in A.npy [--in B.npy ...] --out C.npy [options]", "one tensor operation on .npy files "
	  "(docs/ops.md; ttx op --list shows them).  Inputs: float32, float16, float64, int8/16/32 or uint8, "
	  "1-D, 2-D, or 3-D with a leading batch dimension; the result is float32.  On any failure no output is "
	  "left behind.", op_options, cmd_op },
	{ "batch", "JOBS [options]", "run the 'run ...' and 'op ...' commands of a jobs file (one command's "
	  "arguments a line, split as a shell would; blank and #-lines aside) on a pool of threads, and across "
	  "hosts under mpirun (docs/batch.md).  Their output follows in file order, their messages as "
	  "JOBS:LINE: ...; a malformed line is reported and skipped (exit 1), a jobs file in which two jobs "
	  "write one file is refused before anything runs (exit 2); exit 1 if any job failed.", batch_options, cmd_batch },
	{ "grid", "--elf CORE=F [--elf ...] [options]", "RISC-V programs on a grid of an emulated chip's tiles "
	  "(docs/chip.md \"Programming model\"): every tile of the grid gets the programs, the --l1-in files and "
	  "where it is (TTX_TILE_INFO_ADDR); the run ends when no tile has work left; a deadlock across tiles names "
	  "each waiting core (exit 1).  Output files are written after a fault too.", grid_options, cmd_grid },
	{ "tensil", "run|asm|disasm|model FILE [options]", "the Tensil TCU (docs/tensil.md): run PROG.tprog --arch "
	  "A.tarch with memory images in and out; asm / disasm between the text of docs/tensil.md and .tprog; model "
	  "M.tmodel: a compiled model on CSV or .npy inputs, outputs to .npy.  A program that is not one (its file, "
	  "instruction and field named) exits 2; a fault while running (an address past a memory) exits 1.",
	  tensil_options, cmd_tensil },
	{ "demo", "[options]", "a transformer MLP block (X W1, gelu, W2, softmax) on an emulated tile, each "
	  "result checked against float64 on the same inputs, with the speed of the interpreter and the JIT",
	  demo_options, cmd_demo },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct cli_command *cli_find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int usage_error(FILE *err, const char *fmt, const char *arg)
{
	fprintf(err, "ttx: ");
	fprintf(err, fmt, arg);
	fprintf(err, "\nTry 'ttx --help'.\n");
	return EXIT_USAGE;
}

/* ---- --help ---- */

/* text wrapped to 79 columns, every line after the first indented */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;
	while (*p) {
		const char *w = p;
		while (*w && *w != ' ')
			w++;
		int len = (int)(w - p);
		if (col > indent && col + 1 + len > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		p = *w ? w + 1 : w;
	}
	fputc('\n', f);
}

static void print_help(FILE *f)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "%s ttx %s %s\n", i ? "      " : "usage:", commands[i].name, commands[i].synopsis);
	fprintf(f, "       ttx --help | --version | --man\n");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fprintf(f, "\n%s:", commands[i].name);
		wrap(f, commands[i].summary, (int)strlen(commands[i].name) + 1, 2);
		for (const struct cli_opt *o = commands[i].opts; o->name; o++) {
			char left[64];
			snprintf(left, sizeof(left), "  %s%s%s%s", strlen(o->name) == 1 ? "-" : "--", o->name,
			         o->value ? " " : "", o->value ? o->value : "");
			fprintf(f, "%-24s", left);
			if (strlen(left) >= 24)
				fprintf(f, "\n%24s", "");
			wrap(f, o->help, 24, 24);
		}
	}
	fprintf(f, "\nexit status: 0 success, 1 emulated fault (or a failed batch job), 2 usage or input "
	        "error,\n130 interrupted.  Messages about input name FILE:LINE.\n");
}

/* ---- --man: the man page from the same tables ---- */

/* roff text: '-' as \-, backslashes escaped, no line starting with '.' */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
	}
}

static void print_man(FILE *f)
{
	fprintf(f, ".TH TTX 1 \"\" \"ttx %s\" \"User Commands\"\n.SH NAME\n", ttx_version());
	fprintf(f, "ttx \\- emulator of the Tenstorrent Wormhole B0 Tensix coprocessor\n.SH SYNOPSIS\n");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fprintf(f, ".B ttx %s\n", commands[i].name);
		roff(f, commands[i].synopsis);
		fprintf(f, "\n.br\n");
	}
	fprintf(f, ".B ttx \\-\\-help\n|\n.B \\-\\-version\n|\n.B \\-\\-man\n");
	fprintf(f, ".SH DESCRIPTION\n.B ttx\nruns Tensix programs: the three threads of a tile (unpack, math, pack), the "
	        "Matrix Unit, the vector unit (SFPU), the unpackers and packers, the MOP and replay expanders, bit for "
	        "bit as the hardware's functional models describe them, in an interpreter and a JIT compiler (LLVM).\n");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fprintf(f, ".SH \"ttx %s\"\n", commands[i].name);
		roff(f, commands[i].summary);
		fputc('\n', f);
		for (const struct cli_opt *o = commands[i].opts; o->name; o++) {
			fprintf(f, ".TP\n.B %s", strlen(o->name) == 1 ? "\\-" : "\\-\\-");
			roff(f, o->name);
			if (o->value) {
				fprintf(f, "\n.I ");
				roff(f, o->value);
			}
			fputc('\n', f);
			roff(f, o->help);
			fputc('\n', f);
		}
	}
	fprintf(f, ".SH \"EXIT STATUS\"\n0 success; 1 an emulated fault (undocumented instruction, undefined "
	        "behaviour under \\-\\-strict, deadlock, \\-\\-max\\-insns reached) or a failed batch job; 2 a usage "
	        "or input error (bad option, missing or malformed file, assembler error, an output that cannot be "
	        "written); 130 interrupted by SIGINT or SIGTERM (no partial output is left).\n");
	fprintf(f, ".SH \"SEE ALSO\"\nThe project's README.md and docs/ (ops.md, batch.md, timing.md, "
	        "assembly.md, API.md).\n");
}

/* ---- helpers the commands share ---- */

void warn_line(void *ctx, const char *message)
{
	fprintf((FILE *)ctx, "ttx: warning: %s\n", message);
}

int parse_bytes(const char *s, size_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (errno || *end || v == 0 || v > (SIZE_MAX >> shift))
		return -1;
	*out = (size_t)v << shift;
	return 0;
}

double cli_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t default_max_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return (size_t)4 << 30;
	return (size_t)pages / 2 * (size_t)size;
}

/* Decimal or 0x-hexadecimal, nothing else: no blanks, signs or octal
   ("010" is ten). */
int parse_u64(const char *s, uint64_t *v)
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
/* --stats: per core, instructions, cycles, stalls by reason. */
void print_core_stats(FILE *f, const struct ttx_tile *t)
{
	for (unsigned c = 0; c < TTX_CORE_COUNT; c++) {
		struct ttx_core_state s;
		ttx_core_state(t, (enum ttx_core)c, &s);
		if (!s.released && !s.insns)
			continue;
		fprintf(f, "core %s: %" PRIu64 " instructions, %" PRIu64 " cycles (IPC %.2f), pc 0x%08X %s; stalls:",
		        ttx_core_name((enum ttx_core)c), s.insns, s.cycles, s.cycles ? (double)s.insns / (double)s.cycles : 0.0,
		        s.pc, s.halted ? "halted" : s.wait ? "waiting" : "running");
		for (int k = 0; k < TTX_CORE_STALL_COUNT; k++)
			fprintf(f, " %s %" PRIu64, ttx_core_stall_name((enum ttx_core_stall)k), s.stalls[k]);
		fputc('\n', f);
	}
}

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
void print_grid_stats(FILE *f, const struct ttx_grid_stats *g, double clock_ghz)
{
	static const enum ttx_unit shown[] = { TTX_UNIT_MATRIX, TTX_UNIT_SFPU, TTX_UNIT_UNPACK, TTX_UNIT_PACK };
	double cycles = (double)g->cycles, tiles = (double)(g->rows * g->cols);
	fprintf(f, "grid: %u x %u tiles, %u kernel launches, %.3f s on the host\n", g->rows, g->cols, g->phases,
	        g->host_seconds);
	fprintf(f, "device cycles: %" PRIu64 "\n", g->cycles);
	fprintf(f, "estimated device time: %.3f us at %.2f GHz\n", cycles / (clock_ghz * 1e3), clock_ghz);
	fprintf(f, "utilisation (busy cycles over the grid's):");
	const char *what = "nothing";
	double most = 0;
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		double u = cycles > 0 ? (double)g->busy_by_unit[shown[i]] / (cycles * tiles) : 0;
		fprintf(f, " %s %.1f%%", ttx_unit_name(shown[i]), 100 * u);
		if (u > most)
			most = u, what = ttx_unit_name(shown[i]);
	}
	fprintf(f, "\nMACs/cycle: %.1f of %.0f (%.1f%%)\n", cycles > 0 ? (double)g->macs / cycles : 0.0,
	        TTX_PEAK_MACS_PER_CYCLE * tiles,
	        cycles > 0 ? 100.0 * (double)g->macs / cycles / (TTX_PEAK_MACS_PER_CYCLE * tiles) : 0.0);
	const struct ttx_chip_stats *c = &g->chip;
	double link = cycles > 0 ? (double)c->link_busy_max / cycles : 0;
	fprintf(f, "NoC: %" PRIu64 " packets, %" PRIu64 " flits; busiest link NoC #%u %s at (%u, %u): %" PRIu64
	        " flits, %.1f%% of the cycles\n", c->packets, c->flits, c->link_noc, c->link_kind ? c->link_kind : "-",
	        c->link_x, c->link_y, c->link_busy_max, 100 * link);
	uint64_t bytes = 0, busiest = 0;
	unsigned ch = 0;
	for (unsigned i = 0; i < 6; i++) {
		bytes += c->dram_bytes[i];
		if (c->dram_busy[i] > busiest)
			busiest = c->dram_busy[i], ch = i;
	}
	double dram = cycles > 0 ? (double)busiest / cycles : 0;
	fprintf(f, "DRAM: %" PRIu64 " bytes, %.1f bytes/cycle (%.1f%% of 288); busiest channel %u: %.1f%% of the "
	        "cycles\n", bytes, cycles > 0 ? (double)bytes / cycles : 0.0, cycles > 0 ? 100.0 * (double)bytes / cycles / 288 : 0.0,
	        ch, 100 * dram);
	if (link > most)
		most = link, what = "a NoC link";
	if (dram > most)
		most = dram, what = "a DRAM channel";
	fprintf(f, "bottleneck: %s (%.1f%% busy)\n", what, 100 * most);
}

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


/* Read a whole file ("-": standard input) of at most max bytes (what is
   larger is refused as soon as it is seen: /dev/zero ends); NULL with a
   message on failure. */
char *read_file(const char *path, size_t *len, FILE *err, size_t max)
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


/* The final flush of an output, with its error: 0, or -1 after a message. */
int finish_output(FILE *f, const char *what, FILE *err)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	fprintf(err, "ttx: %s: write error: %s\n", what, strerror(errno ? errno : EIO));
	return -1;
}


/* ---- main ---- */

/* SIGINT and SIGTERM: the run in progress stops (ttx_options.interrupt),
   the command removes what it had begun to write and exits 130. */
static int interrupted;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&interrupted, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error(stderr, "missing command (asm, disasm, run, op, batch or demo)%s", "");
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		print_help(stdout);
		return finish_output(stdout, "standard output", stderr) ? EXIT_USAGE : 0;
	}
	if (strcmp(name, "--man") == 0) {
		print_man(stdout);
		return finish_output(stdout, "standard output", stderr) ? EXIT_USAGE : 0;
	}
	if (strcmp(name, "--version") == 0) {
		printf("ttx %s (%s)\n", ttx_version(), ttx_jit_available() ? "LLVM JIT" : "interpreter only");
		return finish_output(stdout, "standard output", stderr) ? EXIT_USAGE : 0;
	}
	const struct cli_command *cmd = cli_find_command(name);
	if (!cmd)
		return usage_error(stderr, "unknown command '%s' (asm, disasm, run, op, batch or demo)", name);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct cli_io io = { stderr, stdout, NULL, &interrupted, 0 };
	int rc = cmd->run(&io, argc - 1, argv + 1);
	/* whatever a command printed must have reached its destination */
	if (rc != EXIT_USAGE && finish_output(stdout, "standard output", stderr))
		rc = EXIT_USAGE;
	return rc;
}
