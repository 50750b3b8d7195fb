/* The unpackers (TC/Unpackers/README.md): UNPACR and UNPACR_NOP.
 *
 * UNPACR follows the functional model of TC/UNPACR_Regular.md statement by
 * statement: contexts, tile descriptor, exponent section, decompression,
 * tilize (DiscontiguousInputRows), upsampling, X/Y transpose (Haloize_mode),
 * Unpack_limit_address wrap-around, format conversion, and the writes to
 * SrcA, SrcB or Dst.  Fractional L1 addresses are kept exactly: datum and
 * delta addresses in bits, exponent addresses in sixteenths of a byte.
 *
 * Choices where the pages leave one (docs/formats.md "Unpackers"):
 *  - the unpacker waits for its Src bank before it writes anything: the
 *    instruction blocks (TTX_BLOCKED) until the Matrix Unit hands the bank
 *    back, then runs whole (the page waits datum by datum, with the same
 *    result since nothing else writes the bank meanwhile); under --strict
 *    the wait is a fault, so that a kernel is checked to synchronise its
 *    threads explicitly (semaphores, dvalid checks) before it unpacks;
 *  - UndefinedBehaviour() and bad configuration stop with a fault naming the
 *    instruction and the field; UnsupportedFunctionality() runs as modelled
 *    but faults under --strict;
 *  - FP32ToFP16 (named, not defined) truncates, flushes below 2^-14 to +-0 and
 *    saturates to +-0x7FFF, as the reference does (tests/vectors/pack). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "units.h"
#include "formats.h"
#include "simd16.h"

#define SEC(u) (52u + 40u * (u))            /* THCON_SEC<u> first Config word */

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

/* ---- format conversion (TC/UNPACR_Regular.md FormatConversion) ---- */

static uint32_t write_dst_bf16(uint32_t x)
{
	return (x & 0x8000) | (x & 0x7F) << 8 | (x & 0x7F80) >> 7;
}

static uint32_t write_dst_fp16(uint32_t x)
{
	return (x & 0x8000) | (x & 0x3FF) << 5 | (x & 0x7C00) >> 10;
}

static uint32_t write_dst_fp32(uint32_t x)
{
	return write_dst_bf16(x >> 16) << 16 | (x & 0xFFFF);
}

static uint32_t write_src_tf32(uint32_t x)
{
	return (x & 0x40000) | (x & 0x3FF) << 8 | (x & 0x3FC00) >> 10;
}

static uint32_t write_src_bf16(uint32_t x)
{
	return write_src_tf32(x << 3);
}

static uint32_t write_src_fp16(uint32_t x)
{
	return write_src_tf32((x & 0x8000) << 3 | (x & 0x7FFF));
}

/* FP32ToFP16 (the reference's reading, docs/formats.md). */
static uint32_t fp32_to_fp16(uint32_t x)
{
	uint32_t sign = x >> 16 & 0x8000;
	int e = (int)(x >> 23 & 0xFF) - 127 + 15;
	if (e <= 0)
		return sign;
	if (e > 31)
		return sign | 0x7FFF;
	return sign | (uint32_t)e << 10 | (x >> 13 & 0x3FF);
}

static uint32_t bfp8_to_bf16(uint32_t d, uint8_t e)
{
	uint32_t sign = d >> 7 & 1;
	uint8_t mag = (uint8_t)(d << 1);
	if (mag == 0)
		return sign ? 0xFF80 : 0;
	unsigned lz = (unsigned)__builtin_clz(mag) - 24;
	mag = (uint8_t)(mag << lz);
	e = (uint8_t)(e - lz);
	return sign << 15 | (uint32_t)e << 7 | (mag & 0x7E);
}

/* Returns 0x10000 | result on UndefinedBehaviour (the exponent leaves 5 bits). */
static uint32_t bfp8a_to_fp16(uint32_t d, uint8_t e)
{
	uint32_t sign = d >> 7 & 1;
	uint8_t mag = (uint8_t)(d << 1);
	if (mag == 0)
		return sign ? 0xFC00 : 0;
	unsigned lz = (unsigned)__builtin_clz(mag) - 24;
	mag = (uint8_t)(mag << lz);
	e = (uint8_t)(e - lz);
	if (e & 0xE0)
		return 0x10000;
	return sign << 15 | (uint32_t)e << 10 | (uint32_t)(mag & 0x7E) << 3;
}

struct unpack_fmt {
	unsigned in, out;
	bool to_dst;
	bool int8_unsigned;
};

#define CONV_UB 0xFFFFFFFFu

