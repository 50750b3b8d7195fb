/* Stepping a chip's tiles by device cycles (ttx_chip_clock, docs/chip.md
 * "Time").  The tiles run in quanta: within one they are independent (a
 * NoC packet takes longer than a quantum to land, noc.c), so each runs on
 * its own to the quantum's end, taking its inbox's messages at their
 * cycles, on one of a pool of host threads; between quanta one thread
 * routes what they sent, in a fixed order.  So what a tile computes, and
 * when, does not depend on the thread count.  With no core released
 * anywhere and nothing on the NoC a step is one quantum.  Only tiles with
 * a released core, queued Tensix work or NoC messages are stepped: the
 * chip keeps a list of those that may have some (the host wrote to them,
 * a packet came, or they had work at the last step); a tile whose cores
 * all wait on something no one has touched since is skipped, so waiting
 * costs nothing.  An active tile's cycle_floor, where its idle cores and
 * threads take up new work, follows the chip's cycle. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chip.h"
#include "riscv.h"

/* A quantum is short (32 cycles: microseconds of host time), so the pool
   hands work over by spinning on atomics for a while before it sleeps on
   the condition variables. */
#define SPINS 20000

struct chip_pool {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	pthread_t *threads;
	unsigned nthreads;         /* workers besides the calling thread */
	atomic_uint_fast64_t generation;   /* bumped for each step */
	atomic_uint finished;
	atomic_int quit;
	unsigned sleepers;         /* workers asleep on go (under mu) */
	int main_asleep;           /* the stepping thread asleep on done (under mu) */
	/* the step */
	struct ttx_chip *chip;
	struct chip_tile **work;
	size_t nwork;
	atomic_size_t next;
	uint64_t target;
	enum ttx_status *status;
};

/* Whether t has Tensix work queued. */
static int threads_busy(const struct ttx_tile *t)
{
	for (unsigned th = 0; th < TTX_THREADS; th++)
		if (ttx_frontend_busy(t, th) || t->wait_gate[th].opcode)
			return 1;
	return 0;
}

/* Whether tile ct has anything to do before `end`. */
static int tile_busy(const struct chip_tile *ct, uint64_t end)
{
	const struct ttx_tile *t = ct->tile;
	if (ct->inbox.n && ct->inbox.v[0].time < end)
		return 1;
	if (threads_busy(t))
		return 1;
	return t->cores_live && !ttx_rv_all_waiting(t);
}

/* Whether the tile may have work later (a core, a thread, a message). */
static int tile_alive(const struct chip_tile *ct)
{
	return ct->tile->cores_live || ct->inbox.n || ct->outbox.n || threads_busy(ct->tile);
}

static void run_items(struct chip_pool *p)
{
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->nwork)
			return;
		enum ttx_status st = chip_noc_advance(p->chip, p->work[i], p->target);
		p->status[i] = st == TTX_LIMIT ? TTX_OK : st;   /* (LIMIT: work left for the next step) */
	}
}

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static void *worker(void *arg)
{
	struct chip_pool *p = arg;
	uint64_t seen = 0;
	for (;;) {
		for (unsigned spin = 0; atomic_load(&p->generation) == seen && !atomic_load(&p->quit); spin++) {
			if (spin < SPINS) {
				relax();
				continue;
			}
			pthread_mutex_lock(&p->mu);
			p->sleepers++;
			while (!atomic_load(&p->quit) && atomic_load(&p->generation) == seen)
				pthread_cond_wait(&p->go, &p->mu);
			p->sleepers--;
			pthread_mutex_unlock(&p->mu);
		}
		if (atomic_load(&p->quit))
			return NULL;
		seen = atomic_load(&p->generation);
		run_items(p);
		if (atomic_fetch_add(&p->finished, 1) + 1 == p->nthreads) {
			pthread_mutex_lock(&p->mu);
			if (p->main_asleep)
				pthread_cond_signal(&p->done);
			pthread_mutex_unlock(&p->mu);
		}
	}
}

