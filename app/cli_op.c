/* ttx op: one tensor operation on .npy files (docs/ops.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"

enum {
	OPT_IN = 256, OPT_OUT, OPT_FORMAT, OPT_OUT_FORMAT, OPT_FIDELITY, OPT_DIM, OPT_PARAM, OPT_ENGINE, OPT_NUMERICS,
	OPT_STATS, OPT_PROGRESS, OPT_LIST, OPT_CLOCK, OPT_PERFETTO,
};

#define MAX_IN 3

struct progress_ctx {
	FILE *f;
	const char *name;
};

static void progress_line(void *ctx, double fraction)
{
	const struct progress_ctx *p = ctx;
	fprintf(p->f, "\rttx op %s: %3.0f%%", p->name, 100 * fraction);
	fflush(p->f);
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
	static const struct cli_opt longopts[] = {
		{ "in", 1, OPT_IN },
		{ "out", 1, OPT_OUT },
		{ "format", 1, OPT_FORMAT },
		{ "out-format", 1, OPT_OUT_FORMAT },
		{ "fidelity", 1, OPT_FIDELITY },
		{ "dim", 1, OPT_DIM },
		{ "param", 1, OPT_PARAM },
		{ "engine", 1, OPT_ENGINE },
		{ "numerics", 1, OPT_NUMERICS },
		{ "stats", 0, OPT_STATS },
		{ "progress", 0, OPT_PROGRESS },
		{ "list", 0, OPT_LIST },
		{ "clock-ghz", 1, OPT_CLOCK },
		{ "perfetto", 1, OPT_PERFETTO },
		{ NULL, 0, 0 },
	};
	const char *in_path[MAX_IN], *out_path = NULL, *perfetto = NULL;
	double clock_ghz = 1.0;
	struct perfetto *pf = NULL;
	int nin = 0, stats = 0, show_progress = 0, list = 0;
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	struct ttx_options opt = { .engine = TTX_ENGINE_AUTO, .warn = warn_line, .warn_ctx = io->err,
	                           .jit_cache = io->jit_cache };
	const char *name = NULL;
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL };
	while ((c = cli_next(&scan, longopts)) != CLI_END) {
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
			if (ttx_format_parse(optarg, &f) != TTX_OK)
				return usage_error(io->err, "--format '%s': expected fp32, tf32, bf16, fp16, fp8, bfp8, bfp4, bfp2, "
				                   "bfp8a, bfp4a, bfp2a, int8, uint8, int16 or int32", optarg);
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
		case OPT_STATS: stats = 1; break;
		case OPT_PROGRESS: show_progress = 1; break;
		case OPT_LIST: list = 1; break;
		case OPT_PERFETTO: perfetto = optarg; break;
		case OPT_CLOCK:
			if (parse_clock(optarg, &clock_ghz))
				return usage_error(io->err, "--clock-ghz '%s': expected a positive number of GHz", optarg);
			break;
		default:
			return usage_error(io->err, "op: unknown or incomplete option '%s'", optarg);
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

	int rc = EXIT_USAGE;
	char err[512];
	struct npy arr[MAX_IN] = { 0 };
	struct ttx_tensor in[MAX_IN];
	struct ttx_tensor out = { 0 };
	struct ttx_tile *t = NULL;
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
	if (ttx_op_shape(name, in, (unsigned)nin, &p, &out.batch, &out.rows, &out.cols, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: op %s: %s\n", name, err);
		goto done;
	}
	out.data = malloc(out.batch * out.rows * out.cols * sizeof(float));
	opt.timing = stats || perfetto;
	if (perfetto) {
		pf = perfetto_open(perfetto, io->out, io->err);
		if (!pf)
			goto done;
		opt.timing_event = perfetto_event;
		opt.timing_ctx = pf;
	}
	t = out.data ? ttx_tile_new(&opt) : NULL;
	if (!t) {
		fprintf(io->err, "ttx: out of memory\n");
		goto done;
	}
	struct progress_ctx pc = { io->err, name };
	if (show_progress)
		p.progress = progress_line, p.progress_ctx = &pc;
	enum ttx_status st = ttx_op_run(t, name, in, (unsigned)nin, &p, &out, err, sizeof(err));
	if (show_progress)
		fputc('\n', io->err);
	if (stats) {
		struct ttx_stats s;
		ttx_stats_get(t, &s);
		print_stats(io->err, &s);
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		print_cycles(io->err, &cy, clock_ghz);
	}
	if (st != TTX_OK) {
		fprintf(io->err, "ttx: op %s: %s\n", name, err);
		rc = st == TTX_FAULT ? EXIT_FAULT : EXIT_USAGE;
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
	if (npy_write(out_path, out.data, shape, od, err, sizeof(err))) {
		fprintf(io->err, "ttx: %s\n", err);
		goto done;
	}
	rc = 0;
done:
	if (pf) {
		struct ttx_cycles cy;
		ttx_cycles_get(t, &cy);
		if (perfetto_close(pf, &cy))
			rc = EXIT_USAGE;
	}
	for (int i = 0; i < nin; i++)
		npy_free(&arr[i]);
	free(out.data);
	ttx_tile_destroy(t);
	return rc;
}
