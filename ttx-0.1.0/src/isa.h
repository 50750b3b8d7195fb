/* Instruction table access, decoding and encoding (src/isa.def). */
#ifndef TTX_ISA_H
#define TTX_ISA_H

#include <stdint.h>
#include <stddef.h>

#include "ttx.h"   /* enum ttx_unit */

enum ttx_opcode {
#define TTX_INSN(m, op, unit, syn, fields) TTX_OP_##m = op,
#define TTX_LAYOUT(name, page, fields)
#define TTX_VIEW(m, layout, mask, match)
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT
#undef TTX_VIEW
};

enum ttx_layout_id {
#define TTX_INSN(m, op, unit, syn, fields)
#define TTX_LAYOUT(name, page, fields) TTX_LAYOUT_##name,
#define TTX_VIEW(m, layout, mask, match)
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT
#undef TTX_VIEW
	TTX_LAYOUT_COUNT
};

struct ttx_field {
	const char *name;
	uint8_t lo, width;
};

struct ttx_insn_info {
	const char *mnemonic;       /* NULL: opcode not in the ISA */
	uint8_t opcode;
	uint8_t unit;               /* enum ttx_unit */
	uint8_t nfields;
	const char *synopsis;
	const struct ttx_field *fields; /* tt-llk operands, descending lo */
};

struct ttx_layout_info {
	const char *name;
	const char *page;
	uint8_t nfields;
	const struct ttx_field *fields;
};

/* The row of an opcode; ->mnemonic is NULL for opcodes outside the ISA. */
extern const struct ttx_insn_info ttx_isa_insns[256];
static inline const struct ttx_insn_info *ttx_isa_insn(unsigned opcode)
{
	return &ttx_isa_insns[opcode & 0xFF];
}
/* Look up a mnemonic (case-insensitive, aliases included); NULL if unknown. */
const struct ttx_insn_info *ttx_isa_find(const char *mnemonic, size_t len);
/* The documented layout that applies to a word, or NULL (undocumented). */
const struct ttx_layout_info *ttx_isa_layout_of(uint32_t word);
const struct ttx_layout_info *ttx_isa_layout(enum ttx_layout_id id);

static inline uint32_t ttx_field_get(uint32_t word, const struct ttx_field *f)
{
	return (word >> f->lo) & ((1u << f->width) - 1u);
}

/* Bits 23:0 that no tt-llk field of the word's opcode covers. */
uint32_t ttx_isa_reserved_bits(const struct ttx_insn_info *insn);

/* Decoded operands of each layout: struct ttx_args_NAME, ttx_decode_NAME(w). */
#define F(n, lo, w) uint32_t n;
#define NO_FIELDS
#define TTX_INSN(m, op, unit, syn, fields)
#define TTX_LAYOUT(name, page, fields) struct ttx_args_##name { fields char unused_; };
#define TTX_VIEW(m, layout, mask, match)
#include "isa.def"
#undef F
#undef TTX_LAYOUT

#define F(n, lo, w) a.n = (word >> (lo)) & ((1u << (w)) - 1u);
#define TTX_LAYOUT(name, page, fields) \
	static inline struct ttx_args_##name ttx_decode_##name(uint32_t word) \
	{ struct ttx_args_##name a; (void)word; fields a.unused_ = 0; return a; }
#include "isa.def"
#undef F
#undef NO_FIELDS
#undef TTX_INSN
#undef TTX_LAYOUT
#undef TTX_VIEW

#endif
