/* The packers (TC/Packers/README.md): PACR, PACR_SETREG, CLREXPHIST and
 * the packer state SETDMAREG's special sources read.
 *
 * A PACR runs each selected packer's pipeline to completion:
 *   input address generator (TC/Packers/InputAddressGenerator.md)
 *   -> fetch from Dst (or L1 for packer 0, or /dev/null) with edge masking
 *      (TC/Packers/EdgeMasking.md) and the early format conversion
 *   -> ReLU -> exponent histogram -> downsampling -> exponent thresholding
 *   -> compression (TC/Packers/Compression.md)
 *   -> late format conversion, BFP blocks of 16 (TC/Packers/FormatConversion.md)
 *   -> 16-byte output buffers -> L1, with L1 accumulation
 *      (TC/Packers/OutputAddressGenerator.md).
 * The buffers, the BFP block being assembled, the compression row and the
 * output addresses persist between PACRs until Last or Flush, as on the
 * hardware.
 *
 * Intermediate datums (after the early conversion) are held as:
 *   F8  (8-bit exponent: FP32, TF32, BF16, E8M6): FP32 bit layout;
 *   F5  (5-bit exponent: FP16, E5M7, E5M6, FP8): FP16 bit layout;
 *   INT (INT32, INT16, INT8, UINT8): the integer's L1 bits.
 * docs/formats.md lists every choice made where the pages are silent; the
 * reference cases (tests/vectors/pack) pin the rounding rules. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "units.h"
#include "formats.h"

enum family { F8, F5, INT };

static int fault(struct ttx_tile *t, unsigned thread, uint32_t word, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fault(struct ttx_tile *t, unsigned thread, uint32_t word, const char *fmt, ...)
{
	char msg[sizeof(t->error)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u: %s", ttx_isa_insn(word >> 24)->mnemonic, word,
	                thread, msg);
}

static uint32_t bits_of(uint32_t w, unsigned lo, unsigned n)
{
	return n >= 32 ? w >> lo : (w >> lo) & ((1u << n) - 1);
}

/* The four packers' configuration: THCON_SEC0_REG1, THCON_SEC0_REG8,
   THCON_SEC1_REG1, THCON_SEC1_REG8 (TC/SETDMAREG_Special.md's notes), four
   words each; their limit and FIFO sizes in THCON_SEC0/1_REG9, Pack_0_2 for
   packers 0 and 2, Pack_1_3 for 1 and 3 (choice: the names' reading). */
static const unsigned packer_cfg_word[4] = { 56, 84, 96, 124 };

struct pcfg {
	uint32_t w[4];
};

static struct pcfg packer_cfg(const uint32_t *cfg, unsigned i)
{
	struct pcfg p;
	memcpy(p.w, cfg + packer_cfg_word[i], sizeof(p.w));
	return p;
}

#define ROW_START_SECTION(p) bits_of((p).w[0], 0, 16)
#define EXP_SECTION(p)       bits_of((p).w[0], 16, 16)
#define L1_DEST_ADDR(p)      ((p).w[1])
#define DISABLE_ZC(p)        bits_of((p).w[2], 0, 1)
#define ADD_DEST_OFFSET(p)   bits_of((p).w[2], 1, 1)
#define ADDR_CNT_CONTEXT(p)  bits_of((p).w[2], 2, 2)
#define OUT_FORMAT(p)        bits_of((p).w[2], 4, 4)
#define IN_FORMAT(p)         bits_of((p).w[2], 8, 4)
#define ENABLE_OUT_FIFO(p)   bits_of((p).w[2], 14, 1)
#define SUB_HEADER(p)        bits_of((p).w[2], 15, 1)
#define SOURCE_L1(p)         bits_of((p).w[2], 16, 1)
#define L1_SOURCE_ADDR(p)    bits_of((p).w[2], 24, 8)
#define DOWNSAMPLE_MASK(p)   bits_of((p).w[3], 0, 16)
#define EXP_THRESHOLD_EN(p)  bits_of((p).w[3], 20, 1)
#define PACK_L1_ACC(p)       bits_of((p).w[3], 21, 1)
#define EXP_THRESHOLD(p)     bits_of((p).w[3], 24, 8)

static unsigned add_tile_header(const struct pcfg *p, unsigned i)
{
	return bits_of(p->w[2], i & 1 ? 17 : 22, 1);   /* REG8 has it at bit 17, REG1 at bit 22 */
}

static unsigned format_family(unsigned code)
{
	switch (code & 15) {
	case TTX_FMT_FP16: case TTX_FMT_FP8: case TTX_FMT_BFP8A: case TTX_FMT_BFP4A: case TTX_FMT_BFP2A:
		return F5;
	case TTX_FMT_INT32: case TTX_FMT_INT16: case TTX_FMT_INT8:
		return INT;
	default:
		return F8;
	}
}

/* ---- rounding helpers (ties away from zero, TC/Packers/FormatConversion.md) ---- */

/* FP32 bits rounded to keep man mantissa bits (ties away from zero: add
   half, truncate), a denormal like any other value, so that one close
   enough to 2^-126 rounds up to it (pack-full 0005: 0x807FFFFF to BF16 is
   0x8080); a result still below 2^-126, and -0, is +0; NaN becomes Inf
   (the exponent is 8 bits); overflow gives Inf. */
static uint32_t round_f8(uint32_t x, unsigned man)
{
	uint32_t sign = x & 0x80000000u, mag = x & 0x7FFFFFFFu;
	if (mag >= 0x7F800000u)
		return sign | 0x7F800000u;
	unsigned drop = 23 - man;
	if (drop) {
		mag += 1u << (drop - 1);
		mag &= ~((1u << drop) - 1);
		if (mag >= 0x7F800000u)
			mag = 0x7F800000u;
	}
	return mag >> 23 ? sign | mag : 0;
}

/* FP16 bits rounded to keep man bits (ties away); denormals and -0 become
   +0 (no NaN or Inf in 5-bit formats); a carry out of exponent 31 saturates. */
static uint32_t round_f5(uint32_t x, unsigned man)
{
	uint32_t e = x >> 10 & 0x1F, sign = x & 0x8000;
	if (e == 0)
		return 0;
	unsigned drop = 10 - man;
	if (drop == 0)
		return x;
	uint32_t mag = x & 0x7FFF;
	mag += 1u << (drop - 1);
	mag &= ~((1u << drop) - 1) & 0x7FFF;
	if (mag > 0x7FFF || (mag >> 10) == 0)
		mag = 0x7FFF & ~((1u << drop) - 1);
	return sign | mag;
}

/* F8 to F5: saturate when the exponent narrows, flush below 2^-14 to a
   zero of the same sign (the page: "some inputs in (2^-15, 2^-14) are
   mishandled"; ttx flushes them; pack-full 0001: -0 and negative flushes
   are 0x8000), truncate the mantissa to 10 bits.  NaN and Inf saturate. */
