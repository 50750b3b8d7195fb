/* Front end: MOP expander templates and replay expander (src/frontend.c),
 * checked against sequences derived by hand from the generators in
 * TC/MOPExpander.md and TC/REPLAY.md.  SFPNOP words with distinct low bits
 * (0x8F0000xx) serve as markers: they execute as SFPNOP, and unlike NOP
 * (0x02) the MOP expander does not treat them as "no instruction". */
#include <stdio.h>
#include <string.h>

#include "tile.h"
#include "util.h"

struct trace { uint32_t words[1024]; unsigned n; };

static void record(void *ctx, unsigned thread, uint32_t word)
{
	struct trace *tr = ctx;
	(void)thread;
	if (tr->n < 1024)
		tr->words[tr->n++] = word;
}

/* Run assembler text; the trace holds the executed words. */
static struct ttx_tile *run_text(const char *text, struct trace *tr)
{
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .trace = record, .trace_ctx = tr };
	struct ttx_tile *t = ttx_tile_new(&opt);
	struct ttx_program *p;
	char err[256];
	memset(tr, 0, sizeof(*tr));
	ck_assert_msg(ttx_program_parse(text, strlen(text), "test", &p, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert_msg(ttx_program_run(t, p, 100000) == TTX_OK, "%s", ttx_tile_error(t));
	ttx_program_free(p);
	return t;
}

static void expect(const struct trace *tr, const uint32_t *want, unsigned n)
{
	for (unsigned i = 0; i < n && i < tr->n; i++)
		ck_assert_msg(tr->words[i] == want[i], "instruction %u: 0x%08X, expected 0x%08X", i, tr->words[i], want[i]);
	ck_assert_uint_eq(tr->n, n);
}

#define M(x) (0x8F000000u | (x))

/* MopCfg of thread 0: B, A0-A3, SkipA0, SkipB = markers B0, A0-A3, C0, C1. */
static const char *template0_cfg(unsigned flags)
{
	static char buf[512];
	snprintf(buf, sizeof(buf),
	         ".mmio 0xFFB80004, %u\n.mmio 0xFFB80008, 0x8F0000B0\n.mmio 0xFFB8000C, 0x8F0000A0\n"
	         ".mmio 0xFFB80010, 0x8F0000A1\n.mmio 0xFFB80014, 0x8F0000A2\n.mmio 0xFFB80018, 0x8F0000A3\n"
	         ".mmio 0xFFB8001C, 0x8F0000C0\n.mmio 0xFFB80020, 0x8F0000C1\n", flags);
	return buf;
}

START_TEST(test_mop_template0_all_flags)
{
	/* Count1 = 2, MaskLo = 0b010: iterations 0 and 2 unmasked, 1 masked.
	   HasB and HasA123: A0 A1 A2 A3 B | SkipA0 SkipB | A0 A1 A2 A3 B. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 0, 2, 0b010\n", template0_cfg(3));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0xA0), M(0xA1), M(0xA2), M(0xA3), M(0xB0), M(0xC0), M(0xC1),
	                          M(0xA0), M(0xA1), M(0xA2), M(0xA3), M(0xB0) };
	expect(&tr, want, 12);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mop_template0_no_flags)
{
	/* Flags = 0: only A0 or SkipA0 per iteration; SkipB unused. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 0, 2, 0b010\n", template0_cfg(0));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0xA0), M(0xC0), M(0xA0) };
	expect(&tr, want, 3);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mop_template0_b_without_a123)
{
	/* Flags = 1 (HasB): A0 B per unmasked iteration, SkipA0 SkipB per masked. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 0, 1, 0b10\n", template0_cfg(1));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0xA0), M(0xB0), M(0xC0), M(0xC1) };
	expect(&tr, want, 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mop_template0_mask_hi)
{
	/* MOP_CFG latches MaskHi: with MaskHi = 1 and Count1 = 16, iteration 16
	   (bit 16 of the 32-bit mask) is masked, 0-15 are not. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP_CFG 1\nMOP 0, 16, 0\n", template0_cfg(0));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	uint32_t want[17];
	for (unsigned i = 0; i < 16; i++)
		want[i] = M(0xA0);
	want[16] = M(0xC0);
	expect(&tr, want, 17);
	/* The expander consumed MOP_CFG and MOP: the backend never saw them. */
	struct ttx_stats st;
	ttx_stats_get(t, &st);
	ck_assert_uint_eq(st.insns_by_unit[TTX_UNIT_FRONTEND], 2);
	ttx_tile_destroy(t);
}
END_TEST

/* Template 1 configuration: OuterCount, InnerCount, StartOp, EndOp0, EndOp1,
   LoopOp, LoopOp1, Loop0Last, Loop1Last. */
static const char *template1_cfg(unsigned outer, unsigned inner, uint32_t start, uint32_t end0,
                                 uint32_t end1, uint32_t loop, uint32_t loop1)
{
	static char buf[512];
	snprintf(buf, sizeof(buf),
	         ".mmio 0xFFB80000, %u\n.mmio 0xFFB80004, %u\n.mmio 0xFFB80008, 0x%08X\n"
	         ".mmio 0xFFB8000C, 0x%08X\n.mmio 0xFFB80010, 0x%08X\n.mmio 0xFFB80014, 0x%08X\n"
	         ".mmio 0xFFB80018, 0x%08X\n.mmio 0xFFB8001C, 0x8F0000E0\n.mmio 0xFFB80020, 0x8F0000E1\n",
	         outer, inner, start, end0, end1, loop, loop1);
	return buf;
}

START_TEST(test_mop_template1_loops)
{
	/* Outer 2, inner 3, LoopOp1 = NOP: per outer iteration S L L Last E0 E1,
	   Last = Loop1Last (E1 marker) except on the final outer iteration
	   (Loop0Last, E0 marker). */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 1, 0, 0\n",
	         template1_cfg(2, 3, M(0x50), M(0x51), M(0x52), M(0x10), 0x02000000));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0x50), M(0x10), M(0x10), M(0xE1), M(0x51), M(0x52),
	                          M(0x50), M(0x10), M(0x10), M(0xE0), M(0x51), M(0x52) };
	expect(&tr, want, 12);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mop_template1_alternating_and_nops)
{
	/* LoopOp1 != NOP doubles InnerCount (2 -> 4) and alternates LoopOp and
	   LoopOp1; StartOp NOP and EndOp0 NOP are skipped (and then EndOp1 is
	   not used either).  Outer 1: L L' L Loop0Last. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 1, 0, 0\n",
	         template1_cfg(1, 2, 0x02000000, 0x02000000, M(0x52), M(0x10), M(0x11)));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0x10), M(0x11), M(0x10), M(0xE0) };
	expect(&tr, want, 4);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mop_template1_hardware_bug)
{
	/* OuterCount = 1, StartOp = NOP, InnerCount = 0, EndOp0 != NOP:
	   129 outer iterations of EndOp0 EndOp1. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 1, 0, 0\n",
	         template1_cfg(1, 0, 0x02000000, M(0x51), M(0x52), M(0x10), 0x02000000));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	ck_assert_uint_eq(tr.n, 2 * 129);
	ck_assert_uint_eq(tr.words[0], M(0x51));
	ck_assert_uint_eq(tr.words[257], M(0x52));
	ttx_tile_destroy(t);
	/* Without the bug's conditions (OuterCount = 2): just 2 iterations. */
	snprintf(text, sizeof(text), "%sMOP 1, 0, 0\n",
	         template1_cfg(2, 0, 0x02000000, M(0x51), 0x02000000, M(0x10), 0x02000000));
	t = run_text(text, &tr);
	const uint32_t want[] = { M(0x51), M(0x51) };
	expect(&tr, want, 2);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_mop_empty_expansion)
{
	/* Everything NOP and no inner loop: the MOP expands to nothing. */
	char text[1024];
	snprintf(text, sizeof(text), "%sMOP 1, 0, 0\nSFPNOP\n",
	         template1_cfg(3, 0, 0x02000000, 0x02000000, 0x02000000, 0x02000000, 0x02000000));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0) };
	expect(&tr, want, 1);
	ttx_tile_destroy(t);
}
END_TEST

