/* A Wormhole B0 chip (docs/chip.md): the grid and what each kind of tile
 * shows the NoC.  The PCI Express tile's host side is pcie.c, stepping the
 * tiles clock.c, the libttsim interface libttsim.c.
 *
 * Layout (NoC #0 coordinates; NoC/Coordinates.md names the columns and
 * rows, tt-metal's Wormhole SoC descriptor places the endpoints): column 0
 * holds DRAM D0 (y 0, 1, 11) and D1 (5, 6, 7), the PCI Express tile (3)
 * and ARC (10), router-only tiles at 2, 4, 8, 9; column 5 holds D2-D5;
 * rows 0 and 6 the Ethernet tiles; the other 80 are Tensix tiles. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip.h"
#include "riscv.h"

/* DRAM channel endpoints: [channel][k] = (x, y) */
static const uint8_t dram_xy[DRAM_CHANNELS][3][2] = {
	{ { 0, 0 }, { 0, 1 }, { 0, 11 } }, { { 0, 5 }, { 0, 6 }, { 0, 7 } }, { { 5, 0 }, { 5, 1 }, { 5, 11 } },
	{ { 5, 2 }, { 5, 9 }, { 5, 10 } }, { { 5, 3 }, { 5, 4 }, { 5, 8 } }, { { 5, 5 }, { 5, 6 }, { 5, 7 } },
};
/* Ethernet tiles E0-E15 */
static const uint8_t eth_xy[16][2] = {
	{ 9, 0 }, { 1, 0 }, { 8, 0 }, { 2, 0 }, { 7, 0 }, { 3, 0 }, { 6, 0 }, { 4, 0 },
	{ 9, 6 }, { 1, 6 }, { 8, 6 }, { 2, 6 }, { 7, 6 }, { 3, 6 }, { 6, 6 }, { 4, 6 },
};
static const uint8_t tensix_rows[10] = { 1, 2, 3, 4, 5, 7, 8, 9, 10, 11 };
static const uint8_t tensix_cols[8] = { 1, 2, 3, 4, 6, 7, 8, 9 };

enum ttx_status chip_fail(struct ttx_chip *c, enum ttx_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	return st;
}

const char *ttx_tile_kind_name(enum ttx_tile_kind k)
{
	static const char *const names[] = { "none", "Tensix", "DRAM", "PCI Express", "ARC", "Ethernet", "router-only",
	                                     "harvested Tensix" };
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : NULL;
}

struct chip_tile *chip_at(struct ttx_chip *c, unsigned x, unsigned y)
{
	if (x >= 16 || y >= 16) {   /* translated coordinates (both must be) */
		if (x < 16 || y < 16 || x >= 32 || y >= 32 || c->translate_x[x] == 0xFF || c->translate_y[y] == 0xFF)
			return NULL;
		x = c->translate_x[x], y = c->translate_y[y];
	}
	if (x >= CHIP_X || y >= CHIP_Y)
		return NULL;
	return &c->grid[x][y];
}

/* ---- the NIU and overlay registers of a tile (NoC/MemoryMap.md) ---- */

/* The identification and configuration an NIU powers on with, after the
   firmware set up coordinate translation (Coordinates.md). */
