/* TCU programs compiled with LLVM (docs/tensil.md "The JIT"), through the
 * JIT's ORC set-up (jit/orc.h): a program is straight-line code, so a
 * whole program becomes one function.  MatMul, SIMD and the accumulating
 * DataMove of the fixed-point types up to 16 bits are emitted as vector
 * code over the array's lanes (<array_size x i32>, which LLVM splits into
 * the host's registers), LoadWeights and the copying DataMoves as memory
 * moves; anything else (Lookup, LoadLUT, Configure, the wider types and
 * FLOAT32, an instruction that would fault) calls the interpreter's code
 * for that instruction, so faults and their messages are the
 * interpreter's.  Compiled programs are kept by their bytes: --engine jit
 * compiles a program before its first run, auto before its second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcu.h"
#include "orc.h"

/* Calls from compiled code: one instruction through the interpreter. */
static uint32_t call_interp(struct ttx_tcu *t, const struct tcu_insn *in, uint64_t index, const char *name)
{
	return (uint32_t)tcu_execute_one(t, in, (size_t)index, name);
}

struct entry {
	uint8_t *bytes;
	size_t len;
	unsigned runs;
	struct tcu_program prog;             /* kept: compiled code points at its instructions */
	char *name;
	uint64_t (*fn)(struct ttx_tcu *t);   /* 0, or (index + 1) << 8 | status */
	/* statistics of the natively emitted instructions, before each index */
	struct ttx_tcu_stats *prefix;        /* prog.n + 1 */
	int failed;                          /* did not compile: interpret */
};

struct tcu_jit {
	struct ttx_orc *orc;
	struct entry *e;
	size_t n;
};

void tcu_jit_free(struct ttx_tcu *t)
{
	struct tcu_jit *j = t->jit;
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++) {
		free(j->e[i].bytes), free(j->e[i].name), free(j->e[i].prefix);
		tcu_program_free(&j->e[i].prog);
	}
	free(j->e);
	ttx_orc_free(j->orc);
	free(j);
	t->jit = NULL;
}

/* ---- emitting ---- */

struct em {
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn, t;                  /* the function, its argument */
	LLVMTypeRef i1, i8, i32, i64, vec, ptr32, ptrvec, ptr8;
	LLVMValueRef local, acc, dram0, dram1, weights, regs;   /* i32 pointers, loaded on entry */
	LLVMBasicBlockRef exit;
	LLVMValueRef exit_phi;
	LLVMValueRef mm1, shift1;            /* helpers, made on first use */
	struct ttx_tcu *tcu;
	struct entry *entry;
	unsigned N, point;
	int32_t lo, hi, one;
	int native_arith;                    /* fixed point of at most 16 bits */
};

static LLVMValueRef c32(struct em *e, int64_t v)
{
	return LLVMConstInt(e->i32, (unsigned long long)v, 1);
}

static LLVMValueRef c64(struct em *e, uint64_t v)
{
	return LLVMConstInt(e->i64, v, 0);
}

static LLVMValueRef splat(struct em *e, int64_t v)
{
	LLVMValueRef c[256];
	for (unsigned i = 0; i < e->N; i++)
		c[i] = c32(e, v);
	return LLVMConstVector(c, e->N);
}

static LLVMValueRef splat_value(struct em *e, LLVMValueRef x)
{
	LLVMValueRef undef = LLVMGetUndef(e->vec);
	LLVMValueRef v = LLVMBuildInsertElement(e->b, undef, x, c32(e, 0), "");
	LLVMValueRef mask[256];
	for (unsigned i = 0; i < e->N; i++)
		mask[i] = c32(e, 0);
	return LLVMBuildShuffleVector(e->b, v, undef, LLVMConstVector(mask, e->N), "");
}

/* The pointer to vector `index` (an i64) of a memory of i32 lanes. */
static LLVMValueRef row(struct em *e, LLVMValueRef base, LLVMValueRef index)
{
	LLVMValueRef off = LLVMBuildMul(e->b, index, c64(e, e->N), "");
	return LLVMBuildGEP2(e->b, e->i32, base, &off, 1, "");
}

