/* Tile life cycle, power-on state and host access to the state. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"

const struct ttx_cfg_field_info ttx_cfg_fields[TTX_CFG_FIELD_COUNT] = {
#define TTX_CFG_FIELD(name, word, shift, width) { #name, word, shift, width },
#define TTX_THCFG_FIELD(name, index, shift, width)
#include "cfg_regs.def"
#undef TTX_CFG_FIELD
#undef TTX_THCFG_FIELD
};

const struct ttx_cfg_field_info ttx_thread_cfg_fields[TTX_THCFG_FIELD_COUNT] = {
#define TTX_CFG_FIELD(name, word, shift, width)
#define TTX_THCFG_FIELD(name, index, shift, width) { #name, index, shift, width },
#include "cfg_regs.def"
#undef TTX_CFG_FIELD
#undef TTX_THCFG_FIELD
};

enum ttx_status ttx_fail(struct ttx_tile *t, enum ttx_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->error, sizeof(t->error), fmt, ap);
	va_end(ap);
	return st;
}

void ttx_warn(struct ttx_tile *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	if (!t->opt.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->opt.warn(t->opt.warn_ctx, msg);
}

enum ttx_status ttx_fault_undocumented(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	const struct ttx_insn_info *insn = ttx_isa_insn(word >> 24);
	if (!insn->mnemonic)
		return ttx_fail(t, TTX_FAULT, "illegal opcode 0x%02X (0x%08X) at thread %u",
		                word >> 24, word, thread);
	if (!ttx_isa_layout_of(word))
		return ttx_fail(t, TTX_FAULT, "undocumented instruction %s (0x%08X) at thread %u",
		                insn->mnemonic, word, thread);
	return ttx_fail(t, TTX_FAULT, "%s (0x%08X) at thread %u reached a unit that has no handler for it "
	                "(a ttx bug: please report it)", insn->mnemonic, word, thread);
}

const char *ttx_version(void)
{
	return PACKAGE_VERSION;
}

enum ttx_status ttx_tile_alloc(const struct ttx_options *opt, struct ttx_tile **out, char *err, size_t errlen)
{
	struct ttx_options o;
	memset(&o, 0, sizeof(o));
	o.engine = TTX_ENGINE_AUTO;
	if (out)
		*out = NULL;
#define TILE_ERROR(st, ...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return st; } while (0)
	if (!out)
		TILE_ERROR(TTX_EINVAL, "ttx_tile_create: no place for the tile (out is NULL)");
	if (opt) {
		/* size 0: the fields of this header; less: an older header's
		   (the rest stays 0); more: a newer header than this library */
		if (opt->size > sizeof(o))
			TILE_ERROR(TTX_EINVAL, "ttx_options.size %zu: this libttx (%s) knows %zu bytes of options; "
			           "it is older than the ttx.h the caller was built with", opt->size, PACKAGE_VERSION,
			           sizeof(o));
		memcpy(&o, opt, opt->size ? opt->size : sizeof(o));
	}
	if ((unsigned)o.engine > TTX_ENGINE_AUTO)
		TILE_ERROR(TTX_EINVAL, "engine %u is not an engine (TTX_ENGINE_INTERP, _JIT or _AUTO)", (unsigned)o.engine);
	if ((unsigned)o.numerics > TTX_NUMERICS_FAST)
		TILE_ERROR(TTX_EINVAL, "numerics %u is not a mode (TTX_NUMERICS_EXACT or _FAST)", (unsigned)o.numerics);
	struct ttx_tile *t = calloc(1, sizeof(*t));
	if (t)
		t->l1 = calloc(1, TTX_L1_SIZE);
	if (!t || !t->l1) {
		free(t);
		TILE_ERROR(TTX_ENOMEM, "out of memory for a tile (about 2 MiB)");
	}
#undef TILE_ERROR
	t->opt = o;
	ttx_tile_reset(t);
	*out = t;
	return TTX_OK;
}

void ttx_tile_destroy(struct ttx_tile *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < TTX_THREADS; i++)
		free(t->pipe[i].words);
	if (t->entry.jit_free)
		t->entry.jit_free(t);
	if (t->entry.units_free)
		t->entry.units_free(t);
	if (t->attachment_free)
		t->attachment_free(t->attachment);
	free(t->l1);
	free(t);
}

