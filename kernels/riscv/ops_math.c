/* Thread 1 (math) of the tensor ops' kernels, on RISCV T1: the words of
 * `.thread 1` of kernels/<name>.s, pushed from C (ops_kernel.h).  The SFPU
 * functions are those of kernels/sfpu_*.s, word for word. */
#include "ops_kernel.h"

enum { ACC = 64, MAXT = 128, RCP = 192, MEAN = 128, RSTD = 192 };

static uint32_t to_dst, load_mode;

/* ---- the SFPU kernels' skeleton (kernels/math_setup.s, in_math.s,
   in_done.s, out_begin.s, out_end.s) ---- */

static void math_setup(void)
{
	uint32_t alu = UARG(SRCA_FMT) << 17 | UARG(PACK_INTER) << 25;
	TTI_SEMINIT(1, 1, 0b0001);
	TTI_SEMINIT(1, 0, 0b0010);
	TTI_SEMINIT(2, 2, 0b0100);
	TTI_SEMINIT(2, 0, 0b1000);
	TT_SETDMAREG(0, alu & 0xFFFF, 0, 32);
	TT_SETDMAREG(0, alu >> 16, 0, 33);
	TTI_WRCFG(16, 0, 1);
	TTI_NOP();
	TTI_SFPENCC(3, 0, 0, 10);
	TTI_SETC16(24, 2);
	TTI_SETC16(25, 4);
	TTI_SETC16(26, 20);
}

/* the next input tile into the input slot (face_swap: faces 1 and 2
   exchanged on the way through SrcA) */
static void in_math(int face_swap)
{
	if (to_dst) {
		TTI_SEMWAIT(B_SYNC | B_SFPU, 0b0010, 1);
		TTI_SEMGET(0b0010);
		return;
	}
	TTI_STALLWAIT(B_MATH, C_SFPU);
	for (unsigned R = 0; R < 8; R++) {
		unsigned F = R / 2;
		if (face_swap && (F == 1 || F == 2))
			F = 3 - F;
		TT_MOVA2D(0, 8 * R, 0, 2, 16 * F + 8 * (R % 2));
	}
	TTI_CLEARDVALID(1, 0);
	TTI_STALLWAIT(B_SFPU, C_MATH);
}

static void in_done(void)
{
	if (to_dst) {
		TTI_STALLWAIT(B_SYNC, C_SFPU);
		TTI_SEMPOST(0b0001);
	}
}

static void out_begin(void)
{
	TTI_SEMWAIT(B_SYNC | B_SFPU, 0b0100, 1);
	TTI_SEMGET(0b0100);
}

static void out_end(void)
{
	TTI_STALLWAIT(B_SYNC, C_SFPU);
	TTI_SEMPOST(0b1000);
}

/* the Dst RWC back to 0 after 32 passes (ADDR_MOD 1 stepped it by 2 a pass) */
static void rwc_back(void)
{
	TTI_SETRWC(0, 0, 0, 0, 0, 0b0100);
}

static void load_input(unsigned lreg)
{
	TT_SFPLOAD(lreg, load_mode, 0, 0);
}

/* ---- reductions (kernels/red_op.s, red_rows.s, red_cols.s) ---- */

/* LReg ra = ra op LReg rb: sum (rop 0) or max (1) */
static void red_op(uint32_t rop, unsigned ra, unsigned rb)
{
	if (rop == 0)
		TT_SFPADD(ra, 10, rb, ra, 0);
	else
		TT_SFPSWAP(0, ra, rb, 1);
	TTI_SFPNOP();
}

/* each row of the tile at Dst32 rows rsrc.. reduced, into every column of
   that row at rdst.. */
static void red_rows(uint32_t rop, uint32_t rsrc, uint32_t rdst)
{
	for (unsigned G = 0; G < 8; G++) {
		TT_SFPLOAD(0, LOAD_FP32, 0, rsrc);
		TT_SFPLOAD(1, LOAD_FP32, 0, rsrc + 2);
		TT_SFPLOAD(2, LOAD_FP32, 0, rsrc + 16);
		TT_SFPLOAD(3, LOAD_FP32, 0, rsrc + 18);
		red_op(rop, 0, 1);
		red_op(rop, 2, 3);
		red_op(rop, 0, 2);
		for (unsigned S = 0; S < 3; S++) {
			TTI_SFPSHFT2(0, 0, 1, 3);   /* L1 = L0 rotated by one lane */
			TTI_SFPNOP();
			for (unsigned k = 0; k < (1u << S) - 1; k++) {
				TTI_SFPSHFT2(0, 1, 1, 3);   /* ... by 2^S lanes */
				TTI_SFPNOP();
			}
			red_op(rop, 0, 1);
		}
		TT_SFPSTORE(0, LOAD_FP32, 0, rdst);
		TT_SFPSTORE(0, LOAD_FP32, 0, rdst + 2);
		TT_SFPSTORE(0, LOAD_FP32, 0, rdst + 16);
		if (G % 4 == 3)
			TT_SFPSTORE(0, LOAD_FP32, 3, rdst + 18);   /* ADDR_MOD 3: the next 4 groups */
		else
			TT_SFPSTORE(0, LOAD_FP32, 2, rdst + 18);   /* ADDR_MOD 2: the next group */
	}
	rwc_back();
}

/* each column of the tile at rsrc.. reduced, into every row of that
   column at rdst.. */
static void red_cols(uint32_t rop, uint32_t rsrc, uint32_t rdst)
{
	TT_SFPLOAD(0, LOAD_FP32, 0, rsrc);
	TT_SFPLOAD(1, LOAD_FP32, 0, rsrc + 2);
	TT_SFPLOAD(2, LOAD_FP32, 0, rsrc + 16);
	TT_SFPLOAD(3, LOAD_FP32, 0, rsrc + 18);
	for (unsigned G = 0; G < 7; G++) {
		uint32_t R0 = 32 * ((G + 1) / 4) + 4 * ((G + 1) % 4);
		for (unsigned J = 0; J < 4; J++) {
			TT_SFPLOAD(4, LOAD_FP32, 0, rsrc + R0 + 16 * (J / 2) + 2 * (J % 2));
			red_op(rop, J, 4);
		}
	}
	TTI_SFPTRANSP(0, 0, 0, 0);
	red_op(rop, 0, 1);
	red_op(rop, 2, 3);
	red_op(rop, 0, 2);
	TTI_SFPMOV(0, 0, 1, 0);
	TTI_SFPMOV(0, 0, 2, 0);
	TTI_SFPMOV(0, 0, 3, 0);
	TTI_SFPTRANSP(0, 0, 0, 0);
	for (unsigned G = 0; G < 8; G++) {
		uint32_t R0 = 32 * (G / 4) + 4 * (G % 4);
		for (unsigned J = 0; J < 4; J++)
			TT_SFPSTORE(J, LOAD_FP32, 0, rdst + R0 + 16 * (J / 2) + 2 * (J % 2));
	}
}