static uint32_t f8_to_f5(uint32_t x)
{
	uint32_t sign = x >> 16 & 0x8000;
	int e = (int)(x >> 23 & 0xFF) - 127 + 15;
	if ((x >> 23 & 0xFF) == 255 || e > 31)
		return sign | 0x7FFF;
	if (e <= 0)
		return sign;
	return sign | (uint32_t)e << 10 | (x >> 13 & 0x3FF);
}

/* F5 to F8: the exponent widens (rebias); a zero stays zero; an FP16
   denormal is rebiased like a normal number (the page: "denormals
   mishandled"). */
static uint32_t f5_to_f8(uint32_t x)
{
	uint32_t sign = (x & 0x8000) << 16, e = x >> 10 & 0x1F, m = x & 0x3FF;
	if (e == 0 && m == 0)
		return sign;
	return sign | (e + 112) << 23 | m << 13;
}

/* ---- the early format conversion ---- */

struct early {
	bool read32, round10, raw, unsigned8;
	unsigned inter;              /* IntermediateFormat */
	unsigned family;
	unsigned shift_mode;         /* INT_DESCALE: 0 off, 1 one value, 2 per row */
	uint32_t shift;              /* INT_DESCALE_VALUES_SEC0 (mode 1) */
	const uint32_t *cfg;
};

/* INT32 (sign-magnitude) to INT8/UINT8: magnitude shifted right with the
   shifted-out bits rounding it (half up, i.e. ties away from zero), then
   saturated; the sign goes along, a zero magnitude's too (pack-full 0013:
   0x80000000 is 0x80); negative values are 0 as UINT8. */
static uint32_t int_to_int8(uint32_t x, unsigned shift, bool unsigned8)
{
	uint32_t sign = x >> 31, mag = x & 0x7FFFFFFFu;
	uint64_t r = shift ? ((uint64_t)mag + (1ull << (shift - 1))) >> shift : mag;
	if (unsigned8)
		return sign ? 0 : r > 255 ? 255 : (uint32_t)r;
	if (r > 127)
		r = 127;
	return sign << 7 | (uint32_t)r;
}

/* The datum read from Dst (raw: DstBits for 16-bit reads, the unshuffled
   Dst32b value for 32-bit reads) as the intermediate format. */
static uint32_t early_convert(const struct early *e, uint32_t raw, unsigned row)
{
	unsigned shift = 0;
	if (e->shift_mode == 1)
		shift = e->shift & 31;
	else if (e->shift_mode == 2)   /* per-row values; "z" = the Dst row (choice) */
		shift = (e->cfg[165 + ((row & 63) >> 2)] >> ((row & 3) * 8)) & 31;
	if (e->read32) {
		switch (e->inter) {
		case TTX_FMT_INT32:
			return raw;
		case TTX_FMT_FP32:
			return e->round10 && !e->raw ? round_f8(raw, 10) : raw;
		case TTX_FMT_TF32:
			return e->raw ? raw : round_f8(raw, 10);
		case TTX_FMT_BF16:
			if (e->raw)
				return raw & 0xFFFF0000u;
			return round_f8(raw, e->round10 ? 10 : 7);
		case TTX_FMT_BFP8:
			return e->raw ? raw & 0xFFFF0000u : round_f8(raw, 6);
		default:   /* INT8 */
			if (e->raw)
				return e->unsigned8 ? raw & 0xFF : (raw >> 24 & 0x80) | (raw & 0x7F);
			return int_to_int8(raw, shift, e->unsigned8);
		}
	}
	uint32_t bf16 = (raw & 0x8000) << 16 | (raw & 0xFF) << 23 | (raw >> 8 & 0x7F) << 16;
	uint32_t fp16 = (raw & 0x8000) | (raw & 0x1F) << 10 | (raw >> 5 & 0x3FF);
	switch (e->inter) {
	case TTX_FMT_INT16:
		return raw;
	case TTX_FMT_INT8:
		return raw >> 8 & 0x80;                  /* sign bit only */
	case TTX_FMT_FP32: case TTX_FMT_TF32:
		return round_f8(bf16, 23);               /* BF16 to TF32: exact, with the rounding path's flushes */
	case TTX_FMT_BF16:
		return e->raw ? bf16 : round_f8(bf16, e->round10 ? 10 : 7);
	case TTX_FMT_BFP8:
		return e->raw ? bf16 : round_f8(bf16, 6);
	case TTX_FMT_FP16:
		return e->raw ? fp16 : round_f5(fp16, 10);
	case TTX_FMT_BFP8A:
		return e->raw ? fp16 & ~7u : round_f5(fp16, 6);
	default:   /* FP8 */
		return fp16 & 0xFF00;
	}
}

/* Which early conversions the pages define; NULL if this one is, else why not. */
static const char *early_invalid(const struct early *e)
{
	switch (e->inter) {
	case TTX_FMT_FP32: case TTX_FMT_TF32: case TTX_FMT_BF16: case TTX_FMT_BFP8: case TTX_FMT_INT8:
		if (!e->read32 && e->inter == TTX_FMT_FP32 && !e->round10)
			return "16-bit Dst to FP32 (keep BF16 and widen in the late conversion)";
		return NULL;
	case TTX_FMT_INT32:
		return e->read32 ? NULL : "16-bit Dst to INT32";
	case TTX_FMT_INT16: case TTX_FMT_FP16: case TTX_FMT_BFP8A: case TTX_FMT_FP8:
		return e->read32 ? "32-bit Dst to a 16-bit or 5-bit-exponent format (use the late conversion)" : NULL;
	default:
		return "an IntermediateFormat that is valid only as an output format";
	}
}

/* ---- the late format conversion (non-BFP outputs) ---- */

/* The intermediate value as LateFromFormat sees it: the bits that format keeps. */
static uint32_t late_input(unsigned from, uint32_t v)
{
	switch (from) {
	case TTX_FMT_TF32: return v & 0xFFFFE000u;
	case TTX_FMT_BF16: return v & 0xFFFF0000u;
	case TTX_FMT_BFP8: return v & 0xFFFE0000u;   /* E8M6 */
	case TTX_FMT_BFP8A: return v & 0xFFF8u;      /* E5M7 */
	case TTX_FMT_FP8: return v & 0xFF00u;
	default: return v;
	}
}

