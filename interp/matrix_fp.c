/* Matrix Unit (FPU) numerics: Src operand decode with the fidelity masks,
 * the integer path, and the floating-point accumulation and rounding into
 * Dst.  docs/matrix.md gives the model and the evidence for each choice.
 *
 * Values are integers with a binary exponent: a product is n * 2^e0 with
 * n < 2^22, sums are exact integers in units of a grid 2^g, and only the
 * final rounding into the Dst format loses bits. */
#include <limits.h>
#include <string.h>

#include <simde/x86/avx512.h>

#include "matrix_fp.h"
#include "simd16.h"

/* ---- Src operands (TC/SrcASrcB.md, TC/MatrixUnit.md) ---- */

/* A Src datum as sign, exponent field (0 = zero, denormals flushed) and
   11-bit significand (implicit 1 and 10 mantissa bits), for the style. */
struct src_val {
	uint32_t sign, exp, sig;
	int bias;
};

static struct src_val src_decode(uint32_t x, enum ttx_mstyle style, unsigned fmt)
{
	struct src_val v;
	x = ttx_truncate_src(x, fmt);
	if (style == TTX_MSTYLE_BF16)
		x &= 0x7F8FFu;                  /* SrcDecodeBF16 */
	v.sign = (x >> 18) & 1;
	if (style == TTX_MSTYLE_FP16) {
		v.exp = x & 0x1F;
		v.bias = 15;
	} else {
		v.exp = x & 0xFF;
		v.bias = 127;
	}
	v.sig = v.exp ? (0x400u | ((x >> 8) & 0x3FF)) : 0;
	return v;
}

/* The exponent of a Src datum's leading (implicit) bit; NO_REF for zero. */
#define NO_REF (-100000)
#define NO_REF16 (-30000)   /* in 16-bit lanes (step 2) */
static int src_ref(struct src_val v)
{
	return v.exp ? (int)v.exp - v.bias : NO_REF;
}

static inline __attribute__((always_inline)) simde__m512i splat(int32_t x)
{
	return simde_mm512_set1_epi32(x);
}

/* Two rows' 16-bit values in each 32-bit lane, the first low
   (step 2's pairs of SrcB rows, SrcA's columns twice). */
static inline __attribute__((always_inline)) simde__m512i pair_pack(simde__m512i r0, simde__m512i r1)
{
	return simde_mm512_or_si512(simde_mm512_and_si512(r0, splat(0xFFFF)), simde_mm512_slli_epi32(r1, 16));
}

/* src_decode for 16 data at once: the significand after sig_mask with the
   sign in bit 31, and the exponent of the leading bit (NO_REF for zero). */
static inline __attribute__((always_inline)) void decode16(const uint32_t x[TTX_COLS], enum ttx_mstyle style,
                                                           unsigned fmt, uint32_t sig_mask, simde__m512i *sig,
                                                           simde__m512i *ref)
{
	uint32_t keep = ttx_truncate_src(0x7FFFFu, fmt) & (style == TTX_MSTYLE_BF16 ? 0x7F8FFu : 0x7FFFFu);
	bool fp16 = style == TTX_MSTYLE_FP16;
	simde__m512i v = simde_mm512_and_si512(simde_mm512_loadu_si512(x), splat((int32_t)keep));
	simde__m512i e = simde_mm512_and_si512(v, splat(fp16 ? 0x1F : 0xFF));
	simde__mmask16 nz = simde_mm512_test_epi32_mask(e, e);
	simde__m512i s = simde_mm512_or_si512(simde_mm512_and_si512(simde_mm512_srli_epi32(v, 8), splat(0x3FF)),
	                                      splat(0x400));
	s = simde_mm512_maskz_and_epi32(nz, s, splat((int32_t)sig_mask));
	s = simde_mm512_or_si512(s, simde_mm512_slli_epi32(simde_mm512_srli_epi32(v, 18), 31));
	simde__m512i r = simde_mm512_mask_sub_epi32(splat(NO_REF), nz, e, splat(fp16 ? 15 : 127));
	*sig = s;
	*ref = r;
}

/* The fidelity masks on the 11-bit significand (TC/SrcASrcB.md "Fidelity
   phases"): SrcA takes implicit 1 + 4 bits in even phases, the next 5 bits
   in odd ones (its last bit never); SrcB takes implicit 1 + 6 bits in
   phases 0-1, the remaining 4 bits in phases 2-3. */
static uint32_t srca_sig_mask(unsigned phase) { return (phase & 1) ? 0x03Eu : 0x7C0u; }
static uint32_t srcb_sig_mask(unsigned phase) { return (phase & 2) ? 0x00Fu : 0x7F0u; }

/* ReadSrcInt8 with FlushDenormals (TC/MatrixUnit.md), after the phase mask:
   a datum whose exponent field is zero reads as 0 (vectors README
   departure 8). */
static int32_t src_int8(uint32_t x)
{
	if (!(x & 0xFF))
		return 0;
	int32_t m = (int32_t)((x >> 8) & 0x3FF);
	return (x >> 18 & 1) ? -m : m;
}

static uint32_t srca_int_mask(unsigned phase) { return (phase & 1) ? 0x41FFFu : 0x4E0FFu; }
static uint32_t srcb_int_mask(unsigned phase) { return (phase & 2) ? 0x40FFFu : 0x7F0FFu; }

/* A Src row as step 2 of the float datapath takes it ("Step 2" below):
   per datum, the exponent of its leading bit less off (NO_REF16 for zero)
   and its phase bits (sig_mask) as a signed integer shifted right by shift
   (left when negative); *lo takes the smallest exponent of the row's
   non-zero data. */
static inline __attribute__((always_inline)) void step2_operands16(const uint32_t x[TTX_COLS],
	enum ttx_mstyle style, unsigned fmt, uint32_t sig_mask, int shift, int off, simde__m512i *ref,
	simde__m512i *sig, simde__m512i *lo)
{
	simde__m512i rv, sv;
	decode16(x, style, fmt, sig_mask, &sv, &rv);
	simde__mmask16 nz = (simde__mmask16)~simde_mm512_cmpeq_epi32_mask(rv, splat(NO_REF));
	*lo = simde_mm512_mask_min_epi32(*lo, nz, *lo, rv);
	*ref = simde_mm512_mask_sub_epi32(splat(NO_REF16), nz, rv, splat(off));
	simde__m512i m = simde_mm512_and_si512(sv, splat(0x7FF));
	m = shift >= 0 ? simde_mm512_srli_epi32(m, (unsigned)shift) : simde_mm512_slli_epi32(m, (unsigned)-shift);
	*sig = simde_mm512_mask_sub_epi32(m, simde_mm512_movepi32_mask(sv), simde_mm512_setzero_si512(), m);
}

