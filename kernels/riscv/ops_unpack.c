/* Thread 0 (unpack) of the tensor ops' kernels, on RISCV T0: the words of
 * `.thread 0` of kernels/<name>.s, pushed from C (ops_kernel.h). */
#include "ops_kernel.h"

/* Unpacker U for whole uncompressed 32 x 32 tiles of L1 format fmt into
   SrcA / SrcB as register format out (halo: each face transposed), or
   (U = 0, to_dst) straight into Dst: kernels/unpack_setup.s. */
static void unpack_setup(unsigned U, uint32_t fmt, uint32_t out, uint32_t to_dst, uint32_t halo)
{
	unsigned UG = 16 + 12 * U, USEC = 52 + 40 * U;
	uint32_t UD0 = fmt | 0x10 | (1024u << 16);
	TT_SETDMAREG(0, UD0 & 0xFFFF, 0, 2 * UG);
	TT_SETDMAREG(0, UD0 >> 16, 0, 2 * UG + 1);
	TT_SETDMAREG(0, 1, 0, 2 * UG + 2);
	TT_SETDMAREG(0, 1, 0, 2 * UG + 3);
	TT_SETDMAREG(0, out | (halo << 8), 0, 2 * UG + 4);
	TT_SETDMAREG(0, 0, 0, 2 * UG + 5);
	TT_SETDMAREG(0, 1 | (to_dst << 4), 0, 2 * UG + 6);
	TT_SETDMAREG(0, 0, 0, 2 * UG + 7);
	TT_SETDMAREG(0, 64, 0, 2 * UG + 8);
	TT_SETDMAREG(0, 0, 0, 2 * UG + 9);
	TT_SETDMAREG(0, 1024, 0, 2 * UG + 10);
	TT_SETDMAREG(0, 0, 0, 2 * UG + 11);
	TT_WRCFG(UG, 0, USEC);
	TT_WRCFG(UG + 1, 0, USEC + 1);
	TT_WRCFG(UG + 2, 0, USEC + 8);
	TT_WRCFG(UG + 3, 0, USEC + 9);
	if (U == 0) {
		TTI_WRCFG(16 + 4, 0, 72);
		TTI_WRCFG(16 + 5, 0, 74);
	}
	TTI_NOP();
}

/* Point unpacker U at the tile at L1 address taddr: kernels/unpack_tile.s. */
static void unpack_tile(unsigned U, uint32_t taddr)
{
	TT_STALLWAIT(B_CFG, C_UNPACK0 << U);
	TT_SETDMAREG(0, (taddr / 16 - 1) & 0xFFFF, 0, 2 * (16 + 12 * U + 6));
	TT_SETDMAREG(0, (taddr / 16 - 1) >> 16, 0, 2 * (16 + 12 * U + 6) + 1);
	TT_WRCFG(16 + 12 * U + 6, 0, 52 + 40 * U + 12);
	TTI_NOP();
}

/* The input stream of the SFPU kernels: kernels/in_setup.s and in_unpack.s. */
static uint32_t to_dst;

static void in_setup(uint32_t in_fmt, uint32_t halo)
{
	if (!to_dst)
		TTI_SETC16(3, 4);
	unpack_setup(0, in_fmt, in_fmt, to_dst, halo);
	TTI_SETADCXX(1, 1023, 0);
}

static void in_unpack(uint32_t taddr)
{
	unpack_tile(0, taddr);
	if (to_dst) {
		TTI_SEMWAIT(B_SYNC | B_UNPACK, 0b0001, 1);
		TTI_SEMGET(0b0001);
		TTI_UNPACR(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1);
		TTI_STALLWAIT(B_SYNC, C_UNPACK0);
		TTI_SEMPOST(0b0010);
	} else {
		TTI_STALLWAIT(B_UNPACK, C_SRCA_FREE);
		TTI_UNPACR(0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1);
	}
}

/* Both unpackers for the Matrix Unit (binary.s, matmul.s). */
static void two_unpackers_setup(void)
{
	uint32_t in_fmt = UARG(IN_FMT), src_fmt = UARG(SRC_FMT);
	TTI_SETC16(3, 4);
	unpack_setup(0, in_fmt, src_fmt, 0, 0);
	unpack_setup(1, in_fmt, src_fmt, 0, 0);
	TTI_SETADCXX(3, 1023, 0);
}

