/* Unpackers, packers, ADCs and the mover (interp/unpack.c, interp/pack.c,
 * interp/adc.c, interp/mover.c).
 *
 * Round trips: for every L1 float format in and every float format out (and
 * the integer formats with themselves), a tile of random data goes L1 ->
 * unpacker -> SrcA (MOVA2D) or Dst -> packer -> L1, and the packer's output
 * must equal the host-side conversions (src/formats.c) of the same values
 * along the documented conversion chain (TC/Packers/FormatConversion.md):
 * the early conversion rounds to nearest, ties away; the late one truncates
 * and saturates; BFP8 blocks round (ties away), BFP4/BFP2 truncate.
 *
 * Then each feature by hand: ADC instructions, upsampling, transposition,
 * column shift, contexts, wrap-around, decompression, edge masks, ReLU,
 * exponent thresholds and histogram, downsampling, L1 accumulation, several
 * packers, compression, the mover, the Src bank handshake, and the faults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack_test.h"

#define IN_ADDR 0x10000u
#define IN2_ADDR 0x18000u
#define OUT_ADDR 0x20000u

static uint32_t rnd(uint64_t *s)
{
	return (uint32_t)(test_rand(s) >> 32);
}

/* x to `bits` significant bits by the rounding mode (test-local, in double). */
static double round_sig(double x, int bits, enum ttx_rounding r)
{
	if (x == 0 || isnan(x) || isinf(x))
		return x;
	int e;
	double m = frexp(fabs(x), &e), q = ldexp(m, bits), fl = floor(q);
	if (r == TTX_ROUND_NEAREST_AWAY)
		q = q - fl >= 0.5 ? fl + 1 : fl;
	else if (r == TTX_ROUND_TRUNCATE)
		q = fl;
	else
		q = nearbyint(q);
	double v = ldexp(q, e - bits);
	return x < 0 ? -v : v;
}

enum dst_kind { D32, D16_BF16, D16_FP16 };

static enum dst_kind dst_kind_of(enum ttx_format in)
{
	switch (in) {
	case TTX_FORMAT_FP32: case TTX_FORMAT_TF32: return D32;
	case TTX_FORMAT_BF16: case TTX_FORMAT_BFP8: case TTX_FORMAT_BFP4: case TTX_FORMAT_BFP2: return D16_BF16;
	default: return D16_FP16;
	}
}

static bool is_bfp(enum ttx_format f)
{
	return f == TTX_FORMAT_BFP8 || f == TTX_FORMAT_BFP4 || f == TTX_FORMAT_BFP2 || f == TTX_FORMAT_BFP8A ||
	       f == TTX_FORMAT_BFP4A || f == TTX_FORMAT_BFP2A;
}

static bool five_bit(enum ttx_format f)
{
	return f == TTX_FORMAT_FP16 || f == TTX_FORMAT_FP8 || f == TTX_FORMAT_BFP8A || f == TTX_FORMAT_BFP4A ||
	       f == TTX_FORMAT_BFP2A;
}

/* The packer configuration for a Dst kind and an output format: the
   IntermediateFormat (early conversion), the packer's In_data_format, and
   the precision the early conversion rounds to (significant bits, 0: none). */
struct chain {
	unsigned inter, pin;
	int early_bits;
	enum ttx_rounding early_mode;
};

static struct chain chain_of(enum dst_kind d, enum ttx_format out)
{
	struct chain c = { 0, 0, 0, TTX_ROUND_NEAREST_AWAY };
	if (d == D16_FP16) {
		if (out == TTX_FORMAT_FP8)
			c.inter = c.pin = TTX_FORMAT_FP8, c.early_bits = 3, c.early_mode = TTX_ROUND_TRUNCATE;
		else if (out == TTX_FORMAT_BFP8A || out == TTX_FORMAT_BFP4A || out == TTX_FORMAT_BFP2A)
			c.inter = c.pin = TTX_FORMAT_BFP8A, c.early_bits = 7;   /* E5M6 */
		else
			c.inter = c.pin = TTX_FORMAT_FP16;
		return c;
	}
	switch (out) {
	case TTX_FORMAT_TF32:
		c.inter = c.pin = TTX_FORMAT_TF32, c.early_bits = 11;
		break;
	case TTX_FORMAT_BF16:
		c.inter = c.pin = TTX_FORMAT_BF16, c.early_bits = 8;
		break;
	case TTX_FORMAT_BFP8: case TTX_FORMAT_BFP4: case TTX_FORMAT_BFP2:
		c.inter = c.pin = TTX_FORMAT_BFP8, c.early_bits = 7;        /* E8M6 */
		break;
	default:   /* FP32, and the late conversions to FP16, FP8 and the A formats */
		c.inter = c.pin = d == D32 ? TTX_FORMAT_FP32 : TTX_FORMAT_BF16;
		break;
	}
	return c;
}

