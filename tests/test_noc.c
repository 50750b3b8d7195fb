/* The NoC between tiles (chip/noc.c, docs/chip.md "NoC"): cores issuing
 * reads, writes, multicasts and atomics through their NIUs
 * (tests/riscv/noc_test.c), the data, the counters Counters.md lists, and
 * the cycles things land at, derived by hand from the timing model
 * (docs/timing.md "NoC and DRAM": an NIU takes 16 cycles each way, the
 * first hop onto the router 1, each router hop 9, the last hop a cycle a
 * flit, a flit 32 bytes).  Skipped (77) without the cross compiler. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"

#define ARGS    0x20000u
#define RESULTS 0x20100u
#define DATA    0x21000u
#define INTO    0x23000u
#define SEM     0x25000u
#define RESET   0xFFB121B0u
#define NIU(noc) (0xFFB20000u + 0x10000u * (noc))

enum { DO_WRITE = 1, DO_READ, DO_INC, DO_WAIT, DO_MCAST, DO_WORD, DO_BAD_TYPE, DO_BAD_SRC, DO_MCAST_INC };
/* counters (Counters.md) */
enum { ATOMIC_RESP_RECEIVED, WR_ACK_RECEIVED, RD_RESP_RECEIVED, RD_DATA_WORD_RECEIVED, CMD_ACCEPTED, RD_REQ_SENT,
       NONPOSTED_ATOMIC_SENT, POSTED_ATOMIC_SENT, NONPOSTED_WR_DATA_WORD_SENT, POSTED_WR_DATA_WORD_SENT,
       NONPOSTED_WR_REQ_SENT, POSTED_WR_REQ_SENT, REQS_OUTSTANDING0 = 16, SLV_ATOMIC_RESP_SENT = 48, SLV_WR_ACK_SENT,
       SLV_RD_RESP_SENT, SLV_RD_DATA_WORD_SENT, SLV_REQ_ACCEPTED, SLV_RD_REQ_RECEIVED, SLV_NONPOSTED_ATOMIC_RECEIVED,
       SLV_POSTED_ATOMIC_RECEIVED, SLV_NONPOSTED_WR_DATA_WORD_RECEIVED, SLV_POSTED_WR_DATA_WORD_RECEIVED,
       SLV_NONPOSTED_WR_REQ_RECEIVED, SLV_POSTED_WR_REQ_RECEIVED };

static void *elf;
static size_t elf_len;

static void load_elf(void)
{
	const char *dir = getenv("TTX_BUILDDIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/riscv/noc_test.brisc.elf", dir ? dir : ".");
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("%s: not built (no riscv64-unknown-elf-gcc at configure): skipped\n", path);
		exit(77);
	}
	fseek(f, 0, SEEK_END);
	elf_len = (size_t)ftell(f);
	rewind(f);
	elf = malloc(elf_len);
	if (!elf || fread(elf, 1, elf_len, f) != elf_len)
		abort();
	fclose(f);
}

static struct ttx_chip *chip(unsigned threads)
{
	struct ttx_chip_options o = { .size = sizeof(o), .threads = threads };
	struct ttx_chip *c;
	char err[256];
	ck_assert_msg(ttx_chip_create(&o, &c, err, sizeof(err)) == TTX_OK, "%s", err);
	return c;
}

static void wr32(struct ttx_chip *c, unsigned x, unsigned y, uint64_t a, uint32_t v)
{
	ck_assert_msg(ttx_chip_noc_write(c, x, y, a, &v, 4) == TTX_OK, "%s", ttx_chip_error(c));
}

static uint32_t rd32(struct ttx_chip *c, unsigned x, unsigned y, uint64_t a)
{
	uint32_t v;
	ck_assert_msg(ttx_chip_noc_read(c, x, y, a, &v, 4) == TTX_OK, "%s", ttx_chip_error(c));
	return v;
}

static uint32_t counter(struct ttx_chip *c, unsigned x, unsigned y, unsigned noc, unsigned i)
{
	return rd32(c, x, y, NIU(noc) + 0x200 + 4 * i);
}