static void niu_init(struct ttx_chip *c, struct chip_tile *ct, unsigned noc)
{
	static const uint8_t type[] = { [TTX_TILE_TENSIX] = 0, [TTX_TILE_HARVESTED] = 0, [TTX_TILE_ETH] = 2,
	                                [TTX_TILE_PCIE] = 3, [TTX_TILE_ROUTER] = 3, [TTX_TILE_ARC] = 5,
	                                [TTX_TILE_DRAM] = 8 };
	uint32_t *r = ct->niu[noc];
	unsigned x = noc ? CHIP_X - 1 - ct->x : ct->x, y = noc ? CHIP_Y - 1 - ct->y : ct->y;
	uint32_t node = x | y << 6 | (uint32_t)CHIP_X << 12 | (uint32_t)CHIP_Y << 19 | (noc ? 0 : 1u << 28);
	uint32_t endpoint = ct->index | (uint32_t)ct->group << 8 | (uint32_t)type[ct->kind] << 16 | noc << 24;
	for (unsigned i = 0; i < 4; i++) {   /* repeated after each request initiator */
		r[(0x2C + 0x400 * i) / 4] = node;
		r[(0x30 + 0x400 * i) / 4] = endpoint;
	}
	r[0x100 / 4] = 1u << 14 | (ct->kind == TTX_TILE_HARVESTED ? 1u << 12 : 0);   /* translation on; fused off */
	/* broadcast opt-out: only Tensix tiles receive broadcasts */
	uint32_t cols = 1u << 0 | 1u << 5, rows = 1u << 0 | 1u << 6 | c->harvested_rows;
	if (noc) {
		uint32_t mc = 0, mr = 0;
		for (unsigned i = 0; i < CHIP_X; i++)
			mc |= (cols >> i & 1) << (CHIP_X - 1 - i);
		for (unsigned i = 0; i < CHIP_Y; i++)
			mr |= (rows >> i & 1) << (CHIP_Y - 1 - i);
		cols = mc, rows = mr;
	}
	r[0x108 / 4] = cols;
	r[0x110 / 4] = rows;
	/* the translation tables: 32 entries of 4 bits, translated -> this
	   NoC's coordinates, and NoC coordinates (below 16) to themselves */
	for (unsigned i = 0; i < 32; i++) {
		unsigned tx = i < 16 ? i : c->translate_x[i] == 0xFF ? 0 : c->translate_x[i];
		unsigned ty = i < 16 ? i : c->translate_y[i] == 0xFF ? 0 : c->translate_y[i];
		if (noc && i >= 16)
			tx = c->translate_x[i] == 0xFF ? 0 : CHIP_X - 1 - tx, ty = c->translate_y[i] == 0xFF ? 0 : CHIP_Y - 1 - ty;
		r[0x118 / 4 + i / 8] |= (uint32_t)(tx & 15) << (4 * (i % 8));
		r[0x128 / 4 + i / 8] |= (uint32_t)(ty & 15) << (4 * (i % 8));
	}
	/* NOC_ID_LOGICAL: the coordinates in translated space */
	unsigned lx = ct->x, ly = ct->y;
	for (unsigned i = 16; i < 32; i++) {
		if (c->translate_x[i] == ct->x)
			lx = i;
		if (c->translate_y[i] == ct->y)
			ly = i;
	}
	r[0x138 / 4] = lx | ly << 6;
}

static int niu_read_only(uint32_t off)
{
	uint32_t in = off & 0x3FF;
	return (off < 0x1000 && (in == 0x2C || in == 0x30)) || off == 0x54 || (off >= 0x200 && off < 0x400);
}

/* A 32-bit access to NIU noc's registers at offset off (within 64 KiB);
   a NOC_CMD_CTRL write issues the initiator's request at `cycle`. */
static enum ttx_status niu_access(struct ttx_chip *c, struct chip_tile *ct, unsigned noc, uint32_t off, uint32_t *v,
                                  int store, uint64_t cycle)
{
	if (off >= NIU_REG_BYTES)
		return chip_fail(c, TTX_EINVAL, "NIU #%u register 0x%X of tile (%u, %u): past its 4 KiB of registers", noc,
		                 off, ct->x, ct->y);
	uint32_t *r = &ct->niu[noc][off / 4];
	if (!store) {
		*v = *r;
	} else if (off == 0x50) {   /* clear NIU_MST_REQS_OUTSTANDING_ID(i) for each bit i (Counters.md) */
		for (unsigned i = 0; i < 16; i++)
			if (*v >> i & 1)
				ct->niu[noc][0x200 / 4 + 16 + i] = 0;
	} else if (off < 0x1000 && (off & 0x3FF) == 0x28 && (*v & 1)) {   /* NOC_CMD_CTRL */
		if (ct->kind != TTX_TILE_TENSIX)
			return chip_fail(c, TTX_EINVAL, "NIU #%u of %s tile (%u, %u): its request initiators are not modelled "
			                 "(only Tensix tiles' cores send NoC requests)", noc, ttx_tile_kind_name(ct->kind), ct->x,
			                 ct->y);
		enum ttx_status st = chip_noc_issue(ct, noc, off >> 10, cycle);
		if (st != TTX_OK)
			return chip_fail(c, st, "%s", ttx_tile_error(ct->tile));
	} else if (!niu_read_only(off)) {
		*r = *v;
	}
	return TTX_OK;
}