/* F8 or F5 value to a non-BFP float output format's L1 bits. */
static uint32_t late_float(unsigned fam, unsigned from, unsigned to, uint32_t v)
{
	switch (to) {
	case TTX_FMT_FP32:
	case TTX_FMT_TF32: {
		uint32_t x = fam == F5 ? f5_to_f8(v) : v;
		return to == TTX_FMT_TF32 ? x & 0xFFFFE000u : x;
	}
	case TTX_FMT_BF16: {
		uint32_t x = fam == F5 ? f5_to_f8(v) : v;
		/* mantissa narrows: denormals flushed (BF16 from BF16 keeps them) */
		if (!(x & 0x7F800000u) && (fam == F5 || from == TTX_FMT_FP32 || from == TTX_FMT_TF32))
			return 0;
		return x >> 16;
	}
	case TTX_FMT_FP16:
		return fam == F8 ? f8_to_f5(v) : v;
	default:   /* FP8 */
		return (fam == F8 ? f8_to_f5(v) : v) >> 8;
	}
}

/* ---- output streams ---- */

struct job;

static int l1_fault(struct ttx_tile *t, unsigned thread, uint32_t word, unsigned i, uint32_t addr)
{
	return fault(t, thread, word, "packer %u writes L1 at 0x%X, past the end of L1 (0x%X); check L1_Dest_addr "
	             "and the ADCs", i, addr, TTX_L1_SIZE);
}

/* The PACR being executed, for one packer. */
struct job {
	struct ttx_tile *t;
	unsigned thread, i;
	uint32_t word;
	struct ttx_packer *pk;
	struct pcfg pc;
	unsigned from, to;           /* LateFromFormat, LateToFormat */
	unsigned family;
	bool acc, compress, bfp;
	unsigned out_bits;           /* bits per output datum */
	int err;                     /* a fault already reported */
	uint32_t writes, datums;     /* 16-byte L1 writes and datums, for the cycle model */
};

/* L1 += the 16 bytes (TC/Packers/README.md "Accumulation"): FP32 as a float32
   add with denormals read as zero, BF16/FP16 as the exact sum rounded to
   nearest even, integers as sign-magnitude sums that saturate (choice). */
static void accumulate(struct job *j, uint8_t *dst, const uint8_t *src)
{
	const struct ttx_format_info *f = ttx_format_info(j->to);
	unsigned n = 128 / f->bits;
	for (unsigned k = 0; k < n; k++) {
		uint32_t a = 0, b = 0;
		memcpy(&a, dst + k * f->bits / 8, f->bits / 8);
		memcpy(&b, src + k * f->bits / 8, f->bits / 8);
		uint32_t r;
		switch (j->to) {
		case TTX_FMT_FP32: case TTX_FMT_TF32: {
			float x, y, s;
			if (!(a & 0x7F800000u)) a &= 0x80000000u;
			if (!(b & 0x7F800000u)) b &= 0x80000000u;
			memcpy(&x, &a, 4), memcpy(&y, &b, 4);
			s = x + y;
			memcpy(&r, &s, 4);
			break;
		}
		case TTX_FMT_BF16: case TTX_FMT_FP16: {
			enum ttx_format hf = j->to == TTX_FMT_BF16 ? TTX_FORMAT_BF16 : TTX_FORMAT_FP16;
			float xa, xb, s;
			uint16_t ha = (uint16_t)a, hb = (uint16_t)b, hr;
			ttx_format_decode(hf, &ha, 2, &xa, 1);
			ttx_format_decode(hf, &hb, 2, &xb, 1);
			s = (float)((double)xa + (double)xb);   /* exact in double, then one rounding below */
			ttx_format_encode(hf, TTX_ROUND_NEAREST_EVEN, &s, 1, &hr, 2);
			r = hr;
			break;
		}
		default: {   /* integers, sign-magnitude (UINT8 unsigned) */
			bool uns = j->to == TTX_FMT_INT8 && ttx_cfg_get(j->t, ttx_cfg_bank(j->t, j->thread),
			                                                 TTX_CFG_PCK_DEST_RD_CTRL_Read_unsigned);
			unsigned bits = f->bits;
			int64_t max = uns ? 255 : (int64_t)(1ull << (bits - 1)) - 1;
			uint32_t sm = uns ? 0 : 1u << (bits - 1);
			int64_t x = uns ? a : (a & sm ? -(int64_t)(a & (sm - 1)) : (int64_t)(a & (sm - 1)));
			int64_t y = uns ? b : (b & sm ? -(int64_t)(b & (sm - 1)) : (int64_t)(b & (sm - 1)));
			int64_t s = x + y;
			if (s > max) s = max;
			if (s < (uns ? 0 : -max)) s = uns ? 0 : -max;
			r = s < 0 ? sm | (uint32_t)-s : (uint32_t)s;
			break;
		}
		}
		memcpy(dst + k * f->bits / 8, &r, f->bits / 8);
	}
}

/* Write a full 16-byte buffer to L1 at the stream's address. */
static void stream_write(struct job *j, struct ttx_pack_stream *s, bool data)
{
	if (j->err)
		return;
	if (s->addr > TTX_L1_SIZE - 16) {
		j->err = l1_fault(j->t, j->thread, j->word, j->i, s->addr);
		return;
	}
	uint8_t *dst = j->t->l1 + s->addr;
	if (data && j->acc && !j->compress)
		accumulate(j, dst, s->buf);
	else
		memcpy(dst, s->buf, 16);
	ttx_l1_touched(j->t, s->addr, 16);   /* (code the cores run may live there) */
	s->addr += 16;
	j->writes++;
	s->fill = 0;
	memset(s->buf, 0, 16);
	j->pk->tile_words++;
}

static void stream_put(struct job *j, struct ttx_pack_stream *s, uint32_t v, unsigned bits, bool data)
{
	if ((s->fill & 7) == 0 && bits % 8 == 0 && s->fill + bits <= 128) {
		/* whole bytes into the word: the common case (the 16- and 32-bit
		   forms spelt out, so that they become one store) */
		uint8_t *p = s->buf + (s->fill >> 3);
		if (bits == 16) {
			p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
		} else if (bits == 32) {
			p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
		} else {
			for (unsigned b = 0; b < bits; b += 8)
				p[b >> 3] = (uint8_t)(v >> b);
		}
		s->fill = (uint16_t)(s->fill + bits);
		if (s->fill == 128)
			stream_write(j, s, data);
		return;
	}
	for (unsigned done = 0; done < bits;) {
		unsigned room = 8 - (s->fill & 7), n = bits - done < room ? bits - done : room;
		s->buf[s->fill >> 3] |= (uint8_t)(((v >> done) & ((1u << n) - 1)) << (s->fill & 7));
		s->fill = (uint16_t)(s->fill + n);
		done += n;
		if (s->fill == 128)
			stream_write(j, s, data);
	}
}

/* Pad a partly filled buffer with zeros and write it. */
static void stream_flush(struct job *j, struct ttx_pack_stream *s, bool data)
{
	if (s->fill)
		stream_write(j, s, data);
}

/* ---- BFP blocks ---- */

