/* LLVM IR for a block of SFPU instructions, with Matrix Unit, unpacker and
 * packer instructions among them (docs/jit.md).
 *
 * The 32 lanes are <32 x i32> values and lane masks are i32 (bit i = lane
 * i), bitcast to <32 x i1> for selects, as in the interpreter (interp/sfpu.h).
 * LReg 0-15 and the two flag masks live in allocas for the whole block:
 * loaded from the tile at entry, stored back at exit, promoted to SSA
 * values by mem2reg, so a block touches memory only at its edges.
 *
 * Each emitter below is the interpreter's handler for the same instruction
 * (interp/sfpu_simple.c, sfpu.c, sfpu_mad.c) restated in IR, for the cases
 * ttx_jit_is_native() accepts; everything else is a call to the
 * interpreter's handler with the state written back around it, so the two
 * engines cannot differ there.  tests/test_jit_diff.c compares them. */
#include <string.h>

#include <llvm-c/Core.h>

#include "tile.h"
#include "jit.h"

struct emitter {
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn, tile, thread;
	LLVMTypeRef i1, i8, i32, i64, v32, m32, f32v, i8p;
	LLVMValueRef lreg[16];     /* allocas <32 x i32> */
	LLVMValueRef flags, use;   /* allocas i32: LaneFlags, UseLaneFlagsForLaneEnable */
	LLVMValueRef tmp[2];       /* [32 x i32] operands of the MAD helper */
	uint32_t lanes_on;         /* lanes ROW_MASK leaves enabled */
	int fast;
	unsigned index;            /* the instruction's position, for fault reports */
	LLVMValueRef pos;          /* alloca i32: a MOP's words so far, where it can stop (emit_unit) */
};

#define ALL 0xFFFFFFFFu
#define RELOAD_ALL 0x1FFFFu        /* LReg 0-15 and the flags */
#define ALL_LREGS 0xFFu            /* LReg 0-7: those a block can change */
#define RELOAD_FLAGS 0x10000u

/* ---- small helpers ---- */

static LLVMValueRef c32(struct emitter *e, uint32_t x)
{
	return LLVMConstInt(e->i32, x, 0);
}

static LLVMValueRef splat(struct emitter *e, uint32_t x)
{
	LLVMValueRef v[TTX_LANES];
	for (unsigned i = 0; i < TTX_LANES; i++)
		v[i] = c32(e, x);
	return LLVMConstVector(v, TTX_LANES);
}

static LLVMValueRef state_ptr(struct emitter *e, size_t offset, LLVMTypeRef type)
{
	LLVMValueRef off = LLVMConstInt(e->i64, offset, 0);
	LLVMValueRef p = LLVMBuildGEP2(e->b, e->i8, e->tile, &off, 1, "");
	return LLVMBuildBitCast(e->b, p, LLVMPointerType(type, 0), "");
}

static LLVMValueRef load(struct emitter *e, LLVMTypeRef type, LLVMValueRef p)
{
	LLVMValueRef v = LLVMBuildLoad2(e->b, type, p, "");
	LLVMSetAlignment(v, 4);
	return v;
}

static void store(struct emitter *e, LLVMValueRef v, LLVMValueRef p)
{
	LLVMSetAlignment(LLVMBuildStore(e->b, v, p), 4);
}

static LLVMValueRef get(struct emitter *e, unsigned r)
{
	return load(e, e->v32, e->lreg[r]);
}

static LLVMValueRef get_flags(struct emitter *e)
{
	return load(e, e->i32, e->flags);
}

static LLVMValueRef get_use(struct emitter *e)
{
	return load(e, e->i32, e->use);
}

static LLVMValueRef as_mask(struct emitter *e, LLVMValueRef m32)
{
	return LLVMBuildBitCast(e->b, m32, e->m32, "");
}

static LLVMValueRef as_i32(struct emitter *e, LLVMValueRef m)
{
	return LLVMBuildBitCast(e->b, m, e->i32, "");
}

/* old with the lanes of mask (i32) replaced by value. */
static LLVMValueRef blend32(struct emitter *e, LLVMValueRef old, LLVMValueRef value, LLVMValueRef mask)
{
	LLVMValueRef keep = LLVMBuildAnd(e->b, old, LLVMBuildNot(e->b, mask, ""), "");
	return LLVMBuildOr(e->b, keep, LLVMBuildAnd(e->b, value, mask, ""), "");
}

/* ttx_sfpu_write: LReg[vd] = v in the lanes of en; LReg 8-15 are not written. */
static void put(struct emitter *e, unsigned vd, LLVMValueRef v, LLVMValueRef en)
{
	if (vd >= 8)
		return;
	LLVMValueRef r = LLVMBuildSelect(e->b, as_mask(e, en), v, get(e, vd), "");
	store(e, r, e->lreg[vd]);
}

/* IsLaneEnabled for all lanes (TC/VectorUnit.md): the ROW_MASK part is
   known when the block is compiled (it is part of the cache key). */
static LLVMValueRef enabled(struct emitter *e)
{
	LLVMValueRef free_lanes = LLVMBuildOr(e->b, LLVMBuildNot(e->b, get_use(e), ""), get_flags(e), "");
	return LLVMBuildAnd(e->b, free_lanes, c32(e, e->lanes_on), "");
}

/* LaneFlags = value in the lanes of mask. */
static void set_flags(struct emitter *e, LLVMValueRef value, LLVMValueRef mask)
{
	store(e, blend32(e, get_flags(e), value, mask), e->flags);
}

static LLVMValueRef sign_mask(struct emitter *e, LLVMValueRef v)
{
	return as_i32(e, LLVMBuildICmp(e->b, LLVMIntSLT, v, splat(e, 0), ""));
}

static LLVMValueRef zero_mask(struct emitter *e, LLVMValueRef v)
{
	return as_i32(e, LLVMBuildICmp(e->b, LLVMIntEQ, v, splat(e, 0), ""));
}

static LLVMValueRef and_i(struct emitter *e, LLVMValueRef v, uint32_t x)
{
	return LLVMBuildAnd(e->b, v, splat(e, x), "");
}

static LLVMValueRef fn_const(struct emitter *e, void *addr, LLVMTypeRef type)
{
	return LLVMConstIntToPtr(LLVMConstInt(e->i64, (uint64_t)(uintptr_t)addr, 0), LLVMPointerType(type, 0));
}

