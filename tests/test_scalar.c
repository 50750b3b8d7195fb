/* Scalar Unit (ThCon) instructions (interp/scalar.c): hand-derived
 * expectations at edge values.  Words are assembled from tt-llk operand order
 * (src/isa.def):
 *   SETDMAREG    Payload_SigSelSize, Payload_SigSel, SetSignalsMode, RegIndex16b
 *   *DMAREG      OpBisConst, [OpSel,] ResultRegIndex, OpBRegIndex, OpARegIndex
 *   LOADIND      SizeSel, OffsetIndex, AutoIncSpec, DataRegIndex, AddrRegIndex
 *   STOREIND     MemHierSel, SizeSel, RegSizeSel, OffsetIndex, AutoIncSpec, DataRegIndex, AddrRegIndex
 *   LOADREG / STOREREG  TdmaDataRegIndex, RegAddr
 *   ATINCGET     MemHierSel, WrapVal, Sel32b, DataRegIndex, AddrRegIndex
 *   ATINCGETPTR  MemHierSel, NoIncr, IncrVal, WrapVal, Sel32b, DataRegIndex, AddrRegIndex
 *   ATSWAP       MemHierSel, SwapMask, DataRegIndex, AddrRegIndex
 *   ATCAS        MemHierSel, SwapVal, CmpVal, Sel32b, DataRegIndex, AddrRegIndex
 *   REG2FLOP     SizeSel, TargetSel, ByteOffset, ContextId_2, FlopIndex, RegIndex
 *   FLUSHDMA     FlushSpec */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "util.h"

static uint32_t enc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Assemble one line (printf-style). */
static uint32_t enc(const char *fmt, ...)
{
	char text[256], err[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	uint32_t w = 0;
	ck_assert_msg(ttx_asm_line(text, &w, err, sizeof(err)) == TTX_OK, "%s: %s", text, err);
	return w;
}

static void push(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	ck_assert_int_eq(ttx_push(t, thread, word), TTX_OK);
}

/* Run one word on thread 0; it must retire. */
static void run1(struct ttx_tile *t, uint32_t word)
{
	push(t, 0, word);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
}

/* Run one word on thread 0; it must fault with an error containing what. */
static void run_fault(struct ttx_tile *t, uint32_t word, const char *what)
{
	push(t, 0, word);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tile_error(t), what) != NULL, "error \"%s\" lacks \"%s\"",
	              ttx_tile_error(t), what);
}

static int blocked(struct ttx_tile *t, unsigned thread)
{
	struct ttx_thread_state s;
	ttx_thread_state(t, thread, &s);
	return s.pending && s.blocked;
}

static int pending(struct ttx_tile *t, unsigned thread)
{
	struct ttx_thread_state s;
	ttx_thread_state(t, thread, &s);
	return s.pending;
}

static uint32_t l1_32(struct ttx_tile *t, uint32_t addr)
{
	uint32_t v;
	ck_assert_int_eq(ttx_l1_read(t, addr, &v, 4), TTX_OK);
	return v;
}

static void l1_set(struct ttx_tile *t, uint32_t addr, uint32_t v)
{
	ck_assert_int_eq(ttx_l1_write(t, addr, &v, 4), TTX_OK);
}

static uint8_t l1_8(struct ttx_tile *t, uint32_t addr)
{
	uint8_t v;
	ck_assert_int_eq(ttx_l1_read(t, addr, &v, 1), TTX_OK);
	return v;
}

#define G(t, i) ((t)->gpr[0][i])

/* SETDMAREG immediate mode by hand: TC/SETDMAREG_Immediate.md writes
   TT_SETDMAREG(0, NewValue, 0, ResultHalfReg) with a 16-bit NewValue at bits
   23:8, wider than tt-llk's 14-bit Payload_SigSel operand that the assembler
   enforces. */
static uint32_t setdmareg_imm(uint32_t value, uint32_t half)
{
	return 0x45000000u | value << 8 | half;
}

/* ---- SETDMAREG ---- */

START_TEST(test_setdmareg_immediate_halves)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 5) = 0xAAAABBBB;
	/* Half-register 10 = low half of GPR 5; 11 = high half. */
	run1(t, setdmareg_imm(0x1234, 10));
	ck_assert_uint_eq(G(t, 5), 0xAAAA1234);
	run1(t, setdmareg_imm(0xFFFF, 11));
	ck_assert_uint_eq(G(t, 5), 0xFFFF1234);
	/* Half-register 127 = high half of GPR 63; 0 = low half of GPR 0. */
	run1(t, setdmareg_imm(0x8001, 127));
	ck_assert_uint_eq(G(t, 63), 0x80010000);
	run1(t, setdmareg_imm(0x0000, 0));
	ck_assert_uint_eq(G(t, 0), 0);
	ck_assert_uint_eq(G(t, 4), 0);
	ck_assert_uint_eq(G(t, 6), 0);
	/* Other threads' GPRs are separate. */
	push(t, 2, setdmareg_imm(0xBEEF, 10));
	ck_assert_int_eq(ttx_run(t, 0), TTX_OK);
	ck_assert_uint_eq(t->gpr[2][5], 0x0000BEEF);
	ck_assert_uint_eq(G(t, 5), 0xFFFF1234);
	ttx_tile_destroy(t);
}
END_TEST

