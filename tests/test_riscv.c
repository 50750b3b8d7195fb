/* The baby RISC-V cores (interp/riscv.c, interp/riscv_mmio.c): every RV32IM
 * instruction at its edges, the tile's address map from each core, waiting,
 * and the cycle model, on programs encoded here (no cross compiler needed;
 * tests/test_riscv_elf.sh runs C programs built with one).  Expected values
 * are derived by hand from the RISC-V specification and the TT/BabyRISCV
 * pages. */
#include <stdint.h>
#include <string.h>

#include "util.h"
#include "tile.h"

/* ---- a small RV32IM encoder ---- */
enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6, A7, S2, S3, S4, S5 };

static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t i_type(int imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return ((uint32_t)imm & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t s_type(int imm, unsigned rs2, unsigned rs1, unsigned f3)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 5 & 0x7F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1F) << 7 | 0x23;
}
static uint32_t b_type(int off, unsigned rs2, unsigned rs1, unsigned f3)
{
	uint32_t u = (uint32_t)off;
	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u >> 1 & 0xF) << 8 |
	       (u >> 11 & 1) << 7 | 0x63;
}
static uint32_t j_type(int off, unsigned rd)
{
	uint32_t u = (uint32_t)off;
	return (u >> 20 & 1) << 31 | (u >> 1 & 0x3FF) << 21 | (u >> 11 & 1) << 20 | (u >> 12 & 0xFF) << 12 | rd << 7 | 0x6F;
}
#define ADD(d, a, b)  r_type(0, b, a, 0, d, 0x33)
#define SUB(d, a, b)  r_type(0x20, b, a, 0, d, 0x33)
#define SLL(d, a, b)  r_type(0, b, a, 1, d, 0x33)
#define SLT(d, a, b)  r_type(0, b, a, 2, d, 0x33)
#define SLTU(d, a, b) r_type(0, b, a, 3, d, 0x33)
#define XOR(d, a, b)  r_type(0, b, a, 4, d, 0x33)
#define SRL(d, a, b)  r_type(0, b, a, 5, d, 0x33)
#define SRA(d, a, b)  r_type(0x20, b, a, 5, d, 0x33)
#define OR(d, a, b)   r_type(0, b, a, 6, d, 0x33)
#define AND(d, a, b)  r_type(0, b, a, 7, d, 0x33)
#define MUL(d, a, b)    r_type(1, b, a, 0, d, 0x33)
#define MULH(d, a, b)   r_type(1, b, a, 1, d, 0x33)
#define MULHSU(d, a, b) r_type(1, b, a, 2, d, 0x33)
#define MULHU(d, a, b)  r_type(1, b, a, 3, d, 0x33)
#define DIV(d, a, b)    r_type(1, b, a, 4, d, 0x33)
#define DIVU(d, a, b)   r_type(1, b, a, 5, d, 0x33)
#define REM(d, a, b)    r_type(1, b, a, 6, d, 0x33)
#define REMU(d, a, b)   r_type(1, b, a, 7, d, 0x33)
#define ADDI(d, a, i)  i_type(i, a, 0, d, 0x13)
#define SLTI(d, a, i)  i_type(i, a, 2, d, 0x13)
#define SLTIU(d, a, i) i_type(i, a, 3, d, 0x13)
#define XORI(d, a, i)  i_type(i, a, 4, d, 0x13)
#define ORI(d, a, i)   i_type(i, a, 6, d, 0x13)
#define ANDI(d, a, i)  i_type(i, a, 7, d, 0x13)
#define SLLI(d, a, s)  i_type(s, a, 1, d, 0x13)
#define SRLI(d, a, s)  i_type(s, a, 5, d, 0x13)
#define SRAI(d, a, s)  i_type(0x400 | (s), a, 5, d, 0x13)
#define LB(d, a, i)  i_type(i, a, 0, d, 0x03)
#define LH(d, a, i)  i_type(i, a, 1, d, 0x03)
#define LW(d, a, i)  i_type(i, a, 2, d, 0x03)
#define LBU(d, a, i) i_type(i, a, 4, d, 0x03)
#define LHU(d, a, i) i_type(i, a, 5, d, 0x03)
#define SB(s, a, i)  s_type(i, s, a, 0)
#define SH(s, a, i)  s_type(i, s, a, 1)
#define SW(s, a, i)  s_type(i, s, a, 2)
#define BEQ(a, b, o)  b_type(o, b, a, 0)
#define BNE(a, b, o)  b_type(o, b, a, 1)
#define BLT(a, b, o)  b_type(o, b, a, 4)
#define BGE(a, b, o)  b_type(o, b, a, 5)
#define BLTU(a, b, o) b_type(o, b, a, 6)
#define BGEU(a, b, o) b_type(o, b, a, 7)
#define JAL(d, o)     j_type(o, d)
#define JALR(d, a, i) i_type(i, a, 0, d, 0x67)
#define LUI(d, u)     ((uint32_t)(u) << 12 | (d) << 7 | 0x37)
#define AUIPC(d, u)   ((uint32_t)(u) << 12 | (d) << 7 | 0x17)
#define FENCE         0x0FF0000Fu
#define ECALL         0x00000073u
#define EBREAK        0x00100073u
#define TTINSN(w)     ((uint32_t)(w) << 2 | (uint32_t)(w) >> 30)
/* li for any value: lui + addi (two words) */
#define LI(d, v) LUI(d, ((uint32_t)(v) + 0x800) >> 12), ADDI(d, d, (int)(((uint32_t)(v) << 20)) >> 20)