/* LReg 8-15 are constants (TC/LReg.md).  LReg 11-14 take the values that the
   reference vectors observe after reset: the documented SFPCONFIG defaults for
   11, 13 and 14, but 12 = 1/512 (docs: 1/65536), see docs/departures.md. */
static void reset_sfpu(struct ttx_sfpu *s)
{
	static const uint32_t consts[8] = {
		0x3F56594B, 0x00000000, 0x3F800000, 0xBF800000,
		0x3B000000, 0xBF2CC4C7, 0xBEB08FF9, 0,
	};
	memset(s, 0, sizeof(*s));
	for (unsigned lane = 0; lane < TTX_LANES; lane++) {
		for (unsigned r = 8; r < 15; r++)
			s->lreg[r][lane] = consts[r - 8];
		s->lreg[15][lane] = 2 * lane;
	}
	/* The reference starts with conditional execution enabled and every lane
	   flag set; the documentation says both false (docs/departures.md). */
	s->lane_flags = 0xFFFFFFFFu;
	s->use_lane_flags = 0xFFFFFFFFu;
}

void ttx_tile_reset(struct ttx_tile *t)
{
	if (!t)
		return;
	memset(t->l1, 0, TTX_L1_SIZE);
	memset(t->dst, 0, sizeof(t->dst));
	memset(t->srca, 0, sizeof(t->srca));
	memset(t->srcb, 0, sizeof(t->srcb));
	t->matrix_srca_bank = t->matrix_srcb_bank = 0;
	memset(t->dst_undefined, 0, sizeof(t->dst_undefined));
	t->matrix_last_srca_row = 0;
	t->unpacker_src_bank[0] = t->unpacker_src_bank[1] = 0;
	memset(t->unpacker_src_row, 0, sizeof(t->unpacker_src_row));
	memset(t->unpacker_context, 0, sizeof(t->unpacker_context));
	memset(t->unpacker_setreg_acc, 0, sizeof(t->unpacker_setreg_acc));
	memset(t->adc, 0, sizeof(t->adc));
	memset(t->packer, 0, sizeof(t->packer));
	for (unsigned i = 0; i < 4; i++)   /* NeedsNewAddress is true on reset */
		t->packer[i].rsi.needs_new = t->packer[i].exps.needs_new = t->packer[i].data.needs_new = 1;
	/* TDMA-RISC: "some value" on reset (TT/SoftReset.md); ttx: 0 */
	memset(t->pack_setreg_base, 0, sizeof(t->pack_setreg_base));
	memset(t->unpack_setreg_base, 0, sizeof(t->unpack_setreg_base));
	memset(t->pack_setreg_scaler, 0, sizeof(t->pack_setreg_scaler));
	t->pack_reg_addr_raw = t->unpack_reg_addr_raw = t->scaler_raw = 0;
	memset(t->mover_params, 0, sizeof(t->mover_params));
	memset(t->mover_cmd_base, 0, sizeof(t->mover_cmd_base));
	t->scalar_busy = 0;
	reset_sfpu(&t->sfpu);
	memset(t->rwc, 0, sizeof(t->rwc));
	memset(t->config, 0, sizeof(t->config));
	memset(t->thread_config, 0, sizeof(t->thread_config));
	memset(t->gpr, 0, sizeof(t->gpr));
	memset(t->semaphores, 0, sizeof(t->semaphores));
	memset(t->mutex_owner, -1, sizeof(t->mutex_owner));
	memset(t->wait_gate, 0, sizeof(t->wait_gate));
	t->round = t->rdcfg_round = 0;
	t->rdcfg_thread = 0;
	memset(t->mop, 0, sizeof(t->mop));
	memset(t->fe, 0, sizeof(t->fe));
	for (unsigned i = 0; i < TTX_THREADS; i++) {
		t->pipe[i].head = t->pipe[i].tail = 0;
		t->pipe[i].blocked = false;
	}
	memset(t->jit_skip, 0, sizeof(t->jit_skip));
	memset(&t->stats, 0, sizeof(t->stats));
	memset(t->op_counts, 0, sizeof(t->op_counts));
	t->error[0] = '\0';
	ttx_timing_reset(t);
}

const char *ttx_tile_error(const struct ttx_tile *t)
{
	if (!t)
		return "no tile (NULL)";
	return t->error;
}

