/* Host-side format conversions (src/formats.c, ttx.h): every format's
 * encoding and decoding at edge values, with expectations worked out by hand
 * from the format definitions (docs/formats.md, TC/FloatBitPatterns.md);
 * the layouts of flat runs and tiles; bad arguments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint32_t fbits(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	return x;
}

static float bitsf(uint32_t x)
{
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* One value through a 16- or 32-bit format. */
static uint32_t enc1(enum ttx_format f, enum ttx_rounding r, float x)
{
	uint8_t buf[4] = { 0 };
	if (ttx_format_encode(f, r, &x, 1, buf, sizeof(buf)) != TTX_OK)
		ck_abort_msg("encoding %g to format %d failed", (double)x, f);
	return (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24;
}

static float dec1(enum ttx_format f, uint32_t v)
{
	uint8_t buf[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	float x;
	ck_assert_int_eq(ttx_format_decode(f, buf, sizeof(buf), &x, 1), TTX_OK);
	return x;
}

#define NE TTX_ROUND_NEAREST_EVEN
#define NA TTX_ROUND_NEAREST_AWAY
#define TZ TTX_ROUND_TRUNCATE

START_TEST(test_names)
{
	enum ttx_format f;
	ck_assert_str_eq(ttx_format_name(TTX_FORMAT_BFP8), "bfp8");
	ck_assert_str_eq(ttx_format_name(TTX_FORMAT_BFP8A), "bfp8a");
	ck_assert_str_eq(ttx_format_name(TTX_FORMAT_UINT8), "uint8");
	ck_assert_ptr_null(ttx_format_name((enum ttx_format)12));
	ck_assert_ptr_null(ttx_format_name((enum ttx_format)17));
	ck_assert_int_eq(ttx_format_parse("BF16", &f), TTX_OK);
	ck_assert_int_eq(f, TTX_FORMAT_BF16);
	ck_assert_int_eq(ttx_format_parse("bfp8_b", &f), TTX_OK);   /* tt-metal's name */
	ck_assert_int_eq(f, TTX_FORMAT_BFP8);
	ck_assert_int_eq(ttx_format_parse("lf8", &f), TTX_OK);
	ck_assert_int_eq(f, TTX_FORMAT_FP8);
	ck_assert_int_eq(ttx_format_parse("fp64", &f), TTX_EINVAL);
	ck_assert_int_eq(ttx_format_parse(NULL, &f), TTX_EINVAL);
	/* sizes: a 32x32 tile */
	ck_assert_uint_eq(ttx_format_tile_bytes(TTX_FORMAT_FP32), 4096);
	ck_assert_uint_eq(ttx_format_tile_bytes(TTX_FORMAT_BF16), 2048);
	ck_assert_uint_eq(ttx_format_tile_bytes(TTX_FORMAT_FP8), 1024);
	ck_assert_uint_eq(ttx_format_tile_bytes(TTX_FORMAT_BFP8), 64 + 1024);   /* tt-metal's 1088 */
	ck_assert_uint_eq(ttx_format_tile_bytes(TTX_FORMAT_BFP4), 64 + 512);
	ck_assert_uint_eq(ttx_format_tile_bytes(TTX_FORMAT_BFP2A), 64 + 256);
	/* a run of 16 BFP8 datums: one exponent padded to 16 bytes, 16 bytes of data */
	ck_assert_uint_eq(ttx_format_bytes(TTX_FORMAT_BFP8, 16), 32);
	ck_assert_uint_eq(ttx_format_bytes(TTX_FORMAT_BFP2, 16), 32);   /* 4 data bytes padded */
	ck_assert_uint_eq(ttx_format_bytes((enum ttx_format)13, 16), 0);
}
END_TEST

START_TEST(test_fp32_tf32_bf16)
{
	/* FP32 keeps every pattern, -0, denormals, Inf and NaN included */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP32, NE, bitsf(0x80000000u)), 0x80000000u);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP32, NE, bitsf(0x00000001u)), 0x00000001u);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP32, NE, bitsf(0xFF800000u)), 0xFF800000u);
	ck_assert(isnan(dec1(TTX_FORMAT_FP32, 0x7FC00001u)));
	/* BF16: 1 + 2^-8 is halfway between 1 (0x3F80) and 1 + 2^-7 (0x3F81) */
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0x3F808000u)), 0x3F80);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NA, bitsf(0x3F808000u)), 0x3F81);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, TZ, bitsf(0x3F80FFFFu)), 0x3F80);
	/* 1 + 3 * 2^-8: halfway between 0x3F81 and 0x3F82: even is 0x3F82 */
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0x3F818000u)), 0x3F82);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0xBF818000u)), 0xBF82);
	/* FLT_MAX rounds to Inf to nearest, to the largest BF16 toward zero */
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0x7F7FFFFFu)), 0x7F80);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, TZ, bitsf(0x7F7FFFFFu)), 0x7F7F);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0xFF800000u)), 0xFF80);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, NAN), 0x7FC0);
	/* the smallest FP32 denormal is far below BF16's smallest denormal 2^-133 */
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0x00000001u)), 0x0000);
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, bitsf(0x00010000u)), 0x0001);   /* exactly 2^-133 */
	ck_assert_uint_eq(enc1(TTX_FORMAT_BF16, NE, -0.0f), 0x8000);
	ck_assert(dec1(TTX_FORMAT_BF16, 0x3F81) == 1.0078125f);
	ck_assert(dec1(TTX_FORMAT_BF16, 0x0001) == ldexpf(1, -133));
	/* TF32: the top 19 bits of FP32; 1 + 2^-11 ties to even (1), 1 + 3*2^-11 up */
	ck_assert_uint_eq(enc1(TTX_FORMAT_TF32, NE, bitsf(0x3F801000u)), 0x3F800000u);
	ck_assert_uint_eq(enc1(TTX_FORMAT_TF32, NE, bitsf(0x3F803000u)), 0x3F804000u);
	ck_assert_uint_eq(enc1(TTX_FORMAT_TF32, NA, bitsf(0x3F801000u)), 0x3F802000u);
	ck_assert(dec1(TTX_FORMAT_TF32, 0x3F802000u) == 1.0009765625f);
}
END_TEST

