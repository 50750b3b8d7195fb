/* A host driver against the libttsim interface (docs/chip.md), the way
 * UMD-like hosts talk to a simulated Wormhole: dlopen the library by path,
 * read configuration space, program TLB windows in BAR0, write programs
 * into a tile's L1, release soft reset, poll a mailbox in L1 while
 * clocking, read Dst through the debug array read port, take DMA through
 * callbacks; every broken contract ends a child process with the
 * structured message; then every reference vector case of the given
 * folders runs as a host would run it: the words and the pusher program
 * placed in L1 through BAR0, RISCV T0 released, the chip clocked in steps
 * of 1,000 cycles until the pusher's flag, Dst (and for the pack cases L1)
 * read back through BAR0 and compared bit for bit.
 *
 *   test_libttsim LIBTTSIM.so RISCV_ELF_DIR [VECTOR_DIR[:WORDS_DIR]]...
 *
 * RISCV_ELF_DIR holds the test programs (the ELFs of tests/riscv); WORDS_DIR the
 * cases' words as NNNN.bin when VECTOR_DIR has assembler text (pack). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libttsim.h"
#include "slurp.h"

static struct {
	typeof(&libttsim_init) init;
	typeof(&libttsim_exit) exit;
	typeof(&libttsim_set_pci_dma_mem_callbacks) set_dma;
	typeof(&libttsim_pci_config_rd32) cfg_rd;
	typeof(&libttsim_pci_config_wr32) cfg_wr;
	typeof(&libttsim_pci_mem_rd_bytes) mem_rd;
	typeof(&libttsim_pci_mem_wr_bytes) mem_wr;
	typeof(&libttsim_tile_rd_bytes) tile_rd;
	typeof(&libttsim_tile_wr_bytes) tile_wr;
	typeof(&libttsim_clock) clock;
} sim;

static int failures, checks;
static uint64_t bar0;

#define CHECK(cond, ...) do { \
	checks++; \
	if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); putchar('\n'); } \
} while (0)

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- BAR0 and its TLB windows (PCIExpressTile/TLBs.md) ---- */

/* 1 MiB window w (w < 156) onto (x, y), 36-bit address base (1 MiB aligned). */
static void tlb_1m(unsigned w, unsigned x, unsigned y, uint64_t base)
{
	uint64_t cfg = (base >> 20) | (uint64_t)x << 16 | (uint64_t)y << 22;
	sim.mem_wr(bar0 + 0x1FC00000u + 8 * w, &cfg, 8);
}

/* A multicast 1 MiB window onto the rectangle (x0, y0)-(x1, y1). */
static void tlb_1m_mcast(unsigned w, unsigned x0, unsigned y0, unsigned x1, unsigned y1, uint64_t base)
{
	uint64_t cfg = (base >> 20) | (uint64_t)x1 << 16 | (uint64_t)y1 << 22 | (uint64_t)x0 << 28 | (uint64_t)y0 << 34 |
	               1ull << 41;
	sim.mem_wr(bar0 + 0x1FC00000u + 8 * w, &cfg, 8);
}

/* Tile (x, y)'s address space through window 0, a MiB at a time. */
static void tile_io(unsigned x, unsigned y, uint64_t addr, void *buf, size_t len, int store)
{
	unsigned char *b = buf;
	while (len) {
		size_t n = ((addr | 0xFFFFF) + 1) - addr;
		n = n < len ? n : len;
		tlb_1m(0, x, y, addr & ~0xFFFFFull);
		if (store)
			sim.mem_wr(bar0 + (addr & 0xFFFFF), b, (uint32_t)n);
		else
			sim.mem_rd(bar0 + (addr & 0xFFFFF), b, (uint32_t)n);
		addr += n, b += n, len -= n;
	}
}

static uint32_t reg_rd(unsigned x, unsigned y, uint32_t addr)
{
	uint32_t v;
	tile_io(x, y, addr, &v, 4, 0);
	return v;
}