/* ---- L1, Dst, LRegs, GPRs ---- */

enum ttx_status ttx_l1_read(struct ttx_tile *t, uint32_t addr, void *buf, size_t len)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!buf)
		return ttx_fail(t, TTX_EINVAL, "ttx_l1_read: buf is NULL");
	if (addr > TTX_L1_SIZE || len > TTX_L1_SIZE - addr)
		return ttx_fail(t, TTX_EINVAL, "L1 read of %zu bytes at 0x%X is outside L1 (0x%X bytes)",
		                len, addr, TTX_L1_SIZE);
	memcpy(buf, t->l1 + addr, len);
	return TTX_OK;
}

enum ttx_status ttx_l1_write(struct ttx_tile *t, uint32_t addr, const void *buf, size_t len)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!buf)
		return ttx_fail(t, TTX_EINVAL, "ttx_l1_write: buf is NULL");
	if (addr > TTX_L1_SIZE || len > TTX_L1_SIZE - addr)
		return ttx_fail(t, TTX_EINVAL, "L1 write of %zu bytes at 0x%X is outside L1 (0x%X bytes)",
		                len, addr, TTX_L1_SIZE);
	memcpy(t->l1 + addr, buf, len);
	return TTX_OK;
}

void ttx_dst16_read(const struct ttx_tile *t, uint16_t *out)
{
	if (!t || !out)
		return;
	memcpy(out, t->dst, sizeof(t->dst));
}

void ttx_dst16_write(struct ttx_tile *t, const uint16_t *in)
{
	if (!t || !in)
		return;
	memcpy(t->dst, in, sizeof(t->dst));
}

void ttx_dst32_read(const struct ttx_tile *t, uint32_t *out)
{
	if (!t || !out)
		return;
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			out[r * TTX_COLS + c] = ttx_unshuffle_fp32(ttx_dst32_get(t, r, c));
}

void ttx_dst32_write(struct ttx_tile *t, const uint32_t *in)
{
	if (!t || !in)
		return;
	for (unsigned r = 0; r < TTX_DST_ROWS32; r++)
		for (unsigned c = 0; c < TTX_COLS; c++)
			ttx_dst32_set(t, r, c, ttx_shuffle_fp32(in[r * TTX_COLS + c]));
}

enum ttx_status ttx_lreg_read(struct ttx_tile *t, unsigned reg, uint32_t lanes[TTX_LANES])
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!lanes)
		return ttx_fail(t, TTX_EINVAL, "ttx_lreg_read: lanes is NULL");
	if (reg >= TTX_LREGS)
		return ttx_fail(t, TTX_EINVAL, "LReg %u does not exist (0-16)", reg);
	memcpy(lanes, t->sfpu.lreg[reg], sizeof(t->sfpu.lreg[reg]));
	return TTX_OK;
}

/* The host may write any LReg, constants included (a debugger's view). */
enum ttx_status ttx_lreg_write(struct ttx_tile *t, unsigned reg, const uint32_t lanes[TTX_LANES])
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!lanes)
		return ttx_fail(t, TTX_EINVAL, "ttx_lreg_write: lanes is NULL");
	if (reg >= TTX_LREGS)
		return ttx_fail(t, TTX_EINVAL, "LReg %u does not exist (0-16)", reg);
	memcpy(t->sfpu.lreg[reg], lanes, sizeof(t->sfpu.lreg[reg]));
	return TTX_OK;
}

enum ttx_status ttx_gpr_read(struct ttx_tile *t, unsigned thread, unsigned index, uint32_t *value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!value)
		return ttx_fail(t, TTX_EINVAL, "ttx_gpr_read: value is NULL");
	if (thread >= TTX_THREADS || index >= TTX_GPRS)
		return ttx_fail(t, TTX_EINVAL, "GPR %u of thread %u does not exist", index, thread);
	*value = t->gpr[thread][index];
	return TTX_OK;
}

enum ttx_status ttx_gpr_write(struct ttx_tile *t, unsigned thread, unsigned index, uint32_t value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (thread >= TTX_THREADS || index >= TTX_GPRS)
		return ttx_fail(t, TTX_EINVAL, "GPR %u of thread %u does not exist", index, thread);
	t->gpr[thread][index] = value;
	return TTX_OK;
}