START_TEST(test_random_against_bit_rules)
{
	/* Random FP32 patterns (every exponent, denormals, Inf) against the
	   rounding written as integer operations on the FP32 bits: BF16 and
	   TF32 in all three modes; FP16 to nearest against the compiler's
	   _Float16 where IEEE and Wormhole FP16 agree (below 65520). */
	/* a plain test: Check's asserts cost a pipe write each in fork mode */
#define SAME(u, got, want) do { uint32_t g_ = (got), w_ = (want); \
		if (g_ != w_) ck_abort_msg("%s of 0x%08X: 0x%X, want 0x%X", #got, u, g_, w_); } while (0)
	uint64_t seed = 12345;
	for (unsigned i = 0; i < 1000000; i++) {
		uint32_t u = (uint32_t)test_rand(&seed);
		if (i % 4 == 0)
			u = (u & 0x8000FFFFu) | (u >> 8 & 0xFF) << 16;   /* BF16 ties and near ties */
		if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFF))
			continue;                                     /* NaN: tested above */
		float x = bitsf(u);
		SAME(u, enc1(TTX_FORMAT_BF16, TZ, x), u >> 16);
		SAME(u, enc1(TTX_FORMAT_BF16, NA, x), (u + 0x8000u) >> 16);
		SAME(u, enc1(TTX_FORMAT_BF16, NE, x), (u + 0x7FFFu + (u >> 16 & 1)) >> 16);
		SAME(u, enc1(TTX_FORMAT_TF32, NE, x), (u + 0xFFFu + (u >> 13 & 1)) & ~0x1FFFu);
		SAME(u, enc1(TTX_FORMAT_TF32, TZ, x), u & ~0x1FFFu);
#ifdef __FLT16_MAX__
		if (fabsf(x) < 65520.0f) {
			_Float16 h = (_Float16)x;
			uint16_t hb;
			memcpy(&hb, &h, sizeof(hb));
			SAME(u, enc1(TTX_FORMAT_FP16, NE, x), hb);
		}
#endif
	}