/* A block of 16 intermediate datums to BFP (the shared exponent, returned,
   and 16 sign-magnitude datums): the shared exponent is the largest of their
   exponents (the datums first narrowed to BF16, or to E5M7 for the A
   formats); each magnitude is the datum's significand at that exponent,
   rounded to nearest with ties away from zero and saturated for BFP8/BFP8A,
   truncated for BFP4/BFP2 and their A forms (tests/vectors/pack README); the
   sign is kept only on a non-zero magnitude. */
static uint32_t bfp_block(const struct job *j, const uint32_t *v, unsigned n, uint32_t out[16])
{
	unsigned mbits = ttx_format_info(j->to)->man_bits;   /* 7, 3, 1 */
	bool five = format_family(j->to) == F5;
	uint32_t e[16], s[16], sign[16], E = 0;
	for (unsigned k = 0; k < 16; k++) {
		uint32_t x = k < n ? v[k] : 0;
		if (five) {   /* E5M7 in FP16 layout */
			x = j->family == F8 ? f8_to_f5(x) : x;
			e[k] = x >> 10 & 0x1F;
			s[k] = e[k] ? 0x80 | (x >> 3 & 0x7F) : 0;
			sign[k] = x >> 15 & 1;
		} else {      /* BF16 */
			x = j->family == F5 ? f5_to_f8(x) : x;
			e[k] = x >> 23 & 0xFF;
			s[k] = e[k] ? 0x80 | (x >> 16 & 0x7F) : 0;
			sign[k] = x >> 31;
		}
		if (s[k] && e[k] > E)
			E = e[k];
	}
	for (unsigned k = 0; k < 16; k++) {
		/* the BFP8 magnitude s * 2^(e - E - 1), s the 8-bit significand,
		   rounded to nearest (ties away) and saturated at 127; BFP4/BFP2
		   truncate that to their bits (FormatConversion.md: "converted to
		   BFP8, then truncate") */
		unsigned sh = E - e[k] + 1;
		uint32_t mag = 0;
		if (s[k] && sh < 32) {
			mag = s[k] >> sh;
			if (s[k] >> (sh - 1) & 1)
				mag++;
			if (mag > 127)
				mag = 127;
			mag >>= 7 - mbits;
		}
		out[k] = (mag ? sign[k] << mbits : 0) | mag;
	}
	return E;
}

static void bfp_block_out(struct job *j)
{
	struct ttx_packer *pk = j->pk;
	uint32_t d[16];
	stream_put(j, &pk->exps, bfp_block(j, pk->block, pk->block_len, d), 8, false);
	for (unsigned k = 0; k < 16; k++)
		stream_put(j, &pk->data, d[k], j->out_bits, true);
	pk->block_len = 0;
}

/* ---- compression (TC/Packers/Compression.md) ---- */

/* The group of 32 augmented datums: datums, padding to 32, the 32 zero
   counts (4 bits each). */
static void group_out(struct job *j)
{
	struct ttx_packer *pk = j->pk;
	if (j->bfp) {   /* two blocks of 16 augmented datums, one exponent each */
		for (unsigned b = 0; b < 32; b += 16) {
			uint32_t d[16];
			unsigned n = pk->group_len > b ? pk->group_len - b : 0;
			if (n)
				stream_put(j, &pk->exps, bfp_block(j, pk->group + b, n > 16 ? 16 : n, d), 8, false);
			else
				memset(d, 0, sizeof(d));
			for (unsigned k = 0; k < 16; k++)
				stream_put(j, &pk->data, d[k], j->out_bits, true);
		}
	} else {
		for (unsigned k = 0; k < 32; k++)
			stream_put(j, &pk->data, k < pk->group_len ? pk->group[k] : 0, j->out_bits, true);
	}
	for (unsigned k = 0; k < 32; k++)
		stream_put(j, &pk->data, k < pk->group_len ? pk->group_count[k] : 0, 4, true);
	pk->group_len = 0;
}

/* An augmented datum leaves the compressor. */
static void augmented_out(struct job *j, uint32_t v, unsigned zeros)
{
	struct ttx_packer *pk = j->pk;
	pk->group[pk->group_len] = v;
	pk->group_count[pk->group_len] = (uint8_t)zeros;
	pk->augmented++;
	if (++pk->group_len == 32)
		group_out(j);
}

/* The compressor's view of one datum (already in the output format): zeros
   after a datum whose count is below 15 are absorbed into that count,
   except a row's first datum; the row's last datum is put back at row end. */
static void compress_in(struct job *j, uint32_t v, bool zero)
{
	struct ttx_packer *pk = j->pk;
	if (!zero)
		pk->row_nonzero = 1;
	if (zero && pk->have_pending && pk->row_started && pk->pending_count < 15) {
		pk->pending_count++;
		pk->pending_absorbed = 1;
		return;
	}
	if (pk->have_pending)
		augmented_out(j, pk->pending, pk->pending_count);
	pk->pending = v;
	pk->pending_count = 0;
	pk->pending_absorbed = 0;
	pk->have_pending = 1;
	pk->row_started = 1;
}

/* A row ends: its last datum is never compressed away; RSI[row + 1] is the
   augmented datums so far; AllZeroFlags gets the row's bit. */
static void row_end(struct job *j)
{
	struct ttx_packer *pk = j->pk;
	if (!pk->row_started)
		return;
	if (pk->pending_absorbed) {
		augmented_out(j, pk->pending, pk->pending_count - 1u);
		pk->pending = 0;
		pk->pending_count = 0;
	}
	augmented_out(j, pk->pending, pk->pending_count);
	pk->have_pending = pk->pending_absorbed = pk->row_started = 0;
	if (!pk->row_nonzero && pk->rows < 32)
		pk->all_zero_flags |= 1u << pk->rows;
	pk->rows++;
	pk->row_nonzero = 0;
	stream_put(j, &pk->rsi, pk->augmented, 16, false);
}

/* ---- one datum through the late part of the pipeline ---- */

static uint32_t late_convert(struct job *j, uint32_t v)
{
	if (j->family == INT)
		return v;
	return late_float(j->family, j->from, j->to, v);
}

/* Whether an output datum is zero for the compressor: its magnitude bits
   (UINT8: all bits); for BFP, the intermediate value's. */
static bool is_zero(const struct job *j, uint32_t v)
{
	if (j->bfp)
		return j->family == F8 ? (v & 0x7FFFFFFFu) == 0 : (v & 0x7FFF) == 0;
	if (j->to == TTX_FMT_INT8 && ttx_cfg_get(j->t, ttx_cfg_bank(j->t, j->thread),
	                                         TTX_CFG_PCK_DEST_RD_CTRL_Read_unsigned))
		return v == 0;
	return (v & ((1u << (j->out_bits - 1)) - 1)) == 0;
}

