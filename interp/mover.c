/* The mover (TT/Mover.md) and its two interfaces: the XMOV instruction
 * (TC/XMOV.md) and TDMA-RISC's command queue (TT/TDMA-RISC.md), with the
 * rest of TDMA-RISC's registers: the PACR_SETREG / UNPACR_NOP address
 * windows and scalers, and the packers' sideband metadata.
 *
 * ttx runs the mover synchronously: a copy or fill has finished when the
 * instruction (or the store to the command register) that started it
 * retires, so the mover is never busy (STALLWAIT C12 always holds) and the
 * command queue is always empty.  Copies go 16 bytes at a time in address
 * order, as the hardware's requests do, so overlapping ranges behave as
 * such a copy does.  Writes the mover makes outside L1 and the Config
 * registers (RISC-V NC instruction RAM, "nowhere") are discarded: ttx does
 * not model the RISC-V cores. */
#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "units.h"

#define TDMA_BASE 0xFFB11000u
#define TENSIX_CFG_BASE TTX_MMIO_CFG

enum { L0_TO_L1 = 0, L1_TO_L0 = 1, L0_TO_L0 = 2, L1_TO_L1 = 3 };

/* Mover(dst, src, count, mode) of TT/Mover.md; errors leave a message in
   t->error and return TTX_FAULT, for the caller to name itself. */
static int mover(struct ttx_tile *t, unsigned thread, uint32_t dst, uint32_t src, uint32_t count, unsigned mode)
{
	bool to_l1 = mode == L0_TO_L1 || mode == L1_TO_L1;
	bool from_l1 = mode == L1_TO_L1 || mode == L1_TO_L0;
	if (to_l1) {
		if (dst >= TTX_L1_SIZE || count > TTX_L1_SIZE - dst)
			return ttx_fail(t, TTX_FAULT, "destination 0x%X + %u bytes is outside L1 (undefined, TT/Mover.md)",
			                dst, count);
	} else {
		if ((dst & 0xFFFF) + count > 0x10000)
			return ttx_fail(t, TTX_FAULT, "destination 0x%X + %u bytes crosses a 64 KiB region (undefined, "
			                "TT/Mover.md)", dst, count);
	}
	if (from_l1 && (src >= TTX_L1_SIZE || count > TTX_L1_SIZE - src))
		return ttx_fail(t, TTX_FAULT, "source 0x%X + %u bytes is outside L1 (undefined, TT/Mover.md)", src, count);
	for (uint32_t off = 0; off < count; off += 16) {
		uint8_t chunk[16] = { 0 };
		uint32_t n = count - off < 16 ? count - off : 16;
		if (from_l1)
			memcpy(chunk, t->l1 + src + off, n);
		if (to_l1) {
			memcpy(t->l1 + dst + off, chunk, n);
			ttx_l1_touched(t, dst + off, n);   /* (the cores' decoded code there is stale) */
		} else if (dst >= 0x40000 && dst <= 0x4FFFF) {
			/* RISCV NC's 16 KiB instruction RAM, which only the mover
			   writes (TT/BabyRISCV/InstructionRAM.md); past it: nowhere */
			uint32_t a = dst - 0x40000 + off;
			if (a < sizeof(t->nc_iram))
				memcpy(t->nc_iram + a, chunk, n < sizeof(t->nc_iram) - a ? n : sizeof(t->nc_iram) - a);
			t->code_gen_iram++;
		} else if (dst <= 0xFFFF) {
			/* Tensix backend configuration, a word at a time, with its effects */
			for (uint32_t w = 0; w < n; w += 4) {
				uint32_t v;
				memcpy(&v, chunk + w, 4);
				if (ttx_mmio_write(t, thread, TENSIX_CFG_BASE + ((dst + off + w) & 0xFFFC), v) != TTX_OK)
					return TTX_FAULT;
			}
		}
		/* else nowhere: discarded */
	}
	ttx_timing_mover(t, count, from_l1, to_l1);
	return TTX_OK;
}