#undef SAME
}
END_TEST

START_TEST(test_fp16_fp8)
{
	/* Wormhole FP16: exponent 31 is a binade (no Inf, no NaN) */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, 1.0f), 0x3C00);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, 65504.0f), 0x7BFF);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, 65536.0f), 0x7C00);   /* IEEE's Inf pattern */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, 131008.0f), 0x7FFF);  /* the largest */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, 1e6f), 0x7FFF);       /* saturates */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, -INFINITY), 0xFFFF);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, NAN), 0x7FFF);
	ck_assert(dec1(TTX_FORMAT_FP16, 0x7C00) == 65536.0f);
	ck_assert(dec1(TTX_FORMAT_FP16, 0xFFFF) == -131008.0f);
	/* denormals: 2^-24 is the smallest; 2^-25 ties to 0 (even) or away to 2^-24 */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, ldexpf(1, -24)), 0x0001);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, ldexpf(1, -25)), 0x0000);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NA, ldexpf(1, -25)), 0x0001);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, ldexpf(1023, -24)), 0x03FF);
	ck_assert(dec1(TTX_FORMAT_FP16, 0x03FF) == ldexpf(1023, -24));
	/* rounding carries into the exponent: 2047/2048 * 2 -> 2.0 */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, 2.0f - ldexpf(1, -11)), 0x4000);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, TZ, 2.0f - ldexpf(1, -11)), 0x3FFF);
	/* FP8 e5m2: 1.125 is halfway between 1.0 (0x3C) and 1.25 (0x3D) */
	uint8_t b;
	float x = 1.125f;
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP8, NE, &x, 1, &b, 1), TTX_OK);
	ck_assert_uint_eq(b, 0x3C);
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP8, NA, &x, 1, &b, 1), TTX_OK);
	ck_assert_uint_eq(b, 0x3D);
	x = 1.375f;   /* halfway between 1.25 (0x3D) and 1.5 (0x3E): even 0x3E */
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP8, NE, &x, 1, &b, 1), TTX_OK);
	ck_assert_uint_eq(b, 0x3E);
	x = 1e9f;     /* saturates to 1.75 * 2^16 */
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP8, NE, &x, 1, &b, 1), TTX_OK);
	ck_assert_uint_eq(b, 0x7F);
	ck_assert(dec1(TTX_FORMAT_FP8, 0x7F) == 114688.0f);
	ck_assert(dec1(TTX_FORMAT_FP8, 0x01) == ldexpf(1, -16));   /* the smallest denormal */
}
END_TEST