/* RISCV B of (x, y) runs noc_test with these arguments. */
static void start(struct ttx_chip *c, unsigned x, unsigned y, uint32_t what, uint32_t noc, uint32_t px, uint32_t py,
                  uint32_t len, uint32_t n, uint32_t x1, uint32_t y1, uint32_t dests, uint32_t self)
{
	struct ttx_tile *t = ttx_chip_tile(c, x, y);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(ttx_elf_load(t, TTX_CORE_B, elf, elf_len, NULL), TTX_OK);
	const uint32_t args[] = { what, noc, px, py, len, n, x1, y1, dests, self };
	ck_assert_int_eq(ttx_chip_noc_write(c, x, y, ARGS, args, sizeof(args)), TTX_OK);
	wr32(c, x, y, RESET, 0x47800 & ~(1u << 11));
}

static int done(struct ttx_chip *c, unsigned x, unsigned y)
{
	return rd32(c, x, y, RESULTS + 0x20) == 0xD0E;
}

/* Clock until (x, y) is done (a quantum at a time), at most `limit`. */
static void run_until_done(struct ttx_chip *c, unsigned x, unsigned y, uint64_t limit)
{
	while (!done(c, x, y)) {
		ck_assert_msg(ttx_chip_clock(c, 32) == TTX_OK, "%s", ttx_chip_error(c));
		ck_assert_msg(ttx_chip_cycles(c) < limit, "(%u, %u) not done by cycle %llu", x, y,
		              (unsigned long long)limit);
	}
}

static void pattern(struct ttx_chip *c, unsigned x, unsigned y, uint32_t addr, size_t len, uint8_t seed)
{
	uint8_t *b = malloc(len);
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed + 7 * i);
	ck_assert_int_eq(ttx_chip_noc_write(c, x, y, addr, b, len), TTX_OK);
	free(b);
}

static int has_pattern(struct ttx_chip *c, unsigned x, unsigned y, uint32_t addr, size_t len, uint8_t seed)
{
	uint8_t *b = malloc(len);
	ck_assert_int_eq(ttx_chip_noc_read(c, x, y, addr, b, len), TTX_OK);
	int ok = 1;
	for (size_t i = 0; i < len; i++)
		ok &= b[i] == (uint8_t)(seed + 7 * i);
	free(b);
	return ok;
}

/* A write of 64 bytes (3 flits) and its acknowledgement (1 flit) between
   (1, 1) and (3, 1): 2 hops there, 8 back on NoC #0 (rightwards, around
   the torus), 8 there and 2 back on NoC #1; either way 10 hops = 90
   cycles, 2 x (16 + 1 + 16) in the NIUs, 3 + 1 flits off the NoC: 160
   cycles from NOC_CMD_CTRL to NIU_MST_WR_ACK_RECEIVED.  In different row
   and column, (3, 4): 2 + 3 hops there, 8 + 9 back: 22 hops, 268. */
