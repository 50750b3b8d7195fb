/* Scalar Unit (ThCon, TC/ScalarUnit.md): GPR arithmetic, L1/MMIO loads and
 * stores, atomics, REG2FLOP.
 *
 * ttx's model is synchronous.  Where a page says an instruction "completes as
 * soon as the request has been sent" and the rest happens "at some later
 * point" (LOADIND, LOADREG, ATINCGET, STOREIND, STOREREG, ATSWAP), ttx performs
 * the later parts in the same step, in the page's order: when the instruction
 * retires, its memory request has reached L1 (or the MMIO device, or Src) and
 * any result is in the GPR.  So no ThCon memory request is ever outstanding,
 * and FLUSHDMA never waits.
 *
 * Instructions that spin (ATCAS and ATINCGETPTR until their test passes,
 * STOREIND to Src until the bank's AllowedClient is Unpackers) return
 * TTX_BLOCKED without any effect; the thread retries the whole functional
 * model on its next turn.  Meanwhile the Scalar Unit is busy with that
 * instruction, so the other threads' Scalar Unit instructions wait too
 * (TC/ScalarUnit.md: no instruction of another thread can enter the unit
 * until it completes; t->scalar_busy).
 *
 * Undefined behaviour faults with a message naming the instruction: an L1
 * address at or beyond 1464 KiB, an MMIO address below 0xFFB11000, an
 * undefined Mode, a Src address or row out of range.  Addresses are computed
 * in uint32_t exactly as the pages write them, so GPR * 16 wraps at 2^32.
 * GPRs are little-endian in half-register addressing: half-register h is
 * bits 16 * (h & 1) + 15 : 16 * (h & 1) of GPR h >> 1. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "units.h"

#define IMM_FORM (1u << 23)              /* the *DMAREG RightImm variants */
#define MMIO_WINDOW 0xFFB00000u          /* LOADREG / STOREREG / STOREIND MMIO */
#define MMIO_WINDOW_DEFINED 0xFFB11000u  /* lower addresses are undefined */