/* ---- SFPU functions (kernels/sfpu_*.s) ---- */

/* L0 = e^L0 (LReg 1-6 scratch): kernels/sfpu_exp.s */
static void sfpu_exp(void)
{
	TTI_SFPLOADI(1, 8, 0x3FB8); /* L1 = 1 / ln 2 */
	TTI_SFPLOADI(1, 10, 0xAA3B);
	TTI_SFPLOADI(2, 8, 0x4B40); /* L2 = 1.5 * 2^23 */
	TTI_SFPLOADI(2, 10, 0x0000);
	TTI_SFPMAD(0, 1, 2, 1, 0); /* L1 = x / ln 2 + 1.5 * 2^23: n in the low bits */
	TTI_SFPLOADI(2, 8, 0xCB40); /* L2 = -1.5 * 2^23 */
	TTI_SFPADD(1, 10, 2, 2, 0); /* L2 = n */
	TTI_SFPLOADI(3, 8, 0xBF31); /* L3 = -ln2_hi = -0.693145751953125 */
	TTI_SFPLOADI(3, 10, 0x7200);
	TTI_SFPMAD(2, 3, 0, 3, 0); /* L3 = x - n ln2_hi */
	TTI_SFPLOADI(4, 8, 0xB5BF); /* L4 = -ln2_lo */
	TTI_SFPLOADI(4, 10, 0xBE8E);
	TTI_SFPMAD(2, 4, 3, 3, 0); /* L3 = r */
	TTI_SFPLOADI(4, 8, 0x3AB6); /* c6 */
	TTI_SFPLOADI(4, 10, 0xD3AC);
	TTI_SFPLOADI(5, 8, 0x3C09); /* c5 */
	TTI_SFPLOADI(5, 10, 0x37D6);
	TTI_SFPMAD(4, 3, 5, 4, 0); /* p = c6 r + c5 */
	TTI_SFPLOADI(5, 8, 0x3D2A); /* c4 */
	TTI_SFPLOADI(5, 10, 0xAA32);
	TTI_SFPMAD(4, 3, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0x3E2A); /* c3 */
	TTI_SFPLOADI(5, 10, 0xAA02);
	TTI_SFPMAD(4, 3, 5, 4, 0);
	TTI_SFPLOADI(5, 0, 0x3F00); /* c2 = 1/2 */
	TTI_SFPMAD(4, 3, 5, 4, 0);
	TTI_SFPNOP();
	TTI_SFPMAD(4, 3, 10, 4, 0); /* c1 = 1 */
	TTI_SFPNOP();
	TTI_SFPMAD(4, 3, 10, 4, 0); /* c0 = 1: L4 = e^r */
	TTI_SFPLOADI(5, 8, 0x4B40); /* L5 = 0x4B400000 */
	TTI_SFPLOADI(5, 10, 0x0000);
	TTI_SFPIADD(0, 1, 5, 6); /* L5 = L1 - L5 = n (integer) */
	TTI_SFPSHFT(23, 0, 5, 1); /* L5 = n << 23 */
	TTI_SFPIADD(0, 4, 5, 4); /* L5 = e^r * 2^n (exponent field + n) */
	TTI_SFPLOADI(6, 8, 0xC2B1); /* L6 = -88.72284 */
	TTI_SFPLOADI(6, 10, 0x7218);
	TTI_SFPADD(0, 10, 6, 6, 0); /* L6 = x - 88.72284 */
	TTI_SFPNOP();
	TTI_SFPSETCC(0, 6, 0, 4); /* where x >= 88.72284: */
	TTI_SFPLOADI(5, 0, 0x7F80); /* +Inf */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPLOADI(6, 8, 0x42AE); /* L6 = 87.33655 */
	TTI_SFPLOADI(6, 10, 0xAC50);
	TTI_SFPADD(0, 10, 6, 6, 0); /* L6 = x + 87.33655 */
	TTI_SFPNOP();
	TTI_SFPSETCC(0, 6, 0, 0); /* where x < -87.33655: */
	TTI_SFPLOADI(5, 0, 0); /* +0 */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPSETSGN(0, 0, 6, 1); /* L6 = |x| (sign cleared) */
	TTI_SFPLOADI(1, 8, 0x7F80); /* L1 = 0x7F800001 */
	TTI_SFPLOADI(1, 10, 0x0001);
	TTI_SFPIADD(0, 6, 1, 10); /* where |x| (integer) - L1 >= 0, a NaN: */
	TTI_SFPMOV(0, 0, 5, 0); /* x */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPMOV(0, 5, 0, 0); /* L0 = the result */
}

/* L0 = 1 / L0 (LReg 1-6 scratch): kernels/sfpu_recip.s */
static void sfpu_recip(void)
{
	TTI_SFPSETSGN(0, 0, 1, 1); /* L1 = |x| */
	TTI_SFPSETSGN(0, 0, 3, 1); /* L3 = |x| */
	TTI_SFPLOADI(2, 8, 0x7EF3);
	TTI_SFPLOADI(2, 10, 0x11C7);
	TTI_SFPIADD(0, 2, 3, 6); /* L3 = L2 - L3 = y0 */
	TTI_SFPSETSGN(1, 0, 4, 1); /* L4 = -|x| */
	TTI_SFPLOADI(6, 0, 0x4000); /* L6 = 2 */
	for (int i = 0; i < 3; i++) {
		TTI_SFPMAD(4, 3, 6, 5, 0); /* L5 = 2 - |x| y */
		TTI_SFPNOP();
		TTI_SFPMUL(3, 5, 9, 3, 0); /* y = y L5 */
		TTI_SFPNOP();
	}
	TTI_SFPEXEXP(0, 1, 5, 1); /* L5 = the exponent field of |x| */
	TTI_SFPSETCC(0, 5, 0, 6); /* where it is 0: */
	TTI_SFPLOADI(3, 0, 0x7F80); /* +Inf */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPIADD(-253, 5, 5, 5);
	TTI_SFPSETCC(0, 5, 0, 4); /* where it is 253 or more: */
	TTI_SFPLOADI(3, 0, 0); /* +0 */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPLOADI(5, 8, 0x7F80); /* L5 = 0x7F800001 */
	TTI_SFPLOADI(5, 10, 0x0001);
	TTI_SFPIADD(0, 1, 5, 10); /* where |x| is a NaN: */
	TTI_SFPMOV(0, 1, 3, 0); /* |x| */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPSETSGN(0, 3, 0, 0); /* L0 = |y| with the sign of x */
}