static void datum_out(struct job *j, uint32_t v)
{
	struct ttx_packer *pk = j->pk;
	uint32_t out = j->bfp ? v : late_convert(j, v);
	j->datums++;
	if (j->compress) {
		compress_in(j, out, is_zero(j, out));
	} else if (j->bfp) {
		pk->block[pk->block_len++] = v;
		if (pk->block_len == 16)
			bfp_block_out(j);
	} else {
		stream_put(j, &pk->data, out, j->out_bits, true);
	}
}

/* datum_out for the 16 datums of FP32 Dst row `row` read as FP32 and
   written as FP32 or BF16 with no step in between (run_packer checks):
   the early conversion and late_input are then the identity, and the
   exponent histogram's maximum is all that the histogram does. */
static void pack_row_fp32(struct job *j, uint32_t row)
{
	struct ttx_packer *pk = j->pk;
	uint32_t emax = pk->exp_hist_max;
	for (unsigned c = 0; c < 16; c++) {
		uint32_t v = ttx_unshuffle_fp32(ttx_dst32_get(j->t, row & 0x1FF, c)), ex = v >> 23 & 0xFF;
		emax = ex > emax ? ex : emax;
		stream_put(j, &pk->data, late_convert(j, v), j->out_bits, true);
	}
	pk->exp_hist_max = (uint8_t)emax;
	j->datums += 16;
}

/* ---- PACR ---- */

static bool late_valid(unsigned fam, unsigned from, unsigned to, const char **why)
{
	unsigned ffam = format_family(from), tfam = format_family(to);
	*why = NULL;
	if (from == TTX_FMT_BFP4 || from == TTX_FMT_BFP2 || from == TTX_FMT_BFP4A || from == TTX_FMT_BFP2A ||
	    from == 12 || from == 13)
		*why = "In_data_format is valid only as an output format";
	else if (to == 12 || to == 13)
		*why = "Out_data_format is not a format";
	else if (ffam != fam)
		*why = "In_data_format is not of the early conversion's intermediate format family";
	else if ((ffam == INT) != (tfam == INT))
		*why = "the late conversion cannot turn integers into floats or back";
	else if (ffam == INT && from != to)
		*why = "integer formats convert only to themselves";
	else if (to == TTX_FMT_TF32 && from == TTX_FMT_FP32)
		*why = "FP32 to TF32 is an early conversion";
	return *why == NULL;
}

/* Start a tile: the tile position generator and the per-tile counts. */
static void tile_start(struct ttx_packer *pk)
{
	pk->tpg_x = pk->tpg_y = pk->tpg_z = 0;
	pk->tile_words = 0;
	pk->augmented = pk->rows = 0;
	pk->all_zero_flags = 0;
	pk->block_len = pk->group_len = 0;
	pk->have_pending = pk->pending_absorbed = pk->row_started = pk->row_nonzero = 0;
}

/* The value of an F8 (FP32 layout) or F5 (Wormhole FP16: exponent 31 is a
   binade, no Inf or NaN) intermediate datum. */
static double float_value(unsigned family, uint32_t v)
{
	if (family == F8) {
		float f;
		memcpy(&f, &v, 4);
		return f;
	}
	uint32_t e = v >> 10 & 0x1F, m = v & 0x3FF;
	double r = e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
	return v & 0x8000 ? -r : r;
}

struct input {
	enum { SRC_DST, SRC_L1, SRC_NULL } source;
	uint32_t addr, stride, count;
	unsigned bytes;
};