START_TEST(test_write)
{
	static const struct { unsigned noc, x, y, round; } cases[] = {
		{ 0, 3, 1, 160 }, { 1, 3, 1, 160 }, { 0, 3, 4, 268 }, { 1, 3, 4, 268 },
	};
	uint32_t took[4];
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ttx_chip *c = chip(1);
		unsigned noc = cases[k].noc, x = cases[k].x, y = cases[k].y;
		/* coordinates as the NoC names them */
		unsigned nx = noc ? 9 - x : x, ny = noc ? 11 - y : y;
		pattern(c, 1, 1, DATA, 64, (uint8_t)k);
		start(c, 1, 1, DO_WRITE, noc, nx, ny, 64, 0, 0, 0, 0, 0);
		run_until_done(c, 1, 1, 5000);
		ck_assert(has_pattern(c, x, y, INTO, 64, (uint8_t)k));
		uint32_t issued = rd32(c, 1, 1, RESULTS + 4), end = rd32(c, 1, 1, RESULTS + 8);
		/* (the wall clock is read some cycles after the store: two loads
		   of it, 7 cycles each) */
		took[k] = end - issued;
		ck_assert_msg(end - issued >= cases[k].round - 16 && end - issued <= cases[k].round,
		              "NoC #%u to (%u, %u): %u cycles from issue to acknowledgement, expected %u", noc, x, y,
		              end - issued, cases[k].round);
		ck_assert_uint_eq(counter(c, 1, 1, noc, WR_ACK_RECEIVED), 1);
		ck_assert_uint_eq(counter(c, 1, 1, noc, CMD_ACCEPTED), 1);
		ck_assert_uint_eq(counter(c, 1, 1, noc, NONPOSTED_WR_REQ_SENT), 1);
		ck_assert_uint_eq(counter(c, 1, 1, noc, NONPOSTED_WR_DATA_WORD_SENT), 2);
		ck_assert_uint_eq(counter(c, 1, 1, noc, REQS_OUTSTANDING0), 0);
		ck_assert_uint_eq(rd32(c, 1, 1, RESULTS + 12), 0);
		ck_assert_uint_eq(counter(c, x, y, noc, SLV_NONPOSTED_WR_REQ_RECEIVED), 1);
		ck_assert_uint_eq(counter(c, x, y, noc, SLV_NONPOSTED_WR_DATA_WORD_RECEIVED), 2);
		ck_assert_uint_eq(counter(c, x, y, noc, SLV_WR_ACK_SENT), 1);
		ck_assert_uint_eq(counter(c, x, y, noc, SLV_REQ_ACCEPTED), 0);   /* (writes do not count it) */
		ck_assert_uint_eq(counter(c, x, y, !noc, SLV_NONPOSTED_WR_REQ_RECEIVED), 0);
		ttx_chip_destroy(c);
	}
	/* the same code: the differences are exact */
	ck_assert_uint_eq(took[1], took[0]);
	ck_assert_uint_eq(took[2] - took[0], 12 * 9);
	ck_assert_uint_eq(took[3] - took[1], 12 * 9);
}
END_TEST

/* Reads: a 1-flit request and a 1 + 8 flit response for 256 bytes, same
   row: 90 + 66 + 1 + 9 = 166 cycles; 20,000 bytes are three packets
   (8 KiB, 8 KiB, 3,616 bytes), REQS_OUTSTANDING counts three. */
START_TEST(test_read)
{
	struct ttx_chip *c = chip(1);
	pattern(c, 3, 1, DATA, 256, 9);
	start(c, 1, 1, DO_READ, 0, 3, 1, 256, 0, 0, 0, 0, 0);
	run_until_done(c, 1, 1, 5000);
	ck_assert(has_pattern(c, 1, 1, INTO, 256, 9));
	uint32_t t = rd32(c, 1, 1, RESULTS + 8) - rd32(c, 1, 1, RESULTS + 4);
	ck_assert_msg(t >= 166 - 16 && t <= 166, "a 256-byte read took %u cycles, expected 166 and a few", t);
	ck_assert_uint_eq(counter(c, 1, 1, 0, RD_RESP_RECEIVED), 1);
	ck_assert_uint_eq(counter(c, 1, 1, 0, RD_DATA_WORD_RECEIVED), 8);
	ck_assert_uint_eq(counter(c, 1, 1, 0, RD_REQ_SENT), 1);
	ck_assert_uint_eq(counter(c, 3, 1, 0, SLV_RD_REQ_RECEIVED), 1);
	ck_assert_uint_eq(counter(c, 3, 1, 0, SLV_RD_RESP_SENT), 1);
	ck_assert_uint_eq(counter(c, 3, 1, 0, SLV_RD_DATA_WORD_SENT), 8);
	ck_assert_uint_eq(counter(c, 3, 1, 0, SLV_REQ_ACCEPTED), 1);
	ttx_chip_destroy(c);

	c = chip(1);
	pattern(c, 2, 2, DATA, 20000, 3);
	start(c, 1, 1, DO_READ, 1, 9 - 2, 11 - 2, 20000, 0, 0, 0, 0, 0);
	run_until_done(c, 1, 1, 10000);
	ck_assert(has_pattern(c, 1, 1, INTO, 20000, 3));
	ck_assert_uint_eq(counter(c, 1, 1, 1, RD_RESP_RECEIVED), 3);
	ck_assert_uint_eq(counter(c, 1, 1, 1, RD_DATA_WORD_RECEIVED), 256 + 256 + 113);
	ck_assert_uint_eq(counter(c, 1, 1, 1, CMD_ACCEPTED), 3);
	ck_assert_uint_eq(counter(c, 1, 1, 1, REQS_OUTSTANDING0), 0);
	/* translated coordinates (x 18-25, y 18-27 are the Tensix tiles) */
	ttx_chip_destroy(c);
	c = chip(1);
	pattern(c, 9, 11, DATA, 64, 5);
	start(c, 1, 1, DO_READ, 0, 25, 27, 64, 0, 0, 0, 0, 0);
	run_until_done(c, 1, 1, 5000);
	ck_assert(has_pattern(c, 1, 1, INTO, 64, 5));
	ttx_chip_destroy(c);
}
END_TEST