static enum ttx_status overlay_access(struct ttx_chip *c, struct chip_tile *ct, uint32_t off, uint32_t *v, int store)
{
	if (!ct->overlay && !(ct->overlay = calloc(1, OVERLAY_BYTES)))
		return chip_fail(c, TTX_ENOMEM, "out of memory for the overlay registers of (%u, %u)", ct->x, ct->y);
	if (store)
		memcpy(ct->overlay + off, v, 4);
	else
		memcpy(v, ct->overlay + off, 4);
	return TTX_OK;
}

/* The registers a Tensix (or Ethernet) tile's cores and the NoC share:
   NIU #0, NIU #1, the overlay (0xFFB20000-0xFFB7FFFF). */
static enum ttx_status noc_regs(struct ttx_chip *c, struct chip_tile *ct, uint32_t addr, uint32_t *v, int store,
                                uint64_t cycle)
{
	if (addr >= 0xFFB20000u && addr < 0xFFB40000u)
		return niu_access(c, ct, (addr >> 16) & 1, addr & 0xFFFF, v, store, cycle);
	if (addr >= 0xFFB40000u && addr < 0xFFB80000u)
		return overlay_access(c, ct, addr - 0xFFB40000u, v, store);
	return chip_fail(c, TTX_EINVAL, "0x%08X is not an NIU or overlay register", addr);
}

/* ttx_options.mmio of each Tensix tile: its cores' accesses to the NIU and
   overlay registers (interp/riscv_mmio.c hands them here). */
static int tile_mmio(void *ctx, unsigned thread, uint32_t addr, int store, uint32_t *value)
{
	static const uint8_t core_of[5] = { TTX_CORE_T0, TTX_CORE_T1, TTX_CORE_T2, TTX_CORE_B, TTX_CORE_NC };
	struct chip_tile *ct = ctx;
	if (addr < 0xFFB20000u || addr >= 0xFFB80000u || (addr & 3) || thread >= 5)
		return 1;   /* the PIC and anything else: the access faults as without the chip */
	uint64_t cycle = ct->tile->core[core_of[thread]].cycle;
	if (store && addr < 0xFFB40000u && (addr & 0xF3FF) == 0x28 && (*value & 1))   /* NOC_CMD_CTRL */
		return chip_noc_issue(ct, (addr >> 16) & 1, (addr >> 10) & 3, cycle) != TTX_OK;   /* (the tile has the reason) */
	return noc_regs(ct->chip, ct, addr, value, store, cycle) != TTX_OK;
}

/* ---- DRAM ---- */

static enum ttx_status dram_access(struct ttx_chip *c, struct chip_tile *ct, uint64_t addr, uint8_t *buf, size_t len,
                                   int store)
{
	if (addr >= DRAM_CHANNEL_BYTES || len > DRAM_CHANNEL_BYTES - addr)
		return chip_fail(c, TTX_EINVAL, "DRAM (%u, %u) (channel %u): %zu bytes at 0x%llX are past its 2 GiB", ct->x,
		                 ct->y, ct->group, len, (unsigned long long)addr);
	uint8_t **pages = c->dram[ct->group];
	while (len) {
		size_t page = (size_t)(addr >> DRAM_PAGE_BITS), off = (size_t)(addr & ((1u << DRAM_PAGE_BITS) - 1));
		size_t n = ((size_t)1 << DRAM_PAGE_BITS) - off < len ? ((size_t)1 << DRAM_PAGE_BITS) - off : len;
		if (store) {
			if (!pages[page] && !(pages[page] = calloc(1, (size_t)1 << DRAM_PAGE_BITS)))
				return chip_fail(c, TTX_ENOMEM, "out of memory for DRAM channel %u", ct->group);
			memcpy(pages[page] + off, buf, n);
		} else if (pages[page]) {
			memcpy(buf, pages[page] + off, n);
		} else {
			memset(buf, 0, n);
		}
		buf += n, addr += n, len -= n;
	}
	return TTX_OK;
}

/* ---- the ARC tile (ARCTile/README.md, ResetUnit.md) ---- */

