/* The cycle model (src/timing.c, docs/timing.md) on small programs whose
 * cycle counts are derived by hand in the comments.  Cycles count from 0;
 * an instruction issued at cycle c with latency L has its result at c + L;
 * "device cycles" is the last such cycle.  Every program runs on the
 * interpreter and on the JIT (every block compiled at once), which must
 * agree on every total. */
#include <stdio.h>
#include <string.h>

#include "util.h"

static struct ttx_tile *tile(enum ttx_engine engine)
{
	struct ttx_options opt = { .engine = engine, .jit_threshold = 1, .timing = 1 };
	struct ttx_tile *t = ttx_tile_new(&opt);
	ck_assert_ptr_nonnull(t);
	return t;
}

static void run_on(struct ttx_tile *t, const char *text)
{
	struct ttx_program *p;
	char err[256];
	ck_assert_msg(ttx_program_parse(text, strlen(text), "test.s", &p, err, sizeof(err)) == TTX_OK, "%s", err);
	ck_assert_msg(ttx_program_run(t, p, 0) == TTX_OK, "%s", ttx_tile_error(t));
	ttx_program_free(p);
}

/* The program's totals on the interpreter, checked equal on the JIT. */
static struct ttx_cycles run_timed(const char *text)
{
	struct ttx_cycles c[2];
	for (int e = 0; e < 2; e++) {
		if (e == 1 && !ttx_jit_available())
			return c[0];
		struct ttx_tile *t = tile(e ? TTX_ENGINE_JIT : TTX_ENGINE_INTERP);
		run_on(t, text);
		ttx_cycles_get(t, &c[e]);
		ttx_tile_destroy(t);
	}
	ck_assert_uint_eq(c[1].device_cycles, c[0].device_cycles);
	ck_assert_msg(memcmp(&c[0], &c[1], sizeof(c[0])) == 0, "the JIT's totals differ from the interpreter's");
	return c[0];
}

/* SETDVALID at 0 hands SrcA/SrcB to the Matrix Unit at 1 (its result);
   the MVMULs wait for that: 1, 2, 3, 4, results at 2..5.  Busy 4, 4 x 2048
   MACs, no stall (the thread's own next cycle is 1 anyway). */
START_TEST(test_mvmul_back_to_back)
{
	struct ttx_cycles c = run_timed("SETDVALID 3\n"
	                                "MVMUL 0, 0, 0, 0\nMVMUL 0, 0, 0, 8\nMVMUL 0, 0, 0, 16\nMVMUL 0, 0, 0, 24\n");
	ck_assert_uint_eq(c.device_cycles, 5);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_MATRIX], 4);
	ck_assert_uint_eq(c.macs, 4 * 2048);
	ck_assert_uint_eq(c.issued[0], 5);
	for (int r = 0; r < TTX_STALL_COUNT; r++)
		ck_assert_uint_eq(c.stalled[0][r], 0);
}
END_TEST

/* Two threads sharing the Matrix Unit, booked in the scheduler's order
   (T0, T1, T2 each round):
     R1: T0 SETDVALID at 0 (hand-over at 1); T1 MVMUL, ready 0, waits for
         the hand-over: 1 (1 src stall).
     R2: T0 MVMUL, ready 1, unit busy until 2: 2 (1 unit stall);
         T1 MVMUL, ready 2, unit until 3: 3 (1 unit stall).
     R3: T0 MVMUL, ready 3, unit until 4: 4 (1 unit stall), result 5.
   Device cycles 5, matrix busy 4. */
START_TEST(test_matrix_shared_by_two_threads)
{
	struct ttx_cycles c = run_timed(".thread 0\nSETDVALID 3\nMVMUL 0, 0, 0, 0\nMVMUL 0, 0, 0, 8\n"
	                                ".thread 1\nMVMUL 0, 0, 0, 16\nMVMUL 0, 0, 0, 24\n");
	ck_assert_uint_eq(c.device_cycles, 5);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_MATRIX], 4);
	ck_assert_uint_eq(c.stalled_on_unit[0][TTX_UNIT_MATRIX], 2);
	ck_assert_uint_eq(c.stalled[1][TTX_STALL_SRC], 1);
	ck_assert_uint_eq(c.stalled_on_unit[1][TTX_UNIT_MATRIX], 1);
}
END_TEST

/* MAD-class results come 2 cycles after issue; hardware does not stall,
   software puts an SFPNOP between dependent MADs.
   With the NOP: MAD 0 (result 2), NOP 1, MAD 2 (result 4): 4 cycles, busy 3.
   Without: MAD 0, MAD 1 (result 3): 3 cycles (and the wrong operand on
   hardware, which --strict reports). */
