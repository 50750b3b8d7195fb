/* The Matrix Unit (FPU): SrcA/SrcB/Dst data movement and arithmetic
 * (TC/MatrixUnit.md and the instruction pages it links).  The floating-point
 * numerics (operand decode, fidelity masks, accumulation and rounding) live
 * in interp/matrix_fp.c; docs/matrix.md describes the model and each choice.
 *
 * Every instruction decodes through its isa.def layout (ttx_decode_*), works
 * on the thread's Config bank, and ends with ApplyAddrMod where its page
 * says so (TC/RWCs.md). */
#include <string.h>

#include "tile.h"
#include "units.h"
#include "matrix_fp.h"

/* ---- Formats (TC/MVMUL.md "Determine the data formats") ---- */

static unsigned srca_fmt(const struct ttx_tile *t, unsigned bank)
{
	return ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_SrcA_override)
	       ? ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_SrcA_val)
	       : ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcA);
}

static unsigned srcb_fmt(const struct ttx_tile *t, unsigned bank)
{
	return ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_SrcB_override)
	       ? ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_SrcB_val)
	       : ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG1_SrcB);
}

/* SrcAStyle of a format code (the "SrcAFmt in {...}" tests): 8-bit exponent
   family -> BF16, 5-bit exponent family -> FP16, TF32 (and the unused codes
   12, 13, which the pages' final else also sends there) -> TF32. */
static enum ttx_mstyle style_of_fmt(unsigned fmt)
{
	switch (fmt) {
	case TTX_FMT_FP32: case TTX_FMT_BF16: case TTX_FMT_BFP8: case TTX_FMT_BFP4:
	case TTX_FMT_BFP2: case TTX_FMT_INT32: case TTX_FMT_INT16:
		return TTX_MSTYLE_BF16;
	case TTX_FMT_FP16: case TTX_FMT_FP8: case TTX_FMT_BFP8A: case TTX_FMT_BFP4A:
	case TTX_FMT_BFP2A: case TTX_FMT_INT8:
		return TTX_MSTYLE_FP16;
	default:
		return TTX_MSTYLE_TF32;
	}
}

struct math_fmt {
	enum ttx_mstyle style;     /* SrcAStyle */
	bool dst32;                /* UseDst32b */
	unsigned fmt_a, fmt_b;     /* each operand's own format, for TruncateSrc */
};

/* The arithmetic instructions' format selection (TC/MVMUL.md, TC/ELWMUL.md,
   TC/ELWADD.md, TC/GMPOOL.md share it). */
static struct math_fmt math_format(const struct ttx_tile *t, unsigned thread, unsigned bank)
{
	struct math_fmt f;
	f.fmt_a = srca_fmt(t, bank);
	f.fmt_b = srcb_fmt(t, bank);
	if (ttx_thread_cfg_get(t, thread, TTX_THCFG_FP16A_FORCE_Enable)) {
		f.style = TTX_MSTYLE_FP16;
		f.dst32 = false;
	} else if (ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_INT8_math_enabled)) {
		f.style = TTX_MSTYLE_INT8;
		f.dst32 = true;
	} else {
		f.style = style_of_fmt(f.fmt_a);
		f.dst32 = ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled) != 0;
	}
	return f;
}

/* DstRow + DEST_TARGET_REG_CFG_MATH_Offset + RWC Dst + DEST_REGW_BASE_Base,
   before the instruction's own mask. */
static unsigned dst_base(const struct ttx_tile *t, unsigned thread, unsigned bank, unsigned row)
{
	return row + ttx_thread_cfg_get(t, thread, TTX_THCFG_DEST_TARGET_REG_CFG_MATH_Offset)
	       + t->rwc[thread].dst + ttx_cfg_get(t, bank, TTX_CFG_DEST_REGW_BASE_Base);
}

static unsigned fidelity_phase(const struct ttx_tile *t, unsigned thread)
{
	return (t->rwc[thread].fidelity_phase
	        + ttx_thread_cfg_get(t, thread, TTX_THCFG_FIDELITY_BASE_Phase)) & 3;
}

/* ---- Dst rows: undefined marks (TC/ZEROACC.md) ---- */

static inline void dst16_define(struct ttx_tile *t, unsigned row16)
{
	ttx_dst16_define(t, row16);
}

static inline bool dst16_undefined(const struct ttx_tile *t, unsigned row16)
{
	return t->dst_undefined[row16 >> 5] >> (row16 & 31) & 1;
}

static void dst16_undefine(struct ttx_tile *t, unsigned row16)
{
	row16 &= 0x3FF;
	t->dst_undefined[row16 >> 5] |= 1u << (row16 & 31);
	memset(t->dst[row16], 0, sizeof(t->dst[row16]));
}

static void dst32_undefine(struct ttx_tile *t, unsigned row)
{
	unsigned adj = ttx_dst32_adj_row(row & 0x3FF);
	dst16_undefine(t, adj);
	dst16_undefine(t, adj + 8);
}

void ttx_matrix_dst32_put(struct ttx_tile *t, unsigned row, unsigned col, uint32_t v)
{
	ttx_dst32_set(t, row, col, v);   /* also defines both DstBits rows */
}

void ttx_matrix_dst16_put(struct ttx_tile *t, unsigned row, unsigned col, uint16_t v)
{
	dst16_define(t, row & 0x3FF);
	t->dst[row & 0x3FF][col] = v;
}

/* ---- Src bank ownership ---- */

/* (the cycle model waits for the hand-over the check sees) */
static bool srca_owned(struct ttx_tile *t, unsigned thread)
{
	ttx_timing_src_dep(t, thread, t->matrix_srca_bank & 1);
	return t->srca[t->matrix_srca_bank & 1].allowed_client == TTX_SRC_MATRIX_UNIT;
}