/* An access on the ARC XBAR (its 4 GiB address space). */
enum ttx_status chip_arc_access(struct ttx_chip *c, uint32_t addr, uint8_t *buf, size_t len, int store)
{
	if (addr >= 0x10000000u && addr < 0x10000000u + ARC_CSM_BYTES && len <= 0x10000000u + ARC_CSM_BYTES - addr) {
		if (store)
			memcpy(c->arc_csm + (addr - 0x10000000u), buf, len);
		else
			memcpy(buf, c->arc_csm + (addr - 0x10000000u), len);
		return TTX_OK;
	}
	if (addr >= 0x80030000u && addr < 0x80040000u && len <= 0x80040000u - addr && !(addr & 3) && !(len & 3)) {
		for (size_t i = 0; i < len; i += 4) {
			uint32_t off = addr - 0x80030000u + (uint32_t)i, v;
			if (off == 0x0E0 || off == 0x0E4) {   /* REFCLK_COUNTER: 27 MHz against the 1 GHz AI clock */
				uint64_t ref = c->cycle * 27 / 1000;
				v = off == 0x0E0 ? (uint32_t)ref : (uint32_t)(ref >> 32);
				if (!store)
					memcpy(buf + i, &v, 4);
				continue;
			}
			if (off == 0x328)
				return chip_fail(c, TTX_EINVAL, "ARC reset unit 0x0328: \"not safe to access\" (ResetUnit.md)");
			if (store)
				memcpy(&c->arc_reset_unit[off / 4], buf + i, 4);
			else
				memcpy(buf + i, &c->arc_reset_unit[off / 4], 4);
		}
		return TTX_OK;
	}
	return chip_fail(c, TTX_EINVAL, "ARC XBAR 0x%08X (%zu bytes): only the CSM (0x10000000) and the reset unit "
	                 "(0x80030000, aligned words) are modelled", addr, len);
}

/* ---- a tile's address space from the NoC ---- */

/* 32-bit registers of a Tensix tile the NoC reaches (BabyRISCV/README.md,
   "Memory map", the NoC column): TDMA-RISC, tile control / debug,
   NIUs and overlay. */
enum ttx_status chip_tensix_reg(struct ttx_chip *c, struct chip_tile *ct, uint32_t addr, uint32_t *v, int store,
                                uint64_t cycle)
{
	if (addr >= 0xFFB11000u && addr < 0xFFB13000u) {
		struct ttx_tile *t = ct->tile;
		enum ttx_status st = ttx_rv_access(t, TTX_CORE_B, addr, 4, store, v, 1);
		if (store && st == TTX_OK)
			t->core_epoch++;
		if (st != TTX_OK)
			return chip_fail(c, st == TTX_FAULT ? TTX_EINVAL : st, "tile (%u, %u): %s", ct->x, ct->y,
			                 ttx_tile_error(t));
		return TTX_OK;
	}
	if (addr >= 0xFFB20000u && addr < 0xFFB80000u)
		return noc_regs(c, ct, addr, v, store, cycle);
	if (addr >= 0xFFB13000u && addr < 0xFFB14000u)
		return chip_fail(c, TTX_EINVAL, "tile (%u, %u) address 0x%08X: the PIC is not modelled", ct->x, ct->y, addr);
	return chip_fail(c, TTX_EINVAL, "tile (%u, %u) address 0x%08X: not in what a Tensix tile shows the NoC (L1, "
	                 "0xFFB11000-0xFFB12FFF, NIUs and overlay 0xFFB20000-0xFFB7FFFF)", ct->x, ct->y, addr);
}

static enum ttx_status words(struct ttx_chip *c, struct chip_tile *ct, uint32_t addr, uint8_t *buf, size_t len,
                             int store, enum ttx_status (*reg)(struct ttx_chip *, struct chip_tile *, uint32_t,
                                                               uint32_t *, int, uint64_t))
{
	if ((addr & 3) || (len & 3))
		return chip_fail(c, TTX_EINVAL, "tile (%u, %u): register access of %zu bytes at 0x%08X: registers take "
		                 "aligned 32-bit words", ct->x, ct->y, len, addr);
	for (size_t i = 0; i < len; i += 4) {
		uint32_t v;
		if (store)
			memcpy(&v, buf + i, 4);
		enum ttx_status st = reg(c, ct, addr + (uint32_t)i, &v, store, c->cycle);
		if (st != TTX_OK)
			return st;
		if (!store)
			memcpy(buf + i, &v, 4);
	}
	return TTX_OK;
}

/* NIU registers of tiles other than Tensix and Ethernet: 0xF_FFB2_0000 on
   NoC #0, 0xF_FFB3_0000 on NoC #1 (NoC/MemoryMap.md). */
static enum ttx_status other_niu(struct ttx_chip *c, struct chip_tile *ct, uint32_t addr, uint32_t *v, int store,
                                 uint64_t cycle)
{
	if (addr >= 0xFFB20000u && addr < 0xFFB40000u)
		return niu_access(c, ct, (addr >> 16) & 1, addr & 0xFFFF, v, store, cycle);
	return chip_fail(c, TTX_EINVAL, "0xF_%08X: not an NIU register", addr);
}

