/* Data formats: the table (src/formats.h) and the host-side conversions of
 * ttx.h (encode, decode, tilize, untilize).  The conversions are written
 * from the format definitions (TC/FloatBitPatterns.md,
 * TC/Packers/FormatConversion.md "Final L1 output format") in double
 * precision, independently of the emulated unpackers and packers, which the
 * tests compare them with.  docs/formats.md states every choice. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "formats.h"

static const struct ttx_format_info formats[17] = {
	[TTX_FORMAT_FP32]  = { "fp32",  TTX_FMT_FP32,  32, 8, 23, 0, 0, 0, 127 },
	[TTX_FORMAT_FP16]  = { "fp16",  TTX_FMT_FP16,  16, 5, 10, 0, 0, 0, 15 },
	[TTX_FORMAT_BFP8A] = { "bfp8a", TTX_FMT_BFP8A,  8, 5, 7, 1, 0, 0, 15 },
	[TTX_FORMAT_BFP4A] = { "bfp4a", TTX_FMT_BFP4A,  4, 5, 3, 1, 0, 0, 15 },
	[TTX_FORMAT_TF32]  = { "tf32",  TTX_FMT_TF32,  32, 8, 10, 0, 0, 0, 127 },
	[TTX_FORMAT_BF16]  = { "bf16",  TTX_FMT_BF16,  16, 8, 7, 0, 0, 0, 127 },
	[TTX_FORMAT_BFP8]  = { "bfp8",  TTX_FMT_BFP8,   8, 8, 7, 1, 0, 0, 127 },
	[TTX_FORMAT_BFP4]  = { "bfp4",  TTX_FMT_BFP4,   4, 8, 3, 1, 0, 0, 127 },
	[TTX_FORMAT_INT32] = { "int32", TTX_FMT_INT32, 32, 0, 31, 0, 1, 0, 0 },
	[TTX_FORMAT_INT16] = { "int16", TTX_FMT_INT16, 16, 0, 15, 0, 1, 0, 0 },
	[TTX_FORMAT_FP8]   = { "fp8",   TTX_FMT_FP8,    8, 5, 2, 0, 0, 0, 15 },
	[TTX_FORMAT_BFP2A] = { "bfp2a", TTX_FMT_BFP2A,  2, 5, 1, 1, 0, 0, 15 },
	[TTX_FORMAT_INT8]  = { "int8",  TTX_FMT_INT8,   8, 0, 7, 0, 1, 0, 0 },
	[TTX_FORMAT_BFP2]  = { "bfp2",  TTX_FMT_BFP2,   2, 8, 1, 1, 0, 0, 127 },
	[TTX_FORMAT_UINT8] = { "uint8", TTX_FMT_INT8,   8, 0, 8, 0, 1, 1, 0 },
};

const struct ttx_format_info *ttx_format_info(unsigned format)
{
	return format < 17 && formats[format].name ? &formats[format] : NULL;
}

unsigned ttx_fmt_datum_bits(unsigned code)
{
	const struct ttx_format_info *f = ttx_format_info(code & 15);
	return f ? f->bits : 0;
}

const char *ttx_format_name(enum ttx_format f)
{
	const struct ttx_format_info *fi = ttx_format_info((unsigned)f);
	return fi ? fi->name : NULL;
}

enum ttx_status ttx_format_parse(const char *name, enum ttx_format *out)
{
	static const struct { const char *alias; enum ttx_format f; } aliases[] = {
		{ "bfp8_b", TTX_FORMAT_BFP8 }, { "bfp4_b", TTX_FORMAT_BFP4 }, { "bfp2_b", TTX_FORMAT_BFP2 },
		{ "lf8", TTX_FORMAT_FP8 }, { "float32", TTX_FORMAT_FP32 }, { "float16", TTX_FORMAT_FP16 },
		{ "bfloat16", TTX_FORMAT_BF16 },
	};
	if (!name)
		return TTX_EINVAL;
	for (unsigned i = 0; i < 17; i++)
		if (formats[i].name && strcasecmp(name, formats[i].name) == 0) {
			*out = (enum ttx_format)i;
			return TTX_OK;
		}
	for (unsigned i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcasecmp(name, aliases[i].alias) == 0) {
			*out = aliases[i].f;
			return TTX_OK;
		}
	return TTX_EINVAL;
}

static size_t pad16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

size_t ttx_format_bytes(enum ttx_format f, size_t n)
{
	const struct ttx_format_info *fi = ttx_format_info((unsigned)f);
	if (!fi || n > (SIZE_MAX - 64) / 32)
		return 0;   /* (32 bits a datum at most: the count always fits) */
	size_t data = (n * fi->bits + 7) / 8;
	return fi->bfp ? pad16((n + 15) / 16) + pad16(data) : data;
}