START_TEST(test_sfpu_chain_with_and_without_nop)
{
	struct ttx_cycles c = run_timed("SFPMAD 0, 0, 9, 1, 0\nSFPNOP\nSFPMAD 1, 1, 9, 2, 0\n");
	ck_assert_uint_eq(c.device_cycles, 4);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_SFPU], 3);
	c = run_timed("SFPMAD 0, 0, 9, 1, 0\nSFPMAD 1, 1, 9, 2, 0\n");
	ck_assert_uint_eq(c.device_cycles, 3);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_SFPU], 2);
	/* a simple instruction's result is ready the next cycle: 2 LOADIs, 2 cycles */
	c = run_timed("SFPLOADI 0, 0, 0x3F80\nSFPLOADI 1, 0, 0x4000\n");
	ck_assert_uint_eq(c.device_cycles, 2);
}
END_TEST

/* SFPSWAP holds the SFPU 2 cycles; only SFPNOP may use the second
   (TC/SFPSWAP.md).  SWAP 0, ADD stalls to 2 (result 4): 4 cycles, 1 stall.
   SWAP 0, NOP 1, ADD 2: the same 4 cycles, no stall.  The lane-moving
   SFPSHFT2 (Mod1 3) is treated the same way. */
START_TEST(test_sfpswap_and_sfpshft2_two_cycles)
{
	struct ttx_cycles c = run_timed("SFPSWAP 0, 1, 2, 0\nSFPADD 0, 9, 1, 3, 0\n");
	ck_assert_uint_eq(c.device_cycles, 4);
	ck_assert_uint_eq(c.stalled_on_unit[0][TTX_UNIT_SFPU], 1);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_SFPU], 3);
	c = run_timed("SFPSWAP 0, 1, 2, 0\nSFPNOP\nSFPADD 0, 9, 1, 3, 0\n");
	ck_assert_uint_eq(c.device_cycles, 4);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_UNIT], 0);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_SFPU], 3);   /* the NOP's cycle is the SWAP's second */
	c = run_timed("SFPSHFT2 0, 1, 2, 3\nSFPNOP\nSFPLOADI 0, 0, 0x3F80\n");
	ck_assert_uint_eq(c.device_cycles, 3);
	c = run_timed("SFPSHFT2 0, 1, 2, 3\nSFPLOADI 0, 0, 0x3F80\n");
	ck_assert_uint_eq(c.device_cycles, 3);
	ck_assert_uint_eq(c.stalled_on_unit[0][TTX_UNIT_SFPU], 1);
	/* Mod1 0 (COPY4) moves no lanes: one cycle */
	c = run_timed("SFPSHFT2 0, 1, 2, 0\nSFPLOADI 0, 0, 0x3F80\n");
	ck_assert_uint_eq(c.device_cycles, 2);
}
END_TEST

/* STALLWAIT on the SFPU (C14, block B8): MAD at 0 (result 2), STALLWAIT
   at 1; the condition holds from 2 and the block lifts a cycle later (3),
   which is also the earliest (STALLWAIT + 2).  LOADI at 3, result 4.
   Without the STALLWAIT: MAD 0, LOADI 1: 2 cycles. */
START_TEST(test_stallwait_sfpu)
{
	struct ttx_cycles c = run_timed("SFPMAD 0, 0, 9, 1, 0\nSTALLWAIT 0x100, 0x4000\nSFPLOADI 0, 0, 0x3F80\n");
	ck_assert_uint_eq(c.device_cycles, 4);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_STALLWAIT], 1);
	/* four MADs in flight: the last (3) has its result at 5; the wait
	   ends at 6, LOADI at 6, result 7 */
	c = run_timed("SFPMAD 0, 0, 9, 1, 0\nSFPMAD 0, 0, 9, 2, 0\nSFPMAD 0, 0, 9, 3, 0\nSFPMAD 0, 0, 9, 4, 0\n"
	              "STALLWAIT 0x100, 0x4000\nSFPLOADI 0, 0, 0x3F80\n");
	ck_assert_uint_eq(c.device_cycles, 7);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_STALLWAIT], 1);
	/* an instruction the block mask does not name (B8: SFPU) is not held:
	   SETC16 goes at 2 */
	c = run_timed("SFPMAD 0, 0, 9, 1, 0\nSFPMAD 0, 0, 9, 2, 0\nSFPMAD 0, 0, 9, 3, 0\nSFPMAD 0, 0, 9, 4, 0\n"
	              "STALLWAIT 0x100, 0x4000\nSETC16 24, 4\n");
	ck_assert_uint_eq(c.device_cycles, 6);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_STALLWAIT], 0);
}
END_TEST