/* Payload_SigSel = WhichPackers << 7 | InputSource << 3 | InputHalfReg. */
START_TEST(test_setdmareg_special_zero_sources)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	for (unsigned i = 8; i < 16; i++)
		G(t, i) = 0xFFFFFFFF;
	/* ResultSize 2, InputSource 10 (no value: zeros), ResultHalfReg 19:
	   GPRs (19 >> 1) & 0x3C = 8..11 = 0; GPR 12 untouched. */
	run1(t, enc("SETDMAREG 2, %u, 1, 19", 10u << 3));
	for (unsigned i = 8; i < 12; i++)
		ck_assert_uint_eq(G(t, i), 0);
	ck_assert_uint_eq(G(t, 12), 0xFFFFFFFF);
	/* ResultSize 3, InputSource 15, ResultHalfReg 24 (GPRs 12..15): the tile
	   header's reserved bits stay: word 0 keeps 31:16, word 1 keeps 15:0 and
	   31:24, word 2 (AllZeroFlags) = 0, word 3 kept. */
	run1(t, enc("SETDMAREG 3, %u, 1, 24", 15u << 3 | 0xFu << 7));
	ck_assert_uint_eq(G(t, 12), 0xFFFF0000);
	ck_assert_uint_eq(G(t, 13), 0xFF00FFFF);
	ck_assert_uint_eq(G(t, 14), 0);
	ck_assert_uint_eq(G(t, 15), 0xFFFFFFFF);
	/* ResultSize 0: one half (half-register 31 = high of GPR 15). */
	run1(t, enc("SETDMAREG 0, %u, 1, 31", 12u << 3 | 7u));
	ck_assert_uint_eq(G(t, 15), 0x0000FFFF);
	/* ResultSize 1: the whole GPR 29 >> 1 = 14. */
	G(t, 14) = 0x12345678;
	run1(t, enc("SETDMAREG 1, %u, 1, 29", 11u << 3 | 1u));
	ck_assert_uint_eq(G(t, 14), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* InputSource 2: packer 0's tile header (TC/SETDMAREG_Special.md): TileSize
   = LastTileSize + 1 (1 on reset), DataFormat = Out_data_format,
   DisableZeroCompression; 128 bits into GPRs 4-7. */
START_TEST(test_setdmareg_special_packer_sources)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	ck_assert_int_eq(ttx_cfg_field_write(t, "THCON_SEC0_REG1_Out_data_format", 0, 5), TTX_OK);
	ck_assert_int_eq(ttx_cfg_field_write(t, "THCON_SEC0_REG1_Disable_zero_compress", 0, 1), TTX_OK);
	G(t, 7) = 0xFFFFFFFF;
	run1(t, 0x45u << 24 | 2u << 22 | 2u << 11 | 1u << 7 | 8);
	ck_assert_uint_eq(G(t, 4), 1);
	ck_assert_uint_eq(G(t, 5), 5u << 16 | 1u << 20);
	ck_assert_uint_eq(G(t, 6), 0);
	ck_assert_uint_eq(G(t, 7), 0);                   /* ResultSize 2 writes all 128 bits */
	/* ResultSize 3 keeps the reserved fields: word 3 and word 0's high half */
	G(t, 4) = 0xABCD0000, G(t, 7) = 0x12345678;
	run1(t, 0x45u << 24 | 3u << 22 | 2u << 11 | 1u << 7 | 8);
	ck_assert_uint_eq(G(t, 4), 0xABCD0001);
	ck_assert_uint_eq(G(t, 7), 0x12345678);
	/* InputSource 9: packer 0's largest exponent so far (0 on reset) */
	G(t, 9) = 7;
	run1(t, 0x45u << 24 | 1u << 22 | 9u << 11 | 1u << 7 | 18);
	ck_assert_uint_eq(G(t, 9), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- ADDDMAREG, SUBDMAREG, MULDMAREG ---- */

START_TEST(test_adddmareg_wrap)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 0xFFFFFFFF + 2 = 2^32 + 1 -> 1. */
	G(t, 1) = 0xFFFFFFFF, G(t, 2) = 2;
	run1(t, enc("ADDDMAREG 0, 3, 2, 1"));
	ck_assert_uint_eq(G(t, 3), 1);
	/* Result may be an operand: GPR1 = 0xFFFFFFFF + 0xFFFFFFFF = 0x1FFFFFFFE -> 0xFFFFFFFE. */
	run1(t, enc("ADDDMAREG 0, 1, 1, 1"));
	ck_assert_uint_eq(G(t, 1), 0xFFFFFFFE);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_adddmareg_immediate)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Unsigned 6-bit immediate: 0xFFFFFFC0 + 63 = 0xFFFFFFFF; + 1 wraps to 0. */
	G(t, 1) = 0xFFFFFFC0;
	G(t, 63) = 0x1000;   /* the RightImm field is not a register number */
	run1(t, enc("ADDDMAREG 1, 4, 63, 1"));
	ck_assert_uint_eq(G(t, 4), 0xFFFFFFFF);
	run1(t, enc("ADDDMAREG 1, 5, 1, 4"));
	ck_assert_uint_eq(G(t, 5), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_subdmareg_wrap)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 0 - 1 = 0xFFFFFFFF; 0x80000000 - 0xFFFFFFFF = 0x80000001 (mod 2^32). */
	G(t, 1) = 0, G(t, 2) = 1, G(t, 3) = 0x80000000, G(t, 4) = 0xFFFFFFFF;
	run1(t, enc("SUBDMAREG 0, 10, 2, 1"));
	ck_assert_uint_eq(G(t, 10), 0xFFFFFFFF);
	run1(t, enc("SUBDMAREG 0, 11, 4, 3"));
	ck_assert_uint_eq(G(t, 11), 0x80000001);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_subdmareg_immediate)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 5 - 63 = -58 = 2^32 - 0x3A = 0xFFFFFFC6; 63 - 63 = 0. */
	G(t, 1) = 5, G(t, 2) = 63;
	run1(t, enc("SUBDMAREG 1, 10, 63, 1"));
	ck_assert_uint_eq(G(t, 10), 0xFFFFFFC6);
	run1(t, enc("SUBDMAREG 1, 11, 63, 2"));
	ck_assert_uint_eq(G(t, 11), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_muldmareg_16x16)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 0xFFFF * 0xFFFF = 0xFFFE0001, the full 32-bit product. */
	G(t, 1) = 0xFFFF, G(t, 2) = 0xFFFF;
	run1(t, enc("MULDMAREG 0, 3, 2, 1"));
	ck_assert_uint_eq(G(t, 3), 0xFFFE0001);
	/* Only the low 16 bits of each operand count: 0x1234FFFF * 0xABCDFFFF
	   -> 0xFFFF * 0xFFFF; 0x00010000 * anything -> 0 * x = 0. */
	G(t, 4) = 0x1234FFFF, G(t, 5) = 0xABCDFFFF, G(t, 6) = 0x00010000;
	run1(t, enc("MULDMAREG 0, 7, 5, 4"));
	ck_assert_uint_eq(G(t, 7), 0xFFFE0001);
	run1(t, enc("MULDMAREG 0, 8, 5, 6"));
	ck_assert_uint_eq(G(t, 8), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_muldmareg_immediate)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 0xFFFF * 63 = 0x3F0000 - 0x3F = 0x3EFFC1; high bits of the GPR ignored. */
	G(t, 1) = 0xFFFFFFFF;
	run1(t, enc("MULDMAREG 1, 2, 63, 1"));
	ck_assert_uint_eq(G(t, 2), 0x3EFFC1);
	run1(t, enc("MULDMAREG 1, 3, 0, 1"));
	ck_assert_uint_eq(G(t, 3), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- BITWOPDMAREG ---- */

START_TEST(test_bitwopdmareg_modes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0xF0F0F0F0, G(t, 2) = 0xFF00FF00;
	run1(t, enc("BITWOPDMAREG 0, 0, 3, 2, 1"));
	ck_assert_uint_eq(G(t, 3), 0xF000F000);
	run1(t, enc("BITWOPDMAREG 0, 1, 4, 2, 1"));
	ck_assert_uint_eq(G(t, 4), 0xFFF0FFF0);
	run1(t, enc("BITWOPDMAREG 0, 2, 5, 2, 1"));
	ck_assert_uint_eq(G(t, 5), 0x0FF00FF0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_bitwopdmareg_immediate)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 0xF0F0F0F0 op 0x3F: and 0x30, or 0xF0F0F0FF, xor 0xF0F0F0CF. */
	G(t, 1) = 0xF0F0F0F0;
	run1(t, enc("BITWOPDMAREG 1, 0, 3, 63, 1"));
	ck_assert_uint_eq(G(t, 3), 0x30);
	run1(t, enc("BITWOPDMAREG 1, 1, 4, 63, 1"));
	ck_assert_uint_eq(G(t, 4), 0xF0F0F0FF);
	run1(t, enc("BITWOPDMAREG 1, 2, 5, 63, 1"));
	ck_assert_uint_eq(G(t, 5), 0xF0F0F0CF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_bitwopdmareg_undefined_mode_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 3) = 0x5A5A5A5A;
	run_fault(t, enc("BITWOPDMAREG 0, 3, 3, 2, 1"), "BITWOPDMAREG Mode=3 is undefined");
	ck_assert_uint_eq(G(t, 3), 0x5A5A5A5A);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- SHIFTDMAREG ---- */

START_TEST(test_shiftdmareg_counts)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x80000001;
	G(t, 10) = 0, G(t, 11) = 31, G(t, 12) = 32, G(t, 13) = 33, G(t, 14) = 0xFFFFFFE1;
	/* By 0: unchanged. */
	run1(t, enc("SHIFTDMAREG 0, 0, 2, 10, 1"));
	ck_assert_uint_eq(G(t, 2), 0x80000001);
	/* Left 31: only bit 0 survives, at bit 31. Right 31 (logical): 1. */
	run1(t, enc("SHIFTDMAREG 0, 0, 3, 11, 1"));
	ck_assert_uint_eq(G(t, 3), 0x80000000);
	run1(t, enc("SHIFTDMAREG 0, 1, 4, 11, 1"));
	ck_assert_uint_eq(G(t, 4), 1);
	/* A register count uses its low 5 bits: 32 -> 0, 33 -> 1,
	   0xFFFFFFE1 -> 1. */
	run1(t, enc("SHIFTDMAREG 0, 0, 5, 12, 1"));
	ck_assert_uint_eq(G(t, 5), 0x80000001);
	run1(t, enc("SHIFTDMAREG 0, 0, 6, 13, 1"));
	ck_assert_uint_eq(G(t, 6), 0x00000002);
	run1(t, enc("SHIFTDMAREG 0, 1, 7, 14, 1"));
	ck_assert_uint_eq(G(t, 7), 0x40000000);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_shiftdmareg_immediate)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0xC0000003;
	/* Imm5 31 right: 0xC0000003 >> 31 = 1; left 1: 0x80000006; by 0: same. */
	run1(t, enc("SHIFTDMAREG 1, 1, 2, 31, 1"));
	ck_assert_uint_eq(G(t, 2), 1);
	run1(t, enc("SHIFTDMAREG 1, 0, 3, 1, 1"));
	ck_assert_uint_eq(G(t, 3), 0x80000006);
	run1(t, enc("SHIFTDMAREG 1, 0, 4, 0, 1"));
	ck_assert_uint_eq(G(t, 4), 0xC0000003);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_shiftdmareg_undefined_mode_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run_fault(t, enc("SHIFTDMAREG 0, 2, 3, 2, 1"), "SHIFTDMAREG Mode=2 is undefined");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- CMPDMAREG ---- */

START_TEST(test_cmpdmareg_unsigned)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Unsigned: 0x80000000 > 1 (signed it would be less). */
	G(t, 1) = 0x80000000, G(t, 2) = 1;
	for (unsigned i = 10; i < 16; i++)
		G(t, i) = 0xFFFFFFFF;   /* results are written as 1 or 0, whole GPR */
	run1(t, enc("CMPDMAREG 0, 0, 10, 2, 1"));   /* GT */
	run1(t, enc("CMPDMAREG 0, 1, 11, 2, 1"));   /* LT */
	run1(t, enc("CMPDMAREG 0, 2, 12, 2, 1"));   /* EQ */
	run1(t, enc("CMPDMAREG 0, 2, 13, 1, 1"));   /* EQ, same register */
	run1(t, enc("CMPDMAREG 0, 0, 14, 1, 1"));   /* GT of equal values */
	run1(t, enc("CMPDMAREG 0, 1, 15, 1, 2"));   /* 1 < 0x80000000 */
	ck_assert_uint_eq(G(t, 10), 1);
	ck_assert_uint_eq(G(t, 11), 0);
	ck_assert_uint_eq(G(t, 12), 0);
	ck_assert_uint_eq(G(t, 13), 1);
	ck_assert_uint_eq(G(t, 14), 0);
	ck_assert_uint_eq(G(t, 15), 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cmpdmareg_immediate)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 63, G(t, 2) = 0xFFFFFFFF;
	run1(t, enc("CMPDMAREG 1, 2, 10, 63, 1"));   /* 63 == 63 */
	run1(t, enc("CMPDMAREG 1, 0, 11, 62, 1"));   /* 63 > 62 */
	run1(t, enc("CMPDMAREG 1, 1, 12, 63, 1"));   /* 63 < 63: no */
	run1(t, enc("CMPDMAREG 1, 0, 13, 63, 2"));   /* 0xFFFFFFFF > 63 unsigned */
	ck_assert_uint_eq(G(t, 10), 1);
	ck_assert_uint_eq(G(t, 11), 1);
	ck_assert_uint_eq(G(t, 12), 0);
	ck_assert_uint_eq(G(t, 13), 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_cmpdmareg_undefined_mode_faults)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run_fault(t, enc("CMPDMAREG 1, 7, 10, 63, 1"), "CMPDMAREG Mode=7 is undefined");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- DMANOP, FLUSHDMA, RSTDMA ---- */

START_TEST(test_dmanop_no_effect)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 7) = 0x12345678;
	uint32_t before[TTX_THREADS][TTX_GPRS];
	memcpy(before, t->gpr, sizeof(before));
	run1(t, enc("DMANOP"));
	ck_assert_int_eq(memcmp(before, t->gpr, sizeof(before)), 0);
	ck_assert_uint_eq(l1_32(t, 0), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_flushdma_never_waits)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* A load is complete when it retires: after FLUSHDMA (C0) the GPR holds
	   it, and FLUSHDMA with mask 0 (= all four conditions) does not wait. */
	l1_set(t, 0x100, 0xCAFEF00D);
	G(t, 1) = 0x10;
	push(t, 0, enc("LOADIND 1, 0, 0, 2, 1"));
	push(t, 0, enc("FLUSHDMA 1"));
	push(t, 0, enc("FLUSHDMA 0"));
	push(t, 0, enc("FLUSHDMA 15"));
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(G(t, 2), 0xCAFEF00D);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_rstdma_undocumented)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run_fault(t, enc("RSTDMA"), "undocumented instruction RSTDMA");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- LOADIND ---- */

