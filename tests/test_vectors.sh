#!/bin/sh
# Every reference vector case (tests/vectors/, copied unchanged from the
# project's shared reference data; see tests/vectors/README.md) must match
# bit for bit on the rows its MANIFEST lists.
#   sfpu/: the Vector Unit, all cases, by the interpreter and by the JIT
#          (every block compiled; skipped by a --disable-jit build).
#   fpu/:  the Matrix Unit; its numerics are not bit-exact yet
#          (docs/matrix.md), so only the cases that match are run, as a
#          regression check; add ids here as they come to match.
set -u
dir=${TTX_VECTORS:-$(dirname "$0")/vectors}
runner=${RUN_VECTORS:-$(dirname "$0")/run_vectors}
status=0
for engine in interp jit; do
	"$runner" "$dir/sfpu" --engine "$engine" || status=1
	"$runner" "$dir/fpu" --engine "$engine" --id 0003 --id 0009 || status=1
done
exit $status