/* Three threads; the packer's role (T2) waits on a semaphore the math
   thread (T1) posts after three SFPU instructions.
     T0: SEMINIT at 0 (Sync Unit, result 1)
     T1: LOADI 0, 1, 2; SEMPOST at 3 (Sync Unit free since 1), value visible at 4
     T2: SEMWAIT at 0: the block (B1, Sync Unit instructions) lifts a cycle
         after the semaphore changes: 5; SEMGET at 5, result 6.
   Device cycles 6; T2 stalled 5 - 1 = 4 cycles on the SEMWAIT; Sync Unit
   busy 3 (SEMINIT, SEMPOST, SEMGET). */
START_TEST(test_three_thread_semaphore)
{
	struct ttx_cycles c = run_timed(".thread 0\nSEMINIT 1, 0, 1\n"
	                                ".thread 1\nSFPLOADI 0, 0, 0x3F80\nSFPLOADI 1, 0, 0x3F80\nSFPLOADI 2, 0, 0x3F80\n"
	                                "SEMPOST 1\n"
	                                ".thread 2\nSEMWAIT 2, 1, 1\nSEMGET 1\n");
	ck_assert_uint_eq(c.device_cycles, 6);
	ck_assert_uint_eq(c.stalled[2][TTX_STALL_SEMWAIT], 4);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_SYNC], 3);
	ck_assert_uint_eq(c.issued[1], 4);
	ck_assert_uint_eq(c.issued[2], 2);
	for (int r = 0; r < TTX_STALL_COUNT; r++)
		ck_assert_uint_eq(c.stalled[1][r], 0);
}
END_TEST

/* A MOP (template 1, one outer x four inner iterations of SFPLOADI): the
   expander emits one instruction a cycle, 0-3; the next instruction is not
   a MOP, so a transition cycle is lost (TC/MOPExpander.md): SFPNOP at 5,
   result 6.  Two MOPs back to back lose nothing between them: 8 LOADIs at
   0-7, the transition, NOP at 9: 10 cycles. */
#define MOP_CFG_4_LOADI \
	".mmio 0xFFB80000, 1\n.mmio 0xFFB80004, 4\n.mmio 0xFFB80008, 0x02000000\n.mmio 0xFFB8000C, 0x02000000\n" \
	".mmio 0xFFB80010, 0x02000000\n.mmio 0xFFB80014, 0x71000000\n.mmio 0xFFB80018, 0x02000000\n" \
	".mmio 0xFFB8001C, 0x71000000\n.mmio 0xFFB80020, 0x71000000\n"
START_TEST(test_mop_loop)
{
	struct ttx_cycles c = run_timed(MOP_CFG_4_LOADI "MOP 1, 0, 0\nSFPNOP\n");
	ck_assert_uint_eq(c.issued[0], 5);
	ck_assert_uint_eq(c.device_cycles, 6);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_FRONTEND], 1);
	c = run_timed(MOP_CFG_4_LOADI "MOP 1, 0, 0\nMOP 1, 0, 0\nSFPNOP\n");
	ck_assert_uint_eq(c.device_cycles, 10);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_FRONTEND], 1);
}
END_TEST

/* REPLAY: recording 3 instructions without executing them takes 3 cycles
   of the front end (TC/REPLAY.md), playback one a cycle: LOADIs at 3, 4, 5,
   result 6.  A second playback right after: 6, 7, 8: 9 cycles. */
START_TEST(test_replay)
{
	static const char rec[] = "REPLAY 0, 3, 0, 1\nSFPLOADI 0, 0, 0x3F80\nSFPLOADI 1, 0, 0x3F80\n"
	                          "SFPLOADI 2, 0, 0x3F80\n";
	char text[512];
	snprintf(text, sizeof(text), "%sREPLAY 0, 3, 0, 0\n", rec);
	struct ttx_cycles c = run_timed(text);
	ck_assert_uint_eq(c.device_cycles, 6);
	ck_assert_uint_eq(c.stalled[0][TTX_STALL_FRONTEND], 3);
	snprintf(text, sizeof(text), "%sREPLAY 0, 3, 0, 0\nREPLAY 0, 3, 0, 0\n", rec);
	c = run_timed(text);
	ck_assert_uint_eq(c.device_cycles, 9);
	ck_assert_uint_eq(c.issued[0], 6);
}
END_TEST