void ttx_matrix_load_a(struct ttx_mop_operands *op, const uint32_t (*rows)[TTX_COLS], unsigned nrows,
                       enum ttx_mstyle style, unsigned fmt_a, unsigned phase)
{
	if (style == TTX_MSTYLE_INT8) {
		for (unsigned k = 0; k < nrows; k++)
			for (unsigned j = 0; j < TTX_COLS; j++)
				op->i16[k / 2][2 * j + k % 2] =
					(int16_t)src_int8(ttx_truncate_src(rows[k][j], fmt_a) & srca_int_mask(phase));
		return;
	}
	simde__m512i lo = splat(INT32_MAX);
	for (unsigned k = 0; k < nrows; k++) {
		/* 2 x the 5 bits: 10..6 in even phases, 5..1 in odd ones */
		simde__m512i ref, sig;
		step2_operands16(rows[k], style, fmt_a, srca_sig_mask(phase), (phase & 1) ? 0 : 5, 0, &ref, &sig, &lo);
		simde_mm512_storeu_si512(op->ref16[k], pair_pack(ref, ref));
		simde_mm512_storeu_si512(op->sig16[k], pair_pack(sig, sig));
	}
	op->ref_lo = ttx_reduce_min16(lo);
}

const struct ttx_mop_operands *ttx_matrix_load_a_cached(struct ttx_srca_cache *cache, const uint32_t (*rows)[TTX_COLS],
                                                        enum ttx_mstyle style, unsigned fmt_a, unsigned phase)
{
	/* (MVMUL's SrcA rows start at multiples of 8 rows, 512 bytes) */
	struct ttx_srca_entry *c = &cache->entry[((uintptr_t)rows >> 9) % 8];
	if (!c->valid || c->style != style || c->fmt_a != fmt_a || c->phase != phase ||
	    memcmp(c->rows, rows, sizeof(c->rows)) != 0) {
		memcpy(c->rows, rows, sizeof(c->rows));
		c->style = style, c->fmt_a = fmt_a, c->phase = phase;
		ttx_matrix_load_a(&c->op, rows, 16, style, fmt_a, phase);
		c->valid = true;
	}
	return &c->op;
}

/* Dst's INT32 (sign-magnitude in the FP32 shuffle, TC/Dst.md) of 16 lanes
   from the high and low DstBits rows, and back. */
static inline __attribute__((always_inline)) simde__m512i dst_int32_read16(const uint16_t *hi_row, const uint16_t *lo_row)
{
	simde__m512i hi = ttx_load16_u16(hi_row), lo = ttx_load16_u16(lo_row);
	simde__m512i mag = simde_mm512_or_si512(simde_mm512_slli_epi32(simde_mm512_and_si512(hi, splat(0xFF)), 23),
	                                        simde_mm512_slli_epi32(simde_mm512_and_si512(hi, splat(0x7F00)), 8));
	mag = simde_mm512_or_si512(mag, lo);
	simde__mmask16 neg = simde_mm512_test_epi32_mask(hi, splat(0x8000));
	return simde_mm512_mask_sub_epi32(mag, neg, simde_mm512_setzero_si512(), mag);
}

static inline __attribute__((always_inline)) void dst_int32_write16(uint16_t *hi_row, uint16_t *lo_row, simde__m512i v)
{
	simde__m512i mag = simde_mm512_abs_epi32(v);   /* never -2^31: saturated before */
	simde__m512i hi = simde_mm512_or_si512(simde_mm512_srli_epi32(mag, 23),
	                                       simde_mm512_and_si512(simde_mm512_srli_epi32(mag, 8), splat(0x7F00)));
	hi = simde_mm512_mask_or_epi32(hi, simde_mm512_cmpgt_epi32_mask(simde_mm512_setzero_si512(), v), hi,
	                               splat(0x8000));
	ttx_store16_u16(hi_row, hi);
	ttx_store16_u16(lo_row, mag);
}

/* SaturateAddInt32 (TC/MVMUL.md) of 16 lanes: the wrapped sum overflowed
   where both addends have one sign and the sum the other. */
static inline __attribute__((always_inline)) simde__m512i dst_int32_sat_add16(simde__m512i d, simde__m512i x)
{
	const simde__m512i max = splat(0x7FFFFFFF), min = splat(-0x7FFFFFFF), zero = simde_mm512_setzero_si512();
	simde__m512i s = simde_mm512_add_epi32(d, x);
	simde__mmask16 ovf = simde_mm512_cmpgt_epi32_mask(zero, simde_mm512_andnot_si512(
		simde_mm512_xor_si512(d, x), simde_mm512_xor_si512(d, s)));
	s = simde_mm512_mask_mov_epi32(s, ovf, simde_mm512_mask_mov_epi32(max, simde_mm512_cmpgt_epi32_mask(zero, d), min));
	return simde_mm512_max_epi32(s, min);
}

void ttx_matrix_dot_int(struct ttx_tile *t, const struct ttx_mop_operands *op, const uint32_t *const brows[],
                        const unsigned rows[], unsigned n, unsigned fmt_b, unsigned phase)
{
	for (unsigned i = 0; i < n; i++) {
		/* |products| < 2^20, so the pairs' sums and the total fit */
		simde__m512i acc = simde_mm512_setzero_si512();
		for (unsigned p = 0; p < TTX_COLS / 2; p++) {
			int32_t b0 = src_int8(ttx_truncate_src(brows[i][2 * p], fmt_b) & srcb_int_mask(phase));
			int32_t b1 = src_int8(ttx_truncate_src(brows[i][2 * p + 1], fmt_b) & srcb_int_mask(phase));
			simde__m512i b = splat((int32_t)(((uint32_t)b0 & 0xFFFF) | (uint32_t)b1 << 16));
			acc = simde_mm512_add_epi32(acc, simde_mm512_madd_epi16(simde_mm512_loadu_si512(op->i16[p]), b));
		}
		unsigned r = ttx_dst32_adj_row(rows[i] & 0x3FF);
		uint16_t *hi_row = t->dst[r], *lo_row = t->dst[(r + 8) & 0x3FF];
		simde__m512i sum = dst_int32_sat_add16(dst_int32_read16(hi_row, lo_row), acc);
		ttx_dst16_define(t, r);
		ttx_dst16_define(t, (r + 8) & 0x3FF);
		dst_int32_write16(hi_row, lo_row, sum);
	}
}

