/* 16-lane (512-bit) operations: the few SIMDe 0.7 lacks at 512 bits, and
   (below) faster forms than SIMDe's of those it maps lane by lane on hosts
   without AVX-512.  Include it after SIMDe, before any use. */
#ifndef TTX_SIMD16_H
#define TTX_SIMD16_H

#include <stdint.h>

#include <simde/x86/avx512.h>

/* SIMDe 0.7 has no 512-bit variable arithmetic shift; AVX-512 has it and
   the forms below give it elsewhere */
#if defined(SIMDE_X86_AVX512F_NATIVE) && !defined(simde_mm512_srav_epi32)
#define simde_mm512_srav_epi32 _mm512_srav_epi32
#endif

/* ---- 512-bit vectors on hosts without AVX-512 ----
 *
 * SIMDe keeps a 512-bit vector in memory on such hosts and maps many
 * AVX-512 operations lane by lane (every compare to a mask and masked
 * operation, the variable shifts, the 16-bit ones): the interpreter's
 * matrix and SFPU kernels ran 4x slower on an AVX2 host than on an AVX-512
 * one, for a 2x difference in vector width (benchmarks/RESULTS.md).  Here,
 * on those hosts, simde__m512i becomes ttx_v512: 512 bits as parts of the
 * host's own vector width (two ymm registers on AVX2, four q registers on
 * NEON, as GCC's generic vectors), which the compiler keeps in registers,
 * and every simde_mm512_* operation the interpreter uses is written once
 * over those parts.  A mask stays a bit mask (simde__mmask16), to and from
 * lanes by the host's movemask and a compare.  Each operation has the
 * AVX-512 instruction's meaning exactly (shift counts of the width or more
 * give 0); tests/test_simd16.c checks each against a lane-by-lane model on
 * random and edge inputs.  An operation missing here fails to compile
 * (ttx_v512 is not SIMDe's type), so none falls back unnoticed.
 * -DTTX_SIMD16_SIMDE keeps SIMDe's own forms (to compare them). */
#if !defined(SIMDE_X86_AVX512F_NATIVE) && (defined(__GNUC__) || defined(__clang__)) && !defined(TTX_SIMD16_SIMDE)
#include <string.h>
#if defined(__AVX2__)
#include <immintrin.h>
#define TTX_VB 32   /* bytes of the host's vectors */
#elif defined(__aarch64__)
#include <arm_neon.h>
#define TTX_VB 16
#else
#define TTX_VB 16
#endif
#define TTX_NP (64 / TTX_VB)   /* parts of 512 bits */
#define TTX_PL (TTX_VB / 4)    /* 32-bit lanes a part */
typedef int32_t ttx_vi __attribute__((vector_size(TTX_VB)));
typedef uint32_t ttx_vu __attribute__((vector_size(TTX_VB)));
typedef int16_t ttx_vh __attribute__((vector_size(TTX_VB)));
typedef uint16_t ttx_vhu __attribute__((vector_size(TTX_VB)));
typedef uint64_t ttx_vq __attribute__((vector_size(TTX_VB)));
typedef float ttx_vf __attribute__((vector_size(TTX_VB)));
typedef uint16_t ttx_vw __attribute__((vector_size(TTX_VB / 2)));   /* a part's lanes narrowed to 16 bits */
typedef struct { ttx_vi p[TTX_NP]; } ttx_v512;
#define TTX_PARTS(k) _Pragma("GCC unroll 4") for (unsigned k = 0; k < TTX_NP; k++)
#define TTX_V16 static inline __attribute__((always_inline))

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

/* ---- lanes and bit masks ---- */

/* a part's lanes of all ones or zeros -> one bit each */
TTX_V16 unsigned ttx_part_bits(ttx_vi m)
{
#if defined(__AVX2__)
	__m256i x;
	memcpy(&x, &m, 32);
	return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(x));
#elif defined(__aarch64__)
	uint32x4_t x;
	memcpy(&x, &m, 16);
	const uint32x4_t w = { 1, 2, 4, 8 };
	return vaddvq_u32(vandq_u32(x, w));
#else
	unsigned r = 0;
	for (unsigned i = 0; i < TTX_PL; i++)
		r |= (unsigned)(m[i] & 1) << i;
	return r;
#endif
}

TTX_V16 simde__mmask16 ttx_bits16(ttx_v512 m)
{
	unsigned r = 0;
	TTX_PARTS(k) r |= ttx_part_bits(m.p[k]) << (k * TTX_PL);
	return (simde__mmask16)r;
}

/* one bit each -> lanes of all ones or zeros */
TTX_V16 ttx_v512 ttx_lanes16(simde__mmask16 k)
{
	ttx_v512 r;
	TTX_PARTS(p) {
		ttx_vi bit;
#pragma GCC unroll 8
		for (unsigned i = 0; i < TTX_PL; i++)
			bit[i] = 1 << (p * TTX_PL + i);
		r.p[p] = (bit & (int32_t)k) == bit;   /* (== bit: no inversion after the compare) */
	}
	return r;
}

