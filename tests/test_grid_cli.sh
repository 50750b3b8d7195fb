#!/bin/sh
# ttx grid (app/cli_grid.c): RISC-V programs on a grid of an emulated
# chip's tiles.  A token passed around a 2x3 grid by NoC atomic increments
# (tests/riscv/grid_ring.c) reaches the tiles in ring order; every tile
# waiting on a semaphore no one increments is a deadlock naming each
# waiting core (exit 1); DRAM in and out; bad input (exit 2, nothing
# written).  Skipped (77) without the cross compiler.
set -u
TTX=${TTX:-./ttx}
B=${TTX_BUILDDIR:-.}
ELF=$B/tests/riscv/grid_ring.brisc.elf
[ -f "$ELF" ] || { echo "no RISC-V programs (no riscv64-unknown-elf-gcc at configure): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { name=$1; shift; if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $name"; fi; }
word() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }

# the ring: tile i (row-major) gets the token after tile i - 1; tile 0 last
outs=""
for r in 0 1; do for c in 0 1 2; do outs="$outs --l1-out $r,$c:0x18100:8:$tmp/t$r$c"; done; done
"$TTX" grid --grid 2x3 --elf "brisc=$ELF" $outs --stats --threads 2 2>"$tmp/err"
ok "ring: exit 0" [ $? -eq 0 ]
ok "ring: --stats" grep -q "device cycles" "$tmp/err"
prev=0
for t in t01 t02 t10 t11 t12 t00; do
	now=$(word "$tmp/$t" 0)
	ok "ring: $t after the one before ($now > $prev)" [ "$now" -gt "$prev" ]
	prev=$now
done
ok "ring: the tiles know their index" [ "$(word "$tmp/t12" 4)" = 5 ]
# one host thread: the same cycles
"$TTX" grid --grid 2x3 --elf "brisc=$ELF" --l1-out 0,0:0x18100:8:"$tmp/one" --threads 1 2>/dev/null
ok "ring: the same cycles on one thread" cmp -s "$tmp/one" "$tmp/t00"

# a deadlock across the grid
printf '\001\000\000\000' > "$tmp/mode1"
"$TTX" grid --grid 2x2 --elf "brisc=$ELF" --l1-in "0x18200:$tmp/mode1" --deadlock-cycles 20000 \
	--l1-out 1,1:0x18000:4:"$tmp/sem" 2>"$tmp/err"
ok "deadlock: exit 1" [ $? -eq 1 ]
for tile in "tile (1, 1)" "tile (2, 1)" "tile (1, 2)" "tile (2, 2)"; do
	ok "deadlock: names $tile" grep -qF "$tile RISCV B in a loop that polls" "$tmp/err"
done
ok "deadlock: the outputs still written" [ -f "$tmp/sem" ]

# DRAM: an interleaved buffer in, the same buffer out
head -c 5000 /dev/urandom > "$tmp/d.bin"
"$TTX" grid --elf "brisc=$ELF" --dram-in "0x100000:2048:$tmp/d.bin" --dram-out "0x100000:2048:5000:$tmp/d.out" 2>"$tmp/err"
ok "dram: round trip" cmp -s "$tmp/d.bin" "$tmp/d.out"

# bad input
bad() { # name message args...
	name=$1 msg=$2; shift 2
	rm -f "$tmp/never"
	"$TTX" grid "$@" 2>"$tmp/err"
	rc=$?
	ok "$name: exit 2" [ $rc -eq 2 ]
	ok "$name: says '$msg'" grep -qF -- "$msg" "$tmp/err"
	ok "$name: writes nothing" [ ! -e "$tmp/never" ]
}
bad "no program" "expected at least one --elf" --grid 2x2
bad "grid too large" "--grid '9x2'" --grid 9x2 --elf "brisc=$ELF"
bad "l1-out outside the grid" "the grid is 2x2" --grid 2x2 --elf "brisc=$ELF" --l1-out "2,0:0:4:$tmp/never"
bad "no such core" "the core is brisc" --elf "bcore=$ELF"
bad "missing file" "nope.elf" --elf "brisc=$tmp/nope.elf" --l1-out "0,0:0:4:$tmp/never"
bad "bad dram spec" "--dram-in" --elf "brisc=$ELF" --dram-in "0x0:0:$tmp/d.bin"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
