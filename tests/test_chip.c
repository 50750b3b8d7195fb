/* A Wormhole chip through ttx's own API (chip/, docs/chip.md): the grid and
 * its coordinates, BAR0's TLB windows, each tile's NoC address space, DRAM,
 * the ARC reset unit, DMA, stepping by device cycles (the same results and
 * cycles on one host thread or several, and after a fork), and every bad
 * access refused with a message.  RISC-V programs are encoded here, so no
 * cross compiler is needed. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static struct ttx_chip *chip(unsigned threads, uint16_t harvested)
{
	struct ttx_chip_options o = { .size = sizeof(o), .threads = threads, .harvested_rows = harvested };
	o.tile.engine = TTX_ENGINE_INTERP;
	char err[256];
	struct ttx_chip *c = NULL;
	ck_assert_msg(ttx_chip_create(&o, &c, err, sizeof(err)) == TTX_OK, "%s", err);
	return c;
}

static void bar_wr32(struct ttx_chip *c, uint64_t off, uint32_t v)
{
	ck_assert_msg(ttx_chip_bar_write(c, off, &v, 4) == TTX_OK, "%s", ttx_chip_error(c));
}

static uint32_t bar_rd32(struct ttx_chip *c, uint64_t off)
{
	uint32_t v;
	ck_assert_msg(ttx_chip_bar_read(c, off, &v, 4) == TTX_OK, "%s", ttx_chip_error(c));
	return v;
}

static void noc_wr32(struct ttx_chip *c, unsigned x, unsigned y, uint64_t a, uint32_t v)
{
	ck_assert_msg(ttx_chip_noc_write(c, x, y, a, &v, 4) == TTX_OK, "%s", ttx_chip_error(c));
}

static uint32_t noc_rd32(struct ttx_chip *c, unsigned x, unsigned y, uint64_t a)
{
	uint32_t v;
	ck_assert_msg(ttx_chip_noc_read(c, x, y, a, &v, 4) == TTX_OK, "%s", ttx_chip_error(c));
	return v;
}

static void refused(enum ttx_status st, struct ttx_chip *c, const char *what)
{
	ck_assert_int_eq(st, TTX_EINVAL);
	ck_assert_msg(strstr(ttx_chip_error(c), what), "error \"%s\" lacks \"%s\"", ttx_chip_error(c), what);
}

START_TEST(test_grid)
{
	struct ttx_chip *c = chip(1, 0);
	unsigned tensix = 0, dram = 0, eth = 0;
	for (unsigned x = 0; x < TTX_CHIP_COLS; x++)
		for (unsigned y = 0; y < TTX_CHIP_ROWS; y++) {
			enum ttx_tile_kind k = ttx_chip_tile_kind(c, x, y);
			tensix += k == TTX_TILE_TENSIX, dram += k == TTX_TILE_DRAM, eth += k == TTX_TILE_ETH;
			ck_assert((ttx_chip_tile(c, x, y) != NULL) == (k == TTX_TILE_TENSIX));
		}
	ck_assert_uint_eq(tensix, 80);
	ck_assert_uint_eq(dram, 18);
	ck_assert_uint_eq(eth, 16);
	ck_assert_int_eq(ttx_chip_tile_kind(c, 0, 3), TTX_TILE_PCIE);
	ck_assert_int_eq(ttx_chip_tile_kind(c, 0, 10), TTX_TILE_ARC);
	ck_assert_int_eq(ttx_chip_tile_kind(c, 0, 2), TTX_TILE_ROUTER);
	ck_assert_int_eq(ttx_chip_tile_kind(c, 10, 0), TTX_TILE_NONE);
	/* translated coordinates (NoC/Coordinates.md): x 16 -> 0, 17 -> 5,
	   18-21 -> 1-4, 22-25 -> 6-9; y 16 -> 0, 17 -> 6, 18.. the Tensix rows */
	ck_assert_ptr_eq(ttx_chip_tile(c, 18, 18), ttx_chip_tile(c, 1, 1));
	ck_assert_ptr_eq(ttx_chip_tile(c, 22, 23), ttx_chip_tile(c, 6, 7));
	ck_assert_int_eq(ttx_chip_tile_kind(c, 17, 16), TTX_TILE_DRAM);   /* (5, 0) */
	ck_assert_int_eq(ttx_chip_tile_kind(c, 26, 18), TTX_TILE_NONE);
	/* NIU identification (NoC/MemoryMap.md): NoC #0 and NoC #1 coordinates, kinds */
	uint32_t node0 = noc_rd32(c, 3, 4, 0xFFB2002C), node1 = noc_rd32(c, 3, 4, 0xFFB3002C);
	ck_assert_uint_eq(node0, 3 | 4 << 6 | 10 << 12 | 12 << 19 | 1u << 28);
	ck_assert_uint_eq(node1, 6 | 7 << 6 | 10 << 12 | 12 << 19);
	ck_assert_uint_eq(noc_rd32(c, 5, 9, 0xF00000000ull | 0xFFB20030) >> 8, 3 | 8 << 8);   /* D3's group, DRAM */
	ck_assert_uint_eq(noc_rd32(c, 0, 3, 0xF00000000ull | 0xFFB20030), 2 | 3 << 16);       /* PCIe */
	ck_assert_uint_eq(noc_rd32(c, 4, 5, 0xFFB20138), 21 | 22 << 6);                        /* translated */
	ttx_chip_destroy(c);
	/* harvested rows: fused off, and last in translated order */
	c = chip(1, 1u << 7 | 1u << 10);
	ck_assert_int_eq(ttx_chip_tile_kind(c, 1, 7), TTX_TILE_HARVESTED);
	ck_assert_ptr_null(ttx_chip_tile(c, 1, 7));
	ck_assert_ptr_eq(ttx_chip_tile(c, 18, 23), ttx_chip_tile(c, 1, 8));
	ck_assert_int_eq(ttx_chip_tile_kind(c, 18, 26), TTX_TILE_HARVESTED);   /* (1, 7) */
	refused(ttx_chip_noc_read(c, 1, 7, 0, &node0, 4), c, "fused off");
	ttx_chip_destroy(c);
	struct ttx_chip_options o = { .size = sizeof(o), .harvested_rows = 1 };
	char err[256];
	ck_assert_int_eq(ttx_chip_create(&o, &c, err, sizeof(err)), TTX_EINVAL);
	ck_assert(strstr(err, "rows without Tensix tiles"));
}
END_TEST