static void reg_wr(unsigned x, unsigned y, uint32_t addr, uint32_t v)
{
	tile_io(x, y, addr, &v, 4, 1);
}

#define SOFT_RESET 0xFFB121B0u
#define DBG_ARRAY_RD_EN 0xFFB12060u
#define DBG_ARRAY_RD_CMD 0xFFB12064u
#define DBG_ARRAY_RD_DATA 0xFFB1206Cu

/* An ELF's PT_LOAD segments at their load addresses in (x, y)'s L1. */
static int load_elf(unsigned x, unsigned y, const char *path)
{
	size_t len;
	unsigned char *e = test_slurp(path, &len);
	if (!e || len < 52 || memcmp(e, "\177ELF", 4) != 0) {
		printf("cannot read ELF %s\n", path);
		free(e);
		return -1;
	}
	uint32_t phoff = le32(e + 28);
	unsigned phentsize = e[42] | e[43] << 8, phnum = e[44] | e[45] << 8;
	for (unsigned i = 0; i < phnum; i++) {
		const unsigned char *ph = e + phoff + i * phentsize;
		uint32_t off = le32(ph + 4), paddr = le32(ph + 12), filesz = le32(ph + 16), memsz = le32(ph + 20);
		if (le32(ph) != 1 || !memsz)
			continue;
		unsigned char *seg = calloc(1, memsz);
		memcpy(seg, e + off, filesz);
		tile_io(x, y, paddr, seg, memsz, 1);
		free(seg);
	}
	free(e);
	return 0;
}

/* Dst (the 1024 raw 16-bit rows) through the debug array read port, as
   FP32 values of 512 rows x 16 (tests/vectors/README.md's formula). */
static void read_dst32(unsigned x, unsigned y, uint32_t out[512][16])
{
	static uint16_t bits[1024][16];
	reg_wr(x, y, DBG_ARRAY_RD_EN, 1);
	for (unsigned r = 0; r < 1024; r++)
		for (unsigned k = 0; k < 8; k++) {
			reg_wr(x, y, DBG_ARRAY_RD_CMD, r | k << 12 | 2u << 16);
			uint32_t v = reg_rd(x, y, DBG_ARRAY_RD_DATA);
			bits[r][2 * k] = (uint16_t)v, bits[r][2 * k + 1] = (uint16_t)(v >> 16);
		}
	reg_wr(x, y, DBG_ARRAY_RD_EN, 0);
	for (unsigned r = 0; r < 512; r++)
		for (unsigned c = 0; c < 16; c++) {
			unsigned a = ((r & 0x1F8) << 1) | (r & 7);
			uint32_t hi = bits[a][c], lo = bits[a + 8][c];
			out[r][c] = (hi & 0x8000) << 16 | (hi & 0xFF) << 23 | ((hi >> 8) & 0x7F) << 16 | lo;
		}
}

/* ---- DMA callbacks ---- */

static unsigned char host_mem[4096];
static uint64_t dma_last_addr;

static void dma_rd(uint64_t paddr, void *p, uint32_t size)
{
	dma_last_addr = paddr;
	memcpy(p, host_mem + (paddr & 0xFFF), size);
}

static void dma_wr(uint64_t paddr, const void *p, uint32_t size)
{
	dma_last_addr = paddr;
	memcpy(host_mem + (paddr & 0xFFF), p, size);
}

/* ---- broken contracts: in a child, which must end with status 1 and say why ---- */

static void expect_fatal(const char *what, void (*call)(void), const char *needle)
{
	int fd[2];
	checks++;
	if (pipe(fd) != 0) {
		failures++;
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		call();
		_exit(0);   /* it returned: the contract was not enforced */
	}
	close(fd[1]);
	char msg[1024] = "";
	size_t got = 0;
	for (ssize_t n; (n = read(fd[0], msg + got, sizeof(msg) - 1 - got)) > 0;)
		got += (size_t)n;
	msg[got] = 0;
	close(fd[0]);
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 || !strstr(msg, "libttsim (ttx): fatal: ") ||
	    !strstr(msg, needle)) {
		failures++;
		printf("FAIL %s: status 0x%X, stderr \"%s\" (wanted \"%s\")\n", what, status, msg, needle);
	}
}

