/* Tensor operations (ttx.h, docs/ops.md): host arrays in, the emulated
 * tile computes, host arrays out.
 *
 * The host plays the data-movement cores: it converts and tiles the inputs
 * (ttx_tilize), places blocks of tiles in L1, runs a kernel of the library
 * (kernels/, parameterised by symbols) on the tile's three threads, and
 * reads the result tiles back (ttx_untilize).  Multi-pass operations
 * move intermediate tiles between passes as raw L1 bytes.  No host
 * arithmetic produces a result. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "formats.h"
#include "ttx_kargs.h"
#include "ops.h"

enum ttx_status ops_fail(struct opc *c, enum ttx_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (c->err && c->errlen)
		vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return st;
}

void ops_progress(struct opc *c, double tiles)
{
	c->done += tiles;
	if (c->p.progress && c->total > 0 &&
	    c->p.progress(c->p.progress_ctx, c->done / c->total > 1 ? 1 : c->done / c->total))
		c->stop = 1;
}

static size_t up32(size_t n)
{
	return (n + 31) / 32 * 32;
}

/* ---- symbols and kernels ---- */

void ops_sym(struct syms *s, const char *name, int64_t value)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0) {
			s->v[i].value = value;
			return;
		}
	if (s->n < sizeof(s->v) / sizeof(s->v[0])) {   /* the kernels take about 20 */
		s->v[s->n].name = name;
		s->v[s->n++].value = value;
	}
}

/* The kernels ttx_op_run assembled last on a tile, by kernel and symbols:
   a batch of same-shaped ops assembles each once.  The tile keeps it as
   its attachment. */
struct kernel_cache {
	struct kernel_cache_entry {
		const char *kernel;                       /* NULL: free entry */
		struct ttx_asm_symbol syms[64];
		size_t nsyms;
		struct ttx_program *prog;
	} entry[8];
	unsigned next;
};

static void kernel_cache_free(void *p)
{
	struct kernel_cache *kc = p;
	for (size_t i = 0; i < sizeof(kc->entry) / sizeof(kc->entry[0]); i++)
		ttx_program_free(kc->entry[i].prog);
	free(kc);
}

static bool same_syms(const struct kernel_cache_entry *e, const struct syms *s)
{
	if (e->nsyms != s->n)
		return false;
	for (size_t i = 0; i < s->n; i++)
		if (e->syms[i].value != s->v[i].value || strcmp(e->syms[i].name, s->v[i].name) != 0)
			return false;
	return true;
}

/* The kernel `name` assembled with the symbols s, from the tile's cache
   (which owns it) or parsed into it.  Symbol names are the string
   constants of this file, so the entries keep the pointers. */
static enum ttx_status get_kernel(struct opc *c, const char *name, const struct syms *s,
                                  const struct ttx_program **out)
{
	struct ttx_tile *t = c->t;
	if (c->p.kernels == TTX_KERNELS_RISCV) {   /* run_kernel starts the C programs instead */
		*out = NULL;
		return TTX_OK;
	}
	if (!t->attachment) {
		t->attachment = calloc(1, sizeof(struct kernel_cache));
		if (!t->attachment)
			return ops_fail(c, TTX_ENOMEM, "out of memory for the kernel cache");
		t->attachment_free = kernel_cache_free;
	}
	struct kernel_cache *kc = t->attachment;
	const size_t n = sizeof(kc->entry) / sizeof(kc->entry[0]);
	for (size_t i = 0; i < n; i++) {
		struct kernel_cache_entry *e = &kc->entry[i];
		if (e->kernel && strcmp(e->kernel, name) == 0 && same_syms(e, s)) {
			*out = e->prog;
			return TTX_OK;
		}
	}
	const char *text;
	size_t len;
	char msg[512];
	struct ttx_program *prog;
	if (ttx_kernel_find(name, &text, &len))
		return ops_fail(c, TTX_EINVAL, "kernel %s is not in the library", name);
	if (ttx_program_parse_with(text, len, name, s->v, s->n, &prog, msg, sizeof(msg)) != TTX_OK)
		return ops_fail(c, TTX_EINVAL, "kernel %s: %s (a ttx bug: please report it)", name, msg);
	struct kernel_cache_entry *e = &kc->entry[kc->next++ % n];
	ttx_program_free(e->prog);
	e->kernel = name;
	memcpy(e->syms, s->v, s->n * sizeof(s->v[0]));
	e->nsyms = s->n;
	e->prog = prog;
	*out = prog;
	return TTX_OK;
}

/* The ops' kernels in C for RISCV T0-T2 (kernels/riscv/ops_*.c), built
   into the library (rv_ops_embed.c; empty without a cross compiler). */
extern const unsigned char ttx_rv_ops_unpack[], ttx_rv_ops_math[], ttx_rv_ops_pack[];
extern const size_t ttx_rv_ops_unpack_len, ttx_rv_ops_math_len, ttx_rv_ops_pack_len;

/* Run kernel `name` as the C programs on RISCV T0-T2: their images
   loaded, the symbols written as their arguments (ttx_kargs.h), the three
   cores released.  The images lie below L1_IN, the arguments in RISCV B's
   code area. */
enum ttx_status ops_start_riscv(struct opc *c, const char *name, const struct syms *s)
{
	static const struct {
		const unsigned char *image;
		const size_t *len;
		enum ttx_core core;
	} prog[3] = {
		{ ttx_rv_ops_unpack, &ttx_rv_ops_unpack_len, TTX_CORE_T0 },
		{ ttx_rv_ops_math, &ttx_rv_ops_math_len, TTX_CORE_T1 },
		{ ttx_rv_ops_pack, &ttx_rv_ops_pack_len, TTX_CORE_T2 },
	};
	static const char *const files[KERNEL_COUNT] = TTX_KERNEL_FILES;
	static const char *const names[KARG_COUNT] = {
#define KARG_NAME(n) #n,
		TTX_KARGS_SYMBOLS(KARG_NAME)
#undef KARG_NAME
	};
	struct ttx_tile *t = c->t;
	struct ttx_kargs a;
	memset(&a, 0, sizeof(a));
	a.magic = TTX_KARGS_MAGIC;
	a.kernel = KERNEL_COUNT;
	for (unsigned k = 0; k < KERNEL_COUNT; k++)
		if (strcmp(files[k], name) == 0)
			a.kernel = k;
	if (a.kernel == KERNEL_COUNT)
		return ops_fail(c, TTX_EINVAL, "kernel %s has no C programs for the RISC-V cores (a ttx bug)", name);
	for (size_t i = 0; i < s->n; i++) {
		unsigned k = 0;
		while (k < KARG_COUNT && strcmp(names[k], s->v[i].name) != 0)
			k++;
		if (k == KARG_COUNT)
			return ops_fail(c, TTX_EINVAL, "kernel symbol %s is not in ttx_kargs.h (a ttx bug)", s->v[i].name);
		a.given[k / 32] |= 1u << (k % 32);
		a.value[k] = (int32_t)(uint32_t)s->v[i].value;   /* FP32 bits, addresses, counts */
	}
	ttx_l1_write(t, TTX_KARGS_ADDR, &a, sizeof(a));
	for (unsigned i = 0; i < 3; i++) {
		uint32_t entry;
		if (!*prog[i].len)
			return ops_fail(c, TTX_EINVAL, "--kernels riscv: this libttx was built without a RISC-V cross compiler "
			            "(riscv64-unknown-elf-gcc; ./bootstrap installs it)");
		if (ttx_elf_load(t, prog[i].core, prog[i].image, *prog[i].len, &entry) != TTX_OK ||
		    ttx_core_start(t, prog[i].core, entry) != TTX_OK)
			return ops_fail(c, TTX_FAULT, "the RISC-V kernel for %s: %s (a ttx bug)", ttx_core_name(prog[i].core),
			            ttx_tile_error(t));
	}
	for (unsigned k = 0; k < t->nloaded; k++)
		if (t->loaded[k].end > L1_IN)
			return ops_fail(c, TTX_FAULT, "the RISC-V kernels reach L1 address 0x%X, where the op's data begin (a ttx bug)",
			            t->loaded[k].end);
	return TTX_OK;
}

