/* Helpers for the unpacker / packer tests: configuration by the host (the
 * Config word layout of src/cfg_regs.def, as a kernel's set-up would write
 * it), instructions from assembler text, L1 access. */
#ifndef TTX_PACK_TEST_H
#define TTX_PACK_TEST_H

#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "util.h"

static inline void cfgw(struct ttx_tile *t, unsigned word, uint32_t v)
{
	ck_assert_int_eq(ttx_cfg_write(t, 0, word, v), TTX_OK);
}

static inline void field(struct ttx_tile *t, const char *name, uint32_t v)
{
	ck_assert_msg(ttx_cfg_field_write(t, name, 0, v) == TTX_OK, "%s", ttx_tile_error(t));
}

static inline void thfield(struct ttx_tile *t, unsigned thread, const char *name, uint32_t v)
{
	ck_assert_msg(ttx_cfg_field_write(t, name, thread, v) == TTX_OK, "%s", ttx_tile_error(t));
}

static inline uint32_t asm1(const char *text)
{
	uint32_t w = 0;
	char err[256];
	ck_assert_msg(ttx_asm_line(text, &w, err, sizeof(err)) == TTX_OK, "%s: %s", text, err);
	return w;
}

/* Push assembler lines (separated by ';') to a thread. */
static inline void run_text(struct ttx_tile *t, unsigned thread, const char *lines)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", lines);
	for (char *save = NULL, *l = strtok_r(buf, ";", &save); l; l = strtok_r(NULL, ";", &save))
		ck_assert_int_eq(ttx_push(t, thread, asm1(l)), TTX_OK);
}

static inline void run_ok(struct ttx_tile *t, unsigned thread, const char *lines)
{
	run_text(t, thread, lines);
	ck_assert_msg(ttx_run(t, 0) == TTX_OK, "%s", ttx_tile_error(t));
}

/* Unpacker u: a tile descriptor (format, uncompressed, x_dim; y, z = 1),
   REG2 out format and flags, base address (L1 byte address / 16 - 1), the
   context-0 fields of MultiContextMode (as the vectors use it). */
struct unpack_setup {
	unsigned in, out;
	uint32_t l1;             /* input byte address, multiple of 16 */
	unsigned count;          /* x_dim */
	int to_dst;
	uint32_t reg2_extra;     /* ORed into THCON_SEC<u>_REG2 word 0 */
	uint32_t td0_extra;      /* ORed into TileDescriptor word 0 */
};

static inline void setup_unpacker(struct ttx_tile *t, unsigned u, const struct unpack_setup *s)
{
	unsigned sec = 52 + 40 * u;
	cfgw(t, sec + 0, s->in | 1u << 4 | (uint32_t)s->count << 16 | s->td0_extra);
	cfgw(t, sec + 1, 1u | 1u << 16);
	cfgw(t, sec + 8, s->out | s->reg2_extra);
	cfgw(t, sec + 9, 1u | (s->to_dst ? 1u << 4 : 0));       /* Disable_zero_compress_cntx0, Unpack_if_sel_cntx0 */
	cfgw(t, sec + 12, s->l1 / 16 - 1);                       /* Base_address */
	if (u == 0) {
		cfgw(t, sec + 20, 64);                               /* Dest_cntx0_address: row 4, the first written */
		cfgw(t, sec + 22, s->count);                         /* Tile_x_dim_cntx0 */
	}
}

/* Packer i: L1 output address (multiple of 16), formats, exponent section
   size in 16-byte units, and the fields every case needs (edge masks open,
   zero compression off). */
struct pack_setup {
	unsigned in, out;
	uint32_t l1;
	unsigned exp_section;
	uint32_t word2_extra, word3;
};

static inline void setup_packer(struct ttx_tile *t, unsigned i, const struct pack_setup *s)
{
	static const unsigned base[4] = { 56, 84, 96, 124 };
	cfgw(t, base[i] + 0, (uint32_t)s->exp_section << 16);
	cfgw(t, base[i] + 1, s->l1 / 16 - 1);
	cfgw(t, base[i] + 2, 1u | s->out << 4 | s->in << 8 | s->word2_extra);
	cfgw(t, base[i] + 3, s->word3);
	cfgw(t, 20, 0xFFFF);                                     /* PCK_EDGE_OFFSET_SEC0_mask: every column */
	cfgw(t, 24 + i, 16u << 8);                               /* pack_reads_per_xy_plane */
}

static inline void l1_put(struct ttx_tile *t, uint32_t addr, const void *p, size_t n)
{
	ck_assert_int_eq(ttx_l1_write(t, addr, p, n), TTX_OK);
}

static inline void l1_get(struct ttx_tile *t, uint32_t addr, void *p, size_t n)
{
	ck_assert_int_eq(ttx_l1_read(t, addr, p, n), TTX_OK);
}

#endif
