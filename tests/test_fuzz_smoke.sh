#!/bin/sh
# The libFuzzer targets (assembler, decoder + interpreter, .npy reader, the
# command line's argument handling, jobs files, the RISC-V ELF loader, the
# Tensil TCU's architecture reader, assembler and decoder) on
# their seeds, every prefix and 300 mutations of each (tests/fuzz/replay.c),
# built with the ordinary compiler: a smoke test; `make fuzz` and `make
# check-long` fuzz for real with clang.
set -u
for t in asm decode npy cli jobs elf tensil; do
	"$TTX_BUILDDIR/tests/fuzz_smoke_$t" "$TTX_SRCDIR/tests/fuzz/seeds_$t"/* || { echo "FAIL: fuzz_$t"; exit 1; }
done
