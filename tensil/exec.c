/* The TCU's state and its interpreter (docs/tensil.md "Execution"):
 * every instruction over the array's lanes, in program order, as Tensil's
 * reference emulator runs it.
 *
 * Numbers.  The fixed-point types (FP16BP8 and the others: width bits, the
 * binary point `point` bits up) are two's complement; a multiply-
 * accumulate takes the exact product, adds the accumulator at the same
 * scale, rounds once to nearest (ties to even) back to `point` fraction
 * bits and saturates to the width (FixedBase.doMAC); additions saturate.
 * FLOAT32 is IEEE single arithmetic, a product rounded and then the sum.
 *
 * The systolic array's weights are array_size + 1 rows: row 0 is the bias,
 * row k + 1 meets lane k of the input.  LoadWeights shifts the rows down
 * (row N falls out) and puts a vector in row 0, its vectors last address
 * first, so the first vector of a full load becomes the bias ("weights
 * are loaded in reverse order"). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcu.h"
#include "tile.h"

enum ttx_status tcu_fail(struct ttx_tcu *t, enum ttx_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->error, sizeof(t->error), fmt, ap);
	va_end(ap);
	return st;
}

/* ---- creating ---- */

enum ttx_status ttx_tcu_create(const struct ttx_tcu_arch *a, enum ttx_engine engine, struct ttx_tcu **out, char *err,
                               size_t errlen)
{
	if (!a || !out) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_tcu_create: %s is NULL", a ? "out" : "the architecture");
		return TTX_EINVAL;
	}
	*out = NULL;
	if ((unsigned)a->data_type > TTX_TCU_FLOAT32 || !a->array_size || a->array_size > 256 || !a->local_depth ||
	    !a->accumulator_depth || !a->dram0_depth || !a->dram1_depth || !a->stride0_depth || !a->stride1_depth ||
	    !a->number_of_threads || a->simd_registers_depth > 64) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_tcu_create: an architecture with a zero depth, an array of 0 or more than "
			         "256 lanes, or an unknown data type");
		return TTX_EINVAL;
	}
	if ((unsigned)engine > TTX_ENGINE_AUTO) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_tcu_create: engine %u is not an engine", (unsigned)engine);
		return TTX_EINVAL;
	}
	struct ttx_tcu *t = calloc(1, sizeof(*t));
	if (!t)
		goto nomem;
	t->arch = *a;
	t->engine = engine;
	tcu_layout_of(a, &t->lay);
	t->width = tcu_dtypes[a->data_type].width, t->point = tcu_dtypes[a->data_type].point;
	t->is_float = a->data_type == TTX_TCU_FLOAT32;
	size_t N = a->array_size;
	t->lut_tables = a->simd_registers_depth ? a->simd_registers_depth : 1;
	/* (calloc: memory never written stays untouched by the host too) */
	if (!(t->local = calloc(a->local_depth, N * 4)) || !(t->acc = calloc(a->accumulator_depth, N * 4)) ||
	    !(t->dram0 = calloc(a->dram0_depth, N * 4)) || !(t->dram1 = calloc(a->dram1_depth, N * 4)) ||
	    !(t->weights = calloc(N + 1, N * 4)) || !(t->regs = calloc(a->simd_registers_depth + 1, N * 4)) ||
	    !(t->lut = calloc(t->lut_tables, N * 4)) || !(t->scratch = calloc(N + 1, (N + 15) / 16 * 16 * 4)))
		goto nomem;
	*out = t;
	return TTX_OK;
nomem:
	ttx_tcu_destroy(t);
	if (err && errlen)
		snprintf(err, errlen, "ttx_tcu_create: out of memory for the architecture's memories (%llu vectors of %u "
		         "lanes)", (unsigned long long)(a->local_depth + a->accumulator_depth + a->dram0_depth + a->dram1_depth),
		         a->array_size);
	return TTX_ENOMEM;
}

void ttx_tcu_destroy(struct ttx_tcu *t)
{
	if (!t)
		return;
	tcu_jit_free(t);
	free(t->local), free(t->acc), free(t->dram0), free(t->dram1), free(t->weights), free(t->regs), free(t->lut);
	free(t->scratch);
	free(t);
}

const char *ttx_tcu_error(const struct ttx_tcu *t)
{
	return t ? t->error : "no TCU (NULL)";
}

