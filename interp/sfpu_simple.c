/* Vector Unit (SFPU) simple sub-unit (TC/VectorUnit.md "Sub-units"): integer
 * and bit-field instructions, predication, SFPMOV, SFPSWAP, SFPTRANSP, SFPCAST.
 *
 * Every handler follows its page's functional model with the 32 lanes as one
 * ttx_lanes value and the per-lane booleans as 32-bit masks:
 *   - decode through the page's layout (src/isa.def), take the operands an
 *     SFPLOADMACRO chose (ttx_sfpu_macro_operands; VB defaults to VD);
 *   - the backdoor load: an instruction with VD >= 12 is, in each lane whose
 *     LaneConfig.DISABLE_BACKDOOR_LOAD is clear, a write of its bits to
 *     InstructionTemplate[VD - 12] and nothing else (TC/SFPCONFIG.md
 *     LaneConfig).  Pages that write only LReg 0-7 / 16 leave the condition
 *     out of their model because such an instruction has no other effect
 *     there; the template write still happens, so every handler asks
 *     ttx_sfpu_backdoor();
 *   - LaneEnabled (ttx_sfpu_lane_enabled(), a SIMD form of ttx_sfpu_lane_enabled)
 *     gates the lanes written, and ttx_sfpu_write drops writes to LReg 8-15.
 * Flag side effects (LaneFlags) are applied to the enabled lanes only, and
 * only when VD < 8, as the models say.
 *
 * The flag stack (TC/VectorUnit.md "Lane Predication Masks") is one stack
 * per lane: entry d of lane L is bit L of flag_stack[d], its depth is
 * flag_stack_size[L]. */
#include <string.h>

#include "sfpu.h"

#define ALL_LANES 0xFFFFFFFFu

/* ---- local lane helpers ---- */

static inline ttx_lanes lreg(const struct ttx_sfpu *s, unsigned r)
{
	return ttx_lanes_load(s->lreg[r]);
}

/* Lanes whose value, as int32, is negative (sign bit set). */
static inline uint32_t sign_mask(ttx_lanes a)
{
	return (uint32_t)simde_mm512_movepi32_mask(a.lo) | (uint32_t)simde_mm512_movepi32_mask(a.hi) << 16;
}

/* Lanes whose value is zero. */
static inline uint32_t zero_mask(ttx_lanes a)
{
	return ~(ttx_lanes_test(a, a));
}

/* Count leading zeros, 32 for zero (AVX512CD vplzcntd, else smear + popcount). */
static inline __attribute__((always_inline)) simde__m512i clz16(simde__m512i a)
{
#if defined(SIMDE_X86_AVX512CD_NATIVE)
	return _mm512_lzcnt_epi32(a);
#else
	a = simde_mm512_or_si512(a, simde_mm512_srli_epi32(a, 1));
	a = simde_mm512_or_si512(a, simde_mm512_srli_epi32(a, 2));
	a = simde_mm512_or_si512(a, simde_mm512_srli_epi32(a, 4));
	a = simde_mm512_or_si512(a, simde_mm512_srli_epi32(a, 8));
	a = simde_mm512_or_si512(a, simde_mm512_srli_epi32(a, 16));
	return simde_mm512_sub_epi32(simde_mm512_set1_epi32(32), simde_mm512_popcnt_epi32(a));
#endif
}

static inline ttx_lanes clz(ttx_lanes a)
{
	ttx_lanes r = { clz16(a.lo), clz16(a.hi) };
	return r;
}

static inline ttx_lanes abs_i32(ttx_lanes a)
{
	ttx_lanes r = { simde_mm512_abs_epi32(a.lo), simde_mm512_abs_epi32(a.hi) };
	return r;
}

/* old with the lanes in mask replaced by the bits of value. */
static inline uint32_t blend(uint32_t old, uint32_t value, uint32_t mask)
{
	return (old & ~mask) | (value & mask);
}

static inline uint32_t sign_extend12(uint32_t x)
{
	return (uint32_t)((int32_t)(x << 20) >> 20);
}

/* Lanes whose LaneConfig has any of bits. */
static inline uint32_t lane_config_mask(const struct ttx_sfpu *s, uint32_t bits)
{
	return ttx_lanes_test(ttx_lanes_load(s->lane_config), ttx_lanes_splat(bits));
}