/* Reset the tile for a kernel run, keeping its statistics; the cycle
   model goes on from where the last kernel ended. */
void ops_clear_tile(struct ttx_tile *t, int keep_l1)
{
	struct ttx_stats st = t->stats;
	uint64_t counts[256];
	memcpy(counts, t->op_counts, sizeof(counts));
	struct ttx_timing tm = t->timing;
	struct { uint64_t insns, cycle, stall[TTX_CORE_STALL_COUNT]; } core[TTX_CORE_COUNT];
	uint64_t core_insns = t->core_insns;
	for (unsigned i = 0; i < TTX_CORE_COUNT; i++) {   /* the cores' totals too (--kernels riscv) */
		core[i].insns = t->core[i].insns, core[i].cycle = t->core[i].cycle;
		memcpy(core[i].stall, t->core[i].stall, sizeof(core[i].stall));
	}
	uint64_t floor = t->cycle_floor;
	if (keep_l1)
		ttx_tile_reset_keep_l1(t);
	else
		ttx_tile_reset(t);
	t->cycle_floor = floor;
	t->stats = st;
	memcpy(t->op_counts, counts, sizeof(counts));
	ttx_timing_resume(t, &tm);
	t->core_insns = core_insns;
	for (unsigned i = 0; i < TTX_CORE_COUNT; i++) {
		t->core[i].insns = core[i].insns, t->core[i].cycle = core[i].cycle;
		memcpy(t->core[i].stall, core[i].stall, sizeof(core[i].stall));
	}
}

/* One kernel run: the assembled kernel prog pushed by the host, or with
   TTX_KERNELS_RISCV, kernel `name` with the symbols s on RISCV T0-T2.
   Between runs the op stops when the host asked (ttx_op_params.progress,
   ttx_options.interrupt). */
static enum ttx_status run_kernel(struct opc *c, const char *name, const struct syms *s,
                                  const struct ttx_program *prog)
{
	const int *interrupt = c->t->opt.interrupt;
	if (c->stop || (interrupt && __atomic_load_n(interrupt, __ATOMIC_RELAXED)))
		return ops_fail(c, TTX_INTERRUPTED, "interrupted");
	enum ttx_status st;
	if (c->p.kernels == TTX_KERNELS_RISCV) {
		if ((st = ops_start_riscv(c, name, s)) != TTX_OK)
			return st;
		st = ttx_run(c->t, 0);
		char why[sizeof(((struct ttx_kargs *)0)->error)];
		ttx_l1_read(c->t, TTX_KARGS_ADDR + offsetof(struct ttx_kargs, error), why, sizeof(why));
		why[sizeof(why) - 1] = 0;
		if (why[0])
			return ops_fail(c, TTX_FAULT, "the RISC-V kernel for %s stopped: %s (a ttx bug)", name, why);
	} else {
		st = ttx_program_run(c->t, prog, 0);
	}
	if (st == TTX_INTERRUPTED)
		return ops_fail(c, st, "interrupted");
	if (st != TTX_OK)
		return ops_fail(c, TTX_FAULT, "the tile stopped: %s", ttx_tile_error(c->t));
	return TTX_OK;
}

/* ---- formats of the kernels ---- */

/* The SFPLOAD format and the way a tile of `f` reaches Dst (unary.s):
   straight from the unpacker (FP32) or through SrcA as BF16 or FP16. */
enum ttx_status ops_input_path(struct opc *c, enum ttx_format f, struct syms *s)
{
	switch (f) {
	case TTX_FORMAT_FP32:
		ops_sym(s, "TO_DST", 1), ops_sym(s, "LOAD_MODE", 3), ops_sym(s, "SRCA_FMT", TTX_FORMAT_TF32);
		return TTX_OK;
	case TTX_FORMAT_BF16: case TTX_FORMAT_BFP8: case TTX_FORMAT_BFP4: case TTX_FORMAT_BFP2:
		ops_sym(s, "TO_DST", 0), ops_sym(s, "LOAD_MODE", 2), ops_sym(s, "SRCA_FMT", TTX_FORMAT_BF16);
		return TTX_OK;
	case TTX_FORMAT_FP16: case TTX_FORMAT_FP8: case TTX_FORMAT_BFP8A: case TTX_FORMAT_BFP4A: case TTX_FORMAT_BFP2A:
		ops_sym(s, "TO_DST", 0), ops_sym(s, "LOAD_MODE", 1), ops_sym(s, "SRCA_FMT", TTX_FORMAT_FP16);
		return TTX_OK;
	case TTX_FORMAT_INT16:    /* raw 16-bit halves (transpose.s PLANES) */
		ops_sym(s, "TO_DST", 0), ops_sym(s, "LOAD_MODE", 6), ops_sym(s, "SRCA_FMT", TTX_FORMAT_INT16);
		return TTX_OK;
	default:
		return ops_fail(c, TTX_EINVAL, "format %s: this operation takes floating-point formats", ttx_format_name(f));
	}
}

/* The packer's chain from FP32 Dst to `f` (pack_setup.s): IntermediateFormat
   (rounding to nearest, ties away), In_data_format, exponent section. */
enum ttx_status ops_output_path(struct opc *c, enum ttx_format f, struct syms *s)
{
	unsigned inter, in, exp = 0;
	switch (f) {
	case TTX_FORMAT_FP32: case TTX_FORMAT_BF16:
		inter = in = (unsigned)f;
		break;
	case TTX_FORMAT_BFP8: case TTX_FORMAT_BFP4: case TTX_FORMAT_BFP2:
		inter = in = TTX_FMT_BFP8, exp = 4;
		break;
	case TTX_FORMAT_BFP8A: case TTX_FORMAT_BFP4A: case TTX_FORMAT_BFP2A:
		inter = in = TTX_FMT_FP32, exp = 4;
		break;
	case TTX_FORMAT_FP16: case TTX_FORMAT_FP8:
		inter = in = TTX_FMT_FP32;
		break;
	default:
		return ops_fail(c, TTX_EINVAL, "output format %s: this operation writes floating-point formats",
		            ttx_format_name(f));
	}
	ops_sym(s, "OUT_FMT", (unsigned)f), ops_sym(s, "PACK_INTER", inter), ops_sym(s, "PACK_IN", in), ops_sym(s, "PACK_EXP", exp);
	return TTX_OK;
}

/* ---- tiled tensors on the host ---- */


void ops_tiled_free(struct tiled *m)
{
	free(m->bytes);
	m->bytes = NULL;
}

uint8_t *ops_tile_at(const struct tiled *m, size_t b, size_t i, size_t j)
{
	return m->bytes + ((b * m->tr + i) * m->tc + j) * m->tile_bytes;
}

/* Pad (with `pad`), convert (to nearest, ties to even) and tile a tensor. */
static enum ttx_status tilize_tensor(struct opc *c, const struct ttx_tensor *x, enum ttx_format f, float pad,
                                     struct tiled *m)
{
	size_t R = up32(x->rows), C = up32(x->cols);
	m->f = f, m->batch = x->batch, m->tr = R / 32, m->tc = C / 32, m->tile_bytes = ttx_format_tile_bytes(f);
	m->bytes = malloc(m->batch * m->tr * m->tc * m->tile_bytes);
	float *buf = malloc(R * C * sizeof(float));
	if (!m->bytes || !buf) {
		free(buf);
		ops_tiled_free(m);
		return ops_fail(c, TTX_ENOMEM, "out of memory");
	}
	for (size_t b = 0; b < x->batch; b++) {
		for (size_t r = 0; r < R; r++)
			for (size_t k = 0; k < C; k++)
				buf[r * C + k] = r < x->rows && k < x->cols ? x->data[(b * x->rows + r) * x->cols + k] : pad;
		ttx_tilize(f, TTX_ROUND_NEAREST_EVEN, buf, R, C, ops_tile_at(m, b, 0, 0), m->tr * m->tc * m->tile_bytes);
	}
	free(buf);
	return TTX_OK;
}