static bool srcb_owned(struct ttx_tile *t, unsigned thread)
{
	ttx_timing_src_dep(t, thread, 2 + (t->matrix_srcb_bank & 1));
	return t->srcb[t->matrix_srcb_bank & 1].allowed_client == TTX_SRC_MATRIX_UNIT;
}

/* The FlipSrcA / FlipSrcB tail of the arithmetic instructions and SETRWC. */
static void flip_banks(struct ttx_tile *t, unsigned thread, unsigned flip_a, unsigned flip_b)
{
	if (flip_a) {
		if (!ttx_thread_cfg_get(t, thread, TTX_THCFG_CLR_DVALID_SrcA_Disable))
			t->srca[t->matrix_srca_bank & 1].allowed_client = TTX_SRC_UNPACKERS;
		t->matrix_srca_bank ^= 1;
	}
	if (flip_b) {
		if (!ttx_thread_cfg_get(t, thread, TTX_THCFG_CLR_DVALID_SrcB_Disable))
			t->srcb[t->matrix_srcb_bank & 1].allowed_client = TTX_SRC_UNPACKERS;
		t->matrix_srcb_bank ^= 1;
	}
}

/* LaneConfig[Column / 2].BLOCK_DEST_MOV.Bit[Column & 1] (TC/SFPCONFIG.md:
   LaneConfig bits 9-10), consulted by the MOV instructions. */
static unsigned mov_blocked_columns(const struct ttx_tile *t)
{
	unsigned mask = 0;
	for (unsigned c = 0; c < TTX_COLS; c++)
		if (t->sfpu.lane_config[c / 2] >> (9 + (c & 1)) & 1)
			mask |= 1u << c;
	return mask;
}

/* ---- Multiply-accumulate family: MVMUL, DOTPV, GAPOOL, ELWMUL ---- */

/* Dst += SrcB[rows] @ SrcA[16 rows] (TC/MVMUL.md); num_rows 8 (MVMUL,
   DOTPV), 7 (MVMUL BroadcastSrcBRow) or 4 (TC/GAPOOL.md). */
static int matmul(struct ttx_tile *t, unsigned thread, unsigned flip_a, unsigned flip_b,
                  unsigned broadcast, unsigned num_rows, unsigned addr_mod, unsigned dst_row)
{
	if (!srca_owned(t, thread) || !srcb_owned(t, thread))
		return TTX_BLOCKED;
	unsigned bank = ttx_cfg_bank(t, thread);
	struct math_fmt f = math_format(t, thread, bank);
	unsigned a_row = t->rwc[thread].srca & 0x38;
	unsigned b_row = t->rwc[thread].srcb & (broadcast ? 0x3F : 0x38);
	unsigned drow = dst_base(t, thread, bank, dst_row) & (0x400 - num_rows);
	unsigned phase = fidelity_phase(t, thread);
	const uint32_t (*sa)[TTX_COLS] = t->srca[t->matrix_srca_bank & 1].rows;
	const uint32_t (*sb)[TTX_COLS] = t->srcb[t->matrix_srcb_bank & 1].rows;
	t->matrix_last_srca_row = (uint8_t)a_row;

	const struct ttx_mop_operands *op = ttx_matrix_load_a_cached(t->srca_cache, sa + a_row, f.style, f.fmt_a, phase);
	const uint32_t *brows[8];
	unsigned rows[8], n = 0;
	for (unsigned i = 0; i < num_rows; i += broadcast ? 2 : 1, n++) {
		brows[n] = sb[(b_row + (broadcast ? 0 : i)) & 0x3F];
		rows[n] = drow + i;
	}
	if (f.style == TTX_MSTYLE_INT8)
		ttx_matrix_dot_int(t, op, brows, rows, n, f.fmt_b, phase);
	else
		ttx_matrix_dot_fp(t, op, brows, rows, n, f.fmt_b, phase, f.style, f.dst32);
	flip_banks(t, thread, flip_a, flip_b);
	ttx_apply_addr_mod(t, thread, addr_mod, true);
	return TTX_OK;
}

int ttx_matrix_MVMUL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_MVMUL a = ttx_decode_MVMUL(word);
	return matmul(t, thread, a.FlipSrcA, a.FlipSrcB, a.BroadcastSrcBRow,
	              a.BroadcastSrcBRow ? 7 : 8, a.AddrMod, a.DstRow);
}

int ttx_matrix_DOTPV(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_DOTPV a = ttx_decode_DOTPV(word);
	return matmul(t, thread, a.FlipSrcA, a.FlipSrcB, 0, 8, a.AddrMod, a.DstRow);
}

int ttx_matrix_GAPOOL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_GAPOOL a = ttx_decode_GAPOOL(word);
	return matmul(t, thread, a.FlipSrcA, a.FlipSrcB, 0, 4, a.AddrMod, a.DstRow);
}

/* ELWMUL / ELWADD / ELWSUB (TC/ELWMUL.md, TC/ELWADD.md, TC/ELWSUB.md). */
static int elementwise(struct ttx_tile *t, unsigned thread, enum ttx_elw_op eop,
                       unsigned flip_a, unsigned flip_b, unsigned add_dst,
                       unsigned bcast_row, unsigned bcast_col0, unsigned addr_mod, unsigned dst_row)
{
	if (!srca_owned(t, thread) || !srcb_owned(t, thread))
		return TTX_BLOCKED;
	unsigned bank = ttx_cfg_bank(t, thread);
	struct math_fmt f = math_format(t, thread, bank);
	unsigned a_row = t->rwc[thread].srca & 0x38;
	unsigned b_row = t->rwc[thread].srcb & (bcast_row ? 0x3F : 0x38);
	unsigned drow = dst_base(t, thread, bank, dst_row) & 0x3F8;
	unsigned phase = fidelity_phase(t, thread);
	const uint32_t (*sa)[TTX_COLS] = t->srca[t->matrix_srca_bank & 1].rows;
	const uint32_t (*sb)[TTX_COLS] = t->srcb[t->matrix_srcb_bank & 1].rows;
	t->matrix_last_srca_row = (uint8_t)a_row;

	for (unsigned i = 0; i < 8; i++) {
		uint32_t b[TTX_COLS];
		const uint32_t *brow = sb[(b_row + (bcast_row ? 0 : i)) & 0x3F];
		for (unsigned j = 0; j < TTX_COLS; j++)
			b[j] = brow[bcast_col0 ? 0 : j];
		ttx_matrix_elementwise(t, eop, sa[a_row + i], b, f.fmt_a, f.fmt_b, phase, f.style,
		                       f.dst32, add_dst, drow + i);
	}
	flip_banks(t, thread, flip_a, flip_b);
	ttx_apply_addr_mod(t, thread, addr_mod, true);
	return TTX_OK;
}