/* LaneFlags = value in the lanes of mask. */
static inline void set_flags(struct ttx_sfpu *s, uint32_t value, uint32_t mask)
{
	s->lane_flags = blend(s->lane_flags, value, mask);
}

/* The flag side effect of SFPIADD, SFPLZ and SFPEXEXP: in the enabled lanes,
   LaneFlags = cond (or left as they are when use_cond is false), inverted
   when Mod1 bit 3 is set. */
static inline void update_flags(struct ttx_sfpu *s, int use_cond, uint32_t cond, unsigned mod1, uint32_t en)
{
	uint32_t f = use_cond ? cond : s->lane_flags;
	set_flags(s, (mod1 & 8) ? ~f : f, en);
}

/* ---- the flag stack ---- */

/* Lanes whose flag stack holds exactly d entries. */
static inline uint32_t depth_lanes(const struct ttx_sfpu *s, unsigned d)
{
	simde__m256i size = simde_mm256_loadu_si256((const void *)s->flag_stack_size);
	return (uint32_t)simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi8(size, simde_mm256_set1_epi8((char)d)));
}

/* flag_stack_size += delta in the lanes of mask. */
static inline void depth_add(struct ttx_sfpu *s, uint32_t mask, int delta)
{
	simde__m256i size = simde_mm256_loadu_si256((const void *)s->flag_stack_size);
	simde__m256i step = simde_mm256_and_si256(simde_mm256_movm_epi8(mask), simde_mm256_set1_epi8((char)delta));
	simde_mm256_storeu_si256((void *)s->flag_stack_size, simde_mm256_add_epi8(size, step));
}

/* The top entry of the lanes in mask; lanes with an empty stack get
   empty_value for both halves. */
static void stack_top(const struct ttx_sfpu *s, uint32_t mask, uint32_t empty_value,
                      uint32_t *flags, uint32_t *use)
{
	uint32_t f = depth_lanes(s, 0) & empty_value, u = f;
	for (unsigned d = 1; d <= TTX_FLAG_STACK_DEPTH; d++) {
		uint32_t l = depth_lanes(s, d);
		f |= s->flag_stack[d - 1].lane_flags & l;
		u |= s->flag_stack[d - 1].use_lane_flags & l;
	}
	*flags = f & mask;
	*use = u & mask;
}

/* ---- predication: SFPENCC, SFPSETCC, SFPPUSHC, SFPPOPC, SFPCOMPC ---- */

/* TC/SFPENCC.md.  Not gated by LaneEnabled.  Mod1 bit 1 (EI) sets
 * UseLaneFlagsForLaneEnable from Imm2 bit 0, else bit 0 (EC) inverts it;
 * Mod1 bit 3 (RI) sets LaneFlags from Imm2 bit 1, else LaneFlags = true.
 * (The model tests "Mod1 & SFPENCC_IMM12_E/R"; those are Imm2 bits, which
 * the reference and every case prologue, Mod1 = 10 Imm2 = 3, confirm.) */
int ttx_sfpu_SFPENCC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPENCC a = ttx_decode_SFPENCC(word);
	(void)thread;
	uint32_t m = ttx_sfpu_backdoor(s, a.VD, word);
	if (a.Mod1 & 2)
		s->use_lane_flags = blend(s->use_lane_flags, (a.Imm2 & 1) ? ALL_LANES : 0, m);
	else if (a.Mod1 & 1)
		s->use_lane_flags ^= m;
	set_flags(s, (a.Mod1 & 8) && !(a.Imm2 & 2) ? 0 : ALL_LANES, m);
	return TTX_OK;
}

/* TC/SFPSETCC.md.  In enabled lanes: LaneFlags = false where
 * UseLaneFlagsForLaneEnable is false or Mod1 bit 3 (CLEAR); Imm1 when Mod1
 * bit 0; else the int32 compare of LReg[VC] with 0 (Mod1 0 LT0, 2 NE0,
 * 4 GTE0, 6 EQ0).  Integer compare: FP32 -0 (0x80000000) is "< 0" and
 * NaNs compare by their sign bit. */
int ttx_sfpu_SFPSETCC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSETCC a = ttx_decode_SFPSETCC(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	uint32_t f;
	if (a.Mod1 & 8) {
		f = 0;
	} else if (a.Mod1 & 1) {
		f = a.Imm1 ? ALL_LANES : 0;
	} else {
		ttx_lanes c = lreg(s, vc);
		switch (a.Mod1) {
		case 0: f = sign_mask(c); break;
		case 2: f = ~zero_mask(c); break;
		case 4: f = ~sign_mask(c); break;
		default: f = zero_mask(c); break;   /* 6 */
		}
	}
	set_flags(s, f & s->use_lane_flags, en);
	return TTX_OK;
}