START_TEST(test_integers)
{
	uint8_t b[4];
	float x[4] = { 127.4f, 200.0f, -3.5f, -0.0f };
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_INT8, NE, x, 4, b, 4), TTX_OK);
	ck_assert_uint_eq(b[0], 127);        /* rounds to 127 */
	ck_assert_uint_eq(b[1], 127);        /* saturates */
	ck_assert_uint_eq(b[2], 0x84);       /* -4 (ties to even), sign-magnitude */
	ck_assert_uint_eq(b[3], 0x80);       /* sign-magnitude -0, as the packer writes INT32 0x80000000 */
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_INT8, NA, x, 4, b, 4), TTX_OK);
	ck_assert_uint_eq(b[2], 0x84);       /* -4 away from zero as well */
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_INT8, TZ, x, 4, b, 4), TTX_OK);
	ck_assert_uint_eq(b[2], 0x83);       /* -3 */
	float u[3] = { 300.0f, -5.0f, 254.5f };
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_UINT8, NE, u, 3, b, 3), TTX_OK);
	ck_assert_uint_eq(b[0], 255);
	ck_assert_uint_eq(b[1], 0);
	ck_assert_uint_eq(b[2], 254);        /* ties to even */
	int32_t iv[3] = { -1, INT32_MIN, 70000 }, back[3];
	uint8_t w[12];
	ck_assert_int_eq(ttx_format_encode_int(TTX_FORMAT_INT32, iv, 3, w, sizeof(w)), TTX_OK);
	ck_assert_uint_eq(w[0] | w[1] << 8 | w[2] << 16 | (uint32_t)w[3] << 24, 0x80000001u);
	ck_assert_uint_eq(w[4] | w[5] << 8 | w[6] << 16 | (uint32_t)w[7] << 24, 0xFFFFFFFFu);   /* -(2^31 - 1) */
	ck_assert_int_eq(ttx_format_decode_int(TTX_FORMAT_INT32, w, sizeof(w), back, 3), TTX_OK);
	ck_assert_int_eq(back[0], -1);
	ck_assert_int_eq(back[1], -2147483647);
	ck_assert_int_eq(back[2], 70000);
	ck_assert_int_eq(ttx_format_encode_int(TTX_FORMAT_INT16, iv + 2, 1, w, 2), TTX_OK);
	ck_assert_uint_eq(w[0] | w[1] << 8, 0x7FFF);   /* 70000 saturates */
}
END_TEST

/* BFP8 (8-bit shared exponent): one block by hand. */
START_TEST(test_bfp8_block)
{
	float x[16] = { 3.0f, 1.0f, 0.5f, -0.25f, 1.5f, -3.0f, 0.0f, -0.0f,
	                1e-10f, -1e-10f, 2.9921875f, 0.0078125f, 0.01171875f, 0, 0, 0 };
	uint8_t out[32];
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NA, x, 16, out, sizeof(out)), TTX_OK);
	/* shared exponent: that of 3.0 (2^1): 128; magnitude = |x| / 2 * 64 */
	ck_assert_uint_eq(out[0], 128);
	for (unsigned i = 1; i < 16; i++)
		ck_assert_uint_eq(out[i], 0);   /* the exponent section's padding */
	const uint8_t *d = out + 16;
	ck_assert_uint_eq(d[0], 96);        /* 3.0 */
	ck_assert_uint_eq(d[1], 32);        /* 1.0 */
	ck_assert_uint_eq(d[2], 16);
	ck_assert_uint_eq(d[3], 0x80 | 8);  /* -0.25 */
	ck_assert_uint_eq(d[4], 48);
	ck_assert_uint_eq(d[5], 0x80 | 96);
	ck_assert_uint_eq(d[6], 0);
	ck_assert_uint_eq(d[7], 0);         /* -0: no sign on a zero magnitude */
	ck_assert_uint_eq(d[8], 0);         /* too small for the block */
	ck_assert_uint_eq(d[9], 0);         /* ... and its sign is dropped */
	ck_assert_uint_eq(d[10], 96);       /* 2.9921875 * 32 = 95.75 -> 96 */
	ck_assert_uint_eq(d[11], 0);        /* 0.0078125 * 32 = 0.25 -> 0 */
	ck_assert_uint_eq(d[12], 0);        /* 0.375 -> 0 */
	/* ties: 0.015625 * 32 = 0.5 -> away 1, even 0 */
	x[11] = 0.015625f;
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NA, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(d[11], 1);
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NE, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(d[11], 0);
	/* saturation: 3.999 * 32 = 127.97 rounds to 128, saturates at 127 */
	x[0] = 3.999f;
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NE, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(d[0], 127);
	/* decoding: 96 * 2^(128 - 127 - 6) = 3 */
	float back[16];
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP8, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(back[0] == 127.0f / 32);
	ck_assert(back[3] == -0.25f);
	/* sign 1, magnitude 0 decodes as -Inf (TC/FloatBitPatterns.md) */
	d = out + 16;
	out[16 + 6] = 0x80;
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP8, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(isinf(back[6]) && back[6] < 0);
}
END_TEST

