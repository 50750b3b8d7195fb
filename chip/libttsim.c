/* The libttsim interface (docs/chip.md): the flat C entry points through
 * which hosts (tt-metal's simulator hook, UMD, LLK's tests) drive a
 * simulated Wormhole: PCI configuration space and BAR accesses, direct tile
 * accesses, DMA callbacks and the clock.  A thin wrapper over one
 * ttx_chip: the interface has one device per process, the chip below it
 * any number.  A broken contract (a call before libttsim_init, an access
 * the chip refuses) prints one line naming the call, the address and the
 * rule, and ends the process with status 1, as a simulated machine check
 * would.
 *
 * Environment: TTX_THREADS (host threads stepping tiles, default 1),
 * TTX_ENGINE (interp, jit or auto: interp generates no code),
 * TTX_HARVESTED_ROWS (a mask of NoC #0 rows, default none). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"
#include "libttsim.h"

#define LIBTTSIM_API __attribute__((visibility("default")))

static struct ttx_chip *sim;
static int exited;
static void (*host_dma_read)(uint64_t paddr, void *p, uint32_t size);
static void (*host_dma_write)(uint64_t paddr, const void *p, uint32_t size);

static void __attribute__((noreturn, format(printf, 2, 3))) fatal(const char *call, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "libttsim (ttx): fatal: %s: %s\n", call, msg);   /* one line, one write */
	fflush(stderr);
	exit(1);
}

static struct ttx_chip *chip(const char *call)
{
	if (!sim)
		fatal(call, exited ? "called after libttsim_exit" : "called before libttsim_init");
	return sim;
}

static unsigned env_uint(const char *name, unsigned dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (*end || v > 0xFFFF)
		fatal("libttsim_init", "%s=%s: expected a number", name, s);
	return (unsigned)v;
}

LIBTTSIM_API void libttsim_init(void)
{
	if (sim)
		fatal("libttsim_init", "called twice (libttsim_exit first)");
	struct ttx_chip_options o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.tile.size = sizeof(o.tile);
	o.tile.engine = TTX_ENGINE_AUTO;
	const char *e = getenv("TTX_ENGINE");
	if (e && strcmp(e, "interp") == 0)
		o.tile.engine = TTX_ENGINE_INTERP;
	else if (e && strcmp(e, "jit") == 0)
		o.tile.engine = TTX_ENGINE_JIT;
	else if (e && *e && strcmp(e, "auto") != 0)
		fatal("libttsim_init", "TTX_ENGINE=%s: expected interp, jit or auto", e);
	o.threads = env_uint("TTX_THREADS", 1);
	o.harvested_rows = (uint16_t)env_uint("TTX_HARVESTED_ROWS", 0);
	char err[256];
	if (ttx_chip_create(&o, &sim, err, sizeof(err)) != TTX_OK)
		fatal("libttsim_init", "%s", err);
	exited = 0;
}

LIBTTSIM_API void libttsim_exit(void)
{
	chip("libttsim_exit");
	ttx_chip_destroy(sim);
	sim = NULL;
	exited = 1;
	host_dma_read = NULL, host_dma_write = NULL;
}

static void dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	host_dma_read(addr, buf, (uint32_t)len);
}

static void dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	(void)ctx;
	host_dma_write(addr, buf, (uint32_t)len);
}

LIBTTSIM_API void libttsim_set_pci_dma_mem_callbacks(void (*rd)(uint64_t paddr, void *p, uint32_t size),
                                                      void (*wr)(uint64_t paddr, const void *p, uint32_t size))
{
	struct ttx_chip *c = chip("libttsim_set_pci_dma_mem_callbacks");
	host_dma_read = rd, host_dma_write = wr;
	ttx_chip_set_dma(c, rd ? dma_read : NULL, wr ? dma_write : NULL, NULL);
}

