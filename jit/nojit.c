/* A build without LLVM (--disable-jit): no JIT, the interpreter runs
 * everything; --engine jit is refused (ttx_tile_create), --engine auto
 * interprets. */
#include "tile.h"
#include "jit.h"

int ttx_jit_available(void)
{
	return 0;
}

void ttx_jit_attach(struct ttx_tile *t)
{
	(void)t;
}

void ttx_jit_wait(struct ttx_tile *t)
{
	(void)t;
}

struct ttx_jit_cache *ttx_jit_cache_new(void)
{
	return NULL;
}

void ttx_jit_cache_release(struct ttx_jit_cache *c)
{
	(void)c;
}