START_TEST(test_pcie)
{
	struct ttx_chip *c = chip(1, 0);
	uint32_t v;
	ck_assert_int_eq(ttx_chip_pci_config_read(c, 0, &v), TTX_OK);
	ck_assert_uint_eq(v, 0x401E1E52);
	ck_assert_int_eq(ttx_chip_pci_config_read(c, 0x10, &v), TTX_OK);
	ck_assert_uint_eq(v, 0xC);
	ck_assert_int_eq(ttx_chip_pci_config_read(c, 0x14, &v), TTX_OK);
	ck_assert_uint_eq(v, 1);
	refused(ttx_chip_pci_config_read(c, 0x11, &v), c, "aligned 32-bit");
	/* TLB windows: 1 MiB window 3 onto (2, 2) at 0x100000; 2 MiB window
	   156 at BAR0 0x09C00000; 16 MiB window 166 at 0x0B000000 onto DRAM */
	uint64_t cfg = 1 | 2ull << 16 | 2ull << 22;
	ck_assert_int_eq(ttx_chip_bar_write(c, 0x1FC00000 + 8 * 3, &cfg, 8), TTX_OK);
	bar_wr32(c, (3u << 20) + 0x44, 0x12345678);
	ck_assert_uint_eq(noc_rd32(c, 2, 2, 0x100044), 0x12345678);
	cfg = 0 | 3ull << 15 | 3ull << 21;   /* N = 15 for 2 MiB windows */
	ck_assert_int_eq(ttx_chip_bar_write(c, 0x1FC00000 + 8 * 156, &cfg, 8), TTX_OK);
	ck_assert_uint_eq(bar_rd32(c, 0x09C00000u + 0x44), 0);
	bar_wr32(c, 0x09C00000u + 0x16DFFC, 7);
	ck_assert_uint_eq(noc_rd32(c, 3, 3, 0x16DFFC), 7);
	cfg = (0x40000000ull >> 24) | 5ull << 12 | 4ull << 18;   /* N = 12: DRAM (5, 4), channel 4 */
	ck_assert_int_eq(ttx_chip_bar_write(c, 0x1FC00000 + 8 * 166, &cfg, 8), TTX_OK);
	bar_wr32(c, 0x0B000000u + 0x10, 0xD4A3);
	ck_assert_uint_eq(noc_rd32(c, 5, 8, 0x40000010), 0xD4A3);   /* another endpoint of channel 4 */
	/* NoC #1 coordinates: (6, 7) on NoC #1 is (3, 4) */
	cfg = 0 | 6ull << 16 | 7ull << 22 | 1ull << 40;
	ck_assert_int_eq(ttx_chip_bar_write(c, 0x1FC00000 + 8 * 4, &cfg, 8), TTX_OK);
	bar_wr32(c, (4u << 20) + 0x80, 0x11);
	ck_assert_uint_eq(noc_rd32(c, 3, 4, 0x80), 0x11);
	/* refusals */
	refused(ttx_chip_bar_read(c, 10u << 20, &v, 4), c, "TLB window 10 has not been configured");
	refused(ttx_chip_bar_read(c, (3u << 20) + 0xFFFFE, &v, 4), c, "run past the end of TLB window 3");
	refused(ttx_chip_bar_read(c, 512u << 20, &v, 4), c, "past BAR0");
	refused(ttx_chip_bar_read(c, 0x1F000000u, &v, 4), c, "reserved");
	cfg = 0 | 5ull << 16 | 3ull << 22;   /* (5, 3): DRAM; its NoC space has no 0xFFB.. registers */
	ck_assert_int_eq(ttx_chip_bar_write(c, 0x1FC00000 + 8 * 5, &cfg, 8), TTX_OK);
	ck_assert_int_eq(ttx_chip_bar_read(c, 5u << 20, &v, 4), TTX_OK);
	cfg = 0 | 12ull << 16 | 3ull << 22;
	ck_assert_int_eq(ttx_chip_bar_write(c, 0x1FC00000 + 8 * 6, &cfg, 8), TTX_OK);
	refused(ttx_chip_bar_read(c, 6u << 20, &v, 4), c, "where there is no tile");
	/* the PCIe tile's own NIU registers at BAR0 0x1FD20000 */
	ck_assert_uint_eq(bar_rd32(c, 0x1FD2002C) & 0xFFF, 0 | 3 << 6);
	ttx_chip_destroy(c);
}
END_TEST

