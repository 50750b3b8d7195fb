/* The PCI Express tile's host side (PCIExpressTile/README.md, TLBs.md):
 * configuration space, and BAR0: the 186 TLB windows onto the NoC, their
 * configuration, the tile's own NIU registers and the ARC tile's region. */
#include <string.h>

#include "chip.h"

#define TLB_CONFIG 0x1FC00000u
#define NIU0_REGS 0x1FD20000u
#define NIU1_REGS 0x1FDA0000u
#define ARC_BASE 0x1FE00000u

/* ---- configuration space ---- */

enum ttx_status ttx_chip_pci_config_read(struct ttx_chip *c, uint32_t offset, uint32_t *value)
{
	if (!c)
		return TTX_EINVAL;
	if (!value)
		return chip_fail(c, TTX_EINVAL, "ttx_chip_pci_config_read: value is NULL");
	if ((offset & 3) || offset >= 4096)
		return chip_fail(c, TTX_EINVAL, "PCI configuration offset 0x%X: registers are aligned 32-bit words below "
		                 "0x1000", offset);
	switch (offset) {
	case 0x00: *value = 0x401Eu << 16 | 0x1E52u; break;   /* device, vendor */
	case 0x04: *value = c->pci_command & 0xFFFF; break;
	case 0x08: *value = 0x12u << 24; break;               /* class: processing accelerator */
	case 0x10: *value = c->bar0_lo; break;
	case 0x14: *value = c->bar0_hi; break;
	default: *value = 0; break;
	}
	return TTX_OK;
}

enum ttx_status ttx_chip_pci_config_write(struct ttx_chip *c, uint32_t offset, uint32_t value)
{
	if (!c)
		return TTX_EINVAL;
	if ((offset & 3) || offset >= 4096)
		return chip_fail(c, TTX_EINVAL, "PCI configuration offset 0x%X: registers are aligned 32-bit words below "
		                 "0x1000", offset);
	/* BAR0: 64-bit prefetchable memory (0b1100); the size reads back as
	   the bits that stay zero (the usual sizing protocol) */
	if (offset == 0x04)
		c->pci_command = value & 0xFFFF;
	else if (offset == 0x10)
		c->bar0_lo = (value & ~(uint32_t)(TTX_CHIP_BAR0_SIZE - 1)) | 0xC;
	else if (offset == 0x14)
		c->bar0_hi = value;
	return TTX_OK;
}

/* ---- BAR0 ---- */

/* The window holding BAR0 offset off: its index, the bits its offset
   takes (20, 21 or 24) and where it starts. */
static int tlb_window(uint32_t off, unsigned *index, unsigned *bits, uint32_t *base)
{
	if (off < 156u << 20)
		*index = off >> 20, *bits = 20, *base = *index << 20;
	else if (off < 0x0B000000u)
		*index = 156 + ((off - 0x09C00000u) >> 21), *bits = 21, *base = 0x09C00000u + ((*index - 156) << 21);
	else if (off < 0x1F000000u)
		*index = 166 + ((off - 0x0B000000u) >> 24), *bits = 24, *base = 0x0B000000u + ((*index - 166) << 24);
	else
		return 0;
	return 1;
}

/* NoC #1 coordinates to NoC #0's (translated ones are the same on both). */
static unsigned to_noc0(unsigned v, unsigned size, unsigned noc)
{
	return noc && v < 16 ? size - 1 - v : v;
}

static int in_span(unsigned start, unsigned end, unsigned v)
{
	return start <= end ? start <= v && v <= end : v <= end || v >= start;
}

/* A host write to a Tensix tile takes effect when the NoC brings it from
   the PCI Express tile (noc.c): the tile's idle cores and threads take it
   up no earlier (a soft-reset release starts the cores then). */
static void host_lands(struct ttx_chip *c, struct chip_tile *ct, unsigned noc, int mcast, unsigned x0, unsigned y0,
                       unsigned x1, unsigned y1, size_t len)
{
	if (ct->kind != TTX_TILE_TENSIX)
		return;
	chip_activate(c, ct);
	uint64_t when = chip_noc_host_arrival(c, noc, mcast, x0, y0, x1, y1, ct->x, ct->y, len);
	if (ct->tile->cycle_floor < when)
		ct->tile->cycle_floor = when;
}