#define CODE 0x1000u

static struct ttx_tile *tile(void)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}

/* Load words at addr and start core there. */
static void load(struct ttx_tile *t, enum ttx_core core, uint32_t addr, const uint32_t *w, size_t n)
{
	ck_assert_int_eq(ttx_l1_write(t, addr, w, n * 4), TTX_OK);
	ck_assert_int_eq(ttx_core_start(t, core, addr), TTX_OK);
}
#define PROG(t, core, ...) do { \
	const uint32_t w_[] = { __VA_ARGS__ }; \
	load(t, core, CODE + 0x1000 * (core), w_, sizeof(w_) / sizeof(w_[0])); \
} while (0)

static uint32_t reg(struct ttx_tile *t, enum ttx_core core, unsigned r)
{
	uint32_t v;
	ck_assert_int_eq(ttx_core_reg_read(t, core, r, &v), TTX_OK);
	return v;
}

static void run_ok(struct ttx_tile *t)
{
	ck_assert_msg(ttx_run(t, 1000000) == TTX_OK, "%s", ttx_tile_error(t));
}

static void run_fault(struct ttx_tile *t, const char *what)
{
	ck_assert_int_eq(ttx_run(t, 1000000), TTX_FAULT);
	ck_assert_msg(strstr(ttx_tile_error(t), what), "error \"%s\" lacks \"%s\"", ttx_tile_error(t), what);
}

/* ---- the base integer instructions ---- */

