/* ttx grid: RISC-V programs on a grid of a chip's tiles (docs/chip.md
 * "Programming model"): the same ELF images on every tile of an R x C
 * part of an emulated n150's worker grid, each tile told where it is
 * (TTX_TILE_INFO_ADDR, kernels/riscv/ttx_noc.h), run until every tile
 * is done, a deadlock across tiles reported with what each core waits on. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "ttx_tile_info.h"

enum {
	OPT_GRID = 256, OPT_ELF, OPT_L1_IN, OPT_L1_OUT, OPT_DRAM_IN, OPT_DRAM_OUT, OPT_MAX_CYCLES, OPT_STALL, OPT_THREADS,
	OPT_STATS, OPT_CLOCK,
};

const struct cli_opt grid_options[] = {
	{ "grid", OPT_GRID, "RxC", "the tiles: R rows and C columns (1-8 each) of the 8 x 8 worker grid (default 1x1)",
	  0 },
	{ "elf", OPT_ELF, "CORE=F", "load ELF32 RISC-V program F for CORE (brisc, ncrisc, trisc0, trisc1, trisc2) on "
	  "every tile and start CORE at its entry point (repeatable)", 0 },
	{ "l1-in", OPT_L1_IN, "ADDR:F", "load file F into every tile's L1 at ADDR (repeatable)", 0 },
	{ "l1-out", OPT_L1_OUT, "R,C:ADDR:LEN:F", "write LEN bytes of L1 from ADDR of the tile at row R, column C to F "
	  "(repeatable)", CLI_WRITES_L1 },
	{ "dram-in", OPT_DRAM_IN, "BASE:PAGE:F", "put file F in DRAM as an interleaved buffer: page p (PAGE bytes) in "
	  "channel p % 6 at BASE + (p / 6) PAGE (repeatable)", 0 },
	{ "dram-out", OPT_DRAM_OUT, "BASE:PAGE:LEN:F", "write LEN bytes of such a buffer to F (repeatable)",
	  CLI_WRITES_L1 },
	{ "max-cycles", OPT_MAX_CYCLES, "N", "stop after N device cycles (exit 1 if work is left)", 0 },
	{ "deadlock-cycles", OPT_STALL, "N", "call it a deadlock when nothing moves for N cycles (default "
	  "1000000)", 0 },
	{ "threads", OPT_THREADS, "N", "host threads stepping the tiles (default: one per host core)", 0 },
	{ "stats", OPT_STATS, NULL, "device cycles, the cores' instructions, the NoC and DRAM (stderr)", 0 },
	{ "clock-ghz", OPT_CLOCK, "X", "device clock for the estimated time (default 1.0)", 0 },
	{ NULL, 0, NULL, NULL, 0 },
};

#define MAX_IO 16

struct io_spec {
	unsigned r, c;
	uint64_t addr, page, len;
	const char *path;
};

/* "A:B:..." into up to n numbers and a path (the rest). */
static int split(const char *spec, uint64_t *v, int n, const char **path)
{
	const char *p = spec;
	for (int i = 0; i < n; i++) {
		const char *colon = strchr(p, ':');
		char buf[64];
		if (!colon || (size_t)(colon - p) >= sizeof(buf))
			return -1;
		memcpy(buf, p, (size_t)(colon - p));
		buf[colon - p] = 0;
		if (parse_u64(buf, &v[i]))
			return -1;
		p = colon + 1;
	}
	*path = p;
	return *p ? 0 : -1;
}

static int parse_grid(const char *s, unsigned *rows, unsigned *cols)
{
	char *e;
	unsigned long r = strtoul(s, &e, 10), c = 0;
	if (e != s && (*e == 'x' || *e == 'X')) {
		const char *q = e + 1;
		c = strtoul(q, &e, 10);
		if (e == q)
			c = 0;
	}
	if (*e || r < 1 || c < 1 || r > 8 || c > 8)
		return -1;
	*rows = (unsigned)r, *cols = (unsigned)c;
	return 0;
}

/* The DRAM channels' endpoints (NOC_ENDPOINT_ID of their NIUs). */
static void dram_banks(struct ttx_chip *chip, unsigned bx[6], unsigned by[6])
{
	for (unsigned x = 0; x < TTX_CHIP_COLS; x++)
		for (unsigned y = 0; y < TTX_CHIP_ROWS; y++) {
			uint32_t id;
			if (ttx_chip_tile_kind(chip, x, y) == TTX_TILE_DRAM &&
			    ttx_chip_noc_read(chip, x, y, 0xFFFB20030ull, &id, 4) == TTX_OK && (id & 0xFF) == 0 &&
			    (id >> 8 & 0xFF) < 6)
				bx[id >> 8 & 0xFF] = x, by[id >> 8 & 0xFF] = y;
		}
}