void ttx_tcu_set_trace(struct ttx_tcu *t, void (*trace)(void *ctx, size_t index, const char *text), void *ctx)
{
	if (t)
		t->trace = trace, t->trace_ctx = ctx;
}

void ttx_tcu_stats_get(const struct ttx_tcu *t, struct ttx_tcu_stats *out)
{
	if (t && out)
		*out = t->stats;
}

/* ---- memory images ---- */

static int32_t *memory(struct ttx_tcu *t, enum ttx_tcu_memory m, uint64_t *depth, const char **name)
{
	switch (m) {
	case TTX_TCU_LOCAL: *depth = t->arch.local_depth, *name = "local memory"; return t->local;
	case TTX_TCU_ACCUMULATORS: *depth = t->arch.accumulator_depth, *name = "accumulators"; return t->acc;
	case TTX_TCU_DRAM0: *depth = t->arch.dram0_depth, *name = "DRAM0"; return t->dram0;
	case TTX_TCU_DRAM1: *depth = t->arch.dram1_depth, *name = "DRAM1"; return t->dram1;
	}
	return NULL;
}

static enum ttx_status image_io(struct ttx_tcu *t, enum ttx_tcu_memory m, uint64_t at, void *data, uint64_t vectors,
                                int store)
{
	if (!t)
		return TTX_EINVAL;
	uint64_t depth;
	const char *name;
	int32_t *mem = memory(t, m, &depth, &name);
	if (!mem)
		return tcu_fail(t, TTX_EINVAL, "memory %u is not one of the TCU's", (unsigned)m);
	if (!data && vectors)
		return tcu_fail(t, TTX_EINVAL, "ttx_tcu_%s: data is NULL", store ? "write" : "read");
	if (at > depth || vectors > depth - at)
		return tcu_fail(t, TTX_EINVAL, "%llu vectors at %llu run past the %s's %llu", (unsigned long long)vectors,
		                (unsigned long long)at, name, (unsigned long long)depth);
	unsigned vb = ttx_tcu_value_bytes(&t->arch);
	uint8_t *b = data;
	int32_t *v = mem + at * t->arch.array_size;
	for (uint64_t i = 0; i < vectors * t->arch.array_size; i++, b += vb) {
		if (store)
			v[i] = tcu_image_get(b, vb, t->width);
		else
			tcu_image_put(b, vb, v[i]);
	}
	return TTX_OK;
}

enum ttx_status ttx_tcu_write(struct ttx_tcu *t, enum ttx_tcu_memory m, uint64_t at, const void *data, uint64_t vectors)
{
	return image_io(t, m, at, (void *)data, vectors, 1);
}

enum ttx_status ttx_tcu_read(struct ttx_tcu *t, enum ttx_tcu_memory m, uint64_t at, void *data, uint64_t vectors)
{
	return image_io(t, m, at, data, vectors, 0);
}

/* ---- arithmetic ---- */

struct num {
	unsigned point;
	int64_t lo, hi, one;
	int is_float;
};

static int64_t sat(const struct num *n, int64_t x)
{
	return x < n->lo ? n->lo : x > n->hi ? n->hi : x;
}

/* x / 2^s rounded to nearest, ties to even */
static int64_t rne(int64_t x, unsigned s)
{
	if (!s)
		return x;
	int64_t q = x >> s, r = x - (q << s), half = (int64_t)1 << (s - 1);
	return q + (r > half || (r == half && (q & 1)));
}