void chip_pool_free(struct ttx_chip *c)
{
	struct chip_pool *p = c->pool;
	if (!p)
		return;
	if (p->nthreads && c->pool_pid == getpid()) {   /* (in a forked child the workers do not exist) */
		pthread_mutex_lock(&p->mu);
		atomic_store(&p->quit, 1);
		pthread_cond_broadcast(&p->go);
		pthread_mutex_unlock(&p->mu);
		for (unsigned i = 0; i < p->nthreads; i++)
			pthread_join(p->threads[i], NULL);
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->go);
		pthread_cond_destroy(&p->done);
	}
	free(p->threads), free(p->work), free(p->status), free(p);
	c->pool = NULL;
}

static struct chip_pool *pool_get(struct ttx_chip *c)
{
	if (c->pool && c->pool->nthreads && c->pool_pid != getpid())
		chip_pool_free(c);   /* forked since: a fresh pool for this process (one thread needs none) */
	if (c->pool)
		return c->pool;
	struct chip_pool *p = calloc(1, sizeof(*p));
	size_t n = CHIP_X * CHIP_Y;
	if (!p || !(p->work = calloc(n, sizeof(*p->work))) || !(p->status = calloc(n, sizeof(*p->status))) ||
	    (c->threads > 1 && !(p->threads = calloc(c->threads - 1, sizeof(*p->threads))))) {
		if (p)
			free(p->work), free(p->status);
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	p->chip = c;
	c->pool = p, c->pool_pid = getpid();
	for (unsigned i = 0; i + 1 < c->threads; i++) {
		if (pthread_create(&p->threads[i], NULL, worker, p) != 0)
			break;   /* fewer workers: the same results, later */
		p->nthreads++;
	}
	return p;
}

void chip_activate(struct ttx_chip *c, struct chip_tile *ct)
{
	if (ct->active || !ct->tile)
		return;
	ct->active = 1;
	ct->tile->cycle_floor = c->cycle;
	c->active[c->nactive++] = ct;
}

/* One quantum: the active tiles to `end`, on the pool. */
static enum ttx_status quantum(struct ttx_chip *c, struct chip_pool *p, uint64_t end)
{
	/* the work, in grid order (the list's order is the order tiles woke) */
	p->nwork = 0;
	unsigned keep = 0;
	for (unsigned i = 0; i < c->nactive; i++) {
		struct chip_tile *ct = c->active[i];
		if (tile_busy(ct, end))
			p->work[p->nwork++] = ct;
		else if (!ct->exposed && !tile_alive(ct)) {
			ct->active = 0;
			continue;
		}
		c->active[keep++] = ct;
	}
	c->nactive = keep;
	/* the costliest first (what each did last quantum: instructions), so
	   that the threads end together; faults are reported in grid order */
	for (size_t i = 1; i < p->nwork; i++)   /* (insertion sort: a handful of tiles) */
		for (size_t k = i; k > 0 && p->work[k - 1]->last_work < p->work[k]->last_work; k--) {
			struct chip_tile *tmp = p->work[k];
			p->work[k] = p->work[k - 1], p->work[k - 1] = tmp;
		}
	p->target = end;
	atomic_store(&p->next, 0);
	if (p->nwork > 1 && p->nthreads) {
		atomic_store(&p->finished, 0);
		pthread_mutex_lock(&p->mu);
		atomic_fetch_add(&p->generation, 1);
		if (p->sleepers)
			pthread_cond_broadcast(&p->go);
		pthread_mutex_unlock(&p->mu);
		run_items(p);
		for (unsigned spin = 0; atomic_load(&p->finished) < p->nthreads; spin++) {
			if (spin < SPINS) {
				relax();
				continue;
			}
			pthread_mutex_lock(&p->mu);
			p->main_asleep = 1;
			while (atomic_load(&p->finished) < p->nthreads)
				pthread_cond_wait(&p->done, &p->mu);
			p->main_asleep = 0;
			pthread_mutex_unlock(&p->mu);
		}
	} else {
		run_items(p);
	}
	for (unsigned i = 0; i < c->nactive; i++)
		if (c->active[i]->tile->cycle_floor < end)
			c->active[i]->tile->cycle_floor = end;
	size_t bad = p->nwork;   /* the first faulting tile in grid order */
	for (size_t i = 0; i < p->nwork; i++) {
		struct chip_tile *ct = p->work[i];
		uint64_t done = ct->tile->stats.insns + ct->tile->core_insns;
		ct->last_work = done - ct->work_seen, ct->work_seen = done;
		if (p->status[i] != TTX_OK &&
		    (bad == p->nwork || ct->x * CHIP_Y + ct->y < p->work[bad]->x * CHIP_Y + p->work[bad]->y))
			bad = i;
	}
	if (bad < p->nwork)
		return chip_fail(c, p->status[bad] == TTX_ENOMEM ? TTX_ENOMEM : TTX_FAULT, "tile (%u, %u) at cycle %llu: %s",
		                 p->work[bad]->x, p->work[bad]->y, (unsigned long long)end, ttx_tile_error(p->work[bad]->tile));
	return chip_noc_route(c, end);
}

/* Whether a core is released anywhere (it may send a packet at any cycle). */
static int cores_anywhere(const struct ttx_chip *c)
{
	for (unsigned i = 0; i < c->nactive; i++)
		if (c->active[i]->tile->cores_live)
			return 1;
	return 0;
}

enum ttx_status chip_step(struct ttx_chip *c, uint64_t target)
{
	struct chip_pool *p = pool_get(c);
	if (!p)
		return chip_fail(c, TTX_ENOMEM, "out of memory for the chip's thread pool");
	uint64_t now = c->cycle;
	while (now < target) {
		uint64_t end = target;
		if (cores_anywhere(c) || chip_noc_busy(c))
			end = now + NOC_QUANTUM - now % NOC_QUANTUM < target ? now + NOC_QUANTUM - now % NOC_QUANTUM : target;
		enum ttx_status st = quantum(c, p, end);
		if (st != TTX_OK)
			return st;
		now = end;
	}
	return TTX_OK;
}

int ttx_chip_tile_idle(struct ttx_chip *c, unsigned x, unsigned y)
{
	struct chip_tile *ct = c ? chip_at(c, x, y) : NULL;
	return !ct || !ct->tile || !tile_alive(ct);
}

void ttx_chip_stats_get(const struct ttx_chip *c, struct ttx_chip_stats *out)
{
	static const char *const kinds[LINK_KINDS] = { "into the NoC", "X", "Y", "out of the NoC" };
	if (!c || !out)
		return;
	memset(out, 0, sizeof(*out));
	const struct noc_state *s = &c->noc;
	out->cycles = c->cycle, out->packets = s->packets, out->flits = s->flits;
	out->link_kind = kinds[0];
	for (unsigned noc = 0; noc < 2; noc++)
		for (unsigned u = 0; u < CHIP_X; u++)
			for (unsigned v = 0; v < CHIP_Y; v++)
				for (unsigned k = 0; k < LINK_KINDS; k++) {
					uint64_t b = s->busy_cycles[noc][u][v][k];
					out->link_busy_total += b;
					if (b > out->link_busy_max) {
						out->link_busy_max = b, out->link_noc = noc, out->link_kind = kinds[k];
						out->link_x = noc ? CHIP_X - 1 - u : u, out->link_y = noc ? CHIP_Y - 1 - v : v;
					}
				}
	for (unsigned ch = 0; ch < DRAM_CHANNELS; ch++)
		out->dram_bytes[ch] = s->dram_bytes[ch], out->dram_busy[ch] = s->dram_busy_cycles[ch];
}

/* Everything that moves: instructions retired anywhere, packets routed. */
static uint64_t chip_activity(const struct ttx_chip *c)
{
	uint64_t a = c->noc.packets + c->far.n;
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			const struct ttx_tile *t = c->grid[x][y].tile;
			if (t)
				a += t->stats.insns + t->core_insns;
		}
	return a;
}

