/* Instruction pipes and the scheduler that interleaves the three threads.
 *
 * The scheduler is deterministic: threads take turns, one instruction each,
 * in the order T0, T1, T2, so results never depend on host timing.  A thread
 * whose head instruction must wait (TTX_BLOCKED) keeps it and retries on its
 * next turn.  When a whole round makes no progress the run stops: finished if
 * every pipe is empty, otherwise deadlocked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tile.h"

enum ttx_status ttx_push(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (thread >= TTX_THREADS)
		return ttx_fail(t, TTX_EINVAL, "thread %u does not exist (0-2)", thread);
	struct ttx_pipe *p = &t->pipe[thread];
	if (p->tail - p->head == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 1024;
		uint32_t *nw = malloc(ncap * sizeof(*nw));
		uint64_t *nat = p->at ? malloc(ncap * sizeof(*nat)) : NULL;
		if (!nw || (p->at && !nat)) {
			free(nw);
			return ttx_fail(t, TTX_ENOMEM, "out of memory growing the instruction pipe");
		}
		/* (the words keep their sequence numbers: the cycle model's
		   pop_at ring is indexed by them) */
		for (size_t i = p->head; i != p->tail; i++) {
			nw[i & (ncap - 1)] = p->words[i & (p->cap - 1)];
			if (nat)
				nat[i & (ncap - 1)] = p->at[i & (p->cap - 1)];
		}
		free(p->words);
		free(p->at);
		p->words = nw;
		p->at = nat;
		p->cap = ncap;
	}
	if (p->at)
		p->at[p->tail & (p->cap - 1)] = 0;   /* the host's: no arrival time */
	p->words[p->tail & (p->cap - 1)] = word;
	p->tail++;
	return TTX_OK;
}

void ttx_thread_state(const struct ttx_tile *t, unsigned thread, struct ttx_thread_state *out)
{
	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!t || thread >= TTX_THREADS)
		return;
	const struct ttx_pipe *p = &t->pipe[thread];
	out->pending = (int)(p->tail - p->head) + t->fe[thread].has_slot;
	if (!out->pending && ttx_frontend_busy(t, thread))
		out->pending = 1;   /* an expansion in progress */
	out->blocked = p->blocked;
	if (t->fe[thread].has_slot)
		out->word = t->fe[thread].slot;
	else if (p->head != p->tail)
		out->word = p->words[p->head & (p->cap - 1)];
	if (t->fe[thread].replay_mode == 1)
		out->recording = t->fe[thread].replay_left;
}

double ttx_monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const core_names[TTX_CORE_COUNT] = { "RISCV B", "RISCV T0", "RISCV T1", "RISCV T2", "RISCV NC" };

/* Who is stuck and on what: each blocked thread's instruction, each live
   core's pc and what it waits on. */
static enum ttx_status report_deadlock(struct ttx_tile *t)
{
	char msg[sizeof(t->error)];
	int n = snprintf(msg, sizeof(msg), "deadlock:");
	const char *sep = "";
	for (unsigned i = 0; i < TTX_THREADS && (size_t)n < sizeof(msg); i++) {
		struct ttx_thread_state s;
		ttx_thread_state(t, i, &s);
		if (!s.pending)
			continue;
		const struct ttx_insn_info *insn = ttx_isa_insn(s.word >> 24);
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%s thread %u blocked at %s (0x%08X)", sep, i,
		              insn->mnemonic ? insn->mnemonic : "?", s.word);
		sep = ";";
	}
	for (unsigned c = 0; c < TTX_CORE_COUNT && (size_t)n < sizeof(msg); c++) {
		const struct ttx_rvcore *k = &t->core[c];
		if (!(t->cores_live >> c & 1))
			continue;
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%s %s at pc 0x%08X waits on %s (0x%08X)", sep,
		              core_names[c], k->pc, ttx_core_wait_name((enum ttx_core_wait_reason)k->wait), k->wait_addr);
		sep = ";";
	}
	return ttx_fail(t, TTX_FAULT, "%s", msg);
}