enum ttx_status ops_alloc_tiled(struct opc *c, struct tiled *m, enum ttx_format f, size_t batch, size_t tr,
                                   size_t tc)
{
	m->f = f, m->batch = batch, m->tr = tr, m->tc = tc, m->tile_bytes = ttx_format_tile_bytes(f);
	m->bytes = calloc(batch * tr * tc, m->tile_bytes);
	return m->bytes ? TTX_OK : ops_fail(c, TTX_ENOMEM, "out of memory");
}

/* The top-left rows x cols of each matrix into out. */
static enum ttx_status untilize_tensor(struct opc *c, const struct tiled *m, struct ttx_tensor *out)
{
	size_t R = m->tr * 32, C = m->tc * 32;
	float *buf = malloc(R * C * sizeof(float));
	if (!buf)
		return ops_fail(c, TTX_ENOMEM, "out of memory");
	for (size_t b = 0; b < m->batch; b++) {
		ttx_untilize(m->f, ops_tile_at(m, b, 0, 0), m->tr * m->tc * m->tile_bytes, buf, R, C);
		for (size_t r = 0; r < out->rows; r++)
			memcpy(out->data + (b * out->rows + r) * out->cols, buf + r * C, out->cols * sizeof(float));
	}
	free(buf);
	return TTX_OK;
}

/* ---- unary: the SFPU kernel over every tile ---- */

/* The SFPU function's symbols: FN, PARAM (FP32 bits), and for power whether
   the exponent is a small integer. */
void ops_fn_syms(struct syms *s, int fn, double param)
{
	float f = (float)param;
	uint32_t bits;
	memcpy(&bits, &f, 4);
	ops_sym(s, "FN", fn);
	ops_sym(s, "PARAM", bits);
	int integer = f == floorf(f), small = integer && fabsf(f) <= 31;
	ops_sym(s, "P_INT", small);
	ops_sym(s, "P_ABS", small ? (int64_t)fabsf(f) : 0);
	ops_sym(s, "P_NEG", small && f < 0);
	ops_sym(s, "P_BIGINT", integer && !small);
	ops_sym(s, "P_ODD", integer && !small && fmodf(f, 2.0f) != 0);
}


static enum ttx_status run_stream(struct opc *c, const struct stream *k, struct syms *s, const uint8_t *in,
                                  enum ttx_format in_f, size_t units, enum ttx_format out_f, uint8_t *out)
{
	size_t it = ttx_format_tile_bytes(in_f), ot = ttx_format_tile_bytes(out_f);
	enum ttx_status st;
	if ((st = ops_input_path(c, in_f, s)) != TTX_OK || (st = ops_output_path(c, out_f, s)) != TTX_OK)
		return st;
	ops_sym(s, "IN_FMT", (unsigned)in_f), ops_sym(s, "IN_ADDR", L1_IN), ops_sym(s, "IN_TILE", (int64_t)it);
	ops_sym(s, "OUT_ADDR", L1_OUT), ops_sym(s, "OUT_TILE", (int64_t)ot);
	size_t per = k->max_units;
	while (per > 1 && (per * k->in_per * it > L1_IN2 - L1_IN || per * k->out_per * ot > L1_END - L1_OUT))
		per--;
	if (k->in_per * it > L1_IN2 - L1_IN || k->out_per * ot > L1_END - L1_OUT || k->extra_len > L1_OUT - L1_IN2)
		return ops_fail(c, TTX_EINVAL, "%s: %s needs %zu bytes of L1 for the %zu input tiles it takes at a time and "
		                "%zu bytes for the %zu it writes, more than the %u and %u bytes it has for them (rows too "
		                "long?)", c->op, c->grid ? "tile (0, 0) of the grid" : "the tile", k->in_per * it,
		                k->in_per, k->out_per * ot, k->out_per, L1_IN2 - L1_IN, L1_END - L1_OUT);
	if (c->grid)
		return grid_stream(c, k, s, in, in_f, units, per, out_f, out);
	const struct ttx_program *prog = NULL;
	size_t prog_n = 0;
	for (size_t u = 0; u < units; u += per) {
		size_t n = units - u < per ? units - u : per;
		if (n != prog_n) {
			ops_sym(s, k->count_sym, (int64_t)n);
			if ((st = get_kernel(c, k->kernel, s, &prog)) != TTX_OK)
				break;
			prog_n = n;
		}
		ops_clear_tile(c->t, 0);
		ttx_l1_write(c->t, L1_IN, in + u * k->in_per * it, n * k->in_per * it);
		if (k->extra_len)
			ttx_l1_write(c->t, L1_IN2, k->extra, k->extra_len);
		if ((st = run_kernel(c, k->kernel, s, prog)) != TTX_OK)
			break;
		ttx_l1_read(c->t, L1_OUT, out + u * k->out_per * ot, n * k->out_per * ot);
		ops_progress(c, (double)(n * k->in_per));
	}
	return st;
}

/* Apply an SFPU function to every tile of `in` (any float format), giving
   tiles of `out_f`. */
static enum ttx_status sfpu_tiles(struct opc *c, const struct tiled *in, int fn, double param, enum ttx_format out_f,
                                  struct tiled *out)
{
	enum ttx_status st = ops_alloc_tiled(c, out, out_f, in->batch, in->tr, in->tc);
	if (st != TTX_OK)
		return st;
	struct syms s = { .n = 0 };
	ops_fn_syms(&s, fn, param);
	static const struct stream k = { "unary.s", "NT", 1, 1, MAX_NT, NULL, 0 };
	st = run_stream(c, &k, &s, in->bytes, in->f, in->batch * in->tr * in->tc, out_f, out->bytes);
	if (st != TTX_OK)
		ops_tiled_free(out);
	return st;
}

/* ---- reductions, softmax, layer norm: bands of tiles ---- */

/* The tiles of `m` as bands for a reduction along `dim` (TTX_DIM_ROWS: a
   row of tiles; COLS: a column; ALL: a whole matrix), one after another. */
static uint8_t *bands_of(const struct tiled *m, enum ttx_dim dim, size_t *nbands, size_t *bt)
{
	size_t n = m->batch * m->tr * m->tc;
	uint8_t *v = malloc(n * m->tile_bytes), *p = v;
	if (!v)
		return NULL;
	*nbands = dim == TTX_DIM_ROWS ? m->batch * m->tr : dim == TTX_DIM_COLS ? m->batch * m->tc : m->batch;
	*bt = n / *nbands;
	for (size_t b = 0; b < m->batch; b++) {
		size_t outer = dim == TTX_DIM_COLS ? m->tc : 1, inner = dim == TTX_DIM_COLS ? m->tr : m->tr * m->tc;
		for (size_t o = 0; o < outer; o++)
			for (size_t i = 0; i < inner; i++, p += m->tile_bytes)
				memcpy(p, dim == TTX_DIM_COLS ? ops_tile_at(m, b, i, o) : ops_tile_at(m, b, 0, 0) + i * m->tile_bytes,
				       m->tile_bytes);
	}
	return v;
}

/* Reduce nb bands of bt tiles (`in`, format in_f) to one tile each (`out`,
   format out_f): the tiles combined element-wise, then, with `intile`,
   within the tile along `dim`.  Bands longer than a kernel run holds are
   reduced in parts whose FP32 partial tiles are reduced again. */
