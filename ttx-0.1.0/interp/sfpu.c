/* Vector Unit (SFPU): dispatch, the load and store sub-units (SFPLOAD,
 * SFPSTORE, SFPLOADMACRO), SFPLOADI, SFPCONFIG and SFPNOP (TC/VectorUnit.md). */
#include <string.h>

#include "sfpu.h"

static int dispatch(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	switch (word >> 24) {
#define X(m) case TTX_OP_##m: return ttx_sfpu_##m(t, thread, word);
	TTX_SFPU_HANDLERS(X)
#undef X
	default:
		return ttx_fault_undocumented(t, thread, word);
	}
}

/* ---- --strict: results read before they are ready ----
 * MAD-class results (and SFPSWAP, SFPSHFT2 Mod1 2 and 3) take two cycles and
 * are not interlocked: the next SFPU instruction must not read them
 * (TC/SFPMAD.md "Instruction scheduling").  ttx computes the correct-program
 * result anyway; in strict mode it warns.  The read sets below are those of
 * the functional models, slightly conservative for mode-dependent reads. */

static uint32_t bit(unsigned reg)
{
	return 1u << (reg & 31);
}

static uint32_t late_writes(uint32_t word)
{
	unsigned vd = (word >> 4) & 15, vc = (word >> 8) & 15, mod1 = word & 15;
	switch (word >> 24) {
	case TTX_OP_SFPMAD: case TTX_OP_SFPADD: case TTX_OP_SFPMUL:
	case TTX_OP_SFPMULI: case TTX_OP_SFPADDI: case TTX_OP_SFPLUTFP32:
		return (mod1 & 8) ? 0xFFu : bit(vd);   /* INDIRECT_VD: any of L0-L7 */
	case TTX_OP_SFPLUT:
		return ((word >> 16) & 8) ? 0xFFu : bit((word >> 20) & 15);
	case TTX_OP_SFPSWAP:
		return bit(vd) | bit(vc);
	case TTX_OP_SFPSHFT2:
		return (mod1 == 2 || mod1 == 3) ? (mod1 == 2 ? 0xFu : bit(vd)) : 0;
	default:
		return 0;
	}
}

static uint32_t reads(uint32_t word)
{
	unsigned vd = (word >> 4) & 15, vc = (word >> 8) & 15, vb = (word >> 12) & 15, va = (word >> 16) & 15;
	switch (word >> 24) {
	case TTX_OP_SFPMAD: case TTX_OP_SFPADD: case TTX_OP_SFPMUL:
		return bit(va) | bit(vb) | bit(vc) | ((word & 4) ? bit(7) : 0);
	case TTX_OP_SFPMULI: case TTX_OP_SFPADDI:
		return bit(vd) | bit(7);
	case TTX_OP_SFPLUT: return 0xFu | bit(7);
	case TTX_OP_SFPLUTFP32: return 0x7Fu | bit(7);
	case TTX_OP_SFPSTORE: return bit((word >> 20) & 15);
	case TTX_OP_SFPLOAD: case TTX_OP_SFPLOADI: case TTX_OP_SFPLOADMACRO:
		return bit((word >> 20) & 15);   /* partial-width modes keep part of VD */
	case TTX_OP_SFPCONFIG: return bit(0);
	case TTX_OP_SFPTRANSP: return 0xFFu;
	case TTX_OP_SFPSHFT2: return 0xFu | bit(vb) | bit(vc);
	case TTX_OP_SFPSTOCHRND: return bit(vb) | bit(vc);
	case TTX_OP_SFPNOP: case TTX_OP_SFPENCC: case TTX_OP_SFPPUSHC: case TTX_OP_SFPPOPC:
	case TTX_OP_SFPCOMPC:
		return 0;
	default:   /* the simple sub-unit: VC and VD (as VB) */
		return bit(vc) | bit(vd);
	}
}

int ttx_sfpu_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	if (t->opt.strict && !s->macro_ops.active) {
		uint32_t clash = s->pending_writes & reads(word);
		if (clash) {
			const struct ttx_insn_info *prev = ttx_isa_insn(s->pending_word >> 24);
			const struct ttx_insn_info *cur = ttx_isa_insn(word >> 24);
			ttx_warn(t, "hazard: %s (0x%08X) reads LReg %d one cycle after %s (0x%08X) wrote it, "
			         "before the result is ready (insert SFPNOP) at thread %u",
			         cur->mnemonic, word, __builtin_ctz(clash), prev->mnemonic, s->pending_word, thread);
		}
		s->pending_writes = late_writes(word);
		s->pending_word = word;
	}
	return dispatch(t, thread, word);
}

uint32_t ttx_sfpu_backdoor_load(struct ttx_sfpu *s, unsigned vd, uint32_t word)
{
	uint32_t normal = 0;
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		if (s->lane_config[lane] & TTX_LANECFG_DISABLE_BACKDOOR_LOAD)
			normal |= 1u << lane;
		else
			s->load_macro_config[lane].instruction_template[vd - 12] = word;
	}
	return normal;
}

