/* Which blocks the JIT runs, the code cache, tiering (docs/jit.md).
 *
 * A thread's front end offers three kinds of block, each only when the other
 * threads cannot act meanwhile (ttx_jit_alone: so running it at once is what
 * round-robin would do):
 *   - a straight run of words at the head of the instruction pipe (at most
 *     MAX_BLOCK, ending before a word the JIT cannot take);
 *   - a replay buffer playback (TC/REPLAY.md), the words it will play;
 *   - a MOP instruction whose expansion (TC/MOPExpander.md) holds only words
 *     the JIT can take: one function with the template's loops.
 * The cache key is everything the generated code depends on: the words (for
 * a MOP, the MOP word, the nine MopCfg words and MaskHi) and the lanes that
 * LaneConfig's ROW_MASK disables.  Other state is read at run time, so a
 * re-recorded replay buffer or rewritten MopCfg is simply another key.
 *
 * Tiering: a block is compiled when it has been seen threshold times
 * (ttx_options.jit_threshold; default 1 with --engine jit, 2 with auto),
 * with auto by a compile thread while the interpreter goes on; until its
 * code is ready, and for blocks that cannot be compiled, the interpreter
 * runs its words and the JIT does not look again until they are done. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "units.h"
#include "sfpu.h"
#include "wh_fp.h"
#include "jit.h"

#define MAX_BLOCK 64               /* words in a straight block: 32 halves integer code speed */
#define MAX_BLOCKS (1u << 16)      /* blocks remembered per tile */
#define MOP_KEY 11                 /* MOP word, MopCfg[9], MaskHi */

struct op_count {
	uint8_t op;
	uint32_t n;
};

struct block {
	uint64_t hash;
	uint8_t is_mop, fast_numerics;
	uint8_t has_units;             /* Matrix Unit, unpacker or packer instructions */
	uint8_t unit_first;            /* ... and the first instruction is one */
	uint8_t failed;                /* atomic */
	uint32_t row_masked;
	uint32_t *key;
	size_t nkey;
	uint64_t ninsns, nfallback;    /* instructions per run, and of them through the interpreter */
	struct op_count *ops;          /* per opcode, for the statistics */
	size_t nops;
	struct ttx_timing_block timing;   /* its placement by the cycle model */
	uint32_t seen;                 /* atomic */
	uint8_t queued;                /* atomic: handed to the compile thread */
	ttx_block_fn fn;               /* atomic: set once compiled */
};

/* The code cache: blocks and their code, shared by every tile that uses it
   (ttx_jit_cache_new), or a tile's own.  The table has a fixed size so
   that look-ups need no lock: a slot, once filled, never changes, and a
   block is complete before it is published (release store, acquire
   load).  lock guards inserts, the queue and the statistics; llvm the LLVM
   objects, which are not thread-safe. */
struct ttx_jit_cache {
	struct block **slots;          /* SLOTS entries, open addressing on hash */
	size_t count;                  /* under lock */
	unsigned refs;                 /* atomic: tiles using it, and its creator */
	pthread_mutex_t lock, llvm;
	struct ttx_orc *orc;           /* under llvm; created by the first compile */
	int orc_failed;
	double *compile_times;
	size_t ncompiled, compile_cap;
	char failure[256];             /* a compile error not reported yet ... */
	int has_failure;               /* ... (atomic) */
	/* Background compilation (--engine auto): a thread owns the LLVM
	   objects and compiles the blocks queued to it while the run loops go
	   on interpreting them.  --engine jit compiles in the calling thread,
	   so that every block runs compiled from its first time. */
	int started, stop, busy;
	pthread_t thread;
	pthread_cond_t wake, idle;
	struct block **queue;
	size_t qhead, qtail, qcap;
};
#define SLOTS (2 * MAX_BLOCKS)

/* A tile's view of a cache. */
struct ttx_jit {
	struct ttx_jit_cache *c;
	uint32_t threshold;
	int fast_numerics, async;
	uint32_t words[MAX_BLOCK];
	/* Per thread, the block of the last replay playback: the next playback
	   of the same words finds it with one comparison. */
	struct block *last_replay[TTX_THREADS];
};

int ttx_jit_available(void)
{
	return 1;
}

/* ---- what compiled code calls ---- */

uint32_t ttx_jit_call_interp(struct ttx_tile *t, uint32_t thread, uint32_t word)
{
	return (uint32_t)ttx_interp_exec_unit(t, thread, word);
}

/* A Matrix Unit, unpacker or packer instruction inside a block, as the
   run loop (src/run.c) executes it: 0 when it ran and the block may go on;
   TTX_JIT_STALL when it must wait (it had no effect); TTX_JIT_YIELD when
   it ran but another thread may act now (it may have released a bank,
   so the block stops where the round-robin schedule would switch); or its
   fault. */