static LLVMValueRef intrinsic(struct emitter *e, const char *name, LLVMTypeRef type)
{
	LLVMValueRef f = LLVMGetNamedFunction(e->mod, name);
	return f ? f : LLVMAddFunction(e->mod, name, type);
}

/* ---- state at the edges of the block and around interpreter calls ---- */

static void load_state(struct emitter *e, uint32_t which)
{
	for (unsigned r = 0; r < 16; r++)
		if (which >> r & 1)
			store(e, load(e, e->v32, state_ptr(e, ttx_jit_offset_lreg(r), e->v32)), e->lreg[r]);
	if (which & RELOAD_FLAGS) {
		store(e, load(e, e->i32, state_ptr(e, ttx_jit_offset_lane_flags(), e->i32)), e->flags);
		store(e, load(e, e->i32, state_ptr(e, ttx_jit_offset_use_lane_flags(), e->i32)), e->use);
	}
}

/* Only LReg 0-7 and the flags can change inside a block (writes to 8-15
   are dropped; SFPCONFIG, which writes 11-14, ends blocks).  lregs: bit r
   for LReg r. */
static void store_state(struct emitter *e, uint32_t lregs, int flags)
{
	for (unsigned r = 0; r < 8; r++)
		if (lregs >> r & 1)
			store(e, get(e, r), state_ptr(e, ttx_jit_offset_lreg(r), e->v32));
	if (flags) {
		store(e, get_flags(e), state_ptr(e, ttx_jit_offset_lane_flags(), e->i32));
		store(e, get_use(e), state_ptr(e, ttx_jit_offset_use_lane_flags(), e->i32));
	}
}

/* A call of helper(tile, thread, word), one of jit/cache.c's
   ttx_jit_call_*: when it returns non-zero, the block writes back LRegs
   `lregs` (and the flags with `flags`) and returns that | (at + 1) << 8. */
static void call_or_stop(struct emitter *e, void *helper, uint32_t word, LLVMValueRef at, uint32_t lregs, int flags)
{
	LLVMTypeRef args[3] = { e->i8p, e->i32, e->i32 };
	LLVMTypeRef type = LLVMFunctionType(e->i32, args, 3, 0);
	LLVMValueRef argv[3] = { e->tile, e->thread, c32(e, word) };
	LLVMValueRef r = LLVMBuildCall2(e->b, type, fn_const(e, helper, type), argv, 3, "");
	LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "stop");
	LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, r, c32(e, 0), ""), stop, ok);
	LLVMPositionBuilderAtEnd(e->b, stop);
	store_state(e, lregs, flags);
	LLVMValueRef place = LLVMBuildShl(e->b, LLVMBuildAdd(e->b, at, c32(e, 1), ""), c32(e, 8), "");
	LLVMBuildRet(e->b, LLVMBuildOr(e->b, r, place, ""));
	LLVMPositionBuilderAtEnd(e->b, ok);
}

/* An instruction the interpreter executes: write back the LRegs it may
   read (spill) and the flags, call its handler, return its fault if it
   has one (with the rest of the state written back), reload what it may
   change. */
static void emit_interp(struct emitter *e, uint32_t word, uint32_t spill, uint32_t reload)
{
	store_state(e, spill, 1);
	call_or_stop(e, (void *)ttx_jit_call_interp, word, c32(e, e->index), ~spill & 0xFF, 0);
	load_state(e, reload);
}

/* A Matrix Unit, unpacker or packer instruction: the interpreter runs it
   (ttx_jit_call_unit), and the block ends there when it must wait or has
   let another thread act, reporting `at`, its place in the block's
   expansion.  Those units read and write no LReg or lane flag, so nothing
   is written back before the call, all of it on the way out. */
static void emit_unit(struct emitter *e, uint32_t word, LLVMValueRef at)
{
	call_or_stop(e, (void *)ttx_jit_call_unit, word, at, ALL_LREGS, 1);
}

/* ---- the MAD sub-unit ---- */

/* LReg[vd] = a * b + c in the lanes of en, exact numerics: the
   interpreter's 32-lane model (ttx_wh_mad_lanes) and the lane merge in one
   call on the operands' memory.  The LRegs it reads and writes stay in
   their allocas instead of SSA values (they escape), which is free at run
   time and keeps MAD-heavy blocks small: a compiled SFPMAD is one call, a
   quarter of the code generator's time of storing and reloading vectors
   around it.  An operand that is not an LReg (an immediate, 0, 1.0) goes
   through a scratch array. */
static LLVMValueRef lreg_ptr(struct emitter *e, unsigned r)
{
	return LLVMBuildBitCast(e->b, e->lreg[r], LLVMPointerType(e->i32, 0), "");
}

static LLVMValueRef scratch_ptr(struct emitter *e, unsigned i, LLVMValueRef v)
{
	store(e, v, LLVMBuildBitCast(e->b, e->tmp[i], LLVMPointerType(e->v32, 0), ""));
	return LLVMBuildBitCast(e->b, e->tmp[i], LLVMPointerType(e->i32, 0), "");
}

static void mad_exact(struct emitter *e, unsigned vd, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
                      LLVMValueRef en)
{
	LLVMTypeRef p = LLVMPointerType(e->i32, 0);
	LLVMTypeRef args[5] = { p, p, p, p, e->i32 };
	LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(e->ctx), args, 5, 0);
	LLVMValueRef argv[5] = { lreg_ptr(e, vd), a, b, c, en };
	LLVMBuildCall2(e->b, type, fn_const(e, (void *)ttx_jit_call_mad, type), argv, 5, "");
}

/* a * b + c with fast numerics: IEEE fma with inputs and results of
   exponent 0 read and written as +0 and NaN results made 0x7FC00000, the
   same as interp/sfpu_mad.c's fast path. */
