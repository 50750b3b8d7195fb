/* interp/simd16.h's 512-bit operations for hosts without AVX-512, each
 * against a lane-by-lane model of the AVX-512 instruction (Intel's
 * pseudocode) on edge and random inputs.  Built without AVX-512 (configure
 * adds -mno-avx512f on x86), so the host's own vectors run them even on
 * an AVX-512 machine; on one without it the test is what the interpreter
 * uses. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simde/x86/avx512.h>

#include "simd16.h"

#define N 16

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)rng;
}

static const uint32_t edges[] = { 0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
                                  0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 0xFFFF8000u, 0x00008001u, 0x7FFF7FFF,
                                  0x80008000u, 0xFFFF0000u, 0x0000FFFFu, 0x007FFFFF, 0x00800000, 0x3F800000 };

/* a random vector: each lane an edge value, small, or anything */
static void fill(uint32_t v[N])
{
	for (int i = 0; i < N; i++) {
		uint32_t r = next();
		switch (r % 4) {
		case 0: v[i] = edges[next() % (sizeof(edges) / sizeof(edges[0]))]; break;
		case 1: v[i] = next() % 70; break;
		case 2: v[i] = (uint32_t)(int32_t)(int16_t)next() << (next() % 2 ? 16 : 0) | (next() % 2 ? next() & 0xFFFF : 0); break;
		default: v[i] = next();
		}
	}
}

static simde__m512i load(const uint32_t v[N])
{
	return simde_mm512_loadu_si512(v);
}

static void store(uint32_t out[N], simde__m512i v)
{
	simde_mm512_storeu_si512(out, v);
}

static int16_t h(uint32_t x, int half)
{
	return (int16_t)(half ? x >> 16 : x & 0xFFFF);
}

static uint32_t pack16(int32_t lo, int32_t hi)
{
	return (uint16_t)lo | (uint32_t)(uint16_t)hi << 16;
}

static int16_t sat16(int32_t x)
{
	return (int16_t)(x > 32767 ? 32767 : x < -32768 ? -32768 : x);
}

#define ROUNDS 4000

/* a two-operand operation against the model f(a, b) lane by lane */
#define CHECK2(op, model) \
	for (int n = 0; n < ROUNDS; n++) { \
		uint32_t a[N], b[N], got[N]; \
		fill(a), fill(b); \
		store(got, op(load(a), load(b))); \
		for (int i = 0; i < N; i++) { \
			uint32_t x = a[i], y = b[i], want = (model); \
			ck_assert_msg(got[i] == want, "%s lane %d: a 0x%08X b 0x%08X: 0x%08X, expected 0x%08X", #op, i, x, \
			              y, got[i], want); \
		} \
	}

START_TEST(test_elementwise)
{
	CHECK2(simde_mm512_and_si512, x & y);
	CHECK2(simde_mm512_or_si512, x | y);
	CHECK2(simde_mm512_xor_si512, x ^ y);
	CHECK2(simde_mm512_andnot_si512, ~x & y);
	CHECK2(simde_mm512_add_epi32, x + y);
	CHECK2(simde_mm512_sub_epi32, x - y);
	CHECK2(simde_mm512_mullo_epi32, x * y);
	CHECK2(simde_mm512_min_epi32, (int32_t)x < (int32_t)y ? x : y);
	CHECK2(simde_mm512_max_epi32, (int32_t)x > (int32_t)y ? x : y);
	CHECK2(simde_mm512_min_epu32, x < y ? x : y);
	CHECK2(simde_mm512_max_epu32, x > y ? x : y);
	CHECK2(simde_mm512_sllv_epi32, y > 31 ? 0 : x << y);
	CHECK2(simde_mm512_srlv_epi32, y > 31 ? 0 : x >> y);
#if defined(SIMDE_X86_AVX512F_NATIVE) || defined(TTX_SIMD16_GENERIC)
	CHECK2(simde_mm512_srav_epi32, (uint32_t)((int32_t)x >> (y > 31 ? 31 : y)));
#endif
	CHECK2(simde_mm512_add_epi16, pack16(h(x, 0) + h(y, 0), h(x, 1) + h(y, 1)));
	CHECK2(simde_mm512_mullo_epi16, pack16(h(x, 0) * h(y, 0), h(x, 1) * h(y, 1)));
	CHECK2(simde_mm512_max_epi16, pack16(h(x, 0) > h(y, 0) ? h(x, 0) : h(y, 0), h(x, 1) > h(y, 1) ? h(x, 1) : h(y, 1)));
	CHECK2(simde_mm512_adds_epi16, pack16(sat16(h(x, 0) + h(y, 0)), sat16(h(x, 1) + h(y, 1))));
	CHECK2(simde_mm512_subs_epi16, pack16(sat16(h(x, 0) - h(y, 0)), sat16(h(x, 1) - h(y, 1))));
	CHECK2(simde_mm512_sllv_epi16, pack16((uint16_t)h(y, 0) > 15 ? 0 : (uint16_t)h(x, 0) << (uint16_t)h(y, 0),
	                                      (uint16_t)h(y, 1) > 15 ? 0 : (uint16_t)h(x, 1) << (uint16_t)h(y, 1)));
	CHECK2(simde_mm512_mulhrs_epi16, pack16((((int32_t)h(x, 0) * h(y, 0) >> 14) + 1) >> 1,
	                                        (((int32_t)h(x, 1) * h(y, 1) >> 14) + 1) >> 1));
	CHECK2(simde_mm512_madd_epi16, (uint32_t)((int32_t)h(x, 0) * h(y, 0)) + (uint32_t)((int32_t)h(x, 1) * h(y, 1)));
}
END_TEST