START_TEST(test_tile_spaces)
{
	struct ttx_chip *c = chip(1, 0);
	uint32_t v = 0;
	/* a Tensix tile: L1, the debug registers, NIU and overlay storage */
	noc_wr32(c, 1, 2, 0x16DFFC, 0xAB);
	ck_assert_uint_eq(noc_rd32(c, 1, 2, 0x16DFFC), 0xAB);
	ck_assert_uint_eq(noc_rd32(c, 1, 2, 0xFFB121B0), 0x47800);   /* soft reset at power-on */
	noc_wr32(c, 1, 2, 0xFFB40100, 0x5EED);                        /* overlay */
	ck_assert_uint_eq(noc_rd32(c, 1, 2, 0xFFB40100), 0x5EED);
	noc_wr32(c, 1, 2, 0xFFB20104, 0xF00);                         /* ROUTER_CFG_0 */
	ck_assert_uint_eq(noc_rd32(c, 1, 2, 0xFFB20104), 0xF00);
	noc_wr32(c, 1, 2, 0xFFB2002C, 0);                             /* read-only: ignored */
	ck_assert_uint_ne(noc_rd32(c, 1, 2, 0xFFB2002C), 0);
	refused(ttx_chip_noc_read(c, 1, 2, 0x16DFFE, &v, 4), c, "past the end of L1");
	refused(ttx_chip_noc_read(c, 1, 2, 0xFFE00000, &v, 4), c, "not in what a Tensix tile shows the NoC");
	refused(ttx_chip_noc_read(c, 1, 2, 0xFFB12002, &v, 4), c, "aligned 32-bit");
	refused(ttx_chip_noc_read(c, 1, 2, 0xFFB13000, &v, 4), c, "PIC");
	refused(ttx_chip_noc_read(c, 11, 2, 0, &v, 4), c, "no tile at (11, 2)");
	/* DRAM: 2 GiB a channel, shared by its three tiles; unwritten reads 0 */
	uint8_t big[70000];
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	ck_assert_int_eq(ttx_chip_noc_write(c, 5, 2, 0x7FFE0000 - 100, big, sizeof(big)), TTX_OK);   /* across pages */
	uint8_t back[sizeof(big)];
	ck_assert_int_eq(ttx_chip_noc_read(c, 5, 9, 0x7FFE0000 - 100, back, sizeof(back)), TTX_OK);
	ck_assert(memcmp(big, back, sizeof(big)) == 0);
	ck_assert_uint_eq(noc_rd32(c, 5, 2, 0x1000), 0);
	refused(ttx_chip_noc_read(c, 5, 2, 0x80000000, &v, 4), c, "past its 2 GiB");
	/* ARC: DRAM D0 below 0x8_0000_0000, the CSM, the reset unit */
	noc_wr32(c, 0, 10, 0x800001000ull + 0x10000000, 0xC5);
	ck_assert_uint_eq(bar_rd32(c, 0x1FE81000), 0xC5);
	noc_wr32(c, 0, 10, 0x123400, 0xD0);
	ck_assert_uint_eq(noc_rd32(c, 0, 1, 0x123400), 0xD0);
	refused(ttx_chip_noc_read(c, 0, 10, 0x880030328ull, &v, 4), c, "not safe to access");
	/* the PCI Express tile: the host through the DMA callbacks */
	refused(ttx_chip_noc_read(c, 0, 3, 0x800000000ull, &v, 4), c, "no DMA callbacks");
	ttx_chip_destroy(c);
}
END_TEST

