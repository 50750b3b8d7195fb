/* Tile life cycle, power-on state and host access to the state. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	ttx_tile_reset_keep_l1(t);   /* (L1 is zero already: its pages stay untouched until used) */
	*out = t;
	return TTX_OK;
}

void ttx_tile_destroy(struct ttx_tile *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < TTX_THREADS; i++)
		free(t->pipe[i].words), free(t->pipe[i].at);
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

/* The RISC-V cores at power-on: all five in soft reset (TT/SoftReset.md),
   memories and connecting FIFOs empty; their decoded code is stale. */
static void reset_cores(struct ttx_tile *t)
{
	for (unsigned i = 0; i < TTX_CORE_COUNT; i++) {
		struct ttx_rvcore *c = &t->core[i];
		struct ttx_rv_cache *cache = c->cache;
		memset(c, 0, sizeof(*c));
		c->cache = cache;
		c->local_size = i == TTX_CORE_B || i == TTX_CORE_NC ? 4096 : 2048;
		c->loop_pc = 0xFFFFFFFFu;
	}
	memset(t->nc_iram, 0, sizeof(t->nc_iram));
	t->soft_reset = TTX_SOFT_RESET_CORES;
	t->pc_buf_override = 0;
	memset(t->instrn_buf_ctrl, 0, sizeof(t->instrn_buf_ctrl));
	memset(t->debug_regs, 0, sizeof(t->debug_regs));
	t->cfgreg_rd_data = t->wall_clock_hi_at = 0;
	memset(t->pc_buf, 0, sizeof(t->pc_buf));
	memset(t->mailbox, 0, sizeof(t->mailbox));
	t->cores_live = 0;
	t->nloaded = 0;
	t->core_epoch++;
	t->core_insns = 0;
	t->code_gen_all++;
	for (unsigned i = 0; i < TTX_THREADS; i++)
		t->pipe[i].b_head = t->pipe[i].b_tail = 0;
}

void ttx_tile_reset(struct ttx_tile *t)
{
	if (!t)
		return;
	memset(t->l1, 0, TTX_L1_SIZE);
	ttx_tile_reset_keep_l1(t);
}

void ttx_tile_reset_keep_l1(struct ttx_tile *t)
{
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
	reset_cores(t);
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
	ttx_l1_touched(t, addr, len);
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
	/* what RISCV T0-T2 can store to (interp/riscv_mmio.c has the behaviour) */
	static const struct { uint32_t base, size; } storable[] = {
		{ 0, TTX_L1_SIZE }, { TTX_MMIO_LOCAL, 2048 }, { TTX_MMIO_TDMA, 0x1000 }, { TTX_MMIO_DEBUG, 0x220 },
		{ TTX_MMIO_MOP_CFG, 9 * 4 }, { TTX_MMIO_GPR, TTX_GPRS * 4 }, { TTX_MMIO_INSTRN_BUF, 0x10000 },
		{ TTX_MMIO_PC_BUF, 0x40 }, { TTX_MMIO_MAILBOX, 0x4000 }, { TTX_MMIO_CFG, 2 * TTX_CFG_WORDS * 4 },
	};
	if (addr & 3)
		return "the address is not 4-byte aligned";
	for (size_t i = 0; i < sizeof(storable) / sizeof(storable[0]); i++)
		if (addr - storable[i].base < storable[i].size)
			return NULL;
	if (addr >= TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4 &&
	    addr < TTX_MMIO_CFG + 2 * TTX_CFG_WORDS * 4 + TTX_THREADS * TTX_THREAD_CFG_WORDS * 16)
		return "ThreadConfig cannot be written by RISC-V stores; push SETC16 instead";
	return "no emulated register there";
}

enum ttx_status ttx_mmio_write(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t value)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (thread >= TTX_THREADS)
		return ttx_fail(t, TTX_EINVAL, "thread %u does not exist (0-2)", thread);
	if (addr & 3)
		return ttx_fail(t, TTX_EINVAL, "MMIO store to unaligned address 0x%08X", addr);
	return ttx_core_write(t, (enum ttx_core)(TTX_CORE_T0 + thread), addr, value);
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
	return ttx_core_read(t, (enum ttx_core)(TTX_CORE_T0 + thread), addr, value);
}

/* ---- the RISC-V cores, from the host ---- */

static const char *const core_ids[TTX_CORE_COUNT] = { "brisc", "trisc0", "trisc1", "trisc2", "ncrisc" };

const char *ttx_core_name(enum ttx_core core)
{
	return (unsigned)core < TTX_CORE_COUNT ? core_ids[core] : NULL;
}