static LLVMValueRef mad_fast(struct emitter *e, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
	LLVMValueRef in[3] = { a, b, c };
	for (unsigned i = 0; i < 3; i++) {
		LLVMValueRef tiny = LLVMBuildICmp(e->b, LLVMIntEQ, and_i(e, in[i], 0x7F800000u), splat(e, 0), "");
		in[i] = LLVMBuildBitCast(e->b, LLVMBuildSelect(e->b, tiny, splat(e, 0), in[i], ""), e->f32v, "");
	}
	LLVMTypeRef fargs[3] = { e->f32v, e->f32v, e->f32v };
	LLVMTypeRef ftype = LLVMFunctionType(e->f32v, fargs, 3, 0);
	LLVMValueRef r = LLVMBuildCall2(e->b, ftype, intrinsic(e, "llvm.fma.v32f32", ftype), in, 3, "");
	LLVMValueRef nan = LLVMBuildFCmp(e->b, LLVMRealUNO, r, r, "");
	LLVMValueRef bits = LLVMBuildBitCast(e->b, r, e->v32, "");
	LLVMValueRef tiny = LLVMBuildICmp(e->b, LLVMIntEQ, and_i(e, bits, 0x7F800000u), splat(e, 0), "");
	bits = LLVMBuildSelect(e->b, tiny, splat(e, 0), bits, "");
	return LLVMBuildSelect(e->b, nan, splat(e, 0x7FC00000u), bits, "");
}

/* SFPMAD, SFPADD, SFPMUL (TC/SFPMAD.md) without the INDIRECT modes. */
static void emit_mad(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPMAD x = ttx_decode_SFPMAD(word);
	if (x.VD >= 8)
		return;
	LLVMValueRef en = enabled(e);
	if (e->fast)
		put(e, x.VD, mad_fast(e, get(e, x.VA), get(e, x.VB), get(e, x.VC)), en);
	else
		mad_exact(e, x.VD, lreg_ptr(e, x.VA), lreg_ptr(e, x.VB), lreg_ptr(e, x.VC), en);
}

/* SFPMULI / SFPADDI (TC/SFPMULI.md, TC/SFPADDI.md): BF16(Imm16) * VD + 0,
   BF16(Imm16) * 1 + VD. */
static void emit_mad_imm(struct emitter *e, uint32_t word, int add)
{
	struct ttx_args_SFPMULI x = ttx_decode_SFPMULI(word);
	if (x.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), imm = splat(e, (uint32_t)x.Imm16 << 16);
	LLVMValueRef other = splat(e, add ? 0x3F800000u : 0);
	if (e->fast) {
		LLVMValueRef r = add ? mad_fast(e, imm, other, get(e, x.VD)) : mad_fast(e, imm, get(e, x.VD), other);
		put(e, x.VD, r, en);
	} else if (add) {
		mad_exact(e, x.VD, scratch_ptr(e, 0, imm), scratch_ptr(e, 1, other), lreg_ptr(e, x.VD), en);
	} else {
		mad_exact(e, x.VD, scratch_ptr(e, 0, imm), lreg_ptr(e, x.VD), scratch_ptr(e, 1, other), en);
	}
}

/* ---- the simple sub-unit and SFPLOADI ---- */

static uint32_t sign_extend12(uint32_t x)
{
	return (uint32_t)((int32_t)(x << 20) >> 20);
}

/* The flag side effect of SFPIADD, SFPLZ, SFPEXEXP (interp/sfpu_simple.c
   update_flags). */
static void update_flags(struct emitter *e, int use_cond, LLVMValueRef cond, unsigned mod1, LLVMValueRef en)
{
	LLVMValueRef f = use_cond ? cond : get_flags(e);
	set_flags(e, (mod1 & 8) ? LLVMBuildNot(e->b, f, "") : f, en);
}

/* TC/SFPLOADI.md */
static void emit_loadi(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPLOADI a = ttx_decode_SFPLOADI(word);
	uint32_t imm = a.Imm16, value, keep;
	if (a.VD >= 8)
		return;
	switch (a.Mod0) {
	case 0: value = imm << 16, keep = 0; break;
	case 1: value = ((imm >> 15) << 31) | ((((imm >> 10) & 0x1F) + 112) << 23) | ((imm & 0x3FF) << 13),
	        keep = 0; break;
	case 2: value = imm, keep = 0; break;
	case 4: value = (uint32_t)(int32_t)(int16_t)imm, keep = 0; break;
	case 8: value = imm << 16, keep = 0xFFFFu; break;
	default: value = imm, keep = 0xFFFF0000u; break;   /* 10 */
	}
	LLVMValueRef v = LLVMBuildOr(e->b, and_i(e, get(e, a.VD), keep), splat(e, value), "");
	put(e, a.VD, v, enabled(e));
}

/* TC/SFPIADD.md */
static void emit_iadd(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPIADD a = ttx_decode_SFPIADD(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), c = get(e, a.VC), r;
	if (a.Mod1 & 1)
		r = LLVMBuildAdd(e->b, c, splat(e, sign_extend12(a.Imm12)), "");
	else if (a.Mod1 & 2)
		r = LLVMBuildSub(e->b, c, get(e, a.VD), "");
	else
		r = LLVMBuildAdd(e->b, c, get(e, a.VD), "");
	put(e, a.VD, r, en);
	update_flags(e, !(a.Mod1 & 4), sign_mask(e, r), a.Mod1, en);
}

/* TC/SFPAND.md, TC/SFPOR.md, TC/SFPXOR.md, TC/SFPNOT.md */
static void emit_bitwise(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPAND a = ttx_decode_SFPAND(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), c = get(e, a.VC), r;
	switch (word >> 24) {
	case TTX_OP_SFPAND: r = LLVMBuildAnd(e->b, get(e, a.VD), c, ""); break;
	case TTX_OP_SFPOR:  r = LLVMBuildOr(e->b, get(e, a.VD), c, ""); break;
	case TTX_OP_SFPXOR: r = LLVMBuildXor(e->b, get(e, a.VD), c, ""); break;
	default:            r = LLVMBuildNot(e->b, c, ""); break;   /* SFPNOT */
	}
	put(e, a.VD, r, en);
}

/* TC/SFPSHFT.md */
static void emit_shft(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPSHFT a = ttx_decode_SFPSHFT(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), b = get(e, a.VD), r;
	if (a.Mod1 & 1) {
		int32_t n = (int32_t)sign_extend12(a.Imm12);
		if (n >= 0)
			r = LLVMBuildShl(e->b, b, splat(e, (uint32_t)n & 31), "");
		else
			r = LLVMBuildLShr(e->b, b, splat(e, (0u - (uint32_t)n) & 31), "");
	} else {
		LLVMValueRef n = get(e, a.VC);
		LLVMValueRef left = LLVMBuildShl(e->b, b, and_i(e, n, 31), "");
		LLVMValueRef right = LLVMBuildLShr(e->b, b, and_i(e, LLVMBuildNeg(e->b, n, ""), 31), "");
		r = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, n, splat(e, 0), ""), right, left, "");
	}
	put(e, a.VD, r, en);
}