/* One datum's conversion; CONV_UB where the page says UndefinedBehaviour. */
static uint32_t convert(const struct unpack_fmt *f, uint32_t d, uint8_t exp)
{
	unsigned in = f->in;
	if (in == TTX_FMT_FP32) {
		switch (f->out) {
		case TTX_FMT_FP32:
			break;
		case TTX_FMT_TF32:
			return f->to_dst ? write_dst_fp32(d) : write_src_tf32(d >> 13);
		case TTX_FMT_BF16:
			if (!(d & 0x7F800000))
				d &= 0x80000000u;
			d >>= 16;
			in = TTX_FMT_BF16;
			break;
		case TTX_FMT_FP16:
			d = fp32_to_fp16(d);
			in = TTX_FMT_FP16;
			break;
		default:
			return CONV_UB;
		}
	} else {
		if (f->in != f->out)
			return CONV_UB;
		switch (in) {
		case TTX_FMT_FP8: d <<= 8; in = TTX_FMT_FP16; break;
		case TTX_FMT_BFP8: d = bfp8_to_bf16(d, exp); in = TTX_FMT_BF16; break;
		case TTX_FMT_BFP4: d = bfp8_to_bf16(d << 4, exp); in = TTX_FMT_BF16; break;
		case TTX_FMT_BFP2: d = bfp8_to_bf16(d << 6, exp); in = TTX_FMT_BF16; break;
		case TTX_FMT_BFP8A: d = bfp8a_to_fp16(d, exp); in = TTX_FMT_FP16; break;
		case TTX_FMT_BFP4A: d = bfp8a_to_fp16(d << 4, exp); in = TTX_FMT_FP16; break;
		case TTX_FMT_BFP2A: d = bfp8a_to_fp16(d << 6, exp); in = TTX_FMT_FP16; break;
		case TTX_FMT_INT8: {
			uint32_t sign = f->int8_unsigned ? 0 : d & 0x80;
			d -= sign;
			if (d)
				d |= 16u << 10;     /* the dummy exponent of the FP16 overlay */
			d |= sign << 8;
			in = TTX_FMT_FP16;
			break;
		}
		case TTX_FMT_TF32:
			return f->to_dst ? write_dst_fp32(d) : CONV_UB;
		default:
			break;
		}
		if (d & 0x10000 && in == TTX_FMT_FP16)
			return CONV_UB;
	}
	switch (in) {
	case TTX_FMT_INT16: return f->to_dst ? d : ((d & 0xFF00) << 3) | (d & 0xFF);
	case TTX_FMT_INT32:
	case TTX_FMT_FP32:  return f->to_dst ? write_dst_fp32(d) : CONV_UB;
	case TTX_FMT_BF16:  return f->to_dst ? write_dst_bf16(d) : write_src_bf16(d);
	case TTX_FMT_FP16:  return f->to_dst ? write_dst_fp16(d) : write_src_fp16(d);
	default:            return CONV_UB;
	}
}

/* ---- L1 reads with the page's fractional addresses ---- */

/* ReadL1Bytes at a bit address; false past the end of L1. */
static bool read_bits(const struct ttx_tile *t, uint64_t bitaddr, unsigned nbits, uint32_t *out)
{
	if (bitaddr / 8 >= TTX_L1_SIZE || (bitaddr + nbits - 1) / 8 >= TTX_L1_SIZE)
		return false;
	uint32_t v = 0;
	for (unsigned i = 0; i < nbits; i += 8, bitaddr += 8) {
		unsigned n = nbits - i < 8 ? nbits - i : 8;
		v |= (uint32_t)((t->l1[bitaddr >> 3] >> (bitaddr & 7)) & ((1u << n) - 1)) << i;
	}
	*out = v;
	return true;
}

/* ---- UNPACR (TC/UNPACR_Regular.md) ---- */

struct unpacr {
	unsigned u, ctx, which_adc;
	bool multi, uncompressed, tileize, transpose, to_dst, interleave;
	const uint32_t *cfg;
	uint32_t td[4];              /* TileDescriptor */
	uint32_t xdim, ydim, zdim, wdim;
	unsigned datum_bits;
	uint64_t limit, fifo;        /* Unpack_limit_address * 16, Unpack_fifo_size * 16, bytes */
};

/* WrapAddr on an address in units of 1/scale byte. */
static uint64_t wrap(const struct unpacr *p, uint64_t a, unsigned scale)
{
	return a > p->limit * scale ? a - p->fifo * scale : a;
}

/* convert() of a row of 16 BF16 or FP16 datums to their own format (the
   bulk of a matmul's unpacking), as bit moves on 16 lanes. */