/* REPLAY start_idx, len, execute_while_loading, load_mode */
START_TEST(test_replay_record_exec_and_playback_wrap)
{
	/* Load at index 30 with Exec: 4 words go to slots 30, 31, 0, 1 and
	   execute; playback from 30 replays them across the wrap. */
	const char *text =
		"REPLAY 30, 4, 1, 1\n.word 0x8F000001\n.word 0x8F000002\n.word 0x8F000003\n.word 0x8F000004\n"
		"REPLAY 30, 4, 0, 0\n"
		"REPLAY 31, 2, 0, 0\n";
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(1), M(2), M(3), M(4), M(1), M(2), M(3), M(4), M(2), M(3) };
	expect(&tr, want, 10);
	ck_assert_uint_eq(t->fe[0].replay[31], M(2));
	ck_assert_uint_eq(t->fe[0].replay[0], M(3));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_replay_load_without_exec_and_count_64)
{
	/* Load without Exec records silently.  Count 0 means 64: playing 64
	   words from a 32-entry buffer goes round it twice. */
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "REPLAY 0, 0, 0, 1\n");
	for (unsigned i = 0; i < 64; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, ".word 0x%08X\n", M(i));
	snprintf(text + n, sizeof(text) - n, "REPLAY 0, 0, 0, 0\n");
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	/* Slots hold words 32-63 (the second lap overwrote the first). */
	ck_assert_uint_eq(tr.n, 64);
	ck_assert_uint_eq(tr.words[0], M(32));
	ck_assert_uint_eq(tr.words[31], M(63));
	ck_assert_uint_eq(tr.words[32], M(32));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_replay_inside_mop)
{
	/* A template 1 MOP whose LoopOp is a REPLAY playback: the replay expander
	   sits after the MOP expander and expands it. */
	char text[2048];
	snprintf(text, sizeof(text),
	         "REPLAY 4, 2, 0, 1\n.word 0x8F000071\n.word 0x8F000072\n%sMOP 1, 0, 0\n",
	         template1_cfg(1, 3, 0x02000000, 0x02000000, 0x02000000, 0x04000000 | 4 << 14 | 2 << 4, 0x02000000));
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	/* Inner loop: REPLAY, REPLAY, Loop0Last (marker E0). */
	const uint32_t want[] = { M(0x71), M(0x72), M(0x71), M(0x72), M(0xE0) };
	expect(&tr, want, 5);
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_expanded_mop_reaching_backend_faults)
{
	/* A MOP template whose A0 is itself a MOP: the expander's output goes
	   downstream (nothing expands it again), which is undefined; ttx stops
	   with a fault.  (A MOP pushed into the pipe is always expanded first,
	   even while a REPLAY is recording: the recording holds its expansion.) */
	struct ttx_tile *t = ttx_tile_new(NULL);
	ck_assert_int_eq(ttx_mmio_write(t, 0, 0xFFB8000C, 0x01000000), TTX_OK);
	ttx_push(t, 0, 0x01000000);
	ck_assert_int_eq(ttx_run(t, 0), TTX_FAULT);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "MOP (0x01000000) at thread 0 was emitted"));
	ttx_tile_destroy(t);
}
END_TEST