static LLVMValueRef load_vec(struct em *e, LLVMValueRef p)
{
	LLVMValueRef v = LLVMBuildLoad2(e->b, e->vec, LLVMBuildBitCast(e->b, p, e->ptrvec, ""), "");
	LLVMSetAlignment(v, 4);
	return v;
}

static void store_vec(struct em *e, LLVMValueRef v, LLVMValueRef p)
{
	LLVMValueRef s = LLVMBuildStore(e->b, v, LLVMBuildBitCast(e->b, p, e->ptrvec, ""));
	LLVMSetAlignment(s, 4);
}

static LLVMValueRef sat(struct em *e, LLVMValueRef v)
{
	LLVMValueRef lo = splat(e, e->lo), hi = splat(e, e->hi);
	v = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, v, lo, ""), lo, v, "");
	return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, v, hi, ""), hi, v, "");
}

/* s / 2^point to nearest, ties to even, saturated */
static LLVMValueRef round_sat(struct em *e, LLVMValueRef s)
{
	unsigned p = e->point;
	LLVMValueRef q = LLVMBuildAShr(e->b, s, splat(e, p), "");
	LLVMValueRef r = LLVMBuildAnd(e->b, s, splat(e, (1 << p) - 1), "");
	LLVMValueRef half = splat(e, 1 << (p - 1));
	LLVMValueRef up = LLVMBuildZExt(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, r, half, ""), e->vec, "");
	LLVMValueRef tie = LLVMBuildZExt(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, r, half, ""), e->vec, "");
	LLVMValueRef odd = LLVMBuildAnd(e->b, q, splat(e, 1), "");
	q = LLVMBuildAdd(e->b, q, LLVMBuildOr(e->b, up, LLVMBuildAnd(e->b, tie, odd, ""), ""), "");
	return sat(e, q);
}

/* A counted loop i = 0 .. n - 1 (n a constant > 0): body(e, i, arg). */
static void loop(struct em *e, uint64_t n, void (*body)(struct em *, LLVMValueRef, void *), void *arg)
{
	if (n == 1) {
		body(e, c64(e, 0), arg);
		return;
	}
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(e->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "loop");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "done");
	LLVMBuildBr(e->b, head);
	LLVMPositionBuilderAtEnd(e->b, head);
	LLVMValueRef i = LLVMBuildPhi(e->b, e->i64, "i");
	body(e, i, arg);
	LLVMValueRef next = LLVMBuildAdd(e->b, i, c64(e, 1), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(e->b);
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntULT, next, c64(e, n), ""), head, done);
	LLVMValueRef in_v[2] = { c64(e, 0), next };
	LLVMBasicBlockRef in_b[2] = { pre, end };
	LLVMAddIncoming(i, in_v, in_b, 2);
	LLVMPositionBuilderAtEnd(e->b, done);
}

/* a + (i << stride) */
static LLVMValueRef addr_at(struct em *e, uint64_t a, unsigned stride, LLVMValueRef i)
{
	return LLVMBuildAdd(e->b, c64(e, a), LLVMBuildShl(e->b, i, c64(e, stride), ""), "");
}

/* Leave with status `st` (an i32 value) of instruction index if non-zero. */
static void check_status(struct em *e, LLVMValueRef st, size_t index)
{
	LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "ok");
	LLVMBasicBlockRef here = LLVMGetInsertBlock(e->b);
	LLVMValueRef code = LLVMBuildOr(e->b, LLVMBuildZExt(e->b, st, e->i64, ""), c64(e, (uint64_t)(index + 1) << 8), "");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, st, c32(e, 0), ""), e->exit, ok);
	LLVMAddIncoming(e->exit_phi, &code, &here, 1);
	LLVMPositionBuilderAtEnd(e->b, ok);
}