/* Atomic increments: five posted and one returning the old value; the
   waiting core on the other tile goes on once its semaphore reaches 6. */
START_TEST(test_atomics)
{
	struct ttx_chip *c = chip(2);
	start(c, 4, 3, DO_WAIT, 0, 0, 0, 0, 6, 0, 0, 0, 0);
	ck_assert_int_eq(ttx_chip_clock(c, 500), TTX_OK);
	ck_assert(!done(c, 4, 3));
	start(c, 1, 1, DO_INC, 0, 4, 3, 0, 5, 0, 0, 0, 0);
	run_until_done(c, 1, 1, 5000);
	run_until_done(c, 4, 3, 5000);
	ck_assert_uint_eq(rd32(c, 4, 3, SEM), 105);
	ck_assert_uint_eq(rd32(c, 1, 1, RESULTS + 16), 5);   /* the old value */
	ck_assert_uint_eq(counter(c, 1, 1, 0, POSTED_ATOMIC_SENT), 5);
	ck_assert_uint_eq(counter(c, 1, 1, 0, NONPOSTED_ATOMIC_SENT), 1);
	ck_assert_uint_eq(counter(c, 1, 1, 0, ATOMIC_RESP_RECEIVED), 1);
	ck_assert_uint_eq(counter(c, 1, 1, 0, REQS_OUTSTANDING0), 0);
	ck_assert_uint_eq(counter(c, 4, 3, 0, SLV_POSTED_ATOMIC_RECEIVED), 5);
	ck_assert_uint_eq(counter(c, 4, 3, 0, SLV_NONPOSTED_ATOMIC_RECEIVED), 1);
	ck_assert_uint_eq(counter(c, 4, 3, 0, SLV_ATOMIC_RESP_SENT), 1);
	ck_assert_uint_eq(counter(c, 4, 3, 0, SLV_REQ_ACCEPTED), 6);
	/* the clear register zeroes REQS_OUTSTANDING_ID(i) for each bit */
	ttx_chip_destroy(c);
}
END_TEST

/* Multicast writes reach the Tensix tiles of the rectangle (not the DRAM
   column x 5 nor the Ethernet row y 6), the sender only when asked; each
   acknowledges. */
START_TEST(test_multicast)
{
	struct ttx_chip *c = chip(2);
	pattern(c, 4, 5, DATA, 128, 1);
	start(c, 4, 5, DO_MCAST, 0, 4, 5, 128, 0, 6, 7, 3, 0);
	run_until_done(c, 4, 5, 5000);
	ck_assert(has_pattern(c, 6, 5, INTO, 128, 1) && has_pattern(c, 4, 7, INTO, 128, 1) &&
	          has_pattern(c, 6, 7, INTO, 128, 1));
	ck_assert(!has_pattern(c, 4, 5, INTO, 128, 1));
	ck_assert_uint_eq(counter(c, 4, 5, 0, WR_ACK_RECEIVED), 3);
	ck_assert_uint_eq(counter(c, 4, 5, 0, REQS_OUTSTANDING0), 0);
	ck_assert_uint_eq(rd32(c, 5, 5, 0xF00000000ull + NIU(0) + 0x200 + 4 * SLV_NONPOSTED_WR_REQ_RECEIVED), 0);   /* DRAM opted out */
	ttx_chip_destroy(c);
	/* with the sender, on NoC #1, a rectangle given in NoC #1 coordinates */
	c = chip(1);
	pattern(c, 2, 2, DATA, 100, 2);
	start(c, 2, 2, DO_MCAST, 1, 9 - 3, 11 - 3, 100, 0, 9 - 1, 11 - 1, 9, 1);
	run_until_done(c, 2, 2, 5000);
	for (unsigned x = 1; x <= 3; x++)
		for (unsigned y = 1; y <= 3; y++)
			ck_assert_msg(has_pattern(c, x, y, INTO, 100, 2), "(%u, %u)", x, y);
	ck_assert(!has_pattern(c, 4, 2, INTO, 100, 2));
	ck_assert_uint_eq(counter(c, 2, 2, 1, WR_ACK_RECEIVED), 9);
	ttx_chip_destroy(c);
}
END_TEST