/* L1 0x1000..0x100F = 00 11 22 ... FF. */
static void fill_pattern(struct ttx_tile *t, uint32_t addr)
{
	uint8_t b[16];
	for (unsigned i = 0; i < 16; i++)
		b[i] = (uint8_t)(0x11 * i);
	ck_assert_int_eq(ttx_l1_write(t, addr, b, 16), TTX_OK);
}

START_TEST(test_loadind_sizes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	fill_pattern(t, 0x1000);
	G(t, 1) = 0x100;                      /* 0x100 * 16 = 0x1000 */
	G(t, 2) = 0xABCD0007;                 /* half-register 4 (low of GPR 2) = 7 */
	G(t, 8) = G(t, 9) = G(t, 10) = 0xDEADBEEF;
	/* Size 3: byte 0x1007 = 0x77 into the low 8 bits. */
	run1(t, enc("LOADIND 3, 4, 0, 8, 1"));
	ck_assert_uint_eq(G(t, 8), 0xDEADBE77);
	/* Size 2: 0x1007 & ~1 = 0x1006: bytes 66 77 -> 0x7766 in the low half. */
	run1(t, enc("LOADIND 2, 4, 0, 9, 1"));
	ck_assert_uint_eq(G(t, 9), 0xDEAD7766);
	/* Size 1: 0x1007 & ~3 = 0x1004: 44 55 66 77 -> 0x77665544. */
	run1(t, enc("LOADIND 1, 4, 0, 10, 1"));
	ck_assert_uint_eq(G(t, 10), 0x77665544);
	/* Size 0: 0x1007 & ~15 = 0x1000 into GPRs 13 & 0x3C = 12..15. */
	run1(t, enc("LOADIND 0, 4, 0, 13, 1"));
	ck_assert_uint_eq(G(t, 12), 0x33221100);
	ck_assert_uint_eq(G(t, 13), 0x77665544);
	ck_assert_uint_eq(G(t, 14), 0xBBAA9988);
	ck_assert_uint_eq(G(t, 15), 0xFFEEDDCC);
	ck_assert_uint_eq(G(t, 2), 0xABCD0007);   /* OffsetIncrement 0 */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_loadind_autoincrement)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	fill_pattern(t, 0x1000);
	G(t, 1) = 0x100;
	/* The offset in half-register 5 (high of GPR 2); low half untouched. */
	G(t, 2) = 0x00011234;
	/* OffsetIncrement 1: +2.  Byte 0x1001 = 0x11, offset 1 -> 3. */
	run1(t, enc("LOADIND 3, 5, 1, 8, 1"));
	ck_assert_uint_eq(G(t, 8) & 0xFF, 0x11);
	ck_assert_uint_eq(G(t, 2), 0x00031234);
	/* OffsetIncrement 2: +4.  Byte 0x1003 = 0x33, offset 3 -> 7. */
	run1(t, enc("LOADIND 3, 5, 2, 8, 1"));
	ck_assert_uint_eq(G(t, 8) & 0xFF, 0x33);
	ck_assert_uint_eq(G(t, 2), 0x00071234);
	/* OffsetIncrement 3: +16.  Byte 0x1007 = 0x77, offset 7 -> 0x17. */
	run1(t, enc("LOADIND 3, 5, 3, 8, 1"));
	ck_assert_uint_eq(G(t, 8) & 0xFF, 0x77);
	ck_assert_uint_eq(G(t, 2), 0x00171234);
	/* The 16-bit offset wraps: 0xFFFE + 16 = 0x1000E -> 0x000E, GPR 2's low half
	   unchanged.  Address 0 * 16 + 0xFFFE. */
	G(t, 3) = 0;
	G(t, 2) = 0xFFFE1234;
	l1_set(t, 0xFFFC, 0xA5000000);
	run1(t, enc("LOADIND 3, 5, 3, 8, 3"));
	ck_assert_uint_eq(G(t, 8) & 0xFF, 0x00);   /* byte 0xFFFE of 00 00 00 A5 */
	ck_assert_uint_eq(G(t, 2), 0x000E1234);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_loadind_result_holds_offset)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* The offset is incremented before the load result arrives, so a result
	   GPR holding the offset ends with the loaded value. */
	l1_set(t, 0x2004, 0x89ABCDEF);
	G(t, 1) = 0x200;
	G(t, 2) = 0x00000004;
	run1(t, enc("LOADIND 1, 4, 3, 2, 1"));
	ck_assert_uint_eq(G(t, 2), 0x89ABCDEF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_loadind_l1_bounds)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Last byte of L1: 0x16DFF * 16 + 0xF = 0x16DFFF is fine. */
	l1_set(t, 0x16DFFC, 0x5A000000);
	G(t, 1) = 0x16DFF, G(t, 2) = 0xF;
	run1(t, enc("LOADIND 3, 4, 0, 8, 1"));
	ck_assert_uint_eq(G(t, 8), 0x5A);
	/* 0x16DFF * 16 + 0x10 = 0x16E000 = 1464 KiB: undefined, faults. */
	G(t, 2) = 0x10;
	run_fault(t, enc("LOADIND 1, 4, 0, 8, 1"), "LOADIND");
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "L1 address 0x0016E000 is outside L1"));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_loadind_address_wraps)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* GPR * 16 is uint32 arithmetic: 0x10000010 * 16 = 0x100000100 -> 0x100. */
	l1_set(t, 0x100, 0x600DF00D);
	G(t, 1) = 0x10000010;
	run1(t, enc("LOADIND 1, 4, 0, 8, 1"));
	ck_assert_uint_eq(G(t, 8), 0x600DF00D);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- STOREIND ---- */