/* mul_epu32: 64-bit lanes; the model in pairs */
START_TEST(test_mul_epu32)
{
	for (int n = 0; n < ROUNDS; n++) {
		uint32_t a[N], b[N], got[N];
		fill(a), fill(b);
		store(got, simde_mm512_mul_epu32(load(a), load(b)));
		for (int i = 0; i < N; i += 2) {
			uint64_t want = (uint64_t)a[i] * b[i];
			ck_assert_uint_eq(got[i], (uint32_t)want);
			ck_assert_uint_eq(got[i + 1], (uint32_t)(want >> 32));
		}
	}
}
END_TEST

START_TEST(test_shifts_abs_popcnt)
{
	for (int n = 0; n < ROUNDS / 4; n++) {
		uint32_t a[N], got[N];
		fill(a);
		for (unsigned s = 0; s < 40; s++) {
			store(got, simde_mm512_srli_epi32(load(a), s));
			for (int i = 0; i < N; i++)
				ck_assert_uint_eq(got[i], s > 31 ? 0 : a[i] >> s);
			store(got, simde_mm512_slli_epi32(load(a), s));
			for (int i = 0; i < N; i++)
				ck_assert_uint_eq(got[i], s > 31 ? 0 : a[i] << s);
			store(got, simde_mm512_srai_epi16(load(a), s));
			for (int i = 0; i < N; i++)
				ck_assert_uint_eq(got[i], pack16(h(a[i], 0) >> (s > 15 ? 15 : s), h(a[i], 1) >> (s > 15 ? 15 : s)));
		}
		for (unsigned s = 0; s < 70; s += 3) {
			store(got, simde_mm512_srli_epi64(load(a), s));
			for (int i = 0; i < N; i += 2) {
				uint64_t x = (uint64_t)a[i + 1] << 32 | a[i], want = s > 63 ? 0 : x >> s;
				ck_assert_uint_eq(got[i], (uint32_t)want);
				ck_assert_uint_eq(got[i + 1], (uint32_t)(want >> 32));
			}
			store(got, simde_mm512_slli_epi64(load(a), s));
			for (int i = 0; i < N; i += 2) {
				uint64_t x = (uint64_t)a[i + 1] << 32 | a[i], want = s > 63 ? 0 : x << s;
				ck_assert_uint_eq(got[i], (uint32_t)want);
				ck_assert_uint_eq(got[i + 1], (uint32_t)(want >> 32));
			}
		}
		store(got, simde_mm512_abs_epi32(load(a)));
		for (int i = 0; i < N; i++)
			ck_assert_uint_eq(got[i], (int32_t)a[i] < 0 ? 0u - a[i] : a[i]);
		store(got, simde_mm512_popcnt_epi32(load(a)));
		for (int i = 0; i < N; i++)
			ck_assert_uint_eq(got[i], (uint32_t)__builtin_popcount(a[i]));
	}
}
END_TEST