size_t ttx_format_tile_bytes(enum ttx_format f)
{
	return ttx_format_bytes(f, 1024);
}

/* ---- bit fields of a flat run, LSB first (TC/UNPACR_Regular.md ReadL1Bytes) ---- */

static void put_bits(uint8_t *p, size_t index, unsigned bits, uint32_t v)
{
	size_t bit = index * bits;
	for (unsigned i = 0; i < bits; i += 8, bit += 8) {
		unsigned n = bits - i < 8 ? bits - i : 8;
		uint8_t m = (uint8_t)(((1u << n) - 1) << (bit & 7));
		p[bit >> 3] = (uint8_t)((p[bit >> 3] & ~m) | (((v >> i) << (bit & 7)) & m));
	}
}

static uint32_t get_bits(const uint8_t *p, size_t index, unsigned bits)
{
	size_t bit = index * bits;
	uint32_t v = 0;
	for (unsigned i = 0; i < bits; i += 8, bit += 8) {
		unsigned n = bits - i < 8 ? bits - i : 8;
		v |= (uint32_t)((p[bit >> 3] >> (bit & 7)) & ((1u << n) - 1)) << i;
	}
	return v;
}

/* ---- rounding ---- */

/* Host conversions work on the bits of the double: frexp, ldexp, floor and
   fmod made them the slowest part of an op (benchmarks/RESULTS.md). */

static uint64_t double_bits(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof(b));
	return b;
}

/* 2^n, exactly, for -1022 <= n <= 1023. */
static double pow2(int n)
{
	uint64_t b = (uint64_t)(n + 1023) << 52;
	double x;
	memcpy(&x, &b, sizeof(x));
	return x;
}

/* floor(log2(ax)) for finite ax > 0 (denormals included). */
static int floor_log2(double ax)
{
	uint64_t b = double_bits(ax);
	int ef = (int)(b >> 52 & 0x7FF);
	if (ef)
		return ef - 1023;
	return -1074 + 63 - __builtin_clzll(b & ((1ull << 52) - 1));
}

/* m * 2^-sh (1 <= sh <= 63, m < 2^62) rounded to an integer by the
   rounding mode: the one rounding rule of the host conversions, as a
   carry out of the bits below (no data-dependent branch: tilizing calls it
   for every value).  Ties to even add half - 1 and the kept LSB. */
static inline uint64_t round_shift(uint64_t m, unsigned sh, enum ttx_rounding r)
{
	uint64_t half = 1ull << (sh - 1);
	switch (r) {
	case TTX_ROUND_TRUNCATE:
		return m >> sh;
	case TTX_ROUND_NEAREST_AWAY:
		return (m + half) >> sh;
	default:
		return (m + half - 1 + (m >> sh & 1)) >> sh;
	}
}

/* ax * 2^k (ax >= 0, not NaN) rounded to an integer by the rounding mode;
   results of 2^62 and more (Inf included) give 2^62. */
static uint64_t round_scaled(double ax, int k, enum ttx_rounding r)
{
	const uint64_t big = 1ull << 62;
	uint64_t b = double_bits(ax);
	int ef = (int)(b >> 52 & 0x7FF);
	if (ef == 0x7FF)
		return big;
	uint64_t m = b & ((1ull << 52) - 1);
	int sh = 1074 - k;                    /* ax * 2^k = M * 2^-sh */
	if (ef) {
		m |= 1ull << 52;
		sh -= ef - 1;
	}
	if (m == 0)
		return 0;
	if (sh <= 0)
		return sh <= -10 ? big : m << -sh;   /* m < 2^53 */
	if (sh >= 64)
		return 0;                         /* below 2^-11: rounds to 0 */
	return round_shift(m, (unsigned)sh, r);
}