/* One packer's datums, from the input address to the output streams. */
static int run_packer(struct job *j, const struct input *in, const struct early *e, uint32_t word, bool last)
{
	struct ttx_tile *t = j->t;
	struct ttx_packer *pk = j->pk;
	unsigned bank = ttx_cfg_bank(t, j->thread);
	const uint32_t *cfg = t->config[bank];
	uint16_t mask = (uint16_t)DOWNSAMPLE_MASK(j->pc);
	if (mask == 0)
		mask = 0xFFFF;
	/* edge masking */
	bool face_sel = bits_of(cfg[15], 8, 1);
	unsigned face_a = bits_of(cfg[15], 2 * j->i, 2), row_b = bits_of(cfg[20], 17 + 2 * j->i, 2);
	bool neg_inf = bits_of(cfg[20], 16, 1);
	uint32_t counters = cfg[24 + j->i];
	unsigned reads_per_plane = bits_of(counters, 8, 8);
	bool yz_transposed = bits_of(counters, 23, 1);
	unsigned zoffset = bits_of(cfg[152 + j->i], 12, 6);
	/* ReLU (TC/Packers/ReLU.md) */
	unsigned relu = bits_of(cfg[2], 2, 2);
	uint32_t thr_bits = bits_of(cfg[2], 6, 16);
	double thr = float_value(j->family, j->family == F5 ? thr_bits : thr_bits << 16);
	if (relu >= 2 && (thr_bits & 0x8000))
		return fault(t, j->thread, word, "ReLU threshold 0x%04X is negative (undefined, TC/Packers/ReLU.md)",
		             thr_bits);
	if (relu >= 2 && j->family == INT)
		return fault(t, j->thread, word, "ReLU mode %u on integers (only 0 and 1 are defined)", relu);
	bool thresh = EXP_THRESHOLD_EN(j->pc);
	if (thresh && j->from == TTX_FMT_BFP2A)
		return fault(t, j->thread, word, "exponent thresholding with In_data_format BFP2A (a hardware bug; "
		             "undefined)");
	bool hist_on = ttx_thread_cfg_get(t, 0, TTX_THCFG_ENABLE_ACC_STATS_Enable) ||
	               ttx_thread_cfg_get(t, 1, TTX_THCFG_ENABLE_ACC_STATS_Enable) ||
	               ttx_thread_cfg_get(t, 2, TTX_THCFG_ENABLE_ACC_STATS_Enable);

	/* FP32 Dst to FP32 or BF16 with nothing in between (the kernels'
	   usual output): whole rows by pack_row_fp32 */
	bool fp32_rows = in->source == SRC_DST && !relu && !thresh && mask == 0xFFFF && !hist_on && !j->compress &&
	                 !j->bfp && e->read32 && e->inter == TTX_FMT_FP32 && !e->round10 && j->from == TTX_FMT_FP32 &&
	                 (j->to == TTX_FMT_FP32 || j->to == TTX_FMT_BF16);
	for (uint32_t k = 0; k < in->count && !j->err; k++) {
		uint32_t v = 0;
		bool from_dst = in->source == SRC_DST;
		if (from_dst) {
			uint32_t a = (in->addr + k) & 0x3FFF, row = a >> 4, col = a & 15;
			unsigned b = face_sel ? bits_of(cfg[32 + face_a], 2 * ((zoffset + pk->tpg_z) & 15), 2) : row_b;
			unsigned c = bits_of(cfg[16 + b], 2 * (pk->tpg_y & 15), 2);
			uint16_t edge = (uint16_t)bits_of(cfg[20 + c], 0, 16);
			/* (the tile position, and so the edge mask, holds for a row) */
			bool whole_row = fp32_rows && edge == 0xFFFF && col == 0 && pk->tpg_x == 0 && in->count - k >= 16;
			pk->tpg_x += whole_row ? 16 : 1;
			if (pk->tpg_x == 16) {
				pk->tpg_x = 0;
				uint32_t *inner = yz_transposed ? &pk->tpg_z : &pk->tpg_y, *outer = yz_transposed ? &pk->tpg_y : &pk->tpg_z;
				if (++*inner == reads_per_plane) {
					*inner = 0;
					++*outer;
				}
			}
			if (whole_row) {
				pack_row_fp32(j, row);
				k += 15;
				continue;
			}
			if (edge >> col & 1) {
				uint32_t raw = e->read32 ? ttx_unshuffle_fp32(ttx_dst32_get(t, row & 0x1FF, col)) : t->dst[row][col];
				v = early_convert(e, raw, row);
			} else if (neg_inf) {
				v = j->family == F8 ? 0xFF800000u : j->family == F5 ? 0xFC00 : 0;   /* integers: 0 (choice) */
			} else {
				v = 0;
			}
		} else if (in->source == SRC_L1) {
			uint32_t a = in->addr + k * in->stride, raw = 0;
			if (a + in->bytes > TTX_L1_SIZE)
				return fault(t, j->thread, word, "packer 0 reads L1 at 0x%X, past the end of L1", a);
			memcpy(&raw, t->l1 + a, in->bytes);
			v = raw;
			/* TC/Packers/FormatConversion.md "from L1": no early conversion; the
			   datum's bytes placed as the intermediate format holds them */
			if (j->family == F8)
				v = in->bytes == 4 ? raw : in->bytes == 2 ? raw << 16 : (raw & 0x80) << 24 | (raw & 0x7F) << 16;
			else if (j->family == F5)
				v = in->bytes == 1 && e->inter == TTX_FMT_FP8 ? raw << 8 : in->bytes == 1 ? (raw & 0x80) << 8 | (raw & 0x7F) << 3 : raw;
			else if (e->inter == TTX_FMT_INT32)
				v = raw << (32 - 8 * in->bytes);
			else if (e->inter == TTX_FMT_INT16)
				v = in->bytes == 4 ? raw >> 16 : in->bytes == 2 ? raw : raw << 8;
			else
				v = in->bytes == 1 ? raw : raw >> (8 * in->bytes - 8);
		}
		/* ReLU */
		if (relu && j->family != INT) {
			double x = float_value(j->family, v);
			if (relu == 1 && x <= 0)
				v = 0;
			else if (relu == 2 && x <= thr)
				v = 0;
			else if (relu == 3) {
				if (x <= 0)
					v = 0;
				else if (x > thr)
					v = j->family == F5 ? thr_bits : thr_bits << 16;
			}
		} else if (relu && j->family == INT) {
			unsigned bits = e->inter == TTX_FMT_INT32 ? 32 : e->inter == TTX_FMT_INT16 ? 16 : 8;
			if (!(e->inter == TTX_FMT_INT8 && e->unsigned8) && (v >> (bits - 1) & 1))
				v = 0;
		}
		/* exponent histogram (TC/Packers/ExponentHistogram.md) */
		if (from_dst) {
			uint32_t ex;
			if (j->family == F8)
				ex = v >> 23 & 0xFF;
			else if (j->family == F5)
				ex = v >> 10 & 0x1F;
			else if (e->inter == TTX_FMT_INT32)
				ex = v >> 23 & 0xFF;
			else if (e->inter == TTX_FMT_INT16)
				ex = v & 0xFF;
			else
				ex = 0;                          /* INT8: unspecified (choice) */
			if (hist_on && pk->exp_hist[ex & 31] != 255)
				pk->exp_hist[ex & 31]++;
			if (ex > pk->exp_hist_max)
				pk->exp_hist_max = (uint8_t)ex;
		}
		/* downsampling */
		bool keep = mask & 1;
		mask = (uint16_t)(mask << 15 | mask >> 1);
		if (!keep)
			continue;
		/* exponent thresholding (TC/Packers/ExponentThresholding.md) */
		if (thresh && j->family != INT) {
			uint32_t ex = j->family == F8 ? v >> 23 & 0xFF : v >> 10 & 0x1F;
			if (ex < EXP_THRESHOLD(j->pc))
				v = 0;
		}
		datum_out(j, late_input(j->from, v));
	}
	(void)last;
	return j->err;
}

static uint32_t dest_offset_rows(const uint32_t *cfg, unsigned i)
{
	return bits_of(cfg[152 + i], 0, 12);
}