static int dram_io(struct ttx_chip *chip, const unsigned bx[6], const unsigned by[6], const struct io_spec *s,
                   uint8_t *data, size_t len, int store)
{
	for (size_t off = 0; off < len; off += s->page) {
		size_t p = off / s->page, n = len - off < s->page ? len - off : s->page;
		uint64_t a = s->addr + (p / 6) * s->page;
		enum ttx_status st = store ? ttx_chip_noc_write(chip, bx[p % 6], by[p % 6], a, data + off, n)
		                           : ttx_chip_noc_read(chip, bx[p % 6], by[p % 6], a, data + off, n);
		if (st != TTX_OK)
			return -1;
	}
	return 0;
}

int cmd_grid(const struct cli_io *io, int argc, char **argv)
{
	unsigned rows = 1, cols = 1, threads = 0;
	const char *elf_path[TTX_CORE_COUNT] = { 0 };
	struct io_spec l1_in[MAX_IO], l1_out[MAX_IO], dram_in[MAX_IO], dram_out[MAX_IO];
	int n_l1_in = 0, n_l1_out = 0, n_dram_in = 0, n_dram_out = 0, stats = 0, n_elf = 0;
	uint64_t max_cycles = 0, stall = 1000000;
	double clock_ghz = 1.0;
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	while ((c = cli_next(&scan, grid_options)) != CLI_END) {
		const char *arg = scan.arg;
		uint64_t v[4];
		const char *path;
		switch (c) {
		case OPT_GRID:
			if (parse_grid(arg, &rows, &cols))
				return usage_error(io->err, "--grid '%s': expected RxC with R and C from 1 to 8 (the worker grid of "
				                   "an n150 is 8x8)", arg);
			break;
		case OPT_ELF: {
			const char *eq = strchr(arg, '=');
			enum ttx_core core;
			char name[16];
			if (!eq || (size_t)(eq - arg) >= sizeof(name) || !eq[1])
				return usage_error(io->err, "--elf '%s': expected CORE=FILE", arg);
			memcpy(name, arg, (size_t)(eq - arg));
			name[eq - arg] = 0;
			if (ttx_core_parse(name, &core) != TTX_OK)
				return usage_error(io->err, "--elf '%s': the core is brisc, ncrisc, trisc0, trisc1 or trisc2", arg);
			if (elf_path[core])
				return usage_error(io->err, "--elf '%s': that core has a program already", arg);
			elf_path[core] = eq + 1, n_elf++;
			break;
		}
		case OPT_L1_IN: case OPT_DRAM_IN: case OPT_DRAM_OUT: {
			int want = c == OPT_L1_IN ? 1 : c == OPT_DRAM_IN ? 2 : 3;
			struct io_spec *list = c == OPT_L1_IN ? l1_in : c == OPT_DRAM_IN ? dram_in : dram_out;
			int *n = c == OPT_L1_IN ? &n_l1_in : c == OPT_DRAM_IN ? &n_dram_in : &n_dram_out;
			if (*n == MAX_IO)
				return usage_error(io->err, "at most 16 of each of --l1-in, --dram-in, --dram-out%s", "");
			if (split(arg, v, want, &path) || (want >= 2 && (v[1] == 0 || v[1] > (1u << 20))) ||
			    v[0] >= (want == 1 ? TTX_L1_SIZE : 2ull << 30))
				return usage_error(io->err, c == OPT_L1_IN ? "--l1-in '%s': expected ADDR:FILE (ADDR in L1)"
				                   : c == OPT_DRAM_IN ? "--dram-in '%s': expected BASE:PAGE:FILE (PAGE 1 to 1 MiB)"
				                   : "--dram-out '%s': expected BASE:PAGE:LEN:FILE (PAGE 1 to 1 MiB)", arg);
			list[*n] = (struct io_spec){ 0, 0, v[0], want >= 2 ? v[1] : 0, want == 3 ? v[2] : 0, path };
			(*n)++;
			break;
		}
		case OPT_L1_OUT: {
			char buf[32];
			const char *colon = strchr(arg, ':'), *comma = strchr(arg, ',');
			uint64_t r, k;
			if (n_l1_out == MAX_IO)
				return usage_error(io->err, "at most 16 --l1-out%s", "");
			if (!colon || !comma || comma > colon || (size_t)(colon - arg) >= sizeof(buf))
				return usage_error(io->err, "--l1-out '%s': expected R,C:ADDR:LEN:FILE", arg);
			memcpy(buf, arg, (size_t)(colon - arg));
			buf[colon - arg] = 0;
			buf[comma - arg] = 0;
			if (parse_u64(buf, &r) || parse_u64(buf + (comma - arg) + 1, &k) || r > 7 || k > 7 ||
			    split(colon + 1, v, 2, &path) || v[0] > TTX_L1_SIZE || v[1] > TTX_L1_SIZE - v[0])
				return usage_error(io->err, "--l1-out '%s': expected R,C:ADDR:LEN:FILE within L1", arg);
			l1_out[n_l1_out++] = (struct io_spec){ (unsigned)r, (unsigned)k, v[0], 0, v[1], path };
			break;
		}
		case OPT_MAX_CYCLES: case OPT_STALL:
			if (parse_u64(arg, c == OPT_STALL ? &stall : &max_cycles))
				return usage_error(io->err, "--%s: expected a number", c == OPT_STALL ? "deadlock-cycles" : "max-cycles");
			break;
		case OPT_THREADS: {
			uint64_t n;
			if (parse_u64(arg, &n) || n < 1 || n > 1024)
				return usage_error(io->err, "--threads '%s': expected a number of threads from 1 to 1024", arg);
			threads = (unsigned)n;
			break;
		}
		case OPT_STATS: stats = 1; break;
		case OPT_CLOCK:
			if (parse_clock(arg, &clock_ghz))
				return usage_error(io->err, "--clock-ghz '%s': expected a positive number of GHz", arg);
			break;
		default:
			return cli_bad_option(io->err, "grid", &scan);
		}
	}
	if (!n_elf)
		return usage_error(io->err, "grid: expected at least one --elf CORE=FILE%s", "");
	for (int i = 0; i < n_l1_out; i++)
		if (l1_out[i].r >= rows || l1_out[i].c >= cols) {
			fprintf(io->err, "ttx: --l1-out %u,%u: the grid is %ux%u\n", l1_out[i].r, l1_out[i].c, rows, cols);
			return EXIT_USAGE;
		}

	int rc = EXIT_USAGE;
	struct ttx_chip *chip = NULL;
	struct output outs[2 * MAX_IO];
	int nouts = 0;
	char err[256];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct ttx_chip_options o = { .size = sizeof(o), .harvested_rows = 1u << 10 | 1u << 11 };
	o.threads = threads ? threads : cpus > 0 ? (unsigned)cpus : 1;
	o.tile.interrupt = io->interrupt;
	if (ttx_chip_create(&o, &chip, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", err);
		return EXIT_USAGE;
	}
	unsigned xs[8], ys[8], nx = 0, ny = 0, bx[6] = { 0 }, by[6] = { 0 };
	for (unsigned x = 0; x < TTX_CHIP_COLS; x++)
		if (ttx_chip_tile_kind(chip, x, 1) == TTX_TILE_TENSIX && nx < 8)
			xs[nx++] = x;
	for (unsigned y = 0; y < TTX_CHIP_ROWS; y++)
		if (ttx_chip_tile_kind(chip, 1, y) == TTX_TILE_TENSIX && ny < 8)
			ys[ny++] = y;
	dram_banks(chip, bx, by);
	for (int i = 0; i < n_dram_in; i++) {
		size_t len;
		char *d = read_file(dram_in[i].path, &len, io->err, 1u << 30);
		if (!d)
			goto done;
		int bad = dram_io(chip, bx, by, &dram_in[i], (uint8_t *)d, len, 1);
		free(d);
		if (bad) {
			fprintf(io->err, "ttx: --dram-in %s: %s\n", dram_in[i].path, ttx_chip_error(chip));
			goto done;
		}
	}
	/* every tile: where it is, the --l1-in files, the programs */
	for (unsigned r = 0; r < rows; r++)
		for (unsigned k = 0; k < cols; k++) {
			struct ttx_tile *t = ttx_chip_tile(chip, xs[k], ys[r]);
			struct ttx_tile_info info = { TTX_TILE_INFO_MAGIC, rows, cols, r, k, { 0 }, { 0 } };
			for (unsigned i = 0; i < 8; i++)
				info.x[i] = (uint8_t)xs[i], info.y[i] = (uint8_t)ys[i];
			ttx_l1_write(t, TTX_TILE_INFO_ADDR, &info, sizeof(info));
			for (int i = 0; i < n_l1_in; i++) {
				size_t len;
				char *d = read_file(l1_in[i].path, &len, io->err, TTX_L1_SIZE);
				if (!d)
					goto done;
				enum ttx_status st = ttx_l1_write(t, (uint32_t)l1_in[i].addr, d, len);
				free(d);
				if (st != TTX_OK) {
					fprintf(io->err, "ttx: --l1-in %s: %s\n", l1_in[i].path, ttx_tile_error(t));
					goto done;
				}
			}
			for (unsigned core = 0; core < TTX_CORE_COUNT; core++) {
				if (!elf_path[core])
					continue;
				size_t len;
				char *image = read_file(elf_path[core], &len, io->err, 64u << 20);
				uint32_t entry;
				if (!image)
					goto done;
				enum ttx_status st = ttx_elf_load(t, (enum ttx_core)core, image, len, &entry);
				free(image);
				if (st != TTX_OK) {
					fprintf(io->err, "ttx: %s: %s\n", elf_path[core], ttx_tile_error(t));
					goto done;
				}
				ttx_core_start(t, (enum ttx_core)core, entry);
			}
		}
	enum ttx_status st = ttx_chip_run(chip, max_cycles, stall);
	if (st == TTX_OK) {
		rc = 0;
	} else {
		fprintf(io->err, "ttx: grid: %s\n", ttx_chip_error(chip));
		rc = st == TTX_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_FAULT;
	}
	if (stats) {
		struct ttx_chip_stats cs;
		ttx_chip_stats_get(chip, &cs);
		uint64_t insns = 0, macs = 0, dram = 0;
		for (unsigned r = 0; r < rows; r++)
			for (unsigned k = 0; k < cols; k++) {
				struct ttx_tile *t = ttx_chip_tile(chip, xs[k], ys[r]);
				struct ttx_cycles cy;
				ttx_cycles_get(t, &cy);
				macs += cy.macs;
				for (unsigned core = 0; core < TTX_CORE_COUNT; core++) {
					struct ttx_core_state s;
					ttx_core_state(t, (enum ttx_core)core, &s);
					insns += s.insns;
				}
			}
		for (unsigned i = 0; i < 6; i++)
			dram += cs.dram_bytes[i];
		fprintf(io->err, "device cycles: %" PRIu64 "\nestimated device time: %.3f us at %.2f GHz\n", cs.cycles,
		        (double)cs.cycles / (clock_ghz * 1e3), clock_ghz);
		fprintf(io->err, "RISC-V instructions: %" PRIu64 "; Matrix Unit MACs: %" PRIu64 "\n", insns, macs);
		fprintf(io->err, "NoC: %" PRIu64 " packets, %" PRIu64 " flits; busiest link NoC #%u %s at (%u, %u): %" PRIu64
		        " flits\nDRAM: %" PRIu64 " bytes\n", cs.packets, cs.flits, cs.link_noc, cs.link_kind, cs.link_x,
		        cs.link_y, cs.link_busy_max, dram);
	}
	/* the outputs, after a fault too (the state at the stop) */
	for (int i = 0; i < n_l1_out && rc != EXIT_INTERRUPTED; i++) {
		uint8_t *b = malloc(l1_out[i].len ? l1_out[i].len : 1);
		struct ttx_tile *t = ttx_chip_tile(chip, xs[l1_out[i].c], ys[l1_out[i].r]);
		if (!b || output_open(&outs[nouts], l1_out[i].path, io->out, io->err)) {
			free(b);
			rc = EXIT_USAGE;
			goto done;
		}
		nouts++;
		ttx_l1_read(t, (uint32_t)l1_out[i].addr, b, l1_out[i].len);
		output_write(&outs[nouts - 1], b, l1_out[i].len);
		free(b);
	}
	for (int i = 0; i < n_dram_out && rc != EXIT_INTERRUPTED; i++) {
		uint8_t *b = malloc(dram_out[i].len ? dram_out[i].len : 1);
		if (!b || dram_io(chip, bx, by, &dram_out[i], b, dram_out[i].len, 0) ||
		    output_open(&outs[nouts], dram_out[i].path, io->out, io->err)) {
			if (b)
				fprintf(io->err, "ttx: --dram-out %s: %s\n", dram_out[i].path, ttx_chip_error(chip));
			free(b);
			rc = EXIT_USAGE;
			goto done;
		}
		nouts++;
		output_write(&outs[nouts - 1], b, dram_out[i].len);
		free(b);
	}
	for (int i = 0; i < nouts; i++)
		if (output_commit(&outs[i], io->err) && rc == 0)
			rc = EXIT_USAGE;
	nouts = 0;
done:
	for (int i = 0; i < nouts; i++)
		output_discard(&outs[i]);
	ttx_chip_destroy(chip);
	return rc;
}