/* A float of eb exponent bits, mb mantissa bits and the given bias: the bit
   pattern (with sign) nearest x by r.  ieee: the all-ones exponent is
   Inf/NaN (FP32, TF32, BF16 stored as FP32's top bits); else (FP16, FP8) it
   is a normal binade and there is no Inf or NaN: they saturate. */
static uint32_t encode_float(double x, unsigned eb, unsigned mb, int bias, enum ttx_rounding r, int ieee)
{
	uint32_t sign = signbit(x) ? 1u << (eb + mb) : 0;
	uint32_t emax = (1u << eb) - (ieee ? 2 : 1);      /* largest finite exponent field */
	uint32_t maxfin = emax << mb | ((1u << mb) - 1);
	if (isnan(x))
		return ieee ? (((1u << eb) - 1) << mb | 1u << (mb - 1)) : maxfin;
	double ax = fabs(x);
	if (isinf(ax))
		return sign | (ieee ? ((1u << eb) - 1) << mb : maxfin);
	if (ax == 0)
		return sign;
	int e = floor_log2(ax);                            /* ax in [2^e, 2^(e+1)) */
	int emin = 1 - bias;
	int denormal = e < emin;
	uint64_t qi = round_scaled(ax, (int)mb - (denormal ? emin : e), r);
	uint32_t field;
	if (denormal) {
		field = (uint32_t)qi;                          /* 2^mb: the smallest normal, as it should */
	} else {
		if (qi >> (mb + 1)) {
			qi >>= 1;                                  /* 2^(mb+1): exact */
			e++;
		}
		if (e + bias > (int)emax)
			return sign | (ieee && r != TTX_ROUND_TRUNCATE ? ((1u << eb) - 1) << mb : maxfin);
		field = (uint32_t)(e + bias) << mb | ((uint32_t)qi - (1u << mb));
	}
	return sign | field;
}

static double decode_float(uint32_t v, unsigned eb, unsigned mb, int bias, int ieee)
{
	int neg = v >> (eb + mb) & 1;
	uint32_t ef = v >> mb & ((1u << eb) - 1), m = v & ((1u << mb) - 1);
	double r;
	if (ieee && ef == (1u << eb) - 1)
		r = m ? NAN : INFINITY;
	else if (ef == 0)
		r = (double)m * pow2(1 - bias - (int)mb);
	else
		r = (double)((1u << mb) | m) * pow2((int)ef - bias - (int)mb);
	return neg ? -r : r;
}

/* An FP32 value's bits with the low `drop` bits rounded off by r: FP32,
   TF32 and BF16 share FP32's exponent, so denormals, overflow to Inf (to
   nearest) and Inf itself all follow from the carry.  Not for NaN. */
static inline uint32_t round_fp32_bits(uint32_t u, unsigned drop, enum ttx_rounding r)
{
	return drop ? (uint32_t)round_shift(u, drop, r) : u;
}

/* A datum of a non-BFP format from a value.  Truncated FP16 and FP8 are
   what the packer's late conversion makes of them (docs/formats.md): below
   2^-14 a zero of the value's sign (pack-full 0001). */