/* SFPU instructions and NOPs change nothing another thread waits on
   (semaphores, Src bank owners, mutexes, the Scalar Unit); a block stops
   after any other instruction it holds (Matrix Unit, unpacker, packer)
   once another thread might act (ttx_jit_call_unit).  So running one at
   once is what the round-robin schedule would do when no other thread
   can act meanwhile: each has nothing queued, or its head
   instruction waited at its last turn and no instruction that could
   release it has retired since (sync_epoch: its retries would all fail,
   without effect).  Also, no latched wait may be forgotten on the way
   (every pass through the gate forgets those whose conditions are met), th
   has none itself, and no SFPLOADMACRO schedule is pending (it acts cycle
   by cycle).  The cycle model places blocks only while no wait of th is
   pending (ttx_timing_gate_open). */
int ttx_jit_alone(const struct ttx_tile *t, unsigned th)
{
	if (t->sfpu.nsched || t->wait_gate[th].opcode)
		return 0;
	for (unsigned o = 0; o < TTX_THREADS; o++) {
		const struct ttx_pipe *p = &t->pipe[o];
		if (o == th)
			continue;
		if (t->wait_gate[o].opcode && !ttx_wait_gate_holds(t, o))
			return 0;
		if (ttx_frontend_busy(t, o) && !(p->blocked && t->fe[o].has_slot && p->blocked_epoch == t->sync_epoch))
			return 0;
	}
	return ttx_timing_gate_open(t, th);
}

/* jit_skip lets the interpreter finish a block the JIT declined without
   asking again at every instruction. */
static int jit_may_run(struct ttx_tile *t, unsigned th)
{
	const struct ttx_frontend *fe = &t->fe[th];
	if (fe->replay_mode == 1 || (fe->mop_active && fe->replay_mode != 2))
		return 0;   /* inside an expansion the JIT did not take */
	if (t->jit_skip[th]) {
		t->jit_skip[th]--;
		return 0;
	}
	return t->entry.jit_wants(t, th) && ttx_jit_alone(t, th);
}

/* TTX_LIMIT with the number of instructions the budget allowed. */
static enum ttx_status budget_used(struct ttx_tile *t, uint64_t n)
{
	return ttx_fail(t, TTX_LIMIT, "stopped after %llu instruction%s (the instruction budget), with work left",
	                (unsigned long long)n, n == 1 ? "" : "s");
}

static int any_pending(const struct ttx_tile *t)
{
	for (unsigned th = 0; th < TTX_THREADS; th++)
		if (ttx_frontend_busy(t, th))
			return 1;
	return 0;
}

/* L1 words a run waits for (ttx_run_until). */
struct until {
	const uint32_t *addr, *value;
	size_t n;
};

static int until_met(const struct ttx_tile *t, const struct until *u)
{
	if (!u)
		return 0;
	for (size_t i = 0; i < u->n; i++) {
		uint32_t v;
		memcpy(&v, t->l1 + u->addr[i], 4);
		if (v != u->value[i])
			return 0;
	}
	return 1;
}

/* Every live core waits in a loop nothing can end (or none is live). */
static int cores_done(const struct ttx_tile *t)
{
	for (unsigned c = 0; c < TTX_CORE_COUNT; c++)
		if ((t->cores_live >> c & 1) && t->core[c].wait != TTX_WAIT_LOOP)
			return 0;
	return 1;
}

/* With live RISC-V cores the threads run this many rounds at most before
   the cores get their next time slice (docs/riscv.md "Scheduling"). */
#define CORE_PERIOD 256

/* cycle_limit (ttx_run_cycles): a thread whose next issue cannot come
   before it waits, and the JIT stays out (a block could run past it). */
