# A first ttx program: three threads, host-side MMIO, a semaphore hand-off.
#
#   ./ttx run examples/first.s --stats --trace -
#
# Thread 0 runs a few NOPs.  The .mmio directive below is a store by RISC-V T0
# into the tile's address space: here into GPR 5 of thread 0 (REGFILE_BASE
# 0xFFE00000 + 4 * 5).  It takes effect once every instruction above it has
# executed or is waiting (docs/assembly.md).

.thread 0
NOP
TTI_NOP;
TT_OP_NOP()

.mmio 0xFFE00014, 0x12345678   # GPR 5 of thread 0

.thread 1
NOP
NOP

.thread 2
.word 0x02000000               # NOP as a raw word