enum ttx_status chip_tile_access(struct ttx_chip *c, struct chip_tile *ct, uint64_t addr, void *buf, size_t len,
                                 int store)
{
	uint8_t *b = buf;
	if (addr >= (1ull << 36) || len > (1ull << 36) - addr)
		return chip_fail(c, TTX_EINVAL, "NoC address 0x%llX: addresses are 36 bits", (unsigned long long)addr);
	switch (ct->kind) {
	case TTX_TILE_TENSIX: {
		uint32_t a = (uint32_t)addr;   /* the high 4 bits are ignored ("0x?_FFB2_0000") */
		if (store)
			chip_activate(c, ct);   /* (a release, or data a waiting core polls) */
		if (a < TTX_L1_SIZE && len <= TTX_L1_SIZE - a) {
			enum ttx_status st = store ? ttx_l1_write(ct->tile, a, b, len) : ttx_l1_read(ct->tile, a, b, len);
			return st == TTX_OK ? st : chip_fail(c, st, "tile (%u, %u): %s", ct->x, ct->y, ttx_tile_error(ct->tile));
		}
		if (a < TTX_L1_SIZE)
			return chip_fail(c, TTX_EINVAL, "tile (%u, %u): %zu bytes at 0x%X run past the end of L1 (0x%X)", ct->x,
			                 ct->y, len, a, TTX_L1_SIZE);
		return words(c, ct, a, b, len, store, chip_tensix_reg);
	}
	case TTX_TILE_ETH: {
		uint32_t a = (uint32_t)addr;
		if (a < 0x40000u && len <= 0x40000u - a) {   /* 256 KiB of L1, as storage */
			if (!ct->l1 && !(ct->l1 = calloc(1, 0x40000)))
				return chip_fail(c, TTX_ENOMEM, "out of memory for Ethernet L1");
			if (store)
				memcpy(ct->l1 + a, b, len);
			else
				memcpy(b, ct->l1 + a, len);
			return TTX_OK;
		}
		if (a >= 0xFFB20000u && a < 0xFFB80000u)
			return words(c, ct, a, b, len, store, noc_regs);
		return chip_fail(c, TTX_EINVAL, "Ethernet tile (%u, %u) address 0x%08X: only its L1 and NIU / overlay "
		                 "registers are modelled", ct->x, ct->y, a);
	}
	case TTX_TILE_HARVESTED:
		return chip_fail(c, TTX_EINVAL, "tile (%u, %u) is fused off (harvested row)", ct->x, ct->y);
	case TTX_TILE_NONE:
		return chip_fail(c, TTX_EINVAL, "no tile at (%u, %u)", ct->x, ct->y);
	default:
		break;
	}
	/* the other tiles: 0xF_xxxx_xxxx is their NIUs' registers */
	if (addr >> 32 == 0xF)
		return words(c, ct, (uint32_t)addr, b, len, store, other_niu);
	if (ct->kind == TTX_TILE_DRAM)
		return dram_access(c, ct, addr, b, len, store);
	if (ct->kind == TTX_TILE_ARC) {
		if (addr < 0x800000000ull) {   /* routed to DRAM D0, identity mapping */
			struct chip_tile *d0 = &c->grid[dram_xy[0][0][0]][dram_xy[0][0][1]];
			return dram_access(c, d0, addr, b, len, store);
		}
		if (addr < 0x900000000ull && len <= 0x900000000ull - addr)
			return chip_arc_access(c, (uint32_t)(addr - 0x800000000ull), b, len, store);
	}
	if (ct->kind == TTX_TILE_PCIE && addr >= 0x800000000ull && addr + len <= 0x8FFFE0000ull) {
		/* the outbound iATU's identity mapping to the host */
		if (!(store ? (void *)c->dma_write : (void *)c->dma_read))
			return chip_fail(c, TTX_EINVAL, "a device access to host memory 0x%llX with no DMA callbacks installed",
			                 (unsigned long long)(addr - 0x800000000ull));
		if (store)
			c->dma_write(c->dma_ctx, addr - 0x800000000ull, b, len);
		else
			c->dma_read(c->dma_ctx, addr - 0x800000000ull, b, len);
		return TTX_OK;
	}
	return chip_fail(c, TTX_EINVAL, "%s tile (%u, %u): NoC address 0x%llX (%zu bytes) is not mapped",
	                 ttx_tile_kind_name(ct->kind), ct->x, ct->y, (unsigned long long)addr, len);
}