/* The configuration unit: WRCFG's result is 2 cycles after issue, the
   thread goes on: WRCFG 0 (result 2), SETC16 1 (result 2): 2 cycles.
   RDCFG blocks its thread 2 cycles: RDCFG 0, SETC16 2 (result 3). */
START_TEST(test_config_unit)
{
	struct ttx_cycles c = run_timed("WRCFG 0, 0, 60\nSETC16 24, 4\n");
	ck_assert_uint_eq(c.device_cycles, 2);
	c = run_timed("RDCFG 0, 60\nSETC16 24, 4\n");
	ck_assert_uint_eq(c.device_cycles, 3);
	ck_assert_uint_eq(c.busy[0], 3);   /* 2 + 1 cycles issuing */
}
END_TEST

/* A 32x32 BF16 tile matmul through the kernel library at LoFi
   (kernels/matmul.s): 16 MVMULs, i.e. 16 cycles of the multiplier array
   (16 x 2048 MACs); each operand is one UNPACR of 1024 BF16 datums =
   2048 bytes at x1 speed (16 B/cycle): 2 address cycles + 128 cycles of
   L1 reads; the second UNPACR's address stage follows the first's, so the
   unpackers are busy 2 + 2 + 128 = 132 cycles together; the result, 1024
   FP32 datums = 4096 bytes through one packer at 16 B/cycle: 256 cycles. */
START_TEST(test_tile_matmul_lofi)
{
	struct ttx_tile *t = tile(TTX_ENGINE_AUTO);
	float a[32 * 32], b[32 * 32], out[32 * 32];
	for (int i = 0; i < 32 * 32; i++)
		a[i] = (float)(i % 7) - 3, b[i] = (float)(i % 5) - 2;
	struct ttx_tensor in[2] = { { a, 1, 32, 32 }, { b, 1, 32, 32 } }, res = { out, 1, 32, 32 };
	struct ttx_op_params p;
	ttx_op_params_default(&p);
	p.fidelity = TTX_FIDELITY_LOFI;
	char err[256];
	ck_assert_msg(ttx_op_run(t, "matmul", in, 2, &p, &res, err, sizeof(err)) == TTX_OK, "%s", err);
	struct ttx_cycles c;
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.macs / TTX_PEAK_MACS_PER_CYCLE, 16);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_UNPACK], 132);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_PACK], 256);
	/* the bottleneck is the packer, then the unpackers; the multipliers
	   are busy for the 16 MVMULs and a few RWC and ZEROACC instructions */
	ck_assert_uint_ge(c.busy_by_unit[TTX_UNIT_MATRIX], 16);
	ck_assert_uint_lt(c.busy_by_unit[TTX_UNIT_MATRIX], c.busy_by_unit[TTX_UNIT_UNPACK]);
	ck_assert_uint_gt(c.device_cycles, 256 + 128);
	ck_assert_int_eq(ttx_cycles_bottleneck(&c), TTX_UNIT_PACK);
	/* HiFi4: four fidelity phases, 64 MVMULs */
	ttx_tile_reset(t);
	p.fidelity = TTX_FIDELITY_HIFI4;
	ck_assert_msg(ttx_op_run(t, "matmul", in, 2, &p, &res, err, sizeof(err)) == TTX_OK, "%s", err);
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.macs / TTX_PEAK_MACS_PER_CYCLE, 64);
	ttx_tile_destroy(t);
}
END_TEST

/* Off by default: nothing counted, and results do not depend on it. */
START_TEST(test_off_by_default)
{
	struct ttx_tile *t = ttx_tile_new(NULL);
	run_on(t, "SFPMAD 0, 0, 9, 1, 0\nSFPNOP\n");
	struct ttx_cycles c;
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.device_cycles, 0);
	ck_assert_int_eq(ttx_cycles_bottleneck(&c), TTX_UNIT_COUNT);   /* nothing busy */
	ttx_cycles_get(NULL, &c);   /* no tile: zeros, no crash */
	ck_assert_uint_eq(c.device_cycles, 0);
	ck_assert_int_eq(ttx_cycles_bottleneck(NULL), TTX_UNIT_COUNT);
	ttx_cycles_get(t, NULL);
	ck_assert_str_eq(ttx_stall_name(TTX_STALL_SEMWAIT), "semwait");
	ck_assert_str_eq(ttx_stall_name(TTX_STALL_COUNT), "?");
	ttx_tile_destroy(t);
}
END_TEST