uint32_t ttx_jit_call_unit(struct ttx_tile *t, uint32_t thread, uint32_t word)
{
	int r = ttx_interp_exec(t, thread, word);
	if (r == TTX_BLOCKED)
		return TTX_JIT_STALL;
	if (r != TTX_OK)
		return (uint32_t)r;
	t->sync_epoch++;
	return ttx_jit_alone(t, thread) ? 0 : TTX_JIT_YIELD;
}

void ttx_jit_call_mad(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t enable)
{
	uint32_t r[TTX_LANES];
	ttx_wh_mad_lanes(r, a, b, c);
	for (unsigned i = 0; i < TTX_LANES; i++)
		d[i] = enable >> i & 1 ? r[i] : d[i];
}

size_t ttx_jit_offset_lreg(unsigned r)
{
	return offsetof(struct ttx_tile, sfpu) + offsetof(struct ttx_sfpu, lreg) + r * sizeof(uint32_t[TTX_LANES]);
}

size_t ttx_jit_offset_lane_flags(void)
{
	return offsetof(struct ttx_tile, sfpu) + offsetof(struct ttx_sfpu, lane_flags);
}

size_t ttx_jit_offset_use_lane_flags(void)
{
	return offsetof(struct ttx_tile, sfpu) + offsetof(struct ttx_sfpu, use_lane_flags);
}

size_t ttx_jit_offset_flag_stack(unsigned depth, int use)
{
	return offsetof(struct ttx_tile, sfpu) + offsetof(struct ttx_sfpu, flag_stack) +
	       depth * sizeof(struct ttx_flag_entry) +
	       (use ? offsetof(struct ttx_flag_entry, use_lane_flags) : offsetof(struct ttx_flag_entry, lane_flags));
}

size_t ttx_jit_offset_flag_stack_size(void)
{
	return offsetof(struct ttx_tile, sfpu) + offsetof(struct ttx_sfpu, flag_stack_size);
}

/* ---- the table ---- */

static uint64_t hash_key(int is_mop, int fast, uint32_t row_masked, uint32_t first)
{
	uint64_t h = ((uint64_t)first << 32 | row_masked) ^ ((uint64_t)is_mop << 63);
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDull;
	h ^= h >> 33;
	return h ^ (uint64_t)fast;   /* --numerics is part of the key */
}

static void free_block(struct block *b)
{
	free(b->key);
	free(b->ops);
	free(b);
}

static void cache_free(struct ttx_jit_cache *c)
{
	if (c->started) {
		pthread_mutex_lock(&c->lock);
		c->stop = 1;
		pthread_cond_signal(&c->wake);
		pthread_mutex_unlock(&c->lock);
		pthread_join(c->thread, NULL);
	}
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->llvm);
	pthread_cond_destroy(&c->wake);
	pthread_cond_destroy(&c->idle);
	for (size_t i = 0; c->slots && i < SLOTS; i++)
		if (c->slots[i])
			free_block(c->slots[i]);
	free(c->slots);
	free(c->queue);
	free(c->compile_times);
	ttx_orc_free(c->orc);
	free(c);
}

struct ttx_jit_cache *ttx_jit_cache_new(void)
{
	struct ttx_jit_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->llvm, NULL);
	pthread_cond_init(&c->wake, NULL);
	pthread_cond_init(&c->idle, NULL);
	c->refs = 1;
	c->slots = calloc(SLOTS, sizeof(*c->slots));   /* pages are touched as blocks arrive */
	if (!c->slots) {
		cache_free(c);
		return NULL;
	}
	return c;
}

static void ttx_jit_cache_ref(struct ttx_jit_cache *c)
{
	if (c)
		__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
}

void ttx_jit_cache_release(struct ttx_jit_cache *c)
{
	if (c && __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0)
		cache_free(c);
}

static void jit_free(struct ttx_tile *t)
{
	if (t->jit) {
		ttx_jit_cache_release(t->jit->c);
		free(t->jit);
		t->jit = NULL;
	}
	ttx_jit_cache_release(t->opt.jit_cache);
}

/* The tile's view: of the cache in its options (a reference the tile took
   when created), or of a cache of its own. */
static struct ttx_jit *jit_new(struct ttx_tile *t)
{
	struct ttx_jit *j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->c = t->opt.jit_cache;
	if (j->c)
		ttx_jit_cache_ref(j->c);
	else
		j->c = ttx_jit_cache_new();
	if (!j->c) {
		ttx_warn(t, "the JIT is not available (out of memory); interpreting");
		free(j);
		return NULL;
	}
	j->threshold = t->opt.jit_threshold ? t->opt.jit_threshold : t->opt.engine == TTX_ENGINE_JIT ? 1 : 2;
	j->fast_numerics = t->opt.numerics == TTX_NUMERICS_FAST;
	j->async = t->opt.engine == TTX_ENGINE_AUTO;
	return j;
}