static uint32_t encode_one(const struct ttx_format_info *f, double x, enum ttx_rounding r)
{
	float fx = (float)x;
	if ((double)fx == x && (f->code == TTX_FMT_FP32 || f->code == TTX_FMT_TF32 || f->code == TTX_FMT_BF16)) {
		/* the common case, a float in (NaN is never equal) */
		uint32_t u;
		memcpy(&u, &fx, sizeof(u));
		return f->code == TTX_FMT_TF32 ? round_fp32_bits(u, 13, r) << 13
		                               : round_fp32_bits(u, f->code == TTX_FMT_BF16 ? 16 : 0, r);
	}
	if (f->is_int) {
		if (isnan(x))
			return 0;
		uint64_t q = round_scaled(fabs(x), 0, r);
		uint64_t max = (1ull << f->man_bits) - 1;
		if (q > max)
			q = max;
		if (f->is_unsigned)
			return signbit(x) ? 0 : (uint32_t)q;
		/* sign-magnitude: the sign goes along, a zero's too (-0.0 is
		   INT32 0x80000000's value, which packs to INT8 0x80) */
		return (signbit(x) ? 1u << (f->bits - 1) : 0) | (uint32_t)q;
	}
	switch (f->code) {
	case TTX_FMT_FP32:
		return encode_float(x, 8, 23, 127, r, 1);
	case TTX_FMT_TF32:
		return encode_float(x, 8, 10, 127, r, 1) << 13;
	case TTX_FMT_BF16:
		return encode_float(x, 8, 7, 127, r, 1);
	default:   /* FP16, FP8 */
		if (r == TTX_ROUND_TRUNCATE && !isnan(x) && fabs(x) < 0x1p-14)
			return signbit(x) ? 1u << (f->bits - 1) : 0;
		return encode_float(x, 5, f->man_bits, 15, r, 0);
	}
}

static double decode_one(const struct ttx_format_info *f, uint32_t v)
{
	if (f->is_int) {
		if (f->is_unsigned)
			return v;
		uint32_t mag = v & ((1u << (f->bits - 1)) - 1);
		return v >> (f->bits - 1) ? -(double)mag : (double)mag;
	}
	switch (f->code) {
	case TTX_FMT_FP32: case TTX_FMT_TF32: case TTX_FMT_BF16: {
		/* FP32's bits with the low ones zero; NaN as decode_float has it */
		uint32_t u = f->code == TTX_FMT_BF16 ? v << 16 : f->code == TTX_FMT_TF32 ? v & ~0x1FFFu : v;
		if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu))
			return NAN;
		float x;
		memcpy(&x, &u, sizeof(x));
		return x;
	}
	default:
		return decode_float(v, 5, f->man_bits, 15, 0);
	}
}

/* ---- BFP blocks ---- */

/* The exponent field a value has in the BFP's exponent width: FP32's field
   (0 for zeros and denormals, 255 for Inf and NaN), or for the A formats
   FP16's, clamped to 0..31. */
static int bfp_exponent(const struct ttx_format_info *f, double x)
{
	if (isnan(x) || isinf(x))
		return f->exp_bits == 8 ? 255 : 31;
	if (x == 0)
		return 0;
	int e = floor_log2(fabs(x)) + f->bias;
	int emax = f->exp_bits == 8 ? 254 : 31;
	return e < 0 ? 0 : e > emax ? emax : e;
}

/* 16 values: the shared exponent is the largest of theirs; each magnitude is
   |x| / 2^(E - bias) scaled to man_bits bits (one integer bit), rounded by r
   and saturated; truncated BFP4/BFP2 (and A forms) are, as the packer makes
   them, the BFP8 magnitude (to nearest, ties away, saturated) truncated to
   their bits (TC/Packers/FormatConversion.md).  Inf and NaN are the number
   1.m * 2^128 at E = 255.  The sign is kept only on a non-zero magnitude. */
static uint8_t encode_bfp_block(const struct ttx_format_info *f, const double x[16], enum ttx_rounding r,
                                uint32_t out[16])
{
	int E = 0;
	for (unsigned i = 0; i < 16; i++) {
		int e = bfp_exponent(f, x[i]);
		E = e > E ? e : E;
	}
	uint64_t maxmag = (1ull << f->man_bits) - 1;
	for (unsigned i = 0; i < 16; i++) {
		double a = fabs(x[i]);
		if (isnan(a) || isinf(a))
			a = pow2(128);                /* the hardware reads them as 2^128 (x 1.m; m unknown here: 0) */
		uint64_t q;
		if (r == TTX_ROUND_TRUNCATE && f->man_bits < 7) {
			q = round_scaled(a, 6 - (E - f->bias), TTX_ROUND_NEAREST_AWAY);
			q = (q > 127 ? 127 : q) >> (7 - f->man_bits);
		} else {
			q = round_scaled(a, (int)f->man_bits - 1 - (E - f->bias), r);
		}
		if (q > maxmag)
			q = maxmag;
		uint32_t mag = (uint32_t)q;
		out[i] = mag && signbit(x[i]) ? 1u << f->man_bits | mag : mag;
	}
	return (uint8_t)E;
}