/* Blocks at the edges: all zeros, the whole exponent range, Inf/NaN. */
START_TEST(test_bfp_edges)
{
	float x[16] = { 0 }, back[16];
	uint8_t out[32];
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NE, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[0], 0);
	for (unsigned i = 0; i < 16; i++)
		ck_assert_uint_eq(out[16 + i], 0);
	/* FLT_MAX and FLT_MIN in one block: the small one is lost */
	x[0] = bitsf(0x7F7FFFFFu), x[1] = bitsf(0x00800000u), x[2] = -ldexpf(1, 126);
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NE, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[0], 254);
	ck_assert_uint_eq(out[16], 127);          /* 1.99999988 * 64 -> 128 -> 127 */
	ck_assert_uint_eq(out[17], 0);
	ck_assert_uint_eq(out[18], 0x80 | 32);    /* -2^126 = -32 * 2^(254 - 127 - 6) */
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP8, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(back[0] == ldexpf(127, 254 - 127 - 6));
	/* Inf is the number 2^128 at exponent 255 */
	x[0] = INFINITY;
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NE, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[0], 255);
	ck_assert_uint_eq(out[16], 64);
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP8, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(isinf(back[0]));
	/* BFP8A: a 5-bit exponent (FP16's); 2^17 and more saturate */
	float y[16] = { 1.0f, 1e6f, -0.5f };
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8A, NE, y, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[0], 31);
	ck_assert_uint_eq(out[16], 0);            /* 1.0 = 2^-16 * 64 * 2^(31-15) -> 1/1024: 0 */
	ck_assert_uint_eq(out[17], 127);          /* saturated */
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP8A, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(back[1] == 127.0f / 64 * 65536);
	out[16] = 0x80;                           /* negative zero: -65536 in the A formats */
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP8A, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(back[0] == -65536.0f);
}
END_TEST

/* BFP4 and BFP2: 4 and 2 bits per datum, packed LSB first. */
START_TEST(test_bfp4_bfp2)
{
	float x[16] = { 3.0f, 1.0f, -1.75f, 0.3f, 0.2f };
	uint8_t out[32];
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP4, TZ, x, 16, out, sizeof(out)), TTX_OK);
	/* E = 128; magnitude = |x| / 2 * 4: 6, 2, 3 (3.5 truncated), 0 (0.6), 0 */
	ck_assert_uint_eq(out[0], 128);
	ck_assert_uint_eq(out[16], 2 << 4 | 6);
	ck_assert_uint_eq(out[17], 0 << 4 | (8 | 3));
	ck_assert_uint_eq(out[18], 0);
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP4, NE, x, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[17], 1 << 4 | (8 | 4));   /* 3.5 -> 4 (even), 0.6 -> 1 */
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP2, TZ, x, 16, out, sizeof(out)), TTX_OK);
	/* BFP2: magnitude 1 means 2^(E - 127) = 2: 3.0 -> 1, 1.0 -> 0, -1.75 -> 0 */
	ck_assert_uint_eq(out[16], 1);
	float back[16];
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_BFP2, out, sizeof(out), back, 16), TTX_OK);
	ck_assert(back[0] == 2.0f);
	ck_assert(back[1] == 0.0f);
	/* truncation is the packer's: the BFP8 magnitude (to nearest, ties
	   away), then its top bits (FormatConversion.md; issue 31).  E = 127:
	   BFP8 steps of 1/64, BFP4 steps of 1/4, BFP2 steps of 1 */
	float y[16] = { 1.5f, 0.5f - 0.4f / 64, 0.5f - 0.6f / 64, -(0.75f - 0.5f / 64), 1.0f - 0.4f / 64 };
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP4, TZ, y, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[0], 127);
	ck_assert_uint_eq(out[16], 2 << 4 | 6);        /* 1.5 -> 6; 31.6/64 rounds to 32: 2 (not 1) */
	ck_assert_uint_eq(out[17], (8 | 3) << 4 | 1);  /* 31.4 -> 31: 1; -47.5 ties away to -48: -3 */
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP2, TZ, y, 16, out, sizeof(out)), TTX_OK);
	ck_assert_uint_eq(out[16], 1);                 /* 1.5 -> 1; the next three 0 */
	ck_assert_uint_eq(out[17] & 3, 1);             /* datum 4: 63.6 -> 64: 1 */
}
END_TEST

