/* Vector Unit (SFPU) internals shared by its sub-unit files (TC/VectorUnit.md):
 *   interp/sfpu.c         dispatch, load and store sub-units, SFPLOADI,
 *                         SFPCONFIG, SFPLOADMACRO, SFPNOP
 *   interp/sfpu_mad.c     MAD sub-unit: SFPMAD/ADD/MUL/MULI/ADDI, SFPLUT, SFPLUTFP32
 *   interp/sfpu_simple.c  simple sub-unit: integer, bit-field, predication,
 *                         SFPMOV, SFPSWAP, SFPTRANSP, SFPCAST
 *   interp/sfpu_round.c   round sub-unit: SFPSTOCHRND, SFPSHFT2
 *
 * The 32 lanes are processed together as a ttx_lanes value (two 16 x 32-bit
 * SIMDe vectors: lanes 0-15 and 16-31) with 32-bit lane masks (bit i = lane
 * i).  The pattern of every handler, as in the functional models: compute all
 * lanes, then commit the enabled ones with a masked store. */
#ifndef TTX_INTERP_SFPU_H
#define TTX_INTERP_SFPU_H

#include <simde/x86/avx512.h>

#include "simd16.h"

#include "tile.h"

/* LaneConfig bits (TC/SFPCONFIG.md). */
#define TTX_LANECFG_ENABLE_FP16A_INF           (1u << 0)
#define TTX_LANECFG_DISABLE_BACKDOOR_LOAD      (1u << 1)
#define TTX_LANECFG_ENABLE_DEST_INDEX          (1u << 2)
#define TTX_LANECFG_CAPTURE_DEFAULT_DEST_INDEX (1u << 3)
#define TTX_LANECFG_BLOCK_DEST_WR_FROM_SFPU    (1u << 4)
#define TTX_LANECFG_ROW_MASK_SHIFT             12

typedef struct {
	simde__m512i lo, hi;   /* lanes 0-15, lanes 16-31 */
} ttx_lanes;

static inline ttx_lanes ttx_lanes_load(const uint32_t lanes[TTX_LANES])
{
	ttx_lanes v = { simde_mm512_loadu_si512(lanes), simde_mm512_loadu_si512(lanes + 16) };
	return v;
}

static inline void ttx_lanes_store(uint32_t lanes[TTX_LANES], ttx_lanes v)
{
	simde_mm512_storeu_si512(lanes, v.lo);
	simde_mm512_storeu_si512(lanes + 16, v.hi);
}

/* Store the lanes of v whose bit is set in mask; the others keep their value. */
static inline void ttx_lanes_store_mask(uint32_t lanes[TTX_LANES], ttx_lanes v, uint32_t mask)
{
	if (mask == 0xFFFFFFFFu) {
		ttx_lanes_store(lanes, v);
		return;
	}
	/* Debian 12's SIMDe has no masked store: blend with the old value. */
	ttx_lanes old = ttx_lanes_load(lanes);
	simde_mm512_storeu_si512(lanes, simde_mm512_mask_mov_epi32(old.lo, (simde__mmask16)mask, v.lo));
	simde_mm512_storeu_si512(lanes + 16, simde_mm512_mask_mov_epi32(old.hi, (simde__mmask16)(mask >> 16), v.hi));
}

static inline ttx_lanes ttx_lanes_splat(uint32_t x)
{
	ttx_lanes v = { simde_mm512_set1_epi32((int32_t)x), simde_mm512_set1_epi32((int32_t)x) };
	return v;
}

/* Lane-wise binary and unary operations on 32-bit integers. */
#define TTX_LANES_OP2(name, fn) \
	static inline ttx_lanes name(ttx_lanes a, ttx_lanes b) \
	{ ttx_lanes r = { fn(a.lo, b.lo), fn(a.hi, b.hi) }; return r; }
TTX_LANES_OP2(ttx_lanes_and, simde_mm512_and_si512)
TTX_LANES_OP2(ttx_lanes_or, simde_mm512_or_si512)
TTX_LANES_OP2(ttx_lanes_xor, simde_mm512_xor_si512)
TTX_LANES_OP2(ttx_lanes_andnot, simde_mm512_andnot_si512)   /* ~a & b */
TTX_LANES_OP2(ttx_lanes_add, simde_mm512_add_epi32)
TTX_LANES_OP2(ttx_lanes_sub, simde_mm512_sub_epi32)
TTX_LANES_OP2(ttx_lanes_sllv, simde_mm512_sllv_epi32)       /* counts >= 32 give 0 */
TTX_LANES_OP2(ttx_lanes_srlv, simde_mm512_srlv_epi32)
TTX_LANES_OP2(ttx_lanes_min_u32, simde_mm512_min_epu32)
TTX_LANES_OP2(ttx_lanes_max_u32, simde_mm512_max_epu32)
TTX_LANES_OP2(ttx_lanes_min_i32, simde_mm512_min_epi32)
TTX_LANES_OP2(ttx_lanes_max_i32, simde_mm512_max_epi32)
#undef TTX_LANES_OP2