START_TEST(test_alu)
{
	struct ttx_tile *t = tile();
	PROG(t, TTX_CORE_B,
	     LI(A0, 0x7FFFFFFF), ADDI(A1, A0, 1),          /* a1 = 0x80000000: addition wraps */
	     SUB(A2, ZERO, A1),                            /* a2 = -INT_MIN = INT_MIN */
	     ADDI(A3, ZERO, -1),                           /* a3 = 0xFFFFFFFF (imm sign-extended) */
	     SLLI(A4, A3, 31), SRLI(A5, A3, 31), SRAI(A6, A1, 31),
	     ADDI(T0, ZERO, 63), SLL(A7, A3, T0),          /* shift by register: 63 & 31 = 31 */
	     SRL(S2, A1, T0), SRA(S3, A1, T0),
	     SLT(S4, A1, ZERO), SLTU(S5, A1, ZERO),        /* INT_MIN < 0 signed, not unsigned */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A1), 0x80000000u);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A2), 0x80000000u);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A3), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A4), 0x80000000u);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A5), 1);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A6), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A7), 0x80000000u);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S2), 1);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S3), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S4), 1);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S5), 0);
	ttx_tile_destroy(t);

	t = tile();
	PROG(t, TTX_CORE_T1,
	     ADDI(A0, ZERO, -5),
	     SLTI(A1, A0, -4), SLTI(A2, A0, -5),           /* -5 < -4: 1; -5 < -5: 0 */
	     SLTIU(A3, A0, -1),                            /* 0xFFFFFFFB < 0xFFFFFFFF unsigned: 1 */
	     SLTIU(A4, ZERO, 1),                           /* seqz */
	     XORI(A5, A0, -1),                             /* not: 4 */
	     ORI(A6, ZERO, 0x7FF), ANDI(A7, A0, 0xF0),     /* 0x7FF; 0xFFFFFFFB & 0xF0 = 0xF0 */
	     LI(S2, 0x12345678), XOR(S3, S2, A0), OR(S4, S2, A0), AND(S5, S2, A0),
	     LUI(T0, 0xFFFFF), AUIPC(T1, 1),               /* t0 = 0xFFFFF000; t1 = pc + 0x1000 */
	     ADDI(ZERO, ZERO, 5), ADD(T2, ZERO, ZERO),     /* x0 stays 0 */
	     FENCE, EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A1), 1);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A2), 0);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A3), 1);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A4), 1);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A5), 4);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A6), 0x7FF);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, A7), 0xF0);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, S3), 0x12345678u ^ 0xFFFFFFFBu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, S4), 0xFFFFFFFBu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, S5), 0x12345678u & 0xFFFFFFFBu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, T0), 0xFFFFF000u);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, T1), CODE + 0x2000 + 4 * 14 + 0x1000);   /* the auipc's pc + 0x1000 */
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, ZERO), 0);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, T2), 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_m_extension)
{
	struct ttx_tile *t = tile();
	PROG(t, TTX_CORE_T0,
	     LI(A0, 0x80000000), ADDI(A1, ZERO, -1), ADDI(A2, ZERO, -7), ADDI(A3, ZERO, 2),
	     DIV(S2, A0, A1), REM(S3, A0, A1),             /* INT_MIN / -1 = INT_MIN, rem 0 */
	     DIV(S4, A2, ZERO), REM(S5, A2, ZERO),         /* x / 0 = -1, x % 0 = x */
	     DIVU(T0, A2, ZERO), REMU(T1, A2, ZERO),       /* 0xFFFFFFFF, x */
	     DIV(T2, A2, A3), REM(S0, A2, A3),             /* -7 / 2 = -3 (toward 0), rem -1 */
	     DIVU(S1, A2, A3), REMU(A4, A2, A3),           /* 0xFFFFFFF9 / 2 = 0x7FFFFFFC, rem 1 */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S2), 0x80000000u);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S3), 0);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S4), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S5), (uint32_t)-7);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, T0), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, T1), (uint32_t)-7);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, T2), (uint32_t)-3);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S0), (uint32_t)-1);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S1), 0x7FFFFFFCu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, A4), 1);
	ttx_tile_destroy(t);

	t = tile();
	PROG(t, TTX_CORE_T2,
	     ADDI(A0, ZERO, -2), LI(A1, 0x80000001), ADDI(A2, ZERO, 3),
	     MUL(S2, A0, A2),                 /* -6 */
	     MULH(S3, A0, A2),                /* high of -6: 0xFFFFFFFF */
	     MULHU(S4, A0, A2),               /* 0xFFFFFFFE * 3 = 0x2_FFFFFFFA: high 2 */
	     MULHSU(S5, A0, A2),              /* -2 * 3 (unsigned): -6: high 0xFFFFFFFF */
	     MULHSU(T0, A2, A0),              /* 3 * 0xFFFFFFFE = 0x2_FFFFFFFA: high 2 */
	     MULH(T1, A1, A1),                /* (-2^31 + 1)^2 = 2^62 - 2^32 + 1: high 0x3FFFFFFF */
	     MULHU(T2, A1, A1),               /* (2^31 + 1)^2 = 2^62 + 2^32 + 1: high 0x40000001 */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, S2), (uint32_t)-6);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, S3), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, S4), 2);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, S5), 0xFFFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, T0), 2);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, T1), 0x3FFFFFFFu);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, T2), 0x40000001u);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_loads_stores)
{
	struct ttx_tile *t = tile();
	static const uint8_t data[8] = { 0x81, 0x7F, 0x34, 0x92, 0x11, 0x22, 0x33, 0x44 };
	ttx_l1_write(t, 0x8000, data, sizeof(data));
	PROG(t, TTX_CORE_NC,
	     LUI(A0, 0x8),                                  /* a0 = 0x8000 */
	     LB(S2, A0, 0), LBU(S3, A0, 0),                 /* 0x81: -127, 129 */
	     LH(S4, A0, 2), LHU(S5, A0, 2),                 /* 0x9234 */
	     LW(T0, A0, 4),
	     LW(T1, A0, 6),                                 /* misaligned: rounded down to 0x8004 */
	     LH(T2, A0, 3),                                 /* misaligned: 0x8002 */
	     ADDI(A1, ZERO, -1),
	     SB(A1, A0, 9), SH(A1, A0, 13), SW(A1, A0, 17), /* stores rounded down too: 0x8009, 0x800C, 0x8010 */
	     LUI(A2, 0xFFB00), SW(A0, A2, 0x7FC), LW(S0, A2, 0x7FC),   /* local RAM */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, S2), (uint32_t)-127);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, S3), 0x81);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, S4), 0xFFFF9234u);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, S5), 0x9234);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, T0), 0x44332211u);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, T1), 0x44332211u);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, T2), 0xFFFF9234u);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, S0), 0x8000);
	uint8_t out[12];
	ttx_l1_read(t, 0x8008, out, sizeof(out));
	static const uint8_t want[12] = { 0, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF };
	ck_assert_mem_eq(out, want, 12);
	/* the local RAM is the core's own: not L1, not another core's */
	uint32_t v;
	ck_assert_int_eq(ttx_core_read(t, TTX_CORE_NC, 0xFFB007FC, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x8000);
	ck_assert_int_eq(ttx_core_read(t, TTX_CORE_B, 0xFFB007FC, &v), TTX_OK);
	ck_assert_uint_eq(v, 0);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_branches_jumps)
{
	struct ttx_tile *t = tile();
	/* each taken branch skips an "addi s2, s2, 1"; not-taken ones fall into
	   one: s2 counts the not-taken, and 3 of the 12 must be */
	PROG(t, TTX_CORE_B,
	     ADDI(A0, ZERO, -1), ADDI(A1, ZERO, 1),
	     BEQ(A0, A0, 8), ADDI(S2, S2, 100),
	     BNE(A0, A1, 8), ADDI(S2, S2, 100),
	     BLT(A0, A1, 8), ADDI(S2, S2, 100),             /* -1 < 1 signed */
	     BGE(A1, A0, 8), ADDI(S2, S2, 100),
	     BLTU(A1, A0, 8), ADDI(S2, S2, 100),            /* 1 < 0xFFFFFFFF unsigned */
	     BGEU(A0, A1, 8), ADDI(S2, S2, 100),
	     BEQ(A0, A1, 8), ADDI(S2, S2, 1),               /* not taken */
	     BLT(A1, A0, 8), ADDI(S2, S2, 1),
	     BLTU(A0, A1, 8), ADDI(S2, S2, 1),
	     JAL(RA, 12), ADDI(S3, ZERO, 7), JAL(ZERO, 12),  /* call +12, then return to the addi */
	     ADDI(S4, ZERO, 5), JALR(T0, RA, 1),            /* bit 0 of the target is cleared */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S2), 3);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S3), 7);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S4), 5);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, RA), CODE + 4 * 21);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, T0), CODE + 4 * 25);
	struct ttx_core_state s;
	ttx_core_state(t, TTX_CORE_B, &s);
	ck_assert(s.halted);
	ck_assert_uint_eq(s.pc, CODE + 4 * 26);   /* after the ebreak */
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_halt_and_faults)
{
	struct ttx_tile *t = tile();
	PROG(t, TTX_CORE_T0, ADDI(A0, ZERO, 1), ECALL, ADDI(A0, ZERO, 2));
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, A0), 1);
	/* an invalid word: a fault naming the core, pc and word */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T1, ADDI(A0, ZERO, 1), 0xFFFFFFFFu);
	run_fault(t, "RISCV T1 at pc 0x00003004: 0xFFFFFFFF is not an RV32IM instruction");
	/* csrr (Zicsr) is not RV32IM either */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, 0xC0002573u);
	run_fault(t, "0xC0002573 is not an RV32IM instruction");
	/* fetching outside L1 */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, LUI(A0, 0xFFB00), JALR(ZERO, A0, 0));
	run_fault(t, "instruction fetch from 0xFFB00000");
	/* unmapped data: the core, pc, address and width */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_NC, LUI(A0, 0xFFE00), LW(A1, A0, 0));
	run_fault(t, "RISCV NC at pc 0x00005004: 4-byte load from 0xFFE00000: not mapped for RISCV NC");
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, LUI(A0, 0x170), SB(A0, A0, 0));
	run_fault(t, "1-byte store to 0x00170000: past the end of L1");
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, LUI(A0, 0xFFB01), SW(A0, A0, -0x800));
	run_fault(t, "past the core's local data RAM");
	/* a runaway core: the budget stops it */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, ADDI(A0, A0, 1), JAL(ZERO, -4));
	ck_assert_int_eq(ttx_run(t, 1000), TTX_LIMIT);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, A0), 500);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- the address map from each core ---- */