/* The packer's corners (issue 31): truncated FP16/FP8 keep the sign of a
   flushed value; sign-magnitude integers keep a zero's sign. */
START_TEST(test_packer_corners)
{
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, TZ, -0.0f), 0x8000);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, TZ, -1e-6f), 0x8000);   /* below 2^-14 */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, TZ, 1e-6f), 0x0000);
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, TZ, -ldexpf(1, -14)), 0x8400);   /* the smallest normal stays */
	ck_assert_uint_eq(enc1(TTX_FORMAT_FP16, NE, -1e-6f), 0x8011);            /* to nearest: a denormal */
	uint8_t b;
	float x = -1e-6f;
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP8, TZ, &x, 1, &b, 1), TTX_OK);
	ck_assert_uint_eq(b, 0x80);
	/* INT32 0x80000000 (sign-magnitude -0) reads as -0.0 and writes as INT8 0x80, INT16 0x8000 */
	uint8_t i32[4] = { 0, 0, 0, 0x80 };
	float v;
	ck_assert_int_eq(ttx_format_decode(TTX_FORMAT_INT32, i32, 4, &v, 1), TTX_OK);
	ck_assert(v == 0.0f && signbit(v));
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_INT8, TZ, &v, 1, &b, 1), TTX_OK);
	ck_assert_uint_eq(b, 0x80);
	ck_assert_uint_eq(enc1(TTX_FORMAT_INT16, NE, v), 0x8000);
}
END_TEST

/* Tiles: faces in order, each row by row; BFP: the tile's exponent section
   first.  A tensor: tiles in row-major order. */