TTX_V16 ttx_vi ttx_sel(ttx_vi m, ttx_vi a, ttx_vi b)   /* m ? a : b, lane by lane */
{
	return (m & a) | (~m & b);
}

/* ---- loads, stores, constants ---- */

/* (a part at a time: one memcpy of the whole went through the stack in
   16-byte pieces, and each part's load then waited on them) */
TTX_V16 ttx_v512 ttx_mm512_loadu_si512(const void *p)
{
	ttx_v512 r;
	TTX_PARTS(k) memcpy(&r.p[k], (const char *)p + k * TTX_VB, TTX_VB);
	return r;
}

TTX_V16 void ttx_mm512_storeu_si512(void *p, ttx_v512 a)
{
	TTX_PARTS(k) memcpy((char *)p + k * TTX_VB, &a.p[k], TTX_VB);
}

TTX_V16 ttx_v512 ttx_mm512_set1_epi32(int32_t x)
{
	ttx_v512 r;
	TTX_PARTS(k) r.p[k] = (ttx_vi){ 0 } + x;
	return r;
}

TTX_V16 ttx_v512 ttx_mm512_set1_epi16(int16_t x)
{
	return ttx_mm512_set1_epi32((int32_t)((uint32_t)(uint16_t)x * 0x10001u));
}

TTX_V16 ttx_v512 ttx_mm512_setzero_si512(void)
{
	return ttx_mm512_set1_epi32(0);
}

/* ---- element-wise operations ---- */

/* r = expr over the parts X and Y of a and b (ttx_vi) */
#define TTX_OP2(name, expr) \
	TTX_V16 ttx_v512 ttx_mm512_##name(ttx_v512 a, ttx_v512 b) \
	{ \
		ttx_v512 r; \
		TTX_PARTS(k) { \
			ttx_vi X = a.p[k], Y = b.p[k]; \
			r.p[k] = (ttx_vi)(expr); \
		} \
		return r; \
	}
TTX_OP2(and_si512, X & Y)
TTX_OP2(or_si512, X | Y)
TTX_OP2(xor_si512, X ^ Y)
TTX_OP2(andnot_si512, ~X & Y)
TTX_OP2(add_epi32, (ttx_vu)X + (ttx_vu)Y)
TTX_OP2(sub_epi32, (ttx_vu)X - (ttx_vu)Y)
TTX_OP2(mullo_epi32, (ttx_vu)X * (ttx_vu)Y)
TTX_OP2(min_epi32, ttx_sel(X < Y, X, Y))
TTX_OP2(max_epi32, ttx_sel(X > Y, X, Y))
TTX_OP2(min_epu32, ttx_sel((ttx_vi)((ttx_vu)X < (ttx_vu)Y), X, Y))
TTX_OP2(max_epu32, ttx_sel((ttx_vi)((ttx_vu)X > (ttx_vu)Y), X, Y))
/* counts of 32 or more give 0 (C leaves them undefined) */
#if defined(__AVX2__)   /* (AVX2's own variable shifts give 0 there too) */
TTX_OP2(sllv_epi32, _mm256_sllv_epi32((__m256i)X, (__m256i)Y))
TTX_OP2(srlv_epi32, _mm256_srlv_epi32((__m256i)X, (__m256i)Y))
#else
TTX_OP2(sllv_epi32, (ttx_vu)((ttx_vu)Y < 32) & ((ttx_vu)X << ((ttx_vu)Y & 31)))
TTX_OP2(srlv_epi32, (ttx_vu)((ttx_vu)Y < 32) & ((ttx_vu)X >> ((ttx_vu)Y & 31)))
#endif
/* the low 32 bits of each 64-bit lane, multiplied to 64 bits */
TTX_OP2(mul_epu32, ((ttx_vq)X & 0xFFFFFFFFu) * ((ttx_vq)Y & 0xFFFFFFFFu))
/* 16-bit lanes */
TTX_OP2(add_epi16, (ttx_vhu)X + (ttx_vhu)Y)
TTX_OP2(mullo_epi16, (ttx_vhu)X * (ttx_vhu)Y)
TTX_OP2(max_epi16, ttx_sel((ttx_vi)((ttx_vh)X > (ttx_vh)Y), X, Y))
/* saturating: where both operands' signs differ from the result's
   (the difference's: where the operands' signs differ and the result's
   differs from the first), the limit of the first operand's sign */
