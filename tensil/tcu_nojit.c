/* A build without LLVM (--disable-jit): TCU programs are interpreted;
 * --engine jit is refused. */
#include "tcu.h"

void tcu_jit_free(struct ttx_tcu *t)
{
	(void)t;
}

int tcu_jit_run(struct ttx_tcu *t, const uint8_t *prog, size_t len, const struct tcu_program *p, const char *name,
                uint64_t max_insns, enum ttx_status *st)
{
	(void)prog, (void)len, (void)p, (void)max_insns;
	if (t->engine != TTX_ENGINE_JIT)
		return 0;
	*st = tcu_fail(t, TTX_EINVAL, "%s: --engine jit: this build has no JIT compiler (use interp or auto)", name);
	return 1;
}