/* TC/SFPSETCC.md */
static void emit_setcc(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPSETCC a = ttx_decode_SFPSETCC(word);
	LLVMValueRef en = enabled(e), f;
	if (a.Mod1 & 8) {
		f = c32(e, 0);
	} else if (a.Mod1 & 1) {
		f = c32(e, a.Imm1 ? ALL : 0);
	} else {
		LLVMValueRef c = get(e, a.VC);
		switch (a.Mod1) {
		case 0: f = sign_mask(e, c); break;
		case 2: f = LLVMBuildNot(e->b, zero_mask(e, c), ""); break;
		case 4: f = LLVMBuildNot(e->b, sign_mask(e, c), ""); break;
		default: f = zero_mask(e, c); break;
		}
	}
	set_flags(e, LLVMBuildAnd(e->b, f, get_use(e), ""), en);
}

/* TC/SFPENCC.md: not gated by LaneEnabled. */
static void emit_encc(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPENCC a = ttx_decode_SFPENCC(word);
	if (a.Mod1 & 2)
		store(e, c32(e, (a.Imm2 & 1) ? ALL : 0), e->use);
	else if (a.Mod1 & 1)
		store(e, LLVMBuildNot(e->b, get_use(e), ""), e->use);
	store(e, c32(e, (a.Mod1 & 8) && !(a.Imm2 & 2) ? 0 : ALL), e->flags);
}

/* TC/SFPABS.md (FLOAT mode: see interp/sfpu_simple.c for -Inf). */
static void emit_abs(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPABS a = ttx_decode_SFPABS(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), c = get(e, a.VC), r;
	if (a.Mod1 & 1) {
		LLVMValueRef neg_nan = LLVMBuildICmp(e->b, LLVMIntUGE, c, splat(e, 0xFF800001u), "");
		r = LLVMBuildSelect(e->b, neg_nan, c, and_i(e, c, 0x7FFFFFFFu), "");
	} else {
		LLVMValueRef neg = LLVMBuildICmp(e->b, LLVMIntSLT, c, splat(e, 0), "");
		r = LLVMBuildSelect(e->b, neg, LLVMBuildNeg(e->b, c, ""), c, "");
	}
	put(e, a.VD, r, en);
}

/* TC/SFPLZ.md */
static void emit_lz(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPLZ a = ttx_decode_SFPLZ(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), c = get(e, a.VC);
	if (a.Mod1 & 4)
		c = and_i(e, c, 0x7FFFFFFFu);
	LLVMTypeRef args[2] = { e->v32, e->i1 };
	LLVMTypeRef type = LLVMFunctionType(e->v32, args, 2, 0);
	LLVMValueRef argv[2] = { c, LLVMConstInt(e->i1, 0, 0) };
	put(e, a.VD, LLVMBuildCall2(e->b, type, intrinsic(e, "llvm.ctlz.v32i32", type), argv, 2, ""), en);
	if (a.Mod1 & 10)
		update_flags(e, a.Mod1 & 2, LLVMBuildNot(e->b, zero_mask(e, c), ""), a.Mod1, en);
}

/* TC/SFPEXEXP.md */
static void emit_exexp(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPEXEXP a = ttx_decode_SFPEXEXP(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e);
	LLVMValueRef r = and_i(e, LLVMBuildLShr(e->b, get(e, a.VC), splat(e, 23), ""), 0xFF);
	if (!(a.Mod1 & 1))
		r = LLVMBuildSub(e->b, r, splat(e, 127), "");
	put(e, a.VD, r, en);
	if (a.Mod1 & 10)
		update_flags(e, a.Mod1 & 2, sign_mask(e, r), a.Mod1, en);
}

static LLVMValueRef or_i(struct emitter *e, LLVMValueRef v, uint32_t x)
{
	return LLVMBuildOr(e->b, v, splat(e, x), "");
}

/* SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPDIVP2: FP32 fields
   (TC/SFPEXMAN.md and the others; VB = VD). */
static void emit_fields(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPSETEXP a = ttx_decode_SFPSETEXP(word);   /* VC, VD, Mod1 in the same places */
	if (a.VD >= 8)
		return;
	LLVMValueRef en = enabled(e), c = get(e, a.VC), vb = get(e, a.VD), r;
	switch (word >> 24) {
	case TTX_OP_SFPEXMAN:
		r = and_i(e, c, 0x7FFFFF);
		if (!(a.Mod1 & 1))
			r = or_i(e, r, 1u << 23);
		break;
	case TTX_OP_SFPSETEXP: {
		LLVMValueRef x;
		if (a.Mod1 & 1)
			x = splat(e, (uint32_t)a.Imm8 << 23);
		else if (a.Mod1 & 2)
			x = and_i(e, vb, 0x7F800000u);
		else
			x = LLVMBuildShl(e->b, and_i(e, vb, 0xFF), splat(e, 23), "");
		r = LLVMBuildOr(e->b, and_i(e, c, 0x807FFFFFu), x, "");
		break;
	}
	case TTX_OP_SFPSETMAN: {
		struct ttx_args_SFPSETMAN m = ttx_decode_SFPSETMAN(word);
		LLVMValueRef x = (m.Mod1 & 1) ? splat(e, (uint32_t)m.Imm12 << 11) : and_i(e, vb, 0x7FFFFF);
		r = LLVMBuildOr(e->b, and_i(e, c, 0xFF800000u), x, "");
		break;
	}
	case TTX_OP_SFPSETSGN: {
		struct ttx_args_SFPSETSGN g = ttx_decode_SFPSETSGN(word);
		LLVMValueRef x = (g.Mod1 & 1) ? splat(e, (uint32_t)g.Imm1 << 31) : and_i(e, vb, 0x80000000u);
		r = LLVMBuildOr(e->b, and_i(e, c, 0x7FFFFFFFu), x, "");
		break;
	}
	default: {   /* SFPDIVP2 */
		struct ttx_args_SFPDIVP2 d = ttx_decode_SFPDIVP2(word);
		uint32_t imm = (uint32_t)d.Imm8 << 23;
		if (d.Mod1 & 1) {
			LLVMValueRef sum = LLVMBuildOr(e->b, and_i(e, c, 0x807FFFFFu),
			                               and_i(e, LLVMBuildAdd(e->b, c, splat(e, imm), ""), 0x7F800000u), "");
			LLVMValueRef special = LLVMBuildICmp(e->b, LLVMIntEQ, and_i(e, c, 0x7F800000u),
			                                     splat(e, 0x7F800000u), "");
			r = LLVMBuildSelect(e->b, special, c, sum, "");
		} else {
			r = or_i(e, and_i(e, c, 0x807FFFFFu), imm);
		}
		break;
	}
	}
	put(e, a.VD, r, en);
}