#if defined(__AVX2__)   /* AVX2 has these itself (srav: counts of 32 or more give the sign) */
TTX_OP2(adds_epi16, _mm256_adds_epi16((__m256i)X, (__m256i)Y))
TTX_OP2(subs_epi16, _mm256_subs_epi16((__m256i)X, (__m256i)Y))
TTX_OP2(srav_epi32, _mm256_srav_epi32((__m256i)X, (__m256i)Y))
#else
TTX_OP2(adds_epi16, ttx_sel((ttx_vi)((ttx_vh)(~(X ^ Y) & (X ^ (ttx_vi)((ttx_vhu)X + (ttx_vhu)Y))) < 0),
                            (ttx_vi)(((ttx_vh)X >> 15) ^ 0x7FFF), (ttx_vi)((ttx_vhu)X + (ttx_vhu)Y)))
TTX_OP2(subs_epi16, ttx_sel((ttx_vi)((ttx_vh)((X ^ Y) & (X ^ (ttx_vi)((ttx_vhu)X - (ttx_vhu)Y))) < 0),
                            (ttx_vi)(((ttx_vh)X >> 15) ^ 0x7FFF), (ttx_vi)((ttx_vhu)X - (ttx_vhu)Y)))
/* counts of 32 or more give the sign */
TTX_OP2(srav_epi32, X >> ttx_sel((ttx_vi)((ttx_vu)Y > 31), (ttx_vi){ 0 } + 31, Y))
#endif
#undef TTX_OP2

/* the low and high 16 bits of each 32-bit lane, sign-extended */
TTX_V16 ttx_vi ttx_lo16(ttx_vi x) { return (ttx_vi)((ttx_vu)x << 16) >> 16; }
TTX_V16 ttx_vi ttx_hi16(ttx_vi x) { return x >> 16; }

/* counts of 16 or more give 0: each half of a 32-bit lane shifted in 32
   bits (AVX2 and NEON have no 16-bit variable shift), the low one's bits
   past 15 dropped */
TTX_V16 ttx_v512 ttx_mm512_sllv_epi16(ttx_v512 a, ttx_v512 b)
{
	ttx_v512 r;
	TTX_PARTS(k) {
		ttx_vu x = (ttx_vu)a.p[k], n = (ttx_vu)b.p[k], nlo = n & 0xFFFF, nhi = n >> 16;
#if defined(__AVX2__)
		/* AVX2's 32-bit shifts give 0 for counts of 32 or more; 16 to 31
		   move the low half's bits past 15 (dropped) and the high half's
		   past 31 */
		ttx_vu lo = (ttx_vu)_mm256_sllv_epi32((__m256i)(x & 0xFFFF), (__m256i)nlo) & 0xFFFF;
		ttx_vu hi = (ttx_vu)_mm256_sllv_epi32((__m256i)(x & 0xFFFF0000u), (__m256i)nhi);
#else
		ttx_vu lo = (ttx_vu)(nlo < 16) & ((x & 0xFFFF) << (nlo & 15)) & 0xFFFF;
		ttx_vu hi = (ttx_vu)(nhi < 16) & ((x & 0xFFFF0000u) << (nhi & 15));
#endif
		r.p[k] = (ttx_vi)(lo | hi);
	}
	return r;
}

/* (a b 2^-14 + 1) / 2, rounded down, per 16-bit lane */
TTX_V16 ttx_v512 ttx_mm512_mulhrs_epi16(ttx_v512 a, ttx_v512 b)
{
	ttx_v512 r;
#if defined(__AVX2__)
	TTX_PARTS(k) r.p[k] = (ttx_vi)_mm256_mulhrs_epi16((__m256i)a.p[k], (__m256i)b.p[k]);
	return r;
#endif
	TTX_PARTS(k) {
		ttx_vi lo = ((ttx_lo16(a.p[k]) * ttx_lo16(b.p[k]) >> 14) + 1) >> 1;
		ttx_vi hi = ((ttx_hi16(a.p[k]) * ttx_hi16(b.p[k]) >> 14) + 1) >> 1;
		r.p[k] = (ttx_vi)(((ttx_vu)lo & 0xFFFF) | (ttx_vu)hi << 16);
	}
	return r;
}

/* the two products of 16-bit lanes summed into each 32-bit lane (wrapping) */
TTX_V16 ttx_v512 ttx_mm512_madd_epi16(ttx_v512 a, ttx_v512 b)
{
	ttx_v512 r;
#if defined(__AVX2__)
	TTX_PARTS(k) r.p[k] = (ttx_vi)_mm256_madd_epi16((__m256i)a.p[k], (__m256i)b.p[k]);
	return r;
#endif
	TTX_PARTS(k) r.p[k] = (ttx_vi)((ttx_vu)(ttx_lo16(a.p[k]) * ttx_lo16(b.p[k])) +
	                               (ttx_vu)(ttx_hi16(a.p[k]) * ttx_hi16(b.p[k])));
	return r;
}