/* ---- SFPLOAD / SFPSTORE (TC/SFPLOAD.md, TC/SFPSTORE.md) ---- */

enum {
	MOD0_FMT_SRCB, MOD0_FMT_FP16, MOD0_FMT_BF16, MOD0_FMT_FP32, MOD0_FMT_INT32,
	MOD0_FMT_INT8, MOD0_FMT_UINT16, MOD0_FMT_HI16, MOD0_FMT_INT16, MOD0_FMT_LO16,
	MOD0_FMT_INT32_ALL, MOD0_FMT_ZERO, MOD0_FMT_INT32_SM, MOD0_FMT_INT8_COMP,
	MOD0_FMT_LO16_ONLY, MOD0_FMT_HI16_ONLY,
};

/* Format codes of ALU_FORMAT_SPEC_REG (TC/Packers/FormatConversion.md). */
enum { FMT_FP32 = 0, FMT_TF32 = 4, FMT_BF16 = 5, FMT_BFP8 = 6, FMT_BFP4 = 7,
       FMT_INT32 = 8, FMT_INT16 = 9, FMT_BFP2 = 15 };

/* MOD0_FMT_SRCB resolves through the SrcB format configuration. */
static unsigned resolve_mod0(const struct ttx_tile *t, unsigned bank, unsigned mod0)
{
	if (mod0 != MOD0_FMT_SRCB)
		return mod0;
	if (ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled))
		return MOD0_FMT_FP32;
	unsigned fmt = ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_SrcB_override)
	               ? ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_SrcB_val)
	               : ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB);
	switch (fmt) {
	case FMT_FP32: case FMT_TF32: case FMT_BF16: case FMT_BFP8: case FMT_BFP4:
	case FMT_BFP2: case FMT_INT32: case FMT_INT16:
		return MOD0_FMT_BF16;
	default:
		return MOD0_FMT_FP16;
	}
}

/* The Dst address of an SFPLOAD / SFPSTORE / SFPLOADMACRO: the top 8 bits pick
   four rows, bit 1 the odd columns. */
static unsigned dst_addr(const struct ttx_tile *t, unsigned thread, unsigned bank, unsigned imm10, unsigned mod0)
{
	unsigned addr = imm10 + ttx_thread_cfg_get(t, thread, TTX_THCFG_DEST_TARGET_REG_CFG_MATH_Offset);
	unsigned rel = t->rwc[thread].dst + ttx_cfg_get(t, bank, TTX_CFG_DEST_REGW_BASE_Base);
	addr += mod0 == MOD0_FMT_INT32_ALL ? (rel & 3) : rel;
	return addr & 0x3FF;
}

static uint32_t unshuffle_bf16(uint32_t x)
{
	return (x & 0x8000u) | ((x & 0xFFu) << 7) | ((x & 0x7F00u) >> 8);
}

static uint32_t read_fp16(uint32_t x, int fp16a_inf)
{
	uint32_t sign = x >> 15, man = (x >> 5) & 0x3FF, exp = x & 0x1F;
	if (fp16a_inf && exp == 0x1F && man == 0x3FF)
		exp = 255, man = 0;
	else if (exp != 0)
		exp += 112;
	return (sign << 31) | (exp << 23) | (man << 13);
}

static uint32_t sign_mag_to_twos(uint32_t x)
{
	uint32_t mag = x & 0x7FFFFFFFu;
	return (x & 0x80000000u) ? (uint32_t)-mag : mag;
}

static uint32_t twos_to_sign_mag(uint32_t x)
{
	uint32_t sign = x & 0x80000000u;
	uint32_t mag = sign ? (uint32_t)-x : x;
	return sign | (mag & 0x7FFFFFFFu);
}

static uint32_t load_datum(const struct ttx_tile *t, unsigned mod0, unsigned row, unsigned col,
                           uint32_t old, int fp16a_inf)
{
	uint32_t d16 = t->dst[row][col];
	switch (mod0) {
	case MOD0_FMT_FP16:      return read_fp16(d16, fp16a_inf);
	case MOD0_FMT_BF16:      return unshuffle_bf16(d16) << 16;
	case MOD0_FMT_FP32:
	case MOD0_FMT_INT32:
	case MOD0_FMT_INT32_ALL: return ttx_unshuffle_fp32(ttx_dst32_get(t, row, col));
	case MOD0_FMT_INT32_SM:  return sign_mag_to_twos(ttx_unshuffle_fp32(ttx_dst32_get(t, row, col)));
	case MOD0_FMT_INT8:      return ((d16 >> 15) << 31) | ((d16 >> 5) & 0x7F);
	case MOD0_FMT_INT8_COMP: return sign_mag_to_twos(((d16 >> 15) << 31) | ((d16 >> 5) & 0x3FF));
	case MOD0_FMT_LO16_ONLY: return (old & 0xFFFF0000u) | d16;
	case MOD0_FMT_HI16_ONLY: return (d16 << 16) | (old & 0xFFFFu);
	case MOD0_FMT_INT16:     return ((d16 >> 15) << 31) | (d16 & 0x7FFF);
	case MOD0_FMT_UINT16:
	case MOD0_FMT_LO16:      return d16;
	case MOD0_FMT_HI16:      return d16 << 16;
	default:                 return 0;   /* MOD0_FMT_ZERO */
	}
}