/* TC/SFPMOV.md, not FROM_SPECIAL. */
static void emit_mov(struct emitter *e, uint32_t word)
{
	struct ttx_args_SFPMOV a = ttx_decode_SFPMOV(word);
	if (a.VD >= 8)
		return;
	LLVMValueRef en = a.Mod1 == 2 ? c32(e, ALL) : enabled(e), x = get(e, a.VC);
	if (a.Mod1 & 1)
		x = LLVMBuildXor(e->b, x, splat(e, 0x80000000u), "");
	put(e, a.VD, x, en);
}

/* ---- the flag stack (TC/VectorUnit.md "Lane Predication Masks") ----
 * One stack per lane, kept in the tile (interp/sfpu_simple.c): entry d of
 * lane L is bit L of flag_stack[d], the depth of lane L is
 * flag_stack_size[L].  The emitters work on it in memory. */

static LLVMValueRef stack_ptr(struct emitter *e, unsigned d, int use)
{
	return state_ptr(e, ttx_jit_offset_flag_stack(d, use), e->i32);
}

static LLVMValueRef depths(struct emitter *e)
{
	LLVMTypeRef v8 = LLVMVectorType(e->i8, TTX_LANES);
	LLVMValueRef p = state_ptr(e, ttx_jit_offset_flag_stack_size(), v8);
	LLVMValueRef v = LLVMBuildLoad2(e->b, v8, p, "");
	LLVMSetAlignment(v, 1);
	return v;
}

static LLVMValueRef splat8(struct emitter *e, uint8_t x)
{
	LLVMValueRef k[TTX_LANES];
	for (unsigned i = 0; i < TTX_LANES; i++)
		k[i] = LLVMConstInt(e->i8, x, 0);
	return LLVMConstVector(k, TTX_LANES);
}

/* Lanes whose stack holds exactly d entries. */
static LLVMValueRef depth_lanes(struct emitter *e, LLVMValueRef depth, unsigned d)
{
	return as_i32(e, LLVMBuildICmp(e->b, LLVMIntEQ, depth, splat8(e, (uint8_t)d), ""));
}

static void add_depth(struct emitter *e, LLVMValueRef depth, int delta)
{
	LLVMValueRef v = LLVMBuildAdd(e->b, depth, splat8(e, (uint8_t)delta), "");
	LLVMSetAlignment(LLVMBuildStore(e->b, v, state_ptr(e, ttx_jit_offset_flag_stack_size(), LLVMTypeOf(v))), 1);
}

/* The top entry of every lane; lanes with an empty stack read empty. */
static void stack_top(struct emitter *e, LLVMValueRef depth, uint32_t empty, LLVMValueRef *flags, LLVMValueRef *use)
{
	LLVMValueRef f = LLVMBuildAnd(e->b, depth_lanes(e, depth, 0), c32(e, empty), ""), u = f;
	for (unsigned d = 1; d <= TTX_FLAG_STACK_DEPTH; d++) {
		LLVMValueRef l = depth_lanes(e, depth, d);
		f = LLVMBuildOr(e->b, f, LLVMBuildAnd(e->b, load(e, e->i32, stack_ptr(e, d - 1, 0)), l, ""), "");
		u = LLVMBuildOr(e->b, u, LLVMBuildAnd(e->b, load(e, e->i32, stack_ptr(e, d - 1, 1)), l, ""), "");
	}
	*flags = f;
	*use = u;
}

/* if (any lane of bad) the interpreter runs word (for its fault), else
   emit the native code; both paths meet after it. */
static LLVMBasicBlockRef guard(struct emitter *e, LLVMValueRef bad, uint32_t word)
{
	LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "stack_fault");
	LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, bad, c32(e, 0), ""), slow, fast);
	LLVMPositionBuilderAtEnd(e->b, slow);
	emit_interp(e, word, ALL_LREGS, RELOAD_ALL);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, fast);
	return join;
}

/* TC/SFPPUSHC.md: every lane pushes {LaneFlags, Use}; a full stack faults
   (in the interpreter). */
static void emit_pushc(struct emitter *e, uint32_t word)
{
	LLVMValueRef depth = depths(e);
	LLVMBasicBlockRef join = guard(e, depth_lanes(e, depth, TTX_FLAG_STACK_DEPTH), word);
	LLVMValueRef flags = get_flags(e), use = get_use(e);
	for (unsigned d = 0; d < TTX_FLAG_STACK_DEPTH; d++) {
		LLVMValueRef l = depth_lanes(e, depth, d);
		store(e, blend32(e, load(e, e->i32, stack_ptr(e, d, 0)), flags, l), stack_ptr(e, d, 0));
		store(e, blend32(e, load(e, e->i32, stack_ptr(e, d, 1)), use, l), stack_ptr(e, d, 1));
	}
	add_depth(e, depth, 1);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, join);
}

/* BooleanOp of TC/SFPPOPC.md: A = LaneFlags, B = Top.LaneFlags. */
static LLVMValueRef boolean_op(struct emitter *e, unsigned mod1, LLVMValueRef a, LLVMValueRef b)
{
	LLVMBuilderRef B = e->b;
	LLVMValueRef na = LLVMBuildNot(B, a, ""), nb = LLVMBuildNot(B, b, "");
	switch (mod1) {
	case 1: return b;
	case 2: return nb;
	case 3: return LLVMBuildAnd(B, a, b, "");
	case 4: return LLVMBuildOr(B, a, b, "");
	case 5: return LLVMBuildAnd(B, a, nb, "");
	case 6: return LLVMBuildOr(B, a, nb, "");
	case 7: return LLVMBuildAnd(B, na, b, "");
	case 8: return LLVMBuildOr(B, na, b, "");
	case 9: return LLVMBuildAnd(B, na, nb, "");
	case 10: return LLVMBuildOr(B, na, nb, "");
	case 11: return LLVMBuildXor(B, a, b, "");
	default: return LLVMBuildNot(B, LLVMBuildXor(B, a, b, ""), "");   /* 12 */
	}
}