/* One round trip of 1024 datums; returns the number of differing bytes. */
static int round_trip(enum ttx_format in, enum ttx_format out, uint64_t seed, char *why, size_t whylen)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t = ttx_tile_new(&opt);
	enum dst_kind d = dst_kind_of(in);
	struct chain c = chain_of(d, out);
	uint64_t s = seed;
	float x[1024], v[1024];
	for (unsigned i = 0; i < 1024; i++) {
		uint32_t r = rnd(&s);
		x[i] = r % 37 == 0 ? 0.0f : (r & 1 ? -1.0f : 1.0f) * ldexpf(1.0f + (float)(r >> 9) / 8388608.0f,
		                                                         (int)(r >> 1 & 15) - 8);
	}
	/* the corners (issue 31): -0; negative values that flush (below FP16's
	   2^-14, FP32 denormals, one that rounds up to -2^-126); and a block
	   whose values sit half a BFP4 step (and a hair either side) apart */
	static const uint32_t corners[] = { 0x80000000u, 0xB5800000u, 0x807FFFFFu, 0x80000001u, 0x00400000u,
	                                    0x38800000u, 0xB8000000u, 0x00000000u };
	for (unsigned k = 0; k < sizeof(corners) / sizeof(corners[0]); k++)
		memcpy(&x[100 + 7 * k], &corners[k], 4);
	for (unsigned k = 0; k < 16; k++)
		x[160 + k] = k == 0 ? -1.5f : (k & 1 ? -1.0f : 1.0f) * ((float)(k % 8) + 0.5f + (float)(k / 8) * 0.001f) / 4.0f;
	size_t nin = ttx_format_bytes(in, 1024), nout = ttx_format_bytes(out, 1024);
	uint8_t *lin = calloc(1, nin), *want = calloc(1, nout + 96), *got = calloc(1, nout + 96);
	ck_assert_int_eq(ttx_format_encode(in, TTX_ROUND_NEAREST_EVEN, x, 1024, lin, nin), TTX_OK);
	ck_assert_int_eq(ttx_format_decode(in, lin, nin, v, 1024), TTX_OK);
	l1_put(t, IN_ADDR, lin, nin);

	/* expected: early rounding, then the late conversion */
	float o[1024];
	for (unsigned i = 0; i < 1024; i++) {
		double e = v[i];
		/* through SrcA and MOVA2D into 16-bit Dst, zeros and the family's
		   denormals are +0 (MOVA2D's zero flag; pack-full 0020: BF16 -0
		   packs to FP32 +0) */
		if (d != D32 && fabs(e) < (d == D16_FP16 ? 0x1p-14 : 0x1p-126))
			e = 0.0;
		e = c.early_bits ? round_sig(e, c.early_bits, c.early_mode) : e;
		/* the early conversion's rounding to an 8-bit-exponent format
		   keeps denormals that round up to 2^-126 and makes the rest, and
		   -0, +0 (pack-full 0005) */
		if (c.early_bits && d == D32 && fabs(e) < 0x1p-126)
			e = 0.0;
		if (is_bfp(out) || out == TTX_FORMAT_BF16)   /* narrowed to BF16 / E5M7 first: 8 bits, truncated */
			e = round_sig(e, 8, TTX_ROUND_TRUNCATE);
		o[i] = (float)e;
	}
	enum ttx_rounding lr = out == TTX_FORMAT_BFP8 || out == TTX_FORMAT_BFP8A ? TTX_ROUND_NEAREST_AWAY
	                                                                         : TTX_ROUND_TRUNCATE;
	/* formats whose code has bit 1 set (BFP, FP8) get the exponent section
	   (TC/Packers/OutputAddressGenerator.md), even FP8, which writes no
	   exponents: its data starts after the section too */
	size_t skip = out == TTX_FORMAT_FP8 ? 64 : 0;
	ck_assert_int_eq(ttx_format_encode(out, lr, o, 1024, want + skip, nout), TTX_OK);
	nout += skip;

	/* the program */
	unsigned dst_fmt = d == D16_FP16 ? TTX_FORMAT_FP16 : TTX_FORMAT_BF16;
	unsigned uin = (unsigned)in, uout = d == D32 ? (in == TTX_FORMAT_TF32 ? TTX_FORMAT_TF32 : TTX_FORMAT_FP32) : uin;
	struct unpack_setup us = { .in = uin, .out = uout, .l1 = IN_ADDR, .count = 1024, .to_dst = d == D32 };
	setup_unpacker(t, 0, &us);
	field(t, "ALU_FORMAT_SPEC_REG0_SrcA", dst_fmt);
	field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", c.inter);
	field(t, "PCK_DEST_RD_CTRL_Read_32b_data", d == D32);
	struct pack_setup ps = { .in = c.pin, .out = (unsigned)out, .l1 = OUT_ADDR, .exp_section = 4 };
	setup_packer(t, 0, &ps);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", d != D32);   /* with it, unpacking to Dst wraps at 16 rows */
	if (d == D32) {
		run_ok(t, 0, "SETADCXX 1, 1023, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	} else {
		run_ok(t, 0, "SETADCXX 1, 1023, 0; UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1;"
		             "MOVA2D 0, 0, 0, 2, 0; MOVA2D 0, 8, 0, 2, 8; MOVA2D 0, 16, 0, 2, 16; MOVA2D 0, 24, 0, 2, 24;"
		             "MOVA2D 0, 32, 0, 2, 32; MOVA2D 0, 40, 0, 2, 40; MOVA2D 0, 48, 0, 2, 48; MOVA2D 0, 56, 0, 2, 56");
	}
	run_ok(t, 0, "SETADCXX 4, 1023, 0; STALLWAIT 4, 0x4082; PACR 0, 0, 1, 0, 0, 0, 1");
	l1_get(t, OUT_ADDR, got, nout + 32);
	int diff = 0;
	for (size_t i = 0; i < nout + 32; i++)
		if (got[i] != want[i] && diff++ == 0)
			snprintf(why, whylen, "%s -> %s: byte %zu is 0x%02X, want 0x%02X", ttx_format_name(in),
			         ttx_format_name(out), i, got[i], want[i]);
	free(lin), free(want), free(got);
	ttx_tile_destroy(t);
	return diff;
}

static const enum ttx_format float_formats[] = {
	TTX_FORMAT_FP32, TTX_FORMAT_TF32, TTX_FORMAT_BF16, TTX_FORMAT_FP16, TTX_FORMAT_FP8,
	TTX_FORMAT_BFP8, TTX_FORMAT_BFP4, TTX_FORMAT_BFP2, TTX_FORMAT_BFP8A, TTX_FORMAT_BFP4A, TTX_FORMAT_BFP2A,
};
#define NFLOAT (sizeof(float_formats) / sizeof(float_formats[0]))

/* _i: the input format; every output format. */
START_TEST(test_round_trip_float)
{
	enum ttx_format in = float_formats[_i];
	int failures = 0;
	char why[256] = "", first[256] = "";
	for (unsigned k = 0; k < NFLOAT; k++) {
		enum ttx_format out = float_formats[k];
		for (uint64_t seed = 1; seed <= 3; seed++)
			if (round_trip(in, out, seed * 7919 + _i * 131 + k, why, sizeof(why)) && !failures++)
				memcpy(first, why, sizeof(first));
	}
	ck_assert_msg(failures == 0, "%d round trips differ; first: %s", failures, first);
	(void)five_bit;
}
END_TEST

/* Integers: INT32 through Dst, INT16 through SrcA and MOVA2D, INT8 and UINT8
   through both unpackers and ELWADD with INT8 math (the sum saturates in
   the packer's INT32 -> INT8 early conversion). */
START_TEST(test_round_trip_int)
{
	uint64_t s = 99;
	for (int kind = 0; kind < 4; kind++) {
		struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
		struct ttx_tile *t = ttx_tile_new(&opt);
		enum ttx_format f = kind == 0 ? TTX_FORMAT_INT32 : kind == 1 ? TTX_FORMAT_INT16
		                  : kind == 2 ? TTX_FORMAT_INT8 : TTX_FORMAT_UINT8;
		unsigned code = kind == 3 ? TTX_FORMAT_INT8 : (unsigned)f;
		unsigned n = kind >= 2 ? 256 : 1024;
		int32_t a[1024], b[1024], want[1024], got[1024];
		for (unsigned i = 0; i < n; i++) {
			uint32_t r = rnd(&s);
			switch (kind) {
			case 0: a[i] = (int32_t)(r >> 1) * (r & 1 ? -1 : 1); break;
			case 1: a[i] = (int32_t)(r % 65535) - 32767; break;
			case 2: a[i] = (int32_t)(r % 255) - 127, b[i] = (int32_t)(rnd(&s) % 255) - 127; break;
			default: a[i] = (int32_t)(r % 256), b[i] = (int32_t)(rnd(&s) % 256); break;
			}
			if (kind < 2)
				want[i] = a[i];
			else
				want[i] = kind == 2 ? (a[i] + b[i] > 127 ? 127 : a[i] + b[i] < -127 ? -127 : a[i] + b[i])
				                    : (a[i] + b[i] > 255 ? 255 : a[i] + b[i]);
		}
		size_t nb = ttx_format_bytes(f, n);
		uint8_t buf[4096], out[4096 + 32];
		ck_assert_int_eq(ttx_format_encode_int(f, a, n, buf, sizeof(buf)), TTX_OK);
		l1_put(t, IN_ADDR, buf, nb);
		thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", kind != 0);
		struct pack_setup ps = { .in = code, .out = code, .l1 = OUT_ADDR };
		setup_packer(t, 0, &ps);
		if (kind == 0) {
			struct unpack_setup us = { .in = code, .out = code, .l1 = IN_ADDR, .count = n, .to_dst = 1 };
			setup_unpacker(t, 0, &us);
			field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", code);
			field(t, "PCK_DEST_RD_CTRL_Read_32b_data", 1);
			run_ok(t, 0, "SETADCXX 1, 1023, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
		} else if (kind == 1) {
			struct unpack_setup us = { .in = code, .out = code, .l1 = IN_ADDR, .count = n };
			setup_unpacker(t, 0, &us);
			field(t, "ALU_FORMAT_SPEC_REG0_SrcA", code);
			field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", code);
			field(t, "ALU_ACC_CTRL_Zero_Flag_disabled_src", 1);
			run_ok(t, 0, "SETADCXX 1, 1023, 0; UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1;"
			             "MOVA2D 0, 0, 0, 2, 0; MOVA2D 0, 8, 0, 2, 8; MOVA2D 0, 16, 0, 2, 16; MOVA2D 0, 24, 0, 2, 24;"
			             "MOVA2D 0, 32, 0, 2, 32; MOVA2D 0, 40, 0, 2, 40; MOVA2D 0, 48, 0, 2, 48; MOVA2D 0, 56, 0, 2, 56");
		} else {
			ck_assert_int_eq(ttx_format_encode_int(f, b, n, buf, sizeof(buf)), TTX_OK);
			l1_put(t, IN2_ADDR, buf, nb);
			struct unpack_setup ua = { .in = code, .out = code, .l1 = IN_ADDR, .count = n };
			struct unpack_setup ub = { .in = code, .out = code, .l1 = IN2_ADDR, .count = n };
			setup_unpacker(t, 0, &ua);
			setup_unpacker(t, 1, &ub);
			field(t, "ALU_FORMAT_SPEC_REG0_SrcA", code);
			field(t, "ALU_FORMAT_SPEC_REG1_SrcB", code);
			field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", code);
			field(t, "ALU_ACC_CTRL_INT8_math_enabled", 1);
			field(t, "PCK_DEST_RD_CTRL_Read_32b_data", 1);
			if (kind == 3) {
				field(t, "ALU_FORMAT_SPEC_REG0_SrcAUnsigned", 1);
				field(t, "ALU_FORMAT_SPEC_REG0_SrcBUnsigned", 1);
				field(t, "PCK_DEST_RD_CTRL_Read_unsigned", 1);
			}
			thfield(t, 0, "ADDR_MOD_AB_SEC1_SrcAIncr", 8);
			thfield(t, 0, "ADDR_MOD_AB_SEC1_SrcBIncr", 8);
			thfield(t, 0, "ADDR_MOD_DST_SEC1_DestIncr", 8);
			run_ok(t, 0, "SETADCXX 3, 255, 0; UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1;"
			             "UNPACR 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1; ELWADD 0, 0, 0, 1, 0; ELWADD 0, 0, 0, 1, 0");
		}
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "SETADCXX 4, %u, 0; PACR 0, 0, 1, 0, 0, 0, 1", n - 1);
		run_ok(t, 0, cmd);
		l1_get(t, OUT_ADDR, out, nb + 32);
		ck_assert_int_eq(ttx_format_decode_int(f, out, nb, got, n), TTX_OK);
		for (unsigned i = 0; i < n; i++)
			ck_assert_msg(got[i] == want[i], "%s, datum %u: %d, want %d", ttx_format_name(f), i, got[i], want[i]);
		for (unsigned i = 0; i < 32; i++)
			ck_assert_uint_eq(out[nb + i], 0);
		ttx_tile_destroy(t);
	}
}
END_TEST


