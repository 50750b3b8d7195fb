/* The few 16-lane operations SIMDe 0.7 lacks at 512 bits, native where
   the host has AVX-512 and lane by lane elsewhere. */
#ifndef TTX_SIMD16_H
#define TTX_SIMD16_H

#include <stdint.h>

#include <simde/x86/avx512.h>

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
#else
	uint32_t x[16];
	for (unsigned i = 0; i < 16; i++)
		x[i] = p[i];
	return simde_mm512_loadu_si512(x);
#endif
}

#endif