/* ---- Floating-point operations ----
 *
 * The multiply-accumulate datapath (MVMUL, DOTPV, GAPOOL, ELWMUL), fitted
 * bit for bit to the reference vectors (docs/matrix.md gives the evidence;
 * TC/MVMUL.md calls its own float model a rough guide).  ELWADD / ELWSUB
 * take the same path with A and +-B as the products
 * (ttx_matrix_elementwise):
 *
 * 1. Products: each multiplier forms the exact product of the significand
 *    bits its fidelity phase selects (TC/SrcASrcB.md: 5 bits of SrcA times
 *    7 bits of SrcB).  Its reference exponent is the leading position of
 *    those bits (phase_ref_offset), whatever their value; products with a
 *    zero operand or a reference exponent below the normal range
 *    (product_min_ref) take no part.
 * 2. Half sums: the 16 products of a dot product form two halves, k = 0-7
 *    and k = 8-15 (ELWMUL: one product).  In a half every product is
 *    rounded to a multiple of 2^(Rh - 10), Rh the largest reference
 *    exponent in the half, to nearest with ties away from zero (on the
 *    magnitude), and the half is summed exactly.  A product's lowest bit
 *    is at or above its reference - 10, so only the smaller ones lose bits.
 * 3. Dst: R = the largest of R0, R1 and the exponent of Dst; the grid is
 *    2^(R - W), W = 23 for 32-bit Dst and 10 for 16-bit Dst.  Each half sum
 *    (a two's complement number) is rounded to that grid half up (add half
 *    a unit, floor); Dst is rounded on its magnitude, ties away.  The three
 *    are added exactly.
 * 4. The total is rounded once into the Dst format: nearest, ties away;
 *    zero and results below the normal range give +0, results above it
 *    the overflow pattern (units_to_fields).  32-bit Dst only: a total of
 *    exactly -1 unit gives -(2^27 - 1) units (dst32_minus_one). */

/* The leading-bit position of the bits a fidelity phase feeds the
   multiplier, below the full operand's leading bit: SrcA's odd phases take
   significand bits 5..1 (5 lower), SrcB's phases 2-3 bits 3..0 (7 lower). */
static int phase_ref_offset(unsigned phase)
{
	return ((phase & 1) ? 5 : 0) + ((phase & 2) ? 7 : 0);
}

/* Step 1: the smallest reference exponent a product may have: the
   style's smallest normal exponent (FP16 -14, else -126).  A product below
   it is flushed like one with a zero operand: with FP16 data, ELWMUL's low
   phases on operands near 2^-5 add nothing (tests/vectors/fpu 0059, 0053;
   docs/matrix.md departure 11). */
static int product_min_ref(enum ttx_mstyle style)
{
	return style == TTX_MSTYLE_FP16 ? -14 : -126;
}

/* Step 3's grid width below R. */
static int accumulator_width(bool dst32)
{
	return dst32 ? 23 : 10;
}

/* Step 2's width below a half's reference exponent. */
#define HALF_WIDTH 10

/* A product (or Dst): value (-1)^sign * n * 2^e0, n < 2^25; ref is the
   reference exponent, NO_REF when an operand (or Dst) is zero. */
struct addend {
	uint32_t sign;
	uint32_t n;
	int e0, ref;
};

/* n * 2^-s rounded to nearest, ties away (n is a magnitude). */
static uint64_t round_magnitude(uint64_t n, int s)
{
	if (s <= 0)
		return n << -s;                 /* callers keep -s <= 15 */
	if (s > 40)
		return 0;                       /* n < 2^25: below half a unit */
	return (n + (1ull << (s - 1))) >> s;
}

/* x * 2^-s rounded to nearest, ties toward +infinity (x + half, floor):
   the rounding of a two's complement shifter. */
static int64_t round_half_up(int64_t x, int s)
{
	if (s <= 0)
		return x * ((int64_t)1 << -s);  /* -s <= 13 */
	if (s > 40)
		return 0;                       /* |x| < 2^16: below half a unit */
	int64_t y = x + ((int64_t)1 << (s - 1));
	return y >= 0 ? y >> s : -((-y + ((int64_t)1 << s) - 1) >> s);
}

/* Step 2: the half's sum in units of 2^(*rh - HALF_WIDTH); *rh = NO_REF
   when no product of the half takes part. */
static int64_t half_sum(const struct addend *p, unsigned n, int *rh)
{
	int r = NO_REF;
	for (unsigned i = 0; i < n; i++)
		if (p[i].ref > r)
			r = p[i].ref;
	*rh = r;
	if (r == NO_REF)
		return 0;
	int64_t sum = 0;
	for (unsigned i = 0; i < n; i++) {
		if (p[i].ref == NO_REF)
			continue;
		int64_t u = (int64_t)round_magnitude(p[i].n, r - HALF_WIDTH - p[i].e0);
		sum += p[i].sign ? -u : u;
	}
	return sum;
}

/* Steps 2-3 for nprod products (halves of 8) and Dst: the total in units
   of 2^*g (0 when every addend is zero). */
static int64_t accumulate(const struct addend *p, unsigned nprod, struct addend dst, bool dst32, int *g)
{
	int64_t hs[2];
	int rh[2];
	unsigned nh = 0;
	for (unsigned i = 0; i < nprod; i += 8, nh++)
		hs[nh] = half_sum(p + i, nprod - i < 8 ? nprod - i : 8, &rh[nh]);
	int r = dst.ref;
	for (unsigned h = 0; h < nh; h++)
		if (rh[h] > r)
			r = rh[h];
	*g = r - accumulator_width(dst32);
	if (r == NO_REF)
		return 0;
	int64_t sum = 0;
	for (unsigned h = 0; h < nh; h++)
		if (rh[h] != NO_REF)
			sum += round_half_up(hs[h], *g - (rh[h] - HALF_WIDTH));
	if (dst.ref != NO_REF) {
		int64_t u = (int64_t)round_magnitude(dst.n, *g - dst.e0);
		sum += dst.sign ? -u : u;
	}
	return sum;
}

/* 32-bit Dst: a total of exactly -1 unit is written as -(2^27 - 1) units,
   i.e. -2^(R + 4) after rounding (five cells of tests/vectors/fpu,
   docs/matrix.md departure 10): as if the sum register (27 magnitude bits,
   R+3 .. R-23) negated -1 to all ones.  Every other total, -2 included,
   converts exactly; into 16-bit Dst -1 converts exactly too. */
static int64_t dst32_minus_one(int64_t units, bool dst32)
{
	return dst32 && units == -1 ? -(((int64_t)1 << 27) - 1) : units;
}

/* Step 4: units * 2^g rounded to nearest, ties away, into sign, exponent
   (bias, fields 1..emax) and `man` mantissa bits, packed sign << (ebits +
   man) | exp << man | mantissa.  Zero and results below the normal range
   give +0 (the vectors); above it ovf_exp / ovf_man (TC/FloatBitPatterns.md
   (‡): the Matrix Unit writes that pattern for too-large magnitudes). */
static uint32_t units_to_fields(int64_t units, int g, int man, int ebits, int bias, uint32_t emax,
                                uint32_t ovf_exp, uint32_t ovf_man)
{
	if (units == 0)
		return 0;
	uint32_t sign = units < 0;
	uint64_t m = units < 0 ? (uint64_t)-units : (uint64_t)units;
	int lead = 63 - __builtin_clzll(m);
	uint64_t q;
	if (lead > man) {
		int sh = lead - man;
		q = (m + (1ull << (sh - 1))) >> sh;
	} else {
		q = m << (man - lead);
	}
	int e = g + lead;
	if (q >> (man + 1)) {
		q >>= 1;
		e++;
	}
	int field = e + bias;
	if (field <= 0)
		return 0;
	if ((uint32_t)field > emax)
		return (sign << (ebits + man)) | (ovf_exp << man) | ovf_man;
	return (sign << (ebits + man)) | ((uint32_t)field << man) | ((uint32_t)q & ((1u << man) - 1));
}