/* ---- running tiles ---- */

/* RV32 encodings */
static uint32_t i_type(int imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return ((uint32_t)imm & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t s_type(int imm, unsigned rs2, unsigned rs1)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 5 & 0x7F) << 25 | rs2 << 20 | rs1 << 15 | 2 << 12 | (u & 0x1F) << 7 | 0x23;
}
static uint32_t bne(unsigned rs1, unsigned rs2, int off)
{
	uint32_t u = (uint32_t)off;
	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | 1 << 12 | (u >> 1 & 0xF) << 8 |
	       (u >> 11 & 1) << 7 | 0x63;
}
#define ADDI(rd, rs1, imm) i_type(imm, rs1, 0, rd, 0x13)
#define LW(rd, rs1, imm) i_type(imm, rs1, 2, rd, 0x03)
#define SW(rs2, rs1, imm) s_type(imm, rs2, rs1)
#define LUI(rd, u) ((uint32_t)(u) << 12 | (rd) << 7 | 0x37)
#define EBREAK 0x00100073u

/* RISCV B at 0: count a0 to N (from L1 0x200), store a0 at 0x100, then
   read the wall clock into 0x104 and halt. */
static void counter(struct ttx_chip *c, unsigned x, unsigned y, uint32_t n)
{
	const uint32_t prog[] = {
		LW(11, 0, 0x200),            /* a1 = n */
		ADDI(10, 10, 1),             /* loop: a0++ */
		bne(10, 11, -4),             /* bne a0, a1, loop */
		SW(10, 0, 0x100),
		LUI(12, 0xFFB12), LW(13, 12, 0x1F0), SW(13, 0, 0x104),
		EBREAK,
	};
	ck_assert_int_eq(ttx_chip_noc_write(c, x, y, 0, prog, sizeof(prog)), TTX_OK);
	noc_wr32(c, x, y, 0x200, n);
	noc_wr32(c, x, y, 0xFFB121B0, 0x47800 & ~(1u << 11));   /* release B */
}

START_TEST(test_clock)
{
	struct ttx_chip *c = chip(1, 0);
	counter(c, 1, 1, 1000);
	/* 1000 iterations of two instructions take about 2,000 cycles: not
	   done after 1,000, done after 3,000 */
	ck_assert_int_eq(ttx_chip_clock(c, 1000), TTX_OK);
	ck_assert_uint_eq(noc_rd32(c, 1, 1, 0x100), 0);
	ck_assert_int_eq(ttx_chip_clock(c, 2000), TTX_OK);
	ck_assert_uint_eq(noc_rd32(c, 1, 1, 0x100), 1000);
	ck_assert_uint_eq(ttx_chip_cycles(c), 3000);
	uint32_t wall = noc_rd32(c, 1, 1, 0x104);
	ck_assert_uint_gt(wall, 1900);
	ck_assert_uint_lt(wall, 3000);
	/* a core released later starts at the chip's cycle */
	counter(c, 2, 1, 10);
	ck_assert_int_eq(ttx_chip_clock(c, 1000), TTX_OK);
	ck_assert_uint_ge(noc_rd32(c, 2, 1, 0x104), 3000);
	/* a fault names the tile */
	const uint32_t bad = 0xFFFFFFFF;
	ck_assert_int_eq(ttx_chip_noc_write(c, 4, 4, 0, &bad, 4), TTX_OK);
	noc_wr32(c, 4, 4, 0xFFB121B0, 0x47800 & ~(1u << 11));
	ck_assert_int_eq(ttx_chip_clock(c, 100), TTX_FAULT);
	ck_assert_msg(strstr(ttx_chip_error(c), "tile (4, 4)") && strstr(ttx_chip_error(c), "not an RV32IM"), "%s",
	              ttx_chip_error(c));
	ttx_chip_destroy(c);
}
END_TEST