/* Lane-wise comparisons, giving a 32-bit lane mask. */
#define TTX_LANES_CMP(name, fn) \
	static inline uint32_t name(ttx_lanes a, ttx_lanes b) \
	{ return (uint32_t)fn(a.lo, b.lo) | (uint32_t)fn(a.hi, b.hi) << 16; }
TTX_LANES_CMP(ttx_lanes_eq, simde_mm512_cmpeq_epi32_mask)
TTX_LANES_CMP(ttx_lanes_gt_i32, simde_mm512_cmpgt_epi32_mask)
TTX_LANES_CMP(ttx_lanes_ge_u32, simde_mm512_cmpge_epu32_mask)
TTX_LANES_CMP(ttx_lanes_test, simde_mm512_test_epi32_mask)   /* (a & b) != 0 */
#undef TTX_LANES_CMP

/* Operations with an immediate operand. */
static inline ttx_lanes ttx_lanes_andi(ttx_lanes a, uint32_t x) { return ttx_lanes_and(a, ttx_lanes_splat(x)); }
static inline ttx_lanes ttx_lanes_ori(ttx_lanes a, uint32_t x) { return ttx_lanes_or(a, ttx_lanes_splat(x)); }
static inline ttx_lanes ttx_lanes_xori(ttx_lanes a, uint32_t x) { return ttx_lanes_xor(a, ttx_lanes_splat(x)); }

static inline ttx_lanes ttx_lanes_srli(ttx_lanes a, unsigned n)
{
	ttx_lanes r = { simde_mm512_srli_epi32(a.lo, n), simde_mm512_srli_epi32(a.hi, n) };
	return r;
}

static inline ttx_lanes ttx_lanes_slli(ttx_lanes a, unsigned n)
{
	ttx_lanes r = { simde_mm512_slli_epi32(a.lo, n), simde_mm512_slli_epi32(a.hi, n) };
	return r;
}

/* mask ? a : b, lane-wise. */
static inline ttx_lanes ttx_lanes_select(uint32_t mask, ttx_lanes a, ttx_lanes b)
{
	ttx_lanes r = { simde_mm512_mask_mov_epi32(b.lo, (simde__mmask16)mask, a.lo),
	                simde_mm512_mask_mov_epi32(b.hi, (simde__mmask16)(mask >> 16), a.hi) };
	return r;
}

/* Lanes disabled by LaneConfig[Lane & 7].ROW_MASK.Bit[Lane / 8]: row r of the
   mask is bit 12 + r of LaneConfig[0..7], gathered with a shift and a
   movemask per row. */
static inline uint32_t ttx_sfpu_row_masked(const struct ttx_sfpu *s)
{
	/* The common case: no ROW_MASK bit set.  (Not simde_mm256_testz_si256:
	   SIMDe 0.7.4's portable version answers "zero" when either half is.) */
	uint32_t any = 0;
	for (unsigned i = 0; i < 8; i++)
		any |= s->lane_config[i];
	if (!(any & 0xFu << TTX_LANECFG_ROW_MASK_SHIFT))
		return 0;
	simde__m256i cfg = simde_mm256_loadu_si256((const void *)s->lane_config);
#define ROW(r) ((uint32_t)simde_mm256_movemask_ps(simde_mm256_castsi256_ps( \
		simde_mm256_slli_epi32(cfg, 31 - TTX_LANECFG_ROW_MASK_SHIFT - (r)))) << (8 * (r)))
	uint32_t masked = ROW(0) | ROW(1) | ROW(2) | ROW(3);
#undef ROW
	return masked;
}

/* IsLaneEnabled for all lanes (TC/VectorUnit.md "Lane Predication Masks"). */
static inline uint32_t ttx_sfpu_lane_enabled(const struct ttx_sfpu *s)
{
	return ~ttx_sfpu_row_masked(s) & (~s->use_lane_flags | s->lane_flags);
}

