/* What the three programs of the tensor ops' kernels in C share
 * (ops_unpack.c on RISCV T0, ops_math.c on T1, ops_pack.c on T2): the
 * names of kernels/common.s and the arguments the host wrote at
 * TTX_KARGS_ADDR (ttx_kargs.h).  Each program pushes exactly the words its
 * thread of the assembler kernel (kernels/<name>.s) has, so the results are
 * the same bits (tests/test_ops_riscv.sh). */
#ifndef TTX_OPS_KERNEL_H
#define TTX_OPS_KERNEL_H

#include "ttx_rv.h"
#include "ttx_kargs.h"

/* L1 / register format codes (TC/Unpackers/FormatConversion.md) */
enum { FMT_FP32 = 0, FMT_TF32 = 4, FMT_BF16 = 5 };
/* SFPLOAD / SFPSTORE formats (TC/SFPLOAD.md Mod0) */
enum { LOAD_FP16 = 1, LOAD_BF16 = 2, LOAD_FP32 = 3, LOAD_HI16 = 7, LOAD_LO16_ONLY = 14 };
/* STALLWAIT block bits (B) and conditions (C) (TC/STALLWAIT.md) */
enum {
	B_SYNC = 0x002, B_PACK = 0x004, B_UNPACK = 0x008, B_MATH = 0x040, B_CFG = 0x080, B_SFPU = 0x100,
	C_UNPACK0 = 0x0002, C_UNPACK1 = 0x0004, C_PACK0 = 0x0008, C_MATH = 0x0080, C_SRCA_FREE = 0x0100,
	C_SRCB_FREE = 0x0200, C_SFPU = 0x4000,
};
/* SFPU functions (app/ops.c numbers them the same) */
enum {
	FN_COPY, FN_EXP, FN_LOG, FN_RECIP, FN_SQRT, FN_RSQRT, FN_SIGMOID, FN_TANH, FN_GELU, FN_GELU_TANH,
	FN_SILU, FN_RELU, FN_LEAKY_RELU, FN_ABS, FN_SQUARE, FN_POWER, FN_NEG,
};
/* Dst32 rows of the SFPU kernels (kernels/math_setup.s) */
enum { OUT_ROW = 256, SCRATCH = 384 };

#define KARGS ((volatile struct ttx_kargs *)(uintptr_t)TTX_KARGS_ADDR)

/* Stop with a message for the host (the op fails with it). */
static void __attribute__((noreturn, noinline)) kernel_fail(const char *what, const char *name)
{
	volatile char *e = KARGS->error;
	unsigned n = 0;
	while (*what && n < sizeof(KARGS->error) - 1)
		e[n++] = *what++;
	while (name && *name && n < sizeof(KARGS->error) - 1)
		e[n++] = *name++;
	e[n] = 0;
	for (;;)
		__asm__ volatile("ebreak");
}

static const char *const karg_names[] = {
#define KARG_NAME(name) #name,
	TTX_KARGS_SYMBOLS(KARG_NAME)
#undef KARG_NAME
};

/* The argument i (ARG(NAME)); a kernel run without it is a host bug: stop. */
static int32_t __attribute__((noinline)) arg(enum ttx_karg i)
{
	if (KARGS->magic != TTX_KARGS_MAGIC)
		kernel_fail("no kernel arguments at TTX_KARGS_ADDR", 0);
	if (!(KARGS->given[i / 32] >> (i % 32) & 1))
		kernel_fail("missing kernel argument ", karg_names[i]);
	return KARGS->value[i];
}
#define ARG(name) arg(KARG_##name)
#define UARG(name) ((uint32_t)arg(KARG_##name))

static uint32_t kernel_id(void)
{
	return KARGS->kernel;
}

#endif
