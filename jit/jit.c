/* JIT entry points.  The LLVM code generator (IR emitters, ORC LLJIT set-up,
 * code cache) is not written yet, so no build has a JIT and --engine jit is
 * refused with a clear message; --engine auto runs the interpreter. */
#include "tile.h"

int ttx_jit_available(void)
{
	return 0;
}
