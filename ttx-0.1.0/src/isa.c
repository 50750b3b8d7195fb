/* Tables generated from src/isa.def, and lookups over them. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "isa.h"

#define NO_FIELDS
#define F(n, lo, w) { #n, lo, w },
#define TTX_INSN(m, op, unit, syn, fields) \
	static const struct ttx_field insn_fields_##m[] = { fields { NULL, 0, 0 } };
#define TTX_LAYOUT(name, page, fields) \
	static const struct ttx_field layout_fields_##name[] = { fields { NULL, 0, 0 } };
#define TTX_VIEW(m, layout, mask, match)
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT

#define NFIELDS(arr) ((uint8_t)(sizeof(arr) / sizeof(arr[0]) - 1))

const struct ttx_insn_info ttx_isa_insns[256] = {
#define TTX_INSN(m, op, unit, syn, fields) \
	[op] = { #m, op, TTX_UNIT_##unit, NFIELDS(insn_fields_##m), syn, insn_fields_##m },
#define TTX_LAYOUT(name, page, fields)
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT
};

static const struct ttx_layout_info layouts[TTX_LAYOUT_COUNT] = {
#define TTX_INSN(m, op, unit, syn, fields)
#define TTX_LAYOUT(name, page, fields) \
	[TTX_LAYOUT_##name] = { #name, page, NFIELDS(layout_fields_##name), layout_fields_##name },
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT
#undef TTX_VIEW
};

struct view { uint8_t opcode; uint16_t layout; uint32_t mask, match; };

static const struct view views[] = {
#define TTX_INSN(m, op, unit, syn, fields)
#define TTX_LAYOUT(name, page, fields)
#define TTX_VIEW(m, layout, mask, match) { TTX_OP_##m, TTX_LAYOUT_##layout, mask, match },
#include "isa.def"
#undef TTX_INSN
#undef TTX_LAYOUT
#undef TTX_VIEW
};
#undef F
#undef NO_FIELDS

/* Mnemonics tt-llk spells differently from the ISA documentation. */
static const struct { const char *alias; uint8_t opcode; } aliases[] = {
	{ "SFP_STOCH_RND", TTX_OP_SFPSTOCHRND },
};

static const char *const unit_names[TTX_UNIT_COUNT] = {
	"frontend", "misc", "matrix", "sfpu", "unpack", "pack", "mover", "scalar", "sync", "config",
};

const struct ttx_insn_info *ttx_isa_find(const char *mnemonic, size_t len)
{
	if (!len)
		return NULL;
	int first = toupper((unsigned char)mnemonic[0]);
	for (unsigned op = 0; op < 256; op++) {
		const char *m = ttx_isa_insns[op].mnemonic;   /* the first letter rules most out */
		if (m && m[0] == first && strncasecmp(m, mnemonic, len) == 0 && m[len] == '\0')
			return &ttx_isa_insns[op];
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strlen(aliases[i].alias) == len && strncasecmp(aliases[i].alias, mnemonic, len) == 0)
			return &ttx_isa_insns[aliases[i].opcode];
	}
	return NULL;
}

const struct ttx_layout_info *ttx_isa_layout_of(uint32_t word)
{
	unsigned opcode = word >> 24;
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		if (views[i].opcode == opcode && (word & views[i].mask) == views[i].match)
			return &layouts[views[i].layout];
	}
	return NULL;
}

const struct ttx_layout_info *ttx_isa_layout(enum ttx_layout_id id)
{
	return (unsigned)id < TTX_LAYOUT_COUNT ? &layouts[id] : NULL;
}

const char *ttx_unit_name(enum ttx_unit unit)
{
	return (unsigned)unit < TTX_UNIT_COUNT ? unit_names[unit] : "?";
}

uint32_t ttx_isa_reserved_bits(const struct ttx_insn_info *insn)
{
	uint32_t used = 0;
	for (unsigned i = 0; i < insn->nfields; i++)
		used |= ((1u << insn->fields[i].width) - 1u) << insn->fields[i].lo;
	return 0xFFFFFFu & ~used;
}