static void before_init(void) { sim.clock(1); }
static void init_twice(void) { sim.init(); sim.init(); }
static void after_exit(void) { sim.init(); sim.exit(); sim.tile_rd(1, 1, 0, host_mem, 4); }
static void unprogrammed_tlb(void) { uint32_t v; sim.init(); sim.mem_rd(bar0 + (5u << 20), &v, 4); }
static void past_bar0(void) { uint32_t v; sim.init(); sim.mem_rd(bar0 + (512u << 20), &v, 4); }
static void no_tile(void) { uint32_t v; sim.init(); sim.tile_rd(12, 3, 0, &v, 4); }
static void unmapped_tile_addr(void) { uint32_t v; sim.init(); sim.tile_rd(1, 1, 0xFFE00000u, &v, 4); }
static void unaligned_config(void) { sim.init(); sim.cfg_rd(0, 2); }
static void dma_without_callbacks(void) { uint32_t v; sim.init(); sim.tile_rd(0, 3, 0x800000000ull, &v, 4); }

/* ---- the driver checks ---- */

static void driver(const char *elf_dir)
{
	char path[1024];
	/* configuration space */
	CHECK(sim.cfg_rd(0, 0) == 0x401E1E52u, "vendor/device 0x%08X", sim.cfg_rd(0, 0));
	CHECK(sim.cfg_rd(1, 0) == 0xFFFFFFFFu, "no device at bdf 1");
	uint32_t lo = sim.cfg_rd(0, 0x10), hi = sim.cfg_rd(0, 0x14);
	bar0 = (uint64_t)hi << 32 | (lo & ~0xFu);
	CHECK(bar0 == 0x100000000ull && (lo & 0xF) == 0xC, "BAR0 0x%08X 0x%08X", hi, lo);
	sim.cfg_wr(0, 0x10, 0xFFFFFFFFu);   /* sizing: 512 MiB */
	CHECK(sim.cfg_rd(0, 0x10) == 0xE000000Cu, "BAR0 size mask 0x%08X", sim.cfg_rd(0, 0x10));
	sim.cfg_wr(0, 0x10, lo);
	CHECK(sim.cfg_rd(0, 0x10) == lo, "BAR0 restored");
	/* a TLB's configuration reads back */
	tlb_1m(7, 3, 4, 0x300000);
	uint64_t cfg;
	sim.mem_rd(bar0 + 0x1FC00000u + 8 * 7, &cfg, 8);
	CHECK(cfg == (0x3 | 3ull << 16 | 4ull << 22), "TLB 7 = 0x%llX", (unsigned long long)cfg);

	/* an LLK-style program: B's firmware at 0 sets the TRISCs' start PCs
	   and releases them; each reports in L1; B writes the mailbox */
	const char *progs[4][2] = { { "llk_brisc.brisc.elf", "B" }, { "llk_unpack.trisc0.elf", "T0" },
	                            { "llk_math.trisc1.elf", "T1" }, { "llk_pack.trisc2.elf", "T2" } };
	for (unsigned i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", elf_dir, progs[i][0]);
		CHECK(load_elf(2, 3, path) == 0, "%s", path);
	}
	uint32_t args[3] = { 0x6000, 0xA000, 0xE000 };
	tile_io(2, 3, 0x16100, args, sizeof(args), 1);
	uint32_t rst = reg_rd(2, 3, SOFT_RESET);
	CHECK(rst == 0x47800, "soft reset at power-on 0x%X", rst);
	reg_wr(2, 3, SOFT_RESET, rst & ~(1u << 11));   /* release RISCV B */
	unsigned steps = 0;
	uint32_t flag = 0;
	while (flag != 0x600D && steps < 1000) {
		sim.clock(1000);
		steps++;
		tile_io(2, 3, 0x16000, &flag, 4, 0);
	}
	CHECK(flag == 0x600D, "the mailbox never said done (0x%X after %u steps)", flag, steps);
	static uint32_t dst[512][16];
	read_dst32(2, 3, dst);
	CHECK(dst[64][0] == 0x40000000u, "Dst row 64 = 0x%08X (1.0 + 1.0 expected)", dst[64][0]);
	CHECK(reg_rd(2, 3, SOFT_RESET) == (rst & ~0x7800u), "all four released: 0x%X", reg_rd(2, 3, SOFT_RESET));
	/* the other tiles did nothing */
	uint32_t other;
	sim.tile_rd(3, 3, 0x16000, &other, 4);
	CHECK(other == 0, "tile (3, 3) untouched");
	/* translated coordinates: (18, 18) is (1, 1), (19, 19) is (2, 2) */
	uint32_t v = 0xC0FFEE;
	sim.tile_wr(1, 1, 0x100, &v, 4);
	v = 0;
	sim.tile_rd(18, 18, 0x100, &v, 4);
	CHECK(v == 0xC0FFEE, "translated (18, 18) read 0x%X", v);
	/* NIU identification of (2, 3) from the NoC */
	uint32_t node = reg_rd(2, 3, 0xFFB2002Cu);
	CHECK((node & 63) == 2 && (node >> 6 & 63) == 3 && (node >> 12 & 127) == 10, "NOC_NODE_ID 0x%X", node);

	/* a multicast window: one write reaches every Tensix tile of the
	   rectangle (1, 1)-(4, 2) and no other tile */
	tlb_1m_mcast(9, 1, 1, 4, 2, 0x100000);
	v = 0xB0A710AD;
	sim.mem_wr(bar0 + (9u << 20) + 0x40, &v, 4);
	for (unsigned x = 1; x <= 5; x++)
		for (unsigned y = 1; y <= 3; y++) {
			uint32_t got = 0;
			if (x == 5) {   /* DRAM column */
				sim.tile_rd(x, y, 0x100040, &got, 4);
				CHECK(got == 0, "multicast reached DRAM (%u, %u)", x, y);
				continue;
			}
			sim.tile_rd(x, y, 0x100040, &got, 4);
			CHECK(got == (y <= 2 ? 0xB0A710ADu : 0), "multicast at (%u, %u): 0x%X", x, y, got);
		}

	/* DRAM: the three tiles of a channel share its memory; ARC routes low
	   addresses to D0 */
	uint64_t d = 0x12345678;
	tile_io(0, 0, 0x40000000, &d, 8, 1);
	uint64_t e = 0;
	sim.tile_rd(0, 11, 0x40000000, &e, 8);
	CHECK(e == d, "DRAM D0 through (0, 11): 0x%llX", (unsigned long long)e);
	e = 0;
	sim.tile_rd(0, 10, 0x40000000, &e, 8);
	CHECK(e == d, "DRAM D0 through ARC: 0x%llX", (unsigned long long)e);
	sim.tile_rd(5, 0, 0x40000000, &e, 8);
	CHECK(e == 0, "another channel is separate");

	/* the ARC reset unit through BAR0: scratch registers, the 27 MHz counter */
	v = 0xA5A5;
	sim.mem_wr(bar0 + 0x1FF30060u, &v, 4);
	uint32_t s0 = 0, r0, r1;
	sim.mem_rd(bar0 + 0x1FF30060u, &s0, 4);
	CHECK(s0 == 0xA5A5, "SCRATCH[0] 0x%X", s0);
	sim.mem_rd(bar0 + 0x1FF300E0u, &r0, 4);
	sim.clock(100000);
	sim.mem_rd(bar0 + 0x1FF300E0u, &r1, 4);
	CHECK(r1 - r0 == 2700, "REFCLK advanced by %u over 100,000 cycles (2,700 expected)", r1 - r0);

	/* DMA: the PCI Express tile's NoC side reaches host memory through the
	   callbacks (the outbound iATU's identity mapping) */
	sim.set_dma(dma_rd, dma_wr);
	v = 0xD1A;
	sim.tile_wr(0, 3, 0x800000123ull, &v, 4);
	CHECK(dma_last_addr == 0x123 && le32(host_mem + 0x123) == 0xD1A, "DMA write to host 0x%llX",
	      (unsigned long long)dma_last_addr);
	memcpy(host_mem + 0x200, "\x11\x22\x33\x44", 4);
	sim.tile_rd(0, 3, 0x800000200ull, &v, 4);
	CHECK(v == 0x44332211, "DMA read from host: 0x%X", v);
}

