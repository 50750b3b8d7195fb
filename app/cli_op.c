/* ttx op: one tensor operation on .npy files (docs/ops.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"
#include "output.h"

enum {
	OPT_IN = 256, OPT_OUT, OPT_FORMAT, OPT_OUT_FORMAT, OPT_FIDELITY, OPT_DIM, OPT_PARAM, OPT_ENGINE, OPT_NUMERICS,
	OPT_STATS, OPT_PROGRESS, OPT_LIST, OPT_CLOCK, OPT_PERFETTO, OPT_MAX_MEMORY, OPT_KERNELS, OPT_GRID, OPT_SHARD,
	OPT_THREADS,
};

const struct cli_opt op_options[] = {
	{ "in", OPT_IN, "F.npy", "an input (repeatable, in the order the op takes them; '-' = standard input)", 0 },
	{ "out", OPT_OUT, "F.npy", "the result, float32 ('-' = standard output)", CLI_WRITES },
	{ "format", OPT_FORMAT, "F", "L1 format of the inputs: bf16 (default), fp16, fp32, fp8, bfp8, bfp4, bfp2, "
	  "bfp8a, bfp4a or bfp2a", 0 },
	{ "out-format", OPT_OUT_FORMAT, "F", "L1 format the tile writes the result in (default fp32; the same "
	  "choices)", 0 },
	{ "fidelity", OPT_FIDELITY, "F", "lofi, hifi2, hifi3 or hifi4 (default): matmul's and mul's phases", 0 },
	{ "dim", OPT_DIM, "D", "rows (default), cols or all: reduce_sum, reduce_max", 0 },
	{ "param", OPT_PARAM, "X", "the op's parameter (ttx op --list)", 0 },
	{ "engine", OPT_ENGINE, "E", "interp, jit or auto (default), as for run", 0 },
	{ "numerics", OPT_NUMERICS, "N", "exact (default) or fast, as for run", 0 },
	{ "kernels", OPT_KERNELS, "K", "asm (default): the host pushes the kernels' words; riscv: C programs on "
	  "RISCV T0-T2 push them (the same bits; --stats counts the cores)", 0 },
	{ "grid", OPT_GRID, "RxC", "run on R x C tiles (1-8 each) of an emulated n150's worker grid: inputs and "
	  "results in its DRAM, data movers on RISCV B and NC, the C kernels on the TRISCs (docs/ops.md \"Grid "
	  "operations\"; default: one tile, the host moving data)", 0 },
	{ "shard", OPT_SHARD, NULL, "with --grid: inputs and results in the tiles' L1 instead of DRAM", 0 },
	{ "threads", OPT_THREADS, "N", "with --grid: host threads stepping the tiles (default: one per host core; "
	  "results and cycles do not depend on it)", 0 },
	{ "stats", OPT_STATS, NULL, "statistics and the cycle model's device time, summed over the op's kernels "
	  "(stderr; with --grid: the chip's, with the NoC and DRAM)", 0 },
	{ "clock-ghz", OPT_CLOCK, "X", "device clock for the estimated time (default 1.0)", 0 },
	{ "perfetto", OPT_PERFETTO, "F", "write a Chrome/Perfetto JSON trace of the cycle model to F", CLI_WRITES },
	{ "progress", OPT_PROGRESS, NULL, "a progress line on stderr", 0 },
	{ "max-memory", OPT_MAX_MEMORY, "BYTES", "refuse an op whose host memory (inputs, result, the tiles it "
	  "keeps) would exceed BYTES (K, M, G, T suffixes; default: half the physical memory)", 0 },
	{ "list", OPT_LIST, NULL, "list the operations, their inputs and parameters", 0 },
	{ NULL, 0, NULL, NULL, 0 },
};

#define MAX_IN 3

/* Between kernel runs: the progress line, and the stop of a batch job
   whose instruction budget is spent. */
struct progress_ctx {
	FILE *f;
	const char *name;
	int show;
	struct ttx_tile *t;
	uint64_t max_insns;
	int over_budget;
};

static int progress_line(void *ctx, double fraction)
{
	struct progress_ctx *p = ctx;
	if (p->show) {
		fprintf(p->f, "\rttx op %s: %3.0f%%", p->name, 100 * fraction);
		fflush(p->f);
	}
	if (p->max_insns) {
		struct ttx_stats s;
		ttx_stats_get(p->t, &s);
		p->over_budget = s.insns > p->max_insns;
	}
	return p->over_budget;
}