static enum ttx_status reduce_bands(struct opc *c, const uint8_t *in, enum ttx_format in_f, size_t nb, size_t bt,
                                    int rop, enum ttx_dim dim, int intile, enum ttx_format out_f, uint8_t *out)
{
	size_t it = ttx_format_tile_bytes(in_f), limit = (L1_IN2 - L1_IN) / it;
	if (limit > MAX_NT)
		limit = MAX_NT;
	struct syms s = { .n = 0 };
	ops_sym(&s, "ROP", rop), ops_sym(&s, "DIM", intile ? (int)dim : 3);
	if (bt <= limit) {
		ops_sym(&s, "BT", (int64_t)bt);
		struct stream k = { "reduce.s", "NB", bt, 1, limit / bt, NULL, 0 };
		return run_stream(c, &k, &s, in, in_f, nb, out_f, out);
	}
	size_t parts = (bt + limit - 1) / limit, pt = ttx_format_tile_bytes(TTX_FORMAT_FP32);
	uint8_t *partial = malloc(parts * pt);
	if (!partial)
		return ops_fail(c, TTX_ENOMEM, "out of memory");
	enum ttx_status st = TTX_OK;
	for (size_t b = 0; b < nb && st == TTX_OK; b++) {
		for (size_t p = 0; p < parts && st == TTX_OK; p++) {
			size_t n = bt - p * limit < limit ? bt - p * limit : limit;
			st = reduce_bands(c, in + (b * bt + p * limit) * it, in_f, 1, n, rop, dim, 0, TTX_FORMAT_FP32,
			                  partial + p * pt);
		}
		if (st == TTX_OK)
			st = reduce_bands(c, partial, TTX_FORMAT_FP32, 1, parts, rop, dim, intile, out_f,
			                  out + b * ttx_format_tile_bytes(out_f));
	}
	free(partial);
	return st;
}

/* ---- matmul ---- */

/* The unpacker's output format for a tile of `f` bound for SrcA / SrcB
   (TC/Unpackers/FormatConversion.md): FP32 becomes TF32, every other format
   is named as itself (the register then holds BF16 or FP16). */
enum ttx_status ops_src_format(struct opc *c, enum ttx_format f, unsigned *out)
{
	switch (f) {
	case TTX_FORMAT_FP32:
		*out = TTX_FMT_TF32;
		return TTX_OK;
	case TTX_FORMAT_BF16: case TTX_FORMAT_BFP8: case TTX_FORMAT_BFP4: case TTX_FORMAT_BFP2:
	case TTX_FORMAT_FP16: case TTX_FORMAT_FP8: case TTX_FORMAT_BFP8A: case TTX_FORMAT_BFP4A: case TTX_FORMAT_BFP2A:
		*out = (unsigned)f;
		return TTX_OK;
	default:
		return ops_fail(c, TTX_EINVAL, "format %s: the Matrix Unit takes fp32, bf16, fp16, fp8 or a bfp format",
		            ttx_format_name(f));
	}
}

/* C (batch x M x N) = A (batch x M x K) B (batch or 1 x K x N), by blocks of
   bm x bn output tiles and kc tiles of K a kernel run.  When K is split,
   the partial sums accumulate in L1 as FP32 (the packer's L1
   accumulation) and a last run converts them to the output format. */
static enum ttx_status matmul_tiles(struct opc *c, const struct tiled *a, const struct tiled *b, enum ttx_format out_f,
                                   struct tiled *out)
{
	if (c->grid)
		return grid_matmul(c, a, b, out_f, out);
	size_t Mt = a->tr, Kt = a->tc, Nt = b->tc;
	unsigned srcf = 0;
	enum ttx_status st = ops_src_format(c, a->f, &srcf);
	if (st != TTX_OK)
		return st;
	size_t kc = Kt < 32 ? Kt : 32, nk = (Kt + kc - 1) / kc;
	enum ttx_format acc_f = nk > 1 ? TTX_FORMAT_FP32 : out_f;
	size_t at = a->tile_bytes, bt = b->tile_bytes, ct = ttx_format_tile_bytes(acc_f);
	size_t bm = Mt < 8 ? Mt : 8, bn = Nt < 8 ? Nt : 8;
	while ((bm * kc * at + kc * bn * bt + bm * bn * ct) > L1_END - L1_IN && (bm > 1 || bn > 1)) {
		if (bm >= bn)
			bm = (bm + 1) / 2;
		else
			bn = (bn + 1) / 2;
	}
	if ((st = ops_alloc_tiled(c, out, acc_f, a->batch, Mt, Nt)) != TTX_OK)
		return st;
	uint8_t *ablk = malloc(bm * kc * at), *bblk = malloc(kc * bn * bt), *cblk = malloc(bm * bn * ct);
	const struct ttx_program *prog = NULL;
	size_t pm = 0, pn = 0, pk = 0, pacc = 2;
	struct syms s = { .n = 0 };
	if (!ablk || !bblk || !cblk) {
		st = ops_fail(c, TTX_ENOMEM, "out of memory");
		goto done;
	}
	if ((st = ops_output_path(c, acc_f, &s)) != TTX_OK)
		goto done;
	uint32_t A0 = L1_IN, B0 = (uint32_t)(A0 + bm * kc * at), C0 = (uint32_t)(B0 + kc * bn * bt);
	C0 = (C0 + 15) & ~15u;
	ops_sym(&s, "IN_FMT", (unsigned)a->f), ops_sym(&s, "SRC_FMT", srcf), ops_sym(&s, "PHASES", (int)c->p.fidelity + 1);
	ops_sym(&s, "A_ADDR", A0), ops_sym(&s, "A_TILE", (int64_t)at), ops_sym(&s, "B_ADDR", B0), ops_sym(&s, "B_TILE", (int64_t)bt);
	ops_sym(&s, "C_ADDR", C0), ops_sym(&s, "C_TILE", (int64_t)ct);
	for (size_t n = 0; n < a->batch; n++) {
		size_t nb = b->batch == 1 ? 0 : n;
		for (size_t i0 = 0; i0 < Mt; i0 += bm)
			for (size_t j0 = 0; j0 < Nt; j0 += bn) {
				size_t mt = Mt - i0 < bm ? Mt - i0 : bm, nt = Nt - j0 < bn ? Nt - j0 : bn;
				for (size_t kb = 0; kb < nk; kb++) {
					size_t k0 = kb * kc, kt = Kt - k0 < kc ? Kt - k0 : kc;
					int acc = kb > 0;
					if (mt != pm || nt != pn || kt != pk || acc != (int)pacc) {
						ops_sym(&s, "MT", (int64_t)mt), ops_sym(&s, "NT", (int64_t)nt), ops_sym(&s, "KT", (int64_t)kt);
						ops_sym(&s, "L1_ACC", acc);
						if ((st = get_kernel(c, "matmul.s", &s, &prog)) != TTX_OK)
							goto done;
						pm = mt, pn = nt, pk = kt, pacc = (size_t)acc;
					}
					/* the streams: A by rows of tiles, B by columns */
					for (size_t i = 0; i < mt; i++)
						for (size_t k = 0; k < kt; k++)
							memcpy(ablk + (i * kt + k) * at, ops_tile_at(a, n, i0 + i, k0 + k), at);
					for (size_t j = 0; j < nt; j++)
						for (size_t k = 0; k < kt; k++)
							memcpy(bblk + (j * kt + k) * bt, ops_tile_at(b, nb, k0 + k, j0 + j), bt);
					ops_clear_tile(c->t, 0);
					ttx_l1_write(c->t, A0, ablk, mt * kt * at);
					ttx_l1_write(c->t, B0, bblk, nt * kt * bt);
					if (acc)
						ttx_l1_write(c->t, C0, cblk, mt * nt * ct);
					if ((st = run_kernel(c, "matmul.s", &s, prog)) != TTX_OK)
						goto done;
					ttx_l1_read(c->t, C0, cblk, mt * nt * ct);
					ops_progress(c, (double)(mt * nt * kt));
				}
				for (size_t i = 0; i < mt; i++)
					for (size_t j = 0; j < nt; j++)
						memcpy(ops_tile_at(out, n, i0 + i, j0 + j), cblk + (i * nt + j) * ct, ct);
			}
	}
	if (acc_f != out_f) {
		struct tiled conv = { 0 };
		if ((st = sfpu_tiles(c, out, FN_COPY, 0, out_f, &conv)) != TTX_OK)
			goto done;
		ops_tiled_free(out);
		*out = conv;
	}
done:
	free(ablk), free(bblk), free(cblk);
	if (st != TTX_OK)
		ops_tiled_free(out);
	return st;
}