static double decode_bfp(const struct ttx_format_info *f, uint32_t v, uint8_t E)
{
	uint32_t mag = v & ((1u << f->man_bits) - 1);
	int neg = v >> f->man_bits & 1;
	if (mag == 0)
		return neg ? (f->exp_bits == 8 ? -INFINITY : -65536.0) : 0.0;
	double r = (double)mag * pow2((int)E - f->bias - ((int)f->man_bits - 1));
	return neg ? -r : r;
}

/* ---- flat runs ---- */

static enum ttx_status check_run(const struct ttx_format_info *f, size_t n, size_t len)
{
	size_t need = f ? ttx_format_bytes((enum ttx_format)(f - formats), n) : 0;
	if (!f || (f->bfp && n % 16) || (n && !need) || len < need)
		return TTX_EINVAL;
	return TTX_OK;
}

/* x(i) gives the i-th value as a double. */
#define ENCODE_RUN(f, r, n, out, X) do { \
	uint8_t *p_ = (uint8_t *)(out); \
	if ((f)->bfp) { \
		size_t ex_ = pad16(((n) + 15) / 16); \
		memset(p_, 0, ttx_format_bytes((enum ttx_format)((f) - formats), (n))); \
		for (size_t b_ = 0; b_ < (n) / 16; b_++) { \
			double v_[16]; \
			uint32_t d_[16]; \
			for (unsigned k_ = 0; k_ < 16; k_++) \
				v_[k_] = X(b_ * 16 + k_); \
			p_[b_] = encode_bfp_block((f), v_, (r), d_); \
			for (unsigned k_ = 0; k_ < 16; k_++) \
				put_bits(p_ + ex_, b_ * 16 + k_, (f)->bits, d_[k_]); \
		} \
	} else { \
		for (size_t i_ = 0; i_ < (n); i_++) \
			put_bits(p_, i_, (f)->bits, encode_one((f), X(i_), (r))); \
	} \
} while (0)

enum ttx_status ttx_format_encode(enum ttx_format fmt, enum ttx_rounding r, const float *in, size_t n, void *out,
                                  size_t out_len)
{
	const struct ttx_format_info *f = ttx_format_info((unsigned)fmt);
	if (check_run(f, n, out_len) != TTX_OK || (unsigned)r > TTX_ROUND_TRUNCATE)
		return TTX_EINVAL;
#define X(i) ((double)in[i])
	ENCODE_RUN(f, r, n, out, X);
#undef X
	return TTX_OK;
}

enum ttx_status ttx_format_encode_int(enum ttx_format fmt, const int32_t *in, size_t n, void *out, size_t out_len)
{
	const struct ttx_format_info *f = ttx_format_info((unsigned)fmt);
	if (check_run(f, n, out_len) != TTX_OK)
		return TTX_EINVAL;
#define X(i) ((double)in[i])
	ENCODE_RUN(f, TTX_ROUND_NEAREST_EVEN, n, out, X);
#undef X
	return TTX_OK;
}

/* The value of datum i of a flat run. */
static double run_value(const struct ttx_format_info *f, const uint8_t *p, size_t n, size_t i)
{
	if (f->bfp)
		return decode_bfp(f, get_bits(p + pad16((n + 15) / 16), i, f->bits), p[i / 16]);
	return decode_one(f, get_bits(p, i, f->bits));
}

enum ttx_status ttx_format_decode(enum ttx_format fmt, const void *in, size_t in_len, float *out, size_t n)
{
	const struct ttx_format_info *f = ttx_format_info((unsigned)fmt);
	if (check_run(f, n, in_len) != TTX_OK)
		return TTX_EINVAL;
	for (size_t i = 0; i < n; i++)
		out[i] = (float)run_value(f, in, n, i);
	return TTX_OK;
}