START_TEST(test_storeind_l1_sizes)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x200;                 /* 0x2000 */
	G(t, 8) = 0x44332211, G(t, 9) = 0x88776655, G(t, 10) = 0xCCBBAA99, G(t, 11) = 0x00FFEEDD;
	/* Size 3 (MemHierSel 1, SizeSel 1, RegSizeSel 1): byte 0x11 at 0x2003. */
	G(t, 2) = 3;
	run1(t, enc("STOREIND 1, 1, 1, 4, 0, 8, 1"));
	ck_assert_uint_eq(l1_32(t, 0x2000), 0x11000000);
	ck_assert_uint_eq(l1_32(t, 0x2004), 0);
	/* Size 2: 0x2005 & ~1 = 0x2004 gets 11 22. */
	G(t, 2) = 5;
	run1(t, enc("STOREIND 1, 1, 0, 4, 0, 8, 1"));
	ck_assert_uint_eq(l1_32(t, 0x2004), 0x00002211);
	/* Size 1: 0x200A & ~3 = 0x2008. */
	G(t, 2) = 0xA;
	run1(t, enc("STOREIND 1, 0, 1, 4, 0, 8, 1"));
	ck_assert_uint_eq(l1_32(t, 0x2008), 0x44332211);
	ck_assert_uint_eq(l1_32(t, 0x200C), 0);
	/* Size 0: GPRs 9 & 0x3C = 8..11 to 0x201F & ~15 = 0x2010. */
	G(t, 2) = 0x1F;
	run1(t, enc("STOREIND 1, 0, 0, 4, 0, 9, 1"));
	ck_assert_uint_eq(l1_32(t, 0x2010), 0x44332211);
	ck_assert_uint_eq(l1_32(t, 0x2014), 0x88776655);
	ck_assert_uint_eq(l1_32(t, 0x2018), 0xCCBBAA99);
	ck_assert_uint_eq(l1_32(t, 0x201C), 0x00FFEEDD);
	ck_assert_uint_eq(l1_32(t, 0x2020), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_l1_autoincrement)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x300;                 /* 0x3000 */
	G(t, 2) = 0x0000FFFF;            /* offset in half-register 5 (high of GPR 2) = 0 */
	G(t, 8) = 0xA1, G(t, 9) = 0xB2;
	/* +4 each time: bytes at 0x3000 and 0x3004. */
	run1(t, enc("STOREIND 1, 1, 1, 5, 2, 8, 1"));
	run1(t, enc("STOREIND 1, 1, 1, 5, 2, 9, 1"));
	ck_assert_uint_eq(l1_8(t, 0x3000), 0xA1);
	ck_assert_uint_eq(l1_8(t, 0x3004), 0xB2);
	ck_assert_uint_eq(G(t, 2), 0x0008FFFF);
	/* +16 with a 32-bit store at 8 -> offset 0x18. */
	run1(t, enc("STOREIND 1, 0, 1, 5, 3, 9, 1"));
	ck_assert_uint_eq(l1_32(t, 0x3008), 0xB2);
	ck_assert_uint_eq(G(t, 2), 0x0018FFFF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_l1_offset_in_data_reg)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* STOREIND_L1.md increments the offset before reading the data GPR:
	   data GPR 2 holds the offset 4 -> address 0x2004, value 4 + 2 = 6. */
	G(t, 1) = 0x200, G(t, 2) = 4;
	run1(t, enc("STOREIND 1, 0, 1, 4, 1, 2, 1"));
	ck_assert_uint_eq(l1_32(t, 0x2004), 6);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_l1_bounds)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x16E00, G(t, 8) = 0xFFFFFFFF;
	run_fault(t, enc("STOREIND 1, 0, 0, 4, 0, 8, 1"), "STOREIND");
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "L1 address 0x0016E000 is outside L1"));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_mmio_window)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Addr = 0xFFB00000 + ((GPR1 + (offset >> 4)) & 0xFFFFC).
	   GPR1 = 0x10FF0, offset 0x0105 >> 4 = 0x10: 0x11000 -> 0xFFB11000, the
	   TDMA-RISC mover's source parameter (TT/TDMA-RISC.md). */
	G(t, 1) = 0x10FF0, G(t, 2) = 0x0105, G(t, 8) = 0x1234;
	run1(t, enc("STOREIND 0, 1, 0, 4, 1, 8, 1"));
	ck_assert_uint_eq(t->mover_params[0], 0x1234);
	/* 0x13000: the PIC's registers, not modelled */
	ttx_tile_reset(t);
	G(t, 1) = 0x12FF0, G(t, 2) = 0x0105;
	run_fault(t, enc("STOREIND 0, 1, 0, 4, 1, 8, 1"), "MMIO store at 0xFFB13000: not modelled");
	ck_assert_uint_eq(G(t, 2), 0x0105);        /* no increment on a fault */
	/* 0x10FFF & 0xFFFFC = 0x10FFC: below 0xFFB11000, undefined. */
	ttx_tile_reset(t);
	G(t, 1) = 0x10FFF;
	run_fault(t, enc("STOREIND 0, 1, 0, 4, 0, 8, 1"), "0xFFB10FFC is below 0xFFB11000: undefined");
	/* 0x80000: the MOP expander configuration is RISC-V-only. */
	ttx_tile_reset(t);
	G(t, 1) = 0x80000;
	run_fault(t, enc("STOREIND 0, 1, 0, 4, 0, 8, 1"), "not mapped for the Tensix coprocessor");
	ck_assert_uint_eq(t->mop[0].cfg[0], 0);
	ttx_tile_destroy(t);
}
END_TEST