static int list_ops(FILE *out)
{
	size_t n;
	const struct ttx_op_info *ops = ttx_op_list(&n);
	fprintf(out, "%-12s %-7s %-40s %s\n", "op", "inputs", "parameters", "computes");
	for (size_t i = 0; i < n; i++) {
		char in[16];
		snprintf(in, sizeof(in), ops[i].min_inputs == ops[i].max_inputs ? "%u" : "%u-%u", ops[i].min_inputs,
		         ops[i].max_inputs);
		fprintf(out, "%-12s %-7s %-40s %s\n", ops[i].name, in, ops[i].params[0] ? ops[i].params : "-", ops[i].summary);
	}
	fprintf(out, "\nEvery op takes --format, --out-format, --engine, --numerics, --stats, --clock-ghz, --perfetto "
	        "and --progress.\n");
	return 0;
}

int parse_fidelity(const char *s, enum ttx_fidelity *out)
{
	static const char *const names[] = { "lofi", "hifi2", "hifi3", "hifi4" };
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum ttx_fidelity)i;
			return 0;
		}
	return -1;
}

static int parse_dim(const char *s, enum ttx_dim *out)
{
	static const char *const names[] = { "rows", "cols", "all" };
	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum ttx_dim)i;
			return 0;
		}
	return -1;
}