/* Step 4 on a double (exposed for the tests); zero and double denormals
   (far below every Dst range) give +0. */
static uint32_t double_to_fields(double v, int man, int ebits, int bias, uint32_t emax,
                                 uint32_t ovf_exp, uint32_t ovf_man)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	int e = (int)((bits >> 52) & 0x7FF);
	if (e == 0)
		return 0;
	int64_t m = (int64_t)((bits & ((1ull << 52) - 1)) | 1ull << 52);
	return units_to_fields(bits >> 63 ? -m : m, e - 1075, man, ebits, bias, emax, ovf_exp, ovf_man);
}

uint32_t ttx_mfp_to_fp32(double v) { return double_to_fields(v, 23, 8, 127, 254, 255, 0); }
uint16_t ttx_mfp_to_bf16(double v) { return (uint16_t)double_to_fields(v, 7, 8, 127, 254, 255, 0); }
uint16_t ttx_mfp_to_fp16(double v) { return (uint16_t)double_to_fields(v, 10, 5, 15, 31, 31, 0x3FF); }

/* The Dst addend, exactly (TC/Dst.md layouts; denormals read as zero). */
static struct addend dst_addend(const struct ttx_tile *t, bool dst32, enum ttx_mstyle style,
                                unsigned row, unsigned col)
{
	struct addend d;
	uint32_t exp, man;
	int mbits, bias;
	if (dst32) {
		uint32_t x = ttx_unshuffle_fp32(ttx_dst32_get(t, row, col));
		d.sign = x >> 31, exp = (x >> 23) & 0xFF, man = x & 0x7FFFFF, mbits = 23, bias = 127;
	} else {
		uint32_t x = t->dst[row & 0x3FF][col];
		d.sign = x >> 15;
		if (style == TTX_MSTYLE_FP16)
			exp = x & 0x1F, man = (x >> 5) & 0x3FF, mbits = 10, bias = 15;
		else
			exp = x & 0xFF, man = (x >> 8) & 0x7F, mbits = 7, bias = 127;
	}
	if (!exp) {
		d.n = 0, d.e0 = 0, d.ref = NO_REF;
		return d;
	}
	d.n = (1u << mbits) | man;
	d.ref = (int)exp - bias;
	d.e0 = d.ref - mbits;
	return d;
}

/* Step 1 for A * B: the product of the significand bits the phase
   selects (< 2^22), at e0 = ea + eb - 20, with its reference exponent. */
static struct addend product_addend(struct src_val a, struct src_val b, unsigned phase, enum ttx_mstyle style)
{
	struct addend p;
	int ref = src_ref(a) + src_ref(b) - phase_ref_offset(phase);
	p.sign = a.sign ^ b.sign;
	p.n = (a.sig & srca_sig_mask(phase)) * (b.sig & srcb_sig_mask(phase));
	p.ref = a.exp && b.exp && ref >= product_min_ref(style) ? ref : NO_REF;
	p.e0 = src_ref(a) + src_ref(b) - 20;
	return p;
}

static void dst_write_units(struct ttx_tile *t, bool dst32, enum ttx_mstyle style, unsigned row,
                            unsigned col, int64_t units, int g)
{
	if (dst32) {
		uint32_t f = units_to_fields(units, g, 23, 8, 127, 254, 255, 0);
		ttx_matrix_dst32_put(t, row, col, ttx_shuffle_fp32(f));
	} else if (style == TTX_MSTYLE_FP16) {
		uint32_t h = units_to_fields(units, g, 10, 5, 15, 31, 31, 0x3FF);
		ttx_matrix_dst16_put(t, row, col, (uint16_t)((h & 0x8000) | ((h & 0x3FF) << 5) | ((h >> 10) & 0x1F)));
	} else {
		uint32_t h = units_to_fields(units, g, 7, 8, 127, 254, 255, 0);
		ttx_matrix_dst16_put(t, row, col, (uint16_t)((h & 0x8000) | ((h & 0x7F) << 8) | ((h >> 7) & 0xFF)));
	}
}


void ttx_matrix_dot_fp_scalar(struct ttx_tile *t, const uint32_t (*arows)[TTX_COLS], unsigned fmt_a,
                              const uint32_t brow[TTX_COLS], unsigned fmt_b, unsigned phase,
                              enum ttx_mstyle style, bool dst32, unsigned row)
{
	for (unsigned j = 0; j < TTX_COLS; j++) {
		struct addend p[TTX_COLS];
		for (unsigned k = 0; k < TTX_COLS; k++)
			p[k] = product_addend(src_decode(arows[k][j], style, fmt_a), src_decode(brow[k], style, fmt_b),
			                      phase, style);
		int g;
		int64_t units = accumulate(p, TTX_COLS, dst_addend(t, dst32, style, row, j), dst32, &g);
		dst_write_units(t, dst32, style, row, j, dst32_minus_one(units, dst32), g);
	}
}

/* ---- The same datapath for one Dst row, 16 columns as 16 lanes ----
 *
 * Steps 1-3 of accumulate() in 32-bit lanes, bit for bit (checked against
 * the scalar model on random data: tests/test_matrix.c
 * test_fp_simd_matches_scalar).  Widths: a product n < 2^22; a half sum
 * |h| < 8 * 2^12 units; shifted onto the grid (at most 13 places left) and
 * with Dst (< 2^27 units) the total stays below 2^30.  Variable shifts by
 * 32 or more give 0, which is the rounding of anything that far below the
 * grid; lanes whose addend takes no part are masked off. */

/* Unsigned n * 2^-s rounded to nearest, ties away, per lane; s >= -3. */
static inline __attribute__((always_inline)) simde__m512i round_magnitude16(simde__m512i n, simde__m512i s)
{
	const simde__m512i one = splat(1), zero = simde_mm512_setzero_si512();
	simde__m512i right = simde_mm512_srlv_epi32(
		simde_mm512_add_epi32(n, simde_mm512_sllv_epi32(one, simde_mm512_sub_epi32(s, one))), s);
	simde__m512i left = simde_mm512_sllv_epi32(n, simde_mm512_sub_epi32(zero, s));
	return ttx_lm_mov(right, ttx_lm_cmpgt(one, s), left);   /* s <= 0 */
}

/* The same for Dst's significands, n < 2^25: (n 2^3 + half) >> (s + 3),
   with no left shift to choose (shifts by 32 or more give 0, below half a
   unit). */
static inline __attribute__((always_inline)) simde__m512i round_dst16(simde__m512i n, simde__m512i s)
{
	simde__m512i s3 = simde_mm512_add_epi32(s, splat(3));
	simde__m512i half = simde_mm512_sllv_epi32(splat(1), simde_mm512_sub_epi32(s3, splat(1)));   /* 0 for s3 = 0 */
	return simde_mm512_srlv_epi32(simde_mm512_add_epi32(simde_mm512_slli_epi32(n, 3), half), s3);
}

