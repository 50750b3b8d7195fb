#!/bin/sh
# The RISC-V cores running programs built with Debian's cross compiler
# (tests/riscv/*, kernels/riscv/): the RV32IM conformance programs on each
# kind of core, an LLK-style four-core program (firmware on B releasing
# the TRISCs through the reset-PC overrides, .ttinsn words in the code,
# semaphores, TTSync, completion through L1), every reference vector case
# pushed by a TRISC under both engines, and `ttx run --elf` on bad input.
# Skipped (77) in a build without riscv64-unknown-elf-gcc.
set -u
TTX=${TTX:-./ttx}
B=${TTX_BUILDDIR:-.}
R=$B/tests/riscv
[ -f "$R/isa.trisc0.elf" ] || { echo "no RISC-V programs (no riscv64-unknown-elf-gcc at configure): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PY=${PYTHON:-python3}
pass=0 fail=0
check() { # name expected-exit command...
	name=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	if [ "$got" = "$want" ]; then pass=$((pass+1)); else
		fail=$((fail+1)); echo "FAIL: $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
ok() { name=$1; shift; if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $name"; fi; }
err_has() { ok "$1: stderr has '$2'" grep -qF -- "$2" "$tmp/err" || { echo "  stderr was:"; cat "$tmp/err"; }; }
word() { od -An -tx4 -j "$2" -N 4 "$1" | tr -d ' '; }   # file offset -> hex word

# ---- conformance: C and assembly, on B, T1, NC and T0 ----
for e in conformance.brisc conformance.trisc1 conformance.ncrisc isa.trisc0; do
	core=${e#*.}
	check "$e" 0 "$TTX" run --elf "$core=$R/$e.elf" --l1-out "0x16000:4:$tmp/r.bin"
	ok "$e: every check passed" [ "$(word "$tmp/r.bin" 0)" = 0000600d ] || echo "  result $(word "$tmp/r.bin" 0)"
done

# ---- LLK style: B releases the TRISCs at the PCs in its arguments ----
printf '\000\140\000\000\000\240\000\000\000\340\000\000' > "$tmp/args.bin"   # 0x6000, 0xA000, 0xE000
for engine in interp jit; do
	check "llk-style ($engine)" 0 "$TTX" run --engine $engine --elf "brisc=$R/llk_brisc.brisc.elf" \
		--load "trisc0=$R/llk_unpack.trisc0.elf" --load "trisc1=$R/llk_math.trisc1.elf" \
		--load "trisc2=$R/llk_pack.trisc2.elf" --l1-in "0x16100:$tmp/args.bin" --until 0x16000=0x600D \
		--l1-out "0x16000:4:$tmp/r.bin" --dst-out "$tmp/dst.bin" --stats
	ok "llk-style ($engine): B saw every TRISC finish" [ "$(word "$tmp/r.bin" 0)" = 0000600d ]
	ok "llk-style ($engine): Dst row 64 = 1.0 + 1.0" [ "$(word "$tmp/dst.bin" 4096)" = 40000000 ]
	err_has "llk-style ($engine): per-core stats" "core trisc1:"
done
check "llk-style --perfetto" 0 "$TTX" run --elf "brisc=$R/llk_brisc.brisc.elf" \
	--load "trisc0=$R/llk_unpack.trisc0.elf" --load "trisc1=$R/llk_math.trisc1.elf" \
	--load "trisc2=$R/llk_pack.trisc2.elf" --l1-in "0x16100:$tmp/args.bin" --until 0x16000=0x600D \
	--perfetto "$tmp/trace.json"
ok "--perfetto: a track for each core that ran" [ "$(grep -c '"name":"RISC-V \(brisc\|trisc[012]\)"' "$tmp/trace.json")" = 4 ]
ok "--perfetto: the TRISCs' TTSync waits" grep -q '"name":"TTSync' "$tmp/trace.json"
ok "--perfetto: running spans with their instructions" grep -q '"name":"running x[0-9]*","args":{"cycle":[0-9]*,"cycles":[0-9]*,"instructions":[1-9]' "$tmp/trace.json"

# ---- the reference vectors, pushed by RISCV T0 ----
if [ -n "${RUN_VECTORS:-}" ] && [ -n "${TTX_VECTORS:-}" ]; then
	for engine in interp jit; do
		for set in sfpu fpu; do
			check "vectors $set pushed by T0 ($engine)" 0 "$RUN_VECTORS" "$TTX_VECTORS/$set" --engine $engine \
				--riscv "$R/pusher.trisc0.elf"
		done
	done
fi

# ---- bad input: exit 2, nothing run ----
E=$R/isa.trisc0.elf
head -c 30 "$E" > "$tmp/trunc.elf"
check "truncated ELF" 2 "$TTX" run --elf "trisc0=$tmp/trunc.elf"
err_has "truncated ELF" "not an ELF file (truncated header)"
patch() { # file offset byte-value -> $tmp/patched.elf
	cp "$E" "$tmp/patched.elf"
	printf "\\$(printf %o "$3")" | dd of="$tmp/patched.elf" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
patch "$E" 4 2
check "ELF64" 2 "$TTX" run --elf "trisc0=$tmp/patched.elf"
err_has "ELF64" "ELF class 2: the cores run 32-bit code"
patch "$E" 5 2
check "big-endian ELF" 2 "$TTX" run --elf "trisc0=$tmp/patched.elf"
err_has "big-endian ELF" "the cores are little-endian"
patch "$E" 18 62
check "x86-64 ELF" 2 "$TTX" run --elf "trisc0=$tmp/patched.elf"
err_has "x86-64 ELF" "not RISC-V"
# the entry point moved into local data RAM (not executable)
"$PY" - "$E" "$tmp/entry.elf" "$tmp/seg.elf" <<'EOF' || echo "(python patching failed)"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
e = bytearray(d)
e[24:28] = struct.pack("<I", 0xFFB00000)
open(sys.argv[2], "wb").write(e)
phoff, = struct.unpack_from("<I", d, 28)
phentsize, phnum = struct.unpack_from("<HH", d, 42)
for i in range(phnum):
    o = phoff + i * phentsize
    if struct.unpack_from("<I", d, o)[0] == 1:
        struct.pack_into("<I", d, o + 12, 0x80000000)   # p_paddr
        break
open(sys.argv[3], "wb").write(d)
EOF
check "entry outside executable memory" 2 "$TTX" run --elf "trisc0=$tmp/entry.elf"
err_has "entry outside executable memory" "the entry point 0xFFB00000 is not in memory trisc0 executes from"
check "segment outside every memory" 2 "$TTX" run --elf "trisc0=$tmp/seg.elf"
err_has "segment outside every memory" "is outside every memory of trisc0"
check "two images on the same L1" 2 "$TTX" run --elf "trisc0=$E" --elf "trisc1=$R/llk_unpack.trisc0.elf"
err_has "two images on the same L1" "overlaps L1 that trisc0's image holds"
check "unknown core" 2 "$TTX" run --elf "dsp=$E"
err_has "unknown core" "--elf 'dsp=$E': expected CORE=FILE"
check "the same core twice" 2 "$TTX" run --elf "trisc0=$E" --elf "t0=$E"
err_has "the same core twice" "--elf: trisc0 is given twice"
check "missing ELF" 2 "$TTX" run --elf "trisc0=$tmp/none.elf"
# a runaway core: --max-insns stops it, exit 1, with each core's pc

check "runaway" 1 "$TTX" run --elf "brisc=$R/conformance.brisc.elf" --load "$R/llk_unpack.trisc0.elf" \
	--max-insns 5
err_has "runaway" "stopped after 5 instructions (--max-insns)"
err_has "runaway" "brisc: pc 0x"

echo "test_riscv_elf: $pass passed, $fail failed"
[ "$fail" = 0 ]