/* The event callback: one event per instruction on the interpreter, in
   issue order per thread, issue <= done. */
struct events {
	unsigned n;
	uint64_t last_issue[TTX_THREADS];
	int ordered;
};

static void on_event(void *ctx, const struct ttx_timing_event *e)
{
	struct events *ev = ctx;
	ev->n += e->count;
	if (e->issue < ev->last_issue[e->thread] || e->done < e->issue)
		ev->ordered = 0;
	ev->last_issue[e->thread] = e->issue;
}

START_TEST(test_events)
{
	struct events ev = { 0, { 0 }, 1 };
	struct ttx_options opt = { .engine = TTX_ENGINE_INTERP, .timing = 1, .timing_event = on_event, .timing_ctx = &ev };
	struct ttx_tile *t = ttx_tile_new(&opt);
	run_on(t, ".thread 0\nSEMINIT 1, 0, 1\n.thread 1\nSFPLOADI 0, 0, 0x3F80\nSFPSWAP 0, 1, 2, 0\nSFPADD 0, 9, 1, 3, 0\n"
	          "SEMPOST 1\n.thread 2\nSEMWAIT 2, 1, 1\nSEMGET 1\n");
	ck_assert_uint_eq(ev.n, 7);
	ck_assert(ev.ordered);
	ttx_tile_destroy(t);
}
END_TEST

/* Stepping by device cycles (ttx_run_cycles): ten one-cycle SFPU
   instructions on T0 and ten on T1 share the SFPU, so they alternate:
   T0 at 0, 2, 4, ..., T1 at 1, 3, 5, ...  A step to cycle 6 runs every
   instruction whose thread is ready before 6: T0 at 0, 2, 4 and, ready at
   5, one more that waits for the SFPU until 6 (result 7); T1 at 1, 3, 5.
   The step to 12: T0 7, T1 8, T0 9, T1 10, T0 11, T1 12 (ready at 11):
   13 in all.  The rest: 20 instructions on one SFPU, 20 cycles. */
START_TEST(test_run_cycles)
{
	struct ttx_tile *t = tile(TTX_ENGINE_AUTO);
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(ttx_push(t, 0, 0x71000000u), TTX_OK);   /* SFPLOADI 0, 0, 0 */
		ck_assert_int_eq(ttx_push(t, 1, 0x71100000u), TTX_OK);   /* SFPLOADI 1, 0, 0 */
	}
	ck_assert_int_eq(ttx_run_cycles(t, 6, 0), TTX_LIMIT);
	ck_assert_str_eq(ttx_tile_error(t), "reached device cycle 6, with work left");
	struct ttx_cycles c;
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.issued[0], 4);
	ck_assert_uint_eq(c.issued[1], 3);
	ck_assert_uint_eq(c.device_cycles, 7);
	ck_assert_int_eq(ttx_run_cycles(t, 12, 0), TTX_LIMIT);
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.issued[0] + c.issued[1], 13);
	ck_assert_uint_eq(c.device_cycles, 13);
	ck_assert_int_eq(ttx_run_cycles(t, 1000, 0), TTX_OK);
	ttx_cycles_get(t, &c);
	ck_assert_uint_eq(c.device_cycles, 20);
	ck_assert_uint_eq(c.busy_by_unit[TTX_UNIT_SFPU], 20);
	ttx_tile_destroy(t);
	/* without the model: refused */
	t = ttx_tile_new(NULL);
	ck_assert_int_eq(ttx_run_cycles(t, 6, 0), TTX_EINVAL);
	ck_assert_ptr_nonnull(strstr(ttx_tile_error(t), "ttx_options.timing"));
	ttx_tile_destroy(t);
	ck_assert_int_eq(ttx_run_cycles(NULL, 6, 0), TTX_EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("timing");
	TCase *tc = test_tcase(s, "programs");
	tcase_add_test(tc, test_mvmul_back_to_back);
	tcase_add_test(tc, test_matrix_shared_by_two_threads);
	tcase_add_test(tc, test_sfpu_chain_with_and_without_nop);
	tcase_add_test(tc, test_sfpswap_and_sfpshft2_two_cycles);
	tcase_add_test(tc, test_stallwait_sfpu);
	tcase_add_test(tc, test_three_thread_semaphore);
	tcase_add_test(tc, test_mop_loop);
	tcase_add_test(tc, test_replay);
	tcase_add_test(tc, test_config_unit);
	tcase_add_test(tc, test_tile_matmul_lofi);
	tcase_add_test(tc, test_off_by_default);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_run_cycles);
	return test_run_suite(s);
}