START_TEST(test_tilize_layout)
{
	enum { R = 64, C = 96 };
	float *x = malloc(sizeof(float) * R * C), *back = malloc(sizeof(float) * R * C);
	for (unsigned i = 0; i < R * C; i++)
		x[i] = (float)i;   /* exact in BF16 up to 256, FP32 everywhere */
	size_t tb = ttx_format_tile_bytes(TTX_FORMAT_FP32);
	uint8_t *img = malloc(6 * tb);
	ck_assert_int_eq(ttx_tilize(TTX_FORMAT_FP32, NE, x, R, C, img, 6 * tb), TTX_OK);
	float v;
	/* tile (0, 0), face 1 starts with element (0, 16) */
	memcpy(&v, img + 256 * 4, 4);
	ck_assert(v == 16.0f);
	/* face 2 starts with element (16, 0) */
	memcpy(&v, img + 512 * 4, 4);
	ck_assert(v == 16.0f * C);
	/* tile (0, 1) is the second tile: element (0, 32) */
	memcpy(&v, img + tb, 4);
	ck_assert(v == 32.0f);
	/* tile (1, 0) is the fourth: element (32, 0) */
	memcpy(&v, img + 3 * tb, 4);
	ck_assert(v == 32.0f * C);
	ck_assert_int_eq(ttx_untilize(TTX_FORMAT_FP32, img, 6 * tb, back, R, C), TTX_OK);
	ck_assert(memcmp(x, back, sizeof(float) * R * C) == 0);
	/* BFP8: exponent section of 64 bytes (one per face row), then data */
	size_t bb = ttx_format_tile_bytes(TTX_FORMAT_BFP8);
	uint8_t *bimg = calloc(6, bb);
	for (unsigned i = 0; i < R * C; i++)
		x[i] = (i % 7) - 3.0f;
	ck_assert_int_eq(ttx_tilize(TTX_FORMAT_BFP8, NE, x, R, C, bimg, 6 * bb), TTX_OK);
	ck_assert_int_eq(ttx_untilize(TTX_FORMAT_BFP8, bimg, 6 * bb, back, R, C), TTX_OK);
	ck_assert(memcmp(x, back, sizeof(float) * R * C) == 0);   /* small integers are exact */
	/* bad shapes and sizes */
	ck_assert_int_eq(ttx_tilize(TTX_FORMAT_FP32, NE, x, 48, C, img, 6 * tb), TTX_EINVAL);
	ck_assert_int_eq(ttx_tilize(TTX_FORMAT_FP32, NE, x, R, C, img, 6 * tb - 1), TTX_EINVAL);
	ck_assert_int_eq(ttx_untilize((enum ttx_format)12, img, 6 * tb, back, R, C), TTX_EINVAL);
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_BFP8, NE, x, 15, bimg, bb), TTX_EINVAL);
	ck_assert_int_eq(ttx_format_encode(TTX_FORMAT_FP32, (enum ttx_rounding)7, x, 1, img, 4), TTX_EINVAL);
	free(x), free(back), free(img), free(bimg);
}
END_TEST

/* Random round trips: a value a format holds exactly encodes to itself under
   every rounding mode. */
START_TEST(test_tilize_matches_encode)
{
	/* ttx_tilize (its float-bits path for BF16 and FP32) writes each datum
	   as ttx_format_encode does, NaN payloads, denormals, Inf, ties and
	   -0 included, in every rounding mode, and ttx_untilize reads them as
	   ttx_format_decode; FP16 (the general paths) too. */
	static const enum ttx_format fmts[3] = { TTX_FORMAT_BF16, TTX_FORMAT_FP32, TTX_FORMAT_FP16 };
	float x[32 * 32];
	uint8_t img[4096], one[4];
	uint64_t seed = 99;
	for (unsigned fi = 0; fi < 3; fi++)
		for (int r = NE; r <= TZ; r++)
			for (unsigned round = 0; round < 4; round++) {
				for (unsigned i = 0; i < 1024; i++) {
					uint32_t u = (uint32_t)test_rand(&seed);
					x[i] = bitsf(i % 3 ? u : (u & 0xFFFF8000u) | (i % 2 ? 0x8000u : 0));
				}
				enum ttx_format f = fmts[fi];
				size_t tb = ttx_format_tile_bytes(f), w = tb / 1024;
				ck_assert_int_eq(ttx_tilize(f, (enum ttx_rounding)r, x, 32, 32, img, tb), TTX_OK);
				for (unsigned i = 0; i < 32; i++)
					for (unsigned j = 0; j < 32; j++) {
						size_t pos = ((i / 16) * 2 + j / 16) * 256 + (i % 16) * 16 + j % 16;
						ck_assert_int_eq(ttx_format_encode(f, (enum ttx_rounding)r, &x[i * 32 + j], 1, one, w),
						                 TTX_OK);
						if (memcmp(img + pos * w, one, w) != 0)
							ck_abort_msg("%s mode %d: 0x%08X tiled differs", ttx_format_name(f), r,
							             fbits(x[i * 32 + j]));
					}
				/* and back: ttx_untilize as ttx_format_decode */
				float back[32 * 32], want;
				ck_assert_int_eq(ttx_untilize(f, img, tb, back, 32, 32), TTX_OK);
				for (unsigned i = 0; i < 32; i++)
					for (unsigned j = 0; j < 32; j++) {
						size_t pos = ((i / 16) * 2 + j / 16) * 256 + (i % 16) * 16 + j % 16;
						ck_assert_int_eq(ttx_format_decode(f, img + pos * w, w, &want, 1), TTX_OK);
						if (fbits(back[i * 32 + j]) != fbits(want))
							ck_abort_msg("%s: datum %zu untilized as 0x%08X, decoded 0x%08X", ttx_format_name(f),
							             pos, fbits(back[i * 32 + j]), fbits(want));
					}
			}
}
END_TEST