static void emit_interp(struct em *e, size_t index)
{
	LLVMTypeRef args[4] = { e->ptr8, e->ptr8, e->i64, e->ptr8 };
	LLVMTypeRef type = LLVMFunctionType(e->i32, args, 4, 0);
	LLVMValueRef f = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)call_interp), LLVMPointerType(type, 0));
	LLVMValueRef argv[4] = {
		LLVMBuildBitCast(e->b, e->t, e->ptr8, ""),
		LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)&e->entry->prog.insn[index]), e->ptr8),
		c64(e, index),
		LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)e->entry->name), e->ptr8),
	};
	check_status(e, LLVMBuildCall2(e->b, type, f, argv, 4, ""), index);
}

/* ---- the instructions ---- */

static int fits(uint64_t addr, uint64_t count, unsigned stride, uint64_t depth)
{
	if (addr >= depth)
		return 0;
	uint64_t span = count - 1;
	if (stride && span > (depth - 1 - addr) >> stride)
		return 0;
	return addr + (span << stride) < depth;
}

/* The helper mm1(v, dst, accumulate): one vector v through the array into
   accumulator row dst (added with accumulate); the multiply-accumulates
   unrolled over the lanes. */
static LLVMValueRef matmul_helper(struct em *e)
{
	if (e->mm1)
		return e->mm1;
	LLVMTypeRef args[3] = { e->ptr32, e->ptr32, e->i1 };
	LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(e->ctx), args, 3, 0);
	e->mm1 = LLVMAddFunction(e->mod, "tcu_mm1", type);
	LLVMSetLinkage(e->mm1, LLVMInternalLinkage);
	LLVMBasicBlockRef saved = LLVMGetInsertBlock(e->b);
	LLVMValueRef saved_fn = e->fn;
	e->fn = e->mm1;
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->ctx, e->mm1, "entry"));
	LLVMValueRef v = LLVMGetParam(e->mm1, 0), dst = LLVMGetParam(e->mm1, 1), acc = LLVMGetParam(e->mm1, 2);
	LLVMValueRef out = load_vec(e, e->weights);   /* the bias */
	for (unsigned k = 0; k < e->N; k++) {
		LLVMValueRef idx = c64(e, k);
		LLVMValueRef a = LLVMBuildLoad2(e->b, e->i32, LLVMBuildGEP2(e->b, e->i32, v, &idx, 1, ""), "");
		LLVMSetAlignment(a, 4);
		LLVMValueRef w = load_vec(e, row(e, e->weights, c64(e, k + 1)));
		LLVMValueRef s = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, splat_value(e, a), w, ""),
		                              LLVMBuildShl(e->b, out, splat(e, e->point), ""), "");
		out = round_sat(e, s);
	}
	LLVMValueRef sum = sat(e, LLVMBuildAdd(e->b, load_vec(e, dst), out, ""));
	store_vec(e, LLVMBuildSelect(e->b, acc, sum, out, ""), dst);
	LLVMBuildRetVoid(e->b);
	e->fn = saved_fn;
	LLVMPositionBuilderAtEnd(e->b, saved);
	return e->mm1;
}

static void matmul_body(struct em *e, LLVMValueRef i, void *arg)
{
	const struct tcu_insn *in = arg;
	LLVMValueRef dst = row(e, e->acc, addr_at(e, in->addr[1], in->stride[1], i));
	LLVMValueRef accumulate = LLVMConstInt(e->i1, in->flags & 1, 0);
	if (in->flags & 2) {   /* zeroes: the bias */
		LLVMValueRef out = load_vec(e, e->weights);
		if (in->flags & 1)
			out = sat(e, LLVMBuildAdd(e->b, load_vec(e, dst), out, ""));
		store_vec(e, out, dst);
		return;
	}
	LLVMValueRef v = row(e, e->local, addr_at(e, in->addr[0], in->stride[0], i));
	LLVMValueRef argv[3] = { v, dst, accumulate };
	LLVMValueRef f = matmul_helper(e);
	LLVMBuildCall2(e->b, LLVMGlobalGetValueType(f), f, argv, 3, "");
}