static void unpack_pair(uint32_t srca_tile, uint32_t srcb_tile)
{
	unpack_tile(0, srca_tile);
	unpack_tile(1, srcb_tile);
	TTI_STALLWAIT(B_UNPACK, C_SRCA_FREE | C_SRCB_FREE);
	TTI_UNPACR(0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1);
	TTI_UNPACR(1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1);
}

/* kernels/matmul.s: for each output tile (i, j) and each k, B (k, j) into
   SrcA and A (i, k) into SrcB */
static void matmul(void)
{
	uint32_t MT = UARG(MT), NT = UARG(NT), KT = UARG(KT);
	uint32_t A_ADDR = UARG(A_ADDR), A_TILE = UARG(A_TILE), B_ADDR = UARG(B_ADDR), B_TILE = UARG(B_TILE);
	two_unpackers_setup();
	for (uint32_t I = 0; I < MT; I++)
		for (uint32_t J = 0; J < NT; J++)
			for (uint32_t K = 0; K < KT; K++)
				unpack_pair(B_ADDR + (J * KT + K) * B_TILE, A_ADDR + (I * KT + K) * A_TILE);
}

/* kernels/binary.s: tile pairs A, B as the host interleaved them */
static void binary(void)
{
	uint32_t NT = UARG(NT), in_addr = UARG(IN_ADDR), in_tile = UARG(IN_TILE);
	two_unpackers_setup();
	for (uint32_t T = 0; T < NT; T++)
		unpack_pair(in_addr + 2 * T * in_tile, in_addr + (2 * T + 1) * in_tile);
}

/* The SFPU kernels: one stream of n tiles (softmax and layer norm: their
   bands several times over, layer norm with gamma and beta after each
   tile of its last pass) */
static void sfpu_stream(uint32_t kernel)
{
	uint32_t in_addr = UARG(IN_ADDR), in_tile = UARG(IN_TILE);
	to_dst = kernel == KERNEL_TRANSPOSE ? 0 : UARG(TO_DST);
	in_setup(UARG(IN_FMT), kernel == KERNEL_TRANSPOSE);
	if (kernel != KERNEL_SOFTMAX && kernel != KERNEL_LAYERNORM) {
		uint32_t n = kernel == KERNEL_BINARY_SFPU ? 2 * UARG(NT)
		             : kernel == KERNEL_REDUCE ? UARG(NB) * UARG(BT)
		             : kernel == KERNEL_TRANSPOSE ? UARG(NT) * (1 + UARG(PLANES)) : UARG(NT);
		for (uint32_t T = 0; T < n; T++)
			in_unpack(in_addr + T * in_tile);
		return;
	}
	uint32_t NB = UARG(NB), BT = UARG(BT);
	int softmax = kernel == KERNEL_SOFTMAX;
	uint32_t affine = softmax ? 0 : UARG(AFFINE);
	uint32_t g_addr = affine ? UARG(G_ADDR) : 0, beta_addr = affine ? UARG(BETA_ADDR) : 0;
	for (uint32_t B = 0; B < NB; B++) {
		for (unsigned pass = 0; pass < (softmax ? 3u : 2u); pass++)
			for (uint32_t K = 0; K < BT; K++)
				in_unpack(in_addr + (B * BT + K) * in_tile);
		for (uint32_t K = 0; !softmax && K < BT; K++) {
			in_unpack(in_addr + (B * BT + K) * in_tile);
			if (affine) {
				in_unpack(g_addr + K * in_tile);
				in_unpack(beta_addr + K * in_tile);
			}
		}
	}
}

int main(void)
{
	switch (kernel_id()) {
	case KERNEL_MATMUL:
		matmul();
		break;
	case KERNEL_BINARY:
		binary();
		break;
	case KERNEL_UNARY: case KERNEL_BINARY_SFPU: case KERNEL_REDUCE: case KERNEL_SOFTMAX: case KERNEL_LAYERNORM:
	case KERNEL_TRANSPOSE:
		sfpu_stream(kernel_id());
		break;
	default:
		kernel_fail("unknown kernel id", 0);
	}
	return 0;
}
