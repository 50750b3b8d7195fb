/* The JIT's ORC set-up (jit/orc.c) for emitters besides the Tensix
 * blocks' (the Tensil TCU's programs, tensil/tcu_jit.c): a module built by
 * a callback, optimised and compiled for the host, its function's address.
 * Only for code built with LLVM's flags. */
#ifndef TTX_ORC_H
#define TTX_ORC_H

#include <stddef.h>

#include <llvm-c/Core.h>

struct ttx_orc;
struct ttx_orc *ttx_orc_new(char *err, size_t errlen);
void ttx_orc_free(struct ttx_orc *o);
/* build fills mod with one function called `name`. */
typedef void (*ttx_orc_build_fn)(void *arg, LLVMContextRef ctx, LLVMModuleRef mod, const char *name);
void *ttx_orc_compile_with(struct ttx_orc *o, ttx_orc_build_fn build, void *arg, char *err, size_t errlen);

#endif