/* ---- the operations ---- */

struct opdef;
typedef enum ttx_status (*shape_fn)(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out);
typedef enum ttx_status (*run_fn)(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                  struct ttx_tensor *out);

struct opdef {
	struct ttx_op_info info;
	shape_fn shape;
	run_fn run;
	int fn;                /* unary: the SFPU function */
	double param;          /* the parameter's default */
};

static size_t tiles_of(const struct ttx_tensor *x)
{
	return x->batch * (up32(x->rows) / 32) * (up32(x->cols) / 32);
}

static enum ttx_status same_shape(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out)
{
	(void)c;
	out->batch = in->batch, out->rows = in->rows, out->cols = in->cols;
	return TTX_OK;
}

static enum ttx_status run_unary(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                 struct ttx_tensor *out)
{
	struct tiled a = { 0 }, r = { 0 };
	c->total = (double)tiles_of(in);
	enum ttx_status st = tilize_tensor(c, in, c->p.format, 0.0f, &a);
	if (st == TTX_OK)
		st = sfpu_tiles(c, &a, d->fn, c->p.has_param ? c->p.param : d->param, c->p.out_format, &r);
	if (st == TTX_OK)
		st = untilize_tensor(c, &r, out);
	ops_tiled_free(&a), ops_tiled_free(&r);
	return st;
}

static enum ttx_status matmul_shape(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out)
{
	if (in[0].cols != in[1].rows)
		return ops_fail(c, TTX_EINVAL, "A is %zu x %zu and B is %zu x %zu: A's columns must match B's rows",
		            in[0].rows, in[0].cols, in[1].rows, in[1].cols);
	if (in[1].batch != 1 && in[1].batch != in[0].batch)
		return ops_fail(c, TTX_EINVAL, "batches of %zu and %zu (B's batch must be 1 or A's)", in[0].batch,
		            in[1].batch);
	out->batch = in[0].batch, out->rows = in[0].rows, out->cols = in[1].cols;
	return TTX_OK;
}

static enum ttx_status run_matmul(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                  struct ttx_tensor *out)
{
	(void)d;
	struct tiled a = { 0 }, b = { 0 }, r = { 0 };
	size_t Kt = up32(in[0].cols) / 32, nk = (Kt + 31) / 32;
	c->total = (double)(in[0].batch * (up32(in[0].rows) / 32) * (up32(in[1].cols) / 32) * Kt);
	if (nk > 1 && c->p.out_format != TTX_FORMAT_FP32)
		c->total += (double)tiles_of(out);
	enum ttx_status st = tilize_tensor(c, &in[0], c->p.format, 0.0f, &a);
	if (st == TTX_OK)
		st = tilize_tensor(c, &in[1], c->p.format, 0.0f, &b);
	if (st == TTX_OK)
		st = matmul_tiles(c, &a, &b, c->p.out_format, &r);
	if (st == TTX_OK)
		st = untilize_tensor(c, &r, out);
	ops_tiled_free(&a), ops_tiled_free(&b), ops_tiled_free(&r);
	return st;
}