/* ---- the chip ---- */

static void place(struct ttx_chip *c, unsigned x, unsigned y, enum ttx_tile_kind kind, unsigned index, unsigned group)
{
	struct chip_tile *ct = &c->grid[x][y];
	ct->kind = kind, ct->index = (uint8_t)index, ct->group = (uint8_t)group;
}

static void translation_tables(struct ttx_chip *c)
{
	static const uint8_t x_table[10] = { 0, 5, 1, 2, 3, 4, 6, 7, 8, 9 };   /* translated 16-25 */
	memset(c->translate_x, 0xFF, sizeof(c->translate_x));
	memset(c->translate_y, 0xFF, sizeof(c->translate_y));
	for (unsigned i = 0; i < 10; i++)
		c->translate_x[16 + i] = x_table[i];
	/* rows: Ethernet 0 and 6, then the Tensix rows, harvested ones last */
	unsigned n = 16;
	c->translate_y[n++] = 0, c->translate_y[n++] = 6;
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < 10; i++)
			if ((c->harvested_rows >> tensix_rows[i] & 1) == (unsigned)pass)
				c->translate_y[n++] = tensix_rows[i];
}

enum ttx_status ttx_chip_create(const struct ttx_chip_options *opt, struct ttx_chip **out, char *err, size_t errlen)
{
	struct ttx_chip_options o;
	memset(&o, 0, sizeof(o));
	if (opt) {
		if (opt->size > sizeof(o)) {
			if (err && errlen)
				snprintf(err, errlen, "ttx_chip_create: options of %zu bytes, more than this libttx knows", opt->size);
			return TTX_EINVAL;
		}
		memcpy(&o, opt, opt->size ? opt->size : sizeof(o));
	}
	if (!out) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_chip_create: out is NULL");
		return TTX_EINVAL;
	}
	*out = NULL;
	uint16_t rows_ok = 0;
	for (unsigned i = 0; i < 10; i++)
		rows_ok |= (uint16_t)(1u << tensix_rows[i]);
	if (o.harvested_rows & ~rows_ok) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_chip_create: harvested_rows 0x%X names rows without Tensix tiles (1-5, 7-11)",
			         o.harvested_rows);
		return TTX_EINVAL;
	}
	struct ttx_chip *c = calloc(1, sizeof(*c));
	if (!c)
		goto nomem;
	c->harvested_rows = o.harvested_rows;
	c->bar0_lo = (uint32_t)TTX_CHIP_BAR0_ADDR | 0xC, c->bar0_hi = (uint32_t)(TTX_CHIP_BAR0_ADDR >> 32);
	c->threads = o.threads ? o.threads : 1;
	c->tile_opt = o.tile;
	c->tile_opt.size = sizeof(c->tile_opt);
	c->tile_opt.timing = 1;
	translation_tables(c);
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			struct chip_tile *ct = &c->grid[x][y];
			ct->chip = c, ct->x = (uint8_t)x, ct->y = (uint8_t)y, ct->kind = TTX_TILE_ROUTER, ct->index = 3;
		}
	for (unsigned ch = 0; ch < DRAM_CHANNELS; ch++)
		for (unsigned k = 0; k < 3; k++)
			place(c, dram_xy[ch][k][0], dram_xy[ch][k][1], TTX_TILE_DRAM, k, ch);
	for (unsigned e = 0; e < 16; e++)
		place(c, eth_xy[e][0], eth_xy[e][1], TTX_TILE_ETH, e, 0);
	place(c, 0, 3, TTX_TILE_PCIE, 2, 0);
	place(c, 0, 10, TTX_TILE_ARC, 0, 0);
	unsigned index = 0;
	for (unsigned r = 0; r < 10; r++)
		for (unsigned k = 0; k < 8; k++) {
			unsigned x = tensix_cols[k], y = tensix_rows[r];
			place(c, x, y, c->harvested_rows >> y & 1 ? TTX_TILE_HARVESTED : TTX_TILE_TENSIX, index++, 0);
		}
	for (unsigned ch = 0; ch < DRAM_CHANNELS; ch++)
		if (!(c->dram[ch] = calloc(DRAM_CHANNEL_BYTES >> DRAM_PAGE_BITS, sizeof(uint8_t *))))
			goto nomem;
	if (!(c->arc_csm = calloc(1, ARC_CSM_BYTES)))
		goto nomem;
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			struct chip_tile *ct = &c->grid[x][y];
			for (unsigned noc = 0; noc < 2; noc++) {
				if (!(ct->niu[noc] = calloc(1, NIU_REG_BYTES)))
					goto nomem;
				niu_init(c, ct, noc);
			}
			if (ct->kind != TTX_TILE_TENSIX)
				continue;
			struct ttx_options to = c->tile_opt;
			to.mmio = tile_mmio, to.mmio_ctx = ct;
			char terr[256];
			enum ttx_status st = ttx_tile_create(&to, &ct->tile, terr, sizeof(terr));
			if (st != TTX_OK) {
				if (err && errlen)
					snprintf(err, errlen, "ttx_chip_create: tile (%u, %u): %s", x, y, terr);
				ttx_chip_destroy(c);
				return st;
			}
		}
	*out = c;
	return TTX_OK;
