#!/bin/sh
# The ttx CLI on good and bad input: messages, exit codes and file formats.
# Tools: sh, od, cmp, wc, printf, grep, head, tail (plus mktemp/rm/cat for the
# scratch directory and failure reports).
set -u
TTX=${TTX:-./ttx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name expected-exit command...
	name=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	if [ "$got" = "$want" ]; then pass=$((pass+1)); else
		fail=$((fail+1)); echo "FAIL: $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
# ok NAME CONDITION...: a test of its own (the condition is a command).
ok() {
	name=$1; shift
	if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $name"; return 1; fi
}
# The stderr / stdout of the last check contains a fixed string.
err_has() { ok "$1: stderr has '$2'" grep -qF -- "$2" "$tmp/err" || { echo "  stderr was:"; cat "$tmp/err"; }; }
out_has() { ok "$1: stdout has '$2'" grep -qF -- "$2" "$tmp/out" || { echo "  stdout was:"; cat "$tmp/out"; }; }
# The stdout / stderr of the last check is exactly the given text (printf format).
out_is() { name=$1; shift; printf "$@" >"$tmp/want"
	ok "$name: stdout" cmp -s "$tmp/want" "$tmp/out" || { echo "  stdout was:"; cat "$tmp/out"; }; }
err_is() { name=$1; shift; printf "$@" >"$tmp/want"
	ok "$name: stderr" cmp -s "$tmp/want" "$tmp/err" || { echo "  stderr was:"; cat "$tmp/err"; }; }
# Bytes of a file as "hh hh ...", optionally from offset $2 for $3 bytes.
hex() { if [ $# -gt 1 ]; then set -- $(od -An -v -tx1 -j "$2" -N "$3" "$1" 2>&1); else set -- $(od -An -v -tx1 "$1" 2>&1); fi; echo "$*"; }
hex_is() { # name file expected [offset count]
	name=$1 file=$2 want=$3; shift 3
	got=$(hex "$file" "$@")
	ok "$name: bytes" [ "$got" = "$want" ] || echo "  got:      $got
  expected: $want"; }
size_is() { got=$( [ -f "$2" ] && wc -c <"$2" || echo -1); got=$((got+0))
	ok "$1: size $3" [ "$got" = "$3" ] || echo "  size was $got"; }
# "00 00 ..." n times
zeros() { z= i=0; while [ $i -lt "$1" ]; do z="$z${z:+ }00"; i=$((i+1)); done; echo "$z"; }

# ---- general contract --------------------------------------------------------
check "--help" 0 "$TTX" --help
out_has "--help" "usage: ttx asm IN.s -o OUT.bin"
out_has "--help" "--l1-out ADDR:LEN:F"
check "-h" 0 "$TTX" -h
out_has "-h" "ttx run PROGRAM [options]"
check "--version" 0 "$TTX" --version
ok "--version prints 'ttx X.Y.Z (engines)'" grep -qE '^ttx [0-9]+\.[0-9]+\.[0-9]+ \((LLVM JIT|interpreter only)\)$' "$tmp/out"
lines=$(wc -l <"$tmp/out")
ok "--version is one line" [ "$((lines+0))" = 1 ]
check "no command" 2 "$TTX"
err_has "no command" "missing command (asm, disasm, run, op, batch or demo)"
err_has "no command" "Try 'ttx --help'."
check "unknown command" 2 "$TTX" frobnicate
err_has "unknown command" "unknown command 'frobnicate'"

# ---- ttx asm -------------------------------------------------------------------
# SFPMAD 1,2,3,4,0 = 0x84012340; SFPLOADI 1,2,0x1234 = 0x71121234 (1<<20|2<<16|0x1234);
# NOP = 0x02000000; SEMPOST 10 = 0xA4000028 (10<<2); SETDMAREG 1,0x10,1,12 =
# 0x4540108C (1<<22|0x10<<8|1<<7|12); .word 0x02000001 (NOP with a reserved bit).
printf '%s\n' '# a program' 'SFPMAD 1, 2, 3, 4, 0' 'TTI_SFPLOADI(1, 2, 0x1234);  // macro form' \
	'nop' 'SEMPOST 10' 'SETDMAREG 1, 0x10, 1, 12' '.word 0x02000001' >"$tmp/prog.s"
check "asm" 0 "$TTX" asm "$tmp/prog.s" -o "$tmp/prog.bin"
out_is "asm" ''
err_is "asm" ''
size_is "asm output" "$tmp/prog.bin" 24
hex_is "asm output" "$tmp/prog.bin" \
	"40 23 01 84 34 12 12 71 00 00 00 02 28 00 00 a4 8c 10 40 45 01 00 00 02"
check "asm -o first" 0 "$TTX" asm -o "$tmp/prog2.bin" "$tmp/prog.s"
ok "asm -o first: same bytes" cmp -s "$tmp/prog.bin" "$tmp/prog2.bin"
check "disasm" 0 "$TTX" disasm "$tmp/prog.bin"
out_is "disasm" '%s\n' 'SFPMAD 1, 2, 3, 4, 0' 'SFPLOADI 1, 2, 0x1234' 'NOP' 'SEMPOST 0xA' \
	'SETDMAREG 1, 0x10, 1, 0xC  # SETDMAREG_Special' \
	'.word 0x02000001  # NOP with bits 0x000001 outside its operands'
err_is "disasm" '%s\n' \
	"$tmp/prog.bin: warning: word 5 (0x02000001) is not a known instruction encoding"
"$TTX" disasm "$tmp/prog.bin" >"$tmp/dis.s" 2>/dev/null
check "reassemble disasm output" 0 "$TTX" asm "$tmp/dis.s" -o "$tmp/re.bin"
ok "reassembled .bin is identical" cmp -s "$tmp/prog.bin" "$tmp/re.bin"
# an empty program makes an empty .bin
printf '# nothing\n' >"$tmp/empty.s"
check "asm empty" 0 "$TTX" asm "$tmp/empty.s" -o "$tmp/empty.bin"
size_is "asm empty" "$tmp/empty.bin" 0
check "disasm empty" 0 "$TTX" disasm "$tmp/empty.bin"
out_is "disasm empty" ''

printf 'NOP\n.mmio 0xFFE80020, 0\n' >"$tmp/mmio.s"
check "asm .mmio" 2 "$TTX" asm "$tmp/mmio.s" -o "$tmp/mmio.bin"
err_has "asm .mmio" "$tmp/mmio.s:2: .mmio cannot be stored in a .bin file"
ok "asm .mmio writes no file" [ ! -e "$tmp/mmio.bin" ]
printf 'NOP\n.thread 1\nNOP\n' >"$tmp/thr.s"
check "asm .thread 1" 2 "$TTX" asm "$tmp/thr.s" -o "$tmp/thr.bin"
err_has "asm .thread 1" "$tmp/thr.s:3: an instruction for another thread cannot be stored in a .bin file"

printf 'NOP\n  FROB 1\n' >"$tmp/bad.s"
check "asm unknown mnemonic" 2 "$TTX" asm "$tmp/bad.s" -o "$tmp/bad.bin"
err_is "asm unknown mnemonic" '%s\n' "$tmp/bad.s:2:3: unknown mnemonic 'FROB'"
ok "asm error writes no file" [ ! -e "$tmp/bad.bin" ]
printf 'SFPMAD 1, 2, 3, 4, 16\n' >"$tmp/range.s"
check "asm field out of range" 2 "$TTX" asm "$tmp/range.s" -o "$tmp/range.bin"
err_is "asm field out of range" '%s\n' \
	"$tmp/range.s:1:20: SFPMAD operand instr_mod1 = 16 out of range (4 bits: 0..15)"
check "asm missing input" 2 "$TTX" asm "$tmp/nonexistent.s" -o "$tmp/x.bin"
err_has "asm missing input" "ttx: $tmp/nonexistent.s: "
check "asm without -o" 2 "$TTX" asm "$tmp/prog.s"
err_has "asm without -o" "usage: ttx asm IN.s -o OUT.bin"
check "asm -o without a name" 2 "$TTX" asm "$tmp/prog.s" -o
check "asm two inputs" 2 "$TTX" asm "$tmp/prog.s" "$tmp/prog.s" -o "$tmp/x.bin"
check "asm unknown option" 2 "$TTX" asm -x "$tmp/prog.s" -o "$tmp/x.bin"

# ---- ttx disasm ---------------------------------------------------------------
printf '\100\043\001\204\000\000\000' >"$tmp/trunc.bin"
check "disasm truncated" 2 "$TTX" disasm "$tmp/trunc.bin"
err_is "disasm truncated" '%s\n' \
	"ttx: $tmp/trunc.bin: size 7 is not a multiple of 4 (truncated instruction word)"
out_is "disasm truncated" ''
printf '\000\000\000\000\000\000\000\002' >"$tmp/unk.bin"
check "disasm unknown opcode" 0 "$TTX" disasm "$tmp/unk.bin"
out_is "disasm unknown opcode" '%s\n' '.word 0x00000000  # unknown opcode 0x00' 'NOP'
err_is "disasm unknown opcode" '%s\n' \
	"$tmp/unk.bin: warning: word 0 (0x00000000) is not a known instruction encoding"
check "disasm missing file" 2 "$TTX" disasm "$tmp/nonexistent.bin"
check "disasm no file" 2 "$TTX" disasm
check "disasm two files" 2 "$TTX" disasm "$tmp/unk.bin" "$tmp/unk.bin"

# ---- ttx run: outcomes ----------------------------------------------------------
printf 'NOP\nNOP\n' > "$tmp/ok.s"
check "nop program runs" 0 "$TTX" run "$tmp/ok.s"
out_is "nop program runs" ''
err_is "nop program runs" ''
# PACR on the reset configuration: IntermediateFormat FP32 from 16-bit Dst
# is not a conversion the packers have: a fault naming the instruction.
printf 'PACR 0, 0, 0, 0, 0, 0, 0\n' >"$tmp/pacr.s"
check "run PACR unconfigured" 1 "$TTX" run "$tmp/pacr.s"
err_has "run PACR unconfigured" "PACR (0x41000000) at thread 0: the early format conversion"
printf '.word 0x4B000000\n' >"$tmp/tbuf.s"
check "run TBUFCMD" 1 "$TTX" run "$tmp/tbuf.s"
err_has "run TBUFCMD" "undocumented instruction TBUFCMD (0x4B000000) at thread 0"
printf '.word 0x14000000\n' >"$tmp/trnsp.s"
check "run TRNSPSRCA" 1 "$TTX" run "$tmp/trnsp.s"
err_has "run TRNSPSRCA" "undocumented instruction TRNSPSRCA (0x14000000)"
printf 'NOP\n.word 0\n' >"$tmp/illegal.s"
check "run opcode 0x00" 1 "$TTX" run "$tmp/illegal.s"
err_is "run opcode 0x00" '%s\n' "ttx: $tmp/illegal.s: illegal opcode 0x00 (0x00000000) at thread 0"
check "run missing program" 2 "$TTX" run "$tmp/nonexistent.s"
check "run no program" 2 "$TTX" run
check "run two programs" 2 "$TTX" run "$tmp/ok.s" "$tmp/ok.s"
check "run unknown option" 2 "$TTX" run --bogus "$tmp/ok.s"
check "run assembler error" 2 "$TTX" run "$tmp/bad.s"
err_is "run assembler error" '%s\n' "$tmp/bad.s:2:3: unknown mnemonic 'FROB'"

# ---- ttx run: Dst ------------------------------------------------------------------
# 32 KiB Dst image: 256 distinct bytes whose first word is 0x3F801234, doubled 7 times.
printf '\064\022\200\077' >"$tmp/blk"
i=4; while [ $i -lt 256 ]; do printf "\\$(printf %03o $i)"; i=$((i+1)); done >>"$tmp/blk"
n=0; while [ $n -lt 7 ]; do { tail -c +1 "$tmp/blk"; tail -c +1 "$tmp/blk"; } >"$tmp/blk2"
	{ tail -c +1 "$tmp/blk2"; } >"$tmp/blk"; n=$((n+1)); done
size_is "Dst image" "$tmp/blk" 32768
printf 'x' >"$tmp/dst1"
check "--dst-in wrong size" 2 "$TTX" run --dst-in "$tmp/dst1" "$tmp/ok.s"
err_has "--dst-in wrong size" "size 1, expected 32768 bytes"
check "--dst-in missing file" 2 "$TTX" run --dst-in "$tmp/nonexistent" "$tmp/ok.s"
check "--dst-in/--dst-out" 0 "$TTX" run --dst-in "$tmp/blk" --dst-out "$tmp/dst.out" \
	--dst16-out "$tmp/dst16.out" "$tmp/ok.s"
ok "--dst-out is identical to --dst-in" cmp -s "$tmp/blk" "$tmp/dst.out"
size_is "--dst16-out" "$tmp/dst16.out" 32768
# FP32 0x3F801234 in Dst32b row 0 col 0 is stored {sign, man_hi7, exp8} = 0x007F in
# DstBits[0][0] and man_lo16 = 0x1234 in DstBits[8][0] (byte 8 * 16 * 2 = 256).
hex_is "--dst16-out row 0" "$tmp/dst16.out" "7f 00" 0 2
hex_is "--dst16-out row 8" "$tmp/dst16.out" "34 12" 256 2
check "--dst-out without --dst-in" 0 "$TTX" run --dst-out "$tmp/dst0.out" "$tmp/ok.s"
size_is "--dst-out" "$tmp/dst0.out" 32768
hex_is "--dst-out reset state" "$tmp/dst0.out" "$(zeros 32)" 0 32

# ---- ttx run: LRegs --------------------------------------------------------------
# SFPLOADI 1, 2, 0x1234: LReg 1 = 0x00001234 in every lane (Mod0 2 = USHORT)
printf 'SFPLOADI 1, 2, 0x1234\n' >"$tmp/loadi.s"
check "--lreg-out" 0 "$TTX" run --lreg-out "$tmp/lreg.out" "$tmp/loadi.s"
size_is "--lreg-out" "$tmp/lreg.out" 1024
hex_is "--lreg-out LReg 0" "$tmp/lreg.out" "$(zeros 128)" 0 128
hex_is "--lreg-out LReg 1 lanes 0-1" "$tmp/lreg.out" "34 12 00 00 34 12 00 00" 128 8
hex_is "--lreg-out LReg 1 lane 31" "$tmp/lreg.out" "34 12 00 00" 252 4
hex_is "--lreg-out LReg 2" "$tmp/lreg.out" "$(zeros 128)" 256 128

# ---- ttx run: L1 ---------------------------------------------------------------------
printf '\360\361\362\363\364\365\366\367\370\371\372\373\374\375\376\377' >"$tmp/l1.in"
check "--l1-in/--l1-out" 0 "$TTX" run --l1-in 0x100:"$tmp/l1.in" --l1-out 0x100:16:"$tmp/l1.out" \
	--l1-out 0xFE:4:"$tmp/l1b.out" --l1-out 256:0:"$tmp/l1c.out" "$tmp/ok.s"
ok "--l1-out returns what --l1-in loaded" cmp -s "$tmp/l1.in" "$tmp/l1.out"
hex_is "--l1-out across the start" "$tmp/l1b.out" "00 00 f0 f1"
size_is "--l1-out of 0 bytes" "$tmp/l1c.out" 0
check "--l1-out last bytes of L1" 0 "$TTX" run --l1-out 0x16DFF0:16:"$tmp/l1d.out" "$tmp/ok.s"
hex_is "--l1-out last bytes of L1" "$tmp/l1d.out" "$(zeros 16)"
check "--l1-out beyond L1" 2 "$TTX" run --l1-out 0x16E000:16:"$tmp/l1e.out" "$tmp/ok.s"
err_has "--l1-out beyond L1" "outside L1"
check "--l1-out across the end of L1" 2 "$TTX" run --l1-out 0x16DFF8:16:"$tmp/l1e.out" "$tmp/ok.s"
check "--l1-in across the end of L1" 2 "$TTX" run --l1-in 0x16DFF8:"$tmp/l1.in" "$tmp/ok.s"
err_has "--l1-in across the end of L1" "outside L1"
check "--l1-in missing file" 2 "$TTX" run --l1-in 0:"$tmp/nonexistent" "$tmp/ok.s"
check "--l1-in bad spec" 2 "$TTX" run --l1-in "$tmp/l1.in" "$tmp/ok.s"
err_has "--l1-in bad spec" "expected ADDR:FILE"
check "--l1-out bad spec" 2 "$TTX" run --l1-out 0x100:"$tmp/l1.out" "$tmp/ok.s"
err_has "--l1-out bad spec" "expected ADDR:LEN:FILE"

# ---- ttx run: options -------------------------------------------------------------------
check "--thread 3" 2 "$TTX" run --thread 3 "$tmp/ok.s"
err_has "--thread 3" "--thread '3': threads are 0, 1 and 2"
check "--thread -1" 2 "$TTX" run --thread -1 "$tmp/ok.s"
check "--engine bogus" 2 "$TTX" run --engine bogus "$tmp/ok.s"
err_has "--engine bogus" "--engine 'bogus': expected interp, jit or auto"
check "--engine interp" 0 "$TTX" run --engine interp "$tmp/ok.s"
check "--engine auto" 0 "$TTX" run --engine auto "$tmp/ok.s"
if "$TTX" --version | grep -q "LLVM JIT"; then
	check "--engine jit" 0 "$TTX" run --engine jit --stats "$tmp/ok.s"
	err_has "--engine jit --stats" "of instructions in compiled blocks"
	check "--engine jit --strict" 2 "$TTX" run --engine jit --strict "$tmp/ok.s"
	err_has "--engine jit --strict" "--strict and --trace need the interpreter"
	check "--engine jit --trace" 2 "$TTX" run --engine jit --trace - "$tmp/ok.s"
else
	check "--engine jit (no JIT)" 2 "$TTX" run --engine jit "$tmp/ok.s"
	err_has "--engine jit (no JIT)" "--engine jit: this build has no JIT compiler"
fi
check "--numerics fast" 0 "$TTX" run --numerics fast "$tmp/ok.s"
check "--numerics bogus" 2 "$TTX" run --numerics bogus "$tmp/ok.s"
err_has "--numerics bogus" "--numerics 'bogus': expected exact or fast"
check "--max-insns 0" 2 "$TTX" run --max-insns 0 "$tmp/ok.s"
err_has "--max-insns 0" "--max-insns '0': expected a positive number"
check "--max-insns x" 2 "$TTX" run --max-insns x "$tmp/ok.s"
printf 'NOP\nNOP\nNOP\nNOP\nNOP\n' >"$tmp/nop5.s"
check "--max-insns 2 of 5" 1 "$TTX" run --max-insns 2 "$tmp/nop5.s"
err_is "--max-insns 2 of 5" '%s\n' "ttx: $tmp/nop5.s: stopped after 2 instructions (--max-insns), with work left"
# the budget counts across .mmio stores (the run restarts at each)
printf 'NOP\n.mmio 0xFFE00000, 1\nNOP\nNOP\nNOP\n' >"$tmp/mmio5.s"
check "--max-insns 3 with .mmio" 1 "$TTX" run "$tmp/mmio5.s" --max-insns 3 --stats
err_has "--max-insns 3 with .mmio" "stopped after 3 instructions (--max-insns), with work left"
err_has "--max-insns 3 with .mmio: 3 ran" "instructions: 3 "
check "--max-insns 5 of 5" 0 "$TTX" run --max-insns 5 "$tmp/nop5.s"
check "--stats" 0 "$TTX" run --stats "$tmp/nop5.s"
ok "--stats: instructions: 5" grep -q '^instructions: 5 (' "$tmp/err"
ok "--stats: by thread" grep -qx 'by thread: T0 5 T1 0 T2 0' "$tmp/err"
ok "--stats: by unit" grep -qx 'by unit: misc 5' "$tmp/err"
out_is "--stats" ''
check "--trace -" 0 "$TTX" run --trace - "$tmp/nop5.s"
out_is "--trace -" 'T0 02000000  NOP\n%.0s' 1 2 3 4 5
check "--trace FILE" 0 "$TTX" run --trace "$tmp/trace.txt" "$tmp/ok.s"
lines=$( [ -f "$tmp/trace.txt" ] && wc -l <"$tmp/trace.txt")
ok "--trace FILE: two lines" [ "$((${lines:-0}+0))" = 2 ]
ok "--trace FILE: contents" [ "$(head -n 1 "$tmp/trace.txt" 2>/dev/null)" = "T0 02000000  NOP" ]
ok "--trace FILE: stdout empty" [ ! -s "$tmp/out" ]

# ---- ttx run: .bin programs and threads ------------------------------------------------
printf '\000\000\000\002\000\000\000\002\000\000\000\002' >"$tmp/nop3.bin"
check ".bin --thread 2" 0 "$TTX" run --thread 2 --trace - "$tmp/nop3.bin"
out_is ".bin --thread 2" 'T2 02000000  NOP\n%.0s' 1 2 3
check ".bin default thread" 0 "$TTX" run --stats "$tmp/nop3.bin"
ok ".bin default thread: T0 ran 3" grep -qx 'by thread: T0 3 T1 0 T2 0' "$tmp/err"
check ".bin truncated" 2 "$TTX" run "$tmp/trunc.bin"
err_has ".bin truncated" "not a multiple of 4"

# .thread and .mmio: a semaphore post and an L1 store (0x200 = 0xCAFEF00D)
printf '%s\n' 'NOP' '.thread 1' 'NOP' '.mmio 0xFFE80020, 0   # post semaphore 0' 'TTI_NOP;' \
	'.mmio 0x200, 0xCAFEF00D' >"$tmp/mmio.s"
check ".thread 1 and .mmio" 0 "$TTX" run --trace - --l1-out 0x200:4:"$tmp/mmio.out" "$tmp/mmio.s"
out_is ".thread 1 and .mmio" '%s\n' 'T0 02000000  NOP' 'T1 02000000  NOP' 'T1 02000000  NOP'
hex_is ".mmio store to L1" "$tmp/mmio.out" "0d f0 fe ca"
printf '%s\n' 'NOP' '' '.mmio 0x12345678, 1' 'NOP' >"$tmp/unmapped.s"
check ".mmio unmapped" 2 "$TTX" run "$tmp/unmapped.s"
err_is ".mmio unmapped" '%s\n' "$tmp/unmapped.s:3:7: .mmio 0x12345678: no emulated register there"
printf '.mmio 0xFFE80022, 0\n' >"$tmp/unaligned.s"
check ".mmio unaligned" 2 "$TTX" run "$tmp/unaligned.s"
err_is ".mmio unaligned" '%s\n' \
	"$tmp/unaligned.s:1:7: .mmio address must be a 4-byte aligned 32-bit address"
printf '.thread 3\nNOP\n' >"$tmp/thread3.s"
check ".thread 3" 2 "$TTX" run "$tmp/thread3.s"
err_is ".thread 3" '%s\n' "$tmp/thread3.s:1:9: .thread 3: threads are 0, 1 and 2"

# ---- ttx demo: the README's first command ---------------------------------------------
check "demo" 0 "$TTX" demo
for what in "H = X W1" "G = gelu(H)" "Y = G W2" "P = softmax(Y)"; do
	out_has "demo" "$what"
done
out_has "demo" "every result within its bound"
out_has "demo" "instr/s"
if "$TTX" --version | grep -q JIT; then
	out_has "demo" "interpreter and JIT results: identical, bit for bit"
	out_has "demo" "jit / interp:"
	out_has "demo" "jit again / interp:"
	out_has "demo" "the first JIT run compiled"
fi
check "demo --quick --engine interp" 0 "$TTX" demo --quick --engine interp
out_has "demo --quick" "X 32x64, W1 64x64"
check "demo --fidelity lofi --format bfp8" 0 "$TTX" demo --quick --fidelity lofi --format bfp8 --engine interp
out_has "demo lofi" "LoFi"
check "demo bad size" 2 "$TTX" demo --size 0,1,2
err_has "demo bad size" "--size '0,1,2'"
check "demo bad option" 2 "$TTX" demo --frob
check "demo stray argument" 2 "$TTX" demo extra
check "op without a name" 2 "$TTX" op --in x.npy
err_has "op without a name" "expected one operation NAME"

# ---- hardening (issue 18) ----------------------------------------------------------
printf 'NOP\n' >"$tmp/one.s"
"$TTX" asm "$tmp/one.s" -o "$tmp/one.bin"
if [ -w /dev/full ]; then
	# every output checks its writes and its final flush
	check "--trace /dev/full" 2 "$TTX" run "$tmp/one.s" --trace /dev/full
	err_has "--trace /dev/full" "/dev/full: write error"
	"$TTX" run "$tmp/one.s" --trace - >/dev/full 2>"$tmp/err"; got=$?
	ok "--trace - to a full stdout: exit 2" [ "$got" = 2 ]
	err_has "--trace - to a full stdout" "write error"
	"$TTX" disasm "$tmp/one.bin" >/dev/full 2>"$tmp/err"; got=$?
	ok "disasm to a full stdout: exit 2" [ "$got" = 2 ]
	err_has "disasm to a full stdout" "standard output: write error"
	"$TTX" op --list >/dev/full 2>"$tmp/err"; got=$?
	ok "op --list to a full stdout: exit 2" [ "$got" = 2 ]
	"$TTX" run "$tmp/one.s" --stats 2>/dev/full; got=$?
	ok "--stats to a full stderr: exit 2" [ "$got" = 2 ]
fi
# expressions nested 50,000 deep, or 200,000 unary minus signs: an error at
# their place, never a stack overflow
{ printf 'NOP '; printf '%50000s' '' | tr ' ' '('; printf '1'; printf '%50000s' '' | tr ' ' ')'; echo; } >"$tmp/deep.s"
check "50,000 parentheses" 2 "$TTX" run "$tmp/deep.s"
err_has "50,000 parentheses" "$tmp/deep.s:1:206: expression nests too deeply (more than 200 levels)"
{ printf 'NOP '; printf '%200000s' '' | tr ' ' '-'; echo 1; } >"$tmp/minus.s"
check "200,000 minus signs" 2 "$TTX" asm "$tmp/minus.s" -o "$tmp/minus.bin"
err_has "200,000 minus signs" "expression nests too deeply"
# numbers: decimal or 0x-hex only
check "--max-insns ' -1'" 2 "$TTX" run "$tmp/one.s" --max-insns ' -1'
check "--max-insns +3" 2 "$TTX" run "$tmp/one.s" --max-insns +3
check "--max-insns 010 is ten" 0 "$TTX" run "$tmp/nop5.s" --max-insns 010
check "--max-insns 0x3" 1 "$TTX" run "$tmp/nop5.s" --max-insns 0x3
err_has "--max-insns 0x3" "stopped after 3 instructions"
check "--l1-in ' 16:F'" 2 "$TTX" run "$tmp/one.s" --l1-in " 16:$tmp/one.bin"
# reads stop at the largest legal size
if [ -r /dev/zero ]; then
	check "--dst-in /dev/zero" 2 "$TTX" run "$tmp/one.s" --dst-in /dev/zero
	err_has "--dst-in /dev/zero" "/dev/zero: larger than 32768 bytes"
	check "--l1-in 0:/dev/zero" 2 "$TTX" run "$tmp/one.s" --l1-in 0:/dev/zero
	err_has "--l1-in 0:/dev/zero" "larger than 1499136 bytes"
	check "run /dev/zero" 2 "$TTX" run /dev/zero
	err_has "run /dev/zero" "larger than 67108864 bytes"
fi
# --thread is for .bin programs; text chooses with .thread
check "--thread with text" 2 "$TTX" run "$tmp/one.s" --thread 1
err_has "--thread with text" "--thread applies to a .bin program"
check "--thread with .bin" 0 "$TTX" run "$tmp/one.bin" --thread 1
# overlapping L1 inputs are refused; adjacent ones are fine
printf 'abcd' >"$tmp/four1"; printf 'efgh' >"$tmp/four2"
check "--l1-in overlap" 2 "$TTX" run "$tmp/one.s" --l1-in "0x100:$tmp/four1" --l1-in "0x102:$tmp/four2"
err_has "--l1-in overlap" "overlaps --l1-in $tmp/four1 at 0x100"
check "--l1-in adjacent" 0 "$TTX" run "$tmp/one.s" --l1-in "0x100:$tmp/four1" --l1-in "0x104:$tmp/four2"
# --trace is created only once the program is accepted
printf 'BOGUS\n' >"$tmp/bogus.s"
check "--trace with a bad program" 2 "$TTX" run "$tmp/bogus.s" --trace "$tmp/never.txt"
ok "--trace with a bad program: no file" [ ! -e "$tmp/never.txt" ]
# '-' is standard input; .BIN is words like .bin
printf 'NOP\nNOP\n' | "$TTX" run - --stats >"$tmp/out" 2>"$tmp/err"; got=$?
ok "run - (stdin): exit 0" [ "$got" = 0 ]
err_has "run - (stdin)" "instructions: 2 "
printf 'BOGUS\n' | "$TTX" run - >"$tmp/out" 2>"$tmp/err"
err_has "run - (stdin): messages name <stdin>" "<stdin>:1:1: unknown mnemonic 'BOGUS'"
cp "$tmp/one.bin" "$tmp/UPPER.BIN"
check "run X.BIN" 0 "$TTX" run "$tmp/UPPER.BIN" --stats
err_has "run X.BIN: one word" "instructions: 1 "
# --stats: the total, the sum by thread and the sum by unit agree; the
# expanders' own words are counted apart
printf 'REPLAY 0, 2, 0, 1\nNOP\nSFPNOP\nREPLAY 0, 2, 0, 0\nREPLAY 0, 2, 0, 0\n' >"$tmp/replay.s"
check "--stats with REPLAY" 0 "$TTX" run "$tmp/replay.s" --stats
err_has "--stats with REPLAY: total" "instructions: 4 ("
err_has "--stats with REPLAY: by thread" "by thread: T0 4 T1 0 T2 0"
err_has "--stats with REPLAY: by unit" "by unit: misc 2 sfpu 2"
err_has "--stats with REPLAY: expander words" "expander words (not in the counts above): MOP 0, MOP_CFG 0, REPLAY 3"
# a .mmio store to ThreadConfig is an input error at its place
printf '.mmio 0xFFEF05E0, 5\n' >"$tmp/thcfgmmio.s"
check ".mmio to ThreadConfig" 2 "$TTX" run "$tmp/thcfgmmio.s"
err_is ".mmio to ThreadConfig" '%s\n' "$tmp/thcfgmmio.s:1:7: .mmio 0xFFEF05E0: ThreadConfig cannot be written by RISC-V stores; push SETC16 instead"
# an empty program and a REPLAY recording left open: warnings under
# --strict, notes in --stats, silent (exit 0) otherwise
: >"$tmp/empty.s"
check "empty program" 0 "$TTX" run "$tmp/empty.s"
err_is "empty program" ''
check "empty program --strict --stats" 0 "$TTX" run "$tmp/empty.s" --strict --stats
err_has "empty program --strict" "ttx: warning: $tmp/empty.s is empty: nothing ran"
err_has "empty program --stats" "note: $tmp/empty.s is empty: nothing ran"
printf 'REPLAY 0, 4, 0, 1\nNOP\n' >"$tmp/open.s"
check "REPLAY left open --strict" 0 "$TTX" run "$tmp/open.s" --strict
err_is "REPLAY left open --strict" '%s\n' "ttx: warning: thread 0 left a REPLAY recording open (3 more instructions to record)"
check "REPLAY left open --stats" 0 "$TTX" run "$tmp/open.s" --stats
err_has "REPLAY left open --stats" "note: thread 0 left a REPLAY recording open (3 more instructions to record)"
# a deadlock message ends without a stray ';'
printf 'MVMUL 0, 0, 0, 0\n' >"$tmp/dead.s"
check "deadlock" 1 "$TTX" run "$tmp/dead.s"
err_is "deadlock" '%s\n' "ttx: $tmp/dead.s: deadlock: thread 0 blocked at MVMUL (0x26000000)"

# ---- ttx batch ------------------------------------------------------------------------
# Six jobs (quotes, comments, an option after the program) whose outputs must
# equal those of the same commands run one by one; one job that faults, one
# malformed line, one unknown command: reported as JOBS:LINE, the others run.
printf 'SFPLOADI 0, 0, 0x3F80\nSFPLOADI 1, 0, 0x4000\nSFPMAD 0, 1, 0, 2, 0\nSFPSTORE 2, 3, 0, 0\n' >"$tmp/b1.s"
printf 'SFPLOADI 0, 2, 7\nSFPIADD 5, 0, 0, 5\n' >"$tmp/b 2.s"
printf 'SFPPOPC 0, 0, 0, 0\n' >"$tmp/bfault.s"
jit=jit; "$TTX" --version | grep -q "LLVM JIT" || jit=auto   # a --disable-jit build
cat >"$tmp/jobs.txt" <<JOBS
# comments and blank lines are skipped

run $tmp/b1.s --dst-out $tmp/b1.dst
run '$tmp/b 2.s' --lreg-out "$tmp/b2.lreg" --engine interp
  run --engine $jit $tmp/b1.s --lreg-out $tmp/b1j.lreg
run $tmp/b1.s --lreg-out $tmp/b1i.lreg --engine interp
run $tmp/bfault.s
run "$tmp/b 2.s" --dst-out $tmp/b2.dst --engine auto
run 'unterminated
frobnicate $tmp/b1.s
op --list
JOBS
check "batch" 1 "$TTX" batch "$tmp/jobs.txt" --jobs 2
err_has "batch: the fault, at its line" "$tmp/jobs.txt:7: ttx: $tmp/bfault.s: SFPPOPC"
err_has "batch: unterminated quote" "$tmp/jobs.txt:9: unterminated ' quote"
err_has "batch: not a command" "$tmp/jobs.txt:10: expected a 'run' or 'op' command, found 'frobnicate'"
err_has "batch: summary" "ttx batch: 7 jobs (6 ok, 1 failed, 2 malformed lines skipped) on 2 threads"
out_has "batch: op --list's output on stdout" "computes"
"$TTX" run "$tmp/b1.s" --dst-out "$tmp/b1.want" 2>/dev/null
"$TTX" run "$tmp/b 2.s" --lreg-out "$tmp/b2.want" --engine interp 2>/dev/null
ok "batch: Dst as a single run writes it" cmp -s "$tmp/b1.dst" "$tmp/b1.want"
ok "batch: LRegs as a single run writes them" cmp -s "$tmp/b2.lreg" "$tmp/b2.want"
ok "batch: JIT and interpreter jobs agree" cmp -s "$tmp/b1j.lreg" "$tmp/b1i.lreg"
cp "$tmp/b1.dst" "$tmp/b1.first"
check "batch, one thread" 1 "$TTX" batch "$tmp/jobs.txt" --jobs 1
ok "batch: the same outputs on one thread" cmp -s "$tmp/b1.dst" "$tmp/b1.first"
err_has "batch, one thread" "on 1 thread in"
printf 'run %s\n' "$tmp/b1.s" >"$tmp/ok.txt"
check "batch, all good" 0 "$TTX" batch "$tmp/ok.txt"
check "batch without a file" 2 "$TTX" batch
check "batch, missing file" 2 "$TTX" batch "$tmp/nonexistent.txt"
err_has "batch, missing file" "nonexistent.txt: No such file"
check "batch --jobs 0" 2 "$TTX" batch "$tmp/ok.txt" --jobs 0
err_has "batch --jobs 0" "--jobs '0'"
check "batch --jobs junk" 2 "$TTX" batch "$tmp/ok.txt" --jobs 2x
check "batch two files" 2 "$TTX" batch "$tmp/ok.txt" "$tmp/ok.txt"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