/* ---- Configuration ---- */

static uint32_t field_mask(uint8_t width)
{
	return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1u;
}

uint32_t ttx_cfg_get(const struct ttx_tile *t, unsigned bank, enum ttx_cfg_field f)
{
	const struct ttx_cfg_field_info *fi = &ttx_cfg_fields[f];
	return (t->config[bank & 1][fi->word] >> fi->shift) & field_mask(fi->width);
}

void ttx_cfg_set(struct ttx_tile *t, unsigned bank, enum ttx_cfg_field f, uint32_t value)
{
	const struct ttx_cfg_field_info *fi = &ttx_cfg_fields[f];
	uint32_t m = field_mask(fi->width) << fi->shift;
	uint32_t *w = &t->config[bank & 1][fi->word];
	*w = (*w & ~m) | ((value << fi->shift) & m);
	if (fi->word >= TTX_CFG_GLOBAL_BASE)   /* shared by both banks */
		t->config[(bank & 1) ^ 1][fi->word] = *w;
}

uint32_t ttx_thread_cfg_get(const struct ttx_tile *t, unsigned thread, enum ttx_thread_cfg_field f)
{
	const struct ttx_cfg_field_info *fi = &ttx_thread_cfg_fields[f];
	return ((uint32_t)t->thread_config[thread][fi->word] >> fi->shift) & field_mask(fi->width);
}

void ttx_thread_cfg_set(struct ttx_tile *t, unsigned thread, enum ttx_thread_cfg_field f, uint32_t value)
{
	const struct ttx_cfg_field_info *fi = &ttx_thread_cfg_fields[f];
	uint32_t m = field_mask(fi->width) << fi->shift;
	uint16_t *w = &t->thread_config[thread][fi->word];
	*w = (uint16_t)((*w & ~m) | ((value << fi->shift) & m));
}

unsigned ttx_cfg_bank(const struct ttx_tile *t, unsigned thread)
{
	return ttx_thread_cfg_get(t, thread, TTX_THCFG_CFG_STATE_ID_StateID);
}

enum ttx_status ttx_cfg_read(struct ttx_tile *t, unsigned bank, unsigned word, uint32_t *value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!value)
		return ttx_fail(t, TTX_EINVAL, "ttx_cfg_read: value is NULL");
	if (bank > 1 || word >= TTX_CFG_WORDS)
		return ttx_fail(t, TTX_EINVAL, "Config[%u][%u] does not exist (2 banks x %u words)",
		                bank, word, TTX_CFG_WORDS);
	*value = t->config[bank][word];
	return TTX_OK;
}

/* A write to a word at or above GLOBAL_CFGREG_BASE_ADDR32 lands in both banks
   (TC/BackendConfiguration.md). */
enum ttx_status ttx_cfg_write(struct ttx_tile *t, unsigned bank, unsigned word, uint32_t value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (bank > 1 || word >= TTX_CFG_WORDS)
		return ttx_fail(t, TTX_EINVAL, "Config[%u][%u] does not exist (2 banks x %u words)",
		                bank, word, TTX_CFG_WORDS);
	t->config[bank][word] = value;
	if (word >= TTX_CFG_GLOBAL_BASE)
		t->config[bank ^ 1][word] = value;
	return TTX_OK;
}

enum ttx_status ttx_thread_cfg_read(struct ttx_tile *t, unsigned thread, unsigned index, uint16_t *value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!value)
		return ttx_fail(t, TTX_EINVAL, "ttx_thread_cfg_read: value is NULL");
	if (thread >= TTX_THREADS || index >= TTX_THREAD_CFG_WORDS)
		return ttx_fail(t, TTX_EINVAL, "ThreadConfig[%u][%u] does not exist", thread, index);
	*value = t->thread_config[thread][index];
	return TTX_OK;
}

enum ttx_status ttx_thread_cfg_write(struct ttx_tile *t, unsigned thread, unsigned index, uint16_t value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (thread >= TTX_THREADS || index >= TTX_THREAD_CFG_WORDS)
		return ttx_fail(t, TTX_EINVAL, "ThreadConfig[%u][%u] does not exist", thread, index);
	t->thread_config[thread][index] = value;
	return TTX_OK;
}

static int find_field(const struct ttx_cfg_field_info *fields, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(fields[i].name, name) == 0)
			return i;
	return -1;
}