static int same_block(const struct block *x, uint64_t hash, int is_mop, int fast, uint32_t row_masked)
{
	return x->hash == hash && x->is_mop == is_mop && x->fast_numerics == fast && x->row_masked == row_masked;
}

/* The slot where b goes, or b's twin that another tile published first
   (then b is freed).  NULL when the table is full. */
static struct block *insert(struct ttx_jit_cache *c, struct block *b)
{
	struct block *r = NULL;
	pthread_mutex_lock(&c->lock);
	size_t k = b->hash & (SLOTS - 1);
	for (struct block *x; (x = c->slots[k]); k = (k + 1) & (SLOTS - 1))
		if (same_block(x, b->hash, b->is_mop, b->fast_numerics, b->row_masked) && x->nkey == b->nkey &&
		    !memcmp(x->key, b->key, b->nkey * sizeof(*b->key))) {
			r = x;
			break;
		}
	if (!r && c->count < MAX_BLOCKS) {
		__atomic_store_n(&c->slots[k], b, __ATOMIC_RELEASE);
		c->count++;
		r = b;
	}
	pthread_mutex_unlock(&c->lock);
	if (r != b)
		free_block(b);
	return r;
}

static struct block *slot(const struct ttx_jit_cache *c, size_t k)
{
	return __atomic_load_n(&c->slots[k & (SLOTS - 1)], __ATOMIC_ACQUIRE);
}

/* Per-opcode counts of a block's instructions. */
static void count_op(struct block *b, uint32_t word, int native)
{
	uint8_t op = (uint8_t)(word >> 24);
	ttx_timing_block_add(&b->timing, word);
	b->has_units |= (uint8_t)ttx_jit_is_unit_word(word);
	if (b->ninsns == 0)
		b->unit_first = (uint8_t)ttx_jit_is_unit_word(word);
	b->ninsns++;
	b->nfallback += !native;
	for (size_t i = 0; i < b->nops; i++) {
		if (b->ops[i].op == op) {
			b->ops[i].n++;
			return;
		}
	}
	struct op_count *n = realloc(b->ops, (b->nops + 1) * sizeof(*n));
	if (!n)
		return;   /* statistics only */
	b->ops = n;
	b->ops[b->nops++] = (struct op_count){ op, 1 };
}

static struct block *new_block(int is_mop, int fast, uint32_t row_masked, const uint32_t *key, size_t nkey)
{
	struct block *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->key = malloc(nkey * sizeof(*key));
	if (!b->key) {
		free(b);
		return NULL;
	}
	memcpy(b->key, key, nkey * sizeof(*key));
	b->nkey = nkey;
	b->is_mop = (uint8_t)is_mop;
	b->fast_numerics = (uint8_t)fast;
	b->row_masked = row_masked;
	b->hash = hash_key(is_mop, fast, row_masked, key[0]);
	return b;
}

/* Compile b, unless another tile did meanwhile (under llvm: LLVM's objects
   are not thread-safe, and the cache may serve tiles on many threads). */
static void compile(struct ttx_jit_cache *c, struct block *b)
{
	struct ttx_block_desc d = { .row_masked = b->row_masked, .fast_numerics = b->fast_numerics };
	if (b->is_mop) {
		d.is_mop = 1;
		d.mop_word = b->key[0];
		memcpy(d.mop_cfg, b->key + 1, sizeof(d.mop_cfg));
		d.mask_hi = (uint16_t)b->key[10];
	} else {
		d.words = b->key;
		d.nwords = b->nkey;
	}
	char err[256];
	ttx_block_fn fn = NULL;
	pthread_mutex_lock(&c->llvm);
	if (__atomic_load_n(&b->fn, __ATOMIC_ACQUIRE) || __atomic_load_n(&b->failed, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&c->llvm);
		return;
	}
	/* LLVM is set up at the first compile, by the thread that compiles
	   (with --engine auto, not the one that runs the tile). */
	if (!c->orc && !c->orc_failed) {
		c->orc = ttx_orc_new(err, sizeof(err));
		c->orc_failed = !c->orc;
	} else if (c->orc_failed) {
		snprintf(err, sizeof(err), "the JIT is not available");
	}
	double start = ttx_monotonic_seconds();
	if (c->orc)
		fn = ttx_orc_compile(c->orc, &d, err, sizeof(err));
	double s = ttx_monotonic_seconds() - start;
	pthread_mutex_lock(&c->lock);
	if (!fn) {
		__atomic_store_n(&b->failed, 1, __ATOMIC_RELEASE);
		snprintf(c->failure, sizeof(c->failure), "%s", err);
		__atomic_store_n(&c->has_failure, 1, __ATOMIC_RELEASE);
	} else {
		if (c->ncompiled == c->compile_cap) {
			size_t ncap = c->compile_cap ? 2 * c->compile_cap : 64;
			double *n = realloc(c->compile_times, ncap * sizeof(*n));
			if (n) {
				c->compile_times = n;
				c->compile_cap = ncap;
			}
		}
		if (c->ncompiled < c->compile_cap)
			c->compile_times[c->ncompiled++] = s;
	}
	pthread_mutex_unlock(&c->lock);
	__atomic_store_n(&b->fn, fn, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&c->llvm);
}