static enum ttx_status run(struct ttx_tile *t, uint64_t max_insns, int stall_is_fault, uint64_t cycle_limit,
                           const struct until *until)
{
	double start = ttx_monotonic_seconds();
	uint64_t executed = 0;
	enum ttx_status st = TTX_OK;
	t->cores_cycle_limit = cycle_limit;
	t->sync_epoch++;   /* the host may have released a waiting thread */
	const int *interrupt = t->opt.interrupt;
	for (;;) {
		/* the RISC-V cores' slice */
		int cores_moved = 0;
		if (t->cores_live) {
			uint64_t n;
			st = t->entry.cores_run(t, max_insns ? max_insns - executed : 0, &n, &cores_moved);
			executed += n;
			if (st != TTX_OK)
				goto out;
			if (until_met(t, until))
				goto out;
			if (max_insns && executed >= max_insns && (t->cores_live || any_pending(t))) {
				st = budget_used(t, executed);
				goto out;
			}
		}
		/* the Tensix threads' rounds, one instruction per thread each */
		int progress = 0, pending = 0, held = 0, tensix_moved = 0;
		for (unsigned rounds = 0;; rounds++) {
			if (interrupt && __atomic_load_n(interrupt, __ATOMIC_RELAXED)) {
				st = ttx_fail(t, TTX_INTERRUPTED, "interrupted after %llu instruction%s",
				              (unsigned long long)executed, executed == 1 ? "" : "s");
				goto out;
			}
			progress = pending = held = 0;
			t->round++;
			for (unsigned th = 0; th < TTX_THREADS; th++) {
				struct ttx_pipe *p = &t->pipe[th];
				struct ttx_frontend *fe = &t->fe[th];
				if (cycle_limit && t->timing.ready[th] >= cycle_limit) {
					if (ttx_frontend_busy(t, th))
						held++, pending++;
					continue;
				}
				/* (a budget used up goes on to the interpreter's report: 0 would
				   mean no budget to the JIT) */
				/* (with live cores under the cycle model, words arrive at
				   their own cycles: the interpreter places them one by one) */
				if (t->jit_on && !cycle_limit && !fe->has_slot && (!max_insns || executed < max_insns) &&
				    !(t->timing.on && t->cores_live) && jit_may_run(t, th)) {
					long n = t->entry.jit_step(t, th, max_insns ? max_insns - executed : 0);
					if (n < 0) {
						st = (enum ttx_status)-n;
						goto out;
					}
					if (n > 0) {
						executed += (uint64_t)n;
						t->stats.insns += (uint64_t)n;
						t->stats.insns_by_thread[th] += (uint64_t)n;
						t->round += (uint64_t)n - 1;   /* one instruction per round */
						progress = 1;
						if (ttx_frontend_busy(t, th))
							pending++;
						continue;
					}
				}
				if (!ttx_frontend_next(t, th))
					continue;
				if (max_insns && executed >= max_insns) {
					st = budget_used(t, executed);
					goto out;
				}
				uint32_t word = fe->slot;
				int r = t->entry.exec(t, th, word);
				if (r == TTX_BLOCKED) {
					p->blocked = true;
					p->blocked_epoch = t->sync_epoch;
					pending++;
					continue;
				}
				if (r != TTX_OK) {
					st = (enum ttx_status)r;
					goto out;
				}
				p->blocked = false;
				fe->has_slot = 0;
				progress = 1;
				executed++;
				t->stats.insns++;
				t->stats.insns_by_thread[th]++;
				t->op_counts[word >> 24]++;
				if (t->jit_on && ttx_isa_insns[word >> 24].unit != TTX_UNIT_SFPU && word >> 24 != TTX_OP_NOP)
					t->sync_epoch++;   /* (only ttx_jit_alone reads it) */
				if (t->timing.on)
					ttx_timing_insn(t, th, word);
				if (t->opt.trace)
					t->opt.trace(t->opt.trace_ctx, th, word);
				if (ttx_frontend_busy(t, th))
					pending++;
			}
			if (!pending || !progress) {
				int ran, r = t->entry.idle(t, &ran);
				if (r != TTX_OK) {
					st = (enum ttx_status)r;
					goto out;
				}
				if (ran)
					continue;
			}
			if (!pending || !progress)
				break;
			tensix_moved = 1;
			if (t->cores_live && rounds >= CORE_PERIOD)
				break;
		}
		tensix_moved |= progress;
		if (until_met(t, until))
			goto out;
		if (!t->cores_live) {
			if (!pending)
				break;
			if (!progress) {
				if (held)
					st = ttx_fail(t, TTX_LIMIT, "reached device cycle %llu, with work left",
					              (unsigned long long)cycle_limit);
				else if (stall_is_fault)
					st = report_deadlock(t);
				break;
			}
			continue;
		}
		if (cores_moved || tensix_moved)
			continue;
		/* neither a core nor a thread can move */
		if (!pending && !t->cores_held && cores_done(t))
			break;
		if (held || t->cores_held)
			st = ttx_fail(t, TTX_LIMIT, "reached device cycle %llu, with work left", (unsigned long long)cycle_limit);
		else if (stall_is_fault)
			st = report_deadlock(t);
		break;
	}
out:
	t->cores_cycle_limit = 0;
	t->stats.wall_seconds += ttx_monotonic_seconds() - start;
	return st;
}

enum ttx_status ttx_run(struct ttx_tile *t, uint64_t max_insns)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	return run(t, max_insns, 1, 0, NULL);
}