/* The helper shift1(): the weights' rows one down (row N falls out). */
static LLVMValueRef shift_helper(struct em *e)
{
	if (e->shift1)
		return e->shift1;
	LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(e->ctx), NULL, 0, 0);
	e->shift1 = LLVMAddFunction(e->mod, "tcu_shift1", type);
	LLVMSetLinkage(e->shift1, LLVMInternalLinkage);
	LLVMBasicBlockRef saved = LLVMGetInsertBlock(e->b);
	LLVMValueRef saved_fn = e->fn;
	e->fn = e->shift1;
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->ctx, e->shift1, "entry"));
	for (unsigned r = e->N; r-- > 0;)
		store_vec(e, load_vec(e, row(e, e->weights, c64(e, r))), row(e, e->weights, c64(e, r + 1)));
	LLVMBuildRetVoid(e->b);
	e->fn = saved_fn;
	LLVMPositionBuilderAtEnd(e->b, saved);
	return e->shift1;
}

static void loadweights_body(struct em *e, LLVMValueRef i, void *arg)
{
	const struct tcu_insn *in = arg;
	LLVMValueRef f = shift_helper(e);
	LLVMBuildCall2(e->b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
	if (in->flags & 1) {
		store_vec(e, splat(e, 0), e->weights);
		return;
	}
	/* last address first: i counts up, the vector is count - 1 - i */
	LLVMValueRef k = LLVMBuildSub(e->b, c64(e, in->op[1]), i, "");
	store_vec(e, load_vec(e, row(e, e->local, addr_at(e, in->addr[0], in->stride[0], k))), e->weights);
}

struct move {
	const struct tcu_insn *in;
	LLVMValueRef other, oaddr;   /* the other memory, its first address (i64) */
};

static void datamove_body(struct em *e, LLVMValueRef i, void *arg)
{
	struct move *m = arg;
	const struct tcu_insn *in = m->in;
	LLVMValueRef l = row(e, e->local, addr_at(e, in->addr[0], in->stride[0], i));
	LLVMValueRef o = row(e, m->other, LLVMBuildAdd(e->b, m->oaddr, LLVMBuildShl(e->b, i, c64(e, in->stride[1]), ""), ""));
	switch (in->flags) {
	case TCU_DRAM0_TO_LOCAL: case TCU_DRAM1_TO_LOCAL: case TCU_ACC_TO_LOCAL:
		store_vec(e, load_vec(e, o), l);
		break;
	case TCU_LOCAL_TO_DRAM0: case TCU_LOCAL_TO_DRAM1: case TCU_LOCAL_TO_ACC:
		store_vec(e, load_vec(e, l), o);
		break;
	default:
		store_vec(e, sat(e, LLVMBuildAdd(e->b, load_vec(e, o), load_vec(e, l), "")), o);
	}
}

static LLVMValueRef alu(struct em *e, unsigned op, LLVMValueRef in, LLVMValueRef l, LLVMValueRef r)
{
	LLVMValueRef one = splat(e, e->one), zero = splat(e, 0);
	switch (op) {
	case TCU_ALU_NOOP: return in;
	case TCU_ALU_ZERO: return zero;
	case TCU_ALU_MOVE: return l;
	case TCU_ALU_NOT: return LLVMBuildXor(e->b, l, splat(e, -1), "");
	case TCU_ALU_AND: return LLVMBuildAnd(e->b, l, r, "");
	case TCU_ALU_OR: return LLVMBuildOr(e->b, l, r, "");
	case TCU_ALU_INCREMENT: return sat(e, LLVMBuildAdd(e->b, l, one, ""));
	case TCU_ALU_DECREMENT: return sat(e, LLVMBuildSub(e->b, l, one, ""));
	case TCU_ALU_ADD: return sat(e, LLVMBuildAdd(e->b, l, r, ""));
	case TCU_ALU_SUBTRACT: return sat(e, LLVMBuildSub(e->b, l, r, ""));
	case TCU_ALU_MULTIPLY: return round_sat(e, LLVMBuildMul(e->b, l, r, ""));
	case TCU_ALU_ABS:
		return sat(e, LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, l, zero, ""), LLVMBuildNeg(e->b, l, ""),
		                              l, ""));
	case TCU_ALU_GREATER:
		return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, l, r, ""), one, zero, "");
	case TCU_ALU_GREATER_EQUAL:
		return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGE, l, r, ""), one, zero, "");
	case TCU_ALU_MIN: return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, r, l, ""), r, l, "");
	case TCU_ALU_MAX: return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, l, r, ""), r, l, "");
	}
	return zero;
}