/* TC/XMOV.md: the THCON_SEC0_REG6 fields of the thread's Config bank. */
int ttx_mover_XMOV(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	unsigned bank = ttx_cfg_bank(t, thread);
	uint32_t dst = ttx_cfg_get(t, bank, TTX_CFG_THCON_SEC0_REG6_Destination_address) << 4;
	uint32_t src = ttx_cfg_get(t, bank, TTX_CFG_THCON_SEC0_REG6_Source_address) << 4;
	uint32_t count = (ttx_cfg_get(t, bank, TTX_CFG_THCON_SEC0_REG6_Buffer_size) & 0xFFFF) << 4;
	unsigned mode = ttx_cfg_get(t, bank, TTX_CFG_THCON_SEC0_REG6_Transfer_direction);
	if (mover(t, thread, dst, src, count, mode) != TTX_OK) {
		char msg[sizeof(t->error)];
		snprintf(msg, sizeof(msg), "%s", t->error);
		return ttx_fail(t, TTX_FAULT, "XMOV (0x%08X) at thread %u: %s", word, thread, msg);
	}
	return TTX_OK;
}

/* ---- TDMA-RISC (TT/TDMA-RISC.md) ---- */

static void set_scaler(struct ttx_tile *t, unsigned start, uint32_t v)
{
	if (start == 3)
		v >>= 16;
	for (unsigned i = 0; i < 3 && start + i < 4; i++, v >>= 9)
		t->pack_setreg_scaler[start + i] = (uint16_t)(v & 0x1FF);
}

/* SetPackRegAddr; SetUnpackRegAddr has no definition on the page: ttx reads it
   the same way for the unpackers' windows (choice). */
static void set_reg_base(uint32_t base[2], uint32_t v)
{
	for (unsigned i = 0; i < 2; i++)
		base[i] = ((v >> (20 + 2 * i)) & 3) << 18 | ((v >> (10 * i)) & 0x3FF) << 2;
}

/* EnqueueCmd, executed at once (the command processor is never behind). */
static enum ttx_status enqueue(struct ttx_tile *t, unsigned thread, uint32_t cmd)
{
	uint32_t *p = t->mover_params;
	switch (cmd & 0xFF) {
	case 0x40: {
		uint32_t src, dst, count, mode;
		if (cmd >> 31) {
			src = t->mover_cmd_base[thread] + ((cmd >> 8) & 0xFF);
			dst = (cmd >> 16) & 0xFF;
			count = (cmd >> 24) & 0x3F;
			mode = (cmd >> 30) & 1 ? L1_TO_L1 : L1_TO_L0;
		} else {
			src = p[0], dst = p[1], count = p[2] & 0xFFFF, mode = p[3] & 3;
		}
		if (mover(t, thread, dst << 4, src << 4, count << 4, mode) != TTX_OK) {
			char msg[sizeof(t->error)];
			snprintf(msg, sizeof(msg), "%s", t->error);
			return ttx_fail(t, TTX_EINVAL, "TDMA-RISC mover command 0x%08X: %s", cmd, msg);
		}
		return TTX_OK;
	}
	case 0x46: case 0x89:   /* wait for the mover; NOP */
		return TTX_OK;
	case 0x66:
		if (!(cmd >> 31) && (cmd & 0x600) == 0x600 && p[0] < TTX_L1_SIZE - 8) {
			memcpy(t->l1 + p[0], &p[2], cmd & 0x100 ? 8 : 4);
			ttx_l1_touched(t, p[0], cmd & 0x100 ? 8 : 4);
			return TTX_OK;
		}
		break;
	}
	return ttx_fail(t, TTX_EINVAL, "TDMA-RISC command 0x%08X is undefined (TT/TDMA-RISC.md)", cmd);
}

/* Per-packer registers repeat every 0x100, per-thread ones every 0x40. */
static bool packer_reg(uint32_t off, uint32_t base, unsigned *packer, unsigned *thread)
{
	if (off < base || (off - base) % 0x40 || (off - base) / 0x100 > 3 || ((off - base) % 0x100) / 0x40 > 2)
		return false;
	*packer = (off - base) / 0x100;
	*thread = ((off - base) % 0x100) / 0x40;
	return true;
}