/* ---- the common case of SFPLOAD / SFPSTORE ----
 * A 32-bit format (FP32, INT32, sign-magnitude INT32) and no lane with a
 * LaneConfig option that moves or blocks its access (column exchange,
 * blocked read/write, Dst index capture): four Dst32b rows of eight lanes,
 * the even columns or, with address bit 1, the odd ones.  The same as the
 * per-lane loops below, with the row arithmetic out of the lane loop. */
#define LANECFG_BLOCK_RD_FROM_DEST (1u << 5)
#define LANECFG_RD_COL_EXCHANGE    (1u << 6)
#define LANECFG_WR_COL_EXCHANGE    (1u << 7)

static int is_fmt32(unsigned mod0)
{
	return mod0 == MOD0_FMT_FP32 || mod0 == MOD0_FMT_INT32 || mod0 == MOD0_FMT_INT32_ALL ||
	       mod0 == MOD0_FMT_INT32_SM;
}

static uint32_t lane_config_any(const struct ttx_sfpu *s)
{
	uint32_t any = 0;
	for (unsigned lane = 0; lane < TTX_LANES; lane++)
		any |= s->lane_config[lane];
	return any;
}

static simde__m256i splat8(uint32_t x)
{
	return simde_mm256_set1_epi32((int32_t)x);
}

/* ttx_unshuffle_fp32 / ttx_shuffle_fp32 (src/tile.h) on eight lanes. */
static simde__m256i unshuffle8(simde__m256i d)
{
	return simde_mm256_or_si256(simde_mm256_and_si256(d, splat8(0x8000FFFFu)),
	                            simde_mm256_or_si256(simde_mm256_slli_epi32(simde_mm256_and_si256(d, splat8(0x00FF0000u)), 7),
	                                                 simde_mm256_srli_epi32(simde_mm256_and_si256(d, splat8(0x7F000000u)), 8)));
}

static simde__m256i shuffle8(simde__m256i v)
{
	return simde_mm256_or_si256(simde_mm256_and_si256(v, splat8(0x8000FFFFu)),
	                            simde_mm256_or_si256(simde_mm256_slli_epi32(simde_mm256_and_si256(v, splat8(0x007F0000u)), 8),
	                                                 simde_mm256_and_si256(simde_mm256_srli_epi32(v, 7), splat8(0x00FF0000u))));
}

/* All ones in the 32-bit lanes k whose bit k of bits is set. */
static simde__m256i lane_mask8(uint32_t bits)
{
	const simde__m256i bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
	return simde_mm256_cmpeq_epi32(simde_mm256_and_si256(splat8(bits), bit), bit);
}

static void load_plain32(struct ttx_tile *t, uint32_t lreg[TTX_LANES], unsigned mod0, unsigned addr,
                         uint32_t enabled)
{
	unsigned odd = addr >> 1 & 1;
	for (unsigned r = 0; r < 4; r++) {
		uint32_t en = enabled >> 8 * r & 0xFF;
		if (!en)
			continue;
		unsigned adj = ttx_dst32_adj_row(((addr & ~3u) + r) & 0x3FF);
		/* a DstBits row as eight 32-bit words: column 2k in the low half */
		simde__m256i hi = simde_mm256_loadu_si256((const void *)t->dst[adj]);
		simde__m256i lo = simde_mm256_loadu_si256((const void *)t->dst[(adj + 8) & 0x3FF]);
		if (odd) {
			hi = simde_mm256_srli_epi32(hi, 16);
			lo = simde_mm256_srli_epi32(lo, 16);
		} else {
			hi = simde_mm256_and_si256(hi, splat8(0xFFFF));
			lo = simde_mm256_and_si256(lo, splat8(0xFFFF));
		}
		simde__m256i v = unshuffle8(simde_mm256_or_si256(simde_mm256_slli_epi32(hi, 16), lo));
		if (mod0 == MOD0_FMT_INT32_SM) {   /* sign_mag_to_twos */
			simde__m256i neg = simde_mm256_srai_epi32(v, 31);
			v = simde_mm256_sub_epi32(simde_mm256_xor_si256(simde_mm256_and_si256(v, splat8(0x7FFFFFFFu)), neg), neg);
		}
		simde__m256i old = simde_mm256_loadu_si256((const void *)(lreg + 8 * r));
		simde_mm256_storeu_si256((void *)(lreg + 8 * r), simde_mm256_blendv_epi8(old, v, lane_mask8(en)));
	}
}