static void emit_simd(struct em *e, const struct tcu_insn *in)
{
	int read = in->flags & 1, write = in->flags >> 1 & 1, accumulate = in->flags >> 2 & 1;
	LLVMValueRef v = read ? load_vec(e, row(e, e->acc, c64(e, in->op[1]))) : splat(e, 0);
	LLVMValueRef l = in->left ? load_vec(e, row(e, e->regs, c64(e, in->left - 1))) : v;
	LLVMValueRef r = in->right ? load_vec(e, row(e, e->regs, c64(e, in->right - 1))) : v;
	LLVMValueRef out = alu(e, in->alu, v, l, r);
	LLVMValueRef dst = in->dest ? row(e, e->regs, c64(e, in->dest - 1)) : write ? row(e, e->acc, c64(e, in->op[0])) : NULL;
	if (!dst)
		return;
	if (accumulate)
		out = sat(e, LLVMBuildAdd(e->b, load_vec(e, dst), out, ""));
	store_vec(e, out, dst);
}

/* Instruction index natively; 0 when it goes through the interpreter. */
static int emit_native(struct em *e, size_t index)
{
	const struct tcu_insn *in = &e->entry->prog.insn[index];
	const struct ttx_tcu_arch *A = &e->tcu->arch;
	uint64_t count;
	switch (in->opcode) {
	case TCU_WAIT:
		return 1;
	case TCU_MATMUL:
		count = in->op[2] + 1;
		if (!e->native_arith || ((in->flags & 2) == 0 && !fits(in->addr[0], count, in->stride[0], A->local_depth)) ||
		    !fits(in->addr[1], count, in->stride[1], A->accumulator_depth))
			return 0;
		loop(e, count, matmul_body, (void *)in);
		return 1;
	case TCU_LOADWEIGHTS:
		count = in->op[1] + 1;
		if (!(in->flags & 1) && !fits(in->addr[0], count, in->stride[0], A->local_depth))
			return 0;
		loop(e, count, loadweights_body, (void *)in);
		return 1;
	case TCU_DATAMOVE: {
		count = in->op[2] + 1;
		unsigned kind = in->flags;
		if (!fits(in->addr[0], count, in->stride[0], A->local_depth) || (kind == TCU_LOCAL_TO_ACC_ACC && !e->native_arith))
			return 0;
		struct move m = { in, NULL, NULL };
		if (kind >= 12) {
			if (!fits(in->addr[1], count, in->stride[1], A->accumulator_depth))
				return 0;
			m.other = e->acc, m.oaddr = c64(e, in->addr[1]);
			loop(e, count, datamove_body, &m);
			return 1;
		}
		/* DRAM: Configure's offset, read as the program runs; a move it
		   takes past the memory goes to the interpreter (its fault) */
		unsigned cfg = kind <= 1 ? TCU_CFG_DRAM0_OFFSET : TCU_CFG_DRAM1_OFFSET;
		uint64_t depth = kind <= 1 ? A->dram0_depth : A->dram1_depth;
		LLVMValueRef off_p = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)&e->tcu->config[cfg]),
		                                       LLVMPointerType(e->i64, 0));
		LLVMValueRef off = LLVMBuildLoad2(e->b, e->i64, off_p, "");
		LLVMValueRef first = LLVMBuildAdd(e->b, off, c64(e, in->addr[1]), "");
		LLVMValueRef last = LLVMBuildAdd(e->b, first, c64(e, (count - 1) << in->stride[1]), "");
		LLVMValueRef ok = LLVMBuildAnd(e->b, LLVMBuildICmp(e->b, LLVMIntULT, last, c64(e, depth), ""),
		                               LLVMBuildICmp(e->b, LLVMIntULT, off, c64(e, depth), ""), "");
		LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "fast");
		LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "slow");
		LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "join");
		LLVMBuildCondBr(e->b, ok, fast, slow);
		LLVMPositionBuilderAtEnd(e->b, fast);
		m.other = kind <= 1 ? e->dram0 : e->dram1, m.oaddr = first;
		loop(e, count, datamove_body, &m);
		LLVMBuildBr(e->b, join);
		LLVMPositionBuilderAtEnd(e->b, slow);
		emit_interp(e, index);
		LLVMBuildBr(e->b, join);
		LLVMPositionBuilderAtEnd(e->b, join);
		return 2;   /* native (its statistics counted either way: see below) */
	}
	case TCU_SIMD:
		if (!e->native_arith || in->alu == TCU_ALU_LOOKUP || (in->flags & 1 && in->op[1] >= A->accumulator_depth) ||
		    (!in->dest && in->flags & 2 && in->op[0] >= A->accumulator_depth))
			return 0;
		emit_simd(e, in);
		return 1;
	}
	return 0;
}