/* shifts by a constant: counts of the width or more give 0 (the
   arithmetic one: the sign) */
#define TTX_SHIFT(name, view, expr) \
	TTX_V16 ttx_v512 ttx_mm512_##name(ttx_v512 a, unsigned n) \
	{ \
		ttx_v512 r; \
		TTX_PARTS(k) { \
			view X = (view)a.p[k]; \
			r.p[k] = (ttx_vi)(expr); \
		} \
		return r; \
	}
TTX_SHIFT(srli_epi32, ttx_vu, n > 31 ? X - X : X >> n)
TTX_SHIFT(slli_epi32, ttx_vu, n > 31 ? X - X : X << n)
TTX_SHIFT(srli_epi64, ttx_vq, n > 63 ? X - X : X >> n)
TTX_SHIFT(slli_epi64, ttx_vq, n > 63 ? X - X : X << n)
TTX_SHIFT(srai_epi16, ttx_vh, X >> (n > 15 ? 15 : n))
#undef TTX_SHIFT

TTX_V16 ttx_v512 ttx_mm512_abs_epi32(ttx_v512 a)
{
	ttx_v512 r;
	TTX_PARTS(k) r.p[k] = ttx_sel(a.p[k] < 0, (ttx_vi)((ttx_vu){ 0 } - (ttx_vu)a.p[k]), a.p[k]);
	return r;
}

TTX_V16 ttx_v512 ttx_mm512_popcnt_epi32(ttx_v512 a)
{
	ttx_v512 r;
	TTX_PARTS(k) {
		ttx_vu x = (ttx_vu)a.p[k];
		x = x - ((x >> 1) & 0x55555555u);
		x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
		x = (x + (x >> 4)) & 0x0F0F0F0Fu;
		r.p[k] = (ttx_vi)((x * 0x01010101u) >> 24);
	}
	return r;
}

/* Bit i of imm gives the result where (a, b, c) have bits (i>>2, i>>1 &
   1, i & 1); imm is a constant, so this folds to a few operations. */
TTX_V16 ttx_v512 ttx_mm512_ternarylogic_epi32(ttx_v512 a, ttx_v512 b, ttx_v512 c, int imm)
{
	ttx_v512 r;
	TTX_PARTS(k) {
		ttx_vi x = { 0 };
#pragma GCC unroll 8
		for (unsigned i = 0; i < 8; i++)
			if (imm >> i & 1)
				x |= (i & 4 ? a.p[k] : ~a.p[k]) & (i & 2 ? b.p[k] : ~b.p[k]) & (i & 1 ? c.p[k] : ~c.p[k]);
		r.p[k] = x;
	}
	return r;
}

/* lane i of the result: lane idx[i] & 15 of a (permutexvar), or of a or
   b by bit 4 of idx[i] (permutex2var) */
TTX_V16 ttx_v512 ttx_mm512_permutex2var_epi32(ttx_v512 a, ttx_v512 idx, ttx_v512 b)
{
	ttx_v512 r;
#if defined(__AVX2__)
	__m256i src[4], ix[2], out[2];
	memcpy(src, &a, 64), memcpy(src + 2, &b, 64), memcpy(ix, &idx, 64);
	for (unsigned k = 0; k < 2; k++) {
		__m256i q[4];
		for (unsigned s = 0; s < 4; s++)
			q[s] = _mm256_permutevar8x32_epi32(src[s], ix[k]);
		__m256i hi8 = _mm256_slli_epi32(ix[k], 28), hi16 = _mm256_slli_epi32(ix[k], 27);
		__m256i fa = _mm256_blendv_epi8(q[0], q[1], _mm256_srai_epi32(hi8, 31));
		__m256i fb = _mm256_blendv_epi8(q[2], q[3], _mm256_srai_epi32(hi8, 31));
		out[k] = _mm256_blendv_epi8(fa, fb, _mm256_srai_epi32(hi16, 31));
	}
	memcpy(&r, out, 64);
#else
	int32_t x[32], i[16], o[16];
	memcpy(x, &a, 64), memcpy(x + 16, &b, 64), memcpy(i, &idx, 64);
	for (unsigned l = 0; l < 16; l++)
		o[l] = x[i[l] & 31];
	memcpy(&r, o, 64);
#endif
	return r;
}

TTX_V16 ttx_v512 ttx_mm512_permutexvar_epi32(ttx_v512 idx, ttx_v512 a)
{
	return ttx_mm512_permutex2var_epi32(a, ttx_mm512_and_si512(idx, ttx_mm512_set1_epi32(15)), a);
}

/* unsigned to float, rounded to nearest even (C's conversion); the
   result's bits, as castps_si512 gives them */