enum ttx_status ttx_cfg_field_read(struct ttx_tile *t, const char *name, unsigned bank_or_thread, uint32_t *value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!name)
		return ttx_fail(t, TTX_EINVAL, "ttx_cfg_field_read: name is NULL");
	if (!value)
		return ttx_fail(t, TTX_EINVAL, "ttx_cfg_field_read: value is NULL");
	int i = find_field(ttx_cfg_fields, TTX_CFG_FIELD_COUNT, name);
	if (i >= 0) {
		if (bank_or_thread > 1)
			return ttx_fail(t, TTX_EINVAL, "Config bank %u does not exist", bank_or_thread);
		*value = ttx_cfg_get(t, bank_or_thread, (enum ttx_cfg_field)i);
		return TTX_OK;
	}
	i = find_field(ttx_thread_cfg_fields, TTX_THCFG_FIELD_COUNT, name);
	if (i >= 0) {
		if (bank_or_thread >= TTX_THREADS)
			return ttx_fail(t, TTX_EINVAL, "thread %u does not exist", bank_or_thread);
		*value = ttx_thread_cfg_get(t, bank_or_thread, (enum ttx_thread_cfg_field)i);
		return TTX_OK;
	}
	return ttx_fail(t, TTX_EINVAL, "unknown configuration field %s", name);
}

enum ttx_status ttx_cfg_field_write(struct ttx_tile *t, const char *name, unsigned bank_or_thread, uint32_t value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!name)
		return ttx_fail(t, TTX_EINVAL, "ttx_cfg_field_write: name is NULL");
	int i = find_field(ttx_cfg_fields, TTX_CFG_FIELD_COUNT, name);
	if (i >= 0) {
		if (bank_or_thread > 1)
			return ttx_fail(t, TTX_EINVAL, "Config bank %u does not exist", bank_or_thread);
		if (value & ~field_mask(ttx_cfg_fields[i].width))
			return ttx_fail(t, TTX_EINVAL, "value 0x%X does not fit %s (%u bits)", value, name,
			                ttx_cfg_fields[i].width);
		uint32_t word = t->config[bank_or_thread][ttx_cfg_fields[i].word];
		uint32_t m = field_mask(ttx_cfg_fields[i].width) << ttx_cfg_fields[i].shift;
		word = (word & ~m) | (value << ttx_cfg_fields[i].shift);
		return ttx_cfg_write(t, bank_or_thread, ttx_cfg_fields[i].word, word);
	}
	i = find_field(ttx_thread_cfg_fields, TTX_THCFG_FIELD_COUNT, name);
	if (i >= 0) {
		if (bank_or_thread >= TTX_THREADS)
			return ttx_fail(t, TTX_EINVAL, "thread %u does not exist", bank_or_thread);
		if (value & ~field_mask(ttx_thread_cfg_fields[i].width))
			return ttx_fail(t, TTX_EINVAL, "value 0x%X does not fit %s (%u bits)", value, name,
			                ttx_thread_cfg_fields[i].width);
		ttx_thread_cfg_set(t, bank_or_thread, (enum ttx_thread_cfg_field)i, value);
		return TTX_OK;
	}
	return ttx_fail(t, TTX_EINVAL, "unknown configuration field %s", name);
}

/* ---- The RISC-V view of the tile (TT/BabyRISCV/README.md memory map) ---- */

const char *ttx_mmio_store_problem(uint32_t addr)
{
	if (addr & 3)
		return "the address is not 4-byte aligned";
	if (addr < TTX_L1_SIZE || (addr >= TTX_MMIO_MOP_CFG && addr < TTX_MMIO_MOP_CFG + 9 * 4) ||
	    (addr >= TTX_MMIO_GPR && addr < TTX_MMIO_GPR + TTX_GPRS * 4) || addr == TTX_MMIO_INSTRN_BUF ||
	    (addr >= TTX_MMIO_TDMA && addr < TTX_MMIO_TDMA + 0x1000) ||
	    (addr >= TTX_MMIO_SEMAPHORES && addr < TTX_MMIO_SEMAPHORES + 8 * 4) ||
	    (addr >= TTX_MMIO_CFG && addr < TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4))
		return NULL;
	if (addr >= TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4 &&
	    addr < TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4 + TTX_THREADS * TTX_THREAD_CFG_WORDS * 16)
		return "ThreadConfig cannot be written by RISC-V stores; push SETC16 instead";
	return "no emulated register there";
}