START_TEST(test_push_and_ttinsn)
{
	struct ttx_tile *t = tile();
	/* T1 pushes SETDMAREG 0, 0x1234, 0, 4 (GPR 2 low half) by .ttinsn and by
	   sw; B pushes the same to thread 2 through INSTRN2_BUF */
	uint32_t w;
	ck_assert_int_eq(ttx_asm_line("SETDMAREG 0, 0x1234, 0, 4", &w, NULL, 0), TTX_OK);
	uint32_t w2;
	ck_assert_int_eq(ttx_asm_line("SETDMAREG 0, 0x5678, 0, 6", &w2, NULL, 0), TTX_OK);
	PROG(t, TTX_CORE_T1, TTINSN(w), LI(A0, w2), LUI(A1, 0xFFE40), SW(A0, A1, 0), EBREAK);
	PROG(t, TTX_CORE_B, LI(A0, w), LUI(A1, 0xFFE60), SW(A0, A1, 0), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(t->gpr[1][2], 0x1234);
	ck_assert_uint_eq(t->gpr[1][3], 0x5678);
	ck_assert_uint_eq(t->gpr[2][2], 0x1234);
	/* a TRISC's store to INSTRN1_BUF is refused (it would hang) */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T0, LUI(A1, 0xFFE50), SW(A0, A1, 0));
	run_fault(t, "INSTRN1/2_BUF are RISCV B's");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_gprs_config_semaphores)
{
	struct ttx_tile *t = tile();
	/* T2 writes its GPR 5, B writes thread 0's GPR 6 and reads thread 2's GPR 5 */
	PROG(t, TTX_CORE_T2, LUI(A0, 0xFFE00), ADDI(A1, ZERO, 77), SW(A1, A0, 20), EBREAK);
	run_ok(t);
	PROG(t, TTX_CORE_B, LUI(A0, 0xFFE00), ADDI(A1, ZERO, 66), SW(A1, A0, 24), LW(S2, A0, 0x214), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(t->gpr[2][5], 77);
	ck_assert_uint_eq(t->gpr[0][6], 66);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S2), 77);
	/* configuration: T0 writes Config[0][10], reads it back */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T0, LUI(A0, 0xFFEF0), LI(A1, 0xABCD), SW(A1, A0, 40), LW(S2, A0, 40), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(t->config[0][10], 0xABCD);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S2), 0xABCD);
	/* semaphores: even = SEMPOST, odd = SEMGET, read = the value */
	ttx_tile_reset(t);
	t->semaphores[3].max = 4;
	PROG(t, TTX_CORE_T1, LUI(A0, 0xFFE80), SW(ZERO, A0, 0x2C), SW(ZERO, A0, 0x2C), ADDI(A1, ZERO, 1),
	     SW(A1, A0, 0x2C), LW(S2, A0, 0x2C), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, S2), 1);
	/* MOP configuration: written by T0, write-only */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T0, LUI(A0, 0xFFB80), ADDI(A1, ZERO, 9), SW(A1, A0, 4), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(t->mop[0].cfg[1], 9);
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T0, LUI(A0, 0xFFB80), LW(A1, A0, 4));
	run_fault(t, "write-only");
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, LUI(A0, 0xFFB80), SW(A1, A0, 4));   /* B has no MOP expander */
	run_fault(t, "RISCV B at pc");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mailboxes_pcbufs)
{
	struct ttx_tile *t = tile();
	/* B sends 11, 22 to T0 (mailbox 1); T0 pops both, queries the empty
	   mailbox (bit 2 of the address: 0), answers 33 to B (mailbox 0) */
	PROG(t, TTX_CORE_B, LUI(A0, 0xFFEC1), ADDI(A1, ZERO, 11), SW(A1, A0, 0), ADDI(A1, ZERO, 22), SW(A1, A0, 0),
	     LUI(A2, 0xFFEC1), LW(S2, A2, 0),               /* pops what T0 sent: waits for it */
	     EBREAK);
	PROG(t, TTX_CORE_T0, LUI(A0, 0xFFEC0), LW(S2, A0, 0), LW(S3, A0, 0), LW(S4, A0, 4),
	     ADDI(A1, ZERO, 33), SW(A1, A0, 0), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S2), 11);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S3), 22);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S4), 0);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S2), 33);
	/* a pop of an empty mailbox nobody will fill: a deadlock naming it */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, LUI(A0, 0xFFEC0), LW(S2, A0, 0));
	run_fault(t, "RISCV T2 at pc 0x00004004 waits on an empty mailbox (0xFFEC0000)");
	/* PCBuf: B pushes 5 to T1's; T1 pops it */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, LUI(A0, 0xFFE90), ADDI(A1, ZERO, 5), SW(A1, A0, 0), EBREAK);
	PROG(t, TTX_CORE_T1, LUI(A0, 0xFFE80), LW(S2, A0, 0), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T1, S2), 5);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_ttsync_waits_for_tensix)
{
	struct ttx_tile *t = tile();
	/* T0 pushes STALLWAIT-free work (1000 NOPs by a MOP would do; here 40
	   SETDMAREGs), then waits at CoprocessorDoneCheck, then reads GPR 2,
	   which the last SETDMAREG wrote: it must see it */
	uint32_t w;
	ck_assert_int_eq(ttx_asm_line("SETDMAREG 0, 0x99, 0, 4", &w, NULL, 0), TTX_OK);
	uint32_t p[64];
	size_t n = 0;
	p[n++] = LUI(A0, 0xFFE80);
	p[n++] = LUI(A2, 0xFFE00);
	for (int i = 0; i < 40; i++)
		p[n++] = TTINSN(w);
	p[n++] = SW(ZERO, A0, 4);
	p[n++] = LW(A1, A0, 4);
	p[n++] = LW(S2, A2, 8);
	p[n++] = EBREAK;
	load(t, TTX_CORE_T0, 0x8000, p, n);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S2), 0x99);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_soft_reset_and_reset_pcs)
{
	struct ttx_tile *t = tile();
	/* B sets T1's reset-PC override to 0x7000 and releases T1 and NC (NC at
	   its default 0x12000); they store marks; B waits for them in L1 */
	const uint32_t t1[] = { ADDI(A0, ZERO, 0x71), SW(A0, ZERO, 0x100), EBREAK };
	const uint32_t nc[] = { ADDI(A0, ZERO, 0x72), SW(A0, ZERO, 0x104), EBREAK };
	ttx_l1_write(t, 0x7000, t1, sizeof(t1));
	ttx_l1_write(t, 0x12000, nc, sizeof(nc));
	PROG(t, TTX_CORE_B,
	     LUI(A0, 0xFFEF0), LUI(A1, 0x7), SW(A1, A0, 159 * 4),   /* TRISC_RESET_PC_SEC1_PC */
	     ADDI(A1, ZERO, 2), SW(A1, A0, 161 * 4),                /* override enable bit 1 */
	     LUI(A2, 0xFFB12), LW(A3, A2, 0x1B0), LI(A4, ~((1u << 13) | (1u << 18))), AND(A3, A3, A4),
	     SW(A3, A2, 0x1B0),
	     LW(S2, ZERO, 0x104), BEQ(S2, ZERO, -4),               /* poll for NC's mark */
	     LW(S3, A2, 0x1B0), EBREAK);
	run_ok(t);
	uint32_t marks[2];
	ttx_l1_read(t, 0x100, marks, 8);
	ck_assert_uint_eq(marks[0], 0x71);
	ck_assert_uint_eq(marks[1], 0x72);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S3), TTX_SOFT_RESET_CORES & ~((1u << 11) | (1u << 13) | (1u << 18)));
	/* putting a core back into reset stops it */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T0, ADDI(A0, A0, 1), JAL(ZERO, -4));
	PROG(t, TTX_CORE_B, LUI(A2, 0xFFB12), LI(A3, TTX_SOFT_RESET_CORES & ~(1u << 11)), SW(A3, A2, 0x1B0), EBREAK);
	run_ok(t);
	struct ttx_core_state s;
	ttx_core_state(t, TTX_CORE_T0, &s);
	ck_assert(!s.released);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_wall_clock_and_debug)
{
	struct ttx_tile *t = tile();
	PROG(t, TTX_CORE_T2, LUI(A0, 0xFFB12), LW(S2, A0, 0x1F0), ADDI(A1, ZERO, 0), ADDI(A1, A1, 1),
	     LW(S3, A0, 0x1F0), LW(S4, A0, 0x1F8),
	     ADDI(A2, ZERO, 40), SW(A2, A0, 0x58), LW(S5, A0, 0x78),   /* CFGREG_RD_CNTL: Config[0][40] */
	     LW(T0, A0, 0xA8),                                          /* INSTRN_BUF_STATUS: all empty */
	     EBREAK);
	t->config[0][40] = 0x600DF00D;
	run_ok(t);
	ck_assert_uint_gt(reg(t, TTX_CORE_T2, S3), reg(t, TTX_CORE_T2, S2));
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, S4), 0);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, S5), 0x600DF00D);
	ck_assert_uint_eq(reg(t, TTX_CORE_T2, T0), 0x77);
	/* the debug array read port (docs/riscv.md): Dst16 row 37, word 3 =
	   columns 6 (low half) and 7; SrcB bank 1 row 5 column 9; 0 while
	   the port is off */
	ttx_tile_reset(t);
	t->dst[37][6] = 0x1234, t->dst[37][7] = 0xABCD, t->srcb[1].rows[5][9] = 0x7FFFF;
	PROG(t, TTX_CORE_B, LUI(A0, 0xFFB12), LI(A1, 37 | 3 << 12 | 2 << 16), SW(A1, A0, 0x64),
	     LW(S2, A0, 0x6C),                                    /* off: 0 */
	     ADDI(A2, ZERO, 1), SW(A2, A0, 0x60), LW(S3, A0, 0x6C),
	     LI(A1, (64 + 5) | 9 << 12 | 1 << 16), SW(A1, A0, 0x64), LW(S4, A0, 0x6C),
	     LI(A1, 37 | 8 << 12 | 2 << 16), SW(A1, A0, 0x64), LW(S5, A0, 0x6C),   /* past Dst's 8 words */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S2), 0);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S3), 0xABCD1234u);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S4), 0x7FFFF);
	ck_assert_uint_eq(reg(t, TTX_CORE_B, S5), 0);
	ttx_tile_destroy(t);
}
END_TEST