size_t ttx_chip_waiting_report(const struct ttx_chip *c, char *buf, size_t len)
{
	static const char *const cores[TTX_CORE_COUNT] = { "RISCV B", "RISCV T0", "RISCV T1", "RISCV T2", "RISCV NC" };
	size_t n = 0;
	if (!c || !buf || !len)
		return 0;
	buf[0] = 0;
	for (unsigned y = 0; y < CHIP_Y; y++)
		for (unsigned x = 0; x < CHIP_X; x++) {
			const struct ttx_tile *t = c->grid[x][y].tile;
			if (!t || !tile_alive(&c->grid[x][y]))
				continue;
			for (unsigned core = 0; core < TTX_CORE_COUNT; core++) {
				if (!(t->cores_live >> core & 1))
					continue;
				const struct ttx_rvcore *rc = &t->core[core];
				int w = snprintf(buf + n, len - n, "%stile (%u, %u) %s %s at pc 0x%X", n ? "; " : "", x, y,
				                 cores[core], rc->wait ? ttx_core_wait_name((enum ttx_core_wait_reason)rc->wait)
				                                       : "running", rc->pc);
				if (w < 0 || (size_t)w >= len - n) {
					buf[n] = 0;
					return n;
				}
				n += (size_t)w;
			}
			for (unsigned th = 0; th < TTX_THREADS; th++)
				if (ttx_frontend_busy(t, th) || t->wait_gate[th].opcode) {
					int w = snprintf(buf + n, len - n, "%stile (%u, %u) Tensix thread %u blocked", n ? "; " : "", x,
					                 y, th);
					if (w < 0 || (size_t)w >= len - n) {
						buf[n] = 0;
						return n;
					}
					n += (size_t)w;
				}
		}
	return n;
}