/* BF16 data for the Src tests.  GPR 8 = 0xBFC18123:
     low half 0x8123 -> Sign 0x8000 << 3 | Man 0x0100 << 3 | Exp 0x23 = 0x40823;
     high half: Sign 1 << 18 | Man 0x41 << 11 | Exp 0x7F = 0x6087F.
   GPR 9 = 0x00007F00: low -> 0x7F00 << 3 = 0x3F800; high -> 0. */
static void src_data(struct ttx_tile *t)
{
	G(t, 8) = 0xBFC18123, G(t, 9) = 0x00007F00;
}

static void check_src_row(const uint32_t *row, unsigned col0)
{
	ck_assert_uint_eq(row[col0 + 0], 0x40823);
	ck_assert_uint_eq(row[col0 + 1], 0x6087F);
	ck_assert_uint_eq(row[col0 + 2], 0x3F800);
	ck_assert_uint_eq(row[col0 + 3], 0);
}

START_TEST(test_storeind_srcb)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	src_data(t);
	for (unsigned c = 0; c < 16; c++)
		t->srcb[0].rows[1][c] = 0x7FFFF;
	/* Addr = GPR1 6 + (offset 0x10 >> 4) = 7: row 7 >> 2 = 1, columns
	   (7 & 3) * 4 = 12..15.  DataReg 10 & 0x3C = 8. */
	G(t, 1) = 6, G(t, 2) = 0x10;
	run1(t, enc("STOREIND 0, 0, 1, 4, 3, 10, 1"));
	check_src_row(t->srcb[0].rows[1], 12);
	ck_assert_uint_eq(t->srcb[0].rows[1][11], 0x7FFFF);
	ck_assert_uint_eq(G(t, 2), 0x20);
	/* Unpackers[1].SrcBank = 1, SrcRow[0] = 32: row 1 + 32 = 33 of bank 1. */
	t->unpacker_src_bank[1] = 1;
	t->unpacker_src_row[1][0] = 32;
	G(t, 2) = 0;
	G(t, 1) = 4;
	run1(t, enc("STOREIND 0, 0, 1, 4, 0, 8, 1"));
	check_src_row(t->srcb[1].rows[33], 0);
	/* Row 64 >> 2 = 16: undefined. */
	G(t, 1) = 64;
	run_fault(t, enc("STOREIND 0, 0, 1, 4, 0, 8, 1"), "SrcB row 16");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_srca_row_offset)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	src_data(t);
	/* SrcA rows are (Addr >> 2) - 4: Addr 18 -> row 0, columns 8..11. */
	G(t, 1) = 18;
	run1(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"));
	check_src_row(t->srca[0].rows[0], 8);
	/* Addr 15 -> row -1: nothing written, the offset still increments. */
	G(t, 1) = 15, G(t, 2) = 0;
	uint32_t before[2][64][TTX_COLS];
	memcpy(before[0], t->srca[0].rows, sizeof(before[0]));
	memcpy(before[1], t->srca[1].rows, sizeof(before[1]));
	run1(t, enc("STOREIND 0, 0, 0, 4, 1, 8, 1"));
	ck_assert_int_eq(memcmp(before[0], t->srca[0].rows, sizeof(before[0])), 0);
	ck_assert_int_eq(memcmp(before[1], t->srca[1].rows, sizeof(before[1])), 0);
	ck_assert_uint_eq(G(t, 2), 2);
	/* Unpackers[0].SrcRow[0] = 48: Addr 4 * (4 + 15) = 76 -> row 15 + 48 = 63. */
	t->unpacker_src_row[0][0] = 48;
	G(t, 1) = 76, G(t, 2) = 0;
	run1(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"));
	check_src_row(t->srca[0].rows[63], 0);
	/* Row 16 without SetOvrdWithAddr: undefined. */
	G(t, 1) = 80;
	run_fault(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"), "SrcA row 16");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_srca_override)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	src_data(t);
	ck_assert_int_eq(ttx_cfg_field_write(t, "SRCA_SET_SetOvrdWithAddr", 0, 1), TTX_OK);
	t->unpacker_src_row[0][0] = 16;     /* not added with the override */
	/* Addr 4 * (4 + 40) + 1 = 177 -> row 40, columns 4..7. */
	G(t, 1) = 177;
	run1(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"));
	check_src_row(t->srca[0].rows[40], 4);
	ck_assert_uint_eq(t->srca[0].rows[56][4], 0);
	/* Row 64 (Addr 272): undefined even with the override. */
	G(t, 1) = 272;
	run_fault(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"), "SrcA row 64");
	/* Addr 0x10000 (bits 19:16 set): undefined; 0xFFFFF + 1 wraps to 0 in
	   20 bits (row -4: nothing written, no fault). */
	ttx_tile_reset(t);
	G(t, 1) = 0x10000;
	run_fault(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"), "Src address 0x10000");
	ttx_tile_reset(t);
	G(t, 1) = 0xFFFFF, G(t, 2) = 0x10;
	run1(t, enc("STOREIND 0, 0, 0, 4, 0, 8, 1"));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_storeind_src_waits_for_unpackers)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	src_data(t);
	t->srca[0].allowed_client = TTX_SRC_MATRIX_UNIT;
	G(t, 1) = 16, G(t, 2) = 0;
	push(t, 0, enc("STOREIND 0, 0, 0, 4, 2, 8, 1"));
	/* Meanwhile thread 1's Scalar Unit instruction cannot enter the unit. */
	push(t, 1, setdmareg_imm(0x4242, 0));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	ck_assert(blocked(t, 1));
	ck_assert_uint_eq(t->srca[0].rows[0][0], 0);
	ck_assert_uint_eq(G(t, 2), 0);
	ck_assert_uint_eq(t->gpr[1][0], 0);
	t->srca[0].allowed_client = TTX_SRC_UNPACKERS;
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	check_src_row(t->srca[0].rows[0], 0);
	ck_assert_uint_eq(G(t, 2), 4);
	ck_assert_uint_eq(t->gpr[1][0], 0x4242);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- LOADREG, STOREREG ---- */

START_TEST(test_storereg_window)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 3) = 0x12345678;
	/* 0xFFB00000 + 0 * 4: below 0xFFB11000, undefined. */
	run_fault(t, enc("STOREREG 3, 0"), "0xFFB00000 is below 0xFFB11000: undefined behaviour (TC/STOREREG.md)");
	/* 0x4400 * 4 = 0x11000: TDMA-RISC, the mover's source parameter. */
	ttx_tile_reset(t);
	G(t, 3) = 0x12345678;
	run1(t, enc("STOREREG 3, 0x4400"));
	ck_assert_uint_eq(t->mover_params[0], 0x12345678);
	/* 0x4C00 * 4 = 0x13000: the PIC's registers, not modelled. */
	run_fault(t, enc("STOREREG 3, 0x4C00"), "MMIO store at 0xFFB13000: not modelled");
	/* 0x3FFFF * 4 = 0xFFFFC: the top of the window, 0xFFBFFFFC. */
	ttx_tile_reset(t);
	run_fault(t, enc("STOREREG 3, 0x3FFFF"), "0xFFBFFFFC");
	/* 0x20000 * 4 = 0x80000: MOP configuration, RISC-V only (semaphores,
	   GPRs and Config lie outside the window). */
	ttx_tile_reset(t);
	G(t, 3) = 0x12345678;
	run_fault(t, enc("STOREREG 3, 0x20000"), "not mapped for the Tensix coprocessor");
	ck_assert_uint_eq(t->mop[0].cfg[0], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_loadreg_window)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 4) = 0xAAAAAAAA;
	run_fault(t, enc("LOADREG 4, 0x43FF"), "0xFFB10FFC is below 0xFFB11000: undefined behaviour (TC/LOADREG.md)");
	ck_assert_uint_eq(G(t, 4), 0xAAAAAAAA);
	ttx_tile_reset(t);
	G(t, 4) = 0xAAAAAAAA;
	run_fault(t, enc("LOADREG 4, 0x4C00"), "MMIO load at 0xFFB13000: not modelled");
	ck_assert_uint_eq(G(t, 4), 0xAAAAAAAA);
	ttx_tile_reset(t);
	run_fault(t, enc("LOADREG 4, 0x20001"), "0xFFB80004");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- ATINCGET ---- */

START_TEST(test_atincget_field_widths)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x300;   /* 0x3000 */
	/* IntWidth 7: 8-bit field at 0x3000 + 2 * 4.  0x123456FF + 1 = 0x12345700,
	   & 0xFF = 0x00, other bits kept: 0x12345600.  GPR gets the old word. */
	l1_set(t, 0x3008, 0x123456FF);
	G(t, 5) = 1;
	run1(t, enc("ATINCGET 0, 7, 2, 5, 1"));
	ck_assert_uint_eq(l1_32(t, 0x3008), 0x12345600);
	ck_assert_uint_eq(G(t, 5), 0x123456FF);
	/* IntWidth 31: the whole word; 0xFFFFFFFF + 2 -> 1. */
	l1_set(t, 0x300C, 0xFFFFFFFF);
	G(t, 6) = 2;
	run1(t, enc("ATINCGET 0, 31, 3, 6, 1"));
	ck_assert_uint_eq(l1_32(t, 0x300C), 1);
	ck_assert_uint_eq(G(t, 6), 0xFFFFFFFF);
	/* IntWidth 0: one bit.  0xFFFFFFFE + 1 -> bit 0 = 1: 0xFFFFFFFF; + 1 again
	   -> bit 0 = 0 (the carry is dropped): 0xFFFFFFFE. */
	l1_set(t, 0x3000, 0xFFFFFFFE);
	G(t, 7) = 1, G(t, 9) = 1;
	run1(t, enc("ATINCGET 0, 0, 0, 7, 1"));
	ck_assert_uint_eq(l1_32(t, 0x3000), 0xFFFFFFFF);
	run1(t, enc("ATINCGET 0, 0, 0, 9, 1"));
	ck_assert_uint_eq(l1_32(t, 0x3000), 0xFFFFFFFE);
	ck_assert_uint_eq(G(t, 9), 0xFFFFFFFF);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atincget_wrap_within_field)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* IntWidth 3 (4 bits): 0xABCDEF0C + 0x15 = 0xABCDEF21, low 4 bits 0x1,
	   high 28 of the original: 0xABCDEF01. */
	G(t, 1) = 0x400;
	l1_set(t, 0x4004, 0xABCDEF0C);
	G(t, 2) = 0x15;
	run1(t, enc("ATINCGET 0, 3, 1, 2, 1"));
	ck_assert_uint_eq(l1_32(t, 0x4004), 0xABCDEF01);
	ck_assert_uint_eq(G(t, 2), 0xABCDEF0C);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atincget_l1_bounds)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 0x16DFF * 16 + 3 * 4 = 0x16DFFC: the last word. */
	G(t, 1) = 0x16DFF, G(t, 2) = 5;
	run1(t, enc("ATINCGET 0, 31, 3, 2, 1"));
	ck_assert_uint_eq(l1_32(t, 0x16DFFC), 5);
	G(t, 1) = 0x16E00;
	run_fault(t, enc("ATINCGET 0, 31, 0, 2, 1"), "ATINCGET");
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "L1 address 0x0016E000 is outside L1"));
	ttx_tile_destroy(t);
}
END_TEST