/* The statistics the interpreter would count for a natively run one. */
static void native_stats(const struct ttx_tcu *t, const struct tcu_insn *in, struct ttx_tcu_stats *s)
{
	unsigned N = t->arch.array_size;
	s->insns++, s->insns_jit++, s->insns_by_opcode[in->opcode]++;
	switch (in->opcode) {
	case TCU_MATMUL:
		s->macs += (in->op[2] + 1) * N * N, s->cycles += in->op[2] + 1 + N;
		break;
	case TCU_LOADWEIGHTS:
		s->vectors_moved += in->op[1] + 1, s->cycles += in->op[1] + 1;
		break;
	case TCU_DATAMOVE:
		s->vectors_moved += in->op[2] + 1, s->cycles += in->op[2] + 1 + (in->flags <= 3 ? 32 : 0);
		break;
	default:
		s->cycles += 1;
	}
}

static void add_stats(struct ttx_tcu_stats *d, const struct ttx_tcu_stats *s)
{
	d->insns += s->insns, d->insns_jit += s->insns_jit, d->macs += s->macs, d->vectors_moved += s->vectors_moved;
	d->cycles += s->cycles;
	for (unsigned i = 0; i < 16; i++)
		d->insns_by_opcode[i] += s->insns_by_opcode[i];
}

static void build(void *arg, LLVMContextRef ctx, LLVMModuleRef mod, const char *name)
{
	struct em *e = arg;
	e->ctx = ctx, e->mod = mod;
	e->b = LLVMCreateBuilderInContext(ctx);
	e->i1 = LLVMInt1TypeInContext(ctx), e->i8 = LLVMInt8TypeInContext(ctx);
	e->i32 = LLVMInt32TypeInContext(ctx), e->i64 = LLVMInt64TypeInContext(ctx);
	e->vec = LLVMVectorType(e->i32, e->N);
	e->ptr32 = LLVMPointerType(e->i32, 0), e->ptrvec = LLVMPointerType(e->vec, 0), e->ptr8 = LLVMPointerType(e->i8, 0);
	LLVMTypeRef ftype = LLVMFunctionType(e->i64, &e->ptr8, 1, 0);
	e->fn = LLVMAddFunction(mod, name, ftype);
	e->t = LLVMGetParam(e->fn, 0);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, e->fn, "entry");
	e->exit = LLVMAppendBasicBlockInContext(ctx, e->fn, "exit");
	LLVMPositionBuilderAtEnd(e->b, e->exit);
	e->exit_phi = LLVMBuildPhi(e->b, e->i64, "status");
	LLVMBuildRet(e->b, e->exit_phi);
	LLVMPositionBuilderAtEnd(e->b, entry);
	/* the memories do not move: their addresses are constants */
	struct ttx_tcu *t = e->tcu;
	e->local = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)t->local), e->ptr32);
	e->acc = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)t->acc), e->ptr32);
	e->dram0 = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)t->dram0), e->ptr32);
	e->dram1 = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)t->dram1), e->ptr32);
	e->weights = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)t->weights), e->ptr32);
	e->regs = LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)t->regs), e->ptr32);
	struct entry *en = e->entry;
	memset(en->prefix, 0, (en->prog.n + 1) * sizeof(*en->prefix));
	for (size_t i = 0; i < en->prog.n; i++) {
		en->prefix[i + 1] = en->prefix[i];
		int native = emit_native(e, i);
		if (!native)
			emit_interp(e, i);
		else
			native_stats(t, &en->prog.insn[i], &en->prefix[i + 1]);
	}
	LLVMValueRef zero = c64(e, 0);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(e->b);
	LLVMBuildBr(e->b, e->exit);
	LLVMAddIncoming(e->exit_phi, &zero, &here, 1);
	LLVMDisposeBuilder(e->b);
}