static void convert16_row(const struct unpack_fmt *f, const uint8_t *l1, uint32_t v[16])
{
	uint16_t raw[16];
	memcpy(raw, l1, sizeof(raw));
	simde__m512i x = ttx_load16_u16(raw), sign = simde_mm512_and_si512(x, simde_mm512_set1_epi32(0x8000));
	simde__m512i y;
	bool bf16 = f->in == TTX_FMT_BF16;
	if (f->to_dst) {
		/* write_dst_bf16 / write_dst_fp16: Sign, Man, Exp */
		unsigned mbits = bf16 ? 7 : 10;
		simde__m512i man = simde_mm512_and_si512(x, simde_mm512_set1_epi32((1 << mbits) - 1));
		simde__m512i exp = simde_mm512_and_si512(x, simde_mm512_set1_epi32(0x7FFF & ~((1 << mbits) - 1)));
		y = simde_mm512_or_si512(sign, simde_mm512_slli_epi32(man, 15 - mbits));
		y = simde_mm512_or_si512(y, simde_mm512_srli_epi32(exp, mbits));
	} else {
		/* write_src_tf32 of the datum widened to TF32's 19 bits */
		simde__m512i w = bf16 ? simde_mm512_slli_epi32(x, 3)
		                      : simde_mm512_or_si512(simde_mm512_slli_epi32(sign, 3),
		                                             simde_mm512_and_si512(x, simde_mm512_set1_epi32(0x7FFF)));
		y = simde_mm512_and_si512(w, simde_mm512_set1_epi32(0x40000));
		y = simde_mm512_or_si512(y, simde_mm512_slli_epi32(simde_mm512_and_si512(w, simde_mm512_set1_epi32(0x3FF)), 8));
		y = simde_mm512_or_si512(y, simde_mm512_srli_epi32(simde_mm512_and_si512(w, simde_mm512_set1_epi32(0x3FC00)),
		                                                   10));
	}
	simde_mm512_storeu_si512(v, y);
}

/* One row of 16 plain datums from L1 bit address `data` to output
   address out_addr (a multiple of 16), as the datum loop of regular()
   writes it; false, with nothing written, where the row needs that loop
   (a datum past L1 or not byte aligned, a conversion that is undefined,
   rows the loop skips or faults on). */
static bool row_fast(struct ttx_tile *t, const struct unpacr *p, const struct unpack_fmt *f, uint64_t data,
                     uint32_t out_addr, uint8_t sbank, uint32_t src_row, bool set_ovrd, bool dst32)
{
	unsigned bytes = p->datum_bits / 8;
	if (out_addr % 16 || data % 8 || data / 8 + 16 * bytes > TTX_L1_SIZE)
		return false;
	const uint8_t *l1 = t->l1 + data / 8;
	uint32_t v[16];
	if (bytes == 2 && f->in == f->out && (f->in == TTX_FMT_BF16 || f->in == TTX_FMT_FP16)) {
		convert16_row(f, l1, v);
	} else {
		for (unsigned c = 0; c < 16; c++) {
			uint32_t d = bytes == 2 ? (uint32_t)l1[2 * c] | (uint32_t)l1[2 * c + 1] << 8
			                        : (uint32_t)l1[4 * c] | (uint32_t)l1[4 * c + 1] << 8 |
			                          (uint32_t)l1[4 * c + 2] << 16 | (uint32_t)l1[4 * c + 3] << 24;
			v[c] = convert(f, d, 0);
			if (v[c] == CONV_UB)
				return false;
		}
	}
	uint32_t row = out_addr / 16;
	uint32_t *to;
	if (p->u == 1) {
		to = t->srcb[sbank].rows[(row + src_row) & 0x3F];
	} else if (!p->to_dst) {
		if (row < 4 || (set_ovrd ? row - 4 >= 64 : row - 4 >= 16))
			return false;
		to = t->srca[sbank].rows[(row - 4 + (set_ovrd ? 0 : src_row)) & 0x3F];
	} else {
		row = (row - 4) & (set_ovrd ? 15 : 0x3FF);
		if (!dst32)
			ttx_dst16_define(t, row);
		for (unsigned c = 0; c < 16; c++)
			if (dst32)
				ttx_dst32_set(t, row, c, v[c]);   /* defines both DstBits rows */
			else
				t->dst[row][c] = (uint16_t)v[c];
		return true;
	}
	/* (a vector copy: GCC's generic tuning copies 64 bytes with rep movs,
	   slower than the conversion) */
	simde_mm512_storeu_si512(to, simde_mm512_loadu_si512(v));
	return true;
}

