/* Matrix Unit numerics (interp/matrix_fp.c), used by interp/matrix.c. */
#ifndef TTX_MATRIX_FP_H
#define TTX_MATRIX_FP_H

#include <stdint.h>
#include <stdbool.h>

#include "tile.h"
#include "formats.h"


/* SrcAStyle (TC/MVMUL.md).  For GMPOOL's DstStyle, INT8 stands for INT32. */
enum ttx_mstyle { TTX_MSTYLE_BF16, TTX_MSTYLE_FP16, TTX_MSTYLE_TF32, TTX_MSTYLE_INT8 };

enum ttx_elw_op { TTX_ELW_MUL, TTX_ELW_ADD, TTX_ELW_SUB };

/* TruncateSrc (TC/MatrixUnit.md): the bits of a Src datum that leave
   SrcA/SrcB, by the datum's own format. */
static inline uint32_t ttx_truncate_src(uint32_t x, unsigned fmt)
{
	switch (fmt) {
	case TTX_FMT_FP16: case TTX_FMT_FP8: case TTX_FMT_BFP8A: case TTX_FMT_INT8:
		return x & 0x7FF1Fu;
	case TTX_FMT_BFP4A: case TTX_FMT_BFP2A:
		return x & 0x7F81Fu;
	case TTX_FMT_TF32:
		return x;
	default:
		return x & 0x7F8FFu;
	}
}

/* Dst integer "32" is sign-magnitude in the FP32 shuffle (TC/MatrixUnit.md
   DstDecodeInt32 / DstEncodeInt32). */
static inline int32_t ttx_dst_decode_int32(uint32_t d)
{
	uint32_t x = ttx_unshuffle_fp32(d);
	int32_t m = (int32_t)(x & 0x7FFFFFFFu);
	return (x >> 31) ? -m : m;
}

static inline uint32_t ttx_dst_encode_int32(int32_t v)
{
	uint32_t x = v < 0 ? 0x80000000u | (uint32_t)-(int64_t)v : (uint32_t)v;
	return ttx_shuffle_fp32(x);
}

/* SaturateAddInt32: clamps at +-(2^31 - 1). */
static inline int32_t ttx_sat_add_int32(int32_t x, int32_t y)
{
	int64_t r = (int64_t)x + y;
	if (r > 0x7FFFFFFF)
		return 0x7FFFFFFF;
	if (r < -0x7FFFFFFF)
		return -0x7FFFFFFF;
	return (int32_t)r;
}

/* A 16x16 SrcA block decoded for one fidelity phase. */
struct ttx_mop_operands {
	/* Float styles, per row k, in 16-bit lanes 2c and 2c + 1 (column c;
	   the two rows of a pair of SrcB rows, matrix_fp.c "Step 2"): the
	   exponent of the full operand's leading bit (NO_REF16 for zero), and
	   +-2 times the phase's 5 significand bits.  ref_lo is the smallest
	   exponent of the block's non-zero data (INT32_MAX when there is none). */
	int16_t ref16[16][2 * TTX_COLS];
	int16_t sig16[16][2 * TTX_COLS];
	int ref_lo;
	/* INT8, per pair of rows k = 2p, 2p + 1: in 16-bit lanes 2c and 2c + 1,
	   the two rows' values of column c (sign and 10-bit magnitude), the
	   operands of one multiply-add of pairs */
	int16_t i16[8][2 * TTX_COLS];
};

void ttx_matrix_load_a(struct ttx_mop_operands *op, const uint32_t (*rows)[TTX_COLS], unsigned nrows,
                       enum ttx_mstyle style, unsigned fmt_a, unsigned phase);

/* A SrcA block decoded, with the raw rows and the settings it was decoded
   for: a run of MVMULs on the same SrcA rows (a matmul's inner loop, every
   fidelity phase but the first) decodes them once. */
struct ttx_srca_entry {
	bool valid;
	enum ttx_mstyle style;
	unsigned fmt_a, phase;
	uint32_t rows[16][TTX_COLS];
	struct ttx_mop_operands op;
};

/* A few entries, by where in SrcA the rows are (a kernel's MVMULs
   alternate between faces), each checked by content. */
struct ttx_srca_cache {
	struct ttx_srca_entry entry[8];
};

/* ttx_matrix_load_a of 16 rows through the cache. */
const struct ttx_mop_operands *ttx_matrix_load_a_cached(struct ttx_srca_cache *cache, const uint32_t (*rows)[TTX_COLS],
                                                        enum ttx_mstyle style, unsigned fmt_a, unsigned phase);
/* Dst[rows[i]] += brows[i] @ SrcA for i < n, integer path: INT32 Dst,
   saturating (TC/MVMUL.md). */
void ttx_matrix_dot_int(struct ttx_tile *t, const struct ttx_mop_operands *op, const uint32_t *const brows[],
                        const unsigned rows[], unsigned n, unsigned fmt_b, unsigned phase);
/* Dst[rows[i]] += brows[i] @ SrcA for i < n <= 8, floating-point path, 16
   columns at once (SrcA decoded by ttx_matrix_load_a); _scalar is the same
   model for one row, one column at a time from the raw SrcA rows (the
   reference for the tests). */
void ttx_matrix_dot_fp(struct ttx_tile *t, const struct ttx_mop_operands *op, const uint32_t *const brows[],
                       const unsigned rows[], unsigned n, unsigned fmt_b, unsigned phase,
                       enum ttx_mstyle style, bool dst32);
void ttx_matrix_dot_fp_scalar(struct ttx_tile *t, const uint32_t (*arows)[TTX_COLS], unsigned fmt_a,
                              const uint32_t brow[TTX_COLS], unsigned fmt_b, unsigned phase,
                              enum ttx_mstyle style, bool dst32, unsigned row);
/* One row of ELWMUL / ELWADD / ELWSUB, written to Dst: 16 columns at
   once; _scalar one at a time (the reference for the tests). */
void ttx_matrix_elementwise_scalar(struct ttx_tile *t, enum ttx_elw_op op, const uint32_t a[TTX_COLS],
                                   const uint32_t b[TTX_COLS], unsigned fmt_a, unsigned fmt_b,
                                   unsigned phase, enum ttx_mstyle style, bool dst32, bool add_dst,
                                   unsigned row);
void ttx_matrix_elementwise(struct ttx_tile *t, enum ttx_elw_op op, const uint32_t a[TTX_COLS],
                            const uint32_t b[TTX_COLS], unsigned fmt_a, unsigned fmt_b,
                            unsigned phase, enum ttx_mstyle style, bool dst32, bool add_dst,
                            unsigned row);

/* Dst writes that also clear the undefined mark (interp/matrix.c). */
void ttx_matrix_dst32_put(struct ttx_tile *t, unsigned row, unsigned col, uint32_t v);
void ttx_matrix_dst16_put(struct ttx_tile *t, unsigned row, unsigned col, uint16_t v);

/* Rounding of an exact value to a Dst format (exposed for the tests). */
uint32_t ttx_mfp_to_fp32(double v);      /* natural FP32 bits */
uint16_t ttx_mfp_to_bf16(double v);      /* natural BF16 bits */
uint16_t ttx_mfp_to_fp16(double v);      /* natural FP16 bits (Tensix: exp 31 is finite) */

#endif