START_TEST(test_ternarylogic_permute_convert)
{
	static const int imms[] = { 0x00, 0xFF, 0xCA, 0xEA, 0x96, 0x28, 0xF8, 0xE8, 0x01, 0x80, 0x6A };
	for (int n = 0; n < ROUNDS / 4; n++) {
		uint32_t a[N], b[N], c[N], got[N];
		fill(a), fill(b), fill(c);
		for (size_t k = 0; k < sizeof(imms) / sizeof(imms[0]); k++) {
			switch (imms[k]) {   /* (the operation wants a constant) */
#define T(imm) case imm: store(got, simde_mm512_ternarylogic_epi32(load(a), load(b), load(c), imm)); break;
			T(0x00) T(0xFF) T(0xCA) T(0xEA) T(0x96) T(0x28) T(0xF8) T(0xE8) T(0x01) T(0x80) T(0x6A)
#undef T
			}
			for (int i = 0; i < N; i++) {
				uint32_t want = 0;
				for (int bit = 0; bit < 32; bit++) {
					unsigned sel = (a[i] >> bit & 1) << 2 | (b[i] >> bit & 1) << 1 | (c[i] >> bit & 1);
					want |= (uint32_t)(imms[k] >> sel & 1) << bit;
				}
				ck_assert_msg(got[i] == want, "ternarylogic 0x%02X lane %d", imms[k], i);
			}
		}
		uint32_t idx[N];
		for (int i = 0; i < N; i++)
			idx[i] = next();
		store(got, simde_mm512_permutex2var_epi32(load(a), load(idx), load(b)));
		for (int i = 0; i < N; i++)
			ck_assert_uint_eq(got[i], (idx[i] & 16 ? b : a)[idx[i] & 15]);
		store(got, simde_mm512_permutexvar_epi32(load(idx), load(a)));
		for (int i = 0; i < N; i++)
			ck_assert_uint_eq(got[i], a[idx[i] & 15]);
		store(got, simde_mm512_castps_si512(simde_mm512_cvtepu32_ps(load(a))));
		for (int i = 0; i < N; i++) {
			float f = (float)a[i];
			uint32_t want;
			memcpy(&want, &f, 4);
			ck_assert_msg(got[i] == want, "cvtepu32_ps of %u", a[i]);
		}
	}
}
END_TEST

static uint32_t model_mask(const uint32_t a[N], const uint32_t b[N], int which)
{
	uint32_t m = 0;
	for (int i = 0; i < N; i++) {
		int32_t x = (int32_t)a[i], y = (int32_t)b[i];
		int bit = which == 0 ? x == y : which == 1 ? x > y : which == 2 ? x >= y : which == 3 ? x <= y
		        : which == 4 ? a[i] >= b[i] : which == 5 ? (a[i] & b[i]) != 0 : x < 0;
		m |= (uint32_t)bit << i;
	}
	return m;
}