/* An aligned access to an address the tile does not map: the host's hook
   (ttx_options.mmio), else an error.  ThreadConfig is mapped, but not for
   stores. */
static enum ttx_status outside(struct ttx_tile *t, unsigned thread, uint32_t addr, int store, uint32_t *value)
{
	const char *problem = store ? ttx_mmio_store_problem(addr) : "no emulated register there";
	int mapped = store && strncmp(problem, "ThreadConfig", 12) == 0;
	if (t->opt.mmio && !mapped) {
		uint32_t v = store ? *value : 0;
		if (t->opt.mmio(t->opt.mmio_ctx, thread, addr, store, &v) == 0) {
			if (!store)
				*value = v;
			return TTX_OK;
		}
		problem = "the host's mmio hook refused it";
	}
	return ttx_fail(t, TTX_EINVAL, "MMIO %s 0x%08X: %s", store ? "store to" : "load from", addr, problem);
}

enum ttx_status ttx_mmio_write(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (thread >= TTX_THREADS)
		return ttx_fail(t, TTX_EINVAL, "thread %u does not exist (0-2)", thread);
	if (addr & 3)
		return ttx_fail(t, TTX_EINVAL, "MMIO store to unaligned address 0x%08X", addr);
	if (addr < TTX_L1_SIZE)
		return ttx_l1_write(t, addr, &value, 4);
	if (addr >= TTX_MMIO_MOP_CFG && addr < TTX_MMIO_MOP_CFG + 9 * 4) {
		t->mop[thread].cfg[(addr - TTX_MMIO_MOP_CFG) / 4] = value;
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_GPR && addr < TTX_MMIO_GPR + TTX_GPRS * 4) {
		t->gpr[thread][(addr - TTX_MMIO_GPR) / 4] = value;
		return TTX_OK;
	}
	if (addr == TTX_MMIO_INSTRN_BUF)
		return ttx_push(t, thread, value);
	if (addr >= TTX_MMIO_TDMA && addr < TTX_MMIO_TDMA + 0x1000)
		return t->entry.mmio_write(t, thread, addr, value);
	if (addr >= TTX_MMIO_SEMAPHORES && addr < TTX_MMIO_SEMAPHORES + 8 * 4) {
		/* TC/SyncUnit.md: odd value = SEMGET, even = SEMPOST, both saturating. */
		unsigned i = (addr - TTX_MMIO_SEMAPHORES) / 4;
		if (value & 1) {
			if (t->semaphores[i].value > 0)
				t->semaphores[i].value--;
		} else if (t->semaphores[i].value < 15) {
			t->semaphores[i].value++;
		}
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_CFG && addr < TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4) {
		unsigned w = (addr - TTX_MMIO_CFG) / 4;
		enum ttx_status st = ttx_cfg_write(t, w / TTX_CFG_WORDS, w % TTX_CFG_WORDS, value);
		if (st == TTX_OK)
			t->entry.cfg_write_effects(t, w / TTX_CFG_WORDS, w % TTX_CFG_WORDS, 0);
		return st;
	}
	return outside(t, thread, addr, 1, &value);
}