/* ---- waiting ---- */

START_TEST(test_polling_and_parking)
{
	struct ttx_tile *t = tile();
	/* T0 polls semaphore 0 until thread 0's SEMPOST makes it 1, which the
	   Tensix side does only after 300 NOPs */
	t->semaphores[0].max = 1;
	for (int i = 0; i < 300; i++)
		ttx_push(t, 0, 0x02000000);
	uint32_t post;
	ttx_asm_line("SEMPOST 1", &post, NULL, 0);
	ttx_push(t, 0, post);
	PROG(t, TTX_CORE_T0, LUI(A0, 0xFFE80), LW(S2, A0, 0x20), BEQ(S2, ZERO, -4), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, S2), 1);
	struct ttx_core_state s;
	ttx_core_state(t, TTX_CORE_T0, &s);
	ck_assert(s.halted);
	ck_assert_uint_lt(s.insns, 300);   /* it waited, it did not spin */
	/* a loop nothing can end (j ., or polling L1 nobody writes) ends the run */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, JAL(ZERO, 0));
	PROG(t, TTX_CORE_T1, LW(S2, ZERO, 0x200), BEQ(S2, ZERO, -4));
	run_ok(t);
	ttx_core_state(t, TTX_CORE_T1, &s);
	ck_assert_int_eq(s.wait, TTX_WAIT_LOOP);
	ck_assert_uint_lt(s.insns, 10);
	/* until: L1 0x200 = 5, written by B after counting to 5 */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, ADDI(A0, A0, 1), ADDI(A1, ZERO, 5), BNE(A0, A1, -8), SW(A0, ZERO, 0x200),
	     JAL(ZERO, 0));
	uint32_t addr = 0x200, value = 5;
	ck_assert_int_eq(ttx_run_until(t, 0, &addr, &value, 1), TTX_OK);
	value = 6;
	ck_assert_int_eq(ttx_run_until(t, 0, &addr, &value, 1), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "before L1 0x200 held 0x00000006: it holds 0x00000005"));
	ttx_tile_destroy(t);
}
END_TEST