/* The one device answers at bus/device/function 0; others read as absent. */
LIBTTSIM_API uint32_t libttsim_pci_config_rd32(uint32_t bus_device_function, uint32_t offset)
{
	struct ttx_chip *c = chip("libttsim_pci_config_rd32");
	uint32_t v;
	if (bus_device_function != 0)
		return 0xFFFFFFFFu;
	if (ttx_chip_pci_config_read(c, offset, &v) != TTX_OK)
		fatal("libttsim_pci_config_rd32", "%s", ttx_chip_error(c));
	return v;
}

LIBTTSIM_API void libttsim_pci_config_wr32(uint32_t bus_device_function, uint32_t offset, uint32_t data)
{
	struct ttx_chip *c = chip("libttsim_pci_config_wr32");
	if (bus_device_function != 0)
		fatal("libttsim_pci_config_wr32", "no device at bus/device/function 0x%X", bus_device_function);
	if (ttx_chip_pci_config_write(c, offset, data) != TTX_OK)
		fatal("libttsim_pci_config_wr32", "%s", ttx_chip_error(c));
}

/* A physical address in BAR0 (where the configuration space puts it). */
static uint64_t bar0_offset(struct ttx_chip *c, const char *call, uint64_t paddr, uint32_t size)
{
	uint32_t lo, hi;
	ttx_chip_pci_config_read(c, 0x10, &lo);
	ttx_chip_pci_config_read(c, 0x14, &hi);
	uint64_t base = (uint64_t)hi << 32 | (lo & ~0xFu);
	if (paddr < base || paddr - base >= TTX_CHIP_BAR0_SIZE || size > TTX_CHIP_BAR0_SIZE - (paddr - base))
		fatal(call, "physical address 0x%llX (%u bytes) is outside BAR0 (0x%llX, 512 MiB)",
		      (unsigned long long)paddr, size, (unsigned long long)base);
	return paddr - base;
}

LIBTTSIM_API void libttsim_pci_mem_rd_bytes(uint64_t paddr, void *p, uint32_t size)
{
	struct ttx_chip *c = chip("libttsim_pci_mem_rd_bytes");
	if (ttx_chip_bar_read(c, bar0_offset(c, "libttsim_pci_mem_rd_bytes", paddr, size), p, size) != TTX_OK)
		fatal("libttsim_pci_mem_rd_bytes", "0x%llX: %s", (unsigned long long)paddr, ttx_chip_error(c));
}

LIBTTSIM_API void libttsim_pci_mem_wr_bytes(uint64_t paddr, const void *p, uint32_t size)
{
	struct ttx_chip *c = chip("libttsim_pci_mem_wr_bytes");
	if (ttx_chip_bar_write(c, bar0_offset(c, "libttsim_pci_mem_wr_bytes", paddr, size), p, size) != TTX_OK)
		fatal("libttsim_pci_mem_wr_bytes", "0x%llX: %s", (unsigned long long)paddr, ttx_chip_error(c));
}

LIBTTSIM_API void libttsim_tile_rd_bytes(uint32_t x, uint32_t y, uint64_t addr, void *p, uint32_t size)
{
	struct ttx_chip *c = chip("libttsim_tile_rd_bytes");
	if (ttx_chip_noc_read(c, x, y, addr, p, size) != TTX_OK)
		fatal("libttsim_tile_rd_bytes", "(%u, %u) 0x%llX: %s", x, y, (unsigned long long)addr, ttx_chip_error(c));
}

LIBTTSIM_API void libttsim_tile_wr_bytes(uint32_t x, uint32_t y, uint64_t addr, const void *p, uint32_t size)
{
	struct ttx_chip *c = chip("libttsim_tile_wr_bytes");
	if (ttx_chip_noc_write(c, x, y, addr, p, size) != TTX_OK)
		fatal("libttsim_tile_wr_bytes", "(%u, %u) 0x%llX: %s", x, y, (unsigned long long)addr, ttx_chip_error(c));
}

LIBTTSIM_API void libttsim_clock(uint32_t n_clocks)
{
	struct ttx_chip *c = chip("libttsim_clock");
	if (ttx_chip_clock(c, n_clocks) != TTX_OK)
		fatal("libttsim_clock", "%s", ttx_chip_error(c));
}