/* ---- the seed article's experiment (Wormhole part 3, "NoC propagation
   delay"): the host multicasts a program and a soft-reset release to
   every Tensix tile through a multicast TLB window; each RISCV B stores
   the tile's cycle counter (0xFFB121F0) as it starts; the times grow by 9
   cycles a hop along the multicast's tree from the PCI Express tile
   (0, 3): on NoC #0 rightwards then (the major axis being X) down each
   column, t = T + 9 (x + (y - 3) mod 12); on NoC #1 leftwards and up,
   t = S + 9 ((10 - x) mod 10 + (3 - y) mod 12). ---- */

static void propagation(unsigned noc)
{
	static const uint32_t rv_code[] = {
		0xFFB12537,   /* lui a0, 0xFFB12 */
		0x1F052583,   /* lw a1, 0x1F0(a0) */
		0x1F852603,   /* lw a2, 0x1F8(a0) */
		0x08B02023,   /* sw a1, 128(x0) */
		0x08C02223,   /* sw a2, 132(x0) */
		0x0000006F,   /* loop: j loop */
	};
	const uint32_t all = 0x47800;
	/* the whole grid, (0, 0)-(9, 11) in the NoC's own coordinates */
	uint64_t cfg_reg = (0xFFB121B0ull >> 20) | 9ull << 16 | 11ull << 22 | 1ull << 41 | (uint64_t)noc << 40;
	uint64_t cfg_l1 = 0 | 9ull << 16 | 11ull << 22 | 1ull << 41 | (uint64_t)noc << 40;
	sim.mem_wr(bar0 + 0x1FC00000u + 8 * 10, &cfg_reg, 8);
	sim.mem_wr(bar0 + 0x1FC00000u + 8 * 11, &cfg_l1, 8);
	uint32_t v = all;
	sim.mem_wr(bar0 + (10u << 20) + (0xFFB121B0u & 0xFFFFF), &v, 4);
	sim.mem_wr(bar0 + (11u << 20), rv_code, sizeof(rv_code));
	sim.clock(1000);
	v = all & (all - 1);   /* release RISCV B */
	sim.mem_wr(bar0 + (10u << 20) + (0xFFB121B0u & 0xFFFFF), &v, 4);
	sim.clock(1000);
	/* read back by translated coordinates: x 18-25 and y 18-25 are the
	   Tensix columns and rows */
	static const unsigned cols[8] = { 1, 2, 3, 4, 6, 7, 8, 9 }, rows[8] = { 1, 2, 3, 4, 5, 7, 8, 9 };
	uint64_t base = 0;
	int bad = 0;
	for (unsigned j = 0; j < 8; j++)
		for (unsigned i = 0; i < 8; i++) {
			uint64_t t;
			tlb_1m(0, 18 + i, 18 + j, 0);
			sim.mem_rd(bar0 + 128, &t, 8);
			unsigned x = cols[i], y = rows[j];
			unsigned hops = noc ? (10 - x) % 10 + (3 + 12 - y) % 12 : x + (y + 12 - 3) % 12;
			if (!base)
				base = t - 9 * hops;
			if (t != base + 9 * hops && bad++ < 4)
				CHECK(0, "NoC #%u: tile (%u, %u) started at %llu, expected %llu (%u hops)", noc, x, y,
				      (unsigned long long)t, (unsigned long long)(base + 9 * hops), hops);
		}
	CHECK(!bad, "NoC #%u: the start times grow by 9 cycles a hop from the PCI Express tile", noc);
	/* in the PCI Express tile's row: 72 cycles across the 8 tiles */
	uint64_t first, last;
	tlb_1m(0, 18, 20, 0), sim.mem_rd(bar0 + 128, &first, 8);
	tlb_1m(0, 25, 20, 0), sim.mem_rd(bar0 + 128, &last, 8);
	CHECK((noc ? first - last : last - first) == 72, "NoC #%u: row 3 spans %lld cycles (72 expected)", noc,
	      (long long)(noc ? first - last : last - first));
	v = all;
	sim.mem_wr(bar0 + (10u << 20) + (0xFFB121B0u & 0xFFFFF), &v, 4);
}