int ttx_pack_PACR(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_PACR a = ttx_decode_PACR(word);
	unsigned mask = a.PackerMask ? a.PackerMask : 1;
	if (mask != 1 && mask != 2 && mask != 4 && mask != 8 && mask != 3 && mask != 12 && mask != 15)
		return fault(t, thread, word, "PackerMask 0x%X is undefined (TC/PACR.md: 1, 2, 4, 8, 3, 12 or 15)", mask);
	unsigned bank = ttx_cfg_bank(t, thread);
	const uint32_t *cfg = t->config[bank];

	struct early e = {
		.read32 = ttx_cfg_get(t, bank, TTX_CFG_PCK_DEST_RD_CTRL_Read_32b_data),
		.round10 = ttx_cfg_get(t, bank, TTX_CFG_PCK_DEST_RD_CTRL_Round_10b_mant),
		.raw = ttx_cfg_get(t, bank, TTX_CFG_PCK_DEST_RD_CTRL_Read_int8),
		.unsigned8 = ttx_cfg_get(t, bank, TTX_CFG_PCK_DEST_RD_CTRL_Read_unsigned),
		.inter = ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_Dstacc_override)
		         ? ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG_Dstacc_val)
		         : ttx_cfg_get(t, bank, TTX_CFG_ALU_FORMAT_SPEC_REG2_Dstacc),
		.cfg = cfg,
	};
	e.family = format_family(e.inter);
	if (ttx_cfg_get(t, bank, TTX_CFG_INT_DESCALE_Enable)) {
		e.shift_mode = ttx_cfg_get(t, bank, TTX_CFG_INT_DESCALE_Mode) ? 2 : 1;
		e.shift = cfg[165];
	}
	const char *why = early_invalid(&e);
	if (why)
		return fault(t, thread, word, "the early format conversion from %s Dst with IntermediateFormat %u is not "
		             "defined: %s (TC/Packers/FormatConversion.md)", e.read32 ? "32-bit" : "16-bit", e.inter, why);

	/* input and output address generators, for every selected packer */
	struct input in[4];
	bool adc_in[3] = { false }, adc_out[3] = { false };
	uint32_t packer0_addr = 0;
	for (unsigned i = 0; i < 4; i++) {
		struct pcfg pc = packer_cfg(cfg, i);
		struct ttx_packer *pk = &t->packer[i];
		uint32_t addr = L1_DEST_ADDR(pc) + !SUB_HEADER(pc);
		if (i == 0)
			packer0_addr = addr;
		else if (packer0_addr >> 31)
			addr += packer0_addr;
		if (!(mask >> i & 1))
			continue;
		unsigned which = thread;
		if (a.OvrdThreadId) {
			which = ADDR_CNT_CONTEXT(pc);
			if (which == 3)
				which = 0;
		}
		if (!late_valid(e.family, IN_FORMAT(pc), OUT_FORMAT(pc), &why))
			return fault(t, thread, word, "packer %u: In_data_format %u, Out_data_format %u, IntermediateFormat "
			             "%u: %s (TC/Packers/FormatConversion.md)", i, IN_FORMAT(pc), OUT_FORMAT(pc), e.inter, why);
		/* input (TC/Packers/InputAddressGenerator.md) */
		const struct ttx_adc_channel *c0 = &t->adc[which].packers.ch[0];
		uint32_t iaddr = ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_BASE_REG_0_Base) +
		                 c0->x * (ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 0xF) +
		                 c0->y * ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_XY_REG_0_Ystride) +
		                 c0->z * ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_ZW_REG_0_Zstride) +
		                 c0->w * ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_ZW_REG_0_Wstride);
		adc_in[which] = true;
		unsigned bpd = (IN_FORMAT(pc) & 3) == 0 ? 4 : (IN_FORMAT(pc) & 3) == 1 ? 2 : 1;
		unsigned xmask = bpd == 4 ? 3 : bpd == 2 ? 7 : 15;
		uint32_t x1 = t->adc[which].packers.ch[1].x;
		if (!a.Flush && x1 + 1 < c0->x)
			return fault(t, thread, word, "packer %u: the datum range ends (ADC X end %u) before it starts (%u)",
			             i, x1, c0->x);
		in[i].count = a.Flush ? 0 : x1 - c0->x + 1;
		in[i].bytes = bpd;
		if (a.ZeroWrite || a.Flush) {
			in[i].source = SRC_NULL, in[i].addr = 0, in[i].stride = 0;
		} else if (i == 0 && SOURCE_L1(pc)) {
			iaddr = (L1_SOURCE_ADDR(pc) << 18) + (iaddr & 0x3FFFF);
			iaddr = (iaddr & ~0xFu) + bpd * (c0->x & xmask);
			in[i].source = SRC_L1, in[i].addr = iaddr & 0x1FFFFF, in[i].stride = bpd;
		} else {
			iaddr = ((iaddr / bpd) & ~xmask) + (c0->x & xmask);
			iaddr += dest_offset_rows(cfg, i) << 4;
			in[i].source = SRC_DST, in[i].addr = iaddr & 0x3FFF, in[i].stride = 1;
		}
		/* output (TC/Packers/OutputAddressGenerator.md) */
		const struct ttx_adc_channel *c1 = &t->adc[which].packers.ch[1];
		uint32_t yzw = ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_BASE_REG_1_Base) +
		               c1->y * ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_XY_REG_1_Ystride) +
		               c1->z * ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_ZW_REG_1_Zstride) +
		               c1->w * ttx_cfg_get(t, bank, TTX_CFG_PCK0_ADDR_CTRL_ZW_REG_1_Wstride);
		addr += yzw & ~0xFu;
		adc_out[which] = true;
		if (ADD_DEST_OFFSET(pc))
			addr += pk->l1_dest_addr_offset;
		unsigned lw = 88 + 40 * (i / 2) + 2 * (i & 1);   /* Pack_<0_2|1_3>_limit_address, _fifo_size */
		if (addr > bits_of(cfg[lw], 0, 17) * 2 + 1)
			addr -= bits_of(cfg[lw + 1], 0, 17) * 2;
		bool compress = !(cfg[58] >> 21 & 1 ? cfg[58] >> (17 + i) & 1 : DISABLE_ZC(pc));
		if (pk->data.needs_new)
			tile_start(pk);
		if (compress) {
			if (pk->rsi.needs_new) {
				pk->rsi.addr = (addr & 0x1FFFF) << 4;
				pk->rsi.needs_new = 0;
			}
			addr += ROW_START_SECTION(pc);
		}
		if (OUT_FORMAT(pc) & 2) {
			if (pk->exps.needs_new) {
				pk->exps.addr = (addr & 0x1FFFF) << 4;
				pk->exps.needs_new = 0;
			}
			addr += EXP_SECTION(pc);
		}
		if (pk->data.needs_new) {
			pk->data.addr = (addr & 0x1FFFF) << 4;
			pk->data.needs_new = 0;
			if (compress) {
				struct job j0 = { .t = t, .thread = thread, .i = i, .word = word, .pk = pk };
				stream_put(&j0, &pk->rsi, 0, 16, false);   /* RSI[0] = 0 */
				if (j0.err)
					return j0.err;
			}
		}
	}
	/* AddrMod (both generators), for the ADCs used */
	const struct ttx_cfg_field_info *am = &ttx_thread_cfg_fields[TTX_THCFG_ADDR_MOD_PACK_SEC0_YsrcIncr];
	uint16_t mod = t->thread_config[thread][am->word + a.AddrMod];
	for (unsigned w = 0; w < TTX_THREADS; w++) {
		struct ttx_adc_channel *c0 = &t->adc[w].packers.ch[0], *c1 = &t->adc[w].packers.ch[1];
		if (adc_in[w]) {
			if (mod >> 5 & 1)
				c0->y = c0->y_cr = 0;
			else if (mod >> 4 & 1)
				c0->y = c0->y_cr = (c0->y_cr + (mod & 15)) & 0x1FFF;
			else
				c0->y = (c0->y + (mod & 15)) & 0x1FFF;
			if (mod >> 13 & 1)
				c0->z = c0->z_cr = 0;
			else
				c0->z = (c0->z + (mod >> 12 & 1)) & 0xFF;
		}
		if (adc_out[w]) {
			if (mod >> 11 & 1)
				c1->y = c1->y_cr = 0;
			else if (mod >> 10 & 1)
				c1->y = c1->y_cr = (c1->y_cr + (mod >> 6 & 15)) & 0x1FFF;
			else
				c1->y = (c1->y + (mod >> 6 & 15)) & 0x1FFF;
			if (mod >> 15 & 1)
				c1->z = c1->z_cr = 0;
			else
				c1->z = (c1->z + (mod >> 14 & 1)) & 0xFF;
		}
	}

	/* the pipelines */
	for (unsigned i = 0; i < 4; i++) {
		if (!(mask >> i & 1))
			continue;
		struct pcfg pc = packer_cfg(cfg, i);
		struct ttx_packer *pk = &t->packer[i];
		struct job j = {
			.t = t, .thread = thread, .i = i, .word = word, .pk = pk, .pc = pc,
			.from = IN_FORMAT(pc), .to = OUT_FORMAT(pc), .family = e.family,
			.acc = PACK_L1_ACC(pc),
			.compress = !(cfg[58] >> 21 & 1 ? cfg[58] >> (17 + i) & 1 : DISABLE_ZC(pc)),
		};
		j.bfp = ttx_fmt_is_bfp(j.to);
		j.out_bits = ttx_fmt_datum_bits(j.to);
		if (j.acc && (j.bfp || j.to == TTX_FMT_FP8))
			return fault(t, thread, word, "packer %u: L1 accumulation (Pack_L1_Acc) of %s output is not defined "
			             "by the documentation", i, ttx_format_info(j.to)->name);
		if (j.acc && j.compress)
			return fault(t, thread, word, "packer %u: L1 accumulation of compressed output is not defined", i);
		int r = run_packer(&j, &in[i], &e, word, a.Last || a.Flush);
		if (r)
			return r;
		if (j.compress && !a.Concat)
			row_end(&j);
		if (a.Last || a.Flush) {
			if (j.bfp && pk->block_len)
				bfp_block_out(&j);
			if (j.compress && pk->group_len)
				group_out(&j);
			stream_flush(&j, &pk->rsi, false);
			stream_flush(&j, &pk->exps, false);
			stream_flush(&j, &pk->data, true);
			if (j.err)
				return j.err;
			/* sideband metadata (TT/TDMA-RISC.md) */
			pk->last_tile_size = pk->tile_words;
			pk->last_thread = (uint8_t)thread;
			pk->acc_tile_size[thread] = (uint16_t)(pk->acc_tile_size[thread] + pk->last_tile_size +
			                                       add_tile_header(&pc, i));
			if (ENABLE_OUT_FIFO(pc) && pk->fifo_len < TTX_PACK_FIFO) {
				pk->fifo[pk->fifo_len].size = pk->last_tile_size;
				pk->fifo[pk->fifo_len++].zero_flags = pk->all_zero_flags;
			}
			pk->rsi.needs_new = pk->exps.needs_new = pk->data.needs_new = 1;
		}
		if (j.err)
			return j.err;
		ttx_timing_packer(t, j.writes, j.datums, j.acc);
	}
	return TTX_OK;
}