static void *compile_thread(void *arg)
{
	struct ttx_jit_cache *c = arg;
	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->stop && c->qhead == c->qtail)
			pthread_cond_wait(&c->wake, &c->lock);
		if (c->stop)
			break;
		struct block *b = c->queue[c->qhead++ % c->qcap];
		c->busy = 1;
		pthread_mutex_unlock(&c->lock);
		compile(c, b);
		pthread_mutex_lock(&c->lock);
		c->busy = 0;
		if (c->qhead == c->qtail)
			pthread_cond_broadcast(&c->idle);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* Hand b to the compile thread (started at the first block).  0 when that
   cannot be done: no thread (the caller compiles) or no memory (later). */
static int enqueue(struct ttx_jit_cache *c, struct block *b)
{
	int ok = 1;
	pthread_mutex_lock(&c->lock);
	if (__atomic_load_n(&b->queued, __ATOMIC_RELAXED)) {   /* another tile was first */
		pthread_mutex_unlock(&c->lock);
		return 1;
	}
	if (!c->started)
		c->started = pthread_create(&c->thread, NULL, compile_thread, c) == 0;
	if (c->started && c->qtail - c->qhead == c->qcap) {
		size_t ncap = c->qcap ? 2 * c->qcap : 64;
		struct block **nq = malloc(ncap * sizeof(*nq));
		if (nq) {
			for (size_t i = 0; i < c->qtail - c->qhead; i++)
				nq[i] = c->queue[(c->qhead + i) % c->qcap];
			c->qtail -= c->qhead;
			c->qhead = 0;
			free(c->queue);
			c->queue = nq;
			c->qcap = ncap;
		}
	}
	if (!c->started || c->qtail - c->qhead == c->qcap) {
		ok = 0;
	} else {
		c->queue[c->qtail++ % c->qcap] = b;
		__atomic_store_n(&b->queued, 1, __ATOMIC_RELAXED);
		pthread_cond_signal(&c->wake);
	}
	pthread_mutex_unlock(&c->lock);
	return ok;
}

/* Seen once more: compiled (or compile now) -> 1; keep interpreting -> 0. */
static int ready(struct ttx_jit *j, struct block *b)
{
	if (__atomic_load_n(&b->fn, __ATOMIC_ACQUIRE))
		return 1;
	if (__atomic_load_n(&b->failed, __ATOMIC_ACQUIRE))
		return 0;
	if (__atomic_load_n(&b->queued, __ATOMIC_RELAXED)) {
		/* queued by a tile of --engine auto sharing the cache: a tile of
		   --engine jit does not wait for the compile thread (compile()
		   does a block once, whoever comes first) */
		if (j->async)
			return 0;
	} else if (__atomic_add_fetch(&b->seen, 1, __ATOMIC_RELAXED) < j->threshold) {
		return 0;
	} else if (j->async) {
		if (enqueue(j->c, b))
			return 0;
		j->async = 0;   /* no thread: compile here from now on */
	}
	compile(j->c, b);
	return __atomic_load_n(&b->fn, __ATOMIC_ACQUIRE) != NULL;
}