/* The backdoor load (TC/SFPCONFIG.md LaneConfig.DISABLE_BACKDOOR_LOAD): in each
   lane where VD >= 12 and DISABLE_BACKDOOR_LOAD is clear, the instruction is
   not executed; its 32 bits go to LoadMacroConfig[Lane].InstructionTemplate[VD - 12].
   Returns the lanes that execute the instruction normally. */
uint32_t ttx_sfpu_backdoor_load(struct ttx_sfpu *s, unsigned vd, uint32_t word);
static inline uint32_t ttx_sfpu_backdoor(struct ttx_sfpu *s, unsigned vd, uint32_t word)
{
	/* Scheduled by SFPLOADMACRO: DISABLE_BACKDOOR_LOAD reads as true. */
	if (vd < 12 || s->macro_ops.active)
		return 0xFFFFFFFFu;
	return ttx_sfpu_backdoor_load(s, vd, word);
}

/* An instruction that SFPLOADMACRO scheduled runs with register operands the
   macro chose (TC/SFPLOADMACRO.md).  Handlers call this after setting vb, vc
   and vd to the defaults of their functional model (in the simple sub-unit
   vb = VD; for SFPADDI/SFPMULI vc = VD); vd may become 16.  *vb_set tells
   SFPSHFT2 whether the macro supplied VB (may be NULL). */
static inline void ttx_sfpu_macro_operands(const struct ttx_sfpu *s, unsigned *vb, unsigned *vc,
                                           unsigned *vd, int *vb_set)
{
	if (!s->macro_ops.active)
		return;
	*vb = s->macro_ops.vb;
	*vc = s->macro_ops.vc;
	*vd = s->macro_ops.vd;
	if (vb_set)
		*vb_set = s->macro_ops.vb_set;
}

/* Write the lanes in mask of LReg[vd]; most instructions may write only
   LReg 0-7 and LReg 16 (writes to 8-15 are dropped, TC/LReg.md). */
static inline void ttx_sfpu_write(struct ttx_sfpu *s, unsigned vd, ttx_lanes v, uint32_t mask)
{
	if (vd < 8 || vd == 16)
		ttx_lanes_store_mask(s->lreg[vd], v, mask);
}

/* AdvancePRNG for one lane (TC/VectorUnit.md "PRNG"). */
static inline uint32_t ttx_sfpu_prng_advance(struct ttx_sfpu *s, unsigned lane)
{
	uint32_t result = s->prng[lane];
	uint32_t taps = (uint32_t)__builtin_popcount(result & 0x80200003u);
	s->prng[lane] = (~taps << 31) | (result >> 1);
	return result;
}

/* Handlers, one per opcode: TTX_OK or a fault (ttx_fail). */
#define TTX_SFPU_HANDLERS(X) \
	X(SFPLOAD) X(SFPLOADI) X(SFPSTORE) X(SFPLUT) X(SFPMULI) X(SFPADDI) X(SFPDIVP2) \
	X(SFPEXEXP) X(SFPEXMAN) X(SFPIADD) X(SFPSHFT) X(SFPSETCC) X(SFPMOV) X(SFPABS) \
	X(SFPAND) X(SFPOR) X(SFPNOT) X(SFPLZ) X(SFPSETEXP) X(SFPSETMAN) X(SFPMAD) X(SFPADD) \
	X(SFPMUL) X(SFPPUSHC) X(SFPPOPC) X(SFPSETSGN) X(SFPENCC) X(SFPCOMPC) X(SFPTRANSP) \
	X(SFPXOR) X(SFPSTOCHRND) X(SFPNOP) X(SFPCAST) X(SFPCONFIG) X(SFPSWAP) X(SFPLOADMACRO) \
	X(SFPSHFT2) X(SFPLUTFP32)

#define X(m) int ttx_sfpu_##m(struct ttx_tile *t, unsigned thread, uint32_t word);
TTX_SFPU_HANDLERS(X)
#undef X

/* Execute one SFPU instruction (interp/sfpu.c). */
int ttx_sfpu_exec(struct ttx_tile *t, unsigned thread, uint32_t word);
/* One cycle of the SFPLOADMACRO schedule, on which `issued` is issued (0 for
   an idle cycle); *discard tells whether a scheduled instruction took its
   sub-unit.  Drain runs idle cycles until nothing waits on the clock. */
int ttx_sfpu_macro_cycle(struct ttx_tile *t, uint32_t issued, int *discard);
int ttx_sfpu_macro_drain(struct ttx_tile *t, int *ran);

#endif