/* TC/PACR_SETREG.md: once the earlier PACRs are through the late conversion
   (at once in ttx), flush the output buffers and write Value32 to the MMIO
   window SetRegBase selects; addresses below 0xFFB11000 are undefined. */
int ttx_pack_PACR_SETREG(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_PACR_SETREG a = ttx_decode_PACR_SETREG(word);
	unsigned bank = ttx_cfg_bank(t, thread);
	uint32_t addr = 0xFFB00000u + t->pack_setreg_base[a.AddrSel] + (a.AddrMid << 12);
	uint32_t hi = a.Value10 * t->pack_setreg_scaler[OUT_FORMAT(packer_cfg(t->config[bank], 0)) & 3];
	uint32_t value = a.Value10 + ((hi & 0x1FFFF) << 12);
	if (addr < 0xFFB11000u)
		return fault(t, thread, word, "writes 0x%08X, below 0xFFB11000 (undefined; set the window with "
		             "RISCV_TDMA_REG_FIFO_PACKED_TILE_STATUS)", addr);
	for (unsigned i = 0; i < 4; i++) {
		struct ttx_packer *pk = &t->packer[i];
		struct job j = { .t = t, .thread = thread, .i = i, .word = word, .pk = pk,
		                 .pc = packer_cfg(t->config[bank], i) };
		j.to = OUT_FORMAT(j.pc);
		j.acc = PACK_L1_ACC(j.pc);
		stream_flush(&j, &pk->rsi, false);
		stream_flush(&j, &pk->exps, false);
		stream_flush(&j, &pk->data, true);
		if (j.err)
			return j.err;
	}
	if (addr < 0xFFB80000u && ttx_mmio_write(t, thread, addr, value) != TTX_OK)
		return fault(t, thread, word, "register write to 0x%08X: %s", addr, t->error);
	return TTX_OK;
}

/* TBUFCMD: a reserved opcode with no page. */
int ttx_pack_TBUFCMD(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_undocumented(t, thread, word);
}

/* TC/CLREXPHIST.md (a Matrix Unit instruction). */
int ttx_matrix_CLREXPHIST(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	(void)thread, (void)word;
	for (unsigned i = 0; i < 4; i++) {
		memset(t->packer[i].exp_hist, 0, sizeof(t->packer[i].exp_hist));
		t->packer[i].exp_hist_max = 0;
	}
	return TTX_OK;
}

/* TC/SETDMAREG_Special.md InputSource 0-9: the 128-bit Values. */
void ttx_pack_special_values(struct ttx_tile *t, unsigned thread, unsigned source, unsigned which_packers,
                             uint32_t values[4])
{
	memset(values, 0, 16);
	unsigned bank = ttx_cfg_bank(t, thread);
	const uint32_t *cfg = t->config[bank];
	switch (source) {
	case 0:
		for (unsigned i = 0; i < 4; i++) {
			const struct ttx_packer *pk = &t->packer[i];
			uint32_t lo = pk->last_thread == thread ? pk->last_tile_size : 0;
			values[i] = (uint32_t)pk->acc_tile_size[thread] << 16 | lo;
		}
		break;
	case 1:
		for (unsigned i = 0; i < 4; i++)
			values[i] = t->packer[i].all_zero_flags;
		break;
	case 2: case 3: case 4: case 5: {
		unsigned i = source - 2;
		const struct ttx_packer *pk = &t->packer[i];
		struct pcfg pc = packer_cfg(cfg, i);
		uint32_t size = (pk->last_thread == thread ? pk->last_tile_size : 0) + 1u;
		unsigned dzc = cfg[58] >> 21 & 1 ? cfg[58] >> (17 + i) & 1 : DISABLE_ZC(pc);
		values[0] = size & 0xFFFF;
		values[1] = OUT_FORMAT(pc) << 16 | dzc << 20;
		values[2] = pk->all_zero_flags;
		break;
	}
	case 6: case 7:
		memcpy(values, &t->packer[which_packers & 3].exp_hist[(source - 6) * 16], 16);
		break;
	case 8:
		for (unsigned i = 0; i < 4; i++) {
			values[0] |= (t->packer[i].all_zero_flags & 1) << i;
			if (which_packers >> i & 1)
				memset(t->packer[i].acc_tile_size, 0, sizeof(t->packer[i].acc_tile_size));
		}
		break;
	case 9:
		values[0] = t->packer[0].exp_hist_max;
		break;
	default:
		break;
	}
}