/* Nearest integer (ties to even), saturated; NaN is 0. */
static int32_t to_int32(double v)
{
	if (isnan(v))
		return 0;
	v = nearbyint(v);
	return v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v;
}

enum ttx_status ttx_format_decode_int(enum ttx_format fmt, const void *in, size_t in_len, int32_t *out, size_t n)
{
	const struct ttx_format_info *f = ttx_format_info((unsigned)fmt);
	if (check_run(f, n, in_len) != TTX_OK)
		return TTX_EINVAL;
	for (size_t i = 0; i < n; i++)
		out[i] = to_int32(run_value(f, in, n, i));
	return TTX_OK;
}

/* ---- tiles ---- */

/* Element (row, col) of a 32x32 tile is datum face * 256 + (row % 16) * 16 + col % 16. */
static size_t tile_pos(size_t row, size_t col)
{
	return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16;
}

static enum ttx_status check_tensor(const struct ttx_format_info *f, size_t rows, size_t cols, size_t len)
{
	if (!f || rows % 32 || cols % 32 || rows == 0 || cols == 0)
		return TTX_EINVAL;
	size_t tiles = rows / 32 * (cols / 32);
	if (tiles > SIZE_MAX / 2048 || len < tiles * ttx_format_tile_bytes((enum ttx_format)(f - formats)))
		return TTX_EINVAL;
	return TTX_OK;
}

/* 16 floats as BF16 (rounded by r, round_fp32_bits) or FP32 bytes at d;
   returns the end.  NaN is written as encode_float writes it. */