static int fault(struct ttx_tile *t, unsigned thread, uint32_t word, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fault(struct ttx_tile *t, unsigned thread, uint32_t word, const char *fmt, ...)
{
	char msg[sizeof(t->error)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u: %s",
	                ttx_isa_insn(word >> 24)->mnemonic, word, thread, msg);
}

/* ---- GPRs, L1 ---- */

static inline uint16_t half_get(const uint32_t *g, unsigned h)
{
	return (uint16_t)(g[h >> 1] >> (h & 1) * 16);
}

static inline void half_set(uint32_t *g, unsigned h, uint32_t v)
{
	unsigned s = (h & 1) * 16;
	g[h >> 1] = (g[h >> 1] & ~(0xFFFFu << s)) | (v & 0xFFFFu) << s;
}

/* The *Offset += 0 / 2 / 4 / 16 of OffsetIncrement (LOADIND, STOREIND);
   the 16-bit half-register wraps. */
static const uint16_t offset_increment[4] = { 0, 2, 4, 16 };

static inline uint32_t l1_get32(const struct ttx_tile *t, uint32_t a)
{
	const uint8_t *p = t->l1 + a;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void l1_set32(struct ttx_tile *t, uint32_t a, uint32_t v)
{
	uint8_t *p = t->l1 + a;
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
	ttx_l1_touched(t, a, 4);
}

static inline uint16_t l1_get16(const struct ttx_tile *t, uint32_t a)
{
	return (uint16_t)(t->l1[a] | t->l1[a + 1] << 8);
}

static inline void l1_set16(struct ttx_tile *t, uint32_t a, uint32_t v)
{
	t->l1[a] = (uint8_t)v, t->l1[a + 1] = (uint8_t)(v >> 8);
	ttx_l1_touched(t, a, 2);
}

/* "if (L1Address >= (1464*1024)) UndefinedBehaviour();".  Every access is
   aligned to its size, and L1's size is a multiple of 16, so an address that
   passes this check is followed by the whole access. */
static int l1_check(struct ttx_tile *t, unsigned thread, uint32_t word, uint32_t addr, const char *page)
{
	if (addr < TTX_L1_SIZE)
		return TTX_OK;
	return fault(t, thread, word, "L1 address 0x%08X is outside L1 (0x%X bytes): "
	             "undefined behaviour (%s)", addr, TTX_L1_SIZE, page);
}

/* A 32-bit access in the 0xFFB00000 window (LOADREG, STOREREG, STOREIND
   MMIO).  Below 0xFFB11000 is undefined.  The MOP expander configuration at
   0xFFB80000 is mapped for RISC-V T0-T2 only; the "NoC" column of the memory
   map, which is what the Tensix coprocessor sees, has it unmapped
   (TT/BabyRISCV/README.md).  The rest goes to ttx's MMIO model; what that does
   not model (today: all of TDMA-RISC, debug, PIC, NoC and overlay registers)
   faults. */
static int window_access(struct ttx_tile *t, unsigned thread, uint32_t word, uint32_t addr,
                         uint32_t *value, int store, const char *page)
{
	if (addr < MMIO_WINDOW_DEFINED)
		return fault(t, thread, word, "MMIO address 0x%08X is below 0xFFB11000: undefined behaviour (%s)",
		             addr, page);
	if (addr >= TTX_MMIO_MOP_CFG && addr < TTX_MMIO_MOP_CFG + 9 * 4)
		return fault(t, thread, word, "MMIO address 0x%08X (MOP expander configuration) is not mapped for "
		             "the Tensix coprocessor (TT/BabyRISCV/README.md memory map)", addr);
	enum ttx_status st = store ? ttx_mmio_write(t, thread, addr, *value) : ttx_mmio_read(t, thread, addr, value);
	if (st == TTX_OK)
		return TTX_OK;
	char inner[sizeof(t->error)];
	memcpy(inner, t->error, sizeof(inner));
	return fault(t, thread, word, "MMIO %s at 0x%08X: not modelled by ttx (%s)",
	             store ? "store" : "load", addr, inner);
}

/* The thread's instruction cannot finish yet: it keeps the Scalar Unit. */
static int spin(struct ttx_tile *t, unsigned thread)
{
	t->scalar_busy = (uint8_t)(thread + 1);
	return TTX_BLOCKED;
}

/* ---- SETDMAREG (TC/SETDMAREG_Immediate.md, TC/SETDMAREG_Special.md) ---- */

/* Immediate: half-register ResultHalfReg (0-127) = NewValue, the other half
   of the GPR unchanged.  Special: InputSource 0-9 read packer state (tile
   sizes, AllZeroFlags, exponent histograms; interp/pack.c); 10-15 select no
   value, so Values is all zeros (the page's "set four consecutive GPRs to
   zero").  ResultSize 3 keeps the tile header's reserved
   bits: word 0 bits 31:16, word 1 bits 15:0 and 31:24, word 3. */
static int op_setdmareg(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	uint32_t *g = t->gpr[thread];
	if (!(word & 0x80)) {
		struct ttx_args_SETDMAREG_Immediate a = ttx_decode_SETDMAREG_Immediate(word);
		half_set(g, a.ResultHalfReg, a.NewValue);
		return TTX_OK;
	}
	struct ttx_args_SETDMAREG_Special a = ttx_decode_SETDMAREG_Special(word);
	uint32_t values[4] = { 0, 0, 0, 0 };
	if (a.InputSource <= 9)
		ttx_pack_special_values(t, thread, a.InputSource, a.WhichPackers, values);
	uint32_t *r = &g[(a.ResultHalfReg >> 1) & 0x3C];
	switch (a.ResultSize) {
	case 0:
		half_set(g, a.ResultHalfReg, half_get(values, a.InputHalfReg));
		break;
	case 1:
		g[a.ResultHalfReg >> 1] = values[a.InputHalfReg >> 1];
		break;
	case 2:
		memcpy(r, values, 16);
		break;
	case 3:
		r[0] = (r[0] & 0xFFFF0000u) | (values[0] & 0x0000FFFFu);   /* TileSize */
		r[1] = (r[1] & 0xFF00FFFFu) | (values[1] & 0x00FF0000u);   /* DataFormat, DisableZeroCompression, SpareBits */
		r[2] = values[2];                                           /* AllZeroFlags */
		break;
	}
	return TTX_OK;
}

/* ---- ADDDMAREG, SUBDMAREG, MULDMAREG, BITWOPDMAREG, SHIFTDMAREG, CMPDMAREG ---- */

/* TC/ADDDMAREG.md, TC/SUBDMAREG.md: 32-bit, wrapping at 2^32.
   TC/MULDMAREG.md: low 16 bits of each operand, full 32-bit unsigned product.
   TC/BITWOPDMAREG.md: Mode 0 and, 1 or, 2 xor.
   TC/SHIFTDMAREG.md: Mode 0 left, 1 right (logical); the register form uses
   the low 5 bits of RightReg (a count of 32 shifts by 0), the immediate form
   a 5-bit count.
   TC/CMPDMAREG.md: unsigned; Mode 0 >, 1 <, 2 ==; result 1 or 0.
   Bit 23 selects the RightImm form.  Other Modes are undefined: ttx faults
   and writes nothing. */
static int op_dmareg_alu(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	uint32_t *g = t->gpr[thread];
	int imm = (word & IMM_FORM) != 0;
	uint32_t left, right, result = 0;
	unsigned res, mode = 0;
#define OPERANDS(L, IMMFIELD) do {                                                    \
		if (imm) {                                                            \
			struct ttx_args_##L##i a = ttx_decode_##L##i(word);           \
			left = g[a.LeftReg], right = a.IMMFIELD, res = a.ResultReg;   \
		} else {                                                              \
			struct ttx_args_##L a = ttx_decode_##L(word);                 \
			left = g[a.LeftReg], right = g[a.RightReg], res = a.ResultReg; \
		}                                                                     \
	} while (0)
#define MODE(L) (mode = imm ? ttx_decode_##L##i(word).Mode : ttx_decode_##L(word).Mode)
	switch (word >> 24) {
	case TTX_OP_ADDDMAREG:
		OPERANDS(ADDDMAREG, RightImm6);
		result = left + right;
		break;
	case TTX_OP_SUBDMAREG:
		OPERANDS(SUBDMAREG, RightImm6);
		result = left - right;
		break;
	case TTX_OP_MULDMAREG:
		OPERANDS(MULDMAREG, RightImm6);
		result = (left & 0xFFFFu) * (right & 0xFFFFu);
		break;
	case TTX_OP_BITWOPDMAREG:
		OPERANDS(BITWOPDMAREG, RightImm6);
		switch (MODE(BITWOPDMAREG)) {
		case 0: result = left & right; break;
		case 1: result = left | right; break;
		case 2: result = left ^ right; break;
		default:
			return fault(t, thread, word, "BITWOPDMAREG Mode=%u is undefined (TC/BITWOPDMAREG.md)", mode);
		}
		break;
	case TTX_OP_SHIFTDMAREG:
		OPERANDS(SHIFTDMAREG, RightImm5);
		right &= 0x1F;
		switch (MODE(SHIFTDMAREG)) {
		case 0: result = left << right; break;
		case 1: result = left >> right; break;
		default:
			return fault(t, thread, word, "SHIFTDMAREG Mode=%u is undefined (TC/SHIFTDMAREG.md)", mode);
		}
		break;
	case TTX_OP_CMPDMAREG:
		OPERANDS(CMPDMAREG, RightImm6);
		switch (MODE(CMPDMAREG)) {
		case 0: result = left > right; break;
		case 1: result = left < right; break;
		case 2: result = left == right; break;
		default:
			return fault(t, thread, word, "CMPDMAREG Mode=%u is undefined (TC/CMPDMAREG.md)", mode);
		}
		break;
	default:
		return ttx_fault_undocumented(t, thread, word);
	}
#undef OPERANDS
#undef MODE
	g[res] = result;
	return TTX_OK;
}

/* ---- LOADIND (TC/LOADIND.md) ---- */

/* L1Address = GPR[AddrReg] * 16 + half-register OffsetHalfReg; the offset is
   incremented (wrapping at 16 bits) before the loaded value is written, so a
   result GPR that holds the offset ends with the loaded data.  Size 0: four
   GPRs (ResultReg & 0x3C) from L1Address & ~15; 1: 32 bits from & ~3;
   2: low 16 bits from & ~1; 3: low 8 bits (the rest of the GPR kept). */
static int op_loadind(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_LOADIND a = ttx_decode_LOADIND(word);
	uint32_t *g = t->gpr[thread];
	uint32_t *dst = &g[a.ResultReg & (a.Size ? 0x3Fu : 0x3Cu)];
	uint16_t offset = half_get(g, a.OffsetHalfReg);
	uint32_t addr = g[a.AddrReg] * 16u + offset;
	int r = l1_check(t, thread, word, addr, "TC/LOADIND.md");
	if (r != TTX_OK)
		return r;
	half_set(g, a.OffsetHalfReg, offset + offset_increment[a.OffsetIncrement]);
	switch (a.Size) {
	case 0:
		for (unsigned i = 0; i < 4; i++)
			dst[i] = l1_get32(t, (addr & ~15u) + 4 * i);
		break;
	case 1:
		*dst = l1_get32(t, addr & ~3u);
		break;
	case 2:
		*dst = (*dst & 0xFFFF0000u) | l1_get16(t, addr & ~1u);
		break;
	case 3:
		*dst = (*dst & 0xFFFFFF00u) | t->l1[addr];
		break;
	}
	return TTX_OK;
}

/* ---- STOREIND (TC/STOREIND_L1.md, TC/STOREIND_MMIO.md, TC/STOREIND_Src.md) ---- */

/* L1 (bit 23 set): the address as for LOADIND; the offset is incremented
   before the data GPR is read, as the page orders it, so a data GPR holding
   the offset stores the incremented value.  Size 0: 128 bits from GPRs
   DataReg & 0x3C to L1Address & ~15; 1: 32 bits; 2: low 16; 3: low 8. */
static int storeind_l1(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_STOREIND_L1 a = ttx_decode_STOREIND_L1(word);
	uint32_t *g = t->gpr[thread];
	const uint32_t *src = &g[a.DataReg & (a.Size ? 0x3Fu : 0x3Cu)];
	uint16_t offset = half_get(g, a.OffsetHalfReg);
	uint32_t addr = g[a.AddrReg] * 16u + offset;
	int r = l1_check(t, thread, word, addr, "TC/STOREIND_L1.md");
	if (r != TTX_OK)
		return r;
	half_set(g, a.OffsetHalfReg, offset + offset_increment[a.OffsetIncrement]);
	switch (a.Size) {
	case 0:
		for (unsigned i = 0; i < 4; i++)
			l1_set32(t, (addr & ~15u) + 4 * i, src[i]);
		break;
	case 1:
		l1_set32(t, addr & ~3u, *src);
		break;
	case 2:
		l1_set16(t, addr & ~1u, *src);
		break;
	case 3:
		t->l1[addr] = (uint8_t)*src;
		ttx_l1_touched(t, addr, 1);
		break;
	}
	return TTX_OK;
}

/* MMIO (bits 23:22 = 01): Addr = 0xFFB00000 + ((GPR[AddrReg] + (offset >> 4))
   & 0xFFFFC); the store happens before the offset increment. */
static int storeind_mmio(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_STOREIND_MMIO a = ttx_decode_STOREIND_MMIO(word);
	uint32_t *g = t->gpr[thread];
	uint16_t offset = half_get(g, a.OffsetHalfReg);
	uint32_t addr = MMIO_WINDOW + ((g[a.AddrReg] + (offset >> 4)) & 0x000FFFFCu);
	uint32_t value = g[a.DataReg];
	int r = window_access(t, thread, word, addr, &value, 1, "TC/STOREIND_MMIO.md");
	if (r != TTX_OK)
		return r;
	half_set(g, a.OffsetHalfReg, half_get(g, a.OffsetHalfReg) + offset_increment[a.OffsetIncrement]);
	return TTX_OK;
}

/* BF16 in a GPR (low half Sign,Man(7),Exp(8); high half Sign,Exp,Man) to the
   19-bit Src layout Sign,Man(10),Exp(8). */
static uint32_t read_bf16_lo(uint32_t x)
{
	return (x & 0x8000u) << 3 | (x & 0x7F00u) << 3 | (x & 0x00FFu);
}

static uint32_t read_bf16_hi(uint32_t x)
{
	return (x >> 31) << 18 | ((x >> 16) & 0x7Fu) << 11 | ((x >> 23) & 0xFFu);
}

/* Src (bits 23:22 = 00): four BF16 from GPRs (DataReg & 0x3C) and +1 to
   columns (Addr & 3) * 4 .. +3 of one row, Addr = (GPR[AddrReg] + (offset
   >> 4)) mod 2^20, Addr >= 0x10000 undefined.  SrcB: row Addr >> 2 (< 16,
   else undefined) + Unpackers[1].SrcRow[thread].  SrcA: row (Addr >> 2) - 4;
   a negative row writes nothing; with ThreadConfig SRCA_SET_SetOvrdWithAddr
   the row is used as is (< 64), else it must be < 16 and
   Unpackers[0].SrcRow[thread] is added.  The bank is the unpacker's
   (Unpackers[0/1].SrcBank); until its AllowedClient is Unpackers the
   instruction waits, occupying the Scalar Unit.
   ttx checks the wait before any effect and re-reads everything when it
   retries: the page increments the offset before waiting and samples the
   data and bank before waiting, which differs only if a RISC-V core reads
   the GPR or another thread flips the unpacker bank during the wait.  The
   row checks fault whether or not the instruction would have waited. */
static int storeind_src(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_STOREIND_Src a = ttx_decode_STOREIND_Src(word);
	uint32_t *g = t->gpr[thread];
	unsigned d = a.DataReg & 0x3Cu;
	uint32_t datum[4] = {
		read_bf16_lo(g[d]), read_bf16_hi(g[d]), read_bf16_lo(g[d + 1]), read_bf16_hi(g[d + 1]),
	};
	uint16_t offset = half_get(g, a.OffsetHalfReg);
	uint32_t addr = (g[a.AddrReg] + (offset >> 4)) & 0xFFFFFu;
	if (addr & 0xF0000u)
		return fault(t, thread, word, "Src address 0x%05X has bits 19:16 set: undefined behaviour "
		             "(TC/STOREIND_Src.md)", addr);
	unsigned which = a.StoreToSrcB;
	struct ttx_src_bank *bank = which ? &t->srcb[t->unpacker_src_bank[1]] : &t->srca[t->unpacker_src_bank[0]];
	int row = (int)(addr >> 2);
	int write = 1;
	if (which) {
		if (row >= 16)
			return fault(t, thread, word, "SrcB row %d (Addr 0x%X) is not below 16: undefined behaviour "
			             "(TC/STOREIND_Src.md)", row, addr);
		row += t->unpacker_src_row[1][thread];
	} else {
		row -= 4;
		if (row < 0) {
			write = 0;
		} else if (ttx_thread_cfg_get(t, thread, TTX_THCFG_SRCA_SET_SetOvrdWithAddr)) {
			if (row >= 64)
				return fault(t, thread, word, "SrcA row %d (Addr 0x%X) is not below 64: undefined "
				             "behaviour (TC/STOREIND_Src.md)", row, addr);
		} else {
			if (row >= 16)
				return fault(t, thread, word, "SrcA row %d (Addr 0x%X) is not below 16: undefined "
				             "behaviour (TC/STOREIND_Src.md)", row, addr);
			row += t->unpacker_src_row[0][thread];
		}
	}
	ttx_timing_src_dep(t, thread, 2 * which + (t->unpacker_src_bank[which] & 1));
	if (bank->allowed_client != TTX_SRC_UNPACKERS)
		return spin(t, thread);
	half_set(g, a.OffsetHalfReg, offset + offset_increment[a.OffsetIncrement]);
	if (write) {
		unsigned col0 = (addr & 3) * 4;
		for (unsigned i = 0; i < 4; i++)
			bank->rows[row & 63][col0 + i] = datum[i];   /* SrcRow is 0/16/32/48: row < 64 */
	}
	return TTX_OK;
}

static int op_storeind(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	if (word & (1u << 23))
		return storeind_l1(t, thread, word);
	if (word & (1u << 22))
		return storeind_mmio(t, thread, word);
	return storeind_src(t, thread, word);
}

/* ---- LOADREG, STOREREG (TC/LOADREG.md, TC/STOREREG.md) ---- */

/* 32 bits at 0xFFB00000 + AddrLo * 4 (up to 0xFFBFFFFC); see window_access. */
static int op_loadreg(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_LOADREG a = ttx_decode_LOADREG(word);
	uint32_t value;
	int r = window_access(t, thread, word, MMIO_WINDOW + (a.AddrLo << 2), &value, 0, "TC/LOADREG.md");
	if (r == TTX_OK)
		t->gpr[thread][a.ResultReg] = value;
	return r;
}

static int op_storereg(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_STOREREG a = ttx_decode_STOREREG(word);
	uint32_t value = t->gpr[thread][a.DataReg];
	return window_access(t, thread, word, MMIO_WINDOW + (a.AddrLo << 2), &value, 1, "TC/STOREREG.md");
}

/* ---- Atomics (TC/ATINCGET.md, TC/ATINCGETPTR.md, TC/ATSWAP.md, TC/ATCAS.md) ---- */

/* The 32-bit word at GPR[AddrReg] * 16 + Ofs * 4 gets GPR[InOutReg] added to
   its low IntWidth + 1 bits (IntMask = (2 << IntWidth) - 1: IntWidth 31 is
   the whole word), carries out of the field dropped and the other bits kept;
   GPR[InOutReg] receives the word's original 32 bits (field and the rest). */
static int op_atincget(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ATINCGET a = ttx_decode_ATINCGET(word);
	uint32_t *g = t->gpr[thread];
	uint32_t addr = g[a.AddrReg] * 16u + a.Ofs * 4u;
	int r = l1_check(t, thread, word, addr, "TC/ATINCGET.md");
	if (r != TTX_OK)
		return r;
	uint32_t increment = g[a.InOutReg];
	uint32_t mask = (2u << a.IntWidth) - 1u;
	uint32_t original = l1_get32(t, addr);
	l1_set32(t, addr, ((original + increment) & mask) | (original & ~mask));
	g[a.InOutReg] = original;
	return TTX_OK;
}

/* FIFO control {Rd, Wr, pad, pad} at GPR[AddrReg] * 16.  Size = Wr - Rd
   (32-bit).  Odd Ofs pushes: waits while Size % Capacity == 0 and Size != 0,
   Capacity = 2^(IntWidth - 1), or 0x8000 for IntWidth 0.  Even Ofs pops:
   waits while Size == 0.  Then Words[Ofs] += NoIncr ? 0 : 2^IncrLog2 within
   its low IntWidth bits (IntWidth 0: mask 0, the word is left unchanged), and
   GPR[ResultReg] = the word's original value.  Ofs 2 and 3 update the
   padding words with the pop and push tests, as the model says. */
static int op_atincgetptr(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ATINCGETPTR a = ttx_decode_ATINCGETPTR(word);
	uint32_t *g = t->gpr[thread];
	uint32_t base = g[a.AddrReg] * 16u;
	int r = l1_check(t, thread, word, base, "TC/ATINCGETPTR.md");
	if (r != TTX_OK)
		return r;
	uint32_t increment = (uint32_t)!a.NoIncr << a.IncrLog2;
	uint32_t mask = (1u << a.IntWidth) - 1u;
	uint32_t size = l1_get32(t, base + 4) - l1_get32(t, base);
	int empty = size == 0;
	if (a.Ofs & 1) {
		uint32_t capacity = a.IntWidth ? 1u << (a.IntWidth - 1) : 0x8000u;
		if (size % capacity == 0 && !empty)
			return spin(t, thread);        /* full */
	} else if (empty) {
		return spin(t, thread);
	}
	uint32_t addr = base + 4 * a.Ofs;
	uint32_t original = l1_get32(t, addr);
	l1_set32(t, addr, ((original + increment) & mask) | (original & ~mask));
	g[a.ResultReg] = original;
	return TTX_OK;
}

/* Writes the 16-bit granules selected by Mask (bit i = bytes 2i, 2i+1) of the
   16 bytes at GPR[AddrReg] * 16 from four GPRs (DataReg & 0x3C), or, with
   SingleDataReg (bit 22), from GPR[DataReg] placed at bytes
   (DataReg & 3) * 4 .. +3 and zeros elsewhere.  No GPR is written. */
static int op_atswap(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ATSWAP a = ttx_decode_ATSWAP(word);
	const uint32_t *g = t->gpr[thread];
	uint32_t addr = g[a.AddrReg] * 16u;
	int r = l1_check(t, thread, word, addr, "TC/ATSWAP.md");
	if (r != TTX_OK)
		return r;
	uint32_t data[4] = { 0, 0, 0, 0 };
	if (a.SingleDataReg)
		data[a.DataReg & 3] = g[a.DataReg];
	else
		memcpy(data, &g[a.DataReg & 0x3C], 16);
	for (unsigned i = 0; i < 8; i++)
		if (a.Mask & (1u << i))
			l1_set16(t, addr + 2 * i, data[i >> 1] >> (i & 1) * 16);
	return TTX_OK;
}

/* Waits until the whole 32-bit word at GPR[AddrReg] * 16 + Ofs * 4 equals
   CmpVal (0-15), then writes SetVal (0-15) to the whole word. */
static int op_atcas(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ATCAS a = ttx_decode_ATCAS(word);
	uint32_t addr = t->gpr[thread][a.AddrReg] * 16u + a.Ofs * 4u;
	int r = l1_check(t, thread, word, addr, "TC/ATCAS.md");
	if (r != TTX_OK)
		return r;
	if (l1_get32(t, addr) != a.CmpVal)
		return spin(t, thread);
	l1_set32(t, addr, a.SetVal);
	return TTX_OK;
}

/* ---- REG2FLOP (TC/REG2FLOP_Configuration.md, TC/REG2FLOP_ADC.md) ---- */

/* Configuration (bits 21:20 = 00): Config[StateID][52 + ThConCfgIndex] =
   GPR[InputReg] (SizeSel != 0), or four words at ThConCfgIndex & ~3 from
   GPRs InputReg & ~3 (SizeSel 0).  ThConCfgIndex >= 100 (past the THCON
   section) is undefined.  The Config words with write side effects
   (STATE_RESET_EN 4, RISCV_IC_INVALIDATE 157, PRNG_SEED 164;
   TC/BackendConfiguration.md) all lie outside words 52-151, so a REG2FLOP
   write is a plain store.  Bits 21:20 = 01 have no page: undocumented.
   ADC (bit 21): interp/adc.c. */
static int op_reg2flop(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	const uint32_t *g = t->gpr[thread];
	if (word & (1u << 21)) {
		return ttx_adc_reg2flop(t, thread, word);
	}
	if (word & (1u << 20))
		return ttx_fault_undocumented(t, thread, word);
	struct ttx_args_REG2FLOP_Configuration a = ttx_decode_REG2FLOP_Configuration(word);
	if (a.ThConCfgIndex >= TTX_CFG_GLOBAL_BASE - TTX_CFG_THCON_BASE)
		return fault(t, thread, word, "ThConCfgIndex %u is past the THCON configuration (< %u): undefined "
		             "behaviour (TC/REG2FLOP_Configuration.md)", a.ThConCfgIndex,
		             TTX_CFG_GLOBAL_BASE - TTX_CFG_THCON_BASE);
	uint32_t *cfg = &t->config[ttx_cfg_bank(t, thread)][TTX_CFG_THCON_BASE];
	if (a.SizeSel == 0)
		memcpy(&cfg[a.ThConCfgIndex & ~3u], &g[a.InputReg & ~3u], 16);
	else
		cfg[a.ThConCfgIndex] = g[a.InputReg];
	return TTX_OK;
}

/* ---- Dispatch ---- */

/* Whether t->scalar_busy still names a thread whose spinning instruction
   waits in its slot (a reset or a fault can leave it stale). */
static int busy_owner_waits(const struct ttx_tile *t, unsigned owner)
{
	if (owner >= TTX_THREADS || !t->fe[owner].has_slot)
		return 0;
	unsigned op = t->fe[owner].slot >> 24;
	return op == TTX_OP_ATCAS || op == TTX_OP_ATINCGETPTR || op == TTX_OP_STOREIND;
}

int ttx_scalar_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	if (t->scalar_busy && t->scalar_busy != thread + 1) {
		if (busy_owner_waits(t, t->scalar_busy - 1u))
			return TTX_BLOCKED;
		t->scalar_busy = 0;
	}
	int r;
	switch (word >> 24) {
	case TTX_OP_SETDMAREG:
		r = op_setdmareg(t, thread, word);
		break;
	case TTX_OP_ADDDMAREG: case TTX_OP_SUBDMAREG: case TTX_OP_MULDMAREG:
	case TTX_OP_BITWOPDMAREG: case TTX_OP_SHIFTDMAREG: case TTX_OP_CMPDMAREG:
		r = op_dmareg_alu(t, thread, word);
		break;
	case TTX_OP_DMANOP:
		/* TC/DMANOP.md: no effect. */
		r = TTX_OK;
		break;
	case TTX_OP_FLUSHDMA:
		/* TC/FLUSHDMA.md: waits for conditions C0-C3 (mask 0 = all).  C0,
		   ThCon memory requests outstanding: none, ttx completes them as
		   their instruction retires.  C1-C3, an instruction of this thread
		   in Unpacker 0 / Unpacker 1 / Packer 0: none, ttx's units finish
		   each instruction as it retires.  So it never waits. */
		r = TTX_OK;
		break;
	case TTX_OP_LOADIND:
		r = op_loadind(t, thread, word);
		break;
	case TTX_OP_STOREIND:
		r = op_storeind(t, thread, word);
		break;
	case TTX_OP_LOADREG:
		r = op_loadreg(t, thread, word);
		break;
	case TTX_OP_STOREREG:
		r = op_storereg(t, thread, word);
		break;
	case TTX_OP_ATINCGET:
		r = op_atincget(t, thread, word);
		break;
	case TTX_OP_ATINCGETPTR:
		r = op_atincgetptr(t, thread, word);
		break;
	case TTX_OP_ATSWAP:
		r = op_atswap(t, thread, word);
		break;
	case TTX_OP_ATCAS:
		r = op_atcas(t, thread, word);
		break;
	case TTX_OP_REG2FLOP:
		r = op_reg2flop(t, thread, word);
		break;
	default:
		/* RSTDMA has no page: "undocumented instruction". */
		r = ttx_fault_undocumented(t, thread, word);
		break;
	}
	if (r != TTX_BLOCKED && t->scalar_busy == thread + 1)
		t->scalar_busy = 0;
	return r;
}