static struct entry *find(struct tcu_jit *j, const uint8_t *prog, size_t len)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->e[i].len == len && memcmp(j->e[i].bytes, prog, len) == 0)
			return &j->e[i];
	return NULL;
}

int tcu_jit_run(struct ttx_tcu *t, const uint8_t *prog, size_t len, const struct tcu_program *p, const char *name,
                uint64_t max_insns, enum ttx_status *st)
{
	if (t->engine == TTX_ENGINE_INTERP || t->trace || (max_insns && max_insns < p->n) || !p->n)
		return 0;
	char err[256];
	struct tcu_jit *j = t->jit;
	if (!j) {
		if (!(j = calloc(1, sizeof(*j))))
			return 0;
		t->jit = j;
	}
	struct entry *en = find(j, prog, len);
	if (!en) {
		struct entry *grown = realloc(j->e, (j->n + 1) * sizeof(*grown));
		if (!grown)
			return 0;
		j->e = grown;
		en = &j->e[j->n];
		memset(en, 0, sizeof(*en));
		if (!(en->bytes = malloc(len)) || !(en->name = strdup(name)) ||
		    !(en->prog.insn = malloc(p->n * sizeof(*p->insn))) || !(en->prefix = calloc(p->n + 1, sizeof(*en->prefix)))) {
			free(en->bytes), free(en->name), free(en->prog.insn), free(en->prefix);
			return 0;
		}
		memcpy(en->bytes, prog, len);
		memcpy(en->prog.insn, p->insn, p->n * sizeof(*p->insn));
		en->len = len, en->prog.n = p->n;
		j->n++;
	}
	en->runs++;
	if (!en->fn && !en->failed && (t->engine == TTX_ENGINE_JIT || en->runs >= 2)) {
		if (!j->orc && !(j->orc = ttx_orc_new(err, sizeof(err)))) {
			en->failed = 1;
			*st = tcu_fail(t, TTX_EINVAL, "%s: the JIT: %s", name, err);
			return t->engine == TTX_ENGINE_JIT;
		}
		struct em e;
		memset(&e, 0, sizeof(e));
		e.tcu = t, e.entry = en, e.N = t->arch.array_size, e.point = t->point;
		e.native_arith = !t->is_float && t->width <= 16;
		e.lo = -(1 << (t->width - 1)), e.hi = (1 << (t->width - 1)) - 1, e.one = 1 << t->point;
		void *f = ttx_orc_compile_with(j->orc, build, &e, err, sizeof(err));
		if (!f) {
			en->failed = 1;
			*st = tcu_fail(t, TTX_EINVAL, "%s: the JIT: %s", name, err);
			return t->engine == TTX_ENGINE_JIT;
		}
		memcpy(&en->fn, &f, sizeof(f));
	}
	if (!en->fn)
		return 0;
	uint64_t r = en->fn(t);
	if (!r) {
		add_stats(&t->stats, &en->prefix[p->n]);
		*st = TTX_OK;
	} else {
		size_t index = (size_t)(r >> 8) - 1;
		add_stats(&t->stats, &en->prefix[index]);
		*st = (enum ttx_status)(r & 0xFF);
	}
	return 1;
}