/* ---- the reference vectors through the interface ---- */

static int run_case(const char *dir, const char *words_dir, const char *id, const char *rows, const char *l1,
                    const char *l1_in, const char *pusher)
{
	char path[2200];
	size_t blen, dlen;
	snprintf(path, sizeof(path), "%s/%s.bin", words_dir, id);
	unsigned char *bin = test_slurp(path, &blen);
	snprintf(path, sizeof(path), "%s/%s.dst", dir, id);
	unsigned char *exp = test_slurp(path, &dlen);
	int ok = 0;
	if (!bin || !exp || blen % 4 || dlen != 512 * 16 * 4) {
		printf("FAIL %s/%s: missing case files\n", dir, id);
		goto out;
	}
	/* a fresh chip for each case, as the reference vectors assume */
	sim.init();
	uint32_t n = (uint32_t)(blen / 4);
	tile_io(1, 1, 0x20000, &n, 4, 1);
	tile_io(1, 1, 0x20004, bin, blen, 1);
	if (l1_in && *l1_in) {   /* ADDR:FILE,... */
		char spec[1024];
		snprintf(spec, sizeof(spec), "%s", l1_in);
		for (char *s = strtok(spec, ","); s; s = strtok(NULL, ",")) {
			char *colon = strchr(s, ':');
			size_t flen;
			*colon = 0;
			snprintf(path, sizeof(path), "%s/%s", dir, colon + 1);
			unsigned char *data = test_slurp(path, &flen);
			if (!data) {
				printf("FAIL %s/%s: cannot read %s\n", dir, id, path);
				sim.exit();
				goto out;
			}
			tile_io(1, 1, strtoull(s, NULL, 0), data, flen, 1);
			free(data);
		}
	}
	load_elf(1, 1, pusher);
	reg_wr(1, 1, SOFT_RESET, 0x47800 & ~(1u << 12));   /* release RISCV T0 (reset PC 0x6000) */
	uint32_t flag = 0;
	for (unsigned steps = 0; flag != 0x600D && steps < 100000; steps++) {
		sim.clock(1000);
		tile_io(1, 1, 0x1FFF8, &flag, 4, 0);
	}
	if (flag != 0x600D) {
		printf("FAIL %s/%s: the pusher never finished\n", dir, id);
		sim.exit();
		goto out;
	}
	static uint32_t dst[512][16];
	read_dst32(1, 1, dst);
	ok = 1;
	for (const char *s = rows; *s && ok;) {   /* "a-b,c-d" */
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long r = a; r <= b && ok; r++)
			for (unsigned c = 0; c < 16; c++)
				if (dst[r][c] != le32(exp + 4 * (r * 16 + c))) {
					printf("FAIL %s/%s: Dst row %ld col %u: 0x%08X, expected 0x%08X\n", dir, id, r, c, dst[r][c],
					       le32(exp + 4 * (r * 16 + c)));
					ok = 0;
					break;
				}
		s = *end == ',' ? end + 1 : end;
	}
	if (ok && l1 && *l1) {   /* ADDR:LEN: the packer's output */
		char *colon;
		uint64_t addr = strtoull(l1, &colon, 0);
		size_t len = strtoul(colon + 1, NULL, 0), elen;
		snprintf(path, sizeof(path), "%s/%s.l1", dir, id);
		unsigned char *want = test_slurp(path, &elen), *got = malloc(len);
		tile_io(1, 1, addr, got, len, 0);
		if (!want || elen != len || memcmp(got, want, len) != 0) {
			printf("FAIL %s/%s: L1 0x%llX:%zu differs\n", dir, id, (unsigned long long)addr, len);
			ok = 0;
		}
		free(want), free(got);
	}
	sim.exit();