/* ---- ADCs (TC/ADCs.md and the instruction pages) ---- */

START_TEST(test_adc_instructions)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* SETADC PK, channel 1, Y = 5; with ThreadOverride (NewValue bits 17:16 = 3) for thread 2 */
	run_ok(t, 0, "SETADC 4, 1, 1, 5; SETADC 1, 0, 0, 0x3000A");
	ck_assert_uint_eq(t->adc[0].packers.ch[1].y, 5);
	ck_assert_uint_eq(t->adc[0].packers.ch[1].y_cr, 5);
	ck_assert_uint_eq(t->adc[2].unpacker[0].ch[0].x, 0x3000A);   /* X takes all 18 bits */
	/* SETADCXY U1: X0 = 3, Y1 = 6 (bits X0 and Y1) */
	run_ok(t, 0, "SETADCXY 2, 6, 0, 0, 3, 9");
	ck_assert_uint_eq(t->adc[0].unpacker[1].ch[0].x, 3);
	ck_assert_uint_eq(t->adc[0].unpacker[1].ch[1].y, 6);
	ck_assert_uint_eq(t->adc[0].unpacker[1].ch[0].y, 0);
	/* SETADCZW PK|U0: Z0 = 2, W1 = 7 */
	run_ok(t, 0, "SETADCZW 5, 7, 0, 0, 2, 9");
	ck_assert_uint_eq(t->adc[0].packers.ch[0].z, 2);
	ck_assert_uint_eq(t->adc[0].unpacker[0].ch[1].w, 7);
	/* SETADCXX U0: both channels' X */
	run_ok(t, 1, "SETADCXX 1, 1023, 16");
	ck_assert_uint_eq(t->adc[1].unpacker[0].ch[0].x, 16);
	ck_assert_uint_eq(t->adc[1].unpacker[0].ch[1].x, 1023);
	/* INCADCXY wraps Y at 13 bits; _Cr unchanged */
	t->adc[0].packers.ch[0].y = 0x1FFF;
	run_ok(t, 0, "INCADCXY 4, 0, 0, 2, 1");
	ck_assert_uint_eq(t->adc[0].packers.ch[0].y, 1);
	ck_assert_uint_eq(t->adc[0].packers.ch[0].x, 1);
	ck_assert_uint_eq(t->adc[0].packers.ch[0].y_cr, 0);
	/* ADDRCRXY: Y_Cr += 3, Y = Y_Cr (only Y0 selected) */
	t->adc[0].packers.ch[0].y_cr = 10;
	run_ok(t, 0, "ADDRCRXY 4, 0, 0, 3, 0, 2");
	ck_assert_uint_eq(t->adc[0].packers.ch[0].y, 13);
	ck_assert_uint_eq(t->adc[0].packers.ch[0].y_cr, 13);
	/* INCADCZW and ADDRCRZW wrap Z/W at 8 bits */
	t->adc[0].unpacker[0].ch[0].z = 255;
	run_ok(t, 0, "INCADCZW 1, 0, 0, 0, 1");
	ck_assert_uint_eq(t->adc[0].unpacker[0].ch[0].z, 0);
	t->adc[0].unpacker[0].ch[1].w_cr = 254;
	run_ok(t, 0, "ADDRCRZW 1, 3, 0, 0, 0, 8");
	ck_assert_uint_eq(t->adc[0].unpacker[0].ch[1].w, 1);
	/* REG2FLOP ADC: GPR 5's high half into the packers' channel 1 Z_Cr of
	   thread 1 (SizeSel 2, Shift8 2, OverrideThread, ThreadSel 1, ADCSel 2,
	   Channel 1, Cr, XYZW 2) */
	t->gpr[0][5] = 0x00420000;
	ck_assert_int_eq(ttx_push(t, 0, 0x48u << 24 | 2u << 22 | 1u << 21 | 1u << 20 | 2u << 18 | 1u << 16 |
	                          1u << 11 | 2u << 9 | 1u << 8 | 2u << 6 | 5), TTX_OK);
	RUN_OK(t);
	ck_assert_uint_eq(t->adc[1].packers.ch[1].z_cr, 0x42);
	ck_assert_uint_eq(t->adc[1].packers.ch[1].z, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- unpacker features ---- */

/* BF16 b as SrcA holds it (TC/SrcASrcB.md: sign, mantissa, exponent). */
static uint32_t src_bf16(uint16_t b)
{
	return (uint32_t)(b & 0x8000) << 3 | (uint32_t)(b & 0x7F) << 11 | (b >> 7 & 0xFF);
}

static struct ttx_tile *bf16_tile(unsigned n, uint16_t first)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint16_t d[1024];
	for (unsigned i = 0; i < n; i++)
		d[i] = (uint16_t)(first + i);
	l1_put(t, IN_ADDR, d, 2 * n);
	struct unpack_setup us = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = IN_ADDR, .count = n };
	setup_unpacker(t, 0, &us);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	return t;
}