void ttx_chip_stats_reset(struct ttx_chip *c)
{
	if (!c)
		return;
	struct noc_state *s = &c->noc;
	memset(s->busy_cycles, 0, sizeof(s->busy_cycles));
	memset(s->dram_busy_cycles, 0, sizeof(s->dram_busy_cycles));
	memset(s->dram_bytes, 0, sizeof(s->dram_bytes));
	s->packets = s->flits = 0;
}

enum ttx_status ttx_chip_run(struct ttx_chip *c, uint64_t max_cycles, uint64_t stall_cycles)
{
	if (!c)
		return TTX_EINVAL;
	const uint64_t step = 256, start = c->cycle;
	uint64_t last = chip_activity(c), still = 0;
	for (;;) {
		int busy = chip_noc_busy(c);
		for (unsigned i = 0; i < c->nactive && !busy; i++)
			busy = tile_alive(c->active[i]);
		if (!busy)
			return TTX_OK;
		if (max_cycles && c->cycle - start >= max_cycles)
			return chip_fail(c, TTX_LIMIT, "reached %llu cycles with work left", (unsigned long long)max_cycles);
		enum ttx_status st = ttx_chip_clock(c, step);
		if (st != TTX_OK)
			return st;
		uint64_t now = chip_activity(c);
		still = now == last ? still + step : 0;
		last = now;
		if (stall_cycles && still >= stall_cycles) {
			char who[sizeof(c->error) - 96];
			ttx_chip_waiting_report(c, who, sizeof(who));
			return chip_fail(c, TTX_FAULT, "deadlock at cycle %llu: nothing moved for %llu cycles: %s",
			                 (unsigned long long)c->cycle, (unsigned long long)still, who);
		}
	}
}

enum ttx_status ttx_chip_clock(struct ttx_chip *c, uint64_t cycles)
{
	if (!c)
		return TTX_EINVAL;
	if (!cycles)
		return TTX_OK;
	enum ttx_status st = chip_step(c, c->cycle + cycles);
	c->cycle += cycles;
	return st;
}