int cmd_op(const struct cli_io *io, int argc, char **argv)
{
	const char *in_path[MAX_IN], *out_path = NULL, *perfetto = NULL;
	double clock_ghz = 1.0;
	struct perfetto *pf = NULL;
	int nin = 0, stats = 0, show_progress = 0, list = 0;
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	p.max_memory = default_max_memory();
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .warn = warn_line, .warn_ctx = io->err,
	                           .jit_cache = io->jit_cache, .interrupt = io->interrupt };
	const char *name = NULL;
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	while ((c = cli_next(&scan, op_options)) != CLI_END) {
		const char *optarg = scan.arg;
		switch (c) {
		case CLI_POSITIONAL:
			if (name)
				return usage_error(io->err, "op: expected one operation NAME, got '%s' too", optarg);
			name = optarg;
			break;
		case OPT_IN:
			if (nin == MAX_IN)
				return usage_error(io->err, "op: at most %s inputs", "3");
			in_path[nin++] = optarg;
			break;
		case OPT_OUT: out_path = optarg; break;
		case OPT_FORMAT:
		case OPT_OUT_FORMAT: {
			enum ttx_format f;
			if (ttx_format_parse(optarg, &f) != TTX_OK) {
				fprintf(io->err, "ttx: --%s '%s': expected fp32, tf32, bf16, fp16, fp8, bfp8, bfp4, bfp2, bfp8a, "
				        "bfp4a, bfp2a, int8, uint8, int16 or int32\nTry 'ttx --help'.\n",
				        c == OPT_FORMAT ? "format" : "out-format", optarg);
				return EXIT_USAGE;
			}
			*(c == OPT_FORMAT ? &p.format : &p.out_format) = f;
			break;
		}
		case OPT_FIDELITY:
			if (parse_fidelity(optarg, &p.fidelity))
				return usage_error(io->err, "--fidelity '%s': expected lofi, hifi2, hifi3 or hifi4", optarg);
			break;
		case OPT_DIM:
			if (parse_dim(optarg, &p.dim))
				return usage_error(io->err, "--dim '%s': expected rows, cols or all", optarg);
			break;
		case OPT_PARAM: {
			char *e;
			p.param = strtod(optarg, &e);
			if (e == optarg || *e)
				return usage_error(io->err, "--param '%s': expected a number", optarg);
			p.has_param = 1;
			break;
		}
		case OPT_ENGINE:
			if (parse_engine(optarg, &opt.engine))
				return usage_error(io->err, "--engine '%s': expected interp, jit or auto", optarg);
			break;
		case OPT_NUMERICS:
			if (parse_numerics(optarg, &opt.numerics))
				return usage_error(io->err, "--numerics '%s': expected exact or fast", optarg);
			break;
		case OPT_KERNELS:
			if (strcmp(optarg, "asm") == 0)
				p.kernels = TTX_KERNELS_ASM;
			else if (strcmp(optarg, "riscv") == 0)
				p.kernels = TTX_KERNELS_RISCV;
			else
				return usage_error(io->err, "--kernels '%s': expected asm or riscv", optarg);
			break;
		case OPT_MAX_MEMORY:
			if (parse_bytes(optarg, &p.max_memory))
				return usage_error(io->err, "--max-memory '%s': expected a number of bytes (K, M, G or T "
				                   "suffix)", optarg);
			break;
		case OPT_GRID: {
			char *e;
			unsigned long r = strtoul(optarg, &e, 10), k = 0;
			if (e != optarg && (*e == 'x' || *e == 'X')) {
				const char *q = e + 1;
				k = strtoul(q, &e, 10);
				if (e == q)
					k = 0;
			}
			if (*e || r < 1 || k < 1 || r > 8 || k > 8)
				return usage_error(io->err, "--grid '%s': expected RxC with R and C from 1 to 8 (the worker grid "
				                   "of an n150 is 8x8)", optarg);
			p.grid_rows = (unsigned)r, p.grid_cols = (unsigned)k;
			break;
		}
		case OPT_SHARD: p.shard = 1; break;
		case OPT_THREADS: {
			char *e;
			unsigned long n = strtoul(optarg, &e, 10);
			if (e == optarg || *e || n < 1 || n > 1024)
				return usage_error(io->err, "--threads '%s': expected a number of threads from 1 to 1024", optarg);
			p.threads = (unsigned)n;
			break;
		}
		case OPT_STATS: stats = 1; break;
		case OPT_PROGRESS: show_progress = 1; break;
		case OPT_LIST: list = 1; break;
		case OPT_PERFETTO: perfetto = optarg; break;
		case OPT_CLOCK:
			if (parse_clock(optarg, &clock_ghz))
				return usage_error(io->err, "--clock-ghz '%s': expected a positive number of GHz", optarg);
			break;
		default:
			return cli_bad_option(io->err, "op", &scan);
		}
	}
	if (list)
		return list_ops(io->out);
	if (!name)
		return usage_error(io->err, "op: expected one operation NAME (ttx op --list shows them)%s", "");
	size_t nops;
	const struct ttx_op_info *ops = ttx_op_list(&nops), *info = NULL;
	for (size_t i = 0; i < nops; i++)
		if (strcmp(ops[i].name, name) == 0)
			info = &ops[i];
	if (!info)
		return usage_error(io->err, "op: unknown operation '%s' (ttx op --list shows them)", name);
	if (!out_path)
		return usage_error(io->err, "op %s: --out F.npy is missing", name);
	if ((unsigned)nin < info->min_inputs || (unsigned)nin > info->max_inputs) {
		char want[32];
		snprintf(want, sizeof(want), info->min_inputs == info->max_inputs ? "%u" : "%u to %u", info->min_inputs,
		         info->max_inputs);
		fprintf(io->err, "ttx: op %s takes %s --in file%s, got %d\n", name, want, info->max_inputs == 1 ? "" : "s",
		        nin);
		return EXIT_USAGE;
	}
	if (opt.engine == TTX_ENGINE_JIT && !ttx_jit_available())
		return usage_error(io->err, "--engine jit: %s", "this build has no JIT compiler; use --engine interp or auto");
	if ((p.shard || p.threads) && !p.grid_rows)
		return usage_error(io->err, "--%s: only with --grid", p.shard ? "shard" : "threads");
	if (p.grid_rows && perfetto)
		return usage_error(io->err, "--perfetto with --grid: %s", "not yet (the trace shows one tile)");
	if (perfetto && strcmp(perfetto, "-") == 0 && strcmp(out_path, "-") == 0)
		return usage_error(io->err, "--out - and --perfetto - would both write to standard output%s", "");

	int rc = EXIT_USAGE;
	char err[512];
	struct npy arr[MAX_IN] = { 0 };
	struct ttx_tensor in[MAX_IN];
	struct ttx_tensor out = { 0 };
	struct ttx_tile *t = NULL;
	struct output out_file = { 0 }, trace_file = { 0 };
	int ndim = 1;
	for (int i = 0; i < nin; i++) {
		if (npy_read(in_path[i], &arr[i], err, sizeof(err))) {
			fprintf(io->err, "ttx: %s\n", err);
			goto done;
		}
		const size_t *s = arr[i].shape;
		in[i].data = arr[i].data;
		in[i].batch = arr[i].ndim == 3 ? s[0] : 1;
		in[i].rows = arr[i].ndim == 1 ? 1 : s[arr[i].ndim - 2];
		in[i].cols = s[arr[i].ndim - 1];
		if (arr[i].ndim > ndim)
			ndim = arr[i].ndim;
	}
	/* the memory the op needs, from the shapes, before any of it is taken */
	size_t need;
	if (ttx_op_memory(name, in, (unsigned)nin, &p, &need, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: op %s: %s\n", name, err);
		goto done;
	}
	if (need > p.max_memory) {
		fprintf(io->err, "ttx: op %s:", name);
		for (int i = 0; i < nin; i++)
			fprintf(io->err, "%s %zu x %zu x %zu", i ? (i + 1 == nin ? " and" : ",") : "", in[i].batch, in[i].rows,
			        in[i].cols);
		fprintf(io->err, " need %zu bytes of host memory, more than the limit of %zu (--max-memory)\n", need,
		        p.max_memory);
		goto done;
	}
	if (ttx_op_shape(name, in, (unsigned)nin, &p, &out.batch, &out.rows, &out.cols, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: op %s: %s\n", name, err);
		goto done;
	}
	out.data = malloc(out.batch * out.rows * out.cols * sizeof(float));
	opt.timing = stats || perfetto;
	if (perfetto) {
		if (output_open(&trace_file, perfetto, io->out, io->err))
			goto done;
		if (!(pf = perfetto_open(trace_file.f))) {
			fprintf(io->err, "ttx: out of memory\n");
			goto done;
		}
		opt.timing_event = perfetto_event;
		opt.core_event = perfetto_core_event;
		opt.timing_ctx = pf;
		opt.core_event_ctx = pf;
	}
	t = out.data ? ttx_tile_new(&opt) : NULL;
	if (!t) {
		fprintf(io->err, "ttx: out of memory\n");
		goto done;
	}
	struct progress_ctx pc = { io->err, name, show_progress, t, io->max_insns, 0 };
	if (show_progress || io->max_insns)
		p.progress = progress_line, p.progress_ctx = &pc;
	struct ttx_grid_stats gs;
	if (p.grid_rows)
		p.grid_stats = &gs;
	enum ttx_status st = ttx_op_run(t, name, in, (unsigned)nin, &p, &out, err, sizeof(err));
	if (show_progress)
		fputc('\n', io->err);
	if (stats && p.grid_rows) {
		print_grid_stats(io->err, &gs, clock_ghz);
	} else if (stats) {
		struct ttx_stats s;
		ttx_stats_get(t, &s);
		print_stats(io->err, &s);
		print_core_stats(io->err, t);
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		print_cycles(io->err, &cy, clock_ghz);
	}
	if (st != TTX_OK) {
		if (pc.over_budget) {
			fprintf(io->err, "ttx: op %s: stopped after more than %" PRIu64 " instructions (the job's budget, "
			        "--job-max-insns)\n", name, io->max_insns);
			rc = EXIT_FAULT;
		} else {
			fprintf(io->err, "ttx: op %s: %s\n", name, err);
			rc = st == TTX_INTERRUPTED ? EXIT_INTERRUPTED : st == TTX_FAULT ? EXIT_FAULT : EXIT_USAGE;
		}
		goto done;
	}
	/* the result has the inputs' dimensions: 1-D stays 1-D where it can */
	size_t shape[3];
	int od = 0;
	if (ndim == 3)
		shape[od++] = out.batch;
	if (ndim >= 2 || out.rows != 1)
		shape[od++] = out.rows;
	shape[od++] = out.cols;
	if (output_open(&out_file, out_path, io->out, io->err))
		goto done;
	npy_write(out_file.f, out.data, shape, od);
	rc = 0;
done:
	if (pf) {
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		if (perfetto_finish(pf, &cy) && rc == 0)
			rc = EXIT_USAGE;
	}
	/* both outputs or neither: nothing is left of a failed op */
	if (rc == 0 && trace_file.f && output_commit(&trace_file, io->err))
		rc = EXIT_USAGE;
	if (rc == 0 && out_file.f && output_commit(&out_file, io->err))
		rc = EXIT_USAGE;
	output_discard(&trace_file);
	output_discard(&out_file);
	for (int i = 0; i < nin; i++)
		npy_free(&arr[i]);
	free(out.data);
	ttx_tile_destroy(t);
	return rc;
}