/* TC/SFPPOPC.md, as interp/sfpu_simple.c: Mod1 = 0 pops (an empty stack
   faults, in the interpreter); 1-12 combine with the top; 13-15 set; any
   Mod1 != 0 on a full stack also copies the top over the bottom entry (the
   documented hardware bug). */
static void emit_popc(struct emitter *e, uint32_t word)
{
	unsigned mod1 = word & 15;
	LLVMValueRef depth = depths(e), top_flags, top_use;
	LLVMBasicBlockRef join = NULL;
	if (mod1 == 0)
		join = guard(e, depth_lanes(e, depth, 0), word);
	stack_top(e, depth, 0, &top_flags, &top_use);
	if (mod1 == 0) {
		add_depth(e, depth, -1);
	} else {
		LLVMValueRef full = depth_lanes(e, depth, TTX_FLAG_STACK_DEPTH);
		store(e, blend32(e, load(e, e->i32, stack_ptr(e, 0, 0)), top_flags, full), stack_ptr(e, 0, 0));
		store(e, blend32(e, load(e, e->i32, stack_ptr(e, 0, 1)), top_use, full), stack_ptr(e, 0, 1));
	}
	switch (mod1) {
	case 0:
		store(e, top_use, e->use);
		store(e, top_flags, e->flags);
		break;
	case 13:
		store(e, LLVMBuildNot(e->b, get_flags(e), ""), e->flags);
		break;
	case 14:
	case 15:
		store(e, c32(e, ALL), e->use);
		store(e, c32(e, mod1 == 14 ? ALL : 0), e->flags);
		break;
	default:
		store(e, top_use, e->use);
		store(e, boolean_op(e, mod1, get_flags(e), top_flags), e->flags);
		break;
	}
	if (join) {
		LLVMBuildBr(e->b, join);
		LLVMPositionBuilderAtEnd(e->b, join);
	}
}

/* TC/SFPCOMPC.md: the top of an empty stack reads {true, true}. */
static void emit_compc(struct emitter *e)
{
	LLVMValueRef top_flags, top_use;
	stack_top(e, depths(e), ALL, &top_flags, &top_use);
	LLVMValueRef f = LLVMBuildAnd(e->b, LLVMBuildAnd(e->b, top_use, get_use(e), ""), top_flags, "");
	store(e, LLVMBuildAnd(e->b, f, LLVMBuildNot(e->b, get_flags(e), ""), ""), e->flags);
}

/* ---- which instructions, and how ---- */

/* Blocks take SFPU instructions, NOPs and the Matrix Unit's, unpackers'
   and packers' instructions, except SFPLOADMACRO (it schedules work on
   later cycles, TC/SFPLOADMACRO.md) and SFPCONFIG (it changes the
   LaneConfig a block is compiled for, and LReg 11-14). */
int ttx_jit_can_take(uint32_t word)
{
	unsigned op = word >> 24;
	if (op == TTX_OP_NOP)
		return 1;
	return (ttx_isa_insns[op].unit == TTX_UNIT_SFPU && op != TTX_OP_SFPLOADMACRO && op != TTX_OP_SFPCONFIG) ||
	       ttx_jit_is_unit_word(word);
}

int ttx_jit_is_unit_word(uint32_t word)
{
	unsigned unit = ttx_isa_insns[word >> 24].unit;
	return unit == TTX_UNIT_MATRIX || unit == TTX_UNIT_UNPACK || unit == TTX_UNIT_PACK;
}

/* VD >= 12 may be the backdoor load (TC/SFPCONFIG.md), which the
   interpreter handles; so are the INDIRECT modes and FROM_SPECIAL. */
int ttx_jit_is_native(uint32_t word)
{
	unsigned op = word >> 24;
	unsigned vd4 = (word >> 4) & 15, mod1 = word & 15;   /* most SFPU layouts */
	switch (op) {
	case TTX_OP_NOP:
	case TTX_OP_SFPNOP:
		return 1;
	case TTX_OP_SFPLOADI: {
		struct ttx_args_SFPLOADI a = ttx_decode_SFPLOADI(word);
		return a.VD < 12 && (a.Mod0 == 0 || a.Mod0 == 1 || a.Mod0 == 2 || a.Mod0 == 4 || a.Mod0 == 8 ||
		                     a.Mod0 == 10);
	}
	case TTX_OP_SFPMAD: case TTX_OP_SFPADD: case TTX_OP_SFPMUL:
		return vd4 < 12 && !(mod1 & 12);
	case TTX_OP_SFPMULI: case TTX_OP_SFPADDI:
		return vd4 < 12 && !(mod1 & 8);
	case TTX_OP_SFPMOV:
		return vd4 < 12 && !(mod1 & 8);
	case TTX_OP_SFPIADD: case TTX_OP_SFPAND: case TTX_OP_SFPOR: case TTX_OP_SFPXOR: case TTX_OP_SFPNOT:
	case TTX_OP_SFPSHFT: case TTX_OP_SFPSETCC: case TTX_OP_SFPENCC: case TTX_OP_SFPABS: case TTX_OP_SFPLZ:
	case TTX_OP_SFPEXEXP: case TTX_OP_SFPEXMAN: case TTX_OP_SFPSETEXP: case TTX_OP_SFPSETMAN:
	case TTX_OP_SFPSETSGN: case TTX_OP_SFPDIVP2: case TTX_OP_SFPPUSHC: case TTX_OP_SFPPOPC:
	case TTX_OP_SFPCOMPC:
		return vd4 < 12;
	default:
		return 0;
	}
}