/* The propagation of a multicast along a row: each tile's core waits on
   its semaphore and reads the wall clock as it sees the increment; one
   hop further is 9 cycles later (9 per hop, the seed article's figure):
   rightwards on NoC #0 from x 1, leftwards on NoC #1 from x 9. */
START_TEST(test_propagation)
{
	for (unsigned noc = 0; noc < 2; noc++) {
		struct ttx_chip *c = chip(2);
		static const unsigned xs[] = { 2, 3, 4, 6, 7, 8 };
		for (unsigned i = 0; i < 6; i++)
			start(c, xs[i], 1, DO_WAIT, noc, 0, 0, 0, 1, 0, 0, 0, 0);
		ck_assert_int_eq(ttx_chip_clock(c, 320), TTX_OK);
		unsigned from = noc ? 9 : 1;
		/* the row y 1, x 1-9 (NoC #1: own x 0-8, y 10) */
		if (noc)
			start(c, from, 1, DO_MCAST_INC, 1, 0, 10, 0, 0, 8, 10, 0, 0);
		else
			start(c, from, 1, DO_MCAST_INC, 0, 1, 1, 0, 0, 9, 1, 0, 0);
		for (unsigned i = 0; i < 6; i++)
			run_until_done(c, xs[i], 1, 5000);
		uint32_t t[6];
		for (unsigned i = 0; i < 6; i++)
			t[i] = rd32(c, xs[i], 1, RESULTS + 8);
		for (unsigned i = 0; i + 1 < 6; i++) {
			int hops = noc ? (int)xs[i] - (int)xs[i + 1] : (int)xs[i + 1] - (int)xs[i];
			ck_assert_msg((int)(t[i + 1] - t[i]) == 9 * hops, "NoC #%u: (%u, 1) at %u, (%u, 1) at %u: %d hops apart",
			              noc, xs[i], t[i], xs[i + 1], t[i + 1], hops);
		}
		ttx_chip_destroy(c);
	}
}
END_TEST

/* DRAM: a read from channel 0 (tile (0, 0)) takes the access time on top
   of the route; data the host put there comes back. */
START_TEST(test_dram)
{
	struct ttx_chip *c = chip(1);
	pattern(c, 0, 0, DATA, 256, 4);
	start(c, 1, 1, DO_READ, 0, 0, 0, 256, 0, 0, 0, 0, 0);
	run_until_done(c, 1, 1, 5000);
	ck_assert(has_pattern(c, 1, 1, INTO, 256, 4));
	/* (1, 1) -> (0, 0): 9 + 11 hops, back 1 + 1: 22 hops, 198 cycles; NIUs
	   66, flits 1 + 9; DRAM 300 + 6 (256 bytes at 48 a cycle) */
	uint32_t t = rd32(c, 1, 1, RESULTS + 8) - rd32(c, 1, 1, RESULTS + 4);
	ck_assert_msg(t >= 580 - 16 && t <= 580, "a 256-byte DRAM read took %u cycles, expected 580 and a few", t);
	ttx_chip_destroy(c);
	/* a write to DRAM the host reads back */
	c = chip(1);
	pattern(c, 1, 1, DATA, 64, 6);
	start(c, 1, 1, DO_WRITE, 0, 5, 9, 64, 0, 0, 0, 0, 0);
	run_until_done(c, 1, 1, 5000);
	ck_assert(has_pattern(c, 5, 9, INTO, 64, 6));
	ttx_chip_destroy(c);
}
END_TEST