int ttx_matrix_ELWMUL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ELWMUL a = ttx_decode_ELWMUL(word);
	/* Bit 21 (dest_accum_en in tt-llk) is not in the layout: ELWMUL always
	   accumulates (TC/ELWMUL.md passes `true` there). */
	return elementwise(t, thread, TTX_ELW_MUL, a.FlipSrcA, a.FlipSrcB, 1,
	                   a.BroadcastSrcBRow, a.BroadcastSrcBCol0, a.AddrMod, a.DstRow);
}

int ttx_matrix_ELWADD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ELWADD a = ttx_decode_ELWADD(word);
	return elementwise(t, thread, TTX_ELW_ADD, a.FlipSrcA, a.FlipSrcB, a.AddDst,
	                   a.BroadcastSrcBRow, a.BroadcastSrcBCol0, a.AddrMod, a.DstRow);
}

int ttx_matrix_ELWSUB(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ELWSUB a = ttx_decode_ELWSUB(word);
	return elementwise(t, thread, TTX_ELW_SUB, a.FlipSrcA, a.FlipSrcB, a.AddDst,
	                   a.BroadcastSrcBRow, a.BroadcastSrcBCol0, a.AddrMod, a.DstRow);
}

/* ---- GMPOOL (TC/GMPOOL.md) ---- */

struct gm_datum {
	uint32_t sign, exponent, mag;   /* uint1, uint9, uint10 */
};

static struct gm_datum gm_read_dst(uint32_t v, enum ttx_mstyle dst_style)
{
	struct gm_datum d;
	d.sign = v >> 31;
	switch (dst_style) {
	case TTX_MSTYLE_INT8:    /* DstStyle INT32 */
		d.mag = v & 0x3FF;
		d.exponent = ((v >> 10) & 0x3F) + (((v >> 24) & 7) << 6);
		break;
	case TTX_MSTYLE_FP16:
		d.exponent = ((v >> 16) & 0x1F) + 15;
		d.mag = (v >> 21) & 0x3FF;
		break;
	default:                 /* BF16, TF32 */
		d.exponent = ((v >> 16) & 0xFF) + 127;
		d.mag = ((v >> 24) & 0x7F) << 3;
		if (dst_style == TTX_MSTYLE_TF32)
			d.mag += (v >> 13) & 7;
		break;
	}
	d.exponent &= 0x1FF;
	return d;
}

static uint32_t gm_write_dst(struct gm_datum d, enum ttx_mstyle dst_style)
{
	switch (dst_style) {
	case TTX_MSTYLE_INT8:
		return (d.sign << 31) | ((d.exponent & 7) << 10) | d.mag;
	case TTX_MSTYLE_FP16:
		if ((d.exponent & 0x3F) == 0)
			return 0;
		return (d.sign << 31) | (d.mag << 21) | (((d.exponent - 15) & 0x1F) << 16);
	default: {
		if (d.exponent == 0)
			return 0;
		uint32_t x = (d.sign << 31) | ((d.mag & 0x3F8) << 21) | (((d.exponent - 127) & 0xFF) << 16);
		if (dst_style == TTX_MSTYLE_TF32)
			x += (d.mag & 7) << 13;
		return x;
	}
	}
}

static struct gm_datum gm_read_scaled_src(uint32_t a, enum ttx_mstyle style, uint32_t b)
{
	struct gm_datum r;
	uint32_t ea = a & 0xFF, eb = b & 0xFF;
	if (eb == 0) {                    /* negative infinity */
		r.sign = 1, r.exponent = 0x1FF, r.mag = 0x3FF;
	} else if (ea == 0) {             /* denormals flush to zero */
		r.sign = 0, r.exponent = 0, r.mag = 0;
	} else {
		uint32_t m = (a >> 8) & 0x3FF;
		r.sign = (a >> 18) & 1;
		switch (style) {
		case TTX_MSTYLE_INT8: r.exponent = 0; r.mag = m; break;
		case TTX_MSTYLE_FP16: r.exponent = (ea & 0x1F) + (eb & 0x1F); r.mag = m; break;
		case TTX_MSTYLE_TF32: r.exponent = ea + eb; r.mag = m; break;
		default:              r.exponent = ea + eb; r.mag = m & 0x3F8; break;
		}
	}
	r.exponent &= 0x1FF;
	return r;
}


static int32_t gm_comparable(struct gm_datum x)
{
	int32_t v = (int32_t)((x.exponent << 10) + x.mag);
	return x.sign ? -v : v;
}

/* GMPOOL, and the legacy MPOOL3S1/MPOOL3S2 with zero_srca (TC/MatrixUnit.md
   "Legacy instructions": what GMPOOL would do with SrcA entirely zero). */
