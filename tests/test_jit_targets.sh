#!/bin/sh
# The JIT generating code for the x86 hosts this one stands in for
# (TTX_JIT_CPU, docs/portability.md), checked against the interpreter so
# that an AVX-512 machine proves those targets bit-identical too: for AVX2
# (x86-64-v3) the differential fuzzer (test_jit) and both vector sets, for
# SSE2 only (x86-64, whose code LLVM takes 3x longer to make) a shorter
# fuzzer run.  AArch64's target runs under `make check-aarch64`.
set -u
case ${TTX_HOST_CPU:-$(uname -m)} in   # (the build's host: a cross build's tests run under qemu)
x86_64) ;;
*) echo "not built for x86-64: skipped"; exit 77 ;;
esac
fail=0
fuzz() {
	TTX_JIT_CPU=$1 TTX_JIT_FUZZ_PROGRAMS=$2 CK_RUN_CASE=differential "$TTX_BUILDDIR/tests/test_jit" ||
		{ echo "FAIL: the JIT's differential fuzzer for $1"; fail=1; }
}
fuzz x86-64-v3 300
TTX_JIT_CPU=x86-64-v3 "$TTX_BUILDDIR/tests/run_vectors" "$TTX_SRCDIR/tests/vectors/sfpu" --engine jit || fail=1
TTX_JIT_CPU=x86-64-v3 "$TTX_BUILDDIR/tests/run_vectors" "$TTX_SRCDIR/tests/vectors/fpu" --engine jit -c || fail=1
fuzz x86-64 100
exit $fail