out:
	free(bin);
	free(exp);
	return ok;
}

static void vectors(const char *spec, const char *pusher)
{
	char dir[1024], words[1024], path[1100];
	snprintf(dir, sizeof(dir), "%s", spec);
	char *colon = strchr(dir, ':');
	if (colon)
		*colon = 0;
	snprintf(words, sizeof(words), "%s", colon ? colon + 1 : dir);
	snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
	size_t len;
	char *manifest = (char *)test_slurp(path, &len);
	if (!manifest) {
		printf("FAIL cannot read %s\n", path);
		failures++;
		return;
	}
	int passed = 0, failed = 0;
	char *save;
	for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || strncmp(line, "id\t", 3) == 0)
			continue;
		char *f[8] = { 0 };
		char *p = line;
		for (int i = 0; i < 8 && p; i++) {
			f[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = 0;
		}
		if (!f[4])
			continue;
		if (run_case(dir, words, f[0], f[4], f[6], f[7], pusher))
			passed++;
		else
			failed++;
	}
	free(manifest);
	printf("vectors %s through libttsim: %d passed, %d failed\n", dir, passed, failed);
	checks += passed + failed;
	failures += failed;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: test_libttsim LIBTTSIM.so RISCV_ELF_DIR [VECTOR_DIR[:WORDS_DIR]]...\n");
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("FAIL dlopen %s: %s\n", argv[1], dlerror());
		return 1;
	}