/* The load half of SFPLOAD and SFPLOADMACRO. */
static void sfpu_load(struct ttx_tile *t, unsigned thread, unsigned vd, unsigned mod0, unsigned imm10,
                      uint32_t normal_lanes)
{
	struct ttx_sfpu *s = &t->sfpu;
	unsigned bank = ttx_cfg_bank(t, thread);
	mod0 = resolve_mod0(t, bank, mod0);
	unsigned addr = dst_addr(t, thread, bank, imm10, mod0);
	if (vd >= 8)
		return;
	uint32_t enabled = mod0 == MOD0_FMT_INT32_ALL ? 0xFFFFFFFFu : ttx_sfpu_lane_enabled(s);
	enabled &= normal_lanes;
	if (is_fmt32(mod0) && !(lane_config_any(s) & (LANECFG_BLOCK_RD_FROM_DEST | LANECFG_RD_COL_EXCHANGE |
	                                               TTX_LANECFG_ENABLE_DEST_INDEX))) {
		load_plain32(t, s->lreg[vd], mod0, addr, enabled);
		return;
	}
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		uint32_t cfg = s->lane_config[lane];
		if (!(enabled >> lane & 1) || (cfg & LANECFG_BLOCK_RD_FROM_DEST))
			continue;
		unsigned row = ((addr & ~3u) + lane / 8) & 0x3FF;
		unsigned col = (lane & 7) * 2;
		if ((addr & 2) || (s->lane_config[lane & 7] & LANECFG_RD_COL_EXCHANGE))
			col++;
		s->lreg[vd][lane] = load_datum(t, mod0, row, col, s->lreg[vd][lane], cfg & TTX_LANECFG_ENABLE_FP16A_INF);
		if (vd < 4 && (cfg & TTX_LANECFG_ENABLE_DEST_INDEX) && (cfg & TTX_LANECFG_CAPTURE_DEFAULT_DEST_INDEX))
			s->lreg[vd + 4][lane] = (row << 4) | col;
	}
}

int ttx_sfpu_SFPLOAD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SFPLOAD a = ttx_decode_SFPLOAD(word);
	uint32_t normal = ttx_sfpu_backdoor(&t->sfpu, a.VD, word);
	if (normal)
		sfpu_load(t, thread, a.VD, a.Mod0, a.Imm10, normal);
	ttx_apply_addr_mod(t, thread, a.AddrMod, false);
	return TTX_OK;
}

static uint32_t bf16_shuffle(uint32_t x)
{
	return (x & 0x8000u) | ((x & 0x7Fu) << 8) | ((x & 0x7F80u) >> 7);
}

static uint32_t fp16_shuffle(uint32_t x)
{
	return (x & 0x8000u) | ((x & 0x3FFu) << 5) | ((x & 0x7C00u) >> 10);
}

/* ToFP16 of TC/SFPSTORE.md: flush underflow to signed zero, saturate, truncate. */
static uint32_t to_fp16(uint32_t x)
{
	uint32_t sign = x >> 31, man = x & 0x7FFFFF;
	int32_t exp = (int32_t)((x >> 23) & 0xFF) - 112;
	if (exp <= 0)
		exp = 0, man = 0;
	else if (exp > 31)
		exp = 31, man = 0x7FFFFF;
	return (sign << 15) | ((uint32_t)exp << 10) | (man >> 13);
}

static uint32_t to_bf16(uint32_t x)
{
	if ((x & 0x7F800000u) == 0)
		x &= 0x80000000u;
	return x >> 16;
}

static uint32_t sign_mag11_to_fp16(uint32_t x)
{
	return ((x >> 31) << 15) | (16u << 10) | (x & 0x3FF);
}

static void store_datum(struct ttx_tile *t, unsigned mod0, unsigned row, unsigned col, uint32_t d)
{
	uint16_t *d16 = &t->dst[row][col];
	switch (mod0) {
	case MOD0_FMT_FP16:      *d16 = (uint16_t)fp16_shuffle(to_fp16(d)); break;
	case MOD0_FMT_BF16:      *d16 = (uint16_t)bf16_shuffle(to_bf16(d)); break;
	case MOD0_FMT_FP32:
		/* The reference flushes FP32 denormals to signed zero on store
		   (docs/departures.md #1; TC/SFPSTORE.md stores them as they are). */
		if ((d & 0x7F800000u) == 0)
			d &= 0x80000000u;
		ttx_dst32_set(t, row, col, ttx_shuffle_fp32(d));
		break;
	case MOD0_FMT_INT32:
	case MOD0_FMT_INT32_ALL: ttx_dst32_set(t, row, col, ttx_shuffle_fp32(d)); break;
	case MOD0_FMT_INT32_SM:  ttx_dst32_set(t, row, col, ttx_shuffle_fp32(twos_to_sign_mag(d))); break;
	case MOD0_FMT_INT8:      *d16 = (uint16_t)fp16_shuffle(sign_mag11_to_fp16(d)); break;
	case MOD0_FMT_INT8_COMP: *d16 = (uint16_t)fp16_shuffle(sign_mag11_to_fp16(twos_to_sign_mag(d))); break;
	case MOD0_FMT_LO16_ONLY:
	case MOD0_FMT_UINT16:    *d16 = (uint16_t)d; break;
	case MOD0_FMT_HI16_ONLY: *d16 = (uint16_t)(d >> 16); break;
	case MOD0_FMT_INT16:     *d16 = (uint16_t)(((d >> 31) << 15) | (d & 0x7FFF)); break;
	case MOD0_FMT_LO16:      ttx_dst32_set(t, row, col, (d << 16) | (d >> 16)); break;
	case MOD0_FMT_HI16:      ttx_dst32_set(t, row, col, d); break;
	default:                 *d16 = 0; break;   /* MOD0_FMT_ZERO */
	}
	/* A store defines the row again after ZEROACC (ttx_dst32_set does so
	   for the 32-bit formats). */
	if (!is_fmt32(mod0) && mod0 != MOD0_FMT_LO16 && mod0 != MOD0_FMT_HI16)
		ttx_dst16_define(t, row);
}