/* TC/SFPPUSHC.md.  Not gated by LaneEnabled: every executing lane pushes
 * {LaneFlags, UseLaneFlagsForLaneEnable}.  Pushing onto a full (8-entry)
 * stack is undefined behaviour: ttx faults. */
int ttx_sfpu_SFPPUSHC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPPUSHC a = ttx_decode_SFPPUSHC(word);
	uint32_t m = ttx_sfpu_backdoor(s, a.VD, word);
	if (m & depth_lanes(s, TTX_FLAG_STACK_DEPTH))
		return ttx_fail(t, TTX_FAULT, "SFPPUSHC (0x%08X) at thread %u: the flag stack is full "
		                "(8 entries; undefined behaviour, TC/SFPPUSHC.md)", word, thread);
	for (unsigned d = 0; d < TTX_FLAG_STACK_DEPTH; d++) {
		uint32_t l = m & depth_lanes(s, d);
		if (!l)
			continue;
		s->flag_stack[d].lane_flags = blend(s->flag_stack[d].lane_flags, s->lane_flags, l);
		s->flag_stack[d].use_lane_flags = blend(s->flag_stack[d].use_lane_flags, s->use_lane_flags, l);
	}
	depth_add(s, m, 1);
	return TTX_OK;
}

/* BooleanOp of TC/SFPPOPC.md on lane masks: A = LaneFlags, B = Top.LaneFlags. */
static uint32_t boolean_op(unsigned mod1, uint32_t a, uint32_t b)
{
	switch (mod1) {
	case 1: return b;
	case 2: return ~b;
	case 3: return a & b;
	case 4: return a | b;
	case 5: return a & ~b;
	case 6: return a | ~b;
	case 7: return ~a & b;
	case 8: return ~a | b;
	case 9: return ~a & ~b;
	case 10: return ~a | ~b;
	case 11: return a ^ b;
	default: return ~(a ^ b);   /* 12 */
	}
}

/* TC/SFPPOPC.md.  Not gated by LaneEnabled.  Top of an empty stack reads as
 * {false, false}.  Mod1 = 0 pops (undefined on an empty stack: ttx faults);
 * Mod1 1-12 peek and combine LaneFlags with Top.LaneFlags by BooleanOp,
 * taking Top's UseLaneFlagsForLaneEnable; 13 inverts LaneFlags; 14 / 15 set
 * Use = true and LaneFlags = true / false.  The documented hardware bug: any
 * Mod1 != 0 on a full stack (8 entries) also copies Top over the bottom
 * entry. */
int ttx_sfpu_SFPPOPC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPPOPC a = ttx_decode_SFPPOPC(word);
	uint32_t m = ttx_sfpu_backdoor(s, a.VD, word);
	uint32_t top_flags, top_use;
	if (a.Mod1 == 0 && (m & depth_lanes(s, 0)))
		return ttx_fail(t, TTX_FAULT, "SFPPOPC Mod1=0 (0x%08X) at thread %u: the flag stack is empty "
		                "(undefined behaviour, TC/SFPPOPC.md)", word, thread);
	stack_top(s, m, 0, &top_flags, &top_use);
	if (a.Mod1 == 0) {
		depth_add(s, m, -1);
	} else {
		uint32_t full = m & depth_lanes(s, TTX_FLAG_STACK_DEPTH);
		s->flag_stack[0].lane_flags = blend(s->flag_stack[0].lane_flags, top_flags, full);
		s->flag_stack[0].use_lane_flags = blend(s->flag_stack[0].use_lane_flags, top_use, full);
	}
	switch (a.Mod1) {
	case 0:
		s->use_lane_flags = blend(s->use_lane_flags, top_use, m);
		set_flags(s, top_flags, m);
		break;
	case 13:
		set_flags(s, ~s->lane_flags, m);
		break;
	case 14:
		s->use_lane_flags |= m;
		set_flags(s, ALL_LANES, m);
		break;
	case 15:
		s->use_lane_flags |= m;
		set_flags(s, 0, m);
		break;
	default:   /* 1-12 */
		s->use_lane_flags = blend(s->use_lane_flags, top_use, m);
		set_flags(s, boolean_op(a.Mod1, s->lane_flags, top_flags), m);
		break;
	}
	return TTX_OK;
}