/* L0 = ln L0 (LReg 1-6 scratch): kernels/sfpu_log.s */
static void sfpu_log(void)
{
	TTI_SFPEXEXP(0, 0, 1, 1); /* L1 = the exponent field b */
	TTI_SFPSETEXP(127, 0, 2, 1); /* L2 = m in [1, 2) */
	TTI_SFPLOADI(3, 8, 0xBFB5); /* L3 = -sqrt(2) */
	TTI_SFPLOADI(3, 10, 0x04F3);
	TTI_SFPADD(2, 10, 3, 3, 0); /* L3 = m - sqrt(2) */
	TTI_SFPNOP();
	TTI_SFPSETCC(0, 3, 0, 4); /* where m >= sqrt(2): */
	TTI_SFPSETEXP(126, 2, 2, 1); /* m / 2 */
	TTI_SFPIADD(1, 1, 1, 5); /* b + 1 */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPADD(2, 10, 11, 2, 0); /* L2 = t = m - 1 (LReg 11 = -1) */
	TTI_SFPCAST(1, 1, 0); /* L1 = b as FP32 */
	TTI_SFPLOADI(3, 8, 0xC2FE); /* L3 = -127 */
	TTI_SFPLOADI(3, 10, 0);
	TTI_SFPADD(1, 10, 3, 1, 0); /* L1 = e = b - 127 (exact) */
	TTI_SFPLOADI(4, 8, 0x3DB3); /* c8 */
	TTI_SFPLOADI(4, 10, 0x1375);
	TTI_SFPLOADI(5, 8, 0xBE13); /* c7 */
	TTI_SFPLOADI(5, 10, 0x394F);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0x3E19); /* c6 */
	TTI_SFPLOADI(5, 10, 0x1428);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0xBE29); /* c5 */
	TTI_SFPLOADI(5, 10, 0x94DF);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0x3E4C); /* c4 */
	TTI_SFPLOADI(5, 10, 0x5C05);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0xBE80); /* c3 */
	TTI_SFPLOADI(5, 10, 0x02D3);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0x3EAA); /* c2 */
	TTI_SFPLOADI(5, 10, 0xABC8);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPLOADI(5, 8, 0xBEFF); /* c1 */
	TTI_SFPLOADI(5, 10, 0xFFFC);
	TTI_SFPMAD(4, 2, 5, 4, 0);
	TTI_SFPNOP();
	TTI_SFPMAD(4, 2, 10, 4, 0); /* c0 = 1: L4 = P(t) */
	TTI_SFPNOP();
	TTI_SFPMUL(4, 2, 9, 4, 0); /* L4 = t P(t) */
	TTI_SFPLOADI(5, 8, 0x3F31); /* L5 = ln 2 */
	TTI_SFPLOADI(5, 10, 0x7218);
	TTI_SFPMAD(1, 5, 4, 5, 0); /* L5 = e ln 2 + t P(t) */
	TTI_SFPNOP();
	TTI_SFPEXEXP(0, 0, 6, 1); /* L6 = the exponent field of x */
	TTI_SFPIADD(-255, 6, 6, 5); /* L6 - 255 */
	TTI_SFPSETCC(0, 6, 0, 6); /* where it is 255 (Inf, NaN): */
	TTI_SFPMOV(0, 0, 5, 0); /* x */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPSETCC(0, 0, 0, 0); /* where x < 0 (the sign bit): */
	TTI_SFPLOADI(5, 8, 0x7FC0); /* NaN */
	TTI_SFPLOADI(5, 10, 0);
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPEXEXP(0, 0, 6, 1);
	TTI_SFPSETCC(0, 6, 0, 6); /* where the exponent field is 0 (+-0, denormals): */
	TTI_SFPLOADI(5, 0, 0xFF80); /* -Inf */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPMOV(0, 5, 0, 0); /* L0 = the result */
}

/* L0 = 1 / sqrt(L0), or sqrt(L0) (LReg 1-6 scratch): kernels/sfpu_rsqrt.s */
static void sfpu_rsqrt(int sqrt)
{
	TTI_SFPMOV(0, 0, 1, 0); /* L1 = x */
	TTI_SFPSHFT(-1, 0, 1, 1); /* L1 = x >> 1 (integer) */
	TTI_SFPLOADI(2, 8, 0x5F37);
	TTI_SFPLOADI(2, 10, 0x59DF);
	TTI_SFPIADD(0, 2, 1, 6); /* L1 = L2 - L1 = y0 */
	TTI_SFPLOADI(3, 0, 0xBF00); /* L3 = -1/2 */
	TTI_SFPLOADI(4, 0, 0x3FC0); /* L4 = 3/2 */
	for (int i = 0; i < 3; i++) {
		TTI_SFPMUL(0, 1, 9, 5, 0); /* L5 = x y (not x/2 or y^2: they leave the */
		TTI_SFPNOP(); /* normal range at its ends) */
		TTI_SFPMUL(5, 1, 9, 5, 0); /* L5 = x y^2 */
		TTI_SFPNOP();
		TTI_SFPMAD(5, 3, 4, 5, 0); /* L5 = 3/2 - x/2 y^2 */
		TTI_SFPNOP();
		TTI_SFPMUL(1, 5, 9, 1, 0); /* y = y L5 */
		TTI_SFPNOP();
	}
	if (sqrt) {
		TTI_SFPMUL(0, 1, 9, 1, 0); /* L1 = x y = sqrt x */
		TTI_SFPNOP();
	}
	TTI_SFPEXEXP(0, 0, 5, 1); /* L5 = the exponent field of x */
	TTI_SFPIADD(-255, 5, 6, 5); /* L6 = L5 - 255 */
	TTI_SFPSETCC(0, 6, 0, 6); /* where x is +-Inf or NaN: */
	if (sqrt)
		TTI_SFPMOV(0, 0, 1, 0); /* x */
	else
		TTI_SFPLOADI(1, 0, 0); /* +0 */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPSETCC(0, 0, 0, 0); /* where x < 0: */
	TTI_SFPLOADI(1, 8, 0x7FC0); /* NaN */
	TTI_SFPLOADI(1, 10, 0);
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPLOADI(6, 8, 0x7F80); /* L6 = 0x7F800001 */
	TTI_SFPLOADI(6, 10, 0x0001);
	TTI_SFPSETSGN(0, 0, 2, 1); /* L2 = |x| */
	TTI_SFPIADD(0, 2, 6, 10); /* where x is a NaN: */
	TTI_SFPMOV(0, 0, 1, 0); /* x */
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPSETCC(0, 5, 0, 6); /* where x is +-0 or denormal: */
	if (sqrt)
		TTI_SFPLOADI(1, 0, 0); /* 0 */
	else
		TTI_SFPLOADI(1, 0, 0x7F80); /* Inf */
	TTI_SFPMOV(0, 0, 2, 0); /* ... with x's sign */
	TTI_SFPSETSGN(0, 1, 2, 0);
	TTI_SFPMOV(0, 2, 1, 0);
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPMOV(0, 1, 0, 0); /* L0 = the result */
}