static void store_plain32(struct ttx_tile *t, const uint32_t lreg[TTX_LANES], unsigned mod0, unsigned addr,
                          uint32_t enabled)
{
	unsigned odd = addr >> 1 & 1;
	for (unsigned r = 0; r < 4; r++) {
		uint32_t en = enabled >> 8 * r & 0xFF;
		if (!en)
			continue;
		unsigned adj = ttx_dst32_adj_row(((addr & ~3u) + r) & 0x3FF);
		ttx_dst16_define(t, adj);
		ttx_dst16_define(t, (adj + 8) & 0x3FF);
		simde__m256i v = simde_mm256_loadu_si256((const void *)(lreg + 8 * r));
		if (mod0 == MOD0_FMT_FP32) {   /* denormals to signed zero, as store_datum */
			simde__m256i tiny = simde_mm256_cmpeq_epi32(simde_mm256_and_si256(v, splat8(0x7F800000u)),
			                                             simde_mm256_setzero_si256());
			v = simde_mm256_blendv_epi8(v, simde_mm256_and_si256(v, splat8(0x80000000u)), tiny);
		} else if (mod0 == MOD0_FMT_INT32_SM) {   /* twos_to_sign_mag */
			v = simde_mm256_or_si256(simde_mm256_and_si256(v, splat8(0x80000000u)),
			                         simde_mm256_and_si256(simde_mm256_abs_epi32(v), splat8(0x7FFFFFFFu)));
		}
		v = shuffle8(v);
		simde__m256i hi = simde_mm256_srli_epi32(v, 16), lo = simde_mm256_and_si256(v, splat8(0xFFFF));
		simde__m256i keep = splat8(odd ? 0xFFFF : 0xFFFF0000u), m = lane_mask8(en);
		if (odd) {
			hi = simde_mm256_slli_epi32(hi, 16);
			lo = simde_mm256_slli_epi32(lo, 16);
		}
		uint16_t *row[2] = { t->dst[adj], t->dst[(adj + 8) & 0x3FF] };
		simde__m256i half[2] = { hi, lo };
		for (unsigned i = 0; i < 2; i++) {
			simde__m256i old = simde_mm256_loadu_si256((const void *)row[i]);
			simde__m256i upd = simde_mm256_or_si256(simde_mm256_and_si256(old, keep), half[i]);
			simde_mm256_storeu_si256((void *)row[i], simde_mm256_blendv_epi8(old, upd, m));
		}
	}
}

/* Store LReg[vd] to Dst at addr (mod0 already resolved). */
static void store_lanes(struct ttx_tile *t, unsigned vd, unsigned mod0, unsigned addr, uint32_t enabled)
{
	struct ttx_sfpu *s = &t->sfpu;
	if (is_fmt32(mod0) && !(lane_config_any(s) & (TTX_LANECFG_BLOCK_DEST_WR_FROM_SFPU | LANECFG_WR_COL_EXCHANGE))) {
		store_plain32(t, s->lreg[vd], mod0, addr, enabled);
		return;
	}
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		if (!(enabled >> lane & 1) || (s->lane_config[lane] & TTX_LANECFG_BLOCK_DEST_WR_FROM_SFPU))
			continue;
		unsigned row = ((addr & ~3u) + lane / 8) & 0x3FF;
		unsigned col = (lane & 7) * 2;
		if ((addr & 2) || (s->lane_config[lane & 7] & LANECFG_WR_COL_EXCHANGE))
			col++;
		store_datum(t, mod0, row, col, s->lreg[vd][lane]);
	}
}

static uint32_t store_enabled(const struct ttx_sfpu *s, unsigned mod0)
{
	return mod0 == MOD0_FMT_INT32_ALL ? 0xFFFFFFFFu : ttx_sfpu_lane_enabled(s);
}

int ttx_sfpu_SFPSTORE(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SFPSTORE a = ttx_decode_SFPSTORE(word);
	uint32_t normal = ttx_sfpu_backdoor(&t->sfpu, a.VD, word);
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned mod0 = resolve_mod0(t, bank, a.Mod0);
	if (normal)
		store_lanes(t, a.VD, mod0, dst_addr(t, thread, bank, a.Imm10, mod0),
		            store_enabled(&t->sfpu, mod0) & normal);
	ttx_apply_addr_mod(t, thread, a.AddrMod, false);
	return TTX_OK;
}

/* ---- SFPLOADI (TC/SFPLOADI.md) ---- */