START_TEST(test_exact_round_trips)
{
	static const enum ttx_format fmts[] = {
		TTX_FORMAT_FP32, TTX_FORMAT_TF32, TTX_FORMAT_BF16, TTX_FORMAT_FP16, TTX_FORMAT_FP8,
		TTX_FORMAT_INT8, TTX_FORMAT_UINT8, TTX_FORMAT_INT16,
	};
	uint64_t s = 12345;
	for (unsigned k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
		for (unsigned n = 0; n < 20000; n++) {
			uint32_t r = (uint32_t)(test_rand(&s) >> 32);
			uint8_t buf[4] = { (uint8_t)r, (uint8_t)(r >> 8), (uint8_t)(r >> 16), (uint8_t)(r >> 24) }, again[4];
			float v;
			/* plain ifs: Check's asserts cost a pipe write each in fork mode */
			if (ttx_format_decode(fmts[k], buf, 4, &v, 1) != TTX_OK)
				ck_abort_msg("decode failed");
			if (isnan(v) || (fmts[k] == TTX_FORMAT_INT8 && buf[0] == 0x80))
				continue;   /* NaN payloads and the integer -0 have no second encoding */
			if (fmts[k] == TTX_FORMAT_TF32)
				memset(buf, 0, 2), buf[1] = 0, buf[2] &= 0xE0;
			for (int m = 0; m < 3; m++) {
				float w;
				if (ttx_format_decode(fmts[k], buf, 4, &w, 1) != TTX_OK ||
				    ttx_format_encode(fmts[k], (enum ttx_rounding)m, &w, 1, again, 4) != TTX_OK)
					ck_abort_msg("decode or encode failed");
				size_t nb = ttx_format_bytes(fmts[k], 1);
				if (m == TZ && (fmts[k] == TTX_FORMAT_FP16 || fmts[k] == TTX_FORMAT_FP8) && fabsf(w) < 0x1p-14f) {
					/* truncated FP16/FP8 denormals flush to a zero of their sign,
					   as the packer's late conversion does */
					uint32_t z = signbit(w) ? (fmts[k] == TTX_FORMAT_FP16 ? 0x8000u : 0x80u) : 0;
					if ((again[0] | (nb > 1 ? again[1] << 8 : 0)) != z)
						ck_abort_msg("%s: %a truncates to 0x%X", ttx_format_name(fmts[k]), (double)w, again[0]);
					continue;
				}
				if (memcmp(buf, again, nb) != 0)
					ck_abort_msg("%s: 0x%08X (%a) re-encodes differently", ttx_format_name(fmts[k]), r, (double)w);
			}
		}
	}
	(void)fbits;
}
END_TEST

int main(void)
{
	Suite *s = suite_create("formats");
	TCase *tc = test_tcase(s, "host");
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_fp32_tf32_bf16);
	tcase_add_test(tc, test_fp16_fp8);
	tcase_add_test(tc, test_random_against_bit_rules);
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_bfp8_block);
	tcase_add_test(tc, test_bfp_edges);
	tcase_add_test(tc, test_bfp4_bfp2);
	tcase_add_test(tc, test_packer_corners);
	tcase_add_test(tc, test_tilize_layout);
	tcase_add_test(tc, test_tilize_matches_encode);
	tcase_add_test(tc, test_exact_round_trips);
	return test_run_suite(s);
}