/* _i: BF16 or FP16, to SrcA, SrcB or Dst (3 * format + target).  Every
   16-bit pattern (NaN, Inf, denormals, -0) unpacked 1024 at a time; the
   layouts of TC/SrcASrcB.md and TC/Dst.md by hand: SrcA/SrcB hold sign
   (bit 18), mantissa (10 bits, BF16's 7 at the top) and exponent (low 8
   bits, FP16's 5); Dst16 sign, mantissa, exponent in 16 bits. */
START_TEST(test_unpack_every_16bit_pattern)
{
	bool bf16 = _i / 3 == 0;
	unsigned target = _i % 3, u = target == 1;   /* 0 SrcA, 1 SrcB, 2 Dst */
	for (uint32_t base = 0; base < 0x10000; base += 1024) {
		struct ttx_tile *t = ttx_tile_new(NULL);
		uint16_t d[1024];
		for (unsigned i = 0; i < 1024; i++)
			d[i] = (uint16_t)(base + i);
		l1_put(t, IN_ADDR, d, sizeof(d));
		unsigned f = bf16 ? TTX_FORMAT_BF16 : TTX_FORMAT_FP16;
		struct unpack_setup us = { .in = f, .out = f, .l1 = IN_ADDR, .count = 1024, .to_dst = target == 2 };
		setup_unpacker(t, u, &us);
		thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
		/* SrcB takes 64 rows from its row 0, SrcA too with the override;
		   Dst wraps at 16 rows with it, so its last 256 datums stay */
		run_ok(t, 0, u ? "SETADCXX 2, 1023, 0; UNPACR 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1"
		               : "SETADCXX 1, 1023, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
		for (unsigned i = target == 2 ? 768 : 0; i < 1024; i++) {
			uint32_t x = d[i], sign = x >> 15, want, got;
			uint32_t man = bf16 ? x & 0x7F : x & 0x3FF, exp = bf16 ? x >> 7 & 0xFF : x >> 10 & 0x1F;
			if (target == 2) {
				want = sign << 15 | man << (bf16 ? 8 : 5) | exp;
				got = t->dst[i / 16 % 16][i % 16];
			} else {
				want = sign << 18 | man << (bf16 ? 11 : 8) | exp;
				got = (u ? t->srcb : t->srca)[0].rows[i / 16][i % 16];
			}
			ck_assert_msg(got == want, "%s 0x%04X to %s: 0x%05X, want 0x%05X", bf16 ? "BF16" : "FP16", x,
			              target == 0 ? "SrcA" : target == 1 ? "SrcB" : "Dst", got, want);
		}
		ttx_tile_destroy(t);
	}
}
END_TEST

START_TEST(test_unpack_upsample)
{
	/* Upsample_rate 1: one zero after every datum */
	struct ttx_tile *t = bf16_tile(16, 0x3F80);
	field(t, "THCON_SEC0_REG2_Upsample_rate", 1);
	run_ok(t, 0, "UNPACR_NOP 0, 5; SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned i = 0; i < 32; i++)
		ck_assert_uint_eq(t->srca[0].rows[i / 16][i % 16], i % 2 ? 0 : src_bf16((uint16_t)(0x3F80 + i / 2)));
	ttx_tile_destroy(t);
	/* with Upsample_and_interleave: the positions are skipped, not zeroed
	   (UNPACR_NOP ZEROSRC NegativeInfSrcA first fills the bank with ones) */
	t = bf16_tile(16, 0x3F80);
	field(t, "THCON_SEC0_REG2_Upsample_rate", 2);   /* 3 positions after each */
	field(t, "THCON_SEC0_REG2_Upsample_and_interleave", 1);
	run_ok(t, 0, "UNPACR_NOP 0, 5; SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned i = 0; i < 64; i++)
		ck_assert_uint_eq(t->srca[0].rows[i / 16][i % 16], i % 4 ? 0x7FFFF : src_bf16((uint16_t)(0x3F80 + i / 4)));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_unpack_transpose_and_shift)
{
	/* Haloize_mode: datum r * 16 + c of a face lands at SrcA row c, column r */
	struct ttx_tile *t = bf16_tile(256, 0x1000);
	field(t, "THCON_SEC0_REG2_Haloize_mode", 1);
	run_ok(t, 0, "SETADCXX 1, 255, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned r = 0; r < 16; r++)
		for (unsigned c = 0; c < 16; c++)
			ck_assert_uint_eq(t->srca[0].rows[c][r], src_bf16((uint16_t)(0x1000 + r * 16 + c)));
	ttx_tile_destroy(t);
	/* a column shift of 3: each row's first 3 datums are dropped, the rest
	   move left; the last 3 columns keep what they held */
	t = bf16_tile(32, 0x1000);
	field(t, "THCON_SEC0_REG2_Shift_amount_cntx0", 3);
	run_ok(t, 0, "UNPACR_NOP 0, 5; SETADCXX 1, 31, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned r = 0; r < 2; r++)
		for (unsigned c = 0; c < 16; c++)
			ck_assert_uint_eq(t->srca[0].rows[r][c], c < 13 ? src_bf16((uint16_t)(0x1000 + r * 16 + c + 3)) : 0x7FFFF);
	ttx_tile_destroy(t);
}
END_TEST

/* Contexts: the context counter picks context 0, 1, 0 (Context_count 1:
   two contexts), each with its own base address and Dst/SrcA address. */
START_TEST(test_unpack_contexts)
{
	struct ttx_tile *t = bf16_tile(16, 0x2000);
	uint16_t d[16];
	for (unsigned i = 0; i < 16; i++)
		d[i] = (uint16_t)(0x3000 + i);
	l1_put(t, IN2_ADDR, d, sizeof(d));
	field(t, "THCON_SEC0_REG2_Context_count", 1);
	field(t, "THCON_SEC0_REG3_Base_cntx1_address", IN2_ADDR / 16 - 1);
	field(t, "THCON_SEC0_REG5_Tile_x_dim_cntx1", 16);
	field(t, "THCON_SEC0_REG5_Dest_cntx1_address", 64 + 16);   /* SrcA row 1 */
	field(t, "THCON_SEC0_REG2_Disable_zero_compress_cntx1", 1);
	run_ok(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1");
	ck_assert_uint_eq(t->unpacker_context[0][0], 1);
	run_ok(t, 0, "UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1");
	ck_assert_uint_eq(t->unpacker_context[0][0], 0);   /* wraps after two contexts */
	for (unsigned c = 0; c < 16; c++) {
		ck_assert_uint_eq(t->srca[0].rows[0][c], src_bf16((uint16_t)(0x2000 + c)));
		ck_assert_uint_eq(t->srca[0].rows[1][c], src_bf16((uint16_t)(0x3000 + c)));
	}
	/* UNPACR's increment-context-counter mode, and CfgContextOffset */
	run_ok(t, 0, "UNPACR 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0");
	ck_assert_uint_eq(t->unpacker_context[0][0], 1);
	ttx_tile_destroy(t);
}
END_TEST

/* Unpack_limit_address: an address past limit * 16 drops by fifo * 16; the
   check is made at the start and at each 16-datum row. */
START_TEST(test_unpack_wrap)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint16_t row0[16], row1[16];
	for (unsigned i = 0; i < 16; i++)
		row0[i] = (uint16_t)(0x4000 + i), row1[i] = (uint16_t)(0x5000 + i);
	l1_put(t, 0x8000, row0, 32);
	l1_put(t, 0x7F20, row1, 32);   /* 0x8020 - 0x100 */
	struct unpack_setup us = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = 0x8000, .count = 32 };
	setup_unpacker(t, 0, &us);
	field(t, "THCON_SEC0_REG2_Unpack_limit_address", 0x801);
	field(t, "THCON_SEC0_REG2_Unpack_fifo_size", 0x10);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	run_ok(t, 0, "SETADCXX 1, 31, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned c = 0; c < 16; c++) {
		ck_assert_uint_eq(t->srca[0].rows[0][c], src_bf16(row0[c]));
		ck_assert_uint_eq(t->srca[0].rows[1][c], src_bf16(row1[c]));
	}
	ttx_tile_destroy(t);
}
END_TEST

/* FP32 -> FP16 into SrcA (the reference's FP32ToFP16): truncation, +-0 below
   2^-14, +-0x7FFF above the range. */
START_TEST(test_unpack_fp32_to_fp16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	const float x[8] = { 1.0f, -0x1p-15f, 1e6f, 65504.0f, 0x1p-14f, 3.14159265f, -INFINITY, 131008.0f };
	const uint32_t fp16[8] = { 0x3C00, 0x8000, 0x7FFF, 0x7BFF, 0x0400, 0x4248, 0xFFFF, 0x7FFF };
	l1_put(t, IN_ADDR, x, sizeof(x));
	struct unpack_setup us = { .in = TTX_FORMAT_FP32, .out = TTX_FORMAT_FP16, .l1 = IN_ADDR, .count = 8 };
	setup_unpacker(t, 0, &us);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	run_ok(t, 0, "SETADCXX 1, 7, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned i = 0; i < 8; i++) {
		uint32_t h = fp16[i], want = (h & 0x8000) << 3 | (h & 0x3FF) << 8 | (h >> 10 & 0x1F);
		ck_assert_msg(t->srca[0].rows[0][i] == want, "datum %u: 0x%05X, want 0x%05X", i, t->srca[0].rows[0][i], want);
	}
	ttx_tile_destroy(t);
}
END_TEST

/* BFP8 with a forced shared exponent, and an exponent that wraps below 0
   (BFP8ToBF16's uint8_t arithmetic; tests/vectors/pack README). */
START_TEST(test_unpack_bfp_exponents)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint8_t d[16] = { 0x40, 0x01, 0x80, 0xC0 };
	l1_put(t, IN_ADDR, d, 16);
	struct unpack_setup us = { .in = TTX_FORMAT_BFP8, .out = TTX_FORMAT_BFP8, .l1 = IN_ADDR, .count = 16 };
	setup_unpacker(t, 0, &us);
	field(t, "THCON_SEC0_REG2_Force_shared_exp", 1);
	field(t, "UNP0_FORCED_SHARED_EXP_shared_exp", 2);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	run_ok(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	/* 0x40: magnitude 64 = 1.0 at exponent 2: BF16 0x0100 (exp 2, mantissa 0) */
	ck_assert_uint_eq(t->srca[0].rows[0][0], src_bf16(0x0100));
	/* 0x01: magnitude 1, six leading zeros: exponent 2 - 6 wraps to 252 */
	ck_assert_uint_eq(t->srca[0].rows[0][1], src_bf16((uint16_t)(252 << 7)));
	/* 0x80: sign and magnitude 0: -Inf (0xFF80) */
	ck_assert_uint_eq(t->srca[0].rows[0][2], src_bf16(0xFF80));
	/* 0xC0: -1.0 at exponent 2 */
	ck_assert_uint_eq(t->srca[0].rows[0][3], src_bf16(0x8100));
	ttx_tile_destroy(t);
}
END_TEST

/* Compressed input by hand (TC/Packers/Compression.md): RSI = {0, 4}, then
   one group: 4 BF16 datums, padding to 32, their zero counts 2, 15, 11, 0. */
START_TEST(test_unpack_decompress)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint8_t img[16 + 64 + 16] = { 0 };
	img[2] = 4;                                   /* RSI[1] = 4 */
	uint16_t d[4] = { 0x3F80, 0x4000, 0x0000, 0x4040 };
	memcpy(img + 16, d, sizeof(d));
	img[16 + 64] = 2 | 15 << 4;
	img[16 + 65] = 11;
	l1_put(t, IN_ADDR, img, sizeof(img));
	struct unpack_setup us = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = IN_ADDR, .count = 32 };
	setup_unpacker(t, 0, &us);
	field(t, "THCON_SEC0_REG2_Disable_zero_compress_cntx0", 0);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	run_ok(t, 0, "UNPACR_NOP 0, 5; SETADCXX 1, 31, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	/* 1.0, 0, 0, 2.0, 15 zeros, 0 (a stored zero), 11 zeros, 3.0: 32 datums */
	uint16_t want[32] = { 0 };
	want[0] = 0x3F80, want[3] = 0x4000, want[31] = 0x4040;
	for (unsigned i = 0; i < 32; i++)
		ck_assert_msg(t->srca[0].rows[i / 16][i % 16] == src_bf16(want[i]), "datum %u", i);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- packer features ---- */

/* A tile whose Dst16 rows hold BF16 values d[i] (datum i at row i / 16),
   packer 0 set for BF16 -> BF16 into OUT_ADDR. */
static struct ttx_tile *pack_tile(const uint16_t *d, unsigned n)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned i = 0; i < n; i++)   /* Dst16 keeps BF16 as sign, mantissa, exponent */
		t->dst[i / 16][i % 16] = (uint16_t)((d[i] & 0x8000) | (d[i] & 0x7F) << 8 | (d[i] >> 7 & 0xFF));
	field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", TTX_FORMAT_BF16);
	struct pack_setup ps = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = OUT_ADDR };
	setup_packer(t, 0, &ps);
	return t;
}

static void pack_run(struct ttx_tile *t, unsigned n, int last)
{
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "SETADCXX 4, %u, 0; PACR 0, 0, 1, 0, 0, 0, %d", n - 1, last);
	run_ok(t, 0, cmd);
}