TTX_V16 ttx_v512 ttx_mm512_cvtepu32_ps(ttx_v512 a)
{
	ttx_v512 r;
	TTX_PARTS(k) r.p[k] = (ttx_vi)__builtin_convertvector((ttx_vu)a.p[k], ttx_vf);
	return r;
}
#define ttx_mm512_castps_si512(a) (a)

/* ---- compares, masks, masked operations ---- */

/* Lane masks (ttx_lmask16), for kernels whose masks only choose between
   values: the lanes of all ones or zeros the host's compares give, used
   by a blend without a round trip through bits (on AVX-512 they are its
   bit masks, after this section). */
typedef ttx_v512 ttx_lmask16;
#define TTX_LM(name, expr) \
	TTX_V16 ttx_lmask16 ttx_lm_##name(ttx_v512 a, ttx_v512 b) \
	{ \
		ttx_v512 m; \
		TTX_PARTS(k) { \
			ttx_vi X = a.p[k], Y = b.p[k]; \
			m.p[k] = (ttx_vi)(expr); \
		} \
		return m; \
	}
TTX_LM(test, (X & Y) != 0)
TTX_LM(cmpeq, X == Y)
TTX_LM(cmpgt, X > Y)
TTX_LM(cmpge, X >= Y)
TTX_LM(cmple, X <= Y)
TTX_LM(cmpge_epu32, (ttx_vu)X >= (ttx_vu)Y)
#undef TTX_LM
#define ttx_lm_and ttx_mm512_and_si512
#define ttx_lm_or ttx_mm512_or_si512
#define ttx_lm_bits ttx_bits16
#define ttx_lm_any(m) (ttx_bits16(m) != 0)

/* the lanes whose sign bit is set */
TTX_V16 ttx_lmask16 ttx_lm_sign(ttx_v512 a)
{
	ttx_v512 m;
	TTX_PARTS(k) m.p[k] = a.p[k] >> 31;
	return m;
}

/* m ? a : src */
TTX_V16 ttx_v512 ttx_lm_mov(ttx_v512 src, ttx_lmask16 m, ttx_v512 a)
{
	ttx_v512 r;
#if defined(__AVX2__)
	TTX_PARTS(k) r.p[k] = (ttx_vi)_mm256_blendv_epi8((__m256i)src.p[k], (__m256i)a.p[k], (__m256i)m.p[k]);
#else
	TTX_PARTS(k) r.p[k] = ttx_sel(m.p[k], a.p[k], src.p[k]);
#endif
	return r;
}

/* m ? a : 0 */
#define ttx_lm_maskz ttx_mm512_and_si512

/* the bit masks */
#define ttx_mm512_cmpeq_epi32_mask(a, b) ttx_bits16(ttx_lm_cmpeq(a, b))
#define ttx_mm512_cmpgt_epi32_mask(a, b) ttx_bits16(ttx_lm_cmpgt(a, b))
#define ttx_mm512_cmpge_epi32_mask(a, b) ttx_bits16(ttx_lm_cmpge(a, b))
#define ttx_mm512_cmple_epi32_mask(a, b) ttx_bits16(ttx_lm_cmple(a, b))
#define ttx_mm512_cmpge_epu32_mask(a, b) ttx_bits16(ttx_lm_cmpge_epu32(a, b))
#define ttx_mm512_movepi32_mask(a) ttx_bits16(ttx_lm_sign(a))

TTX_V16 simde__mmask16 ttx_mm512_test_epi32_mask(ttx_v512 a, ttx_v512 b)
{
	ttx_v512 m;
	TTX_PARTS(k) m.p[k] = (a.p[k] & b.p[k]) == 0;
	return (simde__mmask16)~ttx_bits16(m);   /* (one scalar NOT, not one a part) */
}

#define ttx_mm512_mask_cmpge_epu32_mask(k, a, b) ((simde__mmask16)((k) & ttx_mm512_cmpge_epu32_mask(a, b)))
#define ttx_mm512_mask_cmpgt_epi32_mask(k, a, b) ((simde__mmask16)((k) & ttx_mm512_cmpgt_epi32_mask(a, b)))
#define ttx_mm512_mask_test_epi32_mask(k, a, b) ((simde__mmask16)((k) & ttx_mm512_test_epi32_mask(a, b)))

#define ttx_mm512_mask_mov_epi32(src, k, a) ttx_lm_mov(src, ttx_lanes16(k), a)
#define ttx_mm512_maskz_mov_epi32(k, a) ttx_lm_maskz(ttx_lanes16(k), a)

#define ttx_mm512_mask_blend_epi32(k, a, b) ttx_mm512_mask_mov_epi32(a, k, b)
#define ttx_mm512_maskz_and_epi32(k, a, b) ttx_mm512_maskz_mov_epi32(k, ttx_mm512_and_si512(a, b))
#define ttx_mm512_maskz_or_epi32(k, a, b) ttx_mm512_maskz_mov_epi32(k, ttx_mm512_or_si512(a, b))
#define ttx_mm512_maskz_ternarylogic_epi32(k, a, b, c, imm) \
	ttx_mm512_maskz_mov_epi32(k, ttx_mm512_ternarylogic_epi32(a, b, c, imm))