/* TC/SFPCOMPC.md.  Not gated by LaneEnabled.  Top of an empty stack reads
 * as {true, true}.  LaneFlags = Top.LaneFlags && !LaneFlags where both
 * Top.Use and Use are true, else false. */
int ttx_sfpu_SFPCOMPC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPCOMPC a = ttx_decode_SFPCOMPC(word);
	(void)thread;
	uint32_t m = ttx_sfpu_backdoor(s, a.VD, word);
	uint32_t top_flags, top_use;
	stack_top(s, m, ALL_LANES, &top_flags, &top_use);
	set_flags(s, top_use & s->use_lane_flags & top_flags & ~s->lane_flags, m);
	return TTX_OK;
}

/* ---- integer and bitwise ---- */

/* TC/SFPIADD.md.  VD = VC + sext(Imm12) (Mod1 bit 0), VC - VB (bit 1), else
 * VC + VB, VB = VD; 32-bit wrapping (INT_MIN - 1 = INT_MAX).  When VD < 8,
 * LaneFlags = result < 0 unless Mod1 bit 2 (CC_NONE), then inverted if
 * bit 3 (CC_GTE0), in the enabled lanes. */
int ttx_sfpu_SFPIADD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPIADD a = ttx_decode_SFPIADD(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t normal = ttx_sfpu_backdoor(s, a.VD, word);
	if (!(vd < 8 || vd == 16))
		return TTX_OK;
	uint32_t en = normal & ttx_sfpu_lane_enabled(s);
	ttx_lanes c = lreg(s, vc), r;
	if (a.Mod1 & 1)
		r = ttx_lanes_add(c, ttx_lanes_splat(sign_extend12(a.Imm12)));
	else if (a.Mod1 & 2)
		r = ttx_lanes_sub(c, lreg(s, vb));
	else
		r = ttx_lanes_add(c, lreg(s, vb));
	ttx_sfpu_write(s, vd, r, en);
	if (vd < 8)
		update_flags(s, !(a.Mod1 & 4), sign_mask(r), a.Mod1, en);
	return TTX_OK;
}

/* TC/SFPAND.md, TC/SFPOR.md, TC/SFPXOR.md: VD = VB op VC, VB = VD.  The
   three share one layout (VC, VD), so one body serves them. */