void ttx_jit_wait(struct ttx_tile *t)
{
	struct ttx_jit_cache *c = t->jit ? t->jit->c : NULL;
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	while (c->started && (c->busy || c->qhead != c->qtail))
		pthread_cond_wait(&c->idle, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

/* The statistics of the first n words a block that stopped early ran. */
struct counted {
	struct ttx_tile *t;
	unsigned thread;
	size_t n;
};

static void count_word(void *ctx, uint32_t word)
{
	struct counted *c = ctx;
	if (!c->n)
		return;
	c->n--;
	c->t->op_counts[word >> 24]++;
	c->t->stats.insns_jit++;
	c->t->stats.insns_jit_fallback += !ttx_jit_is_native(word);
	if (c->t->timing.on)
		ttx_timing_insn(c->t, c->thread, word);
}

/* Run a compiled block.  Returns the instructions it retired, or -status
   after a fault.  *st says where it stopped: how many of a straight or
   replay block's words the front end has consumed (all of them, unless it
   stopped early), and whether it stopped early: STOP_SLOT when the word it
   stopped at stays in the front end's slot (a fault or a stall, as the
   interpreter leaves them), STOP_YIELD when that word ran and another
   thread may act now.  A MOP block that stops early to wait or yield
   leaves the rest of its expansion to the interpreter (ttx_mop_resume). */
enum { STOP_NONE, STOP_YIELD, STOP_SLOT };

struct stop {
	size_t used;
	int kind;
	uint32_t word;   /* STOP_SLOT: the word for the slot */
};

static long run_block(struct ttx_tile *t, struct block *b, unsigned thread, struct stop *st, uint64_t *untimed)
{
	uint32_t r = b->fn(t, thread);
	*st = (struct stop){ b->nkey, STOP_NONE, 0 };
	if (r) {
		if (untimed && t->timing.on)   /* the runs before this one, first */
			ttx_timing_block_run(t, thread, &b->timing, *untimed);
		/* the words before the stop ran: their statistics, as the
		   interpreter keeps them.  A MOP block's words come from its
		   expansion (ttx_mop_resume) when it stopped to wait or yield;
		   after a fault its loops report their first instruction, not
		   the place in the expansion, so its counts stop at the MOP
		   (docs/jit.md). */
		unsigned code = r & 0xFF;
		int early = code == TTX_JIT_STALL || code == TTX_JIT_YIELD;
		size_t at = (r >> 8) - 1, ran = code == TTX_JIT_YIELD ? at + 1 : at;
		struct counted c = { t, thread, ran };
		st->used = at + 1, st->kind = code == TTX_JIT_YIELD ? STOP_YIELD : STOP_SLOT;
		if (!b->is_mop) {
			st->word = b->key[at];
			for (size_t i = 0; i < ran; i++)
				count_word(&c, b->key[i]);
		} else if (early) {
			st->word = ttx_mop_resume(&t->fe[thread], b->key + 1, b->key[0], at + 1, count_word, &c);
		}
		if (early)
			return (long)ran;
		if (!b->is_mop) {
			t->stats.insns += ran;
			t->stats.insns_by_thread[thread] += ran;
		}
		return -(long)code;
	}
	for (size_t i = 0; i < b->nops; i++)
		t->op_counts[b->ops[i].op] += b->ops[i].n;
	if (untimed)
		++*untimed;   /* the caller places the runs together */
	else if (t->timing.on)
		ttx_timing_block_run(t, thread, &b->timing, 1);
	t->stats.insns_jit += b->ninsns;
	t->stats.insns_jit_fallback += b->nfallback;
	return (long)b->ninsns;
}

/* Whether every other thread has nothing queued.  Otherwise (they wait:
   ttx_jit_alone) a Matrix Unit, unpacker or packer instruction ends a
   block right after it (ttx_jit_call_unit), so a block that starts with
   one would run that one alone, slower than the interpreter does. */
static int others_idle(const struct ttx_tile *t, unsigned thread)
{
	for (unsigned o = 0; o < TTX_THREADS; o++)
		if (o != thread && ttx_frontend_busy(t, o))
			return 0;
	return 1;
}

/* Whether b may run now: within the budget, not holding Matrix Unit,
   unpacker or packer instructions under the cycle model (its block
   summary places SFPU work only), not starting with one while another
   thread waits, and compiled (or compiled now). */
static int runnable(const struct ttx_tile *t, struct ttx_jit *j, struct block *b, unsigned thread, uint64_t budget)
{
	return !(budget && b->ninsns > budget) && !(b->has_units && t->timing.on) &&
	       !(b->unit_first && !others_idle(t, thread)) && ready(j, b);
}

/* ---- the three kinds of block ---- */

static uint32_t pipe_word(const struct ttx_pipe *p, size_t i)
{
	return p->words[(p->head + i) & (p->cap - 1)];
}

/* The straight block that words[0..n) starts with, n being what is
   available; created (from the longest takeable run) when there is none. */
static struct block *find_straight(struct ttx_jit *j, uint32_t row_masked, const struct ttx_pipe *p,
                                   const uint32_t *words, size_t n)
{
	uint32_t first = words ? words[0] : pipe_word(p, 0);
	uint64_t h = hash_key(0, j->fast_numerics, row_masked, first);
	struct block *b;
	for (size_t k = h; (b = slot(j->c, k)); k++) {
		if (!same_block(b, h, 0, j->fast_numerics, row_masked) || b->nkey > n)
			continue;
		size_t i = 0, start = p ? p->head & (p->cap - 1) : 0;
		if (words) {
			i = memcmp(b->key, words, b->nkey * sizeof(*words)) ? 0 : b->nkey;
		} else if (start + b->nkey <= p->cap) {   /* the usual case: no wrap in the ring */
			i = memcmp(b->key, p->words + start, b->nkey * sizeof(*words)) ? 0 : b->nkey;
		} else {
			while (i < b->nkey && b->key[i] == pipe_word(p, i))
				i++;
		}
		if (i == b->nkey)
			return b;
	}
	size_t len = 0;
	while (len < n && len < MAX_BLOCK) {
		uint32_t w = words ? words[len] : pipe_word(p, len);
		if (!ttx_jit_can_take(w))
			break;
		j->words[len++] = w;
		/* A straight run also ends after an SFPSTORE (the last of a run of
		   them): the passes of a kernel's loop (load, compute, store) then
		   start blocks, and a loop whose passes are the same words is the
		   same few blocks, however its length divides MAX_BLOCK. */
		if (!words && w >> 24 == TTX_OP_SFPSTORE && !(len < n && pipe_word(p, len) >> 24 == TTX_OP_SFPSTORE))
			break;
	}
	if (len == 0)
		return NULL;
	b = new_block(0, j->fast_numerics, row_masked, j->words, len);
	if (!b)
		return NULL;
	for (size_t i = 0; i < len; i++)
		count_op(b, b->key[i], ttx_jit_is_native(b->key[i]));
	return insert(j->c, b);
}

static long step_straight(struct ttx_tile *t, struct ttx_jit *j, unsigned thread, uint32_t row_masked,
                          uint64_t budget)
{
	struct ttx_pipe *p = &t->pipe[thread];
	size_t avail = p->tail - p->head;
	struct block *b = find_straight(j, row_masked, p, NULL, avail);
	if (!b)
		return 0;
	if (!runnable(t, j, b, thread, budget)) {
		t->jit_skip[thread] = (uint32_t)b->nkey - 1;   /* this look was the first */
		return 0;
	}
	struct stop st;
	long n = run_block(t, b, thread, &st, NULL);
	p->head += st.used;
	if (st.kind == STOP_SLOT) {
		t->fe[thread].has_slot = 1;
		t->fe[thread].slot = st.word;
	}
	return n;
}

/* A playback of `left` words from replay_index ran as far as st says
   (run_block): the replay expander's state after it, with the last word
   in the slot if it faulted or waits, as the interpreter leaves it. */
static void end_playback(struct ttx_frontend *fe, unsigned left, const struct stop *st)
{
	fe->replay_index = (uint8_t)((fe->replay_index + st->used) % TTX_REPLAY_SIZE);
	fe->replay_left = (uint8_t)(left - st->used);
	fe->replay_mode = fe->replay_left ? 2 : 0;
	if (st->kind == STOP_SLOT) {
		fe->has_slot = 1;
		fe->slot = st->word;
	}
}

static long step_replay(struct ttx_tile *t, struct ttx_jit *j, unsigned thread, uint32_t row_masked,
                        uint64_t budget)
{
	struct ttx_frontend *fe = &t->fe[thread];
	unsigned left = fe->replay_left;
	uint32_t words[64];   /* the playback (up to 64), unwrapped */
	for (unsigned n = 0, at = fe->replay_index % TTX_REPLAY_SIZE, k; n < left; n += k, at = 0) {
		k = TTX_REPLAY_SIZE - at < left - n ? TTX_REPLAY_SIZE - at : left - n;
		memcpy(words + n, fe->replay + at, k * sizeof(*words));
	}
	struct block *b = j->last_replay[thread];
	if (!b || b->nkey != left || b->row_masked != row_masked || memcmp(b->key, words, left * sizeof(*words))) {
		b = NULL;
		for (unsigned i = 0; i < left; i++)
			if (!ttx_jit_can_take(words[i])) {
				t->jit_skip[thread] = left - 1;
				return 0;
			}
		if (left <= MAX_BLOCK)
			b = find_straight(j, row_masked, NULL, words, left);
		if (b && b->nkey == left)
			j->last_replay[thread] = b;
	}
	if (!b || b->nkey != left || !runnable(t, j, b, thread, budget)) {
		t->jit_skip[thread] = left - 1;
		return 0;
	}
	struct stop st;
	long n = run_block(t, b, thread, &st, NULL);
	end_playback(fe, left, &st);
	return n;
}

/* After a playback the JIT ran (n instructions): the same REPLAY word
   next in the pipe plays the same block, so a stream of them runs here
   in a loop, without a look-up or a return to the scheduler each, while
   nothing the scheduler would act on between two of them appears (a
   wait gate, an SFPLOADMACRO schedule, another row mask) and the budget
   holds.  Returns all the instructions run, or -status after a fault
   (the playbacks before it counted in the statistics here). */
static long chain_replays(struct ttx_tile *t, struct ttx_jit *j, unsigned thread, uint32_t w, long n,
                          uint64_t budget)
{
	struct ttx_frontend *fe = &t->fe[thread];
	struct ttx_pipe *p = &t->pipe[thread];
	struct block *b = j->last_replay[thread];
	struct ttx_args_REPLAY a = ttx_decode_REPLAY(w);
	unsigned count = a.Count ? a.Count : 64;
	long total = n;
	uint64_t runs = 0;   /* placed by the cycle model at the end, in one step */
	/* (a playback that stopped early, to wait or to let another thread
	   act, leaves a word in the slot or the rest of the playback to come) */
	while (b && b->nkey == count && !fe->has_slot && !fe->replay_mode && p->head != p->tail &&
	       pipe_word(p, 0) == w && ttx_jit_alone(t, thread) &&
	       b->row_masked == ttx_sfpu_row_masked(&t->sfpu) && (!budget || (uint64_t)total + b->ninsns <= budget)) {
		p->head++;
		t->op_counts[TTX_OP_REPLAY]++;
		struct stop st;
		long m = run_block(t, b, thread, &st, &runs);
		fe->replay_index = (uint8_t)a.Index;
		end_playback(fe, count, &st);
		if (m < 0) {
			t->stats.insns += (uint64_t)total;
			t->stats.insns_by_thread[thread] += (uint64_t)total;
			return m;
		}
		total += m;
	}
	if (t->timing.on && b)
		ttx_timing_block_run(t, thread, &b->timing, runs);
	return total;
}

struct mop_scan {
	struct block *b;
	int takeable;
};

static void scan_mop_word(void *ctx, uint32_t word)
{
	struct mop_scan *s = ctx;
	if (!ttx_jit_can_take(word))
		s->takeable = 0;
	count_op(s->b, word, ttx_jit_is_native(word));
}

static long step_mop(struct ttx_tile *t, struct ttx_jit *j, unsigned thread, uint32_t row_masked,
                     uint64_t budget)
{
	struct ttx_pipe *p = &t->pipe[thread];
	uint32_t key[MOP_KEY];
	key[0] = pipe_word(p, 0);
	memcpy(key + 1, t->mop[thread].cfg, 9 * sizeof(uint32_t));
	key[10] = t->fe[thread].mask_hi;
	uint64_t h = hash_key(1, j->fast_numerics, row_masked, key[0]);
	struct block *b = NULL, *x;
	for (size_t k = h; (x = slot(j->c, k)); k++) {
		if (same_block(x, h, 1, j->fast_numerics, row_masked) && !memcmp(x->key, key, sizeof(key))) {
			b = x;
			break;
		}
	}
	if (!b) {
		b = new_block(1, j->fast_numerics, row_masked, key, MOP_KEY);
		if (!b)
			return 0;
		struct mop_scan s = { b, 1 };
		ttx_mop_expand(t->mop[thread].cfg, key[0], (uint16_t)key[10], scan_mop_word, &s);
		b->failed = !s.takeable || b->ninsns == 0;
		b = insert(j->c, b);
		if (!b)
			return 0;
	}
	if (!runnable(t, j, b, thread, budget))
		return 0;   /* the interpreter expands it */
	struct stop st;
	t->timing.mop_ended[thread] = 0;   /* as src/frontend.c does */
	long n = run_block(t, b, thread, &st, NULL);
	p->head++;
	t->op_counts[TTX_OP_MOP]++;
	if (st.kind == STOP_SLOT && n >= 0) {   /* waits: the rest of the MOP is the interpreter's */
		t->fe[thread].has_slot = 1;
		t->fe[thread].slot = st.word;
	}
	if (st.kind == STOP_NONE || n < 0)
		t->timing.mop_ended[thread] = t->timing.on;
	return n;
}

/* REPLAY Load without Exec (TC/REPLAY.md) as src/frontend.c records it,
   when the words to record are in the pipe and none of them is for the
   MOP or replay expanders; so that a playback right after it reaches the
   JIT too.  Returns 1 when it recorded. */
static int record(struct ttx_tile *t, unsigned thread, uint32_t w)
{
	struct ttx_frontend *fe = &t->fe[thread];
	struct ttx_pipe *p = &t->pipe[thread];
	struct ttx_args_REPLAY a = ttx_decode_REPLAY(w);
	unsigned count = a.Count ? a.Count : 64;
	if (!a.Load || a.Exec || p->tail - p->head < 1 + (size_t)count)
		return 0;
	for (unsigned i = 1; i <= count; i++) {
		unsigned op = pipe_word(p, i) >> 24;
		if (op == TTX_OP_MOP || op == TTX_OP_MOP_CFG || op == TTX_OP_REPLAY)
			return 0;
	}
	for (unsigned i = 0; i < count; i++)
		fe->replay[(a.Index + i) % TTX_REPLAY_SIZE] = pipe_word(p, 1 + i);
	fe->replay_index = (uint8_t)((a.Index + count) % TTX_REPLAY_SIZE);
	fe->replay_exec = 0;
	t->op_counts[TTX_OP_REPLAY]++;
	ttx_timing_frontend(t, thread, count);
	p->head += 1 + count;
	return 1;
}

/* Whether the JIT might take what thread's front end has next (a quick
   look, asked before the costlier ttx_jit_alone). */
static int jit_wants(const struct ttx_tile *t, unsigned thread)
{
	const struct ttx_pipe *p = &t->pipe[thread];
	if (p->b_head != p->b_tail)
		return 0;   /* RISCV B's words go first, through the interpreter */
	if (t->fe[thread].replay_mode == 2)
		return 1;
	if (p->head == p->tail)
		return 0;
	uint32_t w = pipe_word(p, 0);
	unsigned op = w >> 24;
	if (op == TTX_OP_MOP || op == TTX_OP_MOP_CFG || op == TTX_OP_REPLAY)
		return 1;
	return ttx_jit_can_take(w) && !(ttx_jit_is_unit_word(w) && !others_idle(t, thread));
}

/* Run, as one compiled block, what thread's front end would hand the
   interpreter next, if it is a block worth running natively and no more
   than budget instructions (0 = no bound).  Returns the number of
   instructions retired (0 = nothing ran: interpret), or -status after a
   fault inside the block.  The caller has checked that the other threads
   are idle and nothing else (wait gates, SFPLOADMACRO schedules) is active
   (ttx_jit_alone). */
static long jit_step(struct ttx_tile *t, unsigned thread, uint64_t budget)
{
	if (!t->jit) {
		t->jit = jit_new(t);
		if (!t->jit) {
			t->jit_on = 0;
			return 0;
		}
	}
	struct ttx_jit *j = t->jit;
	struct ttx_frontend *fe = &t->fe[thread];
	struct ttx_pipe *p = &t->pipe[thread];
	struct ttx_jit_cache *c = j->c;
	if (__atomic_load_n(&c->has_failure, __ATOMIC_ACQUIRE)) {   /* reported by the first tile to see it */
		char msg[sizeof(c->failure)];
		pthread_mutex_lock(&c->lock);
		snprintf(msg, sizeof(msg), "%s", c->failure);
		c->has_failure = 0;
		pthread_mutex_unlock(&c->lock);
		ttx_warn(t, "JIT: %s; interpreting that block", msg);
	}
	if (fe->replay_mode == 2)
		return step_replay(t, j, thread, ttx_sfpu_row_masked(&t->sfpu), budget);
	if (fe->mop_active || fe->replay_mode)
		return 0;
	uint32_t w;
	for (;;) {
		if (p->head == p->tail)
			return 0;
		w = pipe_word(p, 0);
		if (w >> 24 == TTX_OP_MOP_CFG) {
			/* What the MOP expander does with it (src/frontend.c), so
			   that the MOP after it can be taken here. */
			fe->mask_hi = (uint16_t)ttx_decode_MOP_CFG(w).MaskHi;
			t->op_counts[TTX_OP_MOP_CFG]++;
			ttx_timing_frontend(t, thread, 1);
			p->head++;
			continue;
		}
		if (w >> 24 == TTX_OP_REPLAY && record(t, thread, w))
			continue;
		break;
	}
	unsigned op = w >> 24;
	if (op != TTX_OP_MOP && op != TTX_OP_REPLAY &&
	    (!ttx_jit_can_take(w) || (ttx_jit_is_unit_word(w) && !others_idle(t, thread))))
		return 0;   /* the common exit for other units' instructions (runnable()) */
	uint32_t row_masked = ttx_sfpu_row_masked(&t->sfpu);
	if (op == TTX_OP_MOP)
		return step_mop(t, j, thread, row_masked, budget);
	if (op == TTX_OP_REPLAY) {
		/* A playback starts as in src/frontend.c; the block is all of it. */
		if (ttx_decode_REPLAY(w).Load)
			return 0;
		ttx_replay_start(fe, w);
		t->op_counts[TTX_OP_REPLAY]++;
		p->head++;
		long n = step_replay(t, j, thread, row_masked, budget);
		return n > 0 ? chain_replays(t, j, thread, w, n, budget) : n;
	}
	return step_straight(t, j, thread, row_masked, budget);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The cache's compile statistics: with a shared cache, those of every
   tile using it. */
static void jit_stats(const struct ttx_tile *t, struct ttx_stats *out)
{
	if (!t->jit)
		return;
	struct ttx_jit_cache *c = t->jit->c;
	pthread_mutex_lock(&c->lock);
	size_t n = c->ncompiled;
	double *v = n ? malloc(n * sizeof(*v)) : NULL;
	out->jit_blocks_compiled = n;
	out->jit_compile_seconds = 0;
	for (size_t i = 0; i < n; i++)
		out->jit_compile_seconds += c->compile_times[i];
	if (v)
		memcpy(v, c->compile_times, n * sizeof(*v));
	pthread_mutex_unlock(&c->lock);
	if (v) {
		qsort(v, n, sizeof(*v), cmp_double);
		out->jit_compile_median_seconds = v[n / 2];
		free(v);
	}
}

void ttx_jit_attach(struct ttx_tile *t)
{
	ttx_jit_cache_ref(t->opt.jit_cache);   /* dropped by jit_free */
	t->entry.jit_free = jit_free;
	/* Hazard warnings (strict) and per-instruction tracing need the
	   interpreter's instruction-by-instruction view. */
	if (t->opt.engine == TTX_ENGINE_INTERP || t->opt.strict || t->opt.trace)
		return;
	t->entry.jit_step = jit_step;
	t->entry.jit_wants = jit_wants;
	t->entry.jit_stats = jit_stats;
	t->jit_on = 1;
}