int ttx_sfpu_SFPLOADI(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SFPLOADI a = ttx_decode_SFPLOADI(word);
	struct ttx_sfpu *s = &t->sfpu;
	uint32_t normal = ttx_sfpu_backdoor(s, a.VD, word);
	if (a.VD >= 8 || !normal)
		return TTX_OK;
	uint32_t imm = a.Imm16, value, keep;   /* new = (old & keep) | value */
	switch (a.Mod0) {
	case 0: value = imm << 16, keep = 0; break;                                   /* FLOATB */
	case 1: value = ((imm >> 15) << 31) | ((((imm >> 10) & 0x1F) + 112) << 23) | ((imm & 0x3FF) << 13),
	        keep = 0; break;                                                      /* FLOATA */
	case 2: value = imm, keep = 0; break;                                         /* USHORT */
	case 4: value = (uint32_t)(int32_t)(int16_t)imm, keep = 0; break;             /* SHORT */
	case 8: value = imm << 16, keep = 0xFFFFu; break;                             /* UPPER */
	case 10: value = imm, keep = 0xFFFF0000u; break;                              /* LOWER */
	default:
		return ttx_fail(t, TTX_FAULT, "SFPLOADI Mod0=%u is undefined behaviour (TC/SFPLOADI.md) "
		                "(0x%08X) at thread %u", a.Mod0, word, thread);
	}
	ttx_lanes old = ttx_lanes_load(s->lreg[a.VD]);
	ttx_lanes v = ttx_lanes_or(ttx_lanes_and(old, ttx_lanes_splat(keep)), ttx_lanes_splat(value));
	ttx_sfpu_write(s, a.VD, v, ttx_sfpu_lane_enabled(s) & normal);
	return TTX_OK;
}

/* ---- SFPCONFIG (TC/SFPCONFIG.md) ---- */

#define MOD1_IMM16_IS_VALUE     1
#define MOD1_BITWISE_OR         2
#define MOD1_BITWISE_AND        4
#define MOD1_BITWISE_XOR        6
#define MOD1_IMM16_IS_LANE_MASK 8

static uint32_t combine(uint32_t old, uint32_t value, unsigned mod1)
{
	switch (mod1 & 6) {
	case MOD1_BITWISE_OR:  return old | value;
	case MOD1_BITWISE_AND: return old & value;
	case MOD1_BITWISE_XOR: return old ^ value;
	default:               return value;
	}
}

int ttx_sfpu_SFPCONFIG(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SFPCONFIG a = ttx_decode_SFPCONFIG(word);
	struct ttx_sfpu *s = &t->sfpu;
	/* Defaults of LReg 11-14 under MOD1_IMM16_IS_VALUE: -1, 1/65536,
	   -0.67487759, -0.34484843 as FP32. */
	static const uint32_t lreg_defaults[4] = { 0xBF800000, 0x37800000, 0xBF2CC4C7, 0xBEB08FF9 };
	(void)thread;
	/* The configuration (of a per-lane nature) is written from lanes 0-7 of
	   LReg[0] and gated by the flags of lane & 7 only. */
	uint32_t src[TTX_LANES];
	memcpy(src, s->lreg[0], sizeof(src));
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		if ((a.Mod1 & MOD1_IMM16_IS_LANE_MASK) && !(a.Imm16 >> ((lane & 7) * 2) & 1))
			continue;
		if ((s->use_lane_flags >> (lane & 7) & 1) && !(s->lane_flags >> (lane & 7) & 1))
			continue;
		uint32_t value = (a.Mod1 & MOD1_IMM16_IS_VALUE) ? a.Imm16 : src[lane & 7];
		switch (a.VD) {
		case 0: case 1: case 2: case 3:
			s->load_macro_config[lane].instruction_template[a.VD] = src[lane & 7];
			break;
		case 4: case 5: case 6: case 7:
			s->load_macro_config[lane].sequence[a.VD - 4] = value;
			break;
		case 8:
			s->load_macro_config[lane].misc =
				(uint16_t)(combine(s->load_macro_config[lane].misc, value, a.Mod1) & 0xFFF);
			break;
		case 9: case 10:
			break;
		case 11: case 12: case 13: case 14:
			s->lreg[a.VD][lane] = (a.Mod1 & MOD1_IMM16_IS_VALUE) ? lreg_defaults[a.VD - 11] : src[lane & 7];
			break;
		case 15: {
			uint32_t orig = s->lane_config[lane];
			uint32_t v = combine(orig, value, a.Mod1) & 0x3FFFF;
			if (a.Mod1 & MOD1_IMM16_IS_VALUE)
				v |= orig & ~0xFFFFu;
			s->lane_config[lane] = v;
			break;
		}
		}
	}
	return TTX_OK;
}

int ttx_sfpu_SFPNOP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)t, (void)thread, (void)word;
	return TTX_OK;
}

/* ---- SFPLOADMACRO (TC/SFPLOADMACRO.md) ----
 *
 * Timing model (the page leaves the clock open; docs/sfpu.md): every
 * instruction issued by any thread is one cycle, and so is every idle cycle
 * at the end of a run.  A scheduled instruction with delay d runs d + 1 cycles
 * after the SFPLOADMACRO, before the instruction issued on that cycle; if that
 * instruction goes to the same sub-unit it is discarded.  While any scheduled
 * instruction waits for elapsed instructions, delays count only cycles on
 * which an SFPU instruction is issued.  LoadMacroConfig must be the same in
 * every lane (the page discourages anything else); ttx faults otherwise. */

