/* The arguments of the tensor ops' kernels for the RISC-V cores (ttx op
 * --kernels riscv, docs/riscv.md "The ops' kernels in C"): the host writes
 * this block into L1 at TTX_KARGS_ADDR before it releases RISCV T0-T2, the
 * kernels read it.  The values are those the assembler kernels
 * (kernels/<name>.s) get as symbols of the same names, by index, as LLK's
 * runtime arguments are.  Shared by the host (app/ops.c) and the kernels
 * (kernels/riscv/ops_*.c). */
#ifndef TTX_KARGS_H
#define TTX_KARGS_H

#include <stdint.h>

#define TTX_KARGS_ADDR   0x5000u       /* below the TRISCs' code; the grid's data movers keep clear (ttx_grid.h) */
#define TTX_KARGS_MAGIC  0x5454584Bu   /* "TTXK" */

/* every symbol app/ops.c gives a kernel */
#define TTX_KARGS_SYMBOLS(X) \
	X(NT) X(MT) X(KT) X(NB) X(BT) X(IN_FMT) X(IN_ADDR) X(IN_TILE) X(TO_DST) X(LOAD_MODE) X(SRCA_FMT) \
	X(SRC_FMT) X(OUT_FMT) X(OUT_ADDR) X(OUT_TILE) X(PACK_INTER) X(PACK_IN) X(PACK_EXP) X(FN) X(PARAM) \
	X(P_INT) X(P_ABS) X(P_NEG) X(P_BIGINT) X(P_ODD) X(EOP) X(BCAST) X(PHASES) X(A_ADDR) X(A_TILE) \
	X(B_ADDR) X(B_TILE) X(C_ADDR) X(C_TILE) X(L1_ACC) X(DIM) X(ROP) X(PLANES) X(INV_N) X(PADC) X(EPS) \
	X(AFFINE) X(G_ADDR) X(BETA_ADDR)
#define TTX_KARG_INDEX(name) KARG_##name,
enum ttx_karg { TTX_KARGS_SYMBOLS(TTX_KARG_INDEX) KARG_COUNT };
#undef TTX_KARG_INDEX

/* the kernels of kernels/ the C programs run */
enum ttx_kernel_id { KERNEL_UNARY, KERNEL_BINARY, KERNEL_BINARY_SFPU, KERNEL_MATMUL, KERNEL_REDUCE,
                     KERNEL_SOFTMAX, KERNEL_LAYERNORM, KERNEL_TRANSPOSE, KERNEL_COUNT };
#define TTX_KERNEL_FILES { "unary.s", "binary.s", "binary_sfpu.s", "matmul.s", "reduce.s", "softmax.s", \
                           "layernorm.s", "transpose.s" }

struct ttx_kargs {
	uint32_t magic;
	uint32_t kernel;                   /* enum ttx_kernel_id */
	uint32_t given[(KARG_COUNT + 31) / 32];   /* bit i: value[i] was given */
	int32_t value[KARG_COUNT];         /* FP32 bits, addresses, counts, codes */
	/* set by a kernel that cannot go on (then it halts): what is wrong,
	   NUL-terminated, for the host's message */
	char error[64];
};

#endif