/* L0 = tanh L0 (LReg 1-7 scratch): kernels/sfpu_tanh.s */
static void sfpu_tanh(void)
{
	TTI_SFPMOV(0, 0, 7, 0); /* L7 = x */
	TTI_SFPSETSGN(0, 0, 0, 1); /* L0 = |x| */
	TTI_SFPADD(0, 10, 0, 0, 0); /* L0 = 2|x| */
	TTI_SFPNOP();
	sfpu_exp();
	TTI_SFPADD(0, 10, 10, 0, 0); /* 1 + e^(2|x|) */
	TTI_SFPNOP();
	sfpu_recip();
	TTI_SFPLOADI(1, 0, 0xC000); /* L1 = -2 */
	TTI_SFPMAD(0, 1, 10, 0, 0); /* L0 = 1 - 2 / (1 + e^(2|x|)) = tanh |x| */
	TTI_SFPNOP();
	TTI_SFPMOV(0, 7, 1, 0); /* L1 = x */
	TTI_SFPSETSGN(0, 0, 1, 0); /* L1 = tanh |x| with x's sign */
	TTI_SFPMOV(0, 1, 0, 0);
	TTI_SFPSETSGN(0, 7, 1, 1); /* L1 = |x| */
	TTI_SFPLOADI(2, 8, 0xBF0C); /* L2 = -0.55 */
	TTI_SFPLOADI(2, 10, 0xCCCD);
	TTI_SFPADD(1, 10, 2, 2, 0); /* L2 = |x| - 0.55 */
	TTI_SFPNOP();
	TTI_SFPSETCC(0, 2, 0, 0); /* where |x| < 0.55: */
	TTI_SFPMUL(7, 7, 9, 1, 0); /* L1 = u = x^2 */
	TTI_SFPLOADI(2, 8, 0x3C85); /* c4 */
	TTI_SFPLOADI(2, 10, 0xB9FF);
	TTI_SFPLOADI(3, 8, 0xBD57); /* c3 */
	TTI_SFPLOADI(3, 10, 0x6D5F);
	TTI_SFPMAD(2, 1, 3, 2, 0); /* P = c4 u + c3 */
	TTI_SFPLOADI(3, 8, 0x3E08); /* c2 */
	TTI_SFPLOADI(3, 10, 0x62E6);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPLOADI(3, 8, 0xBEAA); /* c1 */
	TTI_SFPLOADI(3, 10, 0xA9F8);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPLOADI(3, 8, 0x3F7F); /* c0 */
	TTI_SFPLOADI(3, 10, 0xFFFF);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPNOP();
	TTI_SFPMUL(7, 2, 9, 0, 0); /* L0 = x P(x^2) */
	TTI_SFPNOP();
	TTI_SFPENCC(0, 0, 0, 0);
}

/* L0 = gelu(L0) (LReg 1-7 and the pass's scratch row): kernels/sfpu_gelu.s */
static void sfpu_gelu(void)
{
	TTI_SFPMOV(0, 0, 7, 0); /* L7 = x */
	TTI_SFPSETSGN(0, 0, 0, 1); /* L0 = |x| */
	TTI_SFPLOADI(1, 8, 0x3E6D); /* L1 = p / sqrt 2 = 0.2316419 */
	TTI_SFPLOADI(1, 10, 0x3388);
	TTI_SFPMAD(0, 1, 10, 0, 0); /* L0 = 1 + p z */
	TTI_SFPNOP();
	sfpu_recip(); /* L0 = t */
	TTI_SFPSTORE(0, LOAD_FP32, 0, SCRATCH); /* keep t */
	TTI_SFPLOADI(1, 0, 0xBF00); /* L1 = -1/2 */
	TTI_SFPMUL(7, 1, 9, 1, 0); /* L1 = -x/2 */
	TTI_SFPNOP();
	TTI_SFPMUL(7, 1, 9, 0, 0); /* L0 = -x^2/2 = -z^2 */
	TTI_SFPNOP();
	sfpu_exp(); /* L0 = e^(-z^2) */
	TTI_SFPLOAD(1, LOAD_FP32, 0, SCRATCH); /* L1 = t */
	TTI_SFPLOADI(2, 8, 0x3F87); /* a5 = 1.061405429 */
	TTI_SFPLOADI(2, 10, 0xDC22);
	TTI_SFPLOADI(3, 8, 0xBFBA); /* a4 = -1.453152027 */
	TTI_SFPLOADI(3, 10, 0x00E3);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPLOADI(3, 8, 0x3FB5); /* a3 = 1.421413741 */
	TTI_SFPLOADI(3, 10, 0xF0E3);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPLOADI(3, 8, 0xBE91); /* a2 = -0.284496736 */
	TTI_SFPLOADI(3, 10, 0xA98E);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPLOADI(3, 8, 0x3E82); /* a1 = 0.254829592 */
	TTI_SFPLOADI(3, 10, 0x7906);
	TTI_SFPMAD(2, 1, 3, 2, 0);
	TTI_SFPNOP();
	TTI_SFPMUL(2, 1, 9, 2, 0); /* L2 = t (a1 + ... + a5 t^4) */
	TTI_SFPNOP();
	TTI_SFPMUL(2, 0, 9, 2, 0); /* L2 = Q */
	TTI_SFPLOADI(3, 0, 0xBF00); /* L3 = -1/2 */
	TTI_SFPMAD(2, 3, 10, 0, 0); /* L0 = 1 - Q/2 */
	TTI_SFPNOP();
	TTI_SFPSETCC(0, 7, 0, 0); /* where x < 0: */
	TTI_SFPLOADI(3, 0, 0x3F00);
	TTI_SFPMUL(2, 3, 9, 0, 0); /* L0 = Q/2 */
	TTI_SFPNOP();
	TTI_SFPENCC(0, 0, 0, 0);
	TTI_SFPMUL(7, 0, 9, 0, 0); /* x Phi(x) */
	TTI_SFPNOP();
}