enum { UNIT_SIMPLE, UNIT_MAD, UNIT_ROUND, UNIT_STORE, UNIT_LOAD, UNIT_ANY };

/* Sub-units that can execute an opcode (the table at the top of the page). */
static unsigned subunits_of(unsigned opcode)
{
	switch (opcode) {
	case TTX_OP_SFPNOP: return 1u << UNIT_SIMPLE | 1u << UNIT_MAD | 1u << UNIT_ROUND;
	case TTX_OP_SFPADD: case TTX_OP_SFPADDI: case TTX_OP_SFPLUT: case TTX_OP_SFPLUTFP32:
	case TTX_OP_SFPMAD: case TTX_OP_SFPMUL: case TTX_OP_SFPMULI:
		return 1u << UNIT_MAD;
	case TTX_OP_SFPSHFT2: case TTX_OP_SFPSTOCHRND: return 1u << UNIT_ROUND;
	case TTX_OP_SFPSTORE: return 1u << UNIT_STORE;
	case TTX_OP_SFPLOAD: case TTX_OP_SFPLOADI: case TTX_OP_SFPLOADMACRO: return 1u << UNIT_LOAD;
	case TTX_OP_SFPSWAP: return 1u << UNIT_SIMPLE | 1u << UNIT_MAD;
	default: return 1u << UNIT_SIMPLE;
	}
}

static int field_of(uint32_t word, const char *name, unsigned *value)
{
	const struct ttx_layout_info *l = ttx_isa_layout_of(word);
	/* SFPSTOCHRND's integer modes (Mod1 4, 5) read VB whatever bit 3 says
	   (TC/SFPSTOCHRND_IntInt.md). */
	if (word >> 24 == TTX_OP_SFPSTOCHRND && ((word & 7) == 4 || (word & 7) == 5))
		l = ttx_isa_layout(TTX_LAYOUT_SFPSTOCHRNDi);
	for (unsigned i = 0; l && i < l->nfields; i++) {
		if (strcmp(l->fields[i].name, name) == 0) {
			*value = ttx_field_get(word, &l->fields[i]);
			return 1;
		}
	}
	return 0;
}

static int lanes_agree(const struct ttx_sfpu *s)
{
	for (unsigned lane = 1; lane < TTX_LANES; lane++)
		if (memcmp(&s->load_macro_config[lane], &s->load_macro_config[0], sizeof(s->load_macro_config[0])))
			return 0;
	return 1;
}

int ttx_sfpu_SFPLOADMACRO(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_sfpu *s = &t->sfpu;
	struct ttx_args_SFPLOADMACRO a = ttx_decode_SFPLOADMACRO(word);
	unsigned vd = (a.VDHi << 2) | a.VDLo;
	unsigned imm10 = (a.Imm9 << 1) | a.VDHi;
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned addr = dst_addr(t, thread, bank, imm10, resolve_mod0(t, bank, a.Mod0));
	if (!lanes_agree(s))
		return ttx_fail(t, TTX_FAULT, "SFPLOADMACRO (0x%08X) at thread %u: LoadMacroConfig differs between "
		                "lanes, which ttx does not model", word, thread);
	sfpu_load(t, thread, vd, a.Mod0, imm10, 0xFFFFFFFFu);
	const uint32_t *sequence = s->load_macro_config[0].sequence;
	const uint32_t *templates = s->load_macro_config[0].instruction_template;
	unsigned misc = s->load_macro_config[0].misc;
	for (unsigned unit = 0; unit < 4; unit++) {
		unsigned seq = (sequence[a.MacroIndex] >> (unit * 8)) & 0xFF;
		unsigned delay = (seq >> 3) & 7;
		if (delay != 7) {   /* forget what would run at the same time */
			for (unsigned i = 0; i < s->nsched; i++)
				if (s->sched[i].unit == unit && s->sched[i].remaining == delay)
					s->sched[i--] = s->sched[--s->nsched];
		}
		uint32_t insn;
		switch (seq & 7) {
		case 0: continue;
		case 1:
			return ttx_fail(t, TTX_FAULT, "SFPLOADMACRO (0x%08X): sequence selects template kind 1 "
			                "(undefined behaviour, TC/SFPLOADMACRO.md)", word);
		case 2: insn = (uint32_t)TTX_OP_SFPNOP << 24; break;
		case 3: insn = (uint32_t)TTX_OP_SFPSTORE << 24; break;
		default:
			insn = templates[(seq & 7) - 4];
			if (!ttx_isa_insn(insn >> 24)->mnemonic) {
				static const char *const names[4] = { "simple", "MAD", "round", "store" };
				return ttx_fail(t, TTX_FAULT, "SFPLOADMACRO (0x%08X) at thread %u: macro %u gives the %s "
				                "sub-unit instruction template %u, which holds 0x%08X, not an instruction: "
				                "configure it first (SFPCONFIG, TC/SFPLOADMACRO.md)", word, thread,
				                a.MacroIndex, names[unit], (seq & 7) - 4, insn);
			}
			break;
		}
		if (!(subunits_of(insn >> 24) & (1u << unit))) {
			insn = (uint32_t)TTX_OP_SFPNOP << 24;
			if (unit == UNIT_STORE)
				return ttx_fail(t, TTX_FAULT, "SFPLOADMACRO (0x%08X): the store sub-unit was given "
				                "a non-store instruction (undefined behaviour)", word);
		}
		if (s->nsched == sizeof(s->sched) / sizeof(s->sched[0]))
			return ttx_fail(t, TTX_FAULT, "SFPLOADMACRO (0x%08X): too many scheduled instructions", word);
		struct ttx_sfpu_sched *e = &s->sched[s->nsched++];
		memset(e, 0, sizeof(*e));
		e->word = insn;
		e->unit = (uint8_t)unit;
		e->remaining = (uint8_t)delay;
		e->by_insns = (misc >> (8 + unit)) & 1;
		e->thread = (uint8_t)thread;
		if (unit != UNIT_STORE) {
			unsigned ivb, ivc, ivd = 0;
			field_of(insn, "VD", &ivd);
			if (seq & 0x80) {
				e->vb = (uint8_t)vd;
				e->vb_set = 1;
				e->vc = (uint8_t)(field_of(insn, "VC", &ivc) ? ivc : ivd);
			} else {
				e->vc = (uint8_t)vd;
				e->vb = (uint8_t)(field_of(insn, "VB", &ivb) ? ivb : ivd);
			}
			e->vd = (uint8_t)((seq & 0x40) ? 16 : vd);
		} else {
			unsigned ivd = 0;
			field_of(insn, "VD", &ivd);
			e->vd = (uint8_t)((seq & 0x40) ? 16 : (seq & 0x80) ? ivd : vd);
			e->mod0 = (uint8_t)(((misc >> (4 + a.MacroIndex)) & 1) ? a.Mod0 : (misc & 0xF));
			e->addr = (uint16_t)addr;
		}
	}
	ttx_apply_addr_mod(t, thread, a.AddrMod, false);
	return TTX_OK;
}

