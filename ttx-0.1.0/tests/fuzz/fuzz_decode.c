/* libFuzzer target: the decoder, the disassembler and the interpreter.  The
   input is a sequence of little-endian 32-bit instruction words (a trailing
   partial word is ignored).  Each word must disassemble to text that
   ttx_asm_line assembles back to the same word (abort otherwise), and
   ttx_isa_layout_of must accept it.  Then all the words run on one tile
   (created once, reset for every input) from thread 0 for at most 10000
   instructions: any status (OK, fault, deadlock, limit) is fine, but
   ASan/UBSan must see no memory error or undefined behaviour. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"
#include "isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ttx_tile *t;
	if (!t && !(t = ttx_tile_new(NULL)))
		abort();
	ttx_tile_reset(t);
	for (size_t i = 0; i + 4 <= size; i += 4) {
		uint32_t w = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 |
		             (uint32_t)data[i + 2] << 16 | (uint32_t)data[i + 3] << 24;
		char text[256], err[512];
		uint32_t back = 0;
		ttx_disasm(w, text, sizeof(text));
		if (ttx_asm_line(text, &back, err, sizeof(err)) != TTX_OK) {
			fprintf(stderr, "0x%08X disassembles to \"%s\", which does not assemble: %s\n", w, text, err);
			abort();
		}
		if (back != w) {
			fprintf(stderr, "0x%08X disassembles to \"%s\", which assembles to 0x%08X\n", w, text, back);
			abort();
		}
		(void)ttx_isa_layout_of(w);
		if (ttx_push(t, 0, w) != TTX_OK)
			abort();
	}
	(void)ttx_run(t, 10000);
	return 0;
}