/* L0 = L0^PARAM: kernels/sfpu_power.s */
struct power { uint32_t param, p_int, p_abs, p_neg, p_bigint, p_odd; };

static void sfpu_power(const struct power *p)
{
	if (p->p_int) {
		TTI_SFPLOADI(1, 0, 0x3F80);   /* L1 = 1 */
		TTI_SFPMOV(0, 0, 2, 0);       /* L2 = x */
		for (unsigned K = 0; K < 5; K++) {
			if ((p->p_abs >> K) & 1) {
				TTI_SFPMUL(1, 2, 9, 1, 0);   /* L1 *= x^(2^K) */
				TTI_SFPNOP();
			}
			if (p->p_abs >> (K + 1)) {
				TTI_SFPMUL(2, 2, 9, 2, 0);   /* L2 = x^(2^(K+1)) */
				TTI_SFPNOP();
			}
		}
		TTI_SFPMOV(0, 1, 0, 0);
		if (p->p_neg)
			sfpu_recip();
		return;
	}
	if (p->p_bigint) {
		TTI_SFPMOV(0, 0, 7, 0);       /* L7 = x */
		TTI_SFPSETSGN(0, 0, 0, 1);    /* L0 = |x| */
	}
	sfpu_log();
	TT_SFPLOADI(1, 8, p->param >> 16);   /* L1 = p */
	TT_SFPLOADI(1, 10, p->param & 0xFFFF);
	TTI_SFPMUL(0, 1, 9, 0, 0);           /* p ln x */
	TTI_SFPNOP();
	sfpu_exp();
	if (p->p_bigint && p->p_odd) {
		TTI_SFPSETSGN(0, 0, 7, 0);    /* L7 = |L0| with the sign of x */
		TTI_SFPMOV(0, 7, 0, 0);
	}
}

/* the function fn on LReg 0: kernels/sfpu_fn.s */
static void sfpu_fn(uint32_t fn, const struct power *p)
{
	switch (fn) {
	case FN_COPY:
		break;
	case FN_EXP:
		sfpu_exp();
		break;
	case FN_LOG:
		sfpu_log();
		break;
	case FN_RECIP:
		sfpu_recip();
		break;
	case FN_SQRT: case FN_RSQRT:
		sfpu_rsqrt(fn == FN_SQRT);
		break;
	case FN_SIGMOID:
		TTI_SFPMOV(0, 0, 0, 1);      /* L0 = -x */
		sfpu_exp();
		TTI_SFPADD(0, 10, 10, 0, 0); /* 1 + e^-x */
		TTI_SFPNOP();
		sfpu_recip();
		break;
	case FN_TANH:
		sfpu_tanh();
		break;
	case FN_GELU:
		sfpu_gelu();
		break;
	case FN_GELU_TANH:   /* x sigmoid(2 k (x + 0.044715 x^3)), k = sqrt(2 / pi) */
		TTI_SFPMOV(0, 0, 7, 0);       /* L7 = x */
		TTI_SFPMUL(0, 0, 9, 1, 0);    /* L1 = x^2 */
		TTI_SFPLOADI(2, 8, 0x3D37);   /* L2 = 0.044715 */
		TTI_SFPLOADI(2, 10, 0x2713);
		TTI_SFPMAD(1, 2, 10, 1, 0);   /* L1 = 1 + 0.044715 x^2 */
		TTI_SFPLOADI(2, 8, 0xBFCC);   /* L2 = -2 sqrt(2/pi) */
		TTI_SFPLOADI(2, 10, 0x422A);
		TTI_SFPMUL(0, 2, 9, 0, 0);    /* L0 = -2 k x */
		TTI_SFPNOP();
		TTI_SFPMUL(0, 1, 9, 0, 0);    /* L0 = -2 k x (1 + 0.044715 x^2) */
		TTI_SFPNOP();
		sfpu_exp();
		TTI_SFPADD(0, 10, 10, 0, 0);  /* 1 + e^(-z) */
		TTI_SFPNOP();
		sfpu_recip();
		TTI_SFPMUL(0, 7, 9, 0, 0);    /* x sigmoid(z) */
		TTI_SFPNOP();
		break;
	case FN_SILU:
		TTI_SFPMOV(0, 0, 7, 0);       /* L7 = x */
		TTI_SFPMOV(0, 0, 0, 1);       /* L0 = -x */
		sfpu_exp();
		TTI_SFPADD(0, 10, 10, 0, 0);
		TTI_SFPNOP();
		sfpu_recip();
		TTI_SFPMUL(0, 7, 9, 0, 0);    /* x sigmoid(x) */
		TTI_SFPNOP();
		break;
	case FN_RELU:
		TTI_SFPSETCC(0, 0, 0, 0);     /* where x < 0 (the sign bit: -0 too) */
		TTI_SFPLOADI(0, 0, 0);        /*   0 */
		TTI_SFPENCC(0, 0, 0, 0);
		break;
	case FN_LEAKY_RELU:
		TTI_SFPSETCC(0, 0, 0, 0);     /* where x < 0 */
		TT_SFPLOADI(1, 8, p->param >> 16);   /*   x * slope */
		TT_SFPLOADI(1, 10, p->param & 0xFFFF);
		TTI_SFPMUL(0, 1, 9, 0, 0);
		TTI_SFPNOP();
		TTI_SFPENCC(0, 0, 0, 0);
		break;
	case FN_ABS:
		TTI_SFPABS(0, 0, 0, 1);
		break;
	case FN_SQUARE:
		TTI_SFPMUL(0, 0, 9, 0, 0);
		TTI_SFPNOP();
		break;
	case FN_POWER:
		sfpu_power(p);
		break;
	case FN_NEG:
		TTI_SFPMOV(0, 0, 0, 1);
		break;
	default:
		kernel_fail("unknown SFPU function in FN", 0);
	}
}

/* ---- the kernels ---- */