static inline uint8_t *bf16_row(const uint32_t u[16], uint8_t *d, enum ttx_rounding r)
{
	for (unsigned k = 0; k < 16; k++, d += 2) {
		uint32_t v = round_fp32_bits(u[k], 16, r);
		v = (u[k] & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC0 : v;
		d[0] = (uint8_t)v, d[1] = (uint8_t)(v >> 8);
	}
	return d;
}

static uint8_t *fp32_row_to_bytes(const float *in, bool bf16, enum ttx_rounding r, uint8_t *d)
{
	uint32_t u[16];
	memcpy(u, in, sizeof(u));
	if (!bf16) {
		for (unsigned k = 0; k < 16; k++, d += 4) {
			uint32_t v = (u[k] & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : u[k];
			d[0] = (uint8_t)v, d[1] = (uint8_t)(v >> 8), d[2] = (uint8_t)(v >> 16), d[3] = (uint8_t)(v >> 24);
		}
		return d;
	}
	/* the mode a constant in each loop (round_shift inlined without its
	   switch): it vectorises */
	switch (r) {
	case TTX_ROUND_TRUNCATE: return bf16_row(u, d, TTX_ROUND_TRUNCATE);
	case TTX_ROUND_NEAREST_AWAY: return bf16_row(u, d, TTX_ROUND_NEAREST_AWAY);
	default: return bf16_row(u, d, TTX_ROUND_NEAREST_EVEN);
	}
}

/* The inverse: 16 BF16 or FP32 datums at s as floats (decode_one: NaN is
   the default NaN); returns the end. */
static const uint8_t *bytes_to_fp32_row(const uint8_t *s, bool bf16, float *out)
{
	uint32_t u[16];
	for (unsigned k = 0; k < 16; k++, s += bf16 ? 2 : 4) {
		uint32_t v = bf16 ? (uint32_t)s[0] << 16 | (uint32_t)s[1] << 24
		                  : (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
		u[k] = (v & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : v;
	}
	memcpy(out, u, sizeof(u));
	return s;
}

/* Gather each tile's 1024 values in face order, then encode or decode. */
static enum ttx_status tilize(enum ttx_format fmt, enum ttx_rounding r, const float *inf, const int32_t *ini,
                              size_t rows, size_t cols, void *out, size_t out_len)
{
	const struct ttx_format_info *f = ttx_format_info((unsigned)fmt);
	if (check_tensor(f, rows, cols, out_len) != TTX_OK || (unsigned)r > TTX_ROUND_TRUNCATE)
		return TTX_EINVAL;
	size_t tb = ttx_format_tile_bytes(fmt);
	if (inf && (f->code == TTX_FMT_BF16 || f->code == TTX_FMT_FP32)) {
		/* floats to BF16 / FP32 straight from their bits, a face row at a
		   time (encode_one's rule without the doubles) */
		uint8_t *d = out;
		for (size_t tr = 0; tr < rows / 32; tr++)
			for (size_t tc = 0; tc < cols / 32; tc++)
				for (unsigned face = 0; face < 4; face++)
					for (unsigned i = 0; i < 16; i++) {
						const float *row = inf + (tr * 32 + face / 2 * 16 + i) * cols + tc * 32 + face % 2 * 16;
						d = fp32_row_to_bytes(row, f->code == TTX_FMT_BF16, r, d);
					}
		return TTX_OK;
	}
	double v[1024];
	for (size_t tr = 0; tr < rows / 32; tr++)
		for (size_t tc = 0; tc < cols / 32; tc++) {
			for (size_t i = 0; i < 32; i++)
				for (size_t j = 0; j < 32; j++) {
					size_t src = (tr * 32 + i) * cols + tc * 32 + j;
					v[tile_pos(i, j)] = inf ? (double)inf[src] : (double)ini[src];
				}
			uint8_t *dst = (uint8_t *)out + (tr * (cols / 32) + tc) * tb;
#define X(i) (v[i])
			ENCODE_RUN(f, r, (size_t)1024, dst, X);
#undef X
		}
	return TTX_OK;
}

enum ttx_status ttx_tilize(enum ttx_format f, enum ttx_rounding r, const float *in, size_t rows, size_t cols,
                           void *out, size_t out_len)
{
	return tilize(f, r, in, NULL, rows, cols, out, out_len);
}

enum ttx_status ttx_tilize_int(enum ttx_format f, const int32_t *in, size_t rows, size_t cols, void *out,
                               size_t out_len)
{
	return tilize(f, TTX_ROUND_NEAREST_EVEN, NULL, in, rows, cols, out, out_len);
}

static enum ttx_status untilize(enum ttx_format fmt, const void *in, size_t in_len, float *outf, int32_t *outi,
                                size_t rows, size_t cols)
{
	const struct ttx_format_info *f = ttx_format_info((unsigned)fmt);
	if (check_tensor(f, rows, cols, in_len) != TTX_OK)
		return TTX_EINVAL;
	size_t tb = ttx_format_tile_bytes(fmt);
	if (outf && (f->code == TTX_FMT_BF16 || f->code == TTX_FMT_FP32)) {
		const uint8_t *s = in;
		for (size_t tr = 0; tr < rows / 32; tr++)
			for (size_t tc = 0; tc < cols / 32; tc++)
				for (unsigned face = 0; face < 4; face++)
					for (unsigned i = 0; i < 16; i++) {
						float *row = outf + (tr * 32 + face / 2 * 16 + i) * cols + tc * 32 + face % 2 * 16;
						s = bytes_to_fp32_row(s, f->code == TTX_FMT_BF16, row);
					}
		return TTX_OK;
	}
	for (size_t tr = 0; tr < rows / 32; tr++)
		for (size_t tc = 0; tc < cols / 32; tc++) {
			const uint8_t *src = (const uint8_t *)in + (tr * (cols / 32) + tc) * tb;
			for (size_t i = 0; i < 32; i++)
				for (size_t j = 0; j < 32; j++) {
					double v = run_value(f, src, 1024, tile_pos(i, j));
					size_t dst = (tr * 32 + i) * cols + tc * 32 + j;
					if (outf)
						outf[dst] = (float)v;
					else
						outi[dst] = to_int32(v);
				}
		}
	return TTX_OK;
}

enum ttx_status ttx_untilize(enum ttx_format f, const void *in, size_t in_len, float *out, size_t rows, size_t cols)
{
	return untilize(f, in, in_len, out, NULL, rows, cols);
}

enum ttx_status ttx_untilize_int(enum ttx_format f, const void *in, size_t in_len, int32_t *out, size_t rows,
                                 size_t cols)
{
	return untilize(f, in, in_len, NULL, out, rows, cols);
}