static uint32_t f32_bits(double x)
{
	float f = (float)x;
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static enum ttx_status reduce_shape(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out)
{
	out->batch = in->batch;
	out->rows = c->p.dim == TTX_DIM_ROWS ? in->rows : 1;
	out->cols = c->p.dim == TTX_DIM_COLS ? in->cols : 1;
	return TTX_OK;
}

/* reduce_sum (fn 0), reduce_max (fn 1): padding is 0 or -Inf. */
static enum ttx_status run_reduce(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                  struct ttx_tensor *out)
{
	struct tiled a = { 0 };
	uint8_t *bands = NULL, *res = NULL;
	size_t nb = 0, bt = 0, ot = ttx_format_tile_bytes(c->p.out_format);
	float buf[32 * 32];
	c->total = (double)tiles_of(in);
	enum ttx_status st = tilize_tensor(c, in, c->p.format, d->fn ? -INFINITY : 0.0f, &a);
	if (st != TTX_OK)
		return st;
	bands = bands_of(&a, c->p.dim, &nb, &bt);
	res = bands ? malloc(nb * ot) : NULL;
	if (!res)
		st = ops_fail(c, TTX_ENOMEM, "out of memory");
	if (st == TTX_OK)
		st = reduce_bands(c, bands, a.f, nb, bt, d->fn, c->p.dim, 1, c->p.out_format, res);
	for (size_t k = 0; st == TTX_OK && k < nb; k++) {
		/* band k's result: column 0 (rows), row 0 (columns) or [0][0] */
		ttx_untilize(c->p.out_format, res + k * ot, ot, buf, 32, 32);
		size_t per = nb / in->batch, b = k / per, i = k % per;
		for (size_t r = 0; r < 32; r++) {
			size_t at = c->p.dim == TTX_DIM_ROWS ? 32 * i + r : c->p.dim == TTX_DIM_COLS ? 32 * i + r : r;
			size_t lim = c->p.dim == TTX_DIM_ROWS ? out->rows : c->p.dim == TTX_DIM_COLS ? out->cols : 1;
			if (at < lim)
				out->data[b * out->rows * out->cols + at] = c->p.dim == TTX_DIM_ROWS ? buf[r * 32] : buf[r];
		}
	}
	ops_tiled_free(&a);
	free(bands), free(res);
	return st;
}

static enum ttx_status run_softmax(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                   struct ttx_tensor *out)
{
	(void)d;
	struct tiled a = { 0 }, r = { 0 };
	c->total = (double)tiles_of(in);
	enum ttx_status st = tilize_tensor(c, in, c->p.format, -INFINITY, &a);
	if (st == TTX_OK)
		st = ops_alloc_tiled(c, &r, c->p.out_format, a.batch, a.tr, a.tc);
	if (st == TTX_OK) {
		struct syms s = { .n = 0 };
		ops_sym(&s, "BT", (int64_t)a.tc);
		struct stream k = { "softmax.s", "NB", a.tc, a.tc, a.tc >= 32 ? 1 : 32 / a.tc, NULL, 0 };
		st = run_stream(c, &k, &s, a.bytes, a.f, a.batch * a.tr, r.f, r.bytes);
	}
	if (st == TTX_OK)
		st = untilize_tensor(c, &r, out);
	ops_tiled_free(&a), ops_tiled_free(&r);
	return st;
}

static enum ttx_status layernorm_shape(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out)
{
	for (unsigned i = 1; i < c->nin; i++)
		if (in[i].batch != 1 || in[i].rows != 1 || in[i].cols != in[0].cols)
			return ops_fail(c, TTX_EINVAL, "%s must have %zu values (one a column), not %zu x %zu x %zu",
			            i == 1 ? "gamma" : "beta", in[0].cols, in[i].batch, in[i].rows, in[i].cols);
	if (c->nin == 2)
		return ops_fail(c, TTX_EINVAL, "the inputs are x, or x, gamma and beta");
	return same_shape(c, in, out);
}

static enum ttx_status run_layernorm(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                     struct ttx_tensor *out)
{
	struct tiled a = { 0 }, g = { 0 }, be = { 0 }, r = { 0 };
	c->total = (double)tiles_of(in);
	enum ttx_status st = tilize_tensor(c, in, c->p.format, 0.0f, &a);
	uint8_t *extra = NULL;
	size_t it = ttx_format_tile_bytes(c->p.format);
	if (st == TTX_OK && c->nin == 3) {
		/* gamma and beta, each row repeated down the tile */
		float *rep = malloc(32 * in[0].cols * sizeof(float));
		if (!rep)
			st = ops_fail(c, TTX_ENOMEM, "out of memory");
		for (unsigned k = 1; st == TTX_OK && k < 3; k++) {
			for (size_t i = 0; i < 32; i++)
				memcpy(rep + i * in[0].cols, in[k].data, in[0].cols * sizeof(float));
			struct ttx_tensor t = { rep, 1, 32, in[0].cols };
			st = tilize_tensor(c, &t, c->p.format, 0.0f, k == 1 ? &g : &be);
		}
		free(rep);
		if (st == TTX_OK && !(extra = malloc(2 * a.tc * it)))
			st = ops_fail(c, TTX_ENOMEM, "out of memory");
		if (st == TTX_OK) {
			memcpy(extra, g.bytes, a.tc * it);
			memcpy(extra + a.tc * it, be.bytes, a.tc * it);
		}
	}
	if (st == TTX_OK)
		st = ops_alloc_tiled(c, &r, c->p.out_format, a.batch, a.tr, a.tc);
	if (st == TTX_OK) {
		struct syms s = { .n = 0 };
		double n = (double)in->cols, pad = (double)(a.tc * 32 - in->cols);
		ops_sym(&s, "BT", (int64_t)a.tc), ops_sym(&s, "INV_N", f32_bits(1.0 / n)), ops_sym(&s, "PADC", f32_bits(pad / n));
		ops_sym(&s, "EPS", f32_bits(c->p.has_param ? c->p.param : d->param)), ops_sym(&s, "AFFINE", c->nin == 3);
		ops_sym(&s, "G_ADDR", L1_IN2), ops_sym(&s, "BETA_ADDR", (int64_t)(L1_IN2 + a.tc * it));
		struct stream k = { "layernorm.s", "NB", a.tc, a.tc, a.tc >= 32 ? 1 : 32 / a.tc, extra,
		                    extra ? 2 * a.tc * it : 0 };
		st = run_stream(c, &k, &s, a.bytes, a.f, a.batch * a.tr, r.f, r.bytes);
	}
	if (st == TTX_OK)
		st = untilize_tensor(c, &r, out);
	free(extra);
	ops_tiled_free(&a), ops_tiled_free(&g), ops_tiled_free(&be), ops_tiled_free(&r);
	return st;
}

/* ---- element-wise add, sub, mul with NumPy broadcasting ---- */

static enum ttx_status binary_shape(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out)
{
	size_t a[3] = { in[0].batch, in[0].rows, in[0].cols }, b[3] = { in[1].batch, in[1].rows, in[1].cols }, o[3];
	for (int k = 0; k < 3; k++) {
		if (a[k] != b[k] && a[k] != 1 && b[k] != 1)
			return ops_fail(c, TTX_EINVAL, "shapes %zu x %zu x %zu and %zu x %zu x %zu do not broadcast together",
			            a[0], a[1], a[2], b[0], b[1], b[2]);
		o[k] = a[k] > b[k] ? a[k] : b[k];
	}
	out->batch = o[0], out->rows = o[1], out->cols = o[2];
	return TTX_OK;
}

static int is_full(const struct ttx_tensor *x, const struct ttx_tensor *out)
{
	return x->batch == out->batch && x->rows == out->rows && x->cols == out->cols;
}

/* x repeated along its dimensions of 1 to the shape of `out` (data
   movement, as a reader kernel would do it) into *full. */
static enum ttx_status expand(struct opc *c, const struct ttx_tensor *x, const struct ttx_tensor *out, float **buf,
                              struct ttx_tensor *full)
{
	*full = *out;
	if (!(*buf = malloc(out->batch * out->rows * out->cols * sizeof(float))))
		return ops_fail(c, TTX_ENOMEM, "out of memory");
	for (size_t b = 0; b < out->batch; b++)
		for (size_t i = 0; i < out->rows; i++)
			for (size_t j = 0; j < out->cols; j++)
				(*buf)[(b * out->rows + i) * out->cols + j] =
				        x->data[((x->batch == 1 ? 0 : b) * x->rows + (x->rows == 1 ? 0 : i)) * x->cols +
				                (x->cols == 1 ? 0 : j)];
	full->data = *buf;
	return TTX_OK;
}

/* add (fn 0), sub (1), mul (2).  16-bit and BFP formats go through the
   Matrix Unit (binary.s), which broadcasts B's row, column or scalar; A must
   have the result's shape, so for add and mul the operands swap when only B
   does, and otherwise the host repeats A.  FP32 goes through the SFPU
   (binary_sfpu.s), with both operands repeated by the host. */
static enum ttx_status run_binary(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                  struct ttx_tensor *out)
{
	const struct ttx_tensor *A = &in[0], *B = &in[1];
	int sfpu = c->p.format == TTX_FORMAT_FP32;
	if (!is_full(A, out) && is_full(B, out) && d->fn != 1 && !sfpu)
		A = &in[1], B = &in[0];
	struct ttx_tensor fa, fb;
	float *ra = NULL, *rb = NULL;
	struct tiled a = { 0 }, b = { 0 }, r = { 0 };
	uint8_t *bs = NULL;
	unsigned srcf = 0;
	c->total = 2.0 * (double)tiles_of(out);   /* two tiles a unit */
	enum ttx_status st = TTX_OK;
	if (!is_full(A, out) && (st = expand(c, A, out, &ra, &fa)) == TTX_OK)
		A = &fa;
	if (st == TTX_OK && sfpu && !is_full(B, out) && (st = expand(c, B, out, &rb, &fb)) == TTX_OK)
		B = &fb;
	int brow = B->rows == 1 && out->rows > 1, bcol = B->cols == 1 && out->cols > 1;
	if (st == TTX_OK)
		st = tilize_tensor(c, A, c->p.format, 0.0f, &a);
	if (st == TTX_OK)
		st = tilize_tensor(c, B, c->p.format, 0.0f, &b);
	if (st == TTX_OK && !sfpu)
		st = ops_src_format(c, a.f, &srcf);
	if (st == TTX_OK)
		st = ops_alloc_tiled(c, &r, c->p.out_format, a.batch, a.tr, a.tc);
	/* units of two tiles: A's, then B's (the broadcast ones repeated) */
	size_t n = a.batch * a.tr * a.tc, at = a.tile_bytes;
	if (st == TTX_OK && !(bs = malloc(2 * n * at)))
		st = ops_fail(c, TTX_ENOMEM, "out of memory");
	for (size_t k = 0; st == TTX_OK && k < n; k++) {
		size_t bb = k / (a.tr * a.tc), i = k / a.tc % a.tr, j = k % a.tc;
		memcpy(bs + 2 * k * at, a.bytes + k * at, at);
		memcpy(bs + (2 * k + 1) * at, ops_tile_at(&b, b.batch == 1 ? 0 : bb, brow ? 0 : i, bcol ? 0 : j), at);
	}
	if (st == TTX_OK) {
		struct syms s = { .n = 0 };
		ops_sym(&s, "EOP", d->fn), ops_sym(&s, "BCAST", brow | bcol << 1), ops_sym(&s, "PHASES", (int)c->p.fidelity + 1);
		ops_sym(&s, "SRC_FMT", srcf);
		struct stream k = { sfpu ? "binary_sfpu.s" : "binary.s", "NT", 2, 1, MAX_NT / 2, NULL, 0 };
		st = run_stream(c, &k, &s, bs, a.f, n, r.f, r.bytes);
	}
	if (st == TTX_OK)
		st = untilize_tensor(c, &r, out);
	free(ra), free(rb), free(bs);
	ops_tiled_free(&a), ops_tiled_free(&b), ops_tiled_free(&r);
	return st;
}

static enum ttx_status transpose_shape(struct opc *c, const struct ttx_tensor *in, struct ttx_tensor *out)
{
	(void)c;
	out->batch = in->batch, out->rows = in->cols, out->cols = in->rows;
	return TTX_OK;
}

/* Each tile transposed on the tile (transpose.s), the host placing tile
   (i, j) at (j, i).  FP32 tiles travel as two INT16 tiles, the high and the
   low halves of their datums. */
static enum ttx_status run_transpose(struct opc *c, const struct opdef *d, const struct ttx_tensor *in,
                                     struct ttx_tensor *out)
{
	(void)d;
	struct tiled a = { 0 }, r = { 0 };
	uint8_t *stream = NULL;
	int planes = c->p.format == TTX_FORMAT_FP32;
	c->total = (double)tiles_of(in) * (planes ? 2 : 1);
	enum ttx_status st = tilize_tensor(c, in, c->p.format, 0.0f, &a);
	if (st == TTX_OK)
		st = ops_alloc_tiled(c, &r, c->p.out_format, a.batch, a.tc, a.tr);
	size_t n = a.batch * a.tr * a.tc, it = planes ? 2048 : a.tile_bytes;
	if (st == TTX_OK && !(stream = malloc(n * (planes ? 2 : 1) * it)))
		st = ops_fail(c, TTX_ENOMEM, "out of memory");
	for (size_t k = 0; st == TTX_OK && k < n; k++) {
		/* output tile k = (b, j, i) comes from input tile (b, i, j) */
		size_t b = k / (a.tr * a.tc), j = k / a.tr % a.tc, i = k % a.tr;
		const uint8_t *src = ops_tile_at(&a, b, i, j);
		if (!planes) {
			memcpy(stream + k * it, src, it);
			continue;
		}
		uint8_t *hi = stream + 2 * k * it, *lo = hi + it;
		for (size_t e = 0; e < 1024; e++) {
			lo[2 * e] = src[4 * e], lo[2 * e + 1] = src[4 * e + 1];
			hi[2 * e] = src[4 * e + 2], hi[2 * e + 1] = src[4 * e + 3];
		}
	}
	if (st == TTX_OK) {
		struct syms s = { .n = 0 };
		ops_sym(&s, "PLANES", planes);
		struct stream k = { "transpose.s", "NT", planes ? 2 : 1, 1, planes ? MAX_NT / 2 : MAX_NT, NULL, 0 };
		st = run_stream(c, &k, &s, stream, planes ? TTX_FORMAT_INT16 : a.f, n, r.f, r.bytes);
	}
	if (st == TTX_OK)
		st = untilize_tensor(c, &r, out);
	free(stream);
	ops_tiled_free(&a), ops_tiled_free(&r);
	return st;
}

#define UNARY(name, fn, params, summary) { { name, 1, 1, params, summary }, same_shape, run_unary, fn, 0 }

static const struct opdef ops[] = {
	{ { "matmul", 2, 2, "--fidelity", "A B (A: [batch] M x K, B: [batch] K x N)" }, matmul_shape, run_matmul, 0, 0 },
	{ { "add", 2, 2, "", "A + B (NumPy broadcasting: B's row, column or scalar in the kernel)" }, binary_shape,
	  run_binary, 0, 0 },
	{ { "sub", 2, 2, "", "A - B (broadcasting as add)" }, binary_shape, run_binary, 1, 0 },
	{ { "mul", 2, 2, "--fidelity", "A * B (broadcasting as add)" }, binary_shape, run_binary, 2, 0 },
	{ { "reduce_sum", 1, 1, "--dim rows|cols|all", "sums along each row (M x 1), column (1 x N) or all (1 x 1)" },
	  reduce_shape, run_reduce, 0, 0 },
	{ { "reduce_max", 1, 1, "--dim rows|cols|all", "maxima along each row, column or all" }, reduce_shape,
	  run_reduce, 1, 0 },
	{ { "softmax", 1, 1, "", "e^x / (sum of e^x), along each row" }, same_shape, run_softmax, 0, 0 },
	{ { "layernorm", 1, 3, "[--in GAMMA --in BETA] --param EPS (1e-5)", "(x - mean) / sqrt(var + EPS) [gamma + beta], along each row" },
	  layernorm_shape, run_layernorm, 0, 1e-5 },
	{ { "transpose", 1, 1, "", "the transpose of each matrix (N x M)" }, transpose_shape, run_transpose, 0, 0 },
	UNARY("exp", FN_EXP, "", "e^x"),
	UNARY("log", FN_LOG, "", "ln x (x < 0: NaN, 0: -Inf)"),
	UNARY("reciprocal", FN_RECIP, "", "1 / x"),
	UNARY("sqrt", FN_SQRT, "", "sqrt x (x < 0: NaN)"),
	UNARY("rsqrt", FN_RSQRT, "", "1 / sqrt x (x < 0: NaN)"),
	UNARY("sigmoid", FN_SIGMOID, "", "1 / (1 + e^-x)"),
	UNARY("tanh", FN_TANH, "", "tanh x"),
	UNARY("gelu", FN_GELU, "", "x Phi(x) (the erf form)"),
	UNARY("gelu_tanh", FN_GELU_TANH, "", "the tanh approximation of gelu"),
	UNARY("silu", FN_SILU, "", "x sigmoid(x)"),
	UNARY("relu", FN_RELU, "", "max(x, 0)"),
	{ { "leaky_relu", 1, 1, "--param SLOPE (0.01)", "x < 0 ? SLOPE x : x" }, same_shape, run_unary, FN_LEAKY_RELU,
	  0.01 },
	UNARY("abs", FN_ABS, "", "|x|"),
	UNARY("square", FN_SQUARE, "", "x * x"),
	{ { "power", 1, 1, "--param P (2)", "x^P (integer P: repeated products up to |P| = 31, beyond e^(P ln |x|) signed as x^P; else e^(P ln x))" }, same_shape,
	  run_unary, FN_POWER, 2 },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* The infos as one array, filled once (ttx_op_list may be called from
   many threads at once: ttx batch). */
static struct ttx_op_info op_infos[NOPS + 1];   /* and an entry of NULL name */
static pthread_once_t op_infos_once = PTHREAD_ONCE_INIT;

static void fill_op_infos(void)
{
	for (size_t i = 0; i < NOPS; i++)
		op_infos[i] = ops[i].info;
}

const struct ttx_op_info *ttx_op_list(size_t *n)
{
	pthread_once(&op_infos_once, fill_op_infos);
	if (n)
		*n = NOPS;
	return op_infos;
}

void ttx_op_params_default(struct ttx_op_params *p)
{
	if (!p)
		return;
	memset(p, 0, sizeof(*p));
	p->format = TTX_FORMAT_BF16;
	p->out_format = TTX_FORMAT_FP32;
	p->fidelity = TTX_FIDELITY_HIFI4;
	p->dim = TTX_DIM_ROWS;
}

static const struct opdef *find_op(const char *name)
{
	for (size_t i = 0; name && i < NOPS; i++)
		if (strcmp(ops[i].info.name, name) == 0)
			return &ops[i];
	return NULL;
}

static enum ttx_status check(struct opc *c, const struct opdef *d, const struct ttx_tensor *in, unsigned nin)
{
	if (!d)
		return ops_fail(c, TTX_EINVAL, "unknown operation (ttx op --list shows them)");
	if (nin < d->info.min_inputs || nin > d->info.max_inputs)
		return ops_fail(c, TTX_EINVAL, "takes %u input%s, got %u", d->info.min_inputs,
		            d->info.min_inputs == 1 ? "" : "s", nin);
	for (unsigned i = 0; i < nin; i++) {
		if (!in || !in[i].data || !in[i].batch || !in[i].rows || !in[i].cols)
			return ops_fail(c, TTX_EINVAL, "input %u is empty", i + 1);
		if (in[i].rows > 65536 || in[i].cols > 65536 || in[i].batch > 65536)
			return ops_fail(c, TTX_EINVAL, "input %u is too large (%zu x %zu x %zu)", i + 1, in[i].batch,
			            in[i].rows, in[i].cols);
	}
	if (!ttx_format_info((unsigned)c->p.format) || !ttx_format_info((unsigned)c->p.out_format))
		return ops_fail(c, TTX_EINVAL, "not a data format");
	for (int k = 0; k < 2; k++) {
		enum ttx_format f = k ? c->p.out_format : c->p.format;
		if (f == TTX_FORMAT_TF32 || f == TTX_FORMAT_INT8 || f == TTX_FORMAT_UINT8 || f == TTX_FORMAT_INT16 ||
		    f == TTX_FORMAT_INT32)
			return ops_fail(c, TTX_EINVAL, "%s format %s: the operations take fp32, bf16, fp16, fp8 and the bfp "
			            "formats%s", k ? "output" : "input", ttx_format_name(f),
			            f == TTX_FORMAT_TF32 ? " (fp32 goes to the Matrix Unit as tf32)" : "");
	}
	if ((unsigned)c->p.fidelity > TTX_FIDELITY_HIFI4 || (unsigned)c->p.dim > TTX_DIM_ALL)
		return ops_fail(c, TTX_EINVAL, "bad fidelity or dimension");
	if ((unsigned)c->p.kernels > TTX_KERNELS_RISCV)
		return ops_fail(c, TTX_EINVAL, "bad kernels value %d (TTX_KERNELS_ASM or TTX_KERNELS_RISCV)", (int)c->p.kernels);
	return TTX_OK;
}

enum ttx_status ttx_op_shape(const char *op, const struct ttx_tensor *in, unsigned nin, const struct ttx_op_params *p,
                             size_t *batch, size_t *rows, size_t *cols, char *err, size_t errlen)
{
	struct opc c = { .err = err, .errlen = errlen, .nin = nin };
	if (p)
		c.p = *p;
	else
		ttx_op_params_default(&c.p);
	if (!batch || !rows || !cols)
		return ops_fail(&c, TTX_EINVAL, "ttx_op_shape: an output pointer (batch, rows, cols) is NULL");
	const struct opdef *d = find_op(op);
	enum ttx_status st = check(&c, d, in, nin);
	if (st != TTX_OK)
		return st;
	struct ttx_tensor o = { 0 };
	if ((st = d->shape(&c, in, &o)) != TTX_OK)
		return st;
	*batch = o.batch, *rows = o.rows, *cols = o.cols;
	return TTX_OK;
}

/* ---- memory ---- */

/* acc += a * b, saturating at SIZE_MAX. */
static void add_product(size_t *acc, size_t a, size_t b)
{
	size_t m;
	if (__builtin_mul_overflow(a, b, &m) || __builtin_add_overflow(*acc, m, acc))
		*acc = SIZE_MAX;
}

/* A tensor of x's shape as tiles of f: their bytes, and tilize_tensor's
   padded float copy of one matrix. */
static void add_tiled(size_t *acc, const struct ttx_tensor *x, enum ttx_format f)
{
	add_product(acc, tiles_of(x), ttx_format_tile_bytes(f));
	add_product(acc, up32(x->rows), up32(x->cols) * sizeof(float));
}

/* An upper bound of what d->run allocates, and the result array.  Every op
   holds its inputs and its result as tiles (tiled copies of expanded
   operands for broadcasting, an FP32 copy for a split inner dimension or a
   conversion), one padded float matrix to tilize or untilize, and streams
   of tiles for the kernels; the kernel runs themselves use the tile's L1. */
static size_t op_memory(const struct opdef *d, const struct ttx_op_params *p, const struct ttx_tensor *in,
                        unsigned nin, const struct ttx_tensor *out)
{
	size_t bytes = 0, big = ttx_format_tile_bytes(TTX_FORMAT_FP32);
	add_product(&bytes, out->batch * out->rows, out->cols * sizeof(float));   /* the result */
	add_tiled(&bytes, out, p->out_format);
	add_product(&bytes, 2 * tiles_of(out), big);                              /* FP32 copies, conversions */
	if (d->run == run_binary) {
		/* both operands expanded to the result's shape, tiled, paired */
		add_product(&bytes, 2 * out->batch * out->rows, out->cols * sizeof(float));
		add_product(&bytes, 4 * tiles_of(out), ttx_format_tile_bytes(p->format));
		add_product(&bytes, 2, up32(out->rows) * up32(out->cols) * sizeof(float));
		return bytes;
	}
	for (unsigned i = 0; i < nin; i++) {
		add_tiled(&bytes, &in[i], p->format);
		add_product(&bytes, 2 * tiles_of(&in[i]), big);                       /* bands, planes, streams */
	}
	return bytes;
}

enum ttx_status ttx_op_memory(const char *op, const struct ttx_tensor *in, unsigned nin, const struct ttx_op_params *p,
                              size_t *bytes, char *err, size_t errlen)
{
	struct opc c = { .err = err, .errlen = errlen, .nin = nin };
	if (p)
		c.p = *p;
	else
		ttx_op_params_default(&c.p);
	if (!bytes)
		return ops_fail(&c, TTX_EINVAL, "ttx_op_memory: bytes is NULL");
	struct ttx_tensor o;
	enum ttx_status st = ttx_op_shape(op, in, nin, &c.p, &o.batch, &o.rows, &o.cols, err, errlen);
	if (st == TTX_OK)
		*bytes = op_memory(find_op(op), &c.p, in, nin, &o);
	return st;
}

/* "a x b x c and d x e x f" for messages. */
static void describe_shapes(char *buf, size_t len, const struct ttx_tensor *in, unsigned nin)
{
	size_t k = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < nin && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%zu x %zu x %zu", i ? (i + 1 == nin ? " and " : ", ") : "",
		                      in[i].batch, in[i].rows, in[i].cols);
}

enum ttx_status ttx_op_run(struct ttx_tile *t, const char *op, const struct ttx_tensor *in, unsigned nin,
                           const struct ttx_op_params *p, struct ttx_tensor *out, char *err, size_t errlen)
{
	struct opc c = { .op = op, .t = t, .err = err, .errlen = errlen, .nin = nin };
	if (p)
		c.p = *p;
	else
		ttx_op_params_default(&c.p);
	int grid = c.p.grid_rows || c.p.grid_cols;
	if ((!t && !grid) || !out)
		return ops_fail(&c, TTX_EINVAL, "%s is NULL", !t && !grid ? "the tile" : "the output tensor");
	size_t b, r, k;
	enum ttx_status st = ttx_op_shape(op, in, nin, &c.p, &b, &r, &k, err, errlen);
	if (st != TTX_OK)
		return st;
	if (!out->data || out->batch != b || out->rows != r || out->cols != k)
		return ops_fail(&c, TTX_EINVAL, "the output must be a %zu x %zu x %zu array", b, r, k);
	const struct opdef *d = find_op(op);
	size_t need = op_memory(d, &c.p, in, nin, out);
	if (c.p.max_memory && need > c.p.max_memory) {
		char shapes[160];
		describe_shapes(shapes, sizeof(shapes), in, nin);
		return ops_fail(&c, TTX_ENOMEM, "%s of %s needs %zu bytes of host memory, more than the limit of %zu",
		            op, shapes, need, c.p.max_memory);
	}
	if (!grid)
		return d->run(&c, d, in, out);
	c.p.kernels = TTX_KERNELS_RISCV;   /* the grid's tiles run the C kernels */
	if ((st = grid_open(&c)) != TTX_OK)
		return st;
	st = d->run(&c, d, in, out);
	grid_close(&c);
	return st;
}