static int regular(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_UNPACR_Regular a = ttx_decode_UNPACR_Regular(word);
	struct unpacr p = { .u = a.WhichUnpacker, .multi = a.MultiContextMode };
	unsigned bank = ttx_cfg_bank(t, thread);
	p.cfg = t->config[bank];
	for (unsigned i = 0; i < 4; i++)
		p.td[i] = p.cfg[SEC(p.u) + i];

	if (p.multi) {
		p.ctx = a.UseContextCounter ? t->unpacker_context[p.u][thread] : a.ContextNumber;
		p.ctx = (p.ctx + ttx_thread_cfg_get(t, thread, p.u ? TTX_THCFG_UNPACK_MISC_CFG_CfgContextOffset_1
		                                                 : TTX_THCFG_UNPACK_MISC_CFG_CfgContextOffset_0)) & 7;
		p.which_adc = a.ContextADC;
		if (p.u == 1 && p.ctx >= 2)
			return fault(t, thread, word, "unpacker 1 has contexts 0 and 1 only, context %u selected "
			             "(undefined, TC/UNPACR_Regular.md)", p.ctx);
		if (p.which_adc == 3)
			return fault(t, thread, word, "ContextADC 3 is undefined (TC/UNPACR_Regular.md)");
	} else {
		p.ctx = 0;
		p.which_adc = thread;
	}

	/* the tile descriptor and the context's fields */
	const uint32_t *c = p.cfg + SEC(p.u);
	unsigned ctxlo = p.ctx & 3, ctxhi = p.ctx >> 2;
	p.uncompressed = p.multi ? bits_of(c[9], p.ctx + 12 * ctxhi, 1) : bits_of(p.td[0], 4, 1);
	p.xdim = p.multi && p.u == 0 ? bits_of(c[22 + ctxlo / 2], 16 * (ctxlo & 1), 16) : bits_of(p.td[0], 16, 16);
	p.ydim = bits_of(p.td[1], 0, 8);
	p.zdim = bits_of(p.td[1], 16, 8) ? bits_of(p.td[1], 16, 8) : 1;
	p.wdim = bits_of(p.td[2], 0, 8) ? bits_of(p.td[2], 0, 8) : 1;
	unsigned blobs = bits_of(p.td[0], 8, 3), digest = bits_of(p.td[3], 24, 8);
	struct unpack_fmt f;
	if (p.multi && bits_of(c[8], 14, 1)) {                 /* Ovrd_data_format */
		f.in = bits_of(c[28 + ctxlo], 16 + 8 * ctxhi, 4);
		f.out = bits_of(c[28 + ctxlo], 20 + 8 * ctxhi, 4);
	} else {
		f.in = bits_of(p.td[0], 0, 4);
		f.out = bits_of(c[8], 0, 4);                        /* REG2_Out_data_format */
	}
	p.datum_bits = ttx_fmt_datum_bits(f.in);
	if (!p.datum_bits)
		return fault(t, thread, word, "InDataFormat %u is not a data format (TC/Unpackers/FormatConversion.md)",
		             f.in);

	uint64_t in_addr = p.multi && p.ctx != 0 ? (uint64_t)c[12 + p.ctx] + (bits_of(c[28 + ctxlo], 0, 16))
	                                         : (uint64_t)c[12] + bits_of(c[28], 0, 16);
	in_addr = (in_addr + 1 + digest) * 16;
	uint64_t row_start = 0;
	if (!p.uncompressed) {
		row_start = in_addr;
		uint64_t n = blobs ? (uint64_t)blobs * p.zdim * p.wdim : (uint64_t)p.ydim * p.zdim * p.wdim;
		in_addr += ((n + 1) * 2 + 15) / 16 * 16;
	}
	bool force_exp = bits_of(c[9], 8, 1);
	bool has_exps = ttx_fmt_is_bfp(f.in) && !force_exp;
	uint64_t exp_addr = 0;                                  /* sixteenths of a byte */
	if (has_exps) {
		exp_addr = in_addr * 16;
		if (f.in == TTX_FMT_BFP8 || f.in == TTX_FMT_BFP8A || !bits_of(p.td[0], 5, 1)) {
			uint64_t nexp = ((uint64_t)p.xdim * p.ydim * p.zdim * p.wdim + 15) / 16;
			in_addr += (nexp + 15) / 16 * 16;
		}
	}

	/* first datum and count */
	struct ttx_adc_channel *xy = &t->adc[p.which_adc].unpacker[p.u].ch[0];
	const struct ttx_adc_channel *zw = &t->adc[thread].unpacker[p.u].ch[0];
	uint32_t ch1x = t->adc[p.which_adc].unpacker[p.u].ch[1].x;
	uint64_t first, count = 0;
	uint32_t drop = 0, dcount = UINT32_MAX;
	if (p.uncompressed) {
		uint32_t xpos, ypos, xend;
		if (!a.RowSearch) {
			xpos = xy->x, ypos = xy->y, xend = ch1x + 1;
		} else if (blobs) {
			uint32_t ystart = p.multi && p.u == 0 ? p.cfg[42 + (p.ctx & 2) / 2]
			                                      : bits_of(p.td[2], 16, 16) | bits_of(p.td[3], 0, 16) << 16;
			xpos = bits_of(ystart, 4 * (xy->y & 7), 4) << 4;
			ypos = 0;
			unsigned x71 = (xy->x & 7) + 1;
			xend = x71 == blobs ? (p.xdim & 0x1F0) : bits_of(ystart, 4 * (x71 & 7), 4) << 4;
		} else {
			xpos = 0, ypos = xy->y, xend = ch1x;
		}
		if (xend < xpos)
			return fault(t, thread, word, "the datum range ends (ADC X end %u) before it starts (%u)", xend, xpos);
		first = (((uint64_t)zw->w * p.zdim + zw->z) * p.ydim + ypos) * p.xdim + xpos;
		count = xend - xpos;
	} else {
		uint32_t ydim = a.RowSearch && blobs ? blobs : p.ydim;
		row_start += ((uint64_t)zw->w * p.zdim + zw->z) * ydim * 2;
		uint32_t rs0, rs1;
		if (!read_bits(t, (row_start + 2 * (xy->y & 0xFF)) * 8, 16, &rs0))
			return fault(t, thread, word, "the row start index array at 0x%llX is outside L1",
			             (unsigned long long)row_start);
		first = rs0;
		if (a.RowSearch || (xy->x == 0 && ch1x == p.xdim - 1)) {
			unsigned idx = a.RowSearch ? (xy->x & 0xFF) + 1 : (xy->y & 0xFF) + 1;
			if (!read_bits(t, (row_start + 2 * idx) * 8, 16, &rs1))
				return fault(t, thread, word, "the row start index array at 0x%llX is outside L1",
				             (unsigned long long)row_start);
			if (rs1 < rs0)
				return fault(t, thread, word, "row start indices decrease (%u then %u)", rs0, rs1);
			count = rs1 - rs0;
		} else {
			drop = xy->x;
			if (ch1x + 1 < drop)
				return fault(t, thread, word, "the datum range ends (ADC X end %u) before it starts (%u)",
				             ch1x + 1, drop);
			dcount = ch1x + 1 - drop;
			count = UINT32_MAX;
		}
	}

	uint64_t data = in_addr * 8, deltas = 0;               /* bit addresses */
	exp_addr += first;
	if (p.uncompressed) {
		data += first * p.datum_bits;
	} else {
		data += first / 32 * (32 * p.datum_bits + 128);
		deltas = data + 32 * p.datum_bits + (first % 32) * 4;
		data += (first % 32) * p.datum_bits;
	}
	p.limit = (uint64_t)bits_of(c[10], 0, 17) * 16;
	p.fifo = (uint64_t)bits_of(c[11], 0, 17) * 16;
	exp_addr = wrap(&p, exp_addr, 16);
	data = wrap(&p, data, 8);
	deltas = wrap(&p, deltas, 8);

	p.tileize = bits_of(c[8], 9, 1);
	uint64_t row_stride = p.tileize ? (uint64_t)(bits_of(c[8], 16, 4) << 4 | bits_of(c[8], 20, 4) << 8 |
	                                             bits_of(c[8], 24, 4) << 12) * 8
	                                : 16ull * p.datum_bits;

	/* output address */
	if (p.u == 0) {
		p.to_dst = p.multi ? bits_of(c[9], 4 + p.ctx + 12 * ctxhi, 1) : bits_of(c[8], 11, 1);
		p.transpose = bits_of(c[8], 8, 1);
	}
	f.to_dst = p.to_dst;
	f.int8_unsigned = ttx_cfg_get(t, bank, p.u ? TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcBUnsigned
	                                           : TTX_CFG_ALU_FORMAT_SPEC_REG0_SrcAUnsigned);
	const struct ttx_adc_channel *out = &t->adc[thread].unpacker[p.u].ch[1];
	uint32_t unp = p.u ? 8 : 0;                            /* UNP1_* words are 8 after UNP0_* */
	uint32_t out_addr = bits_of(p.cfg[40 + unp], 16, 16) + out->y * bits_of(p.cfg[44 + unp / 4], 12, 12) +
	                    out->z * bits_of(p.cfg[45 + unp / 4], 0, 12) + out->w * bits_of(p.cfg[45 + unp / 4], 12, 16);
	if (f.out == TTX_FMT_FP32 || f.out == TTX_FMT_TF32 || f.out == TTX_FMT_INT32) {
		if (out_addr & 3)
			return fault(t, thread, word, "output address %u is not a multiple of 4 for a 32-bit format "
			             "(undefined)", out_addr);
		out_addr >>= 2;
	} else if (f.out == TTX_FMT_FP16 || f.out == TTX_FMT_BF16 || f.out == TTX_FMT_INT16) {
		if (out_addr & 1)
			return fault(t, thread, word, "output address %u is odd for a 16-bit format (undefined)", out_addr);
		out_addr >>= 1;
	}
	if (p.multi && p.u == 0) {
		uint32_t ctx_out = bits_of(c[20 + ctxlo / 2], 16 * (ctxlo & 1), 16);
		if (p.to_dst || bits_of(p.cfg[41 + unp], 8, 1))
			out_addr += ctx_out;
		else
			out_addr = ctx_out;
	}
	unsigned upsample = (1u << bits_of(c[8], 12, 2)) - 1;
	p.interleave = bits_of(c[8], 15, 1);
	unsigned col_shift = p.tileize || p.u == 1 ? 0 : bits_of(c[8], 16 + 4 * ctxlo, 4);

	if ((p.transpose || p.tileize) && data % 128)
		return fault(t, thread, word, "Haloize_mode and Tileize_mode need a 16-byte aligned datum address "
		             "(0x%llX.%u is not; undefined)", (unsigned long long)(data / 8), (unsigned)(data % 8));
	if (p.tileize && (upsample || !p.uncompressed))
		return fault(t, thread, word, "Tileize_mode with upsampling or compressed data is undefined");
	if (p.to_dst && (col_shift || p.transpose))
		return fault(t, thread, word, "unpacking to Dst with a column shift or Haloize_mode is undefined");

	/* the Src bank must belong to the unpackers before anything is written */
	bool set_ovrd = ttx_thread_cfg_get(t, thread, TTX_THCFG_SRCA_SET_SetOvrdWithAddr);
	uint8_t sbank = t->unpacker_src_bank[p.u] & 1;
	struct ttx_src_bank *src = p.u ? &t->srcb[sbank] : &t->srca[sbank];
	ttx_timing_src_dep(t, thread, 2 * p.u + sbank);
	if (count && dcount && src->allowed_client != TTX_SRC_UNPACKERS) {
		if (t->opt.strict)
			return fault(t, thread, word, "Src%c bank %u is owned by the Matrix Unit (--strict: the program "
			             "relies on the unpacker waiting for it; synchronise first)", p.u ? 'B' : 'A', sbank);
		return TTX_BLOCKED;
	}

	bool dst32 = f.out == TTX_FMT_FP32 || f.out == TTX_FMT_TF32 || f.out == TTX_FMT_INT32;
	uint8_t forced_exp = (uint8_t)bits_of(p.cfg[41 + unp], 0, 8);
	uint32_t src_row = t->unpacker_src_row[p.u][thread];
	/* whole rows of plain 16- or 32-bit data take row_fast (the loop below
	   datum by datum does the same) */
	bool rows_ok = p.uncompressed && !ttx_fmt_is_bfp(f.in) && !upsample && !p.interleave && !a.AllDatumsAreZero &&
	               !drop && !p.transpose && !col_shift && (p.datum_bits == 16 || p.datum_bits == 32);
	uint64_t nread = 0;   /* datums read */
	for (uint64_t i = 0; i < count && dcount; nread = i) {
		if (rows_ok && i % 16 == 0 && count - i >= 16 && dcount >= 16 &&
		    row_fast(t, &p, &f, data, out_addr, sbank, src_row, set_ovrd, dst32)) {
			i += 16, dcount -= 16, out_addr += 16;
			data = wrap(&p, data + row_stride, 8);
			continue;
		}
		uint32_t d, e = 0, zeros = 0;
		if (!read_bits(t, data, p.datum_bits, &d))
			return fault(t, thread, word, "reads L1 at 0x%llX, past the end of L1 (0x%X); check the base "
			             "address, tile descriptor and ADCs", (unsigned long long)(data / 8), TTX_L1_SIZE);
		data += p.datum_bits;
		if (++i % 16 == 0)
			data = wrap(&p, data - 16 * p.datum_bits + row_stride, 8);
		if (ttx_fmt_is_bfp(f.in)) {
			if (force_exp) {
				e = forced_exp;
			} else {
				if (!read_bits(t, exp_addr / 16 * 8, 8, &e))
					return fault(t, thread, word, "reads exponents at 0x%llX, past the end of L1",
					             (unsigned long long)(exp_addr / 16));
				exp_addr++;
				if (exp_addr % 256 == 0)
					exp_addr = wrap(&p, exp_addr, 16);
			}
		}
		if (!p.uncompressed) {
			if (!read_bits(t, deltas, 4, &zeros))
				return fault(t, thread, word, "reads zero counts at 0x%llX, past the end of L1",
				             (unsigned long long)(deltas / 8));
			deltas += 4;
			if (deltas % 128 == 0) {
				data += 128;
				deltas = wrap(&p, deltas + 32ull * p.datum_bits, 8);
			}
		}
		uint32_t v = convert(&f, d, (uint8_t)e);
		if (v == CONV_UB)
			return fault(t, thread, word, "converting datum 0x%X from format %u to %u%s is undefined "
			             "(TC/UNPACR_Regular.md FormatConversion)", d, f.in, f.out, p.to_dst ? " in Dst" : "");
		if (a.AllDatumsAreZero)
			v = 0, zeros = 0;
		for (uint32_t j = 0; j <= zeros; j++, v = 0) {
			if (drop) {
				drop--;
				continue;
			}
			for (unsigned k = 0; k <= upsample; k++, v = 0, out_addr++) {
				if (p.interleave && k != 0)
					continue;
				uint32_t row = out_addr / 16, col = out_addr & 15;
				if (p.u == 1) {
					t->srcb[sbank].rows[(row + src_row) & 0x3F][col] = v;
				} else if (!p.to_dst) {
					if (row < 4 || col < col_shift)
						continue;
					row -= 4, col -= col_shift;
					if (set_ovrd ? row >= 64 : row >= 16)
						return fault(t, thread, word, "SrcA row %u is out of range (%s; undefined)", row,
						             set_ovrd ? "SetOvrdWithAddr: 0-63" : "0-15 before SrcRow");
					if (!set_ovrd)
						row += src_row;
					if (p.transpose) {
						uint32_t low = row & 15;
						row = (row & ~15u) | col;
						col = low;
					}
					t->srca[sbank].rows[row & 0x3F][col] = v;
				} else {
					row = (row - 4) & (set_ovrd ? 15 : 0x3FF);
					if (dst32) {
						ttx_dst32_set(t, row, col, v);
					} else {
						ttx_dst16_define(t, row);
						t->dst[row][col] = (uint16_t)v;
					}
				}
			}
			if (--dcount == 0)
				break;
		}
	}

	/* the L1 reads, for the cycle model: datums, zero counts, exponents */
	if (t->timing.on) {
		uint64_t bits = nread * p.datum_bits + (p.uncompressed ? 0 : 4 * nread) +
		                (has_exps ? nread / 16 * 8 : 0);
		bool to_dst_bfp4 = p.to_dst && (f.in == TTX_FMT_BFP4 || f.in == TTX_FMT_BFP4A);
		ttx_timing_unpacker(t, bits, bits_of(c[8], 4, 2),
		                    !p.uncompressed || upsample >= 3 || f.in == TTX_FMT_BFP2 || f.in == TTX_FMT_BFP2A,
		                    upsample == 1 || to_dst_bfp4);
	}

	/* counters for the next instruction */
	if (p.multi && a.UseContextCounter) {
		unsigned next = (p.ctx + 1) & 7;
		if (next >= 1u << bits_of(c[8], 6, 2))
			next = 0;
		t->unpacker_context[p.u][thread] = (uint8_t)next;
	}
	for (unsigned i = 0; i < TTX_THREADS; i++) {
		if (i != thread && i != p.which_adc)
			continue;
		struct ttx_adc *adc = &t->adc[i].unpacker[p.u];
		adc->ch[0].y = (adc->ch[0].y + a.Ch0YInc) & 0x1FFF;
		adc->ch[0].z = (adc->ch[0].z + a.Ch0ZInc) & 0xFF;
		adc->ch[1].y = (adc->ch[1].y + a.Ch1YInc) & 0x1FFF;
		adc->ch[1].z = (adc->ch[1].z + a.Ch1ZInc) & 0xFF;
	}
	unsigned base = ttx_thread_cfg_get(t, thread, p.u ? TTX_THCFG_SRCB_SET_Base : TTX_THCFG_SRCA_SET_Base) << 4;
	if (a.FlipSrc) {
		src->allowed_client = TTX_SRC_MATRIX_UNIT;
		t->unpacker_src_bank[p.u] ^= 1;
		t->unpacker_src_row[p.u][thread] = (uint8_t)(base & 0x3F);
	} else if (bits_of(c[8], 10, 1)) {                     /* Unpack_Src_Reg_Set_Upd */
		t->unpacker_src_row[p.u][thread] = (uint8_t)((src_row + 16 + base) & 0x3F);
	}
	return TTX_OK;
}