/* Signed x * 2^-t rounded half up, per lane; |x| < 2^15, t >= -13, or
   t >= 0 unless `left` (16-bit Dst: no left shift).  With left, the floor
   of y = x 2^13 + half by 2^(t + 13), else of y = x + half by 2^t, by an
   arithmetic shift (with the count at most 31, where the result is 0
   already), or elsewhere (SIMDe has no 512-bit variable arithmetic shift)
   on y + 2^30, which is positive, less 2^30 shifted, with the count at
   most 30. */
static inline __attribute__((always_inline)) simde__m512i round_half_up16(simde__m512i x, simde__m512i t, bool left)
{
	if (left) {
		x = simde_mm512_slli_epi32(x, 13);
		t = simde_mm512_add_epi32(t, splat(13));
	}
#if defined(SIMDE_X86_AVX512F_NATIVE) || defined(TTX_SIMD16_GENERIC)   /* (simd16.h has srav there) */
	simde__m512i tc = simde_mm512_min_epi32(t, splat(31));
	simde__m512i half = simde_mm512_sllv_epi32(splat(1), simde_mm512_sub_epi32(tc, splat(1)));   /* 0 for tc = 0 */
	return simde_mm512_srav_epi32(simde_mm512_add_epi32(x, half), tc);
#else
	const simde__m512i bias = splat(1 << 30);
	simde__m512i tc = simde_mm512_min_epi32(t, splat(30));
	simde__m512i half = simde_mm512_sllv_epi32(splat(1), simde_mm512_sub_epi32(tc, splat(1)));   /* 0 for tc = 0 */
	simde__m512i y = simde_mm512_add_epi32(x, half);
	return simde_mm512_sub_epi32(simde_mm512_srlv_epi32(simde_mm512_add_epi32(y, bias), tc),
	                             simde_mm512_srlv_epi32(bias, tc));
#endif
}

/* Dst's 16 values of a row as addends (dst_addend for 16 lanes). */
struct dst16 {
	simde__m512i n, e0, ref;
	ttx_lmask16 neg;
};

static inline __attribute__((always_inline)) struct dst16 dst_read16(const struct ttx_tile *t, bool dst32,
                                                                     enum ttx_mstyle style, unsigned row)
{
	unsigned r = dst32 ? ttx_dst32_adj_row(row & 0x3FF) : row & 0x3FF;
	simde__m512i hi = ttx_load16_u16(t->dst[r]), e, man;
	int mbits, bias;
	if (!dst32 && style == TTX_MSTYLE_FP16) {
		/* Sign, Man10, Exp5 */
		e = simde_mm512_and_si512(hi, splat(0x1F));
		man = simde_mm512_and_si512(simde_mm512_srli_epi32(hi, 5), splat(0x3FF));
		mbits = 10, bias = 15;
	} else {
		/* Sign, Man7, Exp8; for FP32 the low 16 mantissa bits 8 rows on */
		e = simde_mm512_and_si512(hi, splat(0xFF));
		man = simde_mm512_and_si512(simde_mm512_srli_epi32(hi, 8), splat(0x7F));
		mbits = 7, bias = 127;
		if (dst32) {
			man = simde_mm512_or_si512(simde_mm512_slli_epi32(man, 16), ttx_load16_u16(t->dst[(r + 8) & 0x3FF]));
			mbits = 23;
		}
	}
	ttx_lmask16 nz = ttx_lm_test(e, e);
	struct dst16 d;
	d.n = ttx_lm_maskz(nz, simde_mm512_or_si512(man, splat(1 << mbits)));
	d.ref = ttx_lm_mov(splat(NO_REF), nz, simde_mm512_sub_epi32(e, splat(bias)));
	d.e0 = simde_mm512_sub_epi32(d.ref, splat(mbits));
	d.neg = ttx_lm_and(nz, ttx_lm_test(hi, splat(0x8000)));
	return d;
}

/* Step 2 for a pair of SrcB rows and a half k0..k0+7, in 16-bit lanes:
   lane 2c + i is column c of the pair's row i.  The phase's bits of each
   operand as small integers (SrcA's 5; SrcB's 7 or, in phases 2-3, its 4
   low bits times 8) make a product p < 2^12 in units of 2^(ref - 10), ref
   its reference exponent (phase_ref_offset; the x 8 brings phases 2-3 to
   that footing).  So product k is p 2^-(Rh - ref) grid units, rounded ties
   away, and 8 of them sum below 2^15.  The rounding is one mulhrs, (x m +
   2^14) >> 15 with m = 2^(14 - d), d = Rh - ref (m = 0 from d = 15 on: the
   product is below half a unit): x = 2p gives floor(p 2^-d + 1/2) for
   p >= 0, and x = 2p - 1 gives -floor(|p| 2^-d + 1/2) for p < 0.
   Exponents add with saturation, so zero operands (NO_REF16) stay far
   below every real one and never set Rh; their p is 0.  masked: products
   below min_ref may have non-zero p and are masked off.  Out: the sums
   and Rh (NO_REF16 region where no product takes part). */
static inline __attribute__((always_inline)) void half_sums_pair(const struct ttx_mop_operands *op,
	const int32_t bref[TTX_COLS], const int32_t bsig[TTX_COLS], unsigned k0, bool masked, int min_ref,
	simde__m512i *sum, simde__m512i *rh)
{
	const simde__m512i one = simde_mm512_set1_epi16(1), lo = simde_mm512_set1_epi16((int16_t)min_ref);
	simde__m512i b[8], r = simde_mm512_set1_epi16(INT16_MIN);
#pragma GCC unroll 8
	for (unsigned i = 0; i < 8; i++) {
		/* the pair's two rows in each 32-bit lane */
		b[i] = simde_mm512_adds_epi16(simde_mm512_loadu_si512(op->ref16[k0 + i]), simde_mm512_set1_epi32(bref[k0 + i]));
		if (masked)
			r = ttx_max_epi16_where_ge(r, b[i], lo);
		else
			r = simde_mm512_max_epi16(r, b[i]);
	}
	simde__m512i c = simde_mm512_subs_epi16(simde_mm512_set1_epi16(14), r), acc = simde_mm512_setzero_si512();
#pragma GCC unroll 8
	for (unsigned i = 0; i < 8; i++) {
		simde__m512i m = simde_mm512_sllv_epi16(one, simde_mm512_adds_epi16(b[i], c));
		simde__m512i x = simde_mm512_mullo_epi16(simde_mm512_loadu_si512(op->sig16[k0 + i]),
		                                         simde_mm512_set1_epi32(bsig[k0 + i]));
		x = simde_mm512_add_epi16(x, simde_mm512_srai_epi16(x, 15));
		simde__m512i u = simde_mm512_mulhrs_epi16(x, m);
		if (masked)
			acc = ttx_add_epi16_where_ge(acc, u, b[i], lo);
		else
			acc = simde_mm512_add_epi16(acc, u);
	}
	*sum = acc;
	*rh = r;
}