static uint32_t out_row(uint32_t T)
{
	return OUT_ROW + 64 * (T % 2);
}

/* kernels/unary.s */
static void unary(void)
{
	uint32_t NT = UARG(NT), fn = UARG(FN);
	struct power p = { 0 };
	if (fn == FN_LEAKY_RELU || fn == FN_POWER)
		p.param = UARG(PARAM);
	if (fn == FN_POWER) {
		p.p_int = UARG(P_INT), p.p_abs = UARG(P_ABS), p.p_neg = UARG(P_NEG);
		p.p_bigint = UARG(P_BIGINT), p.p_odd = UARG(P_ODD);
	}
	for (uint32_t T = 0; T < NT; T++) {
		in_math(0);
		out_begin();
		for (unsigned I = 0; I < 32; I++) {
			load_input(0);
			sfpu_fn(fn, &p);
			TT_SFPSTORE(0, LOAD_FP32, 1, out_row(T));
		}
		rwc_back();
		in_done();
		out_end();
	}
}

/* kernels/binary_sfpu.s: A kept in Dst32 rows ACC.. while B comes */
static void binary_sfpu(void)
{
	uint32_t NT = UARG(NT), eop = UARG(EOP);
	for (uint32_t T = 0; T < NT; T++) {
		in_math(0);
		for (unsigned I = 0; I < 32; I++) {
			load_input(0);
			TTI_SFPSTORE(0, LOAD_FP32, 1, ACC);
		}
		rwc_back();
		in_done();
		in_math(0);
		out_begin();
		for (unsigned I = 0; I < 32; I++) {
			TTI_SFPLOAD(0, LOAD_FP32, 0, ACC);
			load_input(1);
			if (eop == 0) {
				TTI_SFPADD(0, 10, 1, 0, 0);
			} else if (eop == 1) {
				TTI_SFPMOV(0, 1, 1, 1);
				TTI_SFPADD(0, 10, 1, 0, 0);
			} else {
				TTI_SFPMUL(0, 1, 9, 0, 0);
			}
			TTI_SFPNOP();
			TT_SFPSTORE(0, LOAD_FP32, 1, out_row(T));
		}
		rwc_back();
		in_done();
		out_end();
	}
}

/* a band's tiles combined element-wise (rop) into Dst32 rows ACC.. */
static void accumulate_band(uint32_t BT, uint32_t rop)
{
	for (uint32_t K = 0; K < BT; K++) {
		in_math(0);
		for (unsigned I = 0; I < 32; I++) {
			load_input(0);
			if (K > 0) {
				TTI_SFPLOAD(1, LOAD_FP32, 0, ACC);
				red_op(rop, 0, 1);
			}
			TTI_SFPSTORE(0, LOAD_FP32, 1, ACC);
		}
		rwc_back();
		in_done();
	}
}

/* kernels/reduce.s */
static void reduce(void)
{
	uint32_t NB = UARG(NB), BT = UARG(BT), dim = UARG(DIM);
	uint32_t rop = UARG(ROP);
	for (uint32_t T = 0; T < NB; T++) {
		accumulate_band(BT, rop);
		out_begin();
		uint32_t rsrc = ACC, rdst = out_row(T);
		if (dim == 0 || dim == 2) {
			red_rows(rop, rsrc, rdst);
			rsrc = rdst;
		}
		if (dim == 1 || dim == 2)
			red_cols(rop, rsrc, rdst);
		if (dim == 3) {   /* a part of a long band: the accumulator itself */
			for (unsigned I = 0; I < 32; I++) {
				TTI_SFPLOAD(0, LOAD_FP32, 0, ACC);
				TT_SFPSTORE(0, LOAD_FP32, 1, rdst);
			}
			rwc_back();
		}
		out_end();
	}
}

/* x - m into L0 (m at Dst32 rows `at`), then e^ of it (softmax) */
static void exp_minus(uint32_t at)
{
	load_input(0);
	TT_SFPLOAD(1, LOAD_FP32, 0, at);
	TTI_SFPMOV(0, 1, 1, 1);       /* -m */
	TTI_SFPADD(0, 10, 1, 0, 0);   /* x - m */
	TTI_SFPNOP();
	sfpu_exp();
}

/* kernels/softmax.s */
static void softmax(void)
{
	uint32_t NB = UARG(NB), BT = UARG(BT);
	for (uint32_t B = 0; B < NB; B++) {
		accumulate_band(BT, 1);   /* 1: the row maximum m */
		red_rows(1, ACC, MAXT);
		for (uint32_t K = 0; K < BT; K++) {   /* 2: 1 / sum of e^(x - m) */
			in_math(0);
			for (unsigned I = 0; I < 32; I++) {
				exp_minus(MAXT);
				if (K > 0) {
					TTI_SFPLOAD(1, LOAD_FP32, 0, ACC);
					TTI_SFPADD(0, 10, 1, 0, 0);
					TTI_SFPNOP();
				}
				TTI_SFPSTORE(0, LOAD_FP32, 1, ACC);
			}
			rwc_back();
			in_done();
		}
		red_rows(0, ACC, RCP);
		for (unsigned I = 0; I < 32; I++) {
			TTI_SFPLOAD(0, LOAD_FP32, 0, RCP);
			sfpu_recip();
			TTI_SFPSTORE(0, LOAD_FP32, 1, RCP);
		}
		rwc_back();
		for (uint32_t K = 0; K < BT; K++) {   /* 3: e^(x - m) / s */
			uint32_t T = B * BT + K;
			in_math(0);
			out_begin();
			for (unsigned I = 0; I < 32; I++) {
				exp_minus(MAXT);
				TTI_SFPLOAD(1, LOAD_FP32, 0, RCP);
				TTI_SFPMUL(0, 1, 9, 0, 0);
				TTI_SFPNOP();
				TT_SFPSTORE(0, LOAD_FP32, 1, out_row(T));
			}
			rwc_back();
			in_done();
			out_end();
		}
	}
}

/* an FP32 constant (bits) into LReg r */
static void load_fp32(unsigned r, uint32_t bits)
{
	TT_SFPLOADI(r, 8, bits >> 16);
	TT_SFPLOADI(r, 10, bits & 0xFFFF);
}

/* y = y op the next input tile, for 32 passes on the tile at Dst32 rows o
   (layer norm's gamma (mul) and beta (add)) */