/* TC/UNPACR_IncrementContextCounter.md */
static int increment_context(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_UNPACR_IncrementContextCounter a = ttx_decode_UNPACR_IncrementContextCounter(word);
	unsigned bank = ttx_cfg_bank(t, thread);
	unsigned next = (t->unpacker_context[a.WhichUnpacker][thread] + 1u) & 7;
	if (next >= 1u << bits_of(t->config[bank][SEC(a.WhichUnpacker) + 8], 6, 2))
		next = 0;
	t->unpacker_context[a.WhichUnpacker][thread] = (uint8_t)next;
	return TTX_OK;
}

int ttx_unpack_UNPACR(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	if (word & 2)
		return TTX_OK;   /* TC/UNPACR_FlushCache.md: the RSI cache is not modelled */
	if (word & 0x2000)
		return increment_context(t, thread, word);
	return regular(t, thread, word);
}

/* ---- UNPACR_NOP ---- */

static int unsupported(struct ttx_tile *t, unsigned thread, uint32_t word, const char *what)
{
	if (!t->opt.strict)
		return TTX_OK;
	return fault(t, thread, word, "%s is UnsupportedFunctionality (no known usage; --strict)", what);
}

/* TC/UNPACR_NOP_ZEROSRC.md */
static int zerosrc(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_UNPACR_NOP_ZEROSRC a = ttx_decode_UNPACR_NOP_ZEROSRC(word);
	if (a.BothBanks) {
		int r = unsupported(t, thread, word, "UNPACR_NOP ZEROSRC with BothBanks");
		if (r != TTX_OK)
			return r;
	}
	unsigned u = a.WhichUnpacker, ubank = t->unpacker_src_bank[u] & 1;
	unsigned wbank = a.WaitLikeUnpacr ? ubank : (u ? t->matrix_srcb_bank : t->matrix_srca_bank) & 1;
	struct ttx_src_bank *s = u ? t->srcb : t->srca;
	ttx_timing_src_dep(t, thread, 2 * u + wbank);
	if (s[wbank].allowed_client != TTX_SRC_UNPACKERS)
		return TTX_BLOCKED;
	/* NegativeInfSrcA has no effect on SrcB on Wormhole (NonContractualBehavior) */
	uint32_t v = a.NegativeInfSrcA && u == 0 ? 0x7FFFF : 0;
	for (unsigned b = 0; b < 2; b++)
		if (a.BothBanks || b == ubank)
			for (unsigned r = 0; r < 64; r++)
				for (unsigned c = 0; c < TTX_COLS; c++)
					s[b].rows[r][c] = v;
	return TTX_OK;
}