enum ttx_status ttx_tdma_mmio_write(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t v)
{
	uint32_t off = addr - TDMA_BASE;
	unsigned p, th;
	switch (off) {
	case 0x00: case 0x04: case 0x08: case 0x0C:
		t->mover_params[off / 4] = v;
		return TTX_OK;
	case 0x10:
		return enqueue(t, thread, v);
	case 0x24:
		t->unpack_reg_addr_raw = v & 0xFFFFFF7Fu;
		set_reg_base(t->unpack_setreg_base, v);
		return TTX_OK;
	case 0x28:
		t->scaler_raw = v & 0x01FF007Fu;
		set_scaler(t, 3, v);
		return TTX_OK;
	case 0x2C:
		t->mover_cmd_base[thread] = v;
		return TTX_OK;
	case 0x38:
		t->pack_reg_addr_raw = v;
		set_reg_base(t->pack_setreg_base, v);
		return TTX_OK;
	case 0x3C: case 0x13C:
		set_scaler(t, 0, v);
		return TTX_OK;
	}
	if (packer_reg(off, 0x1C, &p, &th)) {   /* ResetPackerAccTileSize */
		for (unsigned i = 0; i < 4; i++)
			if (v >> (16 + i) & 1) {
				memset(t->packer[i].acc_tile_size, 0, sizeof(t->packer[i].acc_tile_size));
				t->packer[i].l1_dest_addr_offset = (uint16_t)v;
			}
		return TTX_OK;
	}
	if (off % 0x100 == 0x34 && off / 0x100 < 4) {   /* pop the metadata FIFO */
		struct ttx_packer *pk = &t->packer[off / 0x100];
		if (pk->fifo_len)
			memmove(pk->fifo, pk->fifo + 1, --pk->fifo_len * sizeof(pk->fifo[0]));
		return TTX_OK;
	}
	if (off < 0x400)
		return TTX_OK;   /* the read-only registers: no effect */
	return ttx_fail(t, TTX_EINVAL, "MMIO store to 0x%08X: no TDMA-RISC register there", addr);
}

enum ttx_status ttx_tdma_mmio_read(struct ttx_tile *t, unsigned thread, uint32_t addr, uint32_t *v)
{
	uint32_t off = addr - TDMA_BASE;
	unsigned p, th;
	*v = 0;
	switch (off) {
	case 0x00: case 0x04: case 0x08: case 0x0C: case 0x10:
		return TTX_OK;
	case 0x14:   /* StatusBits: idle, both queues empty, capacity 4 */
		*v = 1u << 3 | 1u << 5 | 4u << 8;
		return TTX_OK;
	case 0x24:
		*v = t->unpack_reg_addr_raw;
		return TTX_OK;
	case 0x28:
		*v = t->scaler_raw;
		return TTX_OK;
	case 0x2C:
		*v = t->mover_cmd_base[thread];
		return TTX_OK;
	case 0x38:   /* MetadataFIFOStatus */
		*v = t->pack_reg_addr_raw << 8;
		for (unsigned i = 0; i < 4; i++)
			*v |= (t->packer[i].fifo_len == 0 ? 1u : 0u) << (2 * i) |
			      (t->packer[i].fifo_len == TTX_PACK_FIFO ? 2u : 0u) << (2 * i);
		return TTX_OK;
	case 0x3C: case 0x13C:   /* ScalarsAndStatus: the packers are never busy */
		for (unsigned i = 0; i < 3; i++)
			*v |= (uint32_t)t->pack_setreg_scaler[i] << (i * 9);
		return TTX_OK;
	}
	if (packer_reg(off, 0x18, &p, &th)) {
		*v = t->packer[p].last_thread == th ? t->packer[p].last_tile_size : 0;
		return TTX_OK;
	}
	if (packer_reg(off, 0x1C, &p, &th)) {
		*v = t->packer[p].acc_tile_size[th] | (t->unpacker_setreg_acc[p & 1] & 0xFFFF) << 16;
		return TTX_OK;
	}
	if (off % 0x100 == 0x20 && off / 0x100 < 4) {
		*v = t->packer[off / 0x100].all_zero_flags;
		return TTX_OK;
	}
	if ((off % 0x100 == 0x30 || off % 0x100 == 0x34) && off / 0x100 < 4) {
		struct ttx_packer *pk = &t->packer[off / 0x100];
		if (off % 0x100 == 0x30 && pk->fifo_len == 0)
			return ttx_fail(t, TTX_EINVAL, "load from 0x%08X: packer %u's metadata FIFO is empty (a RISC-V load "
			                "would wait forever)", addr, off / 0x100);
		if (pk->fifo_len) {
			*v = off % 0x100 == 0x30 ? pk->fifo[0].size : pk->fifo[0].zero_flags;
			if (off % 0x100 == 0x34)
				memmove(pk->fifo, pk->fifo + 1, --pk->fifo_len * sizeof(pk->fifo[0]));
		}
		return TTX_OK;   /* popping an empty FIFO gives undefined data: 0 */
	}
	if (off < 0x400)
		return TTX_OK;
	return ttx_fail(t, TTX_EINVAL, "MMIO load from 0x%08X: no TDMA-RISC register there", addr);
}