/* ---- ATINCGETPTR ---- */

#define FIFO 0x5000u

static void fifo_set(struct ttx_tile *t, uint32_t rd, uint32_t wr)
{
	l1_set(t, FIFO, rd);
	l1_set(t, FIFO + 4, wr);
}

START_TEST(test_atincgetptr_push_until_full)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = FIFO / 16;
	/* IntWidth 3: capacity 2^(3-1) = 4.  Four pushes of 1 (Ofs 1). */
	for (unsigned i = 0; i < 4; i++) {
		run1(t, enc("ATINCGETPTR 0, 0, 0, 3, 1, 2, 1"));
		ck_assert_uint_eq(G(t, 2), i);               /* Wr before */
	}
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 4);
	/* Size 4 % 4 == 0 and not empty: full, the fifth push waits. */
	G(t, 2) = 0xDEAD;
	push(t, 0, enc("ATINCGETPTR 0, 0, 0, 3, 1, 2, 1"));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 4);
	ck_assert_uint_eq(G(t, 2), 0xDEAD);
	/* A RISC-V core pops one (Rd = 1): size 3, the push completes. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, FIFO, 1), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 5);
	ck_assert_uint_eq(G(t, 2), 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atincgetptr_counter_wrap)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = FIFO / 16;
	/* 3-bit counters (IntWidth 3): Wr 7 + 1 -> 0 within the field. */
	fifo_set(t, 6, 7);
	run1(t, enc("ATINCGETPTR 0, 0, 0, 3, 1, 2, 1"));
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 0);
	ck_assert_uint_eq(G(t, 2), 7);
	/* Rd 5, Wr 1: Size = 1 - 5 = 0xFFFFFFFC, % 4 = 0, not empty: full. */
	fifo_set(t, 5, 1);
	push(t, 0, enc("ATINCGETPTR 0, 0, 0, 3, 1, 2, 1"));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	/* Pop (Rd 5 -> 6) from the host: Size 0xFFFFFFFB % 4 = 3: push Wr 1 -> 2. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, FIFO, 6), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 2);
	ck_assert_uint_eq(G(t, 2), 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atincgetptr_pop_when_empty)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = FIFO / 16;
	fifo_set(t, 14, 14);
	/* Pop (Ofs 0) of 2^2 = 4 with 4-bit counters: empty, waits. */
	push(t, 0, enc("ATINCGETPTR 0, 0, 2, 4, 0, 3, 1"));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	/* ttx_run reports the stuck thread as a deadlock. */
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "ATINCGETPTR"));
	/* Wr = 3: not empty; Rd = (14 + 4) & 0xF = 2, old Rd 14 returned. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, FIFO + 4, 3), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(l1_32(t, FIFO), 2);
	ck_assert_uint_eq(G(t, 3), 14);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atincgetptr_noincr_and_width0)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = FIFO / 16;
	/* NoIncr: only the test; Wr stays, its value is returned. */
	fifo_set(t, 0, 2);
	run1(t, enc("ATINCGETPTR 0, 1, 3, 3, 1, 2, 1"));
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 2);
	ck_assert_uint_eq(G(t, 2), 2);
	/* IntWidth 0: capacity 0x8000 and mask 0, so the word never changes. */
	fifo_set(t, 0, 0x10);
	run1(t, enc("ATINCGETPTR 0, 0, 0, 0, 1, 2, 1"));
	ck_assert_uint_eq(l1_32(t, FIFO + 4), 0x10);
	ck_assert_uint_eq(G(t, 2), 0x10);
	/* Size 0x8000 with IntWidth 0: full. */
	fifo_set(t, 0, 0x8000);
	push(t, 0, enc("ATINCGETPTR 0, 0, 0, 0, 1, 2, 1"));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atincgetptr_l1_bounds)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x16E00;
	run_fault(t, enc("ATINCGETPTR 0, 0, 0, 3, 1, 2, 1"), "L1 address 0x0016E000 is outside L1");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- ATSWAP ---- */