/* TC/UNPACR_NOP_SETDVALID.md: like SETDVALID, sequenced with the unpacker. */
static int setdvalid(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	unsigned u = word >> 23 & 1;
	struct ttx_src_bank *s = u ? &t->srcb[t->unpacker_src_bank[1] & 1] : &t->srca[t->unpacker_src_bank[0] & 1];
	s->allowed_client = TTX_SRC_MATRIX_UNIT;
	t->unpacker_src_bank[u] ^= 1;
	t->unpacker_src_row[u][thread] =
		(uint8_t)(ttx_thread_cfg_get(t, thread, u ? TTX_THCFG_SRCB_SET_Base : TTX_THCFG_SRCA_SET_Base) << 4);
	return TTX_OK;
}

/* TC/UNPACR_NOP_SETREG.md: an MMIO write in the window SetRegBase selects
   (TDMA-RISC); a window outside what ttx emulates faults. */
static int setreg(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_UNPACR_NOP_SETREG a = ttx_decode_UNPACR_NOP_SETREG(word);
	int r = unsupported(t, thread, word, "UNPACR_NOP SETREG");
	if (r != TTX_OK)
		return r;
	uint32_t addr = 0xFFB00000u + t->unpack_setreg_base[a.AddrSel] + (a.AddrMid << 12);
	uint32_t value = a.Value11;
	if (a.Accumulate) {
		uint32_t acc = t->unpacker_setreg_acc[a.WhichUnpacker];
		if (a.Value11 == 0) {
			t->unpacker_setreg_acc[a.WhichUnpacker] = 0;
			return TTX_OK;
		}
		value = acc = (acc + a.Value11) & 0x1FFFF;
		t->unpacker_setreg_acc[a.WhichUnpacker] = acc;
	}
	if (ttx_mmio_write(t, thread, addr, value) != TTX_OK)
		return fault(t, thread, word, "register write to 0x%08X: %s", addr, t->error);
	return TTX_OK;
}

int ttx_unpack_UNPACR_NOP(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	switch (word & 7) {
	case 1: case 5:
		return zerosrc(t, thread, word);
	case 2: case 6:
		if ((word & 7) == 2)
			return TTX_OK;                           /* TC/UNPACR_NOP_Nop.md */
		break;
	case 4:
		return setreg(t, thread, word);
	case 7:
		return setdvalid(t, thread, word);
	case 0: case 3:
		return fault(t, thread, word, "writes a NoC overlay stream register (STREAM_MSG_DATA_CLEAR), "
		             "which ttx does not emulate (TC/UNPACR_NOP_OverlayClear.md, UnsupportedFunctionality)");
	}
	return ttx_fault_undocumented(t, thread, word);
}