static uint16_t out16(struct ttx_tile *t, unsigned i)
{
	uint16_t v;
	l1_get(t, OUT_ADDR + 2 * i, &v, 2);
	return v;
}

START_TEST(test_pack_edge_mask)
{
	uint16_t d[32];
	for (unsigned i = 0; i < 32; i++)
		d[i] = (uint16_t)(0x3F80 + i);
	/* columns 8-15 masked, to -Inf */
	struct ttx_tile *t = pack_tile(d, 32);
	cfgw(t, 20, 0x00FF | 1u << 16);
	pack_run(t, 32, 1);
	for (unsigned i = 0; i < 32; i++)
		ck_assert_uint_eq(out16(t, i), i % 16 < 8 ? d[i] : 0xFF80);
	ttx_tile_destroy(t);
	/* TILE_ROW_SET_MAPPING_1 selected for packer 0: the tile position's row 1
	   uses PCK_EDGE_OFFSET_SEC2 (mask 0x0F0F), the others SEC0; mode 0: zeros */
	t = pack_tile(d, 32);
	field(t, "PCK_EDGE_TILE_ROW_SET_SELECT_select", 1);
	cfgw(t, 17, 2u << 2);
	cfgw(t, 22, 0x0F0F);
	pack_run(t, 32, 1);
	for (unsigned i = 0; i < 32; i++)
		ck_assert_uint_eq(out16(t, i), i < 16 || (0x0F0F >> (i % 16) & 1) ? d[i] : 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_pack_relu)
{
	const uint16_t d[6] = { 0xC000, 0x3F00, 0x3F80, 0x3FC0, 0x4040, 0x8000 };   /* -2, .5, 1, 1.5, 3, -0 */
	const uint16_t want[4][6] = {
		{ 0xC000, 0x3F00, 0x3F80, 0x3FC0, 0x4040, 0x0000 },   /* none (rounding makes -0 +0) */
		{ 0x0000, 0x3F00, 0x3F80, 0x3FC0, 0x4040, 0x0000 },   /* x <= 0: 0 */
		{ 0x0000, 0x0000, 0x0000, 0x3FC0, 0x4040, 0x0000 },   /* x <= 1.0: 0 */
		{ 0x0000, 0x3F00, 0x3F80, 0x3F80, 0x3F80, 0x0000 },   /* clamp to [0, 1.0] */
	};
	for (unsigned mode = 0; mode < 4; mode++) {
		struct ttx_tile *t = pack_tile(d, 6);
		field(t, "STACC_RELU_ApplyRelu", mode);
		field(t, "STACC_RELU_ReluThreshold", 0x3F80);
		pack_run(t, 6, 1);
		for (unsigned i = 0; i < 6; i++)
			ck_assert_msg(out16(t, i) == want[mode][i], "mode %u datum %u: 0x%04X", mode, i, out16(t, i));
		ttx_tile_destroy(t);
	}
	/* a negative threshold is undefined: fault */
	struct ttx_tile *t = pack_tile(d, 6);
	field(t, "STACC_RELU_ApplyRelu", 2);
	field(t, "STACC_RELU_ReluThreshold", 0xBF80);
	run_text(t, 0, "SETADCXX 4, 5, 0; PACR 0, 0, 1, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "PACR") && strstr(ttx_tile_error(t), "threshold"));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_pack_threshold_downsample)
{
	const uint16_t d[8] = { 0x3F80, 0x3F00, 0x4000, 0x3E80, 0xBF80, 0xBE00, 0x4100, 0x0000 };
	/* Exp_threshold 127: exponents below (|x| < 1) become 0 */
	struct ttx_tile *t = pack_tile(d, 8);
	field(t, "THCON_SEC0_REG1_Exp_threshold_en", 1);
	field(t, "THCON_SEC0_REG1_Exp_threshold", 127);
	pack_run(t, 8, 1);
	const uint16_t want[8] = { 0x3F80, 0, 0x4000, 0, 0xBF80, 0, 0x4100, 0 };
	for (unsigned i = 0; i < 8; i++)
		ck_assert_uint_eq(out16(t, i), want[i]);
	ttx_tile_destroy(t);
	/* Downsample_mask 0x5555: every other datum */
	t = pack_tile(d, 8);
	field(t, "THCON_SEC0_REG1_Downsample_mask", 0x5555);
	pack_run(t, 8, 1);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_eq(out16(t, i), d[2 * i]);
	ck_assert_uint_eq(out16(t, 4), 0);   /* the rest of the 16 bytes is padding */
	ttx_tile_destroy(t);
}
END_TEST

/* Output buffering: 8 bytes stay in the packer until more come or Last;
   Last pads with zeros; the next PACR starts at the configured address. */
START_TEST(test_pack_buffering)
{
	uint16_t d[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ttx_tile *t = pack_tile(d, 8);
	pack_run(t, 4, 0);
	ck_assert_uint_eq(out16(t, 0), 0);          /* still buffered */
	run_ok(t, 0, "SETADCXX 4, 7, 4; PACR 0, 0, 1, 0, 0, 0, 0");
	for (unsigned i = 0; i < 8; i++)
		ck_assert_uint_eq(out16(t, i), d[i] == 0 ? 0 : d[i] & 0x7F ? 0 : d[i]);   /* denormals flush (see below) */
	ttx_tile_destroy(t);
	/* with normal values, Read_raw (identity): every value, and Last padding */
	for (unsigned i = 0; i < 8; i++)
		d[i] = (uint16_t)(0x3F80 + i);
	t = pack_tile(d, 8);
	pack_run(t, 3, 1);
	ck_assert_uint_eq(out16(t, 0), 0x3F80);
	ck_assert_uint_eq(out16(t, 2), 0x3F82);
	ck_assert_uint_eq(out16(t, 3), 0);          /* padding */
	run_ok(t, 0, "SETADCXX 4, 7, 5; PACR 0, 0, 1, 0, 0, 0, 1");
	ck_assert_uint_eq(out16(t, 0), 0x3F85);     /* a new tile at the configured address */
	ck_assert_uint_eq(out16(t, 2), 0x3F87);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_pack_l1_accumulate)
{
	/* INT32: sign-magnitude sums, saturating */
	struct ttx_tile *t = ttx_tile_new(NULL);
	const uint32_t old[4] = { 5, 0x80000007u, 0x7FFFFFFFu, 0x80000003u };
	const uint32_t add[4] = { 10, 3, 5, 0x80000004u };
	const uint32_t want[4] = { 15, 0x80000004u, 0x7FFFFFFFu, 0x80000007u };
	l1_put(t, OUT_ADDR, old, sizeof(old));
	for (unsigned i = 0; i < 4; i++)
		ttx_dst32_set(t, 0, i, ttx_shuffle_fp32(add[i]));
	field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", TTX_FORMAT_INT32);
	field(t, "PCK_DEST_RD_CTRL_Read_32b_data", 1);
	struct pack_setup ps = { .in = TTX_FORMAT_INT32, .out = TTX_FORMAT_INT32, .l1 = OUT_ADDR, .word3 = 1u << 21 };
	setup_packer(t, 0, &ps);
	pack_run(t, 4, 1);
	uint32_t got[4];
	l1_get(t, OUT_ADDR, got, sizeof(got));
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_eq(got[i], want[i]);
	ttx_tile_destroy(t);
	/* BF16: the exact sum rounded to nearest even: 1 + 2^-8 ties to 1;
	   (1 + 2^-7) + 2^-8 ties to 1 + 2^-6 */
	const uint16_t d[2] = { 0x3B80, 0x3B80 };
	t = pack_tile(d, 2);
	uint16_t prev[8] = { 0x3F80, 0x3F81 };
	l1_put(t, OUT_ADDR, prev, sizeof(prev));
	field(t, "THCON_SEC0_REG1_Pack_L1_Acc", 1);
	pack_run(t, 2, 1);
	ck_assert_uint_eq(out16(t, 0), 0x3F80);
	ck_assert_uint_eq(out16(t, 1), 0x3F82);
	ck_assert_uint_eq(out16(t, 2), 0);          /* + padding zeros */
	ttx_tile_destroy(t);
	/* BFP output with accumulation is not defined: fault */
	t = pack_tile(d, 2);
	field(t, "THCON_SEC0_REG1_Pack_L1_Acc", 1);
	field(t, "THCON_SEC0_REG1_Out_data_format", TTX_FORMAT_BFP8);
	field(t, "THCON_SEC0_REG1_In_data_format", TTX_FORMAT_BFP8);
	field(t, "ALU_FORMAT_SPEC_REG2_Dstacc", TTX_FORMAT_BFP8);
	run_text(t, 0, "SETADCXX 4, 15, 0; PACR 0, 0, 1, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "accumulation"));
	ttx_tile_destroy(t);
}
END_TEST

/* The exponent histogram, read back with SETDMAREG's special sources. */
START_TEST(test_pack_histogram)
{
	const uint16_t d[5] = { 0x3F80, 0x4000, 0x3F00, 0x3F00, 0x3F00 };   /* exponents 127, 128, 126 x 3 */
	struct ttx_tile *t = pack_tile(d, 5);
	thfield(t, 0, "ENABLE_ACC_STATS_Enable", 1);
	pack_run(t, 5, 1);
	/* InputSource 6 and 7 (bins 0-15, 16-31 of packer 0), 128-bit into GPRs 8-11 */
	ck_assert_int_eq(ttx_push(t, 0, 0x45u << 24 | 2u << 22 | 6u << 11 | 1u << 7 | 16), TTX_OK);
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][8] & 0xFF, 1);          /* bin 0: exponent 128 */
	ck_assert_int_eq(ttx_push(t, 0, 0x45u << 24 | 2u << 22 | 7u << 11 | 1u << 7 | 16), TTX_OK);
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][11] >> 16 & 0xFF, 3);   /* bin 30: 126 */
	ck_assert_uint_eq(t->gpr[0][11] >> 24, 1);          /* bin 31: 127 */
	/* InputSource 9: packer 0's largest exponent */
	ck_assert_int_eq(ttx_push(t, 0, 0x45u << 24 | 1u << 22 | 9u << 11 | 1u << 7 | 2 * 12), TTX_OK);
	RUN_OK(t);
	ck_assert_uint_eq(t->gpr[0][12], 128);
	run_ok(t, 0, "CLREXPHIST");
	ck_assert_uint_eq(t->packer[0].exp_hist[30], 0);
	ck_assert_uint_eq(t->packer[0].exp_hist_max, 0);
	ttx_tile_destroy(t);
}
END_TEST

/* Packers 2 and 3 together (PackerMask 0xC), each with its own Dst offset
   and L1 address (THCON_SEC1_REG1 and THCON_SEC1_REG8). */
START_TEST(test_pack_several_packers)
{
	uint16_t d[64];
	for (unsigned i = 0; i < 64; i++)
		d[i] = (uint16_t)(0x3F80 + i);
	struct ttx_tile *t = pack_tile(d, 64);
	struct pack_setup p2 = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = OUT_ADDR + 0x100 };
	struct pack_setup p3 = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = OUT_ADDR + 0x200 };
	setup_packer(t, 2, &p2);
	setup_packer(t, 3, &p3);
	field(t, "DEST_TARGET_REG_CFG_PACK_SEC2_Offset", 1);   /* Dst row 1 */
	field(t, "DEST_TARGET_REG_CFG_PACK_SEC3_Offset", 3);
	run_ok(t, 0, "SETADCXX 4, 15, 0; PACR 0, 0, 12, 0, 0, 0, 1");
	for (unsigned i = 0; i < 16; i++) {
		uint16_t a, b;
		l1_get(t, OUT_ADDR + 0x100 + 2 * i, &a, 2);
		l1_get(t, OUT_ADDR + 0x200 + 2 * i, &b, 2);
		ck_assert_uint_eq(a, d[16 + i]);
		ck_assert_uint_eq(b, d[48 + i]);
	}
	ck_assert_uint_eq(out16(t, 0), 0);   /* packer 0 was not selected */
	/* an undefined PackerMask faults */
	run_text(t, 0, "PACR 0, 0, 5, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "PackerMask"));
	ttx_tile_destroy(t);
}
END_TEST