START_TEST(test_atswap_mask)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint8_t ee[16];
	memset(ee, 0xEE, sizeof(ee));
	ck_assert_int_eq(ttx_l1_write(t, 0x6000, ee, 16), TTX_OK);
	G(t, 1) = 0x600;
	/* Granule i (16 bits) of GPRs 8..11: 0x0000, 0x1111, ..., 0x7777. */
	G(t, 8) = 0x11110000, G(t, 9) = 0x33332222, G(t, 10) = 0x55554444, G(t, 11) = 0x77776666;
	/* Mask 0xA5: granules 0, 2, 5, 7.  DataReg 10 & 0x3C = 8. */
	run1(t, enc("ATSWAP 0, 0xA5, 10, 1"));
	ck_assert_uint_eq(l1_32(t, 0x6000), 0xEEEE0000);
	ck_assert_uint_eq(l1_32(t, 0x6004), 0xEEEE2222);
	ck_assert_uint_eq(l1_32(t, 0x6008), 0x5555EEEE);
	ck_assert_uint_eq(l1_32(t, 0x600C), 0x7777EEEE);
	ck_assert_uint_eq(G(t, 10), 0x55554444);   /* nothing is swapped back */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atswap_single_data_reg)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	uint8_t ee[16];
	memset(ee, 0xEE, sizeof(ee));
	ck_assert_int_eq(ttx_l1_write(t, 0x6000, ee, 16), TTX_OK);
	G(t, 1) = 0x600;
	G(t, 10) = 0x55554444;
	/* SingleDataReg (bit 22 = SwapMask bit 8): GPR 10 at bytes (10 & 3) * 4 = 8..11,
	   zeros elsewhere.  Mask 0x30 writes granules 4 and 5 only. */
	run1(t, enc("ATSWAP 0, 0x130, 10, 1"));
	ck_assert_uint_eq(l1_32(t, 0x6000), 0xEEEEEEEE);
	ck_assert_uint_eq(l1_32(t, 0x6008), 0x55554444);
	ck_assert_uint_eq(l1_32(t, 0x600C), 0xEEEEEEEE);
	/* Mask 0xFF: the zeros are written too. */
	run1(t, enc("ATSWAP 0, 0x1FF, 10, 1"));
	ck_assert_uint_eq(l1_32(t, 0x6000), 0);
	ck_assert_uint_eq(l1_32(t, 0x6004), 0);
	ck_assert_uint_eq(l1_32(t, 0x6008), 0x55554444);
	ck_assert_uint_eq(l1_32(t, 0x600C), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atswap_l1_bounds)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0xFFFFFFFF;   /* * 16 = 0xFFFFFFF0 */
	run_fault(t, enc("ATSWAP 0, 0xFF, 8, 1"), "L1 address 0xFFFFFFF0 is outside L1");
	ttx_tile_destroy(t);
}
END_TEST

/* ---- ATCAS ---- */

START_TEST(test_atcas_immediate_success)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Word at 0x700 * 16 + 1 * 4 = 0x7004 equals CmpVal 3: becomes SetVal 9. */
	G(t, 1) = 0x700;
	l1_set(t, 0x7004, 3);
	run1(t, enc("ATCAS 0, 9, 3, 1, 0, 1"));
	ck_assert_uint_eq(l1_32(t, 0x7004), 9);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atcas_blocks_until_mmio_write)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* The whole word is compared: 0x10000003 != 3, so it spins. */
	G(t, 1) = 0x700;
	l1_set(t, 0x700C, 0x10000003);
	push(t, 0, enc("ATCAS 0, 15, 3, 3, 0, 1"));
	push(t, 0, setdmareg_imm(0x0001, 40));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	ck_assert_uint_eq(l1_32(t, 0x700C), 0x10000003);
	ck_assert_uint_eq(G(t, 20), 0);          /* the next instruction waits too */
	/* Still spinning after another round. */
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	/* A RISC-V store makes the word 3: the whole word becomes 15. */
	ck_assert_int_eq(ttx_mmio_write(t, 1, 0x700C, 3), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(l1_32(t, 0x700C), 15);
	ck_assert_uint_eq(G(t, 20), 1);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atcas_occupies_scalar_unit)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Thread 0 spins in ATCAS; thread 1's STOREIND that would release it
	   cannot enter the busy Scalar Unit (TC/ScalarUnit.md), so both wait;
	   thread 2's non-Scalar-Unit NOP still runs. */
	G(t, 1) = 0x700;
	l1_set(t, 0x7000, 1);
	push(t, 0, enc("ATCAS 0, 2, 0, 0, 0, 1"));
	t->gpr[1][1] = 0x700, t->gpr[1][2] = 0;
	push(t, 1, enc("STOREIND 1, 0, 1, 4, 0, 2, 1"));   /* L1[0x7000] = 0 */
	push(t, 2, enc("NOP"));
	ck_assert_int_eq(ttx_run_until_stalled(t, 0), TTX_OK);
	ck_assert(blocked(t, 0));
	ck_assert(blocked(t, 1));
	ck_assert(!pending(t, 2));
	ck_assert_uint_eq(l1_32(t, 0x7000), 1);
	/* ttx_run calls that a deadlock. */
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "deadlock"));
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "ATCAS"));
	/* Released by a RISC-V store: thread 0 sets 2, then thread 1 stores 0. */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0x7000, 0), TTX_OK);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(l1_32(t, 0x7000), 0);
	ck_assert(!pending(t, 0));
	ck_assert(!pending(t, 1));
	/* With thread 0 done, thread 1's next ATCAS can run: 0 -> 5. */
	push(t, 1, enc("ATCAS 0, 5, 0, 0, 0, 1"));
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ck_assert_uint_eq(l1_32(t, 0x7000), 5);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_atcas_l1_bounds)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	G(t, 1) = 0x16E00;
	run_fault(t, enc("ATCAS 0, 1, 0, 0, 0, 1"), "ATCAS");
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "L1 address 0x0016E000 is outside L1"));
	ttx_tile_destroy(t);
}
END_TEST

/* ---- REG2FLOP ---- */