static int run_scheduled(struct ttx_tile *t, const struct ttx_sfpu_sched *e)
{
	struct ttx_sfpu *s = &t->sfpu;
	if (e->unit == UNIT_STORE) {
		unsigned mod0 = resolve_mod0(t, ttx_cfg_bank(t, e->thread), e->mod0);
		store_lanes(t, e->vd, mod0, e->addr, store_enabled(s, mod0));
		return TTX_OK;
	}
	s->macro_ops.active = 1;
	s->macro_ops.vb = e->vb;
	s->macro_ops.vc = e->vc;
	s->macro_ops.vd = e->vd;
	s->macro_ops.vb_set = e->vb_set;
	int r = dispatch(t, e->thread, e->word);
	s->macro_ops.active = 0;
	return r;
}

int ttx_sfpu_macro_cycle(struct ttx_tile *t, uint32_t issued, int *discard)
{
	struct ttx_sfpu *s = &t->sfpu;
	int is_sfpu = issued && ttx_isa_insn(issued >> 24)->unit == TTX_UNIT_SFPU;
	int by_insns = 0;
	*discard = 0;
	for (unsigned i = 0; i < s->nsched; i++)
		by_insns |= s->sched[i].by_insns;
	if (by_insns && !is_sfpu)
		return TTX_OK;
	unsigned busy = 0;
	/* Due instructions run in sub-unit order; the others count down. */
	for (unsigned unit = 0; unit < 4; unit++) {
		for (unsigned i = 0; i < s->nsched; i++) {
			struct ttx_sfpu_sched *e = &s->sched[i];
			if (e->unit != unit || e->remaining)
				continue;
			struct ttx_sfpu_sched due = *e;
			s->sched[i--] = s->sched[--s->nsched];
			busy |= 1u << unit;
			int r = run_scheduled(t, &due);
			if (r != TTX_OK)
				return r;
		}
	}
	for (unsigned i = 0; i < s->nsched; i++)
		s->sched[i].remaining--;
	if (is_sfpu) {
		unsigned units = subunits_of(issued >> 24);
		*discard = (units & busy) && !(units & (1u << UNIT_LOAD)) && (issued >> 24) != TTX_OP_SFPNOP;
	}
	return TTX_OK;
}

int ttx_sfpu_macro_drain(struct ttx_tile *t, int *ran)
{
	struct ttx_sfpu *s = &t->sfpu;
	*ran = 0;
	while (s->nsched) {
		for (unsigned i = 0; i < s->nsched; i++)
			if (s->sched[i].by_insns)
				return TTX_OK;   /* waits for SFPU instructions that never come */
		int discard;
		int r = ttx_sfpu_macro_cycle(t, 0, &discard);
		if (r != TTX_OK)
			return r;
		*ran = 1;
	}
	return TTX_OK;
}