enum ttx_status ttx_mmio_read(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t *value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!value)
		return ttx_fail(t, TTX_EINVAL, "ttx_mmio_read: value is NULL");
	if (thread >= TTX_THREADS)
		return ttx_fail(t, TTX_EINVAL, "thread %u does not exist (0-2)", thread);
	if (addr & 3)
		return ttx_fail(t, TTX_EINVAL, "MMIO load from unaligned address 0x%08X", addr);
	if (addr < TTX_L1_SIZE)
		return ttx_l1_read(t, addr, value, 4);
	if (addr >= TTX_MMIO_GPR && addr < TTX_MMIO_GPR + TTX_GPRS * 4) {
		*value = t->gpr[thread][(addr - TTX_MMIO_GPR) / 4];
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_TDMA && addr < TTX_MMIO_TDMA + 0x1000)
		return t->entry.mmio_read(t, thread, addr, value);
	if (addr >= TTX_MMIO_SEMAPHORES && addr < TTX_MMIO_SEMAPHORES + 8 * 4) {
		*value = t->semaphores[(addr - TTX_MMIO_SEMAPHORES) / 4].value;
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_CFG && addr < TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4) {
		unsigned w = (addr - TTX_MMIO_CFG) / 4;
		*value = t->config[w / TTX_CFG_WORDS][w % TTX_CFG_WORDS];
		return TTX_OK;
	}
	uint32_t th_base = TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4;
	if (addr >= th_base && addr < th_base + TTX_THREADS * TTX_THREAD_CFG_WORDS * 16) {
		unsigned e = (addr - th_base) / 16;
		*value = (addr - th_base) % 16 == 0 ? t->thread_config[e / TTX_THREAD_CFG_WORDS][e % TTX_THREAD_CFG_WORDS] : 0;
		return TTX_OK;
	}
	if (addr >= TTX_MMIO_MOP_CFG && addr < TTX_MMIO_MOP_CFG + 9 * 4)
		return ttx_fail(t, TTX_EINVAL, "MOP config (0x%08X) is write-only (TC/MOPExpander.md)", addr);
	return outside(t, thread, addr, 0, value);
}

/* ---- RWCs ---- */

/* ApplyAddrMod (TC/RWCs.md).  The ADDR_MOD_{AB,DST,BIAS}_SEC<n> fields repeat
   with a fixed stride in src/cfg_regs.def (8, 6 and 2 fields per section). */
void ttx_apply_addr_mod(struct ttx_tile *t, unsigned thread, unsigned addr_mod, bool update_fidelity)
{
	struct ttx_rwc *rwc = &t->rwc[thread];
	unsigned index = addr_mod & 3;
	if (rwc->extra_addr_mod_bit || ttx_thread_cfg_get(t, thread, TTX_THCFG_ADDR_MOD_SET_Base))
		index += 4;
#define AB(f) ttx_thread_cfg_get(t, thread, (enum ttx_thread_cfg_field)(TTX_THCFG_ADDR_MOD_AB_SEC0_##f + 8 * index))
#define DST(f) ttx_thread_cfg_get(t, thread, (enum ttx_thread_cfg_field)(TTX_THCFG_ADDR_MOD_DST_SEC0_##f + 6 * index))
#define BIAS(f) ttx_thread_cfg_get(t, thread, (enum ttx_thread_cfg_field)(TTX_THCFG_ADDR_MOD_BIAS_SEC0_##f + 2 * index))
	if (AB(SrcAClear))
		rwc->srca = rwc->srca_cr = 0;
	else if (AB(SrcACR))
		rwc->srca = rwc->srca_cr = (uint8_t)((rwc->srca_cr + AB(SrcAIncr)) & 0x3F);
	else
		rwc->srca = (uint8_t)((rwc->srca + AB(SrcAIncr)) & 0x3F);

	if (AB(SrcBClear))
		rwc->srcb = rwc->srcb_cr = 0;
	else if (AB(SrcBCR))
		rwc->srcb = rwc->srcb_cr = (uint8_t)((rwc->srcb_cr + AB(SrcBIncr)) & 0x3F);
	else
		rwc->srcb = (uint8_t)((rwc->srcb + AB(SrcBIncr)) & 0x3F);

	if (DST(DestClear)) {
		rwc->dst = rwc->dst_cr = 0;
	} else if (DST(DestCToCR)) {
		rwc->dst = (uint16_t)((rwc->dst + DST(DestIncr)) & 0x3FF);
		rwc->dst_cr = rwc->dst;
	} else if (DST(DestCR)) {
		rwc->dst = rwc->dst_cr = (uint16_t)((rwc->dst_cr + DST(DestIncr)) & 0x3FF);
	} else {
		rwc->dst = (uint16_t)((rwc->dst + DST(DestIncr)) & 0x3FF);
	}

	if (update_fidelity) {
		if (DST(FidelityClear))
			rwc->fidelity_phase = 0;
		else
			rwc->fidelity_phase = (uint8_t)((rwc->fidelity_phase + DST(FidelityIncr)) & 3);
	}

	if (BIAS(BiasClear))
		rwc->extra_addr_mod_bit = 0;
	else if (BIAS(BiasIncr) & 3)
		rwc->extra_addr_mod_bit ^= 1;
#undef AB
#undef DST
#undef BIAS
}