/* ---- the cycle model (hand-counted) ---- */

static uint64_t cycles(struct ttx_tile *t, enum ttx_core core)
{
	struct ttx_core_state s;
	ttx_core_state(t, core, &s);
	return s.cycles;
}

START_TEST(test_cycles)
{
	struct ttx_tile *t = tile();
	/* a counted loop of 10: addi; addi; bne back.  30 instructions at one
	   cycle; the backward bne is predicted taken: right 9 times, wrong at
	   the exit (+2); then ebreak (1): 30 + 2 + 1 + the li (1) */
	PROG(t, TTX_CORE_B, ADDI(A1, ZERO, 10), ADDI(A0, A0, 1), ADDI(A2, A2, 2), BNE(A0, A1, -8), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(cycles(t, TTX_CORE_B), 1 + 30 + 2 + 1);
	/* a forward branch taken is mispredicted: +2 */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_B, BEQ(ZERO, ZERO, 8), ADDI(A0, A0, 1), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(cycles(t, TTX_CORE_B), 1 + 2 + 1);
	/* divide: 2 cycles by 1, else 6-33 by the dividend (100: 7 bits -> 8) */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T0, ADDI(A0, ZERO, 100), ADDI(A1, ZERO, 1), ADDI(A2, ZERO, 3),
	     DIV(S2, A0, A1), DIV(S3, A0, A2), MUL(S4, A0, A2), EBREAK);
	run_ok(t);
	ck_assert_uint_eq(cycles(t, TTX_CORE_T0), 3 + 2 + 8 + 2 + 1);
	/* an L1 load used by the next instruction: latency 8, so 7 stall
	   cycles; a local-RAM load: 2, so 1; two L1 stores enter the store
	   queue at once */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T1, LW(A0, ZERO, 0x100), ADDI(A1, A0, 1),          /* 2 + 7 */
	     LUI(A2, 0xFFB00), LW(A3, A2, 0), ADDI(A4, A3, 1),             /* 3 + 1 */
	     SW(A1, ZERO, 0x104), SW(A1, ZERO, 0x108),                      /* 2 */
	     EBREAK);
	run_ok(t);
	ck_assert_uint_eq(cycles(t, TTX_CORE_T1), (2 + 7) + (3 + 1) + 2 + 1);
	struct ttx_core_state s;
	ttx_core_state(t, TTX_CORE_T1, &s);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_LOAD], 8);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_STORE], 0);
	/* six L1 stores in a row (MemoryOrdering.md: four queue entries, L1
	   written one every 5 cycles): store k enters at cycle k + 1, the
	   writes drain at 2, 7, 12, 17, 22; the sixth needs the second's
	   entry, free at 7: one cycle's wait */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, SW(A1, ZERO, 0x200), SW(A1, ZERO, 0x204), SW(A1, ZERO, 0x208), SW(A1, ZERO, 0x20C),
	     SW(A1, ZERO, 0x210), SW(A1, ZERO, 0x214), EBREAK);
	run_ok(t);
	ttx_core_state(t, TTX_CORE_T2, &s);
	ck_assert_uint_eq(s.cycles, 7 + 1);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_STORE], 1);
	/* an L1 load after a store to its address: the store (entered at 2,
	   behind one entered at 1) writes at 7, so the load (at 3) returns
	   at 7 + 8; used at once: 11 cycles' wait, where another address
	   would give 7 */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, SW(A1, ZERO, 0x300), SW(A1, ZERO, 0x200), LW(A2, ZERO, 0x200), ADDI(A3, A2, 1), EBREAK);
	run_ok(t);
	ttx_core_state(t, TTX_CORE_T2, &s);
	ck_assert_uint_eq(s.cycles, 5 + 11);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_LOAD], 11);
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, SW(A1, ZERO, 0x300), SW(A1, ZERO, 0x200), LW(A2, ZERO, 0x204), ADDI(A3, A2, 1), EBREAK);
	run_ok(t);
	ttx_core_state(t, TTX_CORE_T2, &s);
	ck_assert_uint_eq(s.cycles, 5 + 7);
	/* a load finding the queue full (five stores: entries drain at 7, 12,
	   17, 22) waits for the oldest: 1 cycle, then its 7 */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_T2, SW(A1, ZERO, 0x200), SW(A1, ZERO, 0x204), SW(A1, ZERO, 0x208), SW(A1, ZERO, 0x20C),
	     SW(A1, ZERO, 0x210), LW(A2, ZERO, 0x400), ADDI(A3, A2, 1), EBREAK);
	run_ok(t);
	ttx_core_state(t, TTX_CORE_T2, &s);
	ck_assert_uint_eq(s.cycles, 8 + 1 + 7);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_STORE], 1);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_LOAD], 7);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_push_into_full_fifo)
{
	struct ttx_tile *t = tile();
	/* thread 0 waits on semaphore 0 (SEMWAIT), so nothing drains its FIFO;
	   T0 pushes 40 NOPs: the 33rd push waits; T1 posts the semaphore after
	   counting to 2000, which frees the thread; then all 40 go through */
	uint32_t semwait, post;
	ttx_asm_line("SEMWAIT 0x1FF, 1, 1", &semwait, NULL, 0);   /* all of B0-B8 (which NOP needs) until sem 0 > 0 */
	ttx_asm_line("SEMPOST 1", &post, NULL, 0);
	t->semaphores[0].max = 1;
	ttx_push(t, 0, semwait);
	ttx_push(t, 0, 0x02000000);   /* the NOP after it waits */
	uint32_t p[64];
	size_t n = 0;
	for (int i = 0; i < 40; i++)
		p[n++] = TTINSN(0x02000000u);
	p[n++] = EBREAK;
	load(t, TTX_CORE_T0, 0x8000, p, n);
	PROG(t, TTX_CORE_T1, LI(A1, 2000), ADDI(A0, A0, 1), BNE(A0, A1, -4), LUI(A2, 0xFFE80), SW(ZERO, A2, 0x20),
	     EBREAK);
	run_ok(t);
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns_by_opcode[0x02], 41);
	struct ttx_core_state s;
	ttx_core_state(t, TTX_CORE_T0, &s);
	ck_assert(s.halted);
	ck_assert_uint_eq(s.insns, 41);
	(void)post;
	ttx_tile_destroy(t);
}
END_TEST