enum ttx_status ttx_core_parse(const char *name, enum ttx_core *out)
{
	static const char *const short_ids[TTX_CORE_COUNT] = { "b", "t0", "t1", "t2", "nc" };
	for (unsigned i = 0; name && out && i < TTX_CORE_COUNT; i++)
		if (strcasecmp(name, core_ids[i]) == 0 || strcasecmp(name, short_ids[i]) == 0) {
			*out = (enum ttx_core)i;
			return TTX_OK;
		}
	return TTX_EINVAL;
}

const char *ttx_core_wait_name(enum ttx_core_wait_reason why)
{
	static const char *const names[TTX_WAIT_REASON_COUNT] = {
		"not waiting", "in a loop that polls what nothing changes", "a full Tensix instruction FIFO",
		"TTSync (the Tensix thread to finish)", "an empty mailbox", "full mailboxes", "a PCBuf",
	};
	return (unsigned)why < TTX_WAIT_REASON_COUNT ? names[why] : NULL;
}

const char *ttx_core_stall_name(enum ttx_core_stall why)
{
	static const char *const names[TTX_CORE_STALL_COUNT] = { "load", "mul/div", "branch", "L1 store",
	                                                         "full FIFO", "wait" };
	return (unsigned)why < TTX_CORE_STALL_COUNT ? names[why] : NULL;
}

static enum ttx_status check_core(struct ttx_tile *t, enum ttx_core core)
{
	if (!t)
		return TTX_EINVAL;
	if ((unsigned)core >= TTX_CORE_COUNT)
		return ttx_fail(t, TTX_EINVAL, "core %d does not exist (0-4: brisc, trisc0-2, ncrisc)", (int)core);
	return TTX_OK;
}

enum ttx_status ttx_core_start(struct ttx_tile *t, enum ttx_core core, uint32_t pc)
{
	enum ttx_status st = check_core(t, core);
	if (st == TTX_OK)
		t->entry.core_release(t, core, pc);
	return st;
}

enum ttx_status ttx_core_reg_read(struct ttx_tile *t, enum ttx_core core, unsigned reg, uint32_t *value)
{
	enum ttx_status st = check_core(t, core);
	if (st != TTX_OK)
		return st;
	if (!value || reg > 32)
		return ttx_fail(t, TTX_EINVAL, value ? "register %u: x0-x31 are 0-31, pc is 32" : "value is NULL", reg);
	*value = reg == 32 ? t->core[core].pc : t->core[core].x[reg];
	return TTX_OK;
}

enum ttx_status ttx_core_reg_write(struct ttx_tile *t, enum ttx_core core, unsigned reg, uint32_t value)
{
	enum ttx_status st = check_core(t, core);
	if (st != TTX_OK)
		return st;
	if (reg > 32)
		return ttx_fail(t, TTX_EINVAL, "register %u: x0-x31 are 0-31, pc is 32", reg);
	if (reg == 32)
		t->core[core].pc = value;
	else if (reg)
		t->core[core].x[reg] = value;
	t->core[core].wait = 0;
	return TTX_OK;
}

void ttx_core_state(const struct ttx_tile *t, enum ttx_core core, struct ttx_core_state *out)
{
	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!t || (unsigned)core >= TTX_CORE_COUNT)
		return;
	const struct ttx_rvcore *c = &t->core[core];
	out->released = c->run != TTX_CORE_IN_RESET;
	out->halted = c->run == TTX_CORE_HALTED;
	out->wait = (enum ttx_core_wait_reason)(c->run == TTX_CORE_RUNNING ? c->wait : 0);
	out->wait_addr = c->wait_addr;
	out->pc = c->pc;
	out->insns = c->insns;
	out->cycles = c->cycle;
	memcpy(out->stalls, c->stall, sizeof(out->stalls));
}

enum ttx_status ttx_core_write(struct ttx_tile *t, enum ttx_core core, uint32_t addr, uint32_t value)
{
	enum ttx_status st = check_core(t, core);
	if (st != TTX_OK)
		return st;
	if (addr & 3)
		return ttx_fail(t, TTX_EINVAL, "store to unaligned address 0x%08X", addr);
	st = t->entry.access(t, core, addr, 4, 1, &value, 1);
	t->core_epoch++;
	return st == TTX_FAULT ? TTX_EINVAL : st;
}

enum ttx_status ttx_core_read(struct ttx_tile *t, enum ttx_core core, uint32_t addr, uint32_t *value)
{
	enum ttx_status st = check_core(t, core);
	if (st != TTX_OK)
		return st;
	if (!value)
		return ttx_fail(t, TTX_EINVAL, "value is NULL");
	if (addr & 3)
		return ttx_fail(t, TTX_EINVAL, "load from unaligned address 0x%08X", addr);
	st = t->entry.access(t, core, addr, 4, 0, value, 1);
	t->core_epoch++;
	return st == TTX_FAULT ? TTX_EINVAL : st;
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