/* The 32-bit lanes of row i (0, 1) of a pair from its 16-bit lanes: the
   16 bits sign-extended (elsewhere the sign from a 16-bit shift: SIMDe
   has no 512-bit arithmetic shift of 32-bit lanes). */
static inline __attribute__((always_inline)) simde__m512i pair_row(simde__m512i v, unsigned i)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
	return _mm512_srai_epi32(i ? v : _mm512_slli_epi32(v, 16), 16);
#elif defined(TTX_SIMD16_GENERIC)
	return ttx_half16(v, i);
#else
	simde__m512i sign = simde_mm512_srai_epi16(v, 15);
	if (i)
		return simde_mm512_mask_blend_epi16(0xAAAAAAAAu, simde_mm512_srli_epi32(v, 16), sign);
	return simde_mm512_mask_blend_epi16(0xAAAAAAAAu, v, simde_mm512_slli_epi32(sign, 16));
#endif
}

/* Step 3 for the 16 columns of one row from the half sums: *units * 2^*g
   per lane. */
static inline __attribute__((always_inline)) void accumulate_row16(const simde__m512i hs[2], const simde__m512i rh[2],
                                                                   const struct dst16 *dst, bool dst32,
                                                                   simde__m512i *units, simde__m512i *g)
{
	/* no masks: a half without products has sum 0 (and rh NO_REF or
	   NO_REF16's region), a zero Dst n = 0, and every rounding of 0 is 0 */
	simde__m512i r = simde_mm512_max_epi32(simde_mm512_max_epi32(rh[0], rh[1]), dst->ref);
	simde__m512i vg = simde_mm512_sub_epi32(r, splat(accumulator_width(dst32)));
	simde__m512i vg10 = simde_mm512_add_epi32(vg, splat(HALF_WIDTH));
	simde__m512i total = simde_mm512_add_epi32(round_half_up16(hs[0], simde_mm512_sub_epi32(vg10, rh[0]), dst32),
	                                           round_half_up16(hs[1], simde_mm512_sub_epi32(vg10, rh[1]), dst32));
	simde__m512i du = round_dst16(dst->n, simde_mm512_sub_epi32(vg, dst->e0));
	*units = ttx_lm_mov(simde_mm512_add_epi32(total, du), dst->neg, simde_mm512_sub_epi32(total, du));
	*g = vg;
}

/* Step 4 (units_to_fields, dst32_minus_one) for 16 lanes: |units| < 2^30. */
static inline __attribute__((always_inline)) simde__m512i units_to_fields16(simde__m512i units, simde__m512i g,
	bool dst32, int man, int ebits, int bias, int emax, uint32_t ovf_exp, uint32_t ovf_man)
{
	const simde__m512i zero = simde_mm512_setzero_si512();
	if (dst32)
		units = ttx_lm_mov(units, ttx_lm_cmpeq(units, splat(-1)), splat(-((1 << 27) - 1)));
	ttx_lmask16 nz = ttx_lm_test(units, units);
	ttx_lmask16 neg = ttx_lm_cmpgt(zero, units);
	simde__m512i m = simde_mm512_abs_epi32(units);
	/* the shift that moves m's leading bit to bit 30 (AVX-512CD counts
	   leading zeros; SIMDe lacks it: elsewhere from the exponent of m as a
	   float, less one where the conversion rounded m up to the next power
	   of two) */
#if defined(SIMDE_X86_AVX512CD_NATIVE)
	simde__m512i shift = _mm512_sub_epi32(_mm512_lzcnt_epi32(m), splat(1));
#else
#if defined(TTX_SIMD16_GENERIC)
	/* m < 2^30: the signed conversion (one instruction; the unsigned one
	   takes several without AVX-512) */
	ttx_v512 fm;
	TTX_PARTS(k) fm.p[k] = (ttx_vi)__builtin_convertvector(m.p[k], ttx_vf);
#else
	simde__m512i fm = simde_mm512_castps_si512(simde_mm512_cvtepu32_ps(m));
#endif
	simde__m512i lead = simde_mm512_sub_epi32(simde_mm512_srli_epi32(fm, 23), splat(127));
	simde__m512i above = simde_mm512_srlv_epi32(m, lead);
	lead = ttx_lm_mov(lead, ttx_lm_cmpeq(above, zero), simde_mm512_sub_epi32(lead, splat(1)));
	simde__m512i shift = simde_mm512_sub_epi32(splat(30), lead);
#endif
	/* man + 1 bits, ties away: m shifted, plus half a unit, shifted down:
	   q in [2^man, 2^(man + 1)] */
	simde__m512i q = simde_mm512_srli_epi32(simde_mm512_add_epi32(simde_mm512_sllv_epi32(m, shift),
	                                                              splat(1 << (29 - man))), (unsigned)(30 - man));
	/* the fields: the exponent less one (g + lead + bias - 1, lead = 30 -
	   shift) above the mantissa, plus q, whose leading bit brings the
	   exponent up (by two when the rounding carried into 2^(man + 1)).
	   The range checks on f itself where the shift cannot overflow
	   (16-bit Dst), else on the field after the carry. */
	simde__m512i e = simde_mm512_sub_epi32(simde_mm512_add_epi32(g, splat(bias + 29)), shift);
	simde__m512i f = simde_mm512_add_epi32(simde_mm512_slli_epi32(e, (unsigned)man), q);
	ttx_lmask16 keep, over;
	if (dst32) {
		simde__m512i field = simde_mm512_add_epi32(e, simde_mm512_srli_epi32(q, (unsigned)man));
		keep = ttx_lm_and(nz, ttx_lm_cmpgt(field, zero));
		over = ttx_lm_cmpgt(field, splat(emax));
	} else {
		keep = ttx_lm_and(nz, ttx_lm_cmpgt(f, splat((1 << man) - 1)));
		over = ttx_lm_cmpgt(f, splat(((emax + 1) << man) - 1));
	}
	f = ttx_lm_mov(f, over, splat((int32_t)(ovf_exp << man | ovf_man)));
	f = ttx_lm_mov(f, neg, simde_mm512_or_si512(f, splat((int32_t)(1u << (ebits + man)))));
	return ttx_lm_maskz(keep, f);
}

/* Step 4 and the write of one Dst row in its layout (TC/Dst.md), as
   dst_write_units.  The layouts by bit selects (ternary logic 0xCA: mask ?
   b : c); the stores keep the low 16 bits. */
