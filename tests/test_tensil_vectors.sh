#!/bin/sh
# The 40 Tensil reference cases (tests/vectors/tensil, from Tensil's own
# emulator) under every engine this build has.
B=${TTX_BUILDDIR:-.}
S=${TTX_SRCDIR:-.}
engines="interp auto"
"${TTX:-./ttx}" run /dev/null --engine jit >/dev/null 2>&1 && engines="$engines jit"
exec "$B/tests/test_tensil_vectors" "$S/tests/vectors/tensil" $engines
