/* libFuzzer target: the assembler.  The input is assembler text for
   ttx_program_parse (any bytes: most inputs are rejected with an error, which
   is fine).  Every instruction word of a program that parses must
   disassemble to text that ttx_asm_line assembles back to the same word;
   anything else aborts.  ASan/UBSan catch memory errors and undefined
   behaviour in the lexer, the expression parser and the encoder. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ttx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ttx_program *p = NULL;
	char err[512];
	if (ttx_program_parse((const char *)data, size, "fuzz", &p, err, sizeof(err)) != TTX_OK)
		return 0;
	for (size_t i = 0; i < ttx_program_size(p); i++) {
		const struct ttx_item *it = ttx_program_item(p, i);
		if (it->kind != TTX_ITEM_INSN)
			continue;
		char text[256];
		uint32_t back = 0;
		ttx_disasm(it->word, text, sizeof(text));
		if (ttx_asm_line(text, &back, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "line %u: 0x%08X disassembles to \"%s\", which does not assemble: %s\n",
			        it->line, it->word, text, err);
			abort();
		}
		if (back != it->word) {
			fprintf(stderr, "line %u: 0x%08X disassembles to \"%s\", which assembles to 0x%08X\n",
			        it->line, it->word, text, back);
			abort();
		}
	}
	ttx_program_free(p);
	return 0;
}