static int gmpool(struct ttx_tile *t, unsigned thread, unsigned flip_a, unsigned flip_b,
                  unsigned argmax, unsigned addr_mod, unsigned dst_row, bool zero_srca)
{
	if (!srca_owned(t, thread) || !srcb_owned(t, thread))
		return TTX_BLOCKED;
	unsigned bank = ttx_cfg_bank(t, thread);
	struct math_fmt f = math_format(t, thread, bank);
	enum ttx_mstyle dst_style;
	if (f.style == TTX_MSTYLE_INT8)
		dst_style = TTX_MSTYLE_INT8;               /* INT32 */
	else if (f.style == TTX_MSTYLE_TF32)
		dst_style = argmax ? TTX_MSTYLE_INT8 : (f.dst32 ? TTX_MSTYLE_TF32 : TTX_MSTYLE_BF16);
	else if (argmax && f.dst32)
		dst_style = f.style;
	else
		dst_style = f.dst32 ? TTX_MSTYLE_TF32 : f.style;

	unsigned a_row = t->rwc[thread].srca & 0x30;
	unsigned b_row = t->rwc[thread].srcb & 0x38;
	unsigned drow = dst_base(t, thread, bank, dst_row) & 0x3FC;
	const uint32_t (*sa)[TTX_COLS] = t->srca[t->matrix_srca_bank & 1].rows;
	const uint32_t (*sb)[TTX_COLS] = t->srcb[t->matrix_srcb_bank & 1].rows;
	static const uint8_t nonlinear_i_transform[8] = {0, 3, 6, 1, 4, 7, 2, 5};
	t->matrix_last_srca_row = (uint8_t)a_row;
	/* GMPOOL reads an undefined Dst row as -inf, all bits set (TC/ZEROACC.md);
	   sampled before the first column's write defines the row. */
	bool undef[4];
	for (unsigned i = 0; i < 4; i++)
		undef[i] = dst16_undefined(t, f.dst32 ? ttx_dst32_adj_row((drow + i) & 0x3FF) : (drow + i) & 0x3FF);

	for (unsigned j = 0; j < TTX_COLS; j++) {
		uint32_t dv;
		if (f.dst32) {
			dv = undef[0] ? 0xFFFFFFFFu : ttx_dst32_get(t, drow, j);
		} else {
			dv = undef[0] ? 0xFFFF0000u : (uint32_t)t->dst[drow][j] << 16;
		}
		struct gm_datum max = gm_read_dst(dv, dst_style);
		uint32_t max_index = dv & 0xFF;
		uint32_t index_phase = (dv + 0x100) & 0xF00;
		for (unsigned ii = 0; ii < 16; ii++) {
			unsigned i = ii < 8 ? ii ^ 4 : ii;   /* the documented visitation order */
			uint32_t av = zero_srca ? 0 : sa[a_row + i][j];
			struct gm_datum x = gm_read_scaled_src(av, f.style, sb[b_row][i]);
			if (gm_comparable(x) >= gm_comparable(max)) {
				max = x;
				if (i < 8)
					max_index = ((index_phase >> 4) + nonlinear_i_transform[i]) & 0xFF;
			}
		}
		if (argmax) {
			uint32_t index_result = index_phase | max_index;
			dv = dst_style == TTX_MSTYLE_INT8 ? index_result
			     : gm_write_dst(max, dst_style) | index_result;
		} else {
			dv = gm_write_dst(max, dst_style);
		}
		if (f.dst32) {
			ttx_matrix_dst32_put(t, drow, j, dv);
			for (unsigned i = 1; i < 4; i++)
				ttx_matrix_dst32_put(t, drow + i, j, argmax ? ((undef[i] ? 0xFFFFFFFFu : ttx_dst32_get(t, drow + i, j)) + 0x100) & 0xF00 : 0);
		} else {
			ttx_matrix_dst16_put(t, drow, j, (uint16_t)(dv >> 16));
			for (unsigned i = 1; i < 4; i++)
				ttx_matrix_dst16_put(t, drow + i, j, 0);
		}
	}
	flip_banks(t, thread, flip_a, flip_b);
	ttx_apply_addr_mod(t, thread, addr_mod, true);
	return TTX_OK;
}

int ttx_matrix_GMPOOL(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_GMPOOL a = ttx_decode_GMPOOL(word);
	return gmpool(t, thread, a.FlipSrcA, a.FlipSrcB, a.ArgMax, a.AddrMod, a.DstRow, false);
}

/* ---- Legacy ops (TC/MatrixUnit.md "Legacy instructions") ---- */

/* MFCONV3S1, CONV3S1, CONV3S2, APOOL3S1, APOOL3S2: Dst += 0 on an aligned
   8x16 block.  Adding zero leaves every defined value as it is, and turns
   undefined rows into (defined) zeros; the only visible effects are that and
   the RWC update.  Choice: no Src ownership wait, no bank flip (the legacy
   encodings' clear_dvalid bits are not documented for Wormhole). */
static int legacy_add0(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_LEGACY3S a = ttx_decode_LEGACY3S(word);
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned drow = dst_base(t, thread, bank, a.DstRow) & 0x3F8;
	bool dst32 = ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled)
	             || ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_INT8_math_enabled);
	for (unsigned i = 0; i < 8; i++) {
		if (dst32) {
			unsigned adj = ttx_dst32_adj_row(drow + i);
			dst16_define(t, adj);
			dst16_define(t, (adj + 8) & 0x3FF);
		} else {
			dst16_define(t, (drow + i) & 0x3FF);
		}
	}
	ttx_apply_addr_mod(t, thread, a.AddrMod, true);
	return TTX_OK;
}

/* MPOOL3S1 / MPOOL3S2: GMPOOL with SrcA entirely zero, no argmax. */
static int legacy_mpool(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_LEGACY3S a = ttx_decode_LEGACY3S(word);
	return gmpool(t, thread, 0, 0, 0, a.AddrMod, a.DstRow, true);
}