START_TEST(test_reg2flop_32bit)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* SizeSel 1, ThConCfgIndex 6: Config[0][52 + 6 = 58] = GPR 3; word 58 is
	   THCON_SEC0_REG1 (Out_data_format at bits 7:4). */
	G(t, 3) = 0x000000A0;
	run1(t, enc("REG2FLOP 1, 0, 0, 0, 6, 3"));
	ck_assert_uint_eq(t->config[0][58], 0xA0);
	uint32_t v;
	ck_assert_int_eq(ttx_cfg_field_read(t, "THCON_SEC0_REG1_Out_data_format", 0, &v), TTX_OK);
	ck_assert_uint_eq(v, 0xA);
	ck_assert_uint_eq(t->config[1][58], 0);
	/* Index 99 is the last THCON word (151). */
	G(t, 4) = 0xFFFFFFFF;
	run1(t, enc("REG2FLOP 1, 0, 0, 0, 99, 4"));
	ck_assert_uint_eq(t->config[0][151], 0xFFFFFFFF);
	ck_assert_uint_eq(t->config[0][152], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reg2flop_128bit_and_bank)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* Thread 0 uses Config bank 1 (CFG_STATE_ID_StateID = 1). */
	ck_assert_int_eq(ttx_cfg_field_write(t, "CFG_STATE_ID_StateID", 0, 1), TTX_OK);
	for (unsigned i = 4; i < 8; i++)
		G(t, i) = 0x11111111u * i;
	/* SizeSel 0: index 7 & ~3 = 4 -> words 56..59; InputReg 5 & ~3 = 4 -> GPRs 4..7. */
	run1(t, enc("REG2FLOP 0, 0, 0, 0, 7, 5"));
	ck_assert_uint_eq(t->config[1][56], 0x44444444);
	ck_assert_uint_eq(t->config[1][57], 0x55555555);
	ck_assert_uint_eq(t->config[1][58], 0x66666666);
	ck_assert_uint_eq(t->config[1][59], 0x77777777);
	ck_assert_uint_eq(t->config[1][55], 0);
	ck_assert_uint_eq(t->config[1][60], 0);
	ck_assert_uint_eq(t->config[0][56], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reg2flop_undefined_index)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* 100 = GLOBAL_CFGREG_BASE_ADDR32 (152) - THCON_CFGREG_BASE_ADDR32 (52). */
	run_fault(t, enc("REG2FLOP 1, 0, 0, 0, 100, 4"), "ThConCfgIndex 100");
	ck_assert_uint_eq(t->config[0][152], 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_reg2flop_adc)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	/* FlopIndex = Channel << 5 | ADCSel << 3 | Cr << 2 | XYZW: 32-bit GPR 4
	   into unpacker 1's channel 0 X (interp/adc.c; tests/test_pack.c has more). */
	G(t, 4) = 0x12345;
	run1(t, enc("REG2FLOP 1, 2, 0, 0, %u, 4", 1u << 3));
	ck_assert_uint_eq(t->adc[0].unpacker[1].ch[0].x, 0x12345);
	/* ADCSel 3, or OverrideThread with ThreadSel 3: the page returns. */
	ttx_tile_reset(t);
	run1(t, enc("REG2FLOP 1, 2, 0, 0, %u, 4", 3u << 3));
	run1(t, enc("REG2FLOP 1, 3, 0, 3, 0, 4"));
	/* TargetSel 1 has no page. */
	run_fault(t, enc("REG2FLOP 1, 1, 0, 0, 6, 4"), "undocumented instruction REG2FLOP");
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scalar");
	TCase *tc;

	tc = tcase_create("SETDMAREG");
	tcase_add_test(tc, test_setdmareg_immediate_halves);
	tcase_add_test(tc, test_setdmareg_special_zero_sources);
	tcase_add_test(tc, test_setdmareg_special_packer_sources);
	suite_add_tcase(s, tc);

	tc = tcase_create("ADDDMAREG");
	tcase_add_test(tc, test_adddmareg_wrap);
	tcase_add_test(tc, test_adddmareg_immediate);
	suite_add_tcase(s, tc);

	tc = tcase_create("SUBDMAREG");
	tcase_add_test(tc, test_subdmareg_wrap);
	tcase_add_test(tc, test_subdmareg_immediate);
	suite_add_tcase(s, tc);

	tc = tcase_create("MULDMAREG");
	tcase_add_test(tc, test_muldmareg_16x16);
	tcase_add_test(tc, test_muldmareg_immediate);
	suite_add_tcase(s, tc);

	tc = tcase_create("BITWOPDMAREG");
	tcase_add_test(tc, test_bitwopdmareg_modes);
	tcase_add_test(tc, test_bitwopdmareg_immediate);
	tcase_add_test(tc, test_bitwopdmareg_undefined_mode_faults);
	suite_add_tcase(s, tc);

	tc = tcase_create("SHIFTDMAREG");
	tcase_add_test(tc, test_shiftdmareg_counts);
	tcase_add_test(tc, test_shiftdmareg_immediate);
	tcase_add_test(tc, test_shiftdmareg_undefined_mode_faults);
	suite_add_tcase(s, tc);

	tc = tcase_create("CMPDMAREG");
	tcase_add_test(tc, test_cmpdmareg_unsigned);
	tcase_add_test(tc, test_cmpdmareg_immediate);
	tcase_add_test(tc, test_cmpdmareg_undefined_mode_faults);
	suite_add_tcase(s, tc);

	tc = tcase_create("DMANOP");
	tcase_add_test(tc, test_dmanop_no_effect);
	suite_add_tcase(s, tc);

	tc = tcase_create("FLUSHDMA");
	tcase_add_test(tc, test_flushdma_never_waits);
	suite_add_tcase(s, tc);

	tc = tcase_create("RSTDMA");
	tcase_add_test(tc, test_rstdma_undocumented);
	suite_add_tcase(s, tc);

	tc = tcase_create("LOADIND");
	tcase_add_test(tc, test_loadind_sizes);
	tcase_add_test(tc, test_loadind_autoincrement);
	tcase_add_test(tc, test_loadind_result_holds_offset);
	tcase_add_test(tc, test_loadind_l1_bounds);
	tcase_add_test(tc, test_loadind_address_wraps);
	suite_add_tcase(s, tc);

	tc = tcase_create("STOREIND");
	tcase_add_test(tc, test_storeind_l1_sizes);
	tcase_add_test(tc, test_storeind_l1_autoincrement);
	tcase_add_test(tc, test_storeind_l1_offset_in_data_reg);
	tcase_add_test(tc, test_storeind_l1_bounds);
	tcase_add_test(tc, test_storeind_mmio_window);
	tcase_add_test(tc, test_storeind_srcb);
	tcase_add_test(tc, test_storeind_srca_row_offset);
	tcase_add_test(tc, test_storeind_srca_override);
	tcase_add_test(tc, test_storeind_src_waits_for_unpackers);
	suite_add_tcase(s, tc);

	tc = tcase_create("LOADREG");
	tcase_add_test(tc, test_loadreg_window);
	suite_add_tcase(s, tc);

	tc = tcase_create("STOREREG");
	tcase_add_test(tc, test_storereg_window);
	suite_add_tcase(s, tc);

	tc = tcase_create("ATINCGET");
	tcase_add_test(tc, test_atincget_field_widths);
	tcase_add_test(tc, test_atincget_wrap_within_field);
	tcase_add_test(tc, test_atincget_l1_bounds);
	suite_add_tcase(s, tc);

	tc = tcase_create("ATINCGETPTR");
	tcase_add_test(tc, test_atincgetptr_push_until_full);
	tcase_add_test(tc, test_atincgetptr_counter_wrap);
	tcase_add_test(tc, test_atincgetptr_pop_when_empty);
	tcase_add_test(tc, test_atincgetptr_noincr_and_width0);
	tcase_add_test(tc, test_atincgetptr_l1_bounds);
	suite_add_tcase(s, tc);

	tc = tcase_create("ATSWAP");
	tcase_add_test(tc, test_atswap_mask);
	tcase_add_test(tc, test_atswap_single_data_reg);
	tcase_add_test(tc, test_atswap_l1_bounds);
	suite_add_tcase(s, tc);

	tc = tcase_create("ATCAS");
	tcase_add_test(tc, test_atcas_immediate_success);
	tcase_add_test(tc, test_atcas_blocks_until_mmio_write);
	tcase_add_test(tc, test_atcas_occupies_scalar_unit);
	tcase_add_test(tc, test_atcas_l1_bounds);
	suite_add_tcase(s, tc);

	tc = tcase_create("REG2FLOP");
	tcase_add_test(tc, test_reg2flop_32bit);
	tcase_add_test(tc, test_reg2flop_128bit_and_bank);
	tcase_add_test(tc, test_reg2flop_undefined_index);
	tcase_add_test(tc, test_reg2flop_adc);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