#define SYM(field, name) \
	if (!(*(void **)&sim.field = dlsym(h, #name))) { printf("FAIL %s does not export %s\n", argv[1], #name); return 1; }
	SYM(init, libttsim_init) SYM(exit, libttsim_exit) SYM(set_dma, libttsim_set_pci_dma_mem_callbacks)
	SYM(cfg_rd, libttsim_pci_config_rd32) SYM(cfg_wr, libttsim_pci_config_wr32)
	SYM(mem_rd, libttsim_pci_mem_rd_bytes) SYM(mem_wr, libttsim_pci_mem_wr_bytes)
	SYM(tile_rd, libttsim_tile_rd_bytes) SYM(tile_wr, libttsim_tile_wr_bytes) SYM(clock, libttsim_clock)
	CHECK(dlsym(h, "ttx_tile_new") == NULL, "libttsim.so exports more than the interface (ttx_tile_new)");
	bar0 = 0x100000000ull;
	expect_fatal("a call before libttsim_init", before_init, "libttsim_clock: called before libttsim_init");
	expect_fatal("libttsim_init twice", init_twice, "libttsim_init: called twice");
	expect_fatal("a call after libttsim_exit", after_exit, "called after libttsim_exit");
	expect_fatal("an unprogrammed TLB", unprogrammed_tlb, "TLB window 5 has not been configured");
	expect_fatal("past BAR0", past_bar0, "outside BAR0");
	expect_fatal("no tile there", no_tile, "no tile at (12, 3)");
	expect_fatal("an address the tile does not map", unmapped_tile_addr, "not in what a Tensix tile shows the NoC");
	expect_fatal("an unaligned configuration access", unaligned_config, "aligned 32-bit");
	expect_fatal("DMA without callbacks", dma_without_callbacks, "no DMA callbacks");
	sim.init();
	driver(argv[2]);
	sim.exit();
	for (unsigned noc = 0; noc < 2; noc++) {
		sim.init();
		propagation(noc);
		sim.exit();
	}
	char pusher[1024];
	snprintf(pusher, sizeof(pusher), "%s/pusher.trisc0.elf", argv[2]);
	for (int i = 3; i < argc; i++)
		vectors(argv[i], pusher);
	printf("test_libttsim: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