int ttx_matrix_CONV3S1(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_add0(t, th, w); }
int ttx_matrix_CONV3S2(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_add0(t, th, w); }
int ttx_matrix_APOOL3S1(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_add0(t, th, w); }
int ttx_matrix_APOOL3S2(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_add0(t, th, w); }
int ttx_matrix_MFCONV3S1(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_add0(t, th, w); }
int ttx_matrix_MPOOL3S1(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_mpool(t, th, w); }
int ttx_matrix_MPOOL3S2(struct ttx_tile *t, unsigned th, uint32_t w) { return legacy_mpool(t, th, w); }

/* Opcodes isa.def gives the Matrix Unit that have no documentation page:
   they fail loudly, naming the instruction.  (CLREXPHIST, a Matrix Unit
   instruction, resets the packers' state: interp/pack.c.) */
int ttx_matrix_TRNSPSRCA(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_RAREB(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_SETASHRMH0(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_SETASHRMH1(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_SETASHRMV(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_SETASHRMH(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_SETPKEDGOF(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }
int ttx_matrix_SETIBRWC(struct ttx_tile *t, unsigned th, uint32_t w) { return ttx_fault_undocumented(t, th, w); }

/* ---- Data movement ---- */

/* MOVD2A / MOVD2B (TC/MOVD2A.md, TC/MOVD2B.md): Dst -> Src with the
   shuffles.  TF32 from Dst32b keeps all 10 mantissa bits (the layout comment
   of ShuffleTF32; vectors README departure 9, docs/departures.md). */
static uint32_t shuffle_bf16(uint32_t x) { return ((x & 0xFF00u) << 3) | (x & 0xFFu); }
static uint32_t shuffle_fp16(uint32_t x) { return ((x & 0xFFE0u) << 3) | (x & 0x1Fu); }
static uint32_t shuffle_tf32(uint32_t x)  /* x = DstVal >> 13: Sign,HiMan(7),Exp(8),LoMan(3) */
{
	return (x & 0x7F800u) | ((x & 7u) << 8) | ((x >> 3) & 0xFFu);
}

static int move_d2src(struct ttx_tile *t, unsigned thread, uint32_t word, bool to_a, unsigned lo,
                      unsigned src_row, unsigned four, unsigned addr_mod, unsigned dst_row)
{
	unsigned bank = ttx_cfg_bank(t, thread);
	bool dst32;
	enum ttx_mstyle style;
	if (ttx_thread_cfg_get(t, thread, TTX_THCFG_FP16A_FORCE_Enable)) {
		dst32 = false;
		style = TTX_MSTYLE_FP16;
	} else {
		dst32 = ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled)
		        || ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_INT8_math_enabled);
		style = style_of_fmt(srca_fmt(t, bank));
	}
	if (!dst32 && (lo || style == TTX_MSTYLE_TF32))
		return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u: %s from 16-bit Dst is undefined "
		                "behaviour (TC/MOVD2A.md)", to_a ? "MOVD2A" : "MOVD2B", word, thread,
		                lo ? "UseDst32bLo" : "TF32");
	unsigned n = four ? 4 : 1;
	unsigned drow = dst_base(t, thread, bank, dst_row) & (four ? 0x3FC : 0x3FF);
	unsigned srow = (src_row + (to_a ? t->rwc[thread].srca : t->rwc[thread].srcb)) & (four ? 0x3C : 0x3F);
	uint32_t (*dst)[TTX_COLS] = to_a ? t->srca[t->matrix_srca_bank & 1].rows
	                                 : t->srcb[t->matrix_srcb_bank & 1].rows;
	unsigned blocked = mov_blocked_columns(t);
	if (to_a)
		t->matrix_last_srca_row = (uint8_t)srow;
	for (; n; n--, drow = (drow + 1) & 0x3FF, srow = (srow + 1) & 0x3F) {
		for (unsigned c = 0; c < TTX_COLS; c++) {
			if (blocked >> c & 1)
				continue;
			uint32_t v;
			if (dst32) {
				uint32_t d = ttx_dst32_get(t, drow, c);
				if (lo)
					d = (d << 16) | (d & 0xFFFF);
				if (style == TTX_MSTYLE_BF16)
					v = shuffle_bf16(d >> 16);
				else if (style == TTX_MSTYLE_FP16)
					v = shuffle_fp16(d >> 16);
				else if (!lo)
					v = shuffle_tf32(d >> 13);
				else
					v = d & 0x1FFF;
			} else {
				uint16_t d = t->dst[drow][c];
				v = style == TTX_MSTYLE_BF16 ? shuffle_bf16(d) : shuffle_fp16(d);
			}
			dst[srow][c] = v & 0x7FFFF;
		}
	}
	ttx_apply_addr_mod(t, thread, addr_mod, true);
	return TTX_OK;
}

int ttx_matrix_MOVD2A(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_MOVD2A a = ttx_decode_MOVD2A(word);
	return move_d2src(t, thread, word, true, a.UseDst32bLo, a.SrcRow, a.Move4Rows, a.AddrMod, a.DstRow);
}

int ttx_matrix_MOVD2B(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_MOVD2B a = ttx_decode_MOVD2B(word);
	return move_d2src(t, thread, word, false, a.UseDst32bLo, a.SrcRow, a.Move4Rows, a.AddrMod, a.DstRow);
}

/* RemoveLowMantissa / RemoveHighExponent (TC/MOVA2D.md). */
static uint16_t remove_low_mantissa(uint32_t x)
{
	return (uint16_t)(((x & (1u << 18)) >> 3) | ((x & (0x7Fu << 11)) >> 3) | (x & 0xFF));
}

static uint16_t remove_high_exponent(uint32_t x)
{
	return (uint16_t)(((x & (1u << 18)) >> 3) | ((x & (0x3FFu << 8)) >> 3) | (x & 0x1F));
}

/* One Src datum to Dst, the common body of MOVA2D and MOVB2D. */
static void move_src2d_datum(struct ttx_tile *t, uint32_t v, unsigned fmt, bool use8b, bool flush,
                             unsigned lo, unsigned row, unsigned col)
{
	if (flush && !(v & 0xFF))
		v = 0;
	uint16_t v16 = use8b ? remove_low_mantissa(v) : remove_high_exponent(v);
	if (fmt == TTX_FMT_TF32) {
		uint16_t low = (uint16_t)(((v >> 8) & 7) << 13);
		if (lo)
			low |= v16;
		ttx_matrix_dst32_put(t, row, col, ((uint32_t)v16 << 16) | low);
	} else if (lo) {
		ttx_matrix_dst32_put(t, row, col, (ttx_dst32_get(t, row, col) & 0xFFFF0000u) | v16);
	} else {
		ttx_matrix_dst16_put(t, row, col, v16);
	}
}

static bool mov_use8b(const struct ttx_tile *t, unsigned thread, unsigned fmt)
{
	if (ttx_thread_cfg_get(t, thread, TTX_THCFG_FP16A_FORCE_Enable))
		return false;
	return fmt == TTX_FMT_TF32 || style_of_fmt(fmt) == TTX_MSTYLE_BF16;
}

/* MOVA2D and MOVDBGA2D (TC/MOVA2D.md, TC/MOVDBGA2D.md: no ownership wait). */
static int move_a2d(struct ttx_tile *t, unsigned thread, uint32_t word, bool wait)
{
	struct ttx_args_MOVA2D a = ttx_decode_MOVA2D(word);
	if (wait && !srca_owned(t, thread))
		return TTX_BLOCKED;
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned fmt = srca_fmt(t, bank);
	bool use8b = mov_use8b(t, thread, fmt);
	bool flush = !ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src);
	unsigned n = a.Move8Rows ? 8 : 1;
	unsigned drow = dst_base(t, thread, bank, a.DstRow) & (a.Move8Rows ? 0x3F8 : 0x3FF);
	unsigned srow = (a.SrcRow + t->rwc[thread].srca) & (a.Move8Rows ? 0x38 : 0x3F);
	const uint32_t (*sa)[TTX_COLS] = t->srca[t->matrix_srca_bank & 1].rows;
	unsigned blocked = mov_blocked_columns(t);
	t->matrix_last_srca_row = (uint8_t)srow;
	for (; n; n--, drow = (drow + 1) & 0x3FF, srow = (srow + 1) & 0x3F)
		for (unsigned c = 0; c < TTX_COLS; c++)
			if (!(blocked >> c & 1))
				move_src2d_datum(t, sa[srow][c], fmt, use8b, flush, a.UseDst32bLo, drow, c);
	ttx_apply_addr_mod(t, thread, a.AddrMod, true);
	return TTX_OK;
}

int ttx_matrix_MOVA2D(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return move_a2d(t, thread, word, true);
}

int ttx_matrix_MOVDBGA2D(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	/* MOVDBGA2D's layout names bit 13 Move8Rows as MOVA2D's does. */
	return move_a2d(t, thread, word, false);
}

/* TC/MOVB2D.md.  Choice: MatrixUnit.md's TruncateSrc is said to apply to
   MOVB2D's datapath too, but MOVB2D.md's model (which the vectors follow)
   does not call it; we follow MOVB2D.md. */
int ttx_matrix_MOVB2D(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_MOVB2D a = ttx_decode_MOVB2D(word);
	if (!srcb_owned(t, thread))
		return TTX_BLOCKED;
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned fmt = srca_fmt(t, bank);   /* "SrcAFmt really is used" */
	bool use8b = mov_use8b(t, thread, fmt);
	bool flush = !ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src);
	unsigned n, drow = dst_base(t, thread, bank, a.DstRow), srow = a.SrcRow + t->rwc[thread].srcb;
	if (a.Broadcast1RowTo8) {
		n = 8, drow &= 0x3F8, srow &= 0x3F;
	} else if (a.Move4Rows) {
		n = 4, drow &= 0x3FC, srow &= 0x3C;
	} else {
		n = 1, drow &= 0x3FF, srow &= 0x3F;
	}
	const uint32_t (*sb)[TTX_COLS] = t->srcb[t->matrix_srcb_bank & 1].rows;
	unsigned blocked = mov_blocked_columns(t);
	for (; n; n--, drow = (drow + 1) & 0x3FF, srow = (srow + !a.Broadcast1RowTo8) & 0x3F)
		for (unsigned c = 0; c < TTX_COLS; c++)
			if (!(blocked >> c & 1))
				move_src2d_datum(t, sb[srow][a.BroadcastCol0 ? 0 : c], fmt, use8b, flush,
				                 a.UseDst32bLo, drow, c);
	ttx_apply_addr_mod(t, thread, a.AddrMod, true);
	return TTX_OK;
}

/* TC/MOVB2A.md, with TruncateSrc (TC/MatrixUnit.md) by SrcB's format. */
int ttx_matrix_MOVB2A(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_MOVB2A a = ttx_decode_MOVB2A(word);
	if (!srcb_owned(t, thread))
		return TTX_BLOCKED;
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned fmt = srcb_fmt(t, bank);
	bool flush = !ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src);
	unsigned n = a.Move4Rows ? 4 : 1, mask = a.Move4Rows ? 0x3C : 0x3F;
	unsigned arow = (a.SrcARow + t->rwc[thread].srca) & mask;
	unsigned brow = (a.SrcBRow + t->rwc[thread].srcb) & mask;
	uint32_t (*sa)[TTX_COLS] = t->srca[t->matrix_srca_bank & 1].rows;
	const uint32_t (*sb)[TTX_COLS] = t->srcb[t->matrix_srcb_bank & 1].rows;
	unsigned blocked = mov_blocked_columns(t);
	t->matrix_last_srca_row = (uint8_t)arow;
	for (; n; n--, arow = (arow + 1) & 0x3F, brow = (brow + 1) & 0x3F)
		for (unsigned c = 0; c < TTX_COLS; c++) {
			if (blocked >> c & 1)
				continue;
			uint32_t v = sb[brow][c];
			if (flush && !(v & 0xFF))
				v = 0;
			sa[arow][c] = ttx_truncate_src(v, fmt);
		}
	ttx_apply_addr_mod(t, thread, a.AddrMod, true);
	return TTX_OK;
}

