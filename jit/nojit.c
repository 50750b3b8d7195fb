/* A build without LLVM (--disable-jit): no JIT, the interpreter runs
 * everything; --engine jit is refused by the CLI, --engine auto interprets. */
#include "tile.h"
#include "jit.h"

int ttx_jit_available(void)
{
	return 0;
}

long ttx_jit_step(struct ttx_tile *t, unsigned thread, uint64_t budget)
{
	(void)thread, (void)budget;
	t->jit_on = 0;
	return 0;
}

int ttx_jit_wants(const struct ttx_tile *t, unsigned thread)
{
	(void)t, (void)thread;
	return 0;
}

void ttx_jit_free(struct ttx_jit *j)
{
	(void)j;
}

void ttx_jit_stats(const struct ttx_tile *t, struct ttx_stats *out)
{
	(void)t, (void)out;
}

void ttx_jit_wait(struct ttx_tile *t)
{
	(void)t;
}

struct ttx_jit_cache *ttx_jit_cache_new(void)
{
	return NULL;
}

void ttx_jit_cache_ref(struct ttx_jit_cache *c)
{
	(void)c;
}

void ttx_jit_cache_release(struct ttx_jit_cache *c)
{
	(void)c;
}