static inline __attribute__((always_inline)) void dst_write16(struct ttx_tile *t, bool dst32, enum ttx_mstyle style,
                                                              unsigned row, simde__m512i units, simde__m512i g)
{
	simde__m512i f, h;
	if (dst32) {   /* Sign, Man7 (high), Exp8; the low 16 mantissa bits 8 rows on */
		f = units_to_fields16(units, g, true, 23, 8, 127, 254, 255, 0);
		h = simde_mm512_ternarylogic_epi32(splat(0x8000), simde_mm512_srli_epi32(f, 16), simde_mm512_srli_epi32(f, 23),
		                                   0xCA);
		h = simde_mm512_ternarylogic_epi32(splat(0x7F00), simde_mm512_srli_epi32(f, 8), h, 0xCA);
	} else if (style == TTX_MSTYLE_FP16) {   /* Sign, Man10, Exp5 */
		f = units_to_fields16(units, g, false, 10, 5, 15, 31, 31, 0x3FF);
		h = simde_mm512_ternarylogic_epi32(splat(0x7FE0), simde_mm512_slli_epi32(f, 5), simde_mm512_srli_epi32(f, 10),
		                                   0xCA);
		h = simde_mm512_ternarylogic_epi32(splat(0x8000), f, h, 0xCA);
	} else {   /* Sign, Man7, Exp8 */
		f = units_to_fields16(units, g, false, 7, 8, 127, 254, 255, 0);
		h = simde_mm512_ternarylogic_epi32(splat(0x7F00), simde_mm512_slli_epi32(f, 8), simde_mm512_srli_epi32(f, 7),
		                                   0xCA);
		h = simde_mm512_ternarylogic_epi32(splat(0x8000), f, h, 0xCA);
	}
	unsigned r = dst32 ? ttx_dst32_adj_row(row & 0x3FF) : row & 0x3FF;
	ttx_dst16_define(t, r);
	ttx_store16_u16(t->dst[r], h);
	if (dst32) {
		ttx_dst16_define(t, (r + 8) & 0x3FF);
		ttx_store16_u16(t->dst[(r + 8) & 0x3FF], f);
	}
}

/* Steps 3-4 for n rows from their half sums. */
static inline __attribute__((always_inline)) void steps34(struct ttx_tile *t, bool dst32, enum ttx_mstyle style,
                                                          const unsigned rows[], unsigned n,
                                                          simde__m512i hs[][2], simde__m512i rh[][2])
{
	simde__m512i units[8], g[8];
	for (unsigned i = 0; i < n; i++) {
		struct dst16 d = dst_read16(t, dst32, style, rows[i]);
		accumulate_row16(hs[i], rh[i], &d, dst32, &units[i], &g[i]);
	}
	for (unsigned i = 0; i < n; i++)
		dst_write16(t, dst32, style, rows[i], units[i], g[i]);
}

void ttx_matrix_dot_fp(struct ttx_tile *t, const struct ttx_mop_operands *op, const uint32_t *const brows[],
                       const unsigned rows[], unsigned n, unsigned fmt_b, unsigned phase,
                       enum ttx_mstyle style, bool dst32)
{
	int min_ref = product_min_ref(style), off = phase_ref_offset(phase);
	/* per pair of rows and k, the two rows' exponents and phase bits */
	int32_t bref[4][TTX_COLS], bsig[4][TTX_COLS];
	simde__m512i lo = splat(INT32_MAX);
	for (unsigned pair = 0; 2 * pair < n; pair++) {
		/* SrcB's 7 bits 10..4, or in phases 2-3 its 4 bits 3..0 times 8;
		   a missing 8th row is zero */
		simde__m512i r[2] = { splat(NO_REF16), splat(NO_REF16) }, s[2] = { splat(0), splat(0) };
		for (unsigned i = 0; i < 2 && 2 * pair + i < n; i++)
			step2_operands16(brows[2 * pair + i], style, fmt_b, srcb_sig_mask(phase), (phase & 2) ? -3 : 4,
			                 off, &r[i], &s[i], &lo);
		simde_mm512_storeu_si512(bref[pair], pair_pack(r[0], r[1]));
		simde_mm512_storeu_si512(bsig[pair], pair_pack(s[0], s[1]));
	}
	int blo = ttx_reduce_min16(lo);
	bool masked = blo != INT32_MAX && op->ref_lo != INT32_MAX && blo + op->ref_lo - off < min_ref;
	/* stage by stage over the rows: the rows' work is independent, and
	   each stage's loop overlaps its iterations' latencies */
	simde__m512i hs[8][2], rh[8][2];
	for (unsigned pair = 0; 2 * pair < n; pair++)
		for (unsigned h = 0; h < 2; h++) {
			simde__m512i sum, r;
			if (masked)   /* (two copies, each with its loops unrolled) */
				half_sums_pair(op, bref[pair], bsig[pair], 8 * h, true, min_ref, &sum, &r);
			else
				half_sums_pair(op, bref[pair], bsig[pair], 8 * h, false, min_ref, &sum, &r);
			/* (a half without products keeps an Rh of about NO_REF16,
			   which step 3's maximum never takes over a real one) */
			for (unsigned i = 0; i < 2; i++) {
				hs[2 * pair + i][h] = pair_row(sum, i);
				rh[2 * pair + i][h] = pair_row(r, i);
			}
		}
	if (dst32)   /* (one copy per Dst layout, its constants folded) */
		steps34(t, true, TTX_MSTYLE_BF16, rows, n, hs, rh);
	else if (style == TTX_MSTYLE_FP16)
		steps34(t, false, TTX_MSTYLE_FP16, rows, n, hs, rh);
	else
		steps34(t, false, style, rows, n, hs, rh);
}

void ttx_matrix_elementwise_scalar(struct ttx_tile *t, enum ttx_elw_op eop, const uint32_t a[TTX_COLS],
                                   const uint32_t b[TTX_COLS], unsigned fmt_a, unsigned fmt_b,
                                   unsigned phase, enum ttx_mstyle style, bool dst32, bool add_dst,
                                   unsigned row)
{
	for (unsigned j = 0; j < TTX_COLS; j++) {
		if (style == TTX_MSTYLE_INT8) {
			int32_t x;
			if (eop == TTX_ELW_MUL) {
				x = src_int8(ttx_truncate_src(a[j], fmt_a) & srca_int_mask(phase))
				    * src_int8(ttx_truncate_src(b[j], fmt_b) & srcb_int_mask(phase));
			} else {
				int32_t ai = src_int8(ttx_truncate_src(a[j], fmt_a));
				int32_t bi = src_int8(ttx_truncate_src(b[j], fmt_b));
				x = eop == TTX_ELW_ADD ? ai + bi : ai - bi;
			}
			if (add_dst)
				x = ttx_sat_add_int32(x, ttx_dst_decode_int32(ttx_dst32_get(t, row, j)));
			ttx_matrix_dst32_put(t, row, j, ttx_dst_encode_int32(x));
			continue;
		}
		struct src_val av = src_decode(a[j], style, fmt_a), bv = src_decode(b[j], style, fmt_b);
		int off = phase_ref_offset(phase);
		struct addend p[2];
		unsigned n;
		if (eop == TTX_ELW_MUL) {
			/* Dst += A * B: the datapath above with one product. */
			p[0] = product_addend(av, bv, phase, style);
			n = 1;
		} else {
			/* A +- B (TC/ELWADD.md, TC/ELWSUB.md): the whole significands
			   (no phase mask) take the place of two products, scaled by the
			   phase divide (2^-5 odd phases, 2^-7 phases 2-3), so they are
			   aligned to the larger exponent with 10 bits below it. */
			p[0].sign = av.sign;
			p[1].sign = bv.sign ^ (eop == TTX_ELW_SUB);
			p[0].n = av.sig, p[1].n = bv.sig;
			p[0].ref = av.exp ? src_ref(av) - off : NO_REF;
			p[1].ref = bv.exp ? src_ref(bv) - off : NO_REF;
			p[0].e0 = p[0].ref - 10, p[1].e0 = p[1].ref - 10;
			n = 2;
		}
		struct addend d = { 0, 0, 0, NO_REF };
		if (add_dst)
			d = dst_addend(t, dst32, style, row, j);
		int g;
		int64_t units = dst32_minus_one(accumulate(p, n, d, dst32, &g), dst32);
		dst_write_units(t, dst32, style, row, j, units, g);
	}
}