/* ---- Src-only instructions ---- */

int ttx_matrix_ZEROSRC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ZEROSRC a = ttx_decode_ZEROSRC(word);
	(void)thread;
	bool clear_a[2] = {false, false}, clear_b[2] = {false, false};
	if (a.ClearSrcA) {
		if (a.BothBanks)
			clear_a[0] = clear_a[1] = true;
		else
			clear_a[(a.SingleBankMatrixUnit ? t->matrix_srca_bank : t->unpacker_src_bank[0]) & 1] = true;
	}
	if (a.ClearSrcB) {
		if (a.BothBanks)
			clear_b[0] = clear_b[1] = true;
		else
			clear_b[(a.SingleBankMatrixUnit ? t->matrix_srcb_bank : t->unpacker_src_bank[1]) & 1] = true;
	}
	for (unsigned bank = 0; bank < 2; bank++) {
		if (clear_a[bank]) {
			uint32_t v = a.NegativeInfSrcA ? 0x7FFFFu : 0;   /* ~0u in 19 bits */
			for (unsigned i = 0; i < 64; i++)
				for (unsigned j = 0; j < TTX_COLS; j++)
					t->srca[bank].rows[i][j] = v;
		}
		if (clear_b[bank])
			memset(t->srcb[bank].rows, 0, sizeof(t->srcb[bank].rows));
	}
	return TTX_OK;
}