static enum ttx_status window_access(struct ttx_chip *c, uint32_t off, uint8_t *buf, size_t len, int store)
{
	unsigned index, bits;
	uint32_t base;
	tlb_window(off, &index, &bits, &base);
	if (!(c->tlb_written[index / 64] >> (index % 64) & 1))
		return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: TLB window %u has not been configured (TLBs.md)", off, index);
	if (off - base + len > (1u << bits))
		return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: %zu bytes run past the end of TLB window %u", off, len, index);
	uint64_t cfg = c->tlb[index];
	unsigned n = 36 - bits;                         /* local_offset's width */
	uint64_t addr = (cfg & ((1ull << n) - 1)) << bits | (off - base);
	unsigned x_end = cfg >> n & 63, y_end = cfg >> (n + 6) & 63, x_start = cfg >> (n + 12) & 63;
	unsigned y_start = cfg >> (n + 18) & 63, noc = cfg >> (n + 24) & 1, mcast = cfg >> (n + 25) & 1;
	if (!mcast) {
		struct chip_tile *ct = chip_at(c, to_noc0(x_end, CHIP_X, noc), to_noc0(y_end, CHIP_Y, noc));
		if (!ct)
			return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: TLB window %u points at (%u, %u) on NoC #%u, where there is "
			                 "no tile", off, index, x_end, y_end, noc);
		if (store)
			host_lands(c, ct, noc, 0, 0, 0, 0, 0, len);
		return chip_tile_access(c, ct, addr, buf, len, store);
	}
	if (!store)
		return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: TLB window %u is a multicast window: it takes writes only", off,
		                 index);
	/* a broadcast write: every Tensix tile of the rectangle (the others
	   opt out, NoC/MemoryMap.md ROUTER_CFG_1/3); a start past the end
	   wraps around (MemoryMap.md "NOC_TARG_ADDR and NOC_RET_ADDR") */
	struct chip_tile *a = chip_at(c, to_noc0(x_start, CHIP_X, noc), to_noc0(y_start, CHIP_Y, noc));
	struct chip_tile *b = chip_at(c, to_noc0(x_end, CHIP_X, noc), to_noc0(y_end, CHIP_Y, noc));
	if (!a || !b)
		return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: TLB window %u's rectangle (%u, %u)-(%u, %u) is off the grid", off,
		                 index, x_start, y_start, x_end, y_end);
	unsigned u0 = noc ? CHIP_X - 1 - a->x : a->x, u1 = noc ? CHIP_X - 1 - b->x : b->x;   /* the NoC's own */
	unsigned v0 = noc ? CHIP_Y - 1 - a->y : a->y, v1 = noc ? CHIP_Y - 1 - b->y : b->y;
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			unsigned u = noc ? CHIP_X - 1 - x : x, v = noc ? CHIP_Y - 1 - y : y;
			if (c->grid[x][y].kind != TTX_TILE_TENSIX || !in_span(u0, u1, u) || !in_span(v0, v1, v))
				continue;
			host_lands(c, &c->grid[x][y], noc, 1, a->x, a->y, b->x, b->y, len);
			enum ttx_status st = chip_tile_access(c, &c->grid[x][y], addr, buf, len, 1);
			if (st != TTX_OK)
				return st;
		}
	return TTX_OK;
}

static enum ttx_status bar_access(struct ttx_chip *c, uint64_t offset, void *buf, size_t len, int store)
{
	if (!c)
		return TTX_EINVAL;
	uint8_t *b = buf;
	if (!b && len)
		return chip_fail(c, TTX_EINVAL, "ttx_chip_bar_%s: buf is NULL", store ? "write" : "read");
	if (offset >= TTX_CHIP_BAR0_SIZE || len > TTX_CHIP_BAR0_SIZE - offset)
		return chip_fail(c, TTX_EINVAL, "BAR0 offset 0x%llX (%zu bytes): past BAR0's 512 MiB",
		                 (unsigned long long)offset, len);
	uint32_t off = (uint32_t)offset;
	unsigned index, bits;
	uint32_t base;
	if (tlb_window(off, &index, &bits, &base))
		return window_access(c, off, b, len, store);
	if (off >= TLB_CONFIG && off < TLB_CONFIG + TLB_COUNT * 8) {   /* uint64_t config[186] */
		uint32_t o = off - TLB_CONFIG;
		if ((o & 3) || (len & 3) || o + len > TLB_COUNT * 8)
			return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: TLB configuration takes aligned 32-bit or 64-bit accesses",
			                 off);
		if (store) {
			memcpy((uint8_t *)c->tlb + o, b, len);
			for (uint32_t i = o / 8; i <= (o + (uint32_t)len - 1) / 8; i++)
				c->tlb_written[i / 64] |= 1ull << (i % 64);
		} else {
			memcpy(b, (uint8_t *)c->tlb + o, len);
		}
		return TTX_OK;
	}
	struct chip_tile *pcie = &c->grid[0][3];
	if ((off >= NIU0_REGS && off < NIU0_REGS + 0x1000) || (off >= NIU1_REGS && off < NIU1_REGS + 0x1000)) {
		uint32_t noc_addr = (off >= NIU1_REGS ? 0xFFB30000u : 0xFFB20000u) + (off & 0xFFF);
		if (len > 0x1000 - (off & 0xFFF))
			return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: %zu bytes run past the NIU's registers", off, len);
		return chip_tile_access(c, pcie, 0xF00000000ull | noc_addr, b, len, store);
	}
	if (off >= ARC_BASE + 0x80000u && off < ARC_BASE + 0x100000u)   /* the CSM */
		return chip_arc_access(c, 0x10000000u + (off - ARC_BASE - 0x80000u), b, len, store);
	if (off >= ARC_BASE + 0x100000u)                                 /* APB peripherals */
		return chip_arc_access(c, 0x80000000u + (off - ARC_BASE - 0x100000u), b, len, store);
	return chip_fail(c, TTX_EINVAL, "BAR0 0x%08X: reserved (PCIExpressTile/README.md)", off);
}

enum ttx_status ttx_chip_bar_read(struct ttx_chip *c, uint64_t offset, void *buf, size_t len)
{
	return bar_access(c, offset, buf, len, 0);
}

enum ttx_status ttx_chip_bar_write(struct ttx_chip *c, uint64_t offset, const void *buf, size_t len)
{
	return bar_access(c, offset, (void *)buf, len, 1);
}