/* ReadSrcInt8 after the phase mask (src_int8) for 16 data. */
static inline __attribute__((always_inline)) simde__m512i src_int8_16(const uint32_t x[TTX_COLS], unsigned fmt, uint32_t mask)
{
	simde__m512i v = simde_mm512_and_si512(simde_mm512_loadu_si512(x),
	                                       splat((int32_t)(ttx_truncate_src(0x7FFFFu, fmt) & mask)));
	simde__mmask16 nz = simde_mm512_test_epi32_mask(v, splat(0xFF));
	simde__m512i m = simde_mm512_maskz_and_epi32(nz, simde_mm512_srli_epi32(v, 8), splat(0x3FF));
	return simde_mm512_mask_sub_epi32(m, simde_mm512_test_epi32_mask(v, splat(1 << 18)),
	                                  simde_mm512_setzero_si512(), m);
}

/* The signed magnitudes sig (sign in bit 31) of the lanes in `take`,
   rounded by round_magnitude16 with shift s, added to sum. */
static inline __attribute__((always_inline)) simde__m512i add_signed16(simde__m512i sum, simde__mmask16 take, simde__m512i sig, simde__m512i n,
                                 simde__m512i s)
{
	simde__m512i u = round_magnitude16(n, s);
	simde__mmask16 neg = simde_mm512_test_epi32_mask(sig, splat(INT32_MIN));
	sum = simde_mm512_mask_add_epi32(sum, take & (simde__mmask16)~neg, sum, u);
	return simde_mm512_mask_sub_epi32(sum, take & neg, sum, u);
}

/* ttx_matrix_elementwise_scalar for the 16 columns at once: the same
   steps with one half (ELWMUL: the product; ELWADD/ELWSUB: A and +-B) and
   Dst, through accumulate_row16 and dst_write16. */
void ttx_matrix_elementwise(struct ttx_tile *t, enum ttx_elw_op eop, const uint32_t a[TTX_COLS],
                            const uint32_t b[TTX_COLS], unsigned fmt_a, unsigned fmt_b,
                            unsigned phase, enum ttx_mstyle style, bool dst32, bool add_dst,
                            unsigned row)
{
	const simde__m512i noref = splat(NO_REF), zero = simde_mm512_setzero_si512();
	if (style == TTX_MSTYLE_INT8) {
		simde__m512i x;
		if (eop == TTX_ELW_MUL) {
			x = simde_mm512_mullo_epi32(src_int8_16(a, fmt_a, srca_int_mask(phase)),
			                            src_int8_16(b, fmt_b, srcb_int_mask(phase)));
		} else {
			simde__m512i ai = src_int8_16(a, fmt_a, 0x7FFFFu), bi = src_int8_16(b, fmt_b, 0x7FFFFu);
			x = eop == TTX_ELW_ADD ? simde_mm512_add_epi32(ai, bi) : simde_mm512_sub_epi32(ai, bi);
		}
		unsigned r = ttx_dst32_adj_row(row & 0x3FF);
		uint16_t *hi_row = t->dst[r], *lo_row = t->dst[(r + 8) & 0x3FF];
		if (add_dst)
			x = dst_int32_sat_add16(dst_int32_read16(hi_row, lo_row), x);
		ttx_dst16_define(t, r);
		ttx_dst16_define(t, (r + 8) & 0x3FF);
		dst_int32_write16(hi_row, lo_row, x);
		return;
	}
	int off = phase_ref_offset(phase);
	bool mul = eop == TTX_ELW_MUL;
	simde__m512i va, vb, ea, eb;
	decode16(a, style, fmt_a, mul ? srca_sig_mask(phase) : 0x7FFu, &va, &ea);
	decode16(b, style, fmt_b, mul ? srcb_sig_mask(phase) : 0x7FFu, &vb, &eb);
	simde__m512i na = simde_mm512_and_si512(va, splat(0x7FF)), nb = simde_mm512_and_si512(vb, splat(0x7FF));
	simde__mmask16 a_nz = (simde__mmask16)~simde_mm512_cmpeq_epi32_mask(ea, noref);
	simde__mmask16 b_nz = (simde__mmask16)~simde_mm512_cmpeq_epi32_mask(eb, noref);
	simde__m512i hs[2] = { zero, zero }, rh[2] = { noref, noref };
	if (mul) {
		/* product_addend: ref = ea + eb - off, e0 = ea + eb - 20, so the
		   half's shift Rh - 10 - e0 is 10 - off in every lane */
		simde__m512i ref = simde_mm512_sub_epi32(simde_mm512_add_epi32(ea, eb), splat(off));
		simde__mmask16 take = a_nz & b_nz & simde_mm512_cmpge_epi32_mask(ref, splat(product_min_ref(style)));
		hs[0] = add_signed16(zero, take, simde_mm512_xor_si512(va, vb), simde_mm512_mullo_epi32(na, nb),
		                     splat(10 - off));
		rh[0] = simde_mm512_mask_mov_epi32(noref, take, ref);
	} else {
		/* A and +-B with e0 = ref - 10, ref = the datum's exponent - off */
		if (eop == TTX_ELW_SUB)
			vb = simde_mm512_xor_si512(vb, splat(INT32_MIN));
		ea = simde_mm512_mask_sub_epi32(noref, a_nz, ea, splat(off));
		eb = simde_mm512_mask_sub_epi32(noref, b_nz, eb, splat(off));
		simde__m512i r = simde_mm512_max_epi32(ea, eb);
		simde__m512i sum = add_signed16(zero, a_nz, va, na, simde_mm512_sub_epi32(r, ea));
		hs[0] = add_signed16(sum, b_nz, vb, nb, simde_mm512_sub_epi32(r, eb));
		rh[0] = r;
	}
	struct dst16 d = { .n = zero, .e0 = zero, .ref = noref };   /* (neg: none) */
	if (add_dst)
		d = dst_read16(t, dst32, style, row);
	simde__m512i units, g;
	accumulate_row16(hs, rh, &d, dst32, &units, &g);
	dst_write16(t, dst32, style, row, units, g);
}
