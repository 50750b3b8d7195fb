/* libFuzzer target: the ELF loader of the RISC-V cores (ttx_elf_load,
   src/elf.c).  Any bytes, loaded for each core and for L1 alone: an image
   is placed or refused with a reason, and a refused one changed nothing
   (no L1 page written, no image recorded, the cores' local RAMs and RISCV
   NC's instruction RAM as they were); ASan/UBSan catch the rest.  One
   tile, reset after each image that loads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct snapshot {
	uint32_t code_gen[sizeof(((struct ttx_tile *)0)->code_gen) / sizeof(uint32_t)];
	uint32_t code_gen_iram;
	unsigned nloaded;
	uint32_t local_sum, iram_sum;
};

static uint32_t sum(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void snap(const struct ttx_tile *t, struct snapshot *s)
{
	memcpy(s->code_gen, t->code_gen, sizeof(s->code_gen));
	s->code_gen_iram = t->code_gen_iram;
	s->nloaded = t->nloaded;
	s->local_sum = 0;
	for (unsigned c = 0; c < TTX_CORE_COUNT; c++)
		s->local_sum ^= sum(t->core[c].local, t->core[c].local_size) + c;
	s->iram_sum = sum(t->nc_iram, sizeof(t->nc_iram));
}

static struct ttx_tile *tile;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!tile) {
		struct ttx_options opt = { .engine = TTX_ENGINE_INTERP };
		if (!(tile = ttx_tile_new(&opt)))
			abort();
	}
	for (unsigned core = 0; core <= TTX_CORE_COUNT; core++) {
		struct snapshot before, after;
		snap(tile, &before);
		uint32_t entry = 0;
		enum ttx_status st = ttx_elf_load(tile, (enum ttx_core)core, data, size, &entry);
		if (st == TTX_OK) {
			ttx_tile_reset(tile);
			continue;
		}
		if (st != TTX_EINVAL || !ttx_tile_error(tile)[0]) {
			fprintf(stderr, "a refusal without a reason (status %d)\n", (int)st);
			abort();
		}
		snap(tile, &after);
		if (memcmp(&before, &after, sizeof(before)) != 0) {
			fprintf(stderr, "a refused image changed the tile: %s\n", ttx_tile_error(tile));
			abort();
		}
	}
	return 0;
}