/* Many tiles at once: the same values and wall clocks on one host thread
   and on four, stepping 700 cycles at a time; and in a forked child. */
static void run_many(unsigned threads, uint32_t out[8][2])
{
	struct ttx_chip *c = chip(threads, 0);
	for (unsigned i = 0; i < 8; i++)
		counter(c, 1 + i % 4, 1 + i / 4, 500 + 300 * i);
	for (int s = 0; s < 10; s++)
		ck_assert_int_eq(ttx_chip_clock(c, 700), TTX_OK);
	for (unsigned i = 0; i < 8; i++) {
		out[i][0] = noc_rd32(c, 1 + i % 4, 1 + i / 4, 0x100);
		out[i][1] = noc_rd32(c, 1 + i % 4, 1 + i / 4, 0x104);
	}
	ttx_chip_destroy(c);
}

START_TEST(test_threads_and_fork)
{
	uint32_t one[8][2], four[8][2];
	run_many(1, one);
	run_many(4, four);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(one[i][0], 500 + 300 * i);
		ck_assert_uint_eq(one[i][0], four[i][0]);
		ck_assert_uint_eq(one[i][1], four[i][1]);
	}
	/* fork after the pool exists: the child steps on with its own
	   (qemu-user cannot fork a process with threads and start new ones in
	   the child, its own assertions fail: make check-aarch64 sets
	   TTX_TEST_NO_THREADED_FORK) */
	if (getenv("TTX_TEST_NO_THREADED_FORK"))
		return;
	struct ttx_chip *c = chip(3, 0);
	counter(c, 1, 1, 100), counter(c, 2, 1, 200);
	ck_assert_int_eq(ttx_chip_clock(c, 10), TTX_OK);
	pid_t pid = fork();
	if (pid == 0) {
		int ok = ttx_chip_clock(c, 5000) == TTX_OK && noc_rd32(c, 1, 1, 0x100) == 100 && noc_rd32(c, 2, 1, 0x100) == 200;
		ttx_chip_destroy(c);
		_exit(ok ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(ttx_chip_clock(c, 5000), TTX_OK);
	ck_assert_uint_eq(noc_rd32(c, 2, 1, 0x100), 200);
	ttx_chip_destroy(c);
}
END_TEST

static uint8_t host[256];
static void dma_read(void *ctx, uint64_t a, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, host + a, len);
}
static void dma_write(void *ctx, uint64_t a, const void *buf, size_t len)
{
	(void)ctx;
	memcpy(host + a, buf, len);
}

START_TEST(test_dma_and_debug_port)
{
	struct ttx_chip *c = chip(1, 0);
	ttx_chip_set_dma(c, dma_read, dma_write, NULL);
	noc_wr32(c, 0, 3, 0x800000010ull, 0xFEED);
	ck_assert_uint_eq(host[0x10] | host[0x11] << 8, 0xFEED);
	host[0x20] = 0x42;
	ck_assert_uint_eq(noc_rd32(c, 0, 3, 0x800000020ull) & 0xFF, 0x42);
	/* Dst through the debug array read port, from the NoC */
	struct ttx_tile *t = ttx_chip_tile(c, 3, 3);
	uint32_t dst[TTX_DST_ROWS32 * TTX_COLS] = { 0 };
	dst[5 * TTX_COLS + 2] = 0x3F800001;
	ttx_dst32_write(t, dst);
	noc_wr32(c, 3, 3, 0xFFB12060, 1);
	/* Dst32 row 5 is DstBits rows 5 (high half) and 13 (low half); column 2 is word 1's low half */
	noc_wr32(c, 3, 3, 0xFFB12064, 5 | 1 << 12 | 2 << 16);
	uint32_t hi = noc_rd32(c, 3, 3, 0xFFB1206C) & 0xFFFF;
	noc_wr32(c, 3, 3, 0xFFB12064, 13 | 1 << 12 | 2 << 16);
	uint32_t lo = noc_rd32(c, 3, 3, 0xFFB1206C) & 0xFFFF;
	ck_assert_uint_eq((hi & 0x8000) << 16 | (hi & 0xFF) << 23 | ((hi >> 8) & 0x7F) << 16 | lo, 0x3F800001);
	ttx_chip_destroy(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chip");
	TCase *tc = test_tcase(s, "chip");
	tcase_add_test(tc, test_grid);
	tcase_add_test(tc, test_pcie);
	tcase_add_test(tc, test_tile_spaces);
	tcase_add_test(tc, test_clock);
	tcase_add_test(tc, test_threads_and_fork);
	tcase_add_test(tc, test_dma_and_debug_port);
	return test_run_suite(s);
}