/* Compression by the packer, read back by a decompressing unpacker.  The
   row 1.0, 0, 0, 2.0, 27 zeros, 3.0 compresses to 1.0 (2 zeros), 2.0 (15),
   0 (11), 3.0 (0): RSI = {0, 4}; an all-zero second row sets AllZeroFlags
   bit 1. */
START_TEST(test_pack_compression)
{
	uint16_t d[64] = { 0 };
	d[0] = 0x3F80, d[3] = 0x4000, d[31] = 0x4040;
	struct ttx_tile *t = pack_tile(d, 64);
	field(t, "THCON_SEC0_REG1_Disable_zero_compress", 0);
	field(t, "THCON_SEC0_REG1_Row_start_section_size", 1);
	field(t, "PCK0_ADDR_CTRL_XY_REG_0_Xstride", 2);   /* ADC X addresses datums beyond the low 3 bits */
	run_ok(t, 0, "SETADCXX 4, 31, 0; PACR 0, 0, 1, 0, 0, 0, 0; SETADCXX 4, 63, 32; PACR 0, 0, 1, 0, 0, 0, 1");
	uint8_t img[16 + 160];
	l1_get(t, OUT_ADDR, img, sizeof(img));
	uint16_t rsi[3];
	memcpy(rsi, img, 6);
	ck_assert_uint_eq(rsi[0], 0);
	ck_assert_uint_eq(rsi[1], 4);
	/* the zero row: 0 (15 zeros), 0 (14), and its last datum, which is never
	   compressed away: 3 more */
	ck_assert_uint_eq(rsi[2], 7);
	uint16_t g[6];
	memcpy(g, img + 16, 8);
	memcpy(g + 4, img + 16 + 8, 4);
	ck_assert_uint_eq(g[0], 0x3F80);
	ck_assert_uint_eq(g[1], 0x4000);
	ck_assert_uint_eq(g[2], 0);
	ck_assert_uint_eq(g[3], 0x4040);
	ck_assert_uint_eq(img[16 + 64], 2 | 15 << 4);
	ck_assert_uint_eq(img[16 + 65], 11 | 0 << 4);
	ck_assert_uint_eq(img[16 + 66], 15 | 14 << 4);
	ck_assert_uint_eq(img[16 + 67], 0);
	ck_assert_uint_eq(t->packer[0].all_zero_flags, 2);
	/* the unpacker decompresses it (row 0, then row 1) */
	struct unpack_setup us = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = OUT_ADDR, .count = 32 };
	setup_unpacker(t, 0, &us);
	cfgw(t, 53, 2u | 1u << 16);                       /* YDim 2 */
	field(t, "THCON_SEC0_REG2_Disable_zero_compress_cntx0", 0);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	run_ok(t, 0, "UNPACR_NOP 0, 5; SETADCXX 1, 31, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned i = 0; i < 32; i++)
		ck_assert_msg(t->srca[0].rows[i / 16][i % 16] == src_bf16(d[i]), "row 0 datum %u", i);
	run_ok(t, 0, "SETADCXY 1, 0, 0, 1, 0, 2; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	for (unsigned i = 0; i < 32; i++)
		ck_assert_msg(t->srca[0].rows[i / 16][i % 16] == 0, "row 1 datum %u", i);
	ttx_tile_destroy(t);
}
END_TEST

/* PACR_SETREG: a register write through the window SetRegBase selects. */
START_TEST(test_pack_setreg)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* window 0 = 0x02C (mid 0x00B): AddrMid 0x11 reaches 0xFFB1102C, the
	   mover command base of the thread */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11038u, 0xB), TTX_OK);
	run_ok(t, 1, "PACR_SETREG 1, 0, 5, 15, 0x11, 1, 0");
	uint32_t v;
	ck_assert_int_eq(ttx_mmio_read(t, 1, 0xFFB1102Cu, &v), TTX_OK);
	ck_assert_uint_eq(v, 5);
	/* below 0xFFB11000 is undefined */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11038u, 0), TTX_OK);
	run_text(t, 0, "PACR_SETREG 1, 0, 5, 15, 0x10, 1, 0");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "PACR_SETREG"));
	ttx_tile_destroy(t);
}
END_TEST

