/* ttx tensil: the Tensil TCU (docs/tensil.md): run a .tprog on an
 * architecture with memory images in and out, assemble and disassemble,
 * run a compiled model (.tmodel) on CSV or .npy inputs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"
#include "output.h"

enum {
	OPT_ARCH = 256, OPT_ENGINE, OPT_STATS, OPT_TRACE, OPT_MAX_INSNS, OPT_INPUT, OPT_OUTPUT,
	OPT_DRAM0_IN, OPT_DRAM1_IN, OPT_LOCAL_IN, OPT_ACC_IN, OPT_DRAM0_OUT, OPT_DRAM1_OUT, OPT_LOCAL_OUT, OPT_ACC_OUT,
};

const struct cli_opt tensil_options[] = {
	{ "arch", OPT_ARCH, "A.tarch", "the architecture (run, asm, disasm)", 0 },
	{ "dram0-in", OPT_DRAM0_IN, "F", "DRAM0 before the run: a memory image (vectors of array_size little-endian values "
	  "of the data type's width, from vector 0)", 0 },
	{ "dram1-in", OPT_DRAM1_IN, "F", "DRAM1 before the run", 0 },
	{ "local-in", OPT_LOCAL_IN, "F", "local memory before the run", 0 },
	{ "acc-in", OPT_ACC_IN, "F", "the accumulators before the run", 0 },
	{ "dram0-out", OPT_DRAM0_OUT, "F", "DRAM0 after the run (every vector)", CLI_WRITES },
	{ "dram1-out", OPT_DRAM1_OUT, "F", "DRAM1 after the run", CLI_WRITES },
	{ "local-out", OPT_LOCAL_OUT, "F", "local memory after the run", CLI_WRITES },
	{ "acc-out", OPT_ACC_OUT, "F", "the accumulators after the run", CLI_WRITES },
	{ "o", 'o', "F", "asm: the .tprog; disasm: the text (default standard output)", CLI_WRITES },
	{ "input", OPT_INPUT, "NAME=F", "model: an input from F.npy or F.csv (repeatable; in the model's order if "
	  "NAME= is left out)", 0 },
	{ "output", OPT_OUTPUT, "NAME=F", "model: an output to F.npy (repeatable; default NAME.npy beside the model is "
	  "not written: name each)", CLI_WRITES },
	{ "engine", OPT_ENGINE, "E", "interp, jit or auto (default auto)", 0 },
	{ "max-insns", OPT_MAX_INSNS, "N", "stop after N instructions (exit 1)", 0 },
	{ "stats", OPT_STATS, NULL, "instructions by opcode, MACs, vectors moved, the cycle estimate (stderr)", 0 },
	{ "trace", OPT_TRACE, "F", "each instruction as it runs, to F ('-' = stdout)", CLI_WRITES },
	{ NULL, 0, NULL, NULL, 0 },
};

#define MAX_IO 16

static int read_arch(const struct cli_io *io, const char *path, struct ttx_tcu_arch *a)
{
	size_t len;
	char err[512];
	char *text = read_file(path, &len, io->err, 1u << 20);
	if (!text)
		return -1;
	enum ttx_status st = ttx_tcu_arch_parse(text, len, path, a, err, sizeof(err));
	free(text);
	if (st != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", err);
		return -1;
	}
	return 0;
}

static void print_tcu_stats(FILE *f, const struct ttx_tcu_stats *s)
{
	static const char *const names[16] = { "wait", "matmul", "datamove", "loadweights", "simd", "loadlut", NULL,
	                                        "configure" };
	fprintf(f, "instructions: %" PRIu64 " (", s->insns);
	const char *sep = "";
	for (unsigned i = 0; i < 16; i++)
		if (s->insns_by_opcode[i]) {
			fprintf(f, "%s%s %" PRIu64, sep, names[i] ? names[i] : "?", s->insns_by_opcode[i]);
			sep = ", ";
		}
	fprintf(f, "); as compiled code: %" PRIu64 "\n", s->insns_jit);
	fprintf(f, "MACs: %" PRIu64 "; vectors moved: %" PRIu64 "\n", s->macs, s->vectors_moved);
	fprintf(f, "cycles (estimate, docs/tensil.md): %" PRIu64 "\n", s->cycles);
	fprintf(f, "wall time: %.6f s (%.3f G MAC/s)\n", s->wall_seconds,
	        s->wall_seconds > 0 ? (double)s->macs / s->wall_seconds * 1e-9 : 0.0);
}

static void trace_line(void *ctx, size_t index, const char *text)
{
	fprintf(ctx, "#%zu %s\n", index, text);
}

/* A CSV of numbers (commas, spaces, newlines) as floats. */
static float *read_csv(const struct cli_io *io, const char *path, size_t *n)
{
	size_t len;
	char *text = read_file(path, &len, io->err, 1u << 30);
	if (!text)
		return NULL;
	size_t cap = 1024, k = 0;
	float *v = malloc(cap * sizeof(float));
	unsigned line = 1;
	for (char *p = text; v && *p;) {
		if (*p == ',' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
			line += *p == '\n';
			p++;
			continue;
		}
		char *e;
		float x = strtof(p, &e);
		if (e == p) {
			fprintf(io->err, "ttx: %s:%u: '%.20s' is not a number\n", path, line, p);
			free(v);
			v = NULL;
			break;
		}
		if (k == cap) {
			float *t = realloc(v, (cap *= 2) * sizeof(float));
			if (!t)
				free(v);
			v = t;
			if (!v)
				break;
		}
		v[k++] = x;
		p = e;
	}
	free(text);
	*n = k;
	return v;
}