/* Under the cycle model a word a core pushes reaches its thread at the
   core's cycle (+ TTX_PUSH_LATENCY), and a push into a full FIFO waits for
   the Tensix cycle the FIFO had room (a FIFO stall, not a wait). */
START_TEST(test_cycles_with_tensix)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .timing = 1 };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	/* T0 counts to 1000 (1 + 2000 + 2 cycles), then pushes a NOP at cycle
	   2003: the thread issues it at 2005 at the earliest */
	PROG(t, TTX_CORE_T0, ADDI(A1, ZERO, 1000), ADDI(A0, A0, 1), BNE(A0, A1, -4), TTINSN(0x02000000u), EBREAK);
	run_ok(t);
	struct ttx_cycles c;
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.issued[0], 1);
	ck_assert_uint_ge(c.device_cycles, 2003 + TTX_PUSH_LATENCY);
	ck_assert_uint_ge(c.stalled[0][TTX_STALL_FRONTEND], 2003 + TTX_PUSH_LATENCY - 1);
	ck_assert_uint_le(c.device_cycles, 2003 + TTX_PUSH_LATENCY + 10);

	/* thread 0 blocked on semaphore 0 until T1 posts it after ~2000 cycles;
	   T0's 40 pushes fill the FIFO (32) and the rest wait for it to drain */
	ttx_tile_reset(t);
	uint32_t semwait;
	ttx_asm_line("SEMWAIT 0x1FF, 1, 1", &semwait, NULL, 0);
	t->semaphores[0].max = 1;
	uint32_t p[64];
	size_t n = 0;
	p[n++] = TTINSN(semwait);
	for (int i = 0; i < 40; i++)
		p[n++] = TTINSN(0x02000000u);
	p[n++] = EBREAK;
	load(t, TTX_CORE_T0, 0x8000, p, n);
	PROG(t, TTX_CORE_T1, LI(A1, 1000), ADDI(A0, A0, 1), BNE(A0, A1, -4), LUI(A2, 0xFFE80), SW(ZERO, A2, 0x20),
	     EBREAK);
	run_ok(t);
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.issued[0], 41);
	struct ttx_core_state s;
	ttx_core_state(t, TTX_CORE_T0, &s);
	ck_assert(s.halted);
	ck_assert_uint_eq(s.stalls[TTX_CORE_STALL_WAIT], 0);
	/* T1 posts at about cycle 2005; T0's 34th push went on only then */
	ck_assert_uint_ge(s.stalls[TTX_CORE_STALL_FIFO], 1900);
	ck_assert_uint_ge(s.cycles, 2005);
	ck_assert_uint_ge(c.device_cycles, s.cycles);
	ttx_tile_destroy(t);
}
END_TEST