/* ---- the mover (TC/XMOV.md, TT/Mover.md, TT/TDMA-RISC.md) ---- */

START_TEST(test_mover)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint8_t src[64], got[64];
	for (unsigned i = 0; i < 64; i++)
		src[i] = (uint8_t)(i * 3 + 1);
	l1_put(t, 0x1000, src, 64);
	/* L1 to L1: 4 units of 16 bytes from 0x1000 to 0x2000 */
	field(t, "THCON_SEC0_REG6_Source_address", 0x100);
	field(t, "THCON_SEC0_REG6_Destination_address", 0x200);
	field(t, "THCON_SEC0_REG6_Buffer_size", 4);
	field(t, "THCON_SEC0_REG6_Transfer_direction", 3);
	run_ok(t, 0, "XMOV 0, 0");
	l1_get(t, 0x2000, got, 64);
	ck_assert(memcmp(got, src, 64) == 0);
	/* zero fill of 0x1010..0x102F */
	field(t, "THCON_SEC0_REG6_Destination_address", 0x101);
	field(t, "THCON_SEC0_REG6_Buffer_size", 2);
	field(t, "THCON_SEC0_REG6_Transfer_direction", 0);
	run_ok(t, 0, "XMOV 0, 0");
	l1_get(t, 0x1000, got, 64);
	for (unsigned i = 0; i < 64; i++)
		ck_assert_uint_eq(got[i], i >= 16 && i < 48 ? 0 : src[i]);
	/* L1 to the configuration: 16 bytes at Config word 100 (byte 400) */
	uint32_t words[4] = { 0x11, 0x22, 0x33, 0x44 };
	l1_put(t, 0x3000, words, 16);
	field(t, "THCON_SEC0_REG6_Source_address", 0x300);
	field(t, "THCON_SEC0_REG6_Destination_address", 400 / 16);
	field(t, "THCON_SEC0_REG6_Buffer_size", 1);
	field(t, "THCON_SEC0_REG6_Transfer_direction", 1);
	run_ok(t, 0, "XMOV 0, 0");
	ck_assert_uint_eq(t->config[0][101], 0x22);
	/* past L1: fault naming XMOV */
	field(t, "THCON_SEC0_REG6_Destination_address", (TTX_L1_SIZE - 16) / 16);
	field(t, "THCON_SEC0_REG6_Buffer_size", 2);
	field(t, "THCON_SEC0_REG6_Transfer_direction", 3);
	run_text(t, 0, "XMOV 0, 0");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "XMOV") && strstr(ttx_tile_error(t), "outside L1"));
	ttx_tile_destroy(t);
	/* the TDMA-RISC command queue: a command with parameters, L1 to L1 */
	t = ttx_tile_new(NULL);
	l1_put(t, 0x1000, src, 64);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11000u, 0x100), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11004u, 0x400), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11008u, 4), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB1100Cu, 3), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11010u, 0x40), TTX_OK);
	l1_get(t, 0x4000, got, 64);
	ck_assert(memcmp(got, src, 64) == 0);
	uint32_t status;
	ck_assert_int_eq(ttx_mmio_read(t, 0, 0xFFB11014u, &status), TTX_OK);
	ck_assert_uint_eq(status, 1u << 3 | 1u << 5 | 4u << 8);   /* idle, queues empty */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11010u, 0x77), TTX_EINVAL);   /* undefined command */
	ttx_tile_destroy(t);
}
END_TEST