static void affine_pass(uint32_t o, int add)
{
	in_math(0);
	for (unsigned I = 0; I < 32; I++) {
		TT_SFPLOAD(0, LOAD_FP32, 0, o);
		load_input(1);
		if (add)
			TTI_SFPADD(0, 10, 1, 0, 0);
		else
			TTI_SFPMUL(0, 1, 9, 0, 0);
		TTI_SFPNOP();
		TT_SFPSTORE(0, LOAD_FP32, 1, o);
	}
	rwc_back();
	in_done();
}

/* kernels/layernorm.s */
static void layernorm(void)
{
	uint32_t NB = UARG(NB), BT = UARG(BT), inv_n = UARG(INV_N);
	uint32_t padc = UARG(PADC), eps = UARG(EPS), affine = UARG(AFFINE);
	for (uint32_t B = 0; B < NB; B++) {
		for (uint32_t K = 0; K < BT; K++) {   /* 1: mean */
			in_math(0);
			for (unsigned I = 0; I < 32; I++) {
				load_input(0);
				if (K > 0) {
					TTI_SFPLOAD(1, LOAD_FP32, 0, ACC);
					TTI_SFPADD(0, 10, 1, 0, 0);
					TTI_SFPNOP();
				}
				TTI_SFPSTORE(0, LOAD_FP32, 1, ACC);
			}
			rwc_back();
			in_done();
		}
		red_rows(0, ACC, MEAN);
		load_fp32(2, inv_n);
		for (unsigned I = 0; I < 32; I++) {
			TTI_SFPLOAD(0, LOAD_FP32, 0, MEAN);
			TTI_SFPMUL(0, 2, 9, 0, 0);
			TTI_SFPNOP();
			TTI_SFPSTORE(0, LOAD_FP32, 1, MEAN);
		}
		rwc_back();
		for (uint32_t K = 0; K < BT; K++) {   /* 2: rstd */
			in_math(0);
			for (unsigned I = 0; I < 32; I++) {
				load_input(0);
				TTI_SFPLOAD(1, LOAD_FP32, 0, MEAN);
				TTI_SFPMOV(0, 1, 1, 1);
				TTI_SFPADD(0, 10, 1, 0, 0);   /* x - mean */
				TTI_SFPNOP();
				if (K > 0) {
					TTI_SFPLOAD(1, LOAD_FP32, 0, ACC);
					TTI_SFPMAD(0, 0, 1, 0, 0);   /* + (x - mean)^2 */
				} else {
					TTI_SFPMUL(0, 0, 9, 0, 0);
				}
				TTI_SFPNOP();
				TTI_SFPSTORE(0, LOAD_FP32, 1, ACC);
			}
			rwc_back();
			in_done();
		}
		red_rows(0, ACC, RSTD);
		for (unsigned I = 0; I < 32; I++) {
			TTI_SFPLOAD(0, LOAD_FP32, 0, RSTD);
			TTI_SFPLOAD(1, LOAD_FP32, 0, MEAN);
			load_fp32(2, inv_n);
			TTI_SFPMUL(0, 2, 9, 0, 0);    /* sum / N */
			load_fp32(2, padc ^ 0x80000000u);
			TTI_SFPMUL(1, 1, 9, 1, 0);    /* mean^2 */
			TTI_SFPNOP();
			TTI_SFPMAD(1, 2, 0, 0, 0);    /* - PADC mean^2 */
			load_fp32(2, eps);
			TTI_SFPNOP();
			TTI_SFPADD(0, 10, 2, 0, 0);   /* + EPS */
			TTI_SFPNOP();
			sfpu_rsqrt(0);
			TTI_SFPSTORE(0, LOAD_FP32, 1, RSTD);
		}
		rwc_back();
		for (uint32_t K = 0; K < BT; K++) {   /* 3: y */
			uint32_t o = out_row(B * BT + K);
			in_math(0);
			out_begin();
			for (unsigned I = 0; I < 32; I++) {
				load_input(0);
				TTI_SFPLOAD(1, LOAD_FP32, 0, MEAN);
				TTI_SFPMOV(0, 1, 1, 1);
				TTI_SFPADD(0, 10, 1, 0, 0);
				TTI_SFPLOAD(1, LOAD_FP32, 0, RSTD);
				TTI_SFPNOP();
				TTI_SFPMUL(0, 1, 9, 0, 0);
				TTI_SFPNOP();
				TT_SFPSTORE(0, LOAD_FP32, 1, o);
			}
			rwc_back();
			in_done();
			if (affine) {
				affine_pass(o, 0);   /* gamma */
				affine_pass(o, 1);   /* beta */
			}
			out_end();
		}
	}
}

/* kernels/transpose.s: the unpacker transposes the faces, the moves
   exchange faces 1 and 2; PLANES: an FP32 tile as two INT16 tiles */
static void transpose(void)
{
	uint32_t NT = UARG(NT), planes = UARG(PLANES);
	if (planes) {
		TTI_SETDMAREG(0, 1, 0, 34);   /* ALU_ACC_CTRL_Zero_Flag_disabled_src */
		TTI_SETDMAREG(0, 0, 0, 35);
		TTI_WRCFG(17, 0, 2);
		TTI_NOP();
	}
	for (uint32_t T = 0; T < NT; T++) {
		if (planes) {
			in_math(1);
			for (unsigned I = 0; I < 32; I++) {
				TTI_SFPLOAD(0, LOAD_HI16, 0, 0);   /* the high halves, in place */
				TTI_SFPSTORE(0, LOAD_FP32, 1, ACC);
			}
			rwc_back();
			in_done();
		}
		in_math(1);
		out_begin();
		for (unsigned I = 0; I < 32; I++) {
			if (planes) {
				TTI_SFPLOAD(0, LOAD_FP32, 0, ACC);
				TTI_SFPLOAD(0, LOAD_LO16_ONLY, 0, 0);   /* the low halves joined to them */
			} else {
				load_input(0);
			}
			TT_SFPSTORE(0, LOAD_FP32, 1, out_row(T));
		}
		rwc_back();
		in_done();
		out_end();
	}
}

/* ---- the Matrix Unit kernels (kernels/binary.s, matmul.s) ---- */

static void matrix_setup(void)
{
	uint32_t src_fmt = UARG(SRC_FMT);
	uint32_t alu = src_fmt << 17 | src_fmt << 21 | UARG(PACK_INTER) << 25 | 1u << 29;
	TTI_SEMINIT(2, 2, 0b0100);   /* 2: free slots */
	TTI_SEMINIT(2, 0, 0b1000);   /* 3: filled slots */
	TT_SETDMAREG(0, alu & 0xFFFF, 0, 32);
	TT_SETDMAREG(0, alu >> 16, 0, 33);
	TTI_WRCFG(16, 0, 1);         /* formats, ALU_ACC_CTRL_Fp32_enabled */
	TTI_NOP();
}