/* The mover fills RISCV NC's instruction RAM (TT/BabyRISCV/InstructionRAM.md:
   nothing else can) and rewrites code in L1: either way the cores see the
   new code, not what they decoded before. */
static void mover_copy(struct ttx_tile *t, uint32_t dst, uint32_t src, uint32_t bytes, unsigned mode)
{
	/* TT/TDMA-RISC.md: the parameters, then command 0x40 */
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11000u, src / 16), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11004u, dst / 16), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11008u, bytes / 16), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB1100Cu, mode), TTX_OK);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB11010u, 0x40), TTX_OK);
}

START_TEST(test_code_written_by_the_mover)
{
	struct ttx_tile *t = tile();
	const uint32_t a[4] = { ADDI(A0, ZERO, 77), EBREAK, 0, 0 }, b[4] = { ADDI(A0, ZERO, 88), EBREAK, 0, 0 };
	ck_assert_int_eq(ttx_l1_write(t, 0x5000, a, sizeof(a)), TTX_OK);
	ck_assert_int_eq(ttx_l1_write(t, 0x5100, b, sizeof(b)), TTX_OK);
	mover_copy(t, 0x40000, 0x5000, 16, 1);   /* L1 -> L0 at 0x40000: the instruction RAM */
	ck_assert_int_eq(ttx_core_start(t, TTX_CORE_NC, 0xFFC00000u), TTX_OK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, A0), 77);
	mover_copy(t, 0x40000, 0x5100, 16, 1);
	ck_assert_int_eq(ttx_core_start(t, TTX_CORE_NC, 0xFFC00000u), TTX_OK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_NC, A0), 88);
	/* the same in L1: T0 runs code at 0x6000, the mover replaces it */
	ck_assert_int_eq(ttx_l1_write(t, 0x6000, a, sizeof(a)), TTX_OK);
	ck_assert_int_eq(ttx_core_start(t, TTX_CORE_T0, 0x6000), TTX_OK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, A0), 77);
	mover_copy(t, 0x6000, 0x5100, 16, 3);    /* L1 -> L1 */
	ck_assert_int_eq(ttx_core_start(t, TTX_CORE_T0, 0x6000), TTX_OK);
	run_ok(t);
	ck_assert_uint_eq(reg(t, TTX_CORE_T0, A0), 88);
	/* a store of RISCV NC to its instruction RAM is discarded; a load faults */
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_NC, LUI(A1, 0xFFC00), SW(ZERO, A1, 0), EBREAK);
	run_ok(t);
	ttx_tile_reset(t);
	PROG(t, TTX_CORE_NC, LUI(A1, 0xFFC00), LW(A2, A1, 0), EBREAK);
	run_fault(t, "instruction RAM");
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_disasm)
{
	char buf[64];
	ck_assert_int_eq(ttx_rv_disasm(ADDI(A0, A1, -5), 0, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "addi a0, a1, -5");
	ttx_rv_disasm(SW(A1, SP, 12), 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "sw a1, 12(sp)");
	ttx_rv_disasm(BNE(A0, A1, -8), 0x100, buf, sizeof(buf));
	ck_assert_str_eq(buf, "bne a0, a1, 0xF8");
	ttx_rv_disasm(TTINSN(0x02000000u), 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, ".ttinsn 0x02000000");
	ttx_rv_disasm(MULHSU(T0, T1, T2), 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "mulhsu t0, t1, t2");
	ck_assert_int_eq(ttx_rv_disasm(0xFFFFFFFFu, 0, buf, sizeof(buf)), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("riscv");
	TCase *tc = test_tcase(s, "isa");
	tcase_add_test(tc, test_alu);
	tcase_add_test(tc, test_m_extension);
	tcase_add_test(tc, test_loads_stores);
	tcase_add_test(tc, test_branches_jumps);
	tcase_add_test(tc, test_halt_and_faults);
	tcase_add_test(tc, test_disasm);
	tc = test_tcase(s, "map");
	tcase_add_test(tc, test_push_and_ttinsn);
	tcase_add_test(tc, test_gprs_config_semaphores);
	tcase_add_test(tc, test_mailboxes_pcbufs);
	tcase_add_test(tc, test_ttsync_waits_for_tensix);
	tcase_add_test(tc, test_soft_reset_and_reset_pcs);
	tcase_add_test(tc, test_wall_clock_and_debug);
	tcase_add_test(tc, test_code_written_by_the_mover);
	tc = test_tcase(s, "waiting");
	tcase_add_test(tc, test_polling_and_parking);
	tcase_add_test(tc, test_push_into_full_fifo);
	tc = test_tcase(s, "cycles");
	tcase_add_test(tc, test_cycles);
	tcase_add_test(tc, test_cycles_with_tensix);
	return test_run_suite(s);
}
