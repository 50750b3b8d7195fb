/* RV32IM through the cross compiler (tests/test_riscv_elf.sh): the M
 * extension's edges, loads' sign and zero extension, shifts, each checked
 * against a value derived by hand; the operands are volatile so the
 * compiler emits the instructions instead of folding them.  The result
 * goes to L1 0x16000 (the first failing check's number, or 0x600D after
 * all of them), then the core halts (ebreak from crt0). */
#include <stdint.h>

#include "ttx_rv.h"

#define RESULT 0x16000u

static volatile int32_t vs[8] = { INT32_MIN, -1, -7, 2, 0, 0x7FFFFFFF, 3, -2 };
static volatile uint32_t vu[4] = { 0xFFFFFFF9u, 2, 0, 0x80000001u };
static const uint8_t bytes[8] = { 0x81, 0x7F, 0x34, 0x92, 0x11, 0x22, 0x33, 0x44 };

static void check(int n, int ok)
{
	if (!ok)
		ttx_done(RESULT, (uint32_t)n);
}

int main(void)
{
	int32_t imin = vs[0], m1 = vs[1], m7 = vs[2], two = vs[3], zero = vs[4], imax = vs[5], three = vs[6], m2 = vs[7];
	/* division (M): by zero, overflow, truncation toward zero */
	check(1, imin / m1 == INT32_MIN);      /* INT_MIN / -1 = INT_MIN (RISC-V defines it) */
	check(2, imin % m1 == 0);
	check(3, m7 / zero == -1);
	check(4, m7 % zero == -7);
	check(5, m7 / two == -3);
	check(6, m7 % two == -1);
	check(7, vu[0] / vu[2] == 0xFFFFFFFFu);
	check(8, vu[0] % vu[2] == 0xFFFFFFF9u);
	check(9, vu[0] / vu[1] == 0x7FFFFFFCu);
	check(10, vu[0] % vu[1] == 1);
	/* multiplication: low and high halves with every signedness */
	check(11, m2 * three == -6);
	check(12, (int32_t)(((int64_t)m2 * three) >> 32) == -1);                     /* mulh */
	check(13, (uint32_t)(((uint64_t)(uint32_t)m2 * (uint32_t)three) >> 32) == 2);  /* mulhu */
	check(14, (int32_t)(((int64_t)m2 * (int64_t)(uint32_t)three) >> 32) == -1);   /* mulhsu */
	check(15, (uint32_t)(((uint64_t)vu[3] * vu[3]) >> 32) == 0x40000001u);
	check(16, (uint32_t)imax + 1u == 0x80000000u);   /* add wraps */
	/* shifts by 31 and by a register */
	volatile uint32_t s31 = 31, s63 = 63;
	check(17, ((uint32_t)m1 << s31) == 0x80000000u);
	check(18, ((uint32_t)imin >> s31) == 1);
	check(19, (imin >> s31) == -1);
	check(20, ((uint32_t)1 << (s63 & 31)) == 0x80000000u);
	/* loads: sign and zero extension */
	volatile const int8_t *sb = (const int8_t *)bytes;
	volatile const uint8_t *ub = bytes;
	volatile const int16_t *sh = (const int16_t *)bytes;
	volatile const uint16_t *uh = (const uint16_t *)bytes;
	check(21, sb[0] == -127);
	check(22, ub[0] == 0x81);
	check(23, sh[1] == (int16_t)0x9234);
	check(24, uh[1] == 0x9234);
	check(25, *(volatile const uint32_t *)(bytes + 4) == 0x44332211u);
	/* comparisons signed and unsigned */
	check(26, (imin < zero) && !((uint32_t)imin < (uint32_t)zero));
	ttx_done(RESULT, 0x600D);
}
