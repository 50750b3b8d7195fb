/* A tile as the library hands it out: the core's state (src/tile.c) with
 * its engine filled in by the interpreter's units and, when built and
 * wanted, the JIT (docs/architecture.md).  It lives on the JIT's floor, the
 * highest that a tile's execution needs, so that neither src/ nor interp/
 * names a floor above its own. */
#include <stdio.h>

#include "tile.h"
#include "units.h"
#include "jit.h"

enum ttx_status ttx_tile_create(const struct ttx_options *opt, struct ttx_tile **out, char *err, size_t errlen)
{
	enum ttx_status st = ttx_tile_alloc(opt, out, err, errlen);
	if (st != TTX_OK)
		return st;
	struct ttx_tile *t = *out;
	const char *why = NULL;
	if (t->opt.engine == TTX_ENGINE_JIT && !ttx_jit_available())
		st = TTX_EINVAL, why = "TTX_ENGINE_JIT: this libttx has no JIT compiler (built with --disable-jit)";
	else if (ttx_interp_attach(t) != TTX_OK)
		st = TTX_ENOMEM, why = "out of memory for a tile's units";
	if (why) {
		ttx_tile_destroy(t);
		*out = NULL;
		if (err && errlen)
			snprintf(err, errlen, "%s", why);
		return st;
	}
	ttx_jit_attach(t);
	return TTX_OK;
}

struct ttx_tile *ttx_tile_new(const struct ttx_options *opt)
{
	struct ttx_tile *t;
	return ttx_tile_create(opt, &t, NULL, 0) == TTX_OK ? t : NULL;
}