int ttx_matrix_TRNSPSRCB(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread, (void)word;
	if (!srcb_owned(t, thread))
		return TTX_BLOCKED;
	uint32_t (*sb)[TTX_COLS] = t->srcb[t->matrix_srcb_bank & 1].rows + 16;
	for (unsigned i = 0; i < 16; i++)
		for (unsigned j = 0; j < i; j++) {
			uint32_t x = sb[i][j];
			sb[i][j] = sb[j][i];
			sb[j][i] = x;
		}
	return TTX_OK;
}

/* TC/SHIFTXA.md.  The input block is HardwareBug() & 0x30: the SrcA row
   address last computed by one of the listed instructions
   (matrix_last_srca_row).  Directions 0 and 1 are not documented: fault. */
int ttx_matrix_SHIFTXA(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SHIFTXA a = ttx_decode_SHIFTXA(word);
	if (a.Direction < 2)
		return ttx_fail(t, TTX_FAULT, "SHIFTXA (0x%08X) at thread %u: Direction %u is not "
		                "documented (TC/SHIFTXA.md)", word, thread, a.Direction);
	if (!srca_owned(t, thread))
		return TTX_BLOCKED;
	uint32_t (*sa)[TTX_COLS] = t->srca[t->matrix_srca_bank & 1].rows;
	unsigned in_row = t->matrix_last_srca_row & 0x30;
	for (unsigned i = 0; i < 16; i++) {
		uint32_t in[TTX_COLS];
		memcpy(in, sa[in_row + i], sizeof(in));
		if (a.Direction == 2) {          /* DIRECTION_RIGHT */
			for (unsigned c = 15; c > 0; c--)
				sa[i][c] = in[c - 1];
			sa[i][0] = 0;
		} else {                         /* DIRECTION_LEFT */
			for (unsigned c = 0; c < 15; c++)
				sa[i][c] = in[c + 1];
			sa[i][15] = 0;
		}
	}
	return TTX_OK;
}

/* TC/SHIFTXB.md.  Column 14 keeps its value: the model's loop stops at
   Column < 14, so column 14 is not rewritten (its printed behaviour). */
int ttx_matrix_SHIFTXB(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SHIFTXB a = ttx_decode_SHIFTXB(word);
	if (!srcb_owned(t, thread))
		return TTX_BLOCKED;
	unsigned row = (a.SrcRow + t->rwc[thread].srcb) & 0x3F;
	uint32_t *r = t->srcb[t->matrix_srcb_bank & 1].rows[row];
	uint32_t col0 = r[0];
	for (unsigned c = 0; c < 14; c++)
		r[c] = r[c + 1];
	r[15] = a.ShiftInZero ? 0 : col0;
	ttx_apply_addr_mod(t, thread, a.AddrMod, true);
	return TTX_OK;
}

/* ---- Control ---- */

/* TC/GATESRCRST.md: invalidates the one-slot SrcB operand cache.  The
   emulator reads SrcB directly (the cache is never stale), so this has no
   architectural effect. */
int ttx_matrix_GATESRCRST(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)t, (void)thread, (void)word;
	return TTX_OK;
}

int ttx_matrix_CLEARDVALID(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_CLEARDVALID a = ttx_decode_CLEARDVALID(word);
	(void)thread;
	if (a.Reset) {
		t->matrix_srca_bank = t->matrix_srcb_bank = 0;
		t->unpacker_src_bank[0] = t->unpacker_src_bank[1] = 0;
		for (unsigned b = 0; b < 2; b++)
			t->srca[b].allowed_client = t->srcb[b].allowed_client = TTX_SRC_UNPACKERS;
		return TTX_OK;
	}
	if (a.FlipSrcA) {
		t->srca[t->matrix_srca_bank & 1].allowed_client = TTX_SRC_UNPACKERS;
		if (!a.KeepReadingSameSrc)
			t->matrix_srca_bank ^= 1;
	}
	if (a.FlipSrcB) {
		t->srcb[t->matrix_srcb_bank & 1].allowed_client = TTX_SRC_UNPACKERS;
		if (!a.KeepReadingSameSrc)
			t->matrix_srcb_bank ^= 1;
	}
	return TTX_OK;
}