/* ---- the Src bank handshake (TC/SrcASrcB.md) ---- */

START_TEST(test_bank_handshake)
{
	/* Thread 0 unpacks three times with FlipSrc: the third waits for bank 0,
	   which thread 1 gives back with CLEARDVALID (after a SEMWAIT that
	   thread 0's SEMPOST satisfies, so the wait is real). */
	struct ttx_tile *t = bf16_tile(16, 0x2000);
	run_text(t, 0, "SEMINIT 1, 0, 1; SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1;"
	               "UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1; SEMPOST 2;"
	               "UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1");
	run_text(t, 1, "SEMWAIT 2, 2, 1; SEMGET 2; CLEARDVALID 1, 0");
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(t->srca[0].allowed_client, TTX_SRC_MATRIX_UNIT);
	ck_assert_uint_eq(t->unpacker_src_bank[0], 1);
	ttx_tile_destroy(t);
	/* with nobody to give it back: a deadlock naming the UNPACR */
	t = bf16_tile(16, 0x2000);
	run_text(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1;"
	               "UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1; UNPACR 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "UNPACR"));
	ttx_tile_destroy(t);
}
END_TEST

/* ---- faults: bad configuration names the instruction and the field ---- */

START_TEST(test_faults)
{
	/* input past the end of L1 */
	struct ttx_tile *t = bf16_tile(16, 0);
	field(t, "THCON_SEC0_REG3_Base_address", TTX_L1_SIZE / 16 - 1);
	run_text(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "UNPACR") && strstr(ttx_tile_error(t), "past the end of L1"));
	ttx_tile_destroy(t);
	/* format code 12 */
	t = bf16_tile(16, 0);
	cfgw(t, 52, 12 | 1u << 4 | 16u << 16);
	run_text(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "InDataFormat 12"));
	ttx_tile_destroy(t);
	/* a conversion the page leaves undefined: BF16 in, FP16 out */
	t = bf16_tile(16, 0);
	field(t, "THCON_SEC0_REG2_Out_data_format", TTX_FORMAT_FP16);
	run_text(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "undefined"));
	ttx_tile_destroy(t);
	/* the packer writing past L1 */
	uint16_t d[16] = { 0x3F80 };
	t = pack_tile(d, 16);
	field(t, "THCON_SEC0_REG1_L1_Dest_addr", TTX_L1_SIZE / 16);
	run_text(t, 0, "SETADCXX 4, 15, 0; PACR 0, 0, 1, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "PACR") && strstr(ttx_tile_error(t), "past the end of L1"));
	ttx_tile_destroy(t);
	/* under --strict, an UNPACR into a bank the Matrix Unit owns */
	struct ttx_options opt = { .strict = 1 };
	t = ttx_tile_new(&opt);
	struct unpack_setup us = { .in = TTX_FORMAT_BF16, .out = TTX_FORMAT_BF16, .l1 = IN_ADDR, .count = 16 };
	setup_unpacker(t, 0, &us);
	thfield(t, 0, "SRCA_SET_SetOvrdWithAddr", 1);
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	run_text(t, 0, "SETADCXX 1, 15, 0; UNPACR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1");
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert(strstr(ttx_tile_error(t), "UNPACR") && strstr(ttx_tile_error(t), "Matrix Unit"));
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pack");
	TCase *tc = test_tcase(s, "round_trip");
	tcase_add_loop_test(tc, test_round_trip_float, 0, (int)NFLOAT);
	tcase_add_test(tc, test_round_trip_int);
	tc = test_tcase(s, "adc");
	tcase_add_test(tc, test_adc_instructions);
	tc = test_tcase(s, "unpack");
	tcase_add_loop_test(tc, test_unpack_every_16bit_pattern, 0, 6);
	tcase_add_test(tc, test_unpack_upsample);
	tcase_add_test(tc, test_unpack_transpose_and_shift);
	tcase_add_test(tc, test_unpack_contexts);
	tcase_add_test(tc, test_unpack_wrap);
	tcase_add_test(tc, test_unpack_fp32_to_fp16);
	tcase_add_test(tc, test_unpack_bfp_exponents);
	tcase_add_test(tc, test_unpack_decompress);
	tc = test_tcase(s, "pack");
	tcase_add_test(tc, test_pack_edge_mask);
	tcase_add_test(tc, test_pack_relu);
	tcase_add_test(tc, test_pack_threshold_downsample);
	tcase_add_test(tc, test_pack_buffering);
	tcase_add_test(tc, test_pack_l1_accumulate);
	tcase_add_test(tc, test_pack_histogram);
	tcase_add_test(tc, test_pack_several_packers);
	tcase_add_test(tc, test_pack_compression);
	tcase_add_test(tc, test_pack_setreg);
	tc = test_tcase(s, "mover");
	tcase_add_test(tc, test_mover);
	tc = test_tcase(s, "sync");
	tcase_add_test(tc, test_bank_handshake);
	tcase_add_test(tc, test_faults);
	return test_run_suite(s);
}