nomem:
	if (err && errlen)
		snprintf(err, errlen, "ttx_chip_create: out of memory");
	ttx_chip_destroy(c);
	return TTX_ENOMEM;
}

void ttx_chip_destroy(struct ttx_chip *c)
{
	if (!c)
		return;
	chip_pool_free(c);
	chip_noc_free(c);
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			struct chip_tile *ct = &c->grid[x][y];
			ttx_tile_destroy(ct->tile);
			free(ct->niu[0]), free(ct->niu[1]), free(ct->overlay), free(ct->l1);
		}
	for (unsigned ch = 0; ch < DRAM_CHANNELS; ch++) {
		if (!c->dram[ch])
			continue;
		for (size_t p = 0; p < DRAM_CHANNEL_BYTES >> DRAM_PAGE_BITS; p++)
			free(c->dram[ch][p]);
		free(c->dram[ch]);
	}
	free(c->arc_csm);
	free(c);
}

const char *ttx_chip_error(const struct ttx_chip *c)
{
	return c ? c->error : "no chip";
}

enum ttx_tile_kind ttx_chip_tile_kind(struct ttx_chip *c, unsigned x, unsigned y)
{
	struct chip_tile *ct = c ? chip_at(c, x, y) : NULL;
	return ct ? ct->kind : TTX_TILE_NONE;
}

struct ttx_tile *ttx_chip_tile(struct ttx_chip *c, unsigned x, unsigned y)
{
	struct chip_tile *ct = c ? chip_at(c, x, y) : NULL;
	if (!ct || !ct->tile)
		return NULL;
	ct->exposed = 1;   /* work may come through the handle: always look */
	chip_activate(c, ct);
	return ct->tile;
}

static enum ttx_status noc_access(struct ttx_chip *c, unsigned x, unsigned y, uint64_t addr, void *buf, size_t len,
                                  int store)
{
	if (!c)
		return TTX_EINVAL;
	if (!buf && len)
		return chip_fail(c, TTX_EINVAL, "ttx_chip_noc_%s: buf is NULL", store ? "write" : "read");
	struct chip_tile *ct = chip_at(c, x, y);
	if (!ct)
		return chip_fail(c, TTX_EINVAL, "no tile at (%u, %u): NoC #0 coordinates are x 0-9, y 0-11; translated "
		                 "ones x 16-25, y 16-27", x, y);
	return chip_tile_access(c, ct, addr, buf, len, store);
}

enum ttx_status ttx_chip_noc_read(struct ttx_chip *c, unsigned x, unsigned y, uint64_t addr, void *buf, size_t len)
{
	return noc_access(c, x, y, addr, buf, len, 0);
}

enum ttx_status ttx_chip_noc_write(struct ttx_chip *c, unsigned x, unsigned y, uint64_t addr, const void *buf,
                                   size_t len)
{
	return noc_access(c, x, y, addr, (void *)buf, len, 1);
}

void ttx_chip_set_dma(struct ttx_chip *c, void (*read)(void *ctx, uint64_t addr, void *buf, size_t len),
                      void (*write)(void *ctx, uint64_t addr, const void *buf, size_t len), void *ctx)
{
	if (!c)
		return;
	c->dma_read = read, c->dma_write = write, c->dma_ctx = ctx;
}

uint64_t ttx_chip_cycles(const struct ttx_chip *c)
{
	return c ? c->cycle : 0;
}