static int cmd_model(const struct cli_io *io, const char *path, const char **in_spec, int nin, const char **out_spec,
                     int nout, enum ttx_engine engine, int stats)
{
	char err[512];
	struct ttx_tcu_model *m = NULL;
	struct ttx_tcu *t = NULL;
	float **in = NULL, **outv = NULL;
	struct output files[MAX_IO];
	int nfiles = 0, rc = EXIT_USAGE;
	if (ttx_tcu_model_load(path, &m, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", err);
		return EXIT_USAGE;
	}
	in = calloc(m->ninputs + 1, sizeof(*in));
	outv = calloc(m->noutputs + 1, sizeof(*outv));
	if (!in || !outv)
		goto done;
	if ((size_t)nin != m->ninputs) {
		fprintf(io->err, "ttx: %s has %zu input%s, %d given (--input NAME=F)\n", path, m->ninputs,
		        m->ninputs == 1 ? "" : "s", nin);
		goto done;
	}
	for (int i = 0; i < nin; i++) {
		const char *eq = strchr(in_spec[i], '='), *file = eq ? eq + 1 : in_spec[i];
		size_t k = (size_t)i;
		if (eq) {
			for (k = 0; k < m->ninputs && (strlen(m->inputs[k].name) != (size_t)(eq - in_spec[i]) ||
			                                strncmp(m->inputs[k].name, in_spec[i], (size_t)(eq - in_spec[i]))); k++)
				;
			if (k == m->ninputs) {
				fprintf(io->err, "ttx: --input %s: the model has no input of that name\n", in_spec[i]);
				goto done;
			}
		}
		size_t n = 0, want = m->inputs[k].size * m->arch.array_size;
		const char *dot = strrchr(file, '.');
		if (dot && strcmp(dot, ".npy") == 0) {
			struct npy a;
			if (npy_read(file, &a, err, sizeof(err))) {
				fprintf(io->err, "ttx: %s\n", err);
				goto done;
			}
			n = 1;
			for (int d = 0; d < a.ndim; d++)
				n *= a.shape[d];
			in[k] = a.data;   /* (taken over) */
		} else if (!(in[k] = read_csv(io, file, &n))) {
			goto done;
		}
		if (n > want) {
			fprintf(io->err, "ttx: %s: %zu values, more than the input %s's %llu vectors of %u\n", file, n,
			        m->inputs[k].name, (unsigned long long)m->inputs[k].size, m->arch.array_size);
			goto done;
		}
		float *full = realloc(in[k], (want ? want : 1) * sizeof(float));   /* the rest zeros */
		if (!full)
			goto done;
		memset(full + n, 0, (want - n) * sizeof(float));
		in[k] = full;
	}
	for (size_t k = 0; k < m->noutputs; k++)
		if (!(outv[k] = malloc((m->outputs[k].size * m->arch.array_size + 1) * sizeof(float))))
			goto done;
	if (ttx_tcu_create(&m->arch, engine, &t, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", err);
		goto done;
	}
	enum ttx_status st = ttx_tcu_model_run(t, m, (const float *const *)in, outv);
	if (stats) {
		struct ttx_tcu_stats s;
		ttx_tcu_stats_get(t, &s);
		print_tcu_stats(io->err, &s);
	}
	if (st != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", ttx_tcu_error(t));
		rc = st == TTX_FAULT || st == TTX_LIMIT ? EXIT_FAULT : EXIT_USAGE;
		goto done;
	}
	for (int i = 0; i < nout; i++) {
		const char *eq = strchr(out_spec[i], '=');
		size_t k;
		for (k = 0; eq && k < m->noutputs && (strlen(m->outputs[k].name) != (size_t)(eq - out_spec[i]) ||
		                                       strncmp(m->outputs[k].name, out_spec[i], (size_t)(eq - out_spec[i]))); k++)
			;
		if (!eq || k == m->noutputs) {
			fprintf(io->err, "ttx: --output %s: expected NAME=F.npy with NAME one of the model's outputs\n",
			        out_spec[i]);
			goto done;
		}
		if (output_open(&files[nfiles], eq + 1, io->out, io->err))
			goto done;
		nfiles++;
		size_t shape[2] = { m->outputs[k].size, m->arch.array_size };
		npy_write(files[nfiles - 1].f, outv[k], shape, 2);
	}
	rc = 0;
	for (int i = 0; i < nfiles; i++)
		if (output_commit(&files[i], io->err))
			rc = EXIT_USAGE;
	nfiles = 0;
done:
	for (int i = 0; i < nfiles; i++)
		output_discard(&files[i]);
	for (size_t k = 0; m && in && k < m->ninputs; k++)
		free(in[k]);
	for (size_t k = 0; m && outv && k < m->noutputs; k++)
		free(outv[k]);
	free(in), free(outv);
	ttx_tcu_destroy(t);
	ttx_tcu_model_free(m);
	return rc;
}

int cmd_tensil(const struct cli_io *io, int argc, char **argv)
{
	const char *arch_path = NULL, *out_path = NULL, *trace_path = NULL, *file = NULL, *sub = NULL;
	const char *mem_in[4] = { 0 }, *mem_out[4] = { 0 }, *inputs[MAX_IO], *outputs[MAX_IO];
	int nin = 0, nout = 0, stats = 0;
	enum ttx_engine engine = TTX_ENGINE_AUTO;
	uint64_t max_insns = io->max_insns;
	int c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	while ((c = cli_next(&scan, tensil_options)) != CLI_END) {
		const char *arg = scan.arg;
		switch (c) {
		case CLI_POSITIONAL:
			if (!sub)
				sub = arg;
			else if (!file)
				file = arg;
			else
				return usage_error(io->err, "tensil: one file at a time, got '%s' too", arg);
			break;
		case OPT_ARCH: arch_path = arg; break;
		case 'o': out_path = arg; break;
		case OPT_TRACE: trace_path = arg; break;
		case OPT_STATS: stats = 1; break;
		case OPT_ENGINE:
			if (parse_engine(arg, &engine))
				return usage_error(io->err, "--engine '%s': expected interp, jit or auto", arg);
			break;
		case OPT_MAX_INSNS:
			if (parse_u64(arg, &max_insns))
				return usage_error(io->err, "--max-insns '%s': expected a number", arg);
			break;
		case OPT_DRAM0_IN: case OPT_DRAM1_IN: case OPT_LOCAL_IN: case OPT_ACC_IN:
			mem_in[c == OPT_DRAM0_IN ? TTX_TCU_DRAM0 : c == OPT_DRAM1_IN ? TTX_TCU_DRAM1
			       : c == OPT_LOCAL_IN ? TTX_TCU_LOCAL : TTX_TCU_ACCUMULATORS] = arg;
			break;
		case OPT_DRAM0_OUT: case OPT_DRAM1_OUT: case OPT_LOCAL_OUT: case OPT_ACC_OUT:
			mem_out[c == OPT_DRAM0_OUT ? TTX_TCU_DRAM0 : c == OPT_DRAM1_OUT ? TTX_TCU_DRAM1
			        : c == OPT_LOCAL_OUT ? TTX_TCU_LOCAL : TTX_TCU_ACCUMULATORS] = arg;
			break;
		case OPT_INPUT: case OPT_OUTPUT:
			if ((c == OPT_INPUT ? nin : nout) == MAX_IO)
				return usage_error(io->err, "at most 16 --input and 16 --output%s", "");
			if (c == OPT_INPUT)
				inputs[nin++] = arg;
			else
				outputs[nout++] = arg;
			break;
		default:
			return cli_bad_option(io->err, "tensil", &scan);
		}
	}
	if (!sub || (strcmp(sub, "run") && strcmp(sub, "asm") && strcmp(sub, "disasm") && strcmp(sub, "model")))
		return usage_error(io->err, "tensil: expected run, asm, disasm or model%s", "");
	if (!file)
		return usage_error(io->err, "tensil %s: expected a file", sub);
	if (engine == TTX_ENGINE_JIT && !ttx_jit_available())
		return usage_error(io->err, "--engine jit: %s", "this build has no JIT compiler; use --engine interp or auto");
	if (strcmp(sub, "model") == 0) {
		if (arch_path)
			return usage_error(io->err, "tensil model: %s", "the architecture comes from the model (no --arch)");
		return cmd_model(io, file, inputs, nin, outputs, nout, engine, stats);
	}
	if (nin || nout)
		return usage_error(io->err, "tensil %s: --input and --output go with model", sub);
	if (!arch_path)
		return usage_error(io->err, "tensil %s: --arch A.tarch is missing", sub);
	struct ttx_tcu_arch a;
	if (read_arch(io, arch_path, &a))
		return EXIT_USAGE;
	char err[512];
	size_t len;
	char *data = read_file(file, &len, io->err, 1u << 30);
	if (!data)
		return EXIT_USAGE;
	int rc = EXIT_USAGE;
	struct output o = { 0 }, tr = { 0 }, mo[4] = { { 0 } };
	struct ttx_tcu *t = NULL;
	if (strcmp(sub, "asm") == 0 || strcmp(sub, "disasm") == 0) {
		void *res = NULL;
		size_t n = 0;
		enum ttx_status st;
		if (sub[0] == 'a') {
			st = ttx_tcu_assemble(&a, data, len, file, &res, &n, err, sizeof(err));
		} else {
			char *text = NULL;
			st = ttx_tcu_disassemble(&a, data, len, file, &text, err, sizeof(err));
			res = text, n = text ? strlen(text) : 0;
		}
		if (st != TTX_OK) {
			fprintf(io->err, "ttx: %s\n", err);
		} else if (output_open(&o, out_path ? out_path : "-", io->out, io->err) == 0) {
			output_write(&o, res, n);
			rc = output_commit(&o, io->err) ? EXIT_USAGE : 0;
		}
		free(res);
		free(data);
		return rc;
	}
	/* run */
	if (ttx_tcu_create(&a, engine, &t, err, sizeof(err)) != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", err);
		goto done;
	}
	size_t vb = (size_t)ttx_tcu_value_bytes(&a) * a.array_size;
	for (unsigned m = 0; m < 4; m++) {
		if (!mem_in[m])
			continue;
		size_t n;
		char *img = read_file(mem_in[m], &n, io->err, (size_t)1 << 40);
		if (!img)
			goto done;
		enum ttx_status st = n % vb ? TTX_EINVAL : ttx_tcu_write(t, (enum ttx_tcu_memory)m, 0, img, n / vb);
		free(img);
		if (st != TTX_OK) {
			fprintf(io->err, "ttx: %s: %s\n", mem_in[m],
			        n % vb ? "not a whole number of vectors (array_size values of the data type's width)"
			               : ttx_tcu_error(t));
			goto done;
		}
	}
	if (trace_path) {
		if (output_open(&tr, trace_path, io->out, io->err))
			goto done;
		ttx_tcu_set_trace(t, trace_line, tr.f);
	}
	enum ttx_status st = ttx_tcu_run(t, data, len, file, max_insns);
	if (stats) {
		struct ttx_tcu_stats s;
		ttx_tcu_stats_get(t, &s);
		print_tcu_stats(io->err, &s);
	}
	if (st != TTX_OK) {
		fprintf(io->err, "ttx: %s\n", ttx_tcu_error(t));
		rc = st == TTX_FAULT || st == TTX_LIMIT ? EXIT_FAULT : EXIT_USAGE;
		if (rc == EXIT_USAGE)
			goto done;   /* not a program: nothing written */
	} else {
		rc = 0;
	}
	/* the memories after the run (after a fault too: the state at the stop) */
	for (unsigned m = 0; m < 4; m++) {
		if (!mem_out[m])
			continue;
		uint64_t depth = m == TTX_TCU_LOCAL ? a.local_depth : m == TTX_TCU_ACCUMULATORS ? a.accumulator_depth
		                 : m == TTX_TCU_DRAM0 ? a.dram0_depth : a.dram1_depth;
		uint8_t *img = malloc(depth * vb);
		if (!img || output_open(&mo[m], mem_out[m], io->out, io->err)) {
			free(img);
			rc = EXIT_USAGE;
			goto done;
		}
		ttx_tcu_read(t, (enum ttx_tcu_memory)m, 0, img, depth);
		output_write(&mo[m], img, depth * vb);
		free(img);
	}
	for (unsigned m = 0; m < 4; m++)
		if (mo[m].f && output_commit(&mo[m], io->err))
			rc = EXIT_USAGE;
	if (tr.f && output_commit(&tr, io->err))
		rc = EXIT_USAGE;
done:
	for (unsigned m = 0; m < 4; m++)
		output_discard(&mo[m]);
	output_discard(&tr);
	ttx_tcu_destroy(t);
	free(data);
	return rc;
}
