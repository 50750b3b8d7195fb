#!/bin/sh
# The libttsim interface library (docs/chip.md) driven as a host drives it
# (tests/test_libttsim.c): the driver checks, the broken contracts, and
# every reference vector case (sfpu, fpu, pack, pack-full; the pack cases' assembler
# text assembled first) through BAR0, under the interpreter and the JIT,
# with one host thread and with two.  Skipped (77) without the RISC-V
# test programs (no riscv64-unknown-elf-gcc at configure).
set -u
B=${TTX_BUILDDIR:-.}
S=${TTX_SRCDIR:-$(dirname "$0")/..}
V=${TTX_VECTORS:-$S/tests/vectors}
TTX=${TTX:-$B/ttx}
lib=$B/.libs/libttsim.so
[ -f "$B/tests/riscv/pusher.trisc0.elf" ] || { echo "no RISC-V programs: skipped"; exit 77; }
[ -f "$lib" ] || { echo "no $lib"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for set in pack pack-full; do
	mkdir "$tmp/$set"
	for s in "$V/$set"/*.s; do
		"$TTX" asm "$s" -o "$tmp/$set/$(basename "$s" .s).bin" || exit 1
	done
done
engines=interp
"$TTX" run /dev/null --engine jit >/dev/null 2>&1 && engines="interp jit"
status=0
for engine in $engines; do
	for threads in 1 2; do
		echo "TTX_ENGINE=$engine TTX_THREADS=$threads"
		TTX_ENGINE=$engine TTX_THREADS=$threads "$B/tests/test_libttsim" "$lib" "$B/tests/riscv" \
			"$V/sfpu" "$V/fpu" "$V/pack:$tmp/pack" "$V/pack-full:$tmp/pack-full" || status=1
	done
done
exit $status