static void emit_insn(struct emitter *e, uint32_t word)
{
	unsigned op = word >> 24;
	LLVMValueRef at = c32(e, e->index);
	if (e->pos) {   /* (a MOP's loops repeat the code: the place is counted at run time) */
		at = load(e, e->i32, e->pos);
		store(e, LLVMBuildAdd(e->b, at, c32(e, 1), ""), e->pos);
	}
	if (ttx_jit_is_unit_word(word)) {
		emit_unit(e, word, at);
		e->index++;
		return;
	}
	if (!ttx_jit_is_native(word)) {
		/* SFPLOAD and SFPSTORE touch only LReg[VD] (SFPLOAD also VD + 4,
		   with ENABLE_DEST_INDEX) besides the flags and Dst; the rest
		   may touch any LReg. */
		uint32_t spill = ALL_LREGS, reload = RELOAD_ALL;
		unsigned vd = (word >> 20) & 15;
		if (op == TTX_OP_SFPLOAD)
			spill = reload = vd < 8 ? 1u << vd | (vd < 4 ? 1u << (vd + 4) : 0) : 0;
		else if (op == TTX_OP_SFPSTORE)
			spill = vd < 8 ? 1u << vd : 0, reload = 0;
		emit_interp(e, word, spill, reload);
		e->index++;
		return;
	}
	switch (op) {
	case TTX_OP_SFPLOADI: emit_loadi(e, word); break;
	case TTX_OP_SFPMAD: case TTX_OP_SFPADD: case TTX_OP_SFPMUL: emit_mad(e, word); break;
	case TTX_OP_SFPMULI: emit_mad_imm(e, word, 0); break;
	case TTX_OP_SFPADDI: emit_mad_imm(e, word, 1); break;
	case TTX_OP_SFPIADD: emit_iadd(e, word); break;
	case TTX_OP_SFPAND: case TTX_OP_SFPOR: case TTX_OP_SFPXOR: case TTX_OP_SFPNOT: emit_bitwise(e, word); break;
	case TTX_OP_SFPSHFT: emit_shft(e, word); break;
	case TTX_OP_SFPSETCC: emit_setcc(e, word); break;
	case TTX_OP_SFPENCC: emit_encc(e, word); break;
	case TTX_OP_SFPABS: emit_abs(e, word); break;
	case TTX_OP_SFPLZ: emit_lz(e, word); break;
	case TTX_OP_SFPEXEXP: emit_exexp(e, word); break;
	case TTX_OP_SFPMOV: emit_mov(e, word); break;
	case TTX_OP_SFPEXMAN: case TTX_OP_SFPSETEXP: case TTX_OP_SFPSETMAN: case TTX_OP_SFPSETSGN:
	case TTX_OP_SFPDIVP2: emit_fields(e, word); break;
	case TTX_OP_SFPPUSHC: emit_pushc(e, word); break;
	case TTX_OP_SFPPOPC: emit_popc(e, word); break;
	case TTX_OP_SFPCOMPC: emit_compc(e); break;
	default: break;   /* NOP, SFPNOP */
	}
	e->index++;
}

/* ---- loops for MOP expansions (TC/MOPExpander.md, src/frontend.c) ---- */

static int is_nop(uint32_t word)
{
	return word >> 24 == TTX_OP_NOP;
}

/* Run body n times: unrolled when short, else a counted loop whose body
   runs `unroll` times per iteration, then the remainder.  The body gets the
   iteration number as an i32 value.  Unrolling matters because the fast
   code generator (jit/orc.c) keeps no value in a register across a loop's
   back edge: every live LReg is stored and reloaded once per iteration. */
typedef void (*body_fn)(struct emitter *e, LLVMValueRef iter, void *ctx);

static void repeat(struct emitter *e, uint32_t n, unsigned unroll, body_fn body, void *ctx)
{
	uint32_t iterations = n / unroll, done_n = iterations * unroll;
	if (iterations <= 1) {
		for (uint32_t i = 0; i < n; i++)
			body(e, c32(e, i), ctx);
		return;
	}
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(e->b);
	LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "loop");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "done");
	LLVMBuildBr(e->b, loop);
	LLVMPositionBuilderAtEnd(e->b, loop);
	LLVMValueRef i = LLVMBuildPhi(e->b, e->i32, "i");
	unsigned first = e->index;
	for (unsigned k = 0; k < unroll; k++)
		body(e, LLVMBuildAdd(e->b, i, c32(e, k), ""), ctx);
	e->index = first;   /* fault reports give the loop's first instruction */
	LLVMValueRef next = LLVMBuildAdd(e->b, i, c32(e, unroll), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(e->b);
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntULT, next, c32(e, done_n), ""), loop, done);
	LLVMValueRef in_v[2] = { c32(e, 0), next };
	LLVMBasicBlockRef in_b[2] = { pre, end };
	LLVMAddIncoming(i, in_v, in_b, 2);
	LLVMPositionBuilderAtEnd(e->b, done);
	for (uint32_t k = done_n; k < n; k++)
		body(e, c32(e, k), ctx);
}

/* if (cond) emit a else emit b, for one word each. */
static void choose(struct emitter *e, LLVMValueRef cond, uint32_t a, uint32_t b)
{
	if (a == b) {
		emit_insn(e, a);
		return;
	}
	LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
	LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
	LLVMBuildCondBr(e->b, cond, yes, no);
	LLVMPositionBuilderAtEnd(e->b, yes);
	emit_insn(e, a);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, no);
	e->index--;
	emit_insn(e, b);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, join);
}

struct mop1 {
	const uint32_t *cfg;
	uint32_t outer_count, inner_count, flip;
};

static void mop1_pair(struct emitter *e, LLVMValueRef iter, void *ctx)
{
	const struct mop1 *m = ctx;
	(void)iter;
	emit_insn(e, m->cfg[5]);
	emit_insn(e, m->cfg[5] ^ m->flip);
}

static void mop1_single(struct emitter *e, LLVMValueRef iter, void *ctx)
{
	const struct mop1 *m = ctx;
	(void)iter;
	emit_insn(e, m->cfg[5]);
}

/* One outer iteration of template 1: StartOp, the inner loop whose ops
   alternate LoopOp and LoopOp ^ flip and whose last is Loop1Last (or
   Loop0Last on the last outer iteration), EndOp0, EndOp1. */
static void mop1_outer(struct emitter *e, LLVMValueRef outer, void *ctx)
{
	const struct mop1 *m = ctx;
	const uint32_t *cfg = m->cfg;
	if (!is_nop(cfg[2]))
		emit_insn(e, cfg[2]);
	if (m->inner_count) {
		uint32_t before_last = m->inner_count - 1;
		if (m->flip) {   /* inner_count is even: pairs, then LoopOp */
			repeat(e, before_last / 2, 8, mop1_pair, (void *)m);
			emit_insn(e, cfg[5]);
		} else {
			repeat(e, before_last, 16, mop1_single, (void *)m);
		}
		choose(e, LLVMBuildICmp(e->b, LLVMIntEQ, outer, c32(e, m->outer_count - 1), ""), cfg[7], cfg[8]);
	}
	if (!is_nop(cfg[3])) {
		emit_insn(e, cfg[3]);
		if (!is_nop(cfg[4]))
			emit_insn(e, cfg[4]);
	}
}

struct mop0 {
	const uint32_t *cfg;
	uint32_t mask;
};