enum ttx_status ttx_run_until_stalled(struct ttx_tile *t, uint64_t max_insns)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	return run(t, max_insns, 0, 0, NULL);
}

enum ttx_status ttx_run_cycles(struct ttx_tile *t, uint64_t cycle, uint64_t max_insns)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!t->timing.on)
		return ttx_fail(t, TTX_EINVAL, "ttx_run_cycles needs the cycle model (ttx_options.timing)");
	if (!cycle)
		return run(t, max_insns, 0, 0, NULL);
	return run(t, max_insns, 0, cycle, NULL);
}

enum ttx_status ttx_run_until(struct ttx_tile *t, uint64_t max_insns, const uint32_t *addr, const uint32_t *value,
                              size_t n)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (n && (!addr || !value))
		return ttx_fail(t, TTX_EINVAL, "ttx_run_until: addr or value is NULL");
	for (size_t i = 0; i < n; i++)
		if ((addr[i] & 3) || addr[i] >= TTX_L1_SIZE)
			return ttx_fail(t, TTX_EINVAL, "ttx_run_until: 0x%08X is not an aligned L1 address", addr[i]);
	struct until u = { addr, value, n };
	if (until_met(t, &u) && n)
		return TTX_OK;
	enum ttx_status st = run(t, max_insns, 1, 0, n ? &u : NULL);
	for (size_t i = 0; st == TTX_OK && i < n; i++) {
		uint32_t v;
		memcpy(&v, t->l1 + addr[i], 4);
		if (v != value[i])
			st = ttx_fail(t, TTX_FAULT, "the run ended (no core or thread can go on) before L1 0x%X held 0x%08X: "
			              "it holds 0x%08X", addr[i], value[i], v);
	}
	return st;
}

void ttx_stats_get(const struct ttx_tile *t, struct ttx_stats *out)
{
	if (!t || !out)
		return;
	*out = t->stats;
	out->insns_interp = out->insns - out->insns_jit;
	if (t->entry.jit_stats)
		t->entry.jit_stats(t, out);
	for (unsigned op = 0; op < 256; op++) {
		out->insns_by_unit[ttx_isa_insns[op].unit] += t->op_counts[op];
		out->insns_by_opcode[op] = t->op_counts[op];
	}
}

const char *ttx_opcode_name(unsigned opcode)
{
	return opcode < 256 ? ttx_isa_insns[opcode].mnemonic : NULL;
}


/* Run what is queued within what is left of a program's budget; stalled
   threads end the run without a fault unless final is set. */
static enum ttx_status run_budget(struct ttx_tile *t, uint64_t start, uint64_t max_insns, int final)
{
	uint64_t used = t->stats.insns - start;
	if (max_insns && used >= max_insns)
		return any_pending(t) ? budget_used(t, used) : TTX_OK;
	enum ttx_status st = run(t, max_insns ? max_insns - used : 0, final, 0, NULL);
	/* the count is the program's, across its .mmio stores */
	return st == TTX_LIMIT ? budget_used(t, t->stats.insns - start) : st;
}

/* Push a program's instructions in order; before each .mmio store, run until
   every thread has finished or is waiting, so that the store lands after the
   instructions written before it (docs/assembly.md). */
enum ttx_status ttx_program_run(struct ttx_tile *t, const struct ttx_program *p, uint64_t max_insns)
{
	if (!t)
		return TTX_EINVAL;   /* no tile to hold a message */
	if (!p)
		return ttx_fail(t, TTX_EINVAL, "ttx_program_run: p is NULL");
	uint64_t start = t->stats.insns;
	size_t n = ttx_program_size(p);
	for (size_t i = 0; i < n; i++) {
		const struct ttx_item *it = ttx_program_item(p, i);
		enum ttx_status st;
		if (it->kind == TTX_ITEM_INSN) {
			st = ttx_push(t, it->thread, it->word);
		} else {
			st = run_budget(t, start, max_insns, 0);
			if (st == TTX_OK) {
				st = ttx_mmio_write(t, it->thread, it->addr, it->value);
				if (st != TTX_OK) {
					char msg[sizeof(t->error)];
					snprintf(msg, sizeof(msg), "%s", t->error);
					return ttx_fail(t, st, "line %u: %s", it->line, msg);
				}
			}
		}
		if (st != TTX_OK)
			return st;
	}
	return run_budget(t, start, max_insns, 1);
}
