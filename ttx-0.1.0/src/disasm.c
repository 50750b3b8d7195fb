/* Disassembler: instruction word -> text that reassembles to the same word. */
#include <stdio.h>
#include <string.h>

#include "ttx.h"
#include "isa.h"

static int put(char *buf, size_t len, size_t *n, const char *fmt, unsigned v, const char *s)
{
	int k = s ? snprintf(buf + *n, len - *n, fmt, s) : snprintf(buf + *n, len - *n, fmt, v);
	if (k < 0 || (size_t)k >= len - *n) {
		*n = len - 1;
		return -1;
	}
	*n += (size_t)k;
	return 0;
}

/* Operands print as tt-llk orders them; small values in decimal, others in
   hex.  Words of unknown opcodes or with bits outside every operand print as
   .word (return 1) so the output still reassembles to the same word. */
int ttx_disasm(uint32_t word, char *buf, size_t len)
{
	const struct ttx_insn_info *insn = ttx_isa_insn(word >> 24);
	size_t n = 0;
	if (!len)
		return 1;
	buf[0] = '\0';
	if (!insn->mnemonic) {
		snprintf(buf, len, ".word 0x%08X  # unknown opcode 0x%02X", word, word >> 24);
		return 1;
	}
	uint32_t reserved = word & ttx_isa_reserved_bits(insn);
	if (reserved) {
		snprintf(buf, len, ".word 0x%08X  # %s with bits 0x%06X outside its operands",
		         word, insn->mnemonic, reserved);
		return 1;
	}
	put(buf, len, &n, "%s", 0, insn->mnemonic);
	for (unsigned i = 0; i < insn->nfields; i++) {
		unsigned v = ttx_field_get(word, &insn->fields[i]);
		put(buf, len, &n, i ? ", " : " ", 0, NULL);
		put(buf, len, &n, v < 10 ? "%u" : "0x%X", v, NULL);
	}
	const struct ttx_layout_info *lay = ttx_isa_layout_of(word);
	if (lay && strcmp(insn->mnemonic, lay->name) != 0)
		put(buf, len, &n, "  # %s", 0, lay->name);
	return 0;
}