static int bitwise(struct ttx_tile *t, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPAND a = ttx_decode_SFPAND(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes b = lreg(s, vb), c = lreg(s, vc), r;
	switch (word >> 24) {
	case TTX_OP_SFPAND: r = ttx_lanes_and(b, c); break;
	case TTX_OP_SFPOR:  r = ttx_lanes_or(b, c); break;
	default:            r = ttx_lanes_xor(b, c); break;
	}
	ttx_sfpu_write(s, vd, r, en);
	return TTX_OK;
}

int ttx_sfpu_SFPAND(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return bitwise(t, word);
}

int ttx_sfpu_SFPOR(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return bitwise(t, word);
}

int ttx_sfpu_SFPXOR(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread;
	return bitwise(t, word);
}

/* TC/SFPNOT.md: VD = ~VC. */
int ttx_sfpu_SFPNOT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPNOT a = ttx_decode_SFPNOT(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_sfpu_write(s, vd, ttx_lanes_xori(lreg(s, vc), ALL_LANES), en);
	return TTX_OK;
}

/* TC/SFPLZ.md.  VD = clz(c), 32 for c = 0, where c = VC with the sign bit
 * cleared if Mod1 bit 2 (NOSGN_MASK).  When VD < 8, in enabled lanes:
 * LaneFlags = c != 0 if Mod1 bit 1 (CC_NE0), then inverted if bit 3. */
int ttx_sfpu_SFPLZ(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPLZ a = ttx_decode_SFPLZ(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t normal = ttx_sfpu_backdoor(s, a.VD, word);
	if (!(vd < 8 || vd == 16))
		return TTX_OK;
	uint32_t en = normal & ttx_sfpu_lane_enabled(s);
	ttx_lanes c = lreg(s, vc);
	if (a.Mod1 & 4)
		c = ttx_lanes_andi(c, 0x7FFFFFFF);
	ttx_sfpu_write(s, vd, clz(c), en);
	if (vd < 8 && (a.Mod1 & 10))
		update_flags(s, a.Mod1 & 2, ~zero_mask(c), a.Mod1, en);
	return TTX_OK;
}

/* TC/SFPABS.md.  Mod1 bit 0 (FLOAT): clear the sign bit unless the value is
 * -NaN (> 0xFF800000), so -0 -> +0 and -Inf -> +Inf: the page's condition
 * (>= 0xFF800000) would keep -Inf, but the reference gives +Inf and the
 * page's comment speaks only of -NaN (vectors README departure #2).
 * Otherwise two's complement |x|, INT_MIN stays INT_MIN. */
int ttx_sfpu_SFPABS(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPABS a = ttx_decode_SFPABS(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes c = lreg(s, vc), r;
	if (a.Mod1 & 1)
		r = ttx_lanes_select(ttx_lanes_ge_u32(c, ttx_lanes_splat(0xFF800001u)), c, ttx_lanes_andi(c, 0x7FFFFFFF));
	else
		r = abs_i32(c);
	ttx_sfpu_write(s, vd, r, en);
	return TTX_OK;
}

/* TC/SFPSHFT.md.  Amount = sext(Imm12) (Mod1 bit 0) or LReg[VC] as int32;
 * >= 0: VB << (amount & 31), < 0: VB >> (-amount & 31) logical, VB = VD.
 * So 32 shifts by 0, -32 by 0, INT_MIN right by 0. */
int ttx_sfpu_SFPSHFT(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSHFT a = ttx_decode_SFPSHFT(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes b = lreg(s, vb), r;
	if (a.Mod1 & 1) {
		int32_t n = (int32_t)sign_extend12(a.Imm12);
		ttx_lanes count = ttx_lanes_splat(n >= 0 ? (uint32_t)n & 31 : (0u - (uint32_t)n) & 31);
		r = n >= 0 ? ttx_lanes_sllv(b, count) : ttx_lanes_srlv(b, count);
	} else {
		ttx_lanes n = lreg(s, vc);
		ttx_lanes left = ttx_lanes_sllv(b, ttx_lanes_andi(n, 31));
		ttx_lanes right = ttx_lanes_srlv(b, ttx_lanes_andi(ttx_lanes_sub(ttx_lanes_splat(0), n), 31));
		r = ttx_lanes_select(sign_mask(n), right, left);
	}
	ttx_sfpu_write(s, vd, r, en);
	return TTX_OK;
}

/* ---- FP32 field manipulation ---- */

/* TC/SFPEXEXP.md.  VD = exponent field of VC (0-255), minus 127 unless
 * Mod1 bit 0 (NODEBIAS): -127 for zero/denormals, 128 for Inf/NaN.  When
 * VD < 8, in enabled lanes: LaneFlags = VD < 0 if Mod1 bit 1, then inverted
 * if bit 3. */
int ttx_sfpu_SFPEXEXP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPEXEXP a = ttx_decode_SFPEXEXP(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t normal = ttx_sfpu_backdoor(s, a.VD, word);
	if (!(vd < 8 || vd == 16))
		return TTX_OK;
	uint32_t en = normal & ttx_sfpu_lane_enabled(s);
	ttx_lanes r = ttx_lanes_andi(ttx_lanes_srli(lreg(s, vc), 23), 0xFF);
	if (!(a.Mod1 & 1))
		r = ttx_lanes_sub(r, ttx_lanes_splat(127));
	ttx_sfpu_write(s, vd, r, en);
	if (vd < 8 && (a.Mod1 & 10))
		update_flags(s, a.Mod1 & 2, sign_mask(r), a.Mod1, en);
	return TTX_OK;
}

/* TC/SFPEXMAN.md: VD = (Mod1 bit 0 (PAD9) ? 0 : 1 << 23) + mantissa of VC. */
int ttx_sfpu_SFPEXMAN(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPEXMAN a = ttx_decode_SFPEXMAN(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes r = ttx_lanes_andi(lreg(s, vc), 0x7FFFFF);
	if (!(a.Mod1 & 1))
		r = ttx_lanes_ori(r, 1u << 23);
	ttx_sfpu_write(s, vd, r, en);
	return TTX_OK;
}

/* TC/SFPSETEXP.md: VD = {VC.Sign, E, VC.Man} with E = Imm8 (Mod1 bit 0),
 * the exponent field of VB (bit 1), else VB & 255; VB = VD. */
int ttx_sfpu_SFPSETEXP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSETEXP a = ttx_decode_SFPSETEXP(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes e;
	if (a.Mod1 & 1)
		e = ttx_lanes_splat((uint32_t)a.Imm8 << 23);
	else if (a.Mod1 & 2)
		e = ttx_lanes_andi(lreg(s, vb), 0x7F800000);
	else
		e = ttx_lanes_slli(ttx_lanes_andi(lreg(s, vb), 0xFF), 23);
	ttx_sfpu_write(s, vd, ttx_lanes_or(ttx_lanes_andi(lreg(s, vc), 0x807FFFFF), e), en);
	return TTX_OK;
}

/* TC/SFPSETMAN.md: VD = {VC.Sign, VC.Exp, M} with M = Imm12 << 11 (Mod1
 * bit 0) or VB & 0x7FFFFF; VB = VD. */
int ttx_sfpu_SFPSETMAN(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSETMAN a = ttx_decode_SFPSETMAN(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes m = (a.Mod1 & 1) ? ttx_lanes_splat((uint32_t)a.Imm12 << 11) : ttx_lanes_andi(lreg(s, vb), 0x7FFFFF);
	ttx_sfpu_write(s, vd, ttx_lanes_or(ttx_lanes_andi(lreg(s, vc), 0xFF800000), m), en);
	return TTX_OK;
}

/* TC/SFPSETSGN.md: VD = {S, VC.Exp, VC.Man} with S = Imm1 (Mod1 bit 0) or
 * the sign bit of VB; VB = VD.  No NaN special case. */
int ttx_sfpu_SFPSETSGN(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSETSGN a = ttx_decode_SFPSETSGN(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes sgn = (a.Mod1 & 1) ? ttx_lanes_splat((uint32_t)a.Imm1 << 31) : ttx_lanes_andi(lreg(s, vb), 0x80000000u);
	ttx_sfpu_write(s, vd, ttx_lanes_or(ttx_lanes_andi(lreg(s, vc), 0x7FFFFFFF), sgn), en);
	return TTX_OK;
}

/* TC/SFPDIVP2.md.  Mod1 bit 0 (ADD): exponent += Imm8 modulo 256 (so it can
 * wrap into zero/denormal or Inf/NaN patterns) except that exponent 255
 * (Inf, NaN) is left unchanged; else exponent = Imm8.  Sign and mantissa
 * kept.  Imm8 is bits 19:12 (the cases sign-extend it into bits 23:20,
 * which are ignored: vectors README departure #6). */
int ttx_sfpu_SFPDIVP2(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPDIVP2 a = ttx_decode_SFPDIVP2(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes c = lreg(s, vc), r;
	uint32_t imm = (uint32_t)a.Imm8 << 23;
	if (a.Mod1 & 1) {
		/* ((Exp + Imm8) & 255) << 23 == (c + (Imm8 << 23)) & 0x7F800000. */
		ttx_lanes sum = ttx_lanes_or(ttx_lanes_andi(c, 0x807FFFFF), ttx_lanes_andi(ttx_lanes_add(c, ttx_lanes_splat(imm)), 0x7F800000));
		ttx_lanes e = ttx_lanes_andi(c, 0x7F800000);
		r = ttx_lanes_select(ttx_lanes_eq(e, ttx_lanes_splat(0x7F800000)), c, sum);
	} else {
		r = ttx_lanes_ori(ttx_lanes_andi(c, 0x807FFFFF), imm);
	}
	ttx_sfpu_write(s, vd, r, en);
	return TTX_OK;
}

/* ---- data movement and conversion ---- */

#define SFPMOV_MOD1_NEGATE            1
#define SFPMOV_MOD1_ALL_LANES_ENABLED 2
#define SFPMOV_MOD1_FROM_SPECIAL      8

/* TC/SFPMOV.md.  Lanes run when enabled, or always when Mod1 == 2 exactly
 * (ALL_LANES_ENABLED).  Mod1 bit 3 (FROM_SPECIAL) reads, per lane, by VC:
 * 0-3 InstructionTemplate[VC], 4-7 Sequence[VC - 4], 8 Misc, 9 AdvancePRNG()
 * (the PRNG advances in running lanes even when VD is not writable),
 * 15 LaneConfig, others 0.  Else LReg[VC], with the sign bit inverted if
 * Mod1 bit 0 (NEGATE: -0 <-> +0, NaN sign flips too).  VD < 8 or 16 only. */
int ttx_sfpu_SFPMOV(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPMOV a = ttx_decode_SFPMOV(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word);
	if (a.Mod1 != SFPMOV_MOD1_ALL_LANES_ENABLED)
		en &= ttx_sfpu_lane_enabled(s);
	if (!(a.Mod1 & SFPMOV_MOD1_FROM_SPECIAL)) {
		ttx_lanes x = lreg(s, vc);
		if (a.Mod1 & SFPMOV_MOD1_NEGATE)
			x = ttx_lanes_xori(x, 0x80000000u);
		ttx_sfpu_write(s, vd, x, en);
		return TTX_OK;
	}
	uint32_t x[TTX_LANES] = { 0 };
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		if (!(en >> lane & 1))
			continue;
		switch (vc) {
		case 0: case 1: case 2: case 3:
			x[lane] = s->load_macro_config[lane].instruction_template[vc];
			break;
		case 4: case 5: case 6: case 7:
			x[lane] = s->load_macro_config[lane].sequence[vc - 4];
			break;
		case 8: x[lane] = s->load_macro_config[lane].misc; break;
		case 9: x[lane] = ttx_sfpu_prng_advance(s, lane); break;
		case 15: x[lane] = s->lane_config[lane]; break;
		default: break;
		}
	}
	ttx_sfpu_write(s, vd, ttx_lanes_load(x), en);
	return TTX_OK;
}

/* TC/SFPCAST.md.  Sign-magnitude int32 -> FP32: exact for |x| <= 2^24;
 * beyond, round to nearest even (Mod1 bit 0 clear) or stochastic with
 * seven PRNG bits (bit 0 set; the PRNG advances in enabled lanes).  -0
 * (0x80000000) gives -0.0; the largest magnitude 0x7FFFFFFF rounds to
 * 2^31 (0x4F000000).  The PRNG advances even when VD is not writable. */
int ttx_sfpu_SFPCAST(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPCAST a = ttx_decode_SFPCAST(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	(void)thread;
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes c = lreg(s, vc);
	ttx_lanes mag = ttx_lanes_andi(c, 0x7FFFFFFF);
	ttx_lanes lz = clz(mag);                       /* 32 for 0; Norm is 0 either way */
	ttx_lanes norm = ttx_lanes_sllv(mag, lz);
	/* Sign + ((157 - LZ) << 23) with LZ = 157 for a zero magnitude. */
	ttx_lanes exp = ttx_lanes_select(zero_mask(mag), ttx_lanes_splat(0),
	                                 ttx_lanes_slli(ttx_lanes_sub(ttx_lanes_splat(157), lz), 23));
	ttx_lanes d = ttx_lanes_add(ttx_lanes_add(ttx_lanes_andi(c, 0x80000000u), exp), ttx_lanes_srli(norm, 8));
	uint32_t up;
	if (a.Mod1 & 1) {
		uint32_t nv[TTX_LANES];
		ttx_lanes_store(nv, norm);
		up = 0;
		for (unsigned lane = 0; lane < TTX_LANES; lane++)
			if (en >> lane & 1)
				up |= (uint32_t)((nv[lane] & 0xFE) > ((ttx_sfpu_prng_advance(s, lane) >> 9) & 0xFE)) << lane;
	} else {
		up = ttx_lanes_test(norm, ttx_lanes_splat(0x80)) & ttx_lanes_test(norm, ttx_lanes_splat(0x17F));
	}
	d = ttx_lanes_add(d, ttx_lanes_select(up, ttx_lanes_splat(1), ttx_lanes_splat(0)));
	ttx_sfpu_write(s, vd, d, en);
	return TTX_OK;
}

/* VDGetsMin of TC/SFPSWAP.md by Mod1; Mod1 = 9 (absent from the page) is
 * VD = max, VC = min in every lane in the reference (vectors README #7). */
static const uint32_t swap_vd_gets_min[10] = {
	0, 0xFFFFFFFFu, 0x0000FFFFu, 0x00FF00FFu, 0xFF0000FFu,
	0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0xFF000000u, 0,
};

/* Sign-magnitude (and FP32 total order) key: x ^ 0x7FFFFFFF when negative,
   so that an int32 compare orders -NaN < -Inf < ... < -0 < +0 < ... < +NaN. */
static inline ttx_lanes signmag_key(ttx_lanes x)
{
	return ttx_lanes_xor(x, ttx_lanes_select(sign_mask(x), ttx_lanes_splat(0x7FFFFFFF), ttx_lanes_splat(0)));
}

/* TC/SFPSWAP.md.  Mod1 = 0 swaps VC and VD; 1-8 are a conditional swap so
 * that VD gets the min (VDGetsMin lanes) or the max, comparing as
 * sign-magnitude integers (FP32 total order with -0 < +0 and NaNs by sign
 * at the ends); Mod1 = 9 is max into VD in all lanes (departure #7);
 * 10-15 are undefined (ttx faults).  LaneConfig.EXCHANGE_SRCB_SRCC inverts
 * the comparison; LaneConfig.ENABLE_DEST_INDEX writes only VC/VD < 4 and
 * swaps LReg[4 + (VC & 3)] with LReg[4 + (VD & 3)] along (argmin/argmax).
 * Otherwise only VC/VD < 8 are written (LReg 16 is not). */
int ttx_sfpu_SFPSWAP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPSWAP a = ttx_decode_SFPSWAP(word);
	unsigned vb = a.VD, vc = a.VC, vd = a.VD;
	if (a.Mod1 > 9)
		return ttx_fail(t, TTX_FAULT, "SFPSWAP Mod1=%u (0x%08X) at thread %u is undefined "
		                "(TC/SFPSWAP.md defines Mod1 0-8)", a.Mod1, word, thread);
	ttx_sfpu_macro_operands(s, &vb, &vc, &vd, NULL);
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	ttx_lanes cv = lreg(s, vc), dv = lreg(s, vd);
	uint32_t swap = ALL_LANES;
	if (a.Mod1 != 0) {
		uint32_t c_smaller = ttx_lanes_gt_i32(signmag_key(dv), signmag_key(cv));
		uint32_t gets_min = swap_vd_gets_min[a.Mod1];
		swap = (gets_min & c_smaller) | (~gets_min & ~c_smaller);
		swap ^= lane_config_mask(s, 1u << 8);   /* EXCHANGE_SRCB_SRCC */
	}
	swap &= en;
	if (!swap)
		return TTX_OK;
	uint32_t index = lane_config_mask(s, TTX_LANECFG_ENABLE_DEST_INDEX) & swap;
	uint32_t plain = swap & ~index;
	if (index) {
		unsigned vca = 4 + (vc & 3), vda = 4 + (vd & 3);
		ttx_lanes ca = lreg(s, vca), da = lreg(s, vda);
		if (vc < 4)
			ttx_lanes_store_mask(s->lreg[vc], dv, index);
		if (vd < 4)
			ttx_lanes_store_mask(s->lreg[vd], cv, index);
		ttx_lanes_store_mask(s->lreg[vca], da, index);
		ttx_lanes_store_mask(s->lreg[vda], ca, index);
	}
	if (plain) {
		if (vc < 8)
			ttx_lanes_store_mask(s->lreg[vc], dv, plain);
		if (vd < 8)
			ttx_lanes_store_mask(s->lreg[vd], cv, plain);
	}
	return TTX_OK;
}

/* TC/SFPTRANSP.md.  Viewing lanes as 4 rows x 8 columns, LReg[B + i] row j
 * takes LReg[B + j] row i (B = 0 and 4), in each enabled destination lane;
 * the diagonal stays. */
int ttx_sfpu_SFPTRANSP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPTRANSP a = ttx_decode_SFPTRANSP(word);
	(void)thread;
	uint32_t en = ttx_sfpu_backdoor(s, a.VD, word) & ttx_sfpu_lane_enabled(s);
	if (!en)
		return TTX_OK;
	for (unsigned base = 0; base < 8; base += 4) {
		uint32_t out[4][TTX_LANES];
		for (unsigned i = 0; i < 4; i++)
			for (unsigned j = 0; j < 4; j++)
				memcpy(&out[i][j * 8], &s->lreg[base + j][i * 8], 8 * sizeof(uint32_t));
		for (unsigned i = 0; i < 4; i++)
			ttx_lanes_store_mask(s->lreg[base + i], ttx_lanes_load(out[i]), en);
	}
	return TTX_OK;
}