static void mop0_iter(struct emitter *e, LLVMValueRef iter, void *ctx)
{
	const struct mop0 *m = ctx;
	const uint32_t *cfg = m->cfg;
	unsigned has_b = cfg[1] & 1, has_a123 = cfg[1] & 2;
	LLVMBasicBlockRef skip = NULL, join = NULL;
	unsigned first = e->index;
	if (m->mask) {
		/* Mask bit i (0 past bit 31) selects the skip ops. */
		LLVMValueRef in_range = LLVMBuildICmp(e->b, LLVMIntULT, iter, c32(e, 32), "");
		LLVMValueRef sh = LLVMBuildAnd(e->b, iter, c32(e, 31), "");
		LLVMValueRef bit = LLVMBuildAnd(e->b, LLVMBuildLShr(e->b, c32(e, m->mask), sh, ""), c32(e, 1), "");
		LLVMValueRef masked = LLVMBuildAnd(e->b, in_range, LLVMBuildICmp(e->b, LLVMIntNE, bit, c32(e, 0), ""), "");
		LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
		skip = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "skip");
		join = LLVMAppendBasicBlockInContext(e->ctx, e->fn, "");
		LLVMBuildCondBr(e->b, masked, skip, run);
		LLVMPositionBuilderAtEnd(e->b, run);
	}
	emit_insn(e, cfg[3]);
	if (has_a123)
		for (unsigned k = 4; k <= 6; k++)
			emit_insn(e, cfg[k]);
	if (has_b)
		emit_insn(e, cfg[2]);
	if (m->mask) {
		LLVMBuildBr(e->b, join);
		LLVMPositionBuilderAtEnd(e->b, skip);
		e->index = first;
		emit_insn(e, cfg[7]);
		if (has_b)
			emit_insn(e, cfg[8]);
		LLVMBuildBr(e->b, join);
		LLVMPositionBuilderAtEnd(e->b, join);
	}
}

/* The same sequence as src/frontend.c's generators (tests/test_jit.c checks
   the instruction counts against ttx_mop_expand). */
static void emit_mop(struct emitter *e, const struct ttx_block_desc *d)
{
	struct ttx_args_MOP a = ttx_decode_MOP(d->mop_word);
	const uint32_t *cfg = d->mop_cfg;
	if (a.Template) {
		struct mop1 m = { cfg, cfg[0] & 127, cfg[1] & 127, 0 };
		if (!is_nop(cfg[6])) {
			m.flip = cfg[5] ^ cfg[6];
			m.inner_count *= 2;
		}
		if (m.outer_count == 1 && is_nop(cfg[2]) && m.inner_count == 0 && !is_nop(cfg[3]))
			m.outer_count += 128;   /* the hardware bug */
		repeat(e, m.outer_count, 1, mop1_outer, &m);
	} else {
		struct mop0 m = { cfg, ((uint32_t)d->mask_hi << 16) | a.MaskLo };
		repeat(e, a.Count1 + 1, 4, mop0_iter, &m);
	}
}

/* ---- the function ---- */

LLVMValueRef ttx_emit_block(LLVMContextRef ctx, LLVMModuleRef mod, const char *name,
                            const struct ttx_block_desc *d);

LLVMValueRef ttx_emit_block(LLVMContextRef ctx, LLVMModuleRef mod, const char *name,
                            const struct ttx_block_desc *d)
{
	struct emitter e;
	memset(&e, 0, sizeof(e));
	e.ctx = ctx;
	e.mod = mod;
	e.i1 = LLVMInt1TypeInContext(ctx);
	e.i8 = LLVMInt8TypeInContext(ctx);
	e.i32 = LLVMInt32TypeInContext(ctx);
	e.i64 = LLVMInt64TypeInContext(ctx);
	e.v32 = LLVMVectorType(e.i32, TTX_LANES);
	e.m32 = LLVMVectorType(e.i1, TTX_LANES);
	e.f32v = LLVMVectorType(LLVMFloatTypeInContext(ctx), TTX_LANES);
	e.i8p = LLVMPointerType(e.i8, 0);
	e.lanes_on = ~d->row_masked;
	e.fast = d->fast_numerics;

	LLVMTypeRef params[2] = { e.i8p, e.i32 };
	e.fn = LLVMAddFunction(mod, name, LLVMFunctionType(e.i32, params, 2, 0));
	/* 512-bit vectors where the host has them (gallivm does the same). */
	LLVMAddAttributeAtIndex(e.fn, LLVMAttributeFunctionIndex,
	                        LLVMCreateStringAttribute(ctx, "prefer-vector-width", 19, "512", 3));
	LLVMAddAttributeAtIndex(e.fn, LLVMAttributeFunctionIndex,
	                        LLVMCreateStringAttribute(ctx, "min-legal-vector-width", 22, "512", 3));
	e.tile = LLVMGetParam(e.fn, 0);
	e.thread = LLVMGetParam(e.fn, 1);
	e.b = LLVMCreateBuilderInContext(ctx);
	LLVMPositionBuilderAtEnd(e.b, LLVMAppendBasicBlockInContext(ctx, e.fn, "entry"));
	for (unsigned r = 0; r < 16; r++)
		e.lreg[r] = LLVMBuildAlloca(e.b, e.v32, "");
	e.flags = LLVMBuildAlloca(e.b, e.i32, "flags");
	e.use = LLVMBuildAlloca(e.b, e.i32, "use");
	for (unsigned i = 0; i < 2; i++) {
		e.tmp[i] = LLVMBuildAlloca(e.b, LLVMArrayType(e.i32, TTX_LANES), "");
		LLVMSetAlignment(e.tmp[i], 64);
	}
	load_state(&e, RELOAD_ALL);
	int mop_units = 0;
	for (unsigned i = 2; i < 9 && d->is_mop; i++)
		mop_units |= ttx_jit_is_unit_word(d->mop_cfg[i]);
	if (mop_units) {
		e.pos = LLVMBuildAlloca(e.b, e.i32, "pos");
		store(&e, c32(&e, 0), e.pos);
	}
	if (d->is_mop)
		emit_mop(&e, d);
	else
		for (size_t i = 0; i < d->nwords; i++)
			emit_insn(&e, d->words[i]);
	store_state(&e, ALL_LREGS, 1);
	LLVMBuildRet(e.b, c32(&e, 0));
	LLVMDisposeBuilder(e.b);
	return e.fn;
}