#define ttx_mm512_mask_add_epi32(s, k, a, b) ttx_mm512_mask_mov_epi32(s, k, ttx_mm512_add_epi32(a, b))
#define ttx_mm512_mask_sub_epi32(s, k, a, b) ttx_mm512_mask_mov_epi32(s, k, ttx_mm512_sub_epi32(a, b))
#define ttx_mm512_mask_and_epi32(s, k, a, b) ttx_mm512_mask_mov_epi32(s, k, ttx_mm512_and_si512(a, b))
#define ttx_mm512_mask_or_epi32(s, k, a, b) ttx_mm512_mask_mov_epi32(s, k, ttx_mm512_or_si512(a, b))
#define ttx_mm512_mask_xor_epi32(s, k, a, b) ttx_mm512_mask_mov_epi32(s, k, ttx_mm512_xor_si512(a, b))
#define ttx_mm512_mask_min_epi32(s, k, a, b) ttx_mm512_mask_mov_epi32(s, k, ttx_mm512_min_epi32(a, b))

#pragma GCC diagnostic pop

/* Every simde_mm512_* name the interpreter uses, and the type, to these. */
#define simde__m512i ttx_v512
#undef simde_mm512_loadu_si512
#define simde_mm512_loadu_si512 ttx_mm512_loadu_si512
#undef simde_mm512_storeu_si512
#define simde_mm512_storeu_si512 ttx_mm512_storeu_si512
#undef simde_mm512_set1_epi32
#define simde_mm512_set1_epi32 ttx_mm512_set1_epi32
#undef simde_mm512_set1_epi16
#define simde_mm512_set1_epi16 ttx_mm512_set1_epi16
#undef simde_mm512_setzero_si512
#define simde_mm512_setzero_si512 ttx_mm512_setzero_si512
#undef simde_mm512_and_si512
#define simde_mm512_and_si512 ttx_mm512_and_si512
#undef simde_mm512_or_si512
#define simde_mm512_or_si512 ttx_mm512_or_si512
#undef simde_mm512_xor_si512
#define simde_mm512_xor_si512 ttx_mm512_xor_si512
#undef simde_mm512_andnot_si512
#define simde_mm512_andnot_si512 ttx_mm512_andnot_si512
#undef simde_mm512_add_epi32
#define simde_mm512_add_epi32 ttx_mm512_add_epi32
#undef simde_mm512_sub_epi32
#define simde_mm512_sub_epi32 ttx_mm512_sub_epi32
#undef simde_mm512_mullo_epi32
#define simde_mm512_mullo_epi32 ttx_mm512_mullo_epi32
#undef simde_mm512_min_epi32
#define simde_mm512_min_epi32 ttx_mm512_min_epi32
#undef simde_mm512_max_epi32
#define simde_mm512_max_epi32 ttx_mm512_max_epi32
#undef simde_mm512_min_epu32
#define simde_mm512_min_epu32 ttx_mm512_min_epu32
#undef simde_mm512_max_epu32
#define simde_mm512_max_epu32 ttx_mm512_max_epu32
#undef simde_mm512_sllv_epi32
#define simde_mm512_sllv_epi32 ttx_mm512_sllv_epi32
#undef simde_mm512_srlv_epi32
#define simde_mm512_srlv_epi32 ttx_mm512_srlv_epi32
#undef simde_mm512_mul_epu32
#define simde_mm512_mul_epu32 ttx_mm512_mul_epu32
#undef simde_mm512_add_epi16
#define simde_mm512_add_epi16 ttx_mm512_add_epi16
#undef simde_mm512_mullo_epi16
#define simde_mm512_mullo_epi16 ttx_mm512_mullo_epi16
#undef simde_mm512_max_epi16
#define simde_mm512_max_epi16 ttx_mm512_max_epi16
#undef simde_mm512_adds_epi16
#define simde_mm512_adds_epi16 ttx_mm512_adds_epi16
#undef simde_mm512_subs_epi16
#define simde_mm512_subs_epi16 ttx_mm512_subs_epi16
#undef simde_mm512_sllv_epi16
#define simde_mm512_sllv_epi16 ttx_mm512_sllv_epi16
#undef simde_mm512_mulhrs_epi16
#define simde_mm512_mulhrs_epi16 ttx_mm512_mulhrs_epi16
#undef simde_mm512_madd_epi16
#define simde_mm512_madd_epi16 ttx_mm512_madd_epi16
#undef simde_mm512_srli_epi32
#define simde_mm512_srli_epi32 ttx_mm512_srli_epi32
#undef simde_mm512_slli_epi32
#define simde_mm512_slli_epi32 ttx_mm512_slli_epi32
#undef simde_mm512_srli_epi64
#define simde_mm512_srli_epi64 ttx_mm512_srli_epi64
#undef simde_mm512_slli_epi64
#define simde_mm512_slli_epi64 ttx_mm512_slli_epi64
#undef simde_mm512_srai_epi16
#define simde_mm512_srai_epi16 ttx_mm512_srai_epi16
#undef simde_mm512_srav_epi32
#define simde_mm512_srav_epi32 ttx_mm512_srav_epi32
#undef simde_mm512_abs_epi32
#define simde_mm512_abs_epi32 ttx_mm512_abs_epi32
#undef simde_mm512_popcnt_epi32
#define simde_mm512_popcnt_epi32 ttx_mm512_popcnt_epi32
#undef simde_mm512_ternarylogic_epi32
#define simde_mm512_ternarylogic_epi32 ttx_mm512_ternarylogic_epi32
#undef simde_mm512_permutex2var_epi32
#define simde_mm512_permutex2var_epi32 ttx_mm512_permutex2var_epi32
#undef simde_mm512_permutexvar_epi32
#define simde_mm512_permutexvar_epi32 ttx_mm512_permutexvar_epi32
#undef simde_mm512_cvtepu32_ps
#define simde_mm512_cvtepu32_ps ttx_mm512_cvtepu32_ps
#undef simde_mm512_castps_si512
#define simde_mm512_castps_si512 ttx_mm512_castps_si512
#undef simde_mm512_cmpeq_epi32_mask
#define simde_mm512_cmpeq_epi32_mask ttx_mm512_cmpeq_epi32_mask
#undef simde_mm512_cmpgt_epi32_mask
#define simde_mm512_cmpgt_epi32_mask ttx_mm512_cmpgt_epi32_mask
#undef simde_mm512_cmpge_epi32_mask
#define simde_mm512_cmpge_epi32_mask ttx_mm512_cmpge_epi32_mask
#undef simde_mm512_cmple_epi32_mask
#define simde_mm512_cmple_epi32_mask ttx_mm512_cmple_epi32_mask
#undef simde_mm512_cmpge_epu32_mask
#define simde_mm512_cmpge_epu32_mask ttx_mm512_cmpge_epu32_mask
#undef simde_mm512_test_epi32_mask
#define simde_mm512_test_epi32_mask ttx_mm512_test_epi32_mask
#undef simde_mm512_movepi32_mask
#define simde_mm512_movepi32_mask ttx_mm512_movepi32_mask
#undef simde_mm512_mask_cmpge_epu32_mask
#define simde_mm512_mask_cmpge_epu32_mask ttx_mm512_mask_cmpge_epu32_mask
#undef simde_mm512_mask_cmpgt_epi32_mask
#define simde_mm512_mask_cmpgt_epi32_mask ttx_mm512_mask_cmpgt_epi32_mask
#undef simde_mm512_mask_test_epi32_mask
#define simde_mm512_mask_test_epi32_mask ttx_mm512_mask_test_epi32_mask
#undef simde_mm512_mask_mov_epi32
#define simde_mm512_mask_mov_epi32 ttx_mm512_mask_mov_epi32
#undef simde_mm512_maskz_mov_epi32
#define simde_mm512_maskz_mov_epi32 ttx_mm512_maskz_mov_epi32
#undef simde_mm512_mask_blend_epi32
#define simde_mm512_mask_blend_epi32 ttx_mm512_mask_blend_epi32
#undef simde_mm512_maskz_and_epi32
#define simde_mm512_maskz_and_epi32 ttx_mm512_maskz_and_epi32
#undef simde_mm512_maskz_or_epi32
#define simde_mm512_maskz_or_epi32 ttx_mm512_maskz_or_epi32
#undef simde_mm512_maskz_ternarylogic_epi32
#define simde_mm512_maskz_ternarylogic_epi32 ttx_mm512_maskz_ternarylogic_epi32
#undef simde_mm512_mask_add_epi32
#define simde_mm512_mask_add_epi32 ttx_mm512_mask_add_epi32
#undef simde_mm512_mask_sub_epi32
#define simde_mm512_mask_sub_epi32 ttx_mm512_mask_sub_epi32
#undef simde_mm512_mask_and_epi32
#define simde_mm512_mask_and_epi32 ttx_mm512_mask_and_epi32
#undef simde_mm512_mask_or_epi32
#define simde_mm512_mask_or_epi32 ttx_mm512_mask_or_epi32
#undef simde_mm512_mask_xor_epi32
#define simde_mm512_mask_xor_epi32 ttx_mm512_mask_xor_epi32
#undef simde_mm512_mask_min_epi32
#define simde_mm512_mask_min_epi32 ttx_mm512_mask_min_epi32
#define TTX_SIMD16_GENERIC 1