START_TEST(test_masks)
{
	for (int n = 0; n < ROUNDS; n++) {
		uint32_t a[N], b[N], s[N], got[N];
		fill(a), fill(b), fill(s);
		if (n % 5 == 0)
			memcpy(b, a, sizeof(a));   /* (equal lanes) */
		simde__m512i A = load(a), B = load(b), S = load(s);
		ck_assert_uint_eq(simde_mm512_cmpeq_epi32_mask(A, B), model_mask(a, b, 0));
		ck_assert_uint_eq(simde_mm512_cmpgt_epi32_mask(A, B), model_mask(a, b, 1));
		ck_assert_uint_eq(simde_mm512_cmpge_epi32_mask(A, B), model_mask(a, b, 2));
		ck_assert_uint_eq(simde_mm512_cmple_epi32_mask(A, B), model_mask(a, b, 3));
		ck_assert_uint_eq(simde_mm512_cmpge_epu32_mask(A, B), model_mask(a, b, 4));
		ck_assert_uint_eq(simde_mm512_test_epi32_mask(A, B), model_mask(a, b, 5));
		ck_assert_uint_eq(simde_mm512_movepi32_mask(A), model_mask(a, b, 6));
		simde__mmask16 k = (simde__mmask16)next();
		ck_assert_uint_eq(simde_mm512_mask_cmpge_epu32_mask(k, A, B), k & model_mask(a, b, 4));
		ck_assert_uint_eq(simde_mm512_mask_cmpgt_epi32_mask(k, A, B), k & model_mask(a, b, 1));
		ck_assert_uint_eq(simde_mm512_mask_test_epi32_mask(k, A, B), k & model_mask(a, b, 5));
#define MASKED(expr, model) \
		store(got, expr); \
		for (int i = 0; i < N; i++) { \
			uint32_t x = a[i], y = b[i]; \
			(void)x, (void)y; \
			ck_assert_msg(got[i] == (model), "%s lane %d (mask 0x%04X)", #expr, i, k); \
		}
		MASKED(simde_mm512_mask_mov_epi32(S, k, A), k >> i & 1 ? x : s[i])
		MASKED(simde_mm512_maskz_mov_epi32(k, A), k >> i & 1 ? x : 0)
		MASKED(simde_mm512_mask_blend_epi32(k, A, B), k >> i & 1 ? y : x)
		MASKED(simde_mm512_maskz_and_epi32(k, A, B), k >> i & 1 ? x & y : 0)
		MASKED(simde_mm512_maskz_or_epi32(k, A, B), k >> i & 1 ? x | y : 0)
		MASKED(simde_mm512_maskz_ternarylogic_epi32(k, A, B, S, 0xCA), k >> i & 1 ? (x & y) | (~x & s[i]) : 0)
		MASKED(simde_mm512_mask_add_epi32(S, k, A, B), k >> i & 1 ? x + y : s[i])
		MASKED(simde_mm512_mask_sub_epi32(S, k, A, B), k >> i & 1 ? x - y : s[i])
		MASKED(simde_mm512_mask_and_epi32(S, k, A, B), k >> i & 1 ? x & y : s[i])
		MASKED(simde_mm512_mask_or_epi32(S, k, A, B), k >> i & 1 ? x | y : s[i])
		MASKED(simde_mm512_mask_xor_epi32(S, k, A, B), k >> i & 1 ? x ^ y : s[i])
		MASKED(simde_mm512_mask_min_epi32(S, k, A, B), k >> i & 1 ? ((int32_t)x < (int32_t)y ? x : y) : s[i])
		/* the lane masks (ttx_lmask16): compares, and, choices */
		MASKED(ttx_lm_mov(S, ttx_lm_cmpeq(A, B), A), x == y ? x : s[i])
		MASKED(ttx_lm_mov(S, ttx_lm_cmpgt(A, B), B), (int32_t)x > (int32_t)y ? y : s[i])
		MASKED(ttx_lm_maskz(ttx_lm_test(A, B), S), x & y ? s[i] : 0)
		MASKED(ttx_lm_maskz(ttx_lm_and(ttx_lm_test(A, A), ttx_lm_cmpgt(B, S)), A),
		       x && (int32_t)y > (int32_t)s[i] ? x : 0)
		MASKED(ttx_lm_mov(S, ttx_lm_or(ttx_lm_cmpge(A, B), ttx_lm_sign(S)), A),
		       (int32_t)x >= (int32_t)y || (int32_t)s[i] < 0 ? x : s[i])
		MASKED(ttx_lm_maskz(ttx_lm_cmpge_epu32(A, B), S), x >= y ? s[i] : 0)
		ck_assert_uint_eq(ttx_lm_bits(ttx_lm_cmpge_epu32(A, B)), model_mask(a, b, 4));
		ck_assert_int_eq(ttx_lm_any(ttx_lm_cmpeq(A, B)), model_mask(a, b, 0) != 0);
#undef MASKED
	}
}
END_TEST

/* ttx's own helpers: the masked 16-bit max and add, the 16-bit halves,
   the minimum, the 16-bit loads and stores */
START_TEST(test_helpers)
{
	for (int n = 0; n < ROUNDS; n++) {
		uint32_t r[N], b[N], lo[N], u[N], got[N];
		fill(r), fill(b), fill(u);
		uint32_t l = pack16((int16_t)next() % 64, (int16_t)next() % 64);
		for (int i = 0; i < N; i++)
			lo[i] = l;
		store(got, ttx_max_epi16_where_ge(load(r), load(b), load(lo)));
		for (int i = 0; i < N; i++) {
			int32_t w[2];
			for (int half = 0; half < 2; half++) {
				int16_t x = h(r[i], half), y = h(b[i], half);
				w[half] = y >= h(l, half) && y > x ? y : x;
			}
			ck_assert_uint_eq(got[i], pack16(w[0], w[1]));
		}
		store(got, ttx_add_epi16_where_ge(load(r), load(u), load(b), load(lo)));
		for (int i = 0; i < N; i++) {
			int32_t w[2];
			for (int half = 0; half < 2; half++)
				w[half] = h(r[i], half) + (h(b[i], half) >= h(l, half) ? h(u[i], half) : 0);
			ck_assert_uint_eq(got[i], pack16(w[0], w[1]));
		}
		int32_t m = (int32_t)r[0];
		for (int i = 1; i < N; i++)
			m = (int32_t)r[i] < m ? (int32_t)r[i] : m;
		ck_assert_int_eq(ttx_reduce_min16(load(r)), m);
		uint16_t w16[N];
		ttx_store16_u16(w16, load(r));
		for (int i = 0; i < N; i++)
			ck_assert_uint_eq(w16[i], (uint16_t)r[i]);
		store(got, ttx_load16_u16(w16));
		for (int i = 0; i < N; i++)
			ck_assert_uint_eq(got[i], (uint16_t)r[i]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("simd16");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_elementwise);
	tcase_add_test(tc, test_mul_epu32);
	tcase_add_test(tc, test_shifts_abs_popcnt);
	tcase_add_test(tc, test_ternarylogic_permute_convert);
	tcase_add_test(tc, test_masks);
	tcase_add_test(tc, test_helpers);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
#if defined(TTX_SIMD16_GENERIC)
	puts("simd16: the host-vector forms (no AVX-512)");
#else
	puts("simd16: SIMDe's forms (this compiler has no generic vectors, or AVX-512 is on)");
#endif
	return failed ? 1 : 0;
}