/* TC/SETDVALID.md (a Miscellaneous Unit instruction in isa.def). */
int ttx_matrix_SETDVALID(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETDVALID a = ttx_decode_SETDVALID(word);
	if (a.FlipSrcA) {
		t->srca[t->unpacker_src_bank[0] & 1].allowed_client = TTX_SRC_MATRIX_UNIT;
		t->unpacker_src_bank[0] ^= 1;
		t->unpacker_src_row[0][thread] = (uint8_t)(ttx_thread_cfg_get(t, thread, TTX_THCFG_SRCA_SET_Base) << 4);
	}
	if (a.FlipSrcB) {
		t->srcb[t->unpacker_src_bank[1] & 1].allowed_client = TTX_SRC_MATRIX_UNIT;
		t->unpacker_src_bank[1] ^= 1;
		t->unpacker_src_row[1][thread] = (uint8_t)(ttx_thread_cfg_get(t, thread, TTX_THCFG_SRCB_SET_Base) << 4);
	}
	return TTX_OK;
}

int ttx_matrix_SETRWC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETRWC a = ttx_decode_SETRWC(word);
	struct ttx_rwc *rwc = &t->rwc[thread];
	if (a.SrcA) {
		unsigned v = a.SrcAVal + (a.SrcACr ? rwc->srca_cr : 0);
		rwc->srca = rwc->srca_cr = (uint8_t)(v & 0x3F);
	}
	if (a.SrcB) {
		unsigned v = a.SrcBVal + (a.SrcBCr ? rwc->srcb_cr : 0);
		rwc->srcb = rwc->srcb_cr = (uint8_t)(v & 0x3F);
	}
	if (a.Dst || a.DstCtoCr) {
		unsigned v = a.DstVal;
		if (a.DstCtoCr)
			v += rwc->dst;
		else if (a.DstCr)
			v += rwc->dst_cr;
		rwc->dst = rwc->dst_cr = (uint16_t)(v & 0x3FF);
	}
	if (a.Fidelity)
		rwc->fidelity_phase = 0;
	flip_banks(t, thread, a.FlipSrcA, a.FlipSrcB);
	return TTX_OK;
}

int ttx_matrix_INCRWC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_INCRWC a = ttx_decode_INCRWC(word);
	struct ttx_rwc *rwc = &t->rwc[thread];
	if (a.SrcACr)
		rwc->srca = rwc->srca_cr = (uint8_t)((rwc->srca_cr + a.SrcAInc) & 0x3F);
	else
		rwc->srca = (uint8_t)((rwc->srca + a.SrcAInc) & 0x3F);
	if (a.SrcBCr)
		rwc->srcb = rwc->srcb_cr = (uint8_t)((rwc->srcb_cr + a.SrcBInc) & 0x3F);
	else
		rwc->srcb = (uint8_t)((rwc->srcb + a.SrcBInc) & 0x3F);
	if (a.DstCr)
		rwc->dst = rwc->dst_cr = (uint16_t)((rwc->dst_cr + a.DstInc) & 0x3FF);
	else
		rwc->dst = (uint16_t)((rwc->dst + a.DstInc) & 0x3FF);
	return TTX_OK;
}

/* TC/ZEROACC.md.  Undefined rows are zeroed and marked (t->dst_undefined):
   matrix instructions then read them as 0 (the stored zeros), GMPOOL as
   -inf (the mark); any write defines them again.  Revert (un-marking) in
   the multi-row modes is UndefinedBehaviour: fault. */
int ttx_matrix_ZEROACC(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ZEROACC a = ttx_decode_ZEROACC(word);
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned imm = a.Imm10;
	switch (a.Mode) {
	case 0: {    /* ZEROACC_MODE_ONE_ROW */
		unsigned row = dst_base(t, thread, bank, imm) & 0x3FF;
		if (ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_Fp32_enabled)
		    || ttx_cfg_get(t, bank, TTX_CFG_ALU_ACC_CTRL_INT8_math_enabled))
			dst32_undefine(t, row);
		else
			dst16_undefine(t, row);
		break;
	}
	case 1:      /* ZEROACC_MODE_16_ROWS */
		if (a.Revert)
			goto revert;
		imm &= 0xFF;
		if (a.UseDst32b) {
			if (imm < 32)
				for (unsigned i = 0; i < 16; i++)
					dst32_undefine(t, imm * 16 + i);
		} else if (imm < 64) {
			for (unsigned i = 0; i < 16; i++)
				dst16_undefine(t, imm * 16 + i);
		}
		break;
	case 2:      /* ZEROACC_MODE_HALF_OF_DST: DstBits rows 0-511 or 512-1023 */
		if (a.Revert)
			goto revert;
		for (unsigned i = 0; i < 512; i++)
			dst16_undefine(t, (imm & 1) * 512 + i);
		break;
	default:     /* ZEROACC_MODE_ALL_OF_DST */
		if (a.Revert)
			goto revert;
		for (unsigned i = 0; i < 1024; i++)
			dst16_undefine(t, i);
		break;
	}
	if (a.Mode <= 1)
		ttx_apply_addr_mod(t, thread, a.AddrMod, true);
	return TTX_OK;
revert:
	return ttx_fail(t, TTX_FAULT, "ZEROACC (0x%08X) at thread %u: Revert is undefined behaviour "
	                "(TC/ZEROACC.md)", word, thread);
}
