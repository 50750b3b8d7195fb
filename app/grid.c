/* A grid of independent tiles run on a pool of host threads (docs/API.md,
 * "Grids").  The tiles share one JIT code cache; each job runs on one
 * worker thread with its tile, so no tile is touched by two threads at
 * once, and what a tile computes does not depend on the thread count. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttx.h"

struct ttx_grid {
	size_t n;
	unsigned threads;
	struct ttx_tile **tiles;
	struct ttx_jit_cache *cache;
};

struct grid_run {
	struct ttx_grid *g;
	int (*job)(void *ctx, size_t index, struct ttx_tile *t);
	void *ctx;
	atomic_size_t next;
	atomic_int failed;             /* a job returned non-zero: the lowest index's status wins below */
	int *status;                   /* per tile */
};

static void *worker(void *arg)
{
	struct grid_run *r = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&r->next, 1);
		if (i >= r->g->n)
			return NULL;
		r->status[i] = r->job(r->ctx, i, r->g->tiles[i]);
		if (r->status[i])
			atomic_store(&r->failed, 1);
	}
}

static unsigned host_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

enum ttx_status ttx_grid_create(size_t ntiles, const struct ttx_options *opt, unsigned threads,
                                struct ttx_grid **out, char *err, size_t errlen)
{
	if (!out) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_grid_create: out is NULL");
		return TTX_EINVAL;
	}
	*out = NULL;
	if (ntiles == 0 || ntiles > TTX_GRID_MAX_TILES) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_grid_create: %zu tiles (1 to %u)", ntiles, TTX_GRID_MAX_TILES);
		return TTX_EINVAL;
	}
	struct ttx_grid *g = calloc(1, sizeof(*g));
	if (g)
		g->tiles = calloc(ntiles, sizeof(*g->tiles));
	if (!g || !g->tiles) {
		free(g);
		if (err && errlen)
			snprintf(err, errlen, "out of memory for a grid of %zu tiles", ntiles);
		return TTX_ENOMEM;
	}
	g->n = ntiles;
	g->threads = threads ? threads : host_cores();
	struct ttx_options o = { .size = sizeof(o), .engine = TTX_ENGINE_AUTO };
	if (opt) {
		size_t size = opt->size ? opt->size : sizeof(o);
		if (size > sizeof(o)) {
			ttx_grid_destroy(g);
			if (err && errlen)
				snprintf(err, errlen, "ttx_grid_create: options of %zu bytes, more than this library knows", size);
			return TTX_EINVAL;
		}
		memcpy(&o, opt, size);
		o.size = sizeof(o);
	}
	if (!o.jit_cache && o.engine != TTX_ENGINE_INTERP)
		o.jit_cache = g->cache = ttx_jit_cache_new();   /* NULL without the JIT: each tile alone */
	for (size_t i = 0; i < ntiles; i++) {
		enum ttx_status st = ttx_tile_create(&o, &g->tiles[i], err, errlen);
		if (st != TTX_OK) {
			ttx_grid_destroy(g);
			return st;
		}
	}
	*out = g;
	return TTX_OK;
}

size_t ttx_grid_size(const struct ttx_grid *g)
{
	return g ? g->n : 0;
}

struct ttx_tile *ttx_grid_tile(struct ttx_grid *g, size_t index)
{
	return g && index < g->n ? g->tiles[index] : NULL;
}

enum ttx_status ttx_grid_run(struct ttx_grid *g, int (*job)(void *ctx, size_t index, struct ttx_tile *t), void *ctx,
                             size_t *failed_index)
{
	if (!g || !job)
		return TTX_EINVAL;
	struct grid_run r = { .g = g, .job = job, .ctx = ctx };
	atomic_init(&r.next, 0);
	atomic_init(&r.failed, 0);
	r.status = calloc(g->n, sizeof(*r.status));
	if (!r.status)
		return TTX_ENOMEM;
	unsigned workers = g->threads < g->n ? g->threads : (unsigned)g->n;
	pthread_t *tid = calloc(workers, sizeof(*tid));
	unsigned started = 0;
	for (; tid && started < workers; started++)
		if (pthread_create(&tid[started], NULL, worker, &r) != 0)
			break;
	if (started == 0)
		worker(&r);   /* no thread to be had: run them here */
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	enum ttx_status st = TTX_OK;
	for (size_t i = 0; i < g->n && atomic_load(&r.failed); i++)
		if (r.status[i]) {
			st = r.status[i] > 0 && r.status[i] <= TTX_LIMIT ? (enum ttx_status)r.status[i] : TTX_FAULT;
			if (failed_index)
				*failed_index = i;
			break;
		}
	free(r.status);
	return st;
}

void ttx_grid_destroy(struct ttx_grid *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		ttx_tile_destroy(g->tiles[i]);
	ttx_jit_cache_release(g->cache);
	free(g->tiles);
	free(g);
}
