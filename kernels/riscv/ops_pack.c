/* Thread 2 (pack) of the tensor ops' kernels, on RISCV T2: the words of
 * `.thread 2` of kernels/<name>.s, pushed from C (ops_kernel.h). */
#include "ops_kernel.h"

/* Packer 0 for a tile of Dst32 rows (FP32) to L1 as the output format:
   kernels/pack_setup.s (PACK_ROW 64). */
static void pack_setup(void)
{
	uint32_t out_fmt = UARG(OUT_FMT), pack_in = UARG(PACK_IN);
	uint32_t pack_exp = UARG(PACK_EXP);
	TTI_SETDMAREG(0, 0, 0, 68);
	TT_SETDMAREG(0, pack_exp, 0, 69);
	TT_SETDMAREG(0, 1 | (out_fmt << 4) | (pack_in << 8), 0, 70);
	TTI_SETDMAREG(0, 0, 0, 71);
	TTI_SETDMAREG(0, 1, 0, 72);
	TTI_SETDMAREG(0, 0, 0, 73);
	TTI_SETDMAREG(0, 16 << 8, 0, 74);
	TTI_SETDMAREG(0, 0, 0, 75);
	TTI_SETDMAREG(0, 0xFFFF, 0, 76);
	TTI_SETDMAREG(0, 0, 0, 77);
	TTI_SETDMAREG(0, 64, 0, 78);
	TTI_SETDMAREG(0, 0, 0, 79);
	TTI_WRCFG(34, 0, 56);
	TTI_WRCFG(35, 0, 58);
	TTI_WRCFG(36, 0, 14);
	TTI_WRCFG(37, 0, 24);
	TTI_WRCFG(38, 0, 20);
	TTI_WRCFG(39, 0, 152);
	TTI_NOP();
	TTI_SETADCXX(4, 1023, 0);
}

/* The T-th output tile of the SFPU kernels, from Dst32 rows OUT_ROW +
   64 (T % 2), to L1 at oaddr: kernels/out_pack.s. */
static void out_pack(uint32_t T, uint32_t oaddr)
{
	TTI_SEMWAIT(B_SYNC | B_PACK, 0b1000, 1);
	TTI_SEMGET(0b1000);
	TT_SETDMAREG(0, (oaddr / 16 - 1) & 0xFFFF, 0, 80);
	TT_SETDMAREG(0, (oaddr / 16 - 1) >> 16, 0, 81);
	TT_SETDMAREG(0, OUT_ROW + 64 * (T % 2), 0, 82);
	TTI_SETDMAREG(0, 0, 0, 83);
	TTI_WRCFG(40, 0, 57);
	TTI_WRCFG(41, 0, 152);
	TTI_NOP();
	TTI_PACR(0, 0, 1, 0, 0, 0, 1);
	TTI_STALLWAIT(B_SYNC, C_PACK0);
	TTI_SEMPOST(0b0100);
}

/* The Matrix Unit kernels' output tiles (binary.s, matmul.s): from the two
   Dst slots (rows 64 and 128, GPRs 42 and 43) to L1 at addr + T tile. */
static void pack_slots(uint32_t n, uint32_t addr, uint32_t tile)
{
	TTI_SETDMAREG(0, 64, 0, 84);
	TTI_SETDMAREG(0, 0, 0, 85);
	TTI_SETDMAREG(0, 128, 0, 86);
	TTI_SETDMAREG(0, 0, 0, 87);
	for (uint32_t T = 0; T < n; T++) {
		uint32_t caddr = addr + T * tile;
		TTI_SEMWAIT(B_SYNC | B_PACK, 0b1000, 1);
		TTI_SEMGET(0b1000);
		TT_SETDMAREG(0, (caddr / 16 - 1) & 0xFFFF, 0, 82);
		TT_SETDMAREG(0, (caddr / 16 - 1) >> 16, 0, 83);
		TTI_WRCFG(41, 0, 57);
		if (T % 2)
			TTI_WRCFG(43, 0, 152);
		else
			TTI_WRCFG(42, 0, 152);
		TTI_NOP();
		TTI_PACR(0, 0, 1, 0, 0, 0, 1);
		TTI_STALLWAIT(B_SYNC, C_PACK0);
		TTI_SEMPOST(0b0100);
	}
}

int main(void)
{
	pack_setup();
	switch (kernel_id()) {
	case KERNEL_MATMUL:
		if (ARG(L1_ACC)) {   /* the packer adds to what is in L1 (the inner dimension split) */
			TTI_SETDMAREG(0, 0, 0, 80);
			TTI_SETDMAREG(0, 1 << 5, 0, 81);
			TTI_WRCFG(40, 0, 59);
			TTI_NOP();
		}
		pack_slots(UARG(MT) * UARG(NT), UARG(C_ADDR), UARG(C_TILE));
		break;
	case KERNEL_BINARY:
		pack_slots(UARG(NT), UARG(OUT_ADDR), UARG(OUT_TILE));
		break;
	case KERNEL_UNARY: case KERNEL_BINARY_SFPU: case KERNEL_TRANSPOSE: case KERNEL_REDUCE: case KERNEL_SOFTMAX:
	case KERNEL_LAYERNORM: {
		uint32_t kernel = kernel_id(), out_addr = UARG(OUT_ADDR), out_tile = UARG(OUT_TILE);
		uint32_t n = kernel == KERNEL_REDUCE ? UARG(NB)
		             : kernel == KERNEL_SOFTMAX || kernel == KERNEL_LAYERNORM ? UARG(NB) * UARG(BT) : UARG(NT);
		for (uint32_t T = 0; T < n; T++)
			out_pack(T, out_addr + T * out_tile);
		break;
	}
	default:
		kernel_fail("unknown kernel id", 0);
	}
	return 0;
}