START_TEST(test_threads_have_own_expanders)
{
	/* MopCfg is per thread: T1's configuration does not affect T0. */
	const char *text =
		".thread 1\n.mmio 0xFFB8000C, 0x8F000011\n"
		".thread 0\n.mmio 0xFFB8000C, 0x8F000010\n"
		"MOP 0, 0, 0\n.thread 1\nMOP 0, 0, 0\n";
	struct trace tr;
	struct ttx_tile *t = run_text(text, &tr);
	const uint32_t want[] = { M(0x10), M(0x11) };
	expect(&tr, want, 2);
	ttx_tile_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("frontend");
	TCase *tc = tcase_create("MOP");
	tcase_add_test(tc, test_mop_template0_all_flags);
	tcase_add_test(tc, test_mop_template0_no_flags);
	tcase_add_test(tc, test_mop_template0_b_without_a123);
	tcase_add_test(tc, test_mop_template0_mask_hi);
	tcase_add_test(tc, test_mop_template1_loops);
	tcase_add_test(tc, test_mop_template1_alternating_and_nops);
	tcase_add_test(tc, test_mop_template1_hardware_bug);
	tcase_add_test(tc, test_mop_empty_expansion);
	tcase_add_test(tc, test_threads_have_own_expanders);
	suite_add_tcase(s, tc);
	tc = tcase_create("REPLAY");
	tcase_add_test(tc, test_replay_record_exec_and_playback_wrap);
	tcase_add_test(tc, test_replay_load_without_exec_and_count_64);
	tcase_add_test(tc, test_replay_inside_mop);
	tcase_add_test(tc, test_expanded_mop_reaching_backend_faults);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