/* pair_row (matrix_fp.c): row i's 16-bit halves of the lanes, sign-extended */
TTX_V16 ttx_v512 ttx_half16(ttx_v512 v, unsigned i)
{
	ttx_v512 r;
	TTX_PARTS(k) r.p[k] = i ? ttx_hi16(v.p[k]) : ttx_lo16(v.p[k]);
	return r;
}
#endif

/* (AVX-512: the lane masks are its bit masks) */
#if !defined(TTX_SIMD16_GENERIC)
typedef simde__mmask16 ttx_lmask16;
#define ttx_lm_test simde_mm512_test_epi32_mask
#define ttx_lm_cmpeq simde_mm512_cmpeq_epi32_mask
#define ttx_lm_cmpgt simde_mm512_cmpgt_epi32_mask
#define ttx_lm_cmpge simde_mm512_cmpge_epi32_mask
#define ttx_lm_cmpge_epu32 simde_mm512_cmpge_epu32_mask
#define ttx_lm_sign simde_mm512_movepi32_mask
#define ttx_lm_and(m, n) ((simde__mmask16)((m) & (n)))
#define ttx_lm_or(m, n) ((simde__mmask16)((m) | (n)))
#define ttx_lm_bits(m) (m)
#define ttx_lm_any(m) ((m) != 0)
#define ttx_lm_mov simde_mm512_mask_mov_epi32
#define ttx_lm_maskz simde_mm512_maskz_mov_epi32
#endif