/* Bad requests fault the core with the reason and the tile. */
START_TEST(test_errors)
{
	static const struct { uint32_t what, x, y; const char *msg; } cases[] = {
		{ DO_BAD_TYPE, 2, 1, "request type 3 is reserved" },
		{ DO_BAD_SRC, 2, 1, "must be in this tile's L1" },
		{ DO_READ, 0, 2, "router-only tile (0, 2)" },
		{ DO_INC, 0, 0, "atomics act on L1 only" },
		{ DO_READ, 12, 1, "names no tile" },
	};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ttx_chip *c = chip(1);
		start(c, 1, 1, cases[k].what, 0, cases[k].x, cases[k].y, 4, 1, 0, 0, 0, 0);
		enum ttx_status st = TTX_OK;
		for (int i = 0; i < 100 && st == TTX_OK; i++)
			st = ttx_chip_clock(c, 32);
		ck_assert_int_eq(st, TTX_FAULT);
		ck_assert_msg(strstr(ttx_chip_error(c), cases[k].msg) && strstr(ttx_chip_error(c), "(1, 1)"), "case %u: %s",
		              k, ttx_chip_error(c));
		ttx_chip_destroy(c);
	}
}
END_TEST

/* Many tiles talking at once: the same data, counters and cycles on one
   host thread and on two. */
static void busy_grid(unsigned threads, uint32_t out[16])
{
	struct ttx_chip *c = chip(threads);
	for (unsigned i = 0; i < 4; i++) {
		pattern(c, 1 + i, 2, DATA, 3000, (uint8_t)i);
		start(c, 1 + i, 2, DO_WRITE, i & 1, i & 1 ? 9 - (1 + i) : 1 + i, i & 1 ? 11 - 4 : 4, 3000, 0, 0, 0, 0, 0);
		pattern(c, 6 + i % 4, 3, DATA, 5000, (uint8_t)(i + 9));
		start(c, 1 + i, 7, DO_READ, 0, 6 + i % 4, 3, 5000, 0, 0, 0, 0, 0);
	}
	start(c, 6, 8, DO_INC, 1, 9 - 2, 11 - 9, 0, 7, 0, 0, 0, 0);
	for (unsigned i = 0; i < 4; i++)
		run_until_done(c, 1 + i, 2, 20000), run_until_done(c, 1 + i, 7, 20000);
	run_until_done(c, 6, 8, 20000);
	for (unsigned i = 0; i < 4; i++) {
		ck_assert(has_pattern(c, 1 + i, 4, INTO, 3000, (uint8_t)i));
		ck_assert(has_pattern(c, 1 + i, 7, INTO, 5000, (uint8_t)(i + 9)));
		out[i] = rd32(c, 1 + i, 2, RESULTS + 8);
		out[4 + i] = rd32(c, 1 + i, 7, RESULTS + 8);
	}
	out[8] = rd32(c, 2, 9, SEM);
	out[9] = rd32(c, 6, 8, RESULTS + 8);
	out[10] = (uint32_t)ttx_chip_cycles(c);
	ttx_chip_destroy(c);
}

START_TEST(test_threads)
{
	uint32_t one[16] = { 0 }, two[16] = { 0 };
	busy_grid(1, one);
	busy_grid(2, two);
	ck_assert_uint_eq(one[8], 107);
	for (unsigned i = 0; i < 11; i++)
		ck_assert_msg(one[i] == two[i], "result %u: %u on one thread, %u on two", i, one[i], two[i]);
}
END_TEST

int main(void)
{
	load_elf();
	Suite *s = suite_create("noc");
	TCase *tc = tcase_create("noc");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_atomics);
	tcase_add_test(tc, test_multicast);
	tcase_add_test(tc, test_propagation);
	tcase_add_test(tc, test_dram);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	free(elf);
	return failed ? 1 : 0;
}
