#!/bin/sh
# Every reference vector case (tests/vectors/, copied unchanged from the
# project's shared reference data; see tests/vectors/README.md) must match
# bit for bit on the rows its MANIFEST lists.
#   sfpu/: the Vector Unit, all cases;  fpu/: the Matrix Unit, all cases
#   (numerics: docs/matrix.md).  Both by the interpreter and by the JIT
#   (every block compiled; skipped by a --disable-jit build).
set -u
dir=${TTX_VECTORS:-$(dirname "$0")/vectors}
runner=${RUN_VECTORS:-$(dirname "$0")/run_vectors}
status=0
for engine in interp jit; do
	"$runner" "$dir/sfpu" --engine "$engine" || status=1
	"$runner" "$dir/fpu" --engine "$engine" -c || status=1
done
exit $status
