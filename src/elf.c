/* Loading ELF32 RISC-V images into a tile's memories, as embedded loaders
 * do: every PT_LOAD segment at its load address (p_paddr), p_filesz bytes
 * from the file and zeros up to p_memsz; start-up code copies initialised
 * data to its run address itself (docs/riscv.md "Loading programs").
 * Field layouts: the System V ABI's ELF header and program header. */
#include <stdio.h>
#include <string.h>

#include "tile.h"

#define EM_RISCV 243
#define PT_LOAD 1

static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }

static const char *const core_ids[TTX_CORE_COUNT] = { "brisc", "trisc0", "trisc1", "trisc2", "ncrisc" };

/* The bytes of [addr, addr + len) in the memory core sees there, and
   whether it holds code; NULL when it is not inside one memory. */
static uint8_t *memory_at(struct ttx_tile *t, unsigned core, uint32_t addr, uint32_t len, int *exec)
{
	*exec = 0;
	if (addr < TTX_L1_SIZE && len <= TTX_L1_SIZE - addr) {
		*exec = 1;
		return t->l1 + addr;
	}
	if (core >= TTX_CORE_COUNT)
		return NULL;
	uint32_t size = t->core[core].local_size;
	if (addr - TTX_MMIO_LOCAL < size && len <= size - (addr - TTX_MMIO_LOCAL))
		return t->core[core].local + (addr - TTX_MMIO_LOCAL);
	if (core == TTX_CORE_NC && addr - TTX_MMIO_NC_IRAM < sizeof(t->nc_iram) &&
	    len <= sizeof(t->nc_iram) - (addr - TTX_MMIO_NC_IRAM)) {
		*exec = 1;
		return t->nc_iram + (addr - TTX_MMIO_NC_IRAM);
	}
	return NULL;
}

enum ttx_status ttx_elf_load(struct ttx_tile *t, enum ttx_core core, const void *image, size_t len, uint32_t *entry)
{
	if (!t)
		return TTX_EINVAL;
	const uint8_t *e = image;
	const char *who = (unsigned)core < TTX_CORE_COUNT ? core_ids[core] : "L1 only";
	if ((unsigned)core > TTX_CORE_COUNT)
		return ttx_fail(t, TTX_EINVAL, "core %d does not exist", (int)core);
	if (!e || len < 52 || memcmp(e, "\177ELF", 4) != 0)
		return ttx_fail(t, TTX_EINVAL, "not an ELF file%s", e && len < 52 ? " (truncated header)" : "");
	if (e[4] != 1)
		return ttx_fail(t, TTX_EINVAL, "ELF class %u: the cores run 32-bit code (ELFCLASS32)", e[4]);
	if (e[5] != 1)
		return ttx_fail(t, TTX_EINVAL, "ELF data encoding %u: the cores are little-endian", e[5]);
	if (get16(e + 18) != EM_RISCV)
		return ttx_fail(t, TTX_EINVAL, "ELF machine %u: not RISC-V (%u)", get16(e + 18), EM_RISCV);
	if (get16(e + 16) != 2)
		return ttx_fail(t, TTX_EINVAL, "ELF type %u: not an executable (link it first)", get16(e + 16));
	uint32_t entry_pc = get32(e + 24), phoff = get32(e + 28), phentsize = get16(e + 42), phnum = get16(e + 44);
	if (phentsize < 32 || phoff > len || (uint64_t)phnum * phentsize > len - phoff)
		return ttx_fail(t, TTX_EINVAL, "corrupt ELF: the program headers (%u x %u bytes at %u) lie outside the "
		                "%zu-byte file", phnum, phentsize, phoff, len);
	/* check every segment before writing any */
	unsigned nload = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < phnum; i++) {
			const uint8_t *ph = e + phoff + (size_t)i * phentsize;
			if (get32(ph) != PT_LOAD || get32(ph + 20) == 0)
				continue;
			uint32_t off = get32(ph + 4), paddr = get32(ph + 12), filesz = get32(ph + 16), memsz = get32(ph + 20);
			if (filesz > memsz || off > len || filesz > len - off)
				return ttx_fail(t, TTX_EINVAL, "corrupt ELF: segment %u's %u bytes at offset %u (memsz %u) lie "
				                "outside the %zu-byte file", i, filesz, off, memsz, len);
			int exec;
			uint8_t *dst = memory_at(t, core, paddr, memsz, &exec);
			if (!dst)
				return ttx_fail(t, TTX_EINVAL, "segment %u (0x%08X-0x%08X) is outside every memory %s%s", i, paddr,
				                paddr + memsz - 1, (unsigned)core < TTX_CORE_COUNT ? "of " : "",
				                (unsigned)core < TTX_CORE_COUNT ? who : "this load may use (L1; give CORE=FILE for "
				                "a core's local memories)");
			if (pass == 0) {
				/* L1 another core's image took */
				for (unsigned k = 0; paddr < TTX_L1_SIZE && k < t->nloaded; k++)
					if (t->loaded[k].core != core && paddr < t->loaded[k].end && t->loaded[k].start < paddr + memsz)
						return ttx_fail(t, TTX_EINVAL, "segment %u (0x%08X-0x%08X) overlaps L1 that %s's image "
						                "holds (0x%08X-0x%08X)", i, paddr, paddr + memsz - 1,
						                t->loaded[k].core < TTX_CORE_COUNT ? core_ids[t->loaded[k].core] : "another",
						                t->loaded[k].start, t->loaded[k].end - 1);
				nload++;
				continue;
			}
			memcpy(dst, e + off, filesz);
			memset(dst + filesz, 0, memsz - filesz);
			if (paddr < TTX_L1_SIZE) {
				ttx_l1_touched(t, paddr, memsz);
				if (t->nloaded < sizeof(t->loaded) / sizeof(t->loaded[0]))
					t->loaded[t->nloaded++] = (struct ttx_loaded){ paddr, paddr + memsz, (uint8_t)core };
			} else if (exec) {
				t->code_gen_iram++;
			}
		}
		if (pass == 0 && !nload)
			return ttx_fail(t, TTX_EINVAL, "the ELF file has no loadable segment");
		if (pass == 0 && (unsigned)core < TTX_CORE_COUNT) {
			int exec;
			if (!memory_at(t, core, entry_pc, 4, &exec) || !exec || (entry_pc & 3))
				return ttx_fail(t, TTX_EINVAL, "the entry point 0x%08X is not in memory %s executes from "
				                "(L1%s)", entry_pc, who, core == TTX_CORE_NC ? " or its instruction RAM" : "");
		}
	}
	if (entry)
		*entry = entry_pc;
	return TTX_OK;
}