static float f32(int32_t bits)
{
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

static int32_t bits32(float f)
{
	int32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static int32_t mac(const struct num *n, int32_t a, int32_t b, int32_t c)
{
	if (n->is_float) {
		volatile float p = f32(a) * f32(b);   /* (rounded: no fused multiply-add) */
		return bits32(p + f32(c));
	}
	return (int32_t)sat(n, rne((int64_t)a * b + ((int64_t)c << n->point), n->point));
}

static int32_t add(const struct num *n, int32_t a, int32_t b)
{
	return n->is_float ? bits32(f32(a) + f32(b)) : (int32_t)sat(n, (int64_t)a + b);
}

static int32_t sub(const struct num *n, int32_t a, int32_t b)
{
	return n->is_float ? bits32(f32(a) - f32(b)) : (int32_t)sat(n, (int64_t)a - b);
}

static int less(const struct num *n, int32_t a, int32_t b)
{
	return n->is_float ? f32(a) < f32(b) : a < b;
}

static int32_t alu(const struct num *n, unsigned op, int32_t in, int32_t l, int32_t r)
{
	int32_t one = n->is_float ? bits32(1.0f) : (int32_t)n->one;
	switch (op) {
	case TCU_ALU_NOOP: return in;
	case TCU_ALU_ZERO: return 0;
	case TCU_ALU_MOVE: return l;
	case TCU_ALU_NOT: return n->is_float ? ~l : (int32_t)sat(n, ~(int64_t)l);
	case TCU_ALU_AND: return l & r;
	case TCU_ALU_OR: return l | r;
	case TCU_ALU_INCREMENT: return add(n, l, one);
	case TCU_ALU_DECREMENT: return sub(n, l, one);
	case TCU_ALU_ADD: return add(n, l, r);
	case TCU_ALU_SUBTRACT: return sub(n, l, r);
	case TCU_ALU_MULTIPLY: return mac(n, l, r, 0);
	case TCU_ALU_ABS: return n->is_float ? bits32(fabsf(f32(l))) : (int32_t)sat(n, l < 0 ? -(int64_t)l : l);
	case TCU_ALU_GREATER: return less(n, r, l) ? one : 0;
	case TCU_ALU_GREATER_EQUAL: return less(n, l, r) ? 0 : one;
	case TCU_ALU_MIN:
		if (n->is_float && (isnan(f32(l)) || isnan(f32(r))))
			return bits32(NAN);
		return less(n, r, l) ? r : l;
	case TCU_ALU_MAX:
		if (n->is_float && (isnan(f32(l)) || isnan(f32(r))))
			return bits32(NAN);
		return less(n, l, r) ? r : l;
	}
	return 0;
}

/* ---- the instructions ---- */

/* Whether addr + (count - 1) 2^stride stays below depth. */
static int fits(uint64_t addr, uint64_t count, unsigned stride, uint64_t depth)
{
	if (addr >= depth)
		return 0;
	uint64_t span = count - 1;
	if (stride && span > (depth - 1 - addr) >> stride)
		return 0;
	return addr + (span << stride) < depth;
}

struct ctx {
	struct ttx_tcu *t;
	const char *name;
	size_t index;
	struct num num;
};

static enum ttx_status range_fault(struct ctx *x, const struct tcu_insn *in, const char *mem, uint64_t addr,
                                   uint64_t count, unsigned stride, uint64_t depth)
{
	return tcu_fail(x->t, TTX_FAULT, "%s: instruction #%zu (%s): %llu vector%s from %s address %llu, stride %llu, "
	                "run past its %llu", x->name, x->index, tcu_op_name(in->opcode), (unsigned long long)count,
	                count == 1 ? "" : "s", mem, (unsigned long long)addr, 1ull << stride, (unsigned long long)depth);
}

#define CHUNK 16   /* lanes a step of the vectorised loops */

/* One vector through the array for the fixed types of at most 16 bits
   (the product and the accumulator at scale fit 32 bits): out = bias,
   then a multiply-accumulate per input lane.  Rows of wrows lanes (a
   multiple of CHUNK), so that every loop runs whole chunks. */
static void matmul_vector16(const int32_t *restrict v, const int32_t *restrict w, size_t wrows, unsigned N,
                            unsigned p, int32_t lo, int32_t hi, int32_t *restrict out)
{
	const int32_t half = 1 << (p - 1), mask = (1 << p) - 1;
	memcpy(out, w, wrows * 4);
	for (unsigned k = 0; k < N; k++) {
		const int32_t a = v[k], *restrict row = w + (size_t)(k + 1) * wrows;
		for (size_t j0 = 0; j0 < wrows; j0 += CHUNK)
			for (unsigned j = 0; j < CHUNK; j++) {
				int32_t s = a * row[j0 + j] + (out[j0 + j] << p), q = s >> p, r = s & mask;
				q += (r > half) | ((r == half) & q);
				out[j0 + j] = q < lo ? lo : q > hi ? hi : q;
			}
	}
}

static void matmul(struct ctx *x, const struct tcu_insn *in)
{
	struct ttx_tcu *t = x->t;
	unsigned N = t->arch.array_size;
	size_t wrows = (N + CHUNK - 1) / CHUNK * CHUNK;
	int zeroes = in->flags >> 1 & 1, accumulate = in->flags & 1;
	int32_t zero[256] = { 0 }, out[256 + CHUNK];
	int32_t *padded = NULL;
	if (!x->num.is_float && t->width <= 16) {
		/* the weights in rows of whole chunks (the lanes past N zero) */
		padded = t->scratch;
		for (unsigned k = 0; k <= N; k++) {
			memcpy(padded + k * wrows, t->weights + (size_t)k * N, N * 4);
			memset(padded + k * wrows + N, 0, (wrows - N) * 4);
		}
	}
	for (uint64_t i = 0; i <= in->op[2]; i++) {
		const int32_t *v = zeroes ? zero : t->local + (in->addr[0] + (i << in->stride[0])) * N;
		if (padded) {
			matmul_vector16(v, padded, wrows, N, t->point, (int32_t)x->num.lo, (int32_t)x->num.hi, out);
		} else {
			memcpy(out, t->weights, N * 4);   /* the bias */
			for (unsigned k = 0; k < N; k++)
				for (unsigned j = 0; j < N; j++)
					out[j] = mac(&x->num, v[k], t->weights[(size_t)(k + 1) * N + j], out[j]);
		}
		int32_t *a = t->acc + (in->addr[1] + (i << in->stride[1])) * N;
		for (unsigned j = 0; j < N; j++)
			a[j] = accumulate ? add(&x->num, a[j], out[j]) : out[j];
	}
	t->stats.macs += (in->op[2] + 1) * N * N;
}

static enum ttx_status execute(struct ctx *x, const struct tcu_insn *in)
{
	struct ttx_tcu *t = x->t;
	const struct ttx_tcu_arch *A = &t->arch;
	unsigned N = A->array_size;
	uint64_t count;
	switch (in->opcode) {
	case TCU_WAIT:   /* one thread of execution: everything before is done */
		t->stats.cycles += 1;
		return TTX_OK;
	case TCU_MATMUL:
		count = in->op[2] + 1;
		if (!(in->flags & 2) && !fits(in->addr[0], count, in->stride[0], A->local_depth))
			return range_fault(x, in, "local memory", in->addr[0], count, in->stride[0], A->local_depth);
		if (!fits(in->addr[1], count, in->stride[1], A->accumulator_depth))
			return range_fault(x, in, "accumulator", in->addr[1], count, in->stride[1], A->accumulator_depth);
		matmul(x, in);
		t->stats.cycles += count + N;
		return TTX_OK;
	case TCU_LOADWEIGHTS: {
		count = in->op[1] + 1;
		int zeroes = in->flags & 1;
		if (!zeroes && !fits(in->addr[0], count, in->stride[0], A->local_depth))
			return range_fault(x, in, "local memory", in->addr[0], count, in->stride[0], A->local_depth);
		for (uint64_t i = count; i-- > 0;) {   /* last address first */
			memmove(t->weights + N, t->weights, (size_t)N * N * 4);
			if (zeroes)
				memset(t->weights, 0, N * 4);
			else
				memcpy(t->weights, t->local + (in->addr[0] + (i << in->stride[0])) * N, N * 4);
		}
		t->stats.vectors_moved += count;
		t->stats.cycles += count;
		return TTX_OK;
	}
	case TCU_DATAMOVE: {
		count = in->op[2] + 1;
		unsigned kind = in->flags;
		int32_t *other;
		uint64_t depth, base = 0;
		if (kind <= 1)
			other = t->dram0, depth = A->dram0_depth, base = t->config[TCU_CFG_DRAM0_OFFSET];
		else if (kind <= 3)
			other = t->dram1, depth = A->dram1_depth, base = t->config[TCU_CFG_DRAM1_OFFSET];
		else
			other = t->acc, depth = A->accumulator_depth;
		const char *oname = kind <= 1 ? "DRAM0" : kind <= 3 ? "DRAM1" : "accumulator";
		uint64_t oaddr = in->addr[1] + base;
		if (!fits(in->addr[0], count, in->stride[0], A->local_depth))
			return range_fault(x, in, "local memory", in->addr[0], count, in->stride[0], A->local_depth);
		if (oaddr < in->addr[1] || !fits(oaddr, count, in->stride[1], depth))
			return range_fault(x, in, oname, oaddr, count, in->stride[1], depth);
		for (uint64_t i = 0; i < count; i++) {
			int32_t *l = t->local + (in->addr[0] + (i << in->stride[0])) * N;
			int32_t *o = other + (oaddr + (i << in->stride[1])) * N;
			switch (kind) {
			case TCU_DRAM0_TO_LOCAL: case TCU_DRAM1_TO_LOCAL: case TCU_ACC_TO_LOCAL:
				memcpy(l, o, N * 4);
				break;
			case TCU_LOCAL_TO_DRAM0: case TCU_LOCAL_TO_DRAM1: case TCU_LOCAL_TO_ACC:
				memcpy(o, l, N * 4);
				break;
			default:   /* TCU_LOCAL_TO_ACC_ACC */
				for (unsigned j = 0; j < N; j++)
					o[j] = add(&x->num, o[j], l[j]);
			}
		}
		t->stats.vectors_moved += count;
		t->stats.cycles += count + (kind <= 3 ? 32 : 0);
		return TTX_OK;
	}
	case TCU_SIMD: {
		int read = in->flags & 1, write = in->flags >> 1 & 1, accumulate = in->flags >> 2 & 1;
		if (read && in->op[1] >= A->accumulator_depth)
			return range_fault(x, in, "accumulator (read)", in->op[1], 1, 0, A->accumulator_depth);
		if (write && !in->dest && in->op[0] >= A->accumulator_depth)
			return range_fault(x, in, "accumulator (write)", in->op[0], 1, 0, A->accumulator_depth);
		const int32_t *rd = read ? t->acc + in->op[1] * N : NULL;
		const int32_t *L = in->left ? t->regs + (size_t)(in->left - 1) * N : NULL;
		const int32_t *R = in->right ? t->regs + (size_t)(in->right - 1) * N : NULL;
		int32_t out[256];
		if (in->alu == TCU_ALU_LOOKUP) {
			unsigned T = t->lut_tables;   /* table 0 the keys, 1 .. T - 1 values */
			if (in->dest && in->dest - 1 + T > A->simd_registers_depth)
				return tcu_fail(t, TTX_FAULT, "%s: instruction #%zu (simd lookup): register r%u and the %u after it "
				                "for the values of %u tables: the architecture has %u registers", x->name, x->index,
				                in->dest, T - 1, T - 1, A->simd_registers_depth);
			for (unsigned j = 0; j < N; j++) {
				int32_t v = L ? L[j] : rd ? rd[j] : 0;
				unsigned best = 0;
				double bd = INFINITY;
				for (unsigned m = 0; m < N; m++) {   /* the closest key, the first of equals */
					int32_t key = t->lut[m];
					double d = x->num.is_float ? fabs((double)f32(v) - f32(key)) : fabs((double)v - key);
					if (d < bd)
						bd = d, best = m;
				}
				out[j] = sub(&x->num, v, t->lut[best]);
				if (in->dest)
					for (unsigned k = 1; k < T; k++)
						t->regs[(size_t)(in->dest - 1 + k) * N + j] = t->lut[(size_t)k * N + best];
			}
		} else {
			for (unsigned j = 0; j < N; j++) {
				int32_t v = rd ? rd[j] : 0;
				out[j] = alu(&x->num, in->alu, v, L ? L[j] : v, R ? R[j] : v);
			}
		}
		/* a register destination takes the result (added with accumulate);
		   the accumulators only when there is none (the reference
		   emulator; docs/tensil.md) */
		if (in->dest) {
			int32_t *d = t->regs + (size_t)(in->dest - 1) * N;
			for (unsigned j = 0; j < N; j++)
				d[j] = accumulate ? add(&x->num, d[j], out[j]) : out[j];
		} else if (write) {
			int32_t *a = t->acc + in->op[0] * N;
			for (unsigned j = 0; j < N; j++)
				a[j] = accumulate ? add(&x->num, a[j], out[j]) : out[j];
		}
		t->stats.cycles += 1;
		return TTX_OK;
	}
	case TCU_LOADLUT:
		if (!fits(in->addr[0], 1, 0, A->local_depth))
			return range_fault(x, in, "local memory", in->addr[0], 1, 0, A->local_depth);
		memcpy(t->lut + in->op[1] * N, t->local + in->addr[0] * N, N * 4);
		t->stats.vectors_moved += 1;
		t->stats.cycles += 1;
		return TTX_OK;
	case TCU_CONFIGURE:
		t->config[in->op[0]] = in->op[1];
		t->stats.cycles += 1;
		return TTX_OK;
	}
	return tcu_fail(t, TTX_FAULT, "%s: instruction #%zu: opcode %u (a ttx bug)", x->name, x->index, in->opcode);
}

/* Checks that depend on the architecture: registers and tables. */
static enum ttx_status check_program(struct ttx_tcu *t, const struct tcu_program *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct tcu_insn *in = &p->insn[i];
		unsigned R = t->arch.simd_registers_depth;
		if (in->opcode == TCU_SIMD && (in->left > R || in->right > R || in->dest > R))
			return tcu_fail(t, TTX_EINVAL, "%s: instruction #%zu (simd): register r%u, the architecture has %u", name,
			                i, in->left > R ? in->left : in->right > R ? in->right : in->dest, R);
		if (in->opcode == TCU_LOADLUT && in->op[1] >= t->lut_tables)
			return tcu_fail(t, TTX_EINVAL, "%s: instruction #%zu (loadlut): table %llu, the architecture has %u (0 "
			                "the keys)", name, i, (unsigned long long)in->op[1], t->lut_tables);
		if (in->tid >= t->arch.number_of_threads)
			return tcu_fail(t, TTX_EINVAL, "%s: instruction #%zu: thread %u, the architecture has %u", name, i,
			                in->tid, t->arch.number_of_threads);
	}
	return TTX_OK;
}

static void ctx_init(struct ctx *x, struct ttx_tcu *t, const char *name)
{
	x->t = t, x->name = name, x->index = 0;
	x->num.point = t->point, x->num.is_float = t->is_float;
	x->num.lo = -((int64_t)1 << (t->width - 1)), x->num.hi = ((int64_t)1 << (t->width - 1)) - 1;
	x->num.one = (int64_t)1 << t->point;
}

enum ttx_status tcu_execute_one(struct ttx_tcu *t, const struct tcu_insn *in, size_t index, const char *name)
{
	struct ctx x;
	ctx_init(&x, t, name);
	x.index = index;
	enum ttx_status st = execute(&x, in);
	if (st == TTX_OK)
		t->stats.insns++, t->stats.insns_by_opcode[in->opcode]++;
	return st;
}

enum ttx_status tcu_execute(struct ttx_tcu *t, const struct tcu_program *p, const char *name, uint64_t max_insns)
{
	struct ctx x;
	ctx_init(&x, t, name);
	for (size_t i = 0; i < p->n; i++) {
		if (max_insns && t->stats.insns >= max_insns)
			return tcu_fail(t, TTX_LIMIT, "%s: stopped after %llu instructions (the limit), at #%zu", name,
			                (unsigned long long)max_insns, i);
		x.index = i;
		if (t->trace) {
			char text[160];
			tcu_insn_text(&p->insn[i], text, sizeof(text));
			t->trace(t->trace_ctx, i, text);
		}
		enum ttx_status st = execute(&x, &p->insn[i]);
		if (st != TTX_OK)
			return st;
		t->stats.insns++;
		t->stats.insns_by_opcode[p->insn[i].opcode]++;
	}
	return TTX_OK;
}

enum ttx_status ttx_tcu_run(struct ttx_tcu *t, const void *prog, size_t len, const char *name, uint64_t max_insns)
{
	if (!t)
		return TTX_EINVAL;
	if (!prog && len)
		return tcu_fail(t, TTX_EINVAL, "ttx_tcu_run: prog is NULL");
	const char *file = name ? name : "program";
	struct tcu_program p;
	enum ttx_status st = tcu_decode(&t->arch, prog, len, file, &p, t->error, sizeof(t->error));
	if (st != TTX_OK)
		return st;
	double start = ttx_monotonic_seconds();
	if ((st = check_program(t, &p, file)) == TTX_OK && !tcu_jit_run(t, prog, len, &p, file, max_insns, &st))
		st = tcu_execute(t, &p, file, max_insns);
	t->stats.wall_seconds += ttx_monotonic_seconds() - start;
	tcu_program_free(&p);
	return st;
}