/* max(r, b) and acc + u in the 16-bit lanes where b >= lo, the others
   kept (AVX512BW's masked forms; a compare and a select elsewhere) */
static inline simde__m512i ttx_max_epi16_where_ge(simde__m512i r, simde__m512i b, simde__m512i lo)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE) || !defined(TTX_SIMD16_GENERIC)
	return simde_mm512_mask_max_epi16(r, simde_mm512_cmpge_epi16_mask(b, lo), r, b);
#else
	ttx_v512 o;
	TTX_PARTS(p) {
		ttx_vh x = (ttx_vh)r.p[p], y = (ttx_vh)b.p[p];
		ttx_vh take = (ttx_vh)(y >= (ttx_vh)lo.p[p]) & (ttx_vh)(y > x);
		o.p[p] = (ttx_vi)((take & y) | (~take & x));
	}
	return o;
#endif
}

static inline simde__m512i ttx_add_epi16_where_ge(simde__m512i acc, simde__m512i u, simde__m512i b, simde__m512i lo)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE) || !defined(TTX_SIMD16_GENERIC)
	return simde_mm512_mask_add_epi16(acc, simde_mm512_cmpge_epi16_mask(b, lo), acc, u);
#else
	ttx_v512 o;
	TTX_PARTS(p) {
		ttx_vh take = (ttx_vh)((ttx_vh)b.p[p] >= (ttx_vh)lo.p[p]);
		o.p[p] = (ttx_vi)((ttx_vhu)acc.p[p] + (ttx_vhu)(take & (ttx_vh)u.p[p]));
	}
	return o;
#endif
}

static inline int32_t ttx_reduce_min16(simde__m512i v)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
	return _mm512_reduce_min_epi32(v);
#else
	int32_t x[16], m;
	simde_mm512_storeu_si512(x, v);
	m = x[0];
	for (unsigned i = 1; i < 16; i++)
		m = x[i] < m ? x[i] : m;
	return m;
#endif
}

/* The low 16 bits of each lane, stored as 16 uint16_t. */
static inline void ttx_store16_u16(uint16_t *p, simde__m512i v)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
	_mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(v));
#elif defined(TTX_SIMD16_GENERIC)
	TTX_PARTS(k) {
		ttx_vw w = __builtin_convertvector((ttx_vu)v.p[k], ttx_vw);
		memcpy(p + k * TTX_PL, &w, sizeof(w));
	}
#else
	uint32_t x[16];
	simde_mm512_storeu_si512(x, v);
	for (unsigned i = 0; i < 16; i++)
		p[i] = (uint16_t)x[i];
#endif
}

/* 16 uint16_t, zero-extended to 32-bit lanes. */
static inline simde__m512i ttx_load16_u16(const uint16_t *p)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
	return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
#elif defined(TTX_SIMD16_GENERIC)
	ttx_v512 r;
	TTX_PARTS(k) {
		ttx_vw w;
		memcpy(&w, p + k * TTX_PL, sizeof(w));
		r.p[k] = (ttx_vi)__builtin_convertvector(w, ttx_vu);
	}
	return r;
#else
	uint32_t x[16];
	for (unsigned i = 0; i < 16; i++)
		x[i] = p[i];
	return simde_mm512_loadu_si512(x);
#endif
}

#endif