/* a free Dst slot for output tile T, its rows zeroed (zero: ELWMUL and
   MVMUL add to Dst) */
static void slot_begin(uint32_t T, int zero)
{
	uint32_t S = 1 + T % 2;
	TTI_SEMWAIT(B_SYNC | B_MATH, 0b0100, 1);
	TTI_SEMGET(0b0100);
	TTI_STALLWAIT(B_CFG, C_MATH);   /* the previous tile's instructions are done */
	TT_SETC16(1, 64 * S);           /* DEST_TARGET_REG_CFG_MATH_Offset */
	if (zero)
		for (uint32_t i = 0; i < 4; i++)
			TT_ZEROACC(0b101, 0, 4 * S + i);
	TTI_SETRWC(0, 0, 0, 0, 0, 0b1011);
}

static void slot_end(void)
{
	TTI_STALLWAIT(B_SYNC, C_MATH);
	TTI_SEMPOST(0b1000);
}

/* kernels/binary.s */
static void binary(void)
{
	uint32_t NT = UARG(NT), eop = UARG(EOP), bcast = UARG(BCAST);
	static const uint8_t steps[4][3] = { { 8, 8, 8 }, { 0, 16, 48 }, { 8, 56, 24 }, { 0, 0, 0 } };
	matrix_setup();
	TT_SETC16(7, 8 | steps[bcast & 3][0] << 8);
	TTI_SETC16(23, 0);
	TT_SETC16(9, 8 | steps[bcast & 3][1] << 8);
	TTI_SETC16(24, 0);
	TT_SETC16(11, 8 | steps[bcast & 3][2] << 8);
	TTI_SETC16(25, 0);
	TTI_SETC16(13, 0x8080);     /* clear SrcA, SrcB */
	TTI_SETC16(26, 1 << 13);    /* fidelity phase + 1 */
	uint32_t mods = bcast == 1 || bcast == 2 ? 0x0102010 : 0;
	uint32_t reps = eop == 2 ? UARG(PHASES) : 1;
	uint32_t brow = (bcast & 1) << 1 | bcast >> 1;
	TT_REPLAY(0, 8 * reps, 0, 1);
	for (uint32_t rep = 0; rep < reps; rep++)
		for (unsigned R = 0; R < 8; R++) {
			uint32_t M = R < 7 ? (mods >> (4 * (6 - R))) & 0xF : 3;
			if (eop == 0)
				TT_ELWADD(0, 0, brow, M, 8 * R);
			else if (eop == 1)
				TT_ELWSUB(0, 0, brow, M, 8 * R);
			else
				TT_ELWMUL(0, 0, brow, M, 8 * R);
		}
	for (uint32_t T = 0; T < NT; T++) {
		slot_begin(T, eop == 2);
		TT_REPLAY(0, 8 * reps, 0, 0);
		TTI_SETRWC(3, 0, 0, 0, 0, 0b1011);   /* both banks back; counters and fidelity 0 */
		slot_end();
	}
}

/* kernels/matmul.s */
static void matmul(void)
{
	uint32_t MT = UARG(MT), NT = UARG(NT), KT = UARG(KT);
	uint32_t phases = UARG(PHASES);
	matrix_setup();
	TTI_SETC16(7, 8 << 8);               /* ADDR_MOD 0 (X): SrcB += 8 */
	TTI_SETC16(23, 0);
	TTI_SETC16(9, 16 | (56 << 8));       /* ADDR_MOD 1 (Y): SrcA += 16, SrcB -= 8 */
	TTI_SETC16(24, 0);
	TTI_SETC16(11, 16 | (8 << 8));       /* ADDR_MOD 2 (Z): SrcA += 16, SrcB += 8 */
	TTI_SETC16(25, 0);
	TTI_SETC16(13, 0x8080);              /* ADDR_MOD 3 (W): clear SrcA, SrcB */
	TTI_SETC16(26, 1 << 13);             /*   FidelityIncr 1 */
	TTI_REPLAY(0, 16, 0, 1);             /* one fidelity phase of a tile pair */
	TTI_MVMUL(0, 0, 0, 0);
	TTI_MVMUL(0, 0, 1, 8);
	TTI_MVMUL(0, 0, 0, 16);
	TTI_MVMUL(0, 0, 2, 24);
	TTI_MVMUL(0, 0, 0, 0);
	TTI_MVMUL(0, 0, 1, 8);
	TTI_MVMUL(0, 0, 0, 16);
	TTI_MVMUL(0, 0, 2, 24);
	TTI_MVMUL(0, 0, 0, 32);
	TTI_MVMUL(0, 0, 1, 40);
	TTI_MVMUL(0, 0, 0, 48);
	TTI_MVMUL(0, 0, 2, 56);
	TTI_MVMUL(0, 0, 0, 32);
	TTI_MVMUL(0, 0, 1, 40);
	TTI_MVMUL(0, 0, 0, 48);
	TTI_MVMUL(0, 0, 3, 56);
	for (uint32_t T = 0; T < MT * NT; T++) {
		slot_begin(T, 1);
		for (uint32_t k = 0; k < KT; k++) {
			for (uint32_t f = 0; f < phases; f++)
				TTI_REPLAY(0, 16, 0, 0);
			TTI_SETRWC(3, 0, 0, 0, 0, 0b1011);   /* both banks back; counters 0 */
		}
		slot_end();
	}
}

int main(void)
{
	uint32_t kernel = kernel_id();
	if (kernel == KERNEL_MATMUL) {
		matmul();
		return 0;
	}
	if (kernel == KERNEL_BINARY) {
		binary();
		return 0;
	}
	load_mode = UARG(LOAD_MODE);
	to_dst = kernel == KERNEL_TRANSPOSE ? 0 : UARG(TO_DST);
	math_setup();
	switch (kernel) {
	case KERNEL_UNARY: unary(); break;
	case KERNEL_BINARY_SFPU: binary_sfpu(); break;
	case KERNEL_REDUCE: reduce(); break;
	case KERNEL_SOFTMAX: softmax(); break;
	case KERNEL_LAYERNORM: layernorm(); break;
	case KERNEL_TRANSPOSE: transpose(); break;
	default: kernel_fail("unknown kernel id", 0);
	}
	return 0;
}
