#!/bin/sh
# The ttx command on hostile but fair input (issue 27): where outputs go and
# what is left of them, resource bounds on .npy and jobs files, exit codes and
# messages, help and man page from one table, and the demo's references.
# Tools: sh, od, cmp, wc, grep, head, ln, mkfifo, dd, timeout.
set -u
TTX=${TTX:-./ttx}
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name expected-exit command...
	name=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	if [ "$got" = "$want" ]; then pass=$((pass+1)); else
		fail=$((fail+1)); echo "FAIL: $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
ok() {
	name=$1; shift
	if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $name"; return 1; fi
}
err_has() { ok "$1: stderr has '$2'" grep -qF -- "$2" "$tmp/err" || { echo "  stderr was:"; cat "$tmp/err"; }; }
err_lacks() { ok "$1: stderr lacks '$2'" sh -c '! grep -qF -- "$1" "$2"' x "$2" "$tmp/err" || { echo "  stderr was:"; cat "$tmp/err"; }; }
# no temporary file of ttx's is left in a directory
no_temps() { ok "$1: no temporary files left in $2" sh -c '! ls -a "$1" | grep -q "^\.ttx-"' x "$2"; }

# an .npy of float32 [rows, cols] with values 1..n (written by hand: no NumPy needed)
npy() { # file rows cols
	rows=$2 cols=$3 n=$(($2 * $3))
	h="{'descr': '<f4', 'fortran_order': False, 'shape': ($rows, $cols), }"
	while [ $(( (10 + ${#h} + 1) % 64 )) != 0 ]; do h="$h "; done
	{ printf '\223NUMPY\001\000'; printf "\\$(printf %o $(( (${#h} + 1) % 256 )))\\$(printf %o $(( (${#h} + 1) / 256 )))"
	  printf '%s\n' "$h"; i=0; while [ $i -lt $n ]; do printf '\000\000\200\077'; i=$((i+1)); done; } > "$1"
}
npy "$tmp/a.npy" 4 8

# ---- 1. --out never replaces what is not a regular file ----
check "--out /dev/null" 0 "$TTX" op relu --in "$tmp/a.npy" --out /dev/null
ok "/dev/null is still a character device" [ -c /dev/null ]
if [ -c /dev/full ]; then
	check "--out /dev/full" 2 "$TTX" op relu --in "$tmp/a.npy" --out /dev/full
	err_has "--out /dev/full" "/dev/full: write error: No space left on device"
	ok "/dev/full is still a character device" [ -c /dev/full ]
fi
mkfifo "$tmp/fifo"
cat "$tmp/fifo" > "$tmp/from_fifo" &
reader=$!
check "--out FIFO" 0 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/fifo"
wait $reader
ok "the FIFO is still a FIFO" [ -p "$tmp/fifo" ]
check "--out a.npy for comparison" 0 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/plain.npy"
ok "what went through the FIFO is the result" cmp -s "$tmp/plain.npy" "$tmp/from_fifo"
ln -s target.npy "$tmp/link.npy"
check "--out SYMLINK (dangling)" 0 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/link.npy"
ok "the symlink stays a symlink" [ -L "$tmp/link.npy" ]
ok "the target was written" cmp -s "$tmp/plain.npy" "$tmp/target.npy"
printf 'old' > "$tmp/target.npy"
check "--out SYMLINK (to a file)" 0 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/link.npy"
ok "the symlink still points at its target" [ -L "$tmp/link.npy" ] && cmp -s "$tmp/plain.npy" "$tmp/target.npy"
check "--out -" 0 "$TTX" op relu --in "$tmp/a.npy" --out -
ok "--out - writes the .npy to stdout" cmp -s "$tmp/plain.npy" "$tmp/out"
mkdir "$tmp/dir"
check "--out DIRECTORY" 2 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/dir"
err_has "--out DIRECTORY" "is a directory"
check "--out in a missing directory" 2 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/nodir/x.npy"
err_has "--out in a missing directory" "No such file or directory"
# a regular file keeps its mode; a new one gets the umask's
chmod 640 "$tmp/plain.npy"
check "--out over a 0640 file" 0 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/plain.npy"
ok "its mode stays 0640" [ "$(stat -c %a "$tmp/plain.npy")" = 640 ]
(umask 022 && "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/new.npy")
ok "a new file is 0644 under umask 022" [ "$(stat -c %a "$tmp/new.npy")" = 644 ]
# a 254-character file name (the longest a name may be, less one) is a valid output
long=$(printf 'x%.0s' $(seq 1 250)).npy
check "a 254-character output name" 0 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/dir/$long"
ok "it was written" [ -f "$tmp/dir/$long" ]
no_temps "outputs" "$tmp"
no_temps "outputs" "$tmp/dir"
# run's outputs go the same way
printf 'NOP\n' > "$tmp/p.s"
check "run --dst-out /dev/null" 0 "$TTX" run "$tmp/p.s" --dst-out /dev/null --lreg-out /dev/null
ok "/dev/null is still a character device after run" [ -c /dev/null ]

# ---- 15. nothing is left of a failed op ----
check "op that fails (bad shapes)" 2 "$TTX" op matmul --in "$tmp/a.npy" --in "$tmp/a.npy" --out "$tmp/f.npy" \
	--perfetto "$tmp/f.json"
ok "no result, no trace after a failed op" [ ! -e "$tmp/f.npy" ] && [ ! -e "$tmp/f.json" ]
if [ -c /dev/full ]; then
	check "trace write fails" 2 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/g.npy" --perfetto /dev/full
	ok "no result when the trace could not be written" [ ! -e "$tmp/g.npy" ]
fi
printf 'keep' > "$tmp/keep.npy"
check "op that fails over an existing output" 2 "$TTX" op matmul --in "$tmp/a.npy" --in "$tmp/a.npy" \
	--out "$tmp/keep.npy"
ok "the existing file is untouched" [ "$(cat "$tmp/keep.npy")" = keep ]
no_temps "failed ops" "$tmp"

# ---- 2. two jobs of a batch writing one file ----
cat > "$tmp/jobs" <<EOF
op relu --in $tmp/a.npy --out $tmp/same.npy
op abs --in $tmp/a.npy --out $tmp/other.npy
op exp --in $tmp/a.npy --out=$tmp/./same.npy
EOF
check "batch: two jobs, one output" 2 "$TTX" batch "$tmp/jobs"
err_has "batch: two jobs, one output" "$tmp/jobs:1 and $tmp/jobs:3: both jobs write"
ok "batch: nothing ran" [ ! -e "$tmp/other.npy" ] && [ ! -e "$tmp/same.npy" ]
ln -s same.npy "$tmp/alias.npy"
printf 'x' > "$tmp/same.npy"
cat > "$tmp/jobs" <<EOF
op relu --in $tmp/a.npy --out $tmp/alias.npy
run $tmp/p.s --l1-out 0:16:$tmp/same.npy
EOF
check "batch: the same file through a symlink and --l1-out" 2 "$TTX" batch "$tmp/jobs"
err_has "batch: symlink" "$tmp/jobs:1 and $tmp/jobs:2: both jobs write"
cat > "$tmp/jobs" <<EOF
run $tmp/p.s --dst-out $tmp/d1.bin --dst16-out $tmp/d1.bin
EOF
check "batch: one job writing a file twice" 2 "$TTX" batch "$tmp/jobs"
err_has "batch: one job twice" "$tmp/jobs:1: the job writes $tmp/d1.bin twice"
cat > "$tmp/jobs" <<EOF
op relu --in $tmp/a.npy --out /dev/null
op abs --in $tmp/a.npy --out /dev/null
op abs --in $tmp/a.npy --out -
op relu --in $tmp/a.npy --out -
EOF
check "batch: devices and stdout may be named twice" 0 "$TTX" batch "$tmp/jobs"
# many jobs writing distinct files at once: each file is its own job's
: > "$tmp/jobs"
for i in 1 2 3 4 5 6 7 8; do echo "op relu --in $tmp/a.npy --out $tmp/r$i.npy" >> "$tmp/jobs"; done
check "batch: eight outputs" 0 "$TTX" batch "$tmp/jobs" --jobs 4
ok "batch: every output whole" sh -c 'for i in 1 2 3 4 5 6 7 8; do cmp -s "$1/plain.npy" "$1/r$i.npy" || exit 1; done' x "$tmp"
no_temps "batch" "$tmp"

# ---- 3. binary data in a jobs file ----
printf 'op relu --in %s --out %s/n1.npy\nop abs\000 --in x\nop relu --in %s --out %s/n2.npy\n' \
	"$tmp/a.npy" "$tmp" "$tmp/a.npy" "$tmp" > "$tmp/jobs"
check "batch: a NUL byte" 1 "$TTX" batch "$tmp/jobs"
err_has "batch: a NUL byte" "$tmp/jobs:2: binary data (byte 0x00 at column 7): not a jobs line"
ok "batch: the jobs after the NUL line ran" [ -f "$tmp/n2.npy" ] && [ -f "$tmp/n1.npy" ]
printf 'op relu\033[31m --in x --out y\n' > "$tmp/jobs"
check "batch: a control character" 1 "$TTX" batch "$tmp/jobs"
err_has "batch: a control character" "$tmp/jobs:1: binary data (byte 0x1B at column 8)"

# ---- 4. .npy: the header first, then exactly what it declares ----
npy "$tmp/big.npy" 4 8
dd if=/dev/zero bs=1024 count=4096 >> "$tmp/big.npy" 2>/dev/null
check ".npy with 4 MiB after the data" 2 "$TTX" op relu --in "$tmp/big.npy" --out "$tmp/o.npy"
err_has ".npy with trailing data" "bytes after the data: 4194432 bytes of data, the header declares 128"
head -c 160 "$tmp/a.npy" > "$tmp/short.npy"
check ".npy truncated" 2 "$TTX" op relu --in "$tmp/short.npy" --out "$tmp/o.npy"
err_has ".npy truncated" "truncated data: 32 bytes of data, the header declares 128"
head -c 100 "$tmp/a.npy" > "$tmp/short.npy"
check ".npy truncated header" 2 "$TTX" op relu --in "$tmp/short.npy" --out "$tmp/o.npy"
err_has ".npy truncated header" "truncated header"
check "/dev/zero as .npy" 2 timeout 10 "$TTX" op relu --in /dev/zero --out "$tmp/o.npy"
err_has "/dev/zero as .npy" "/dev/zero: not a NumPy .npy file"
# a 4-D array: the message shows the shape, not the raw padded header
h="{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4, 5), }"
while [ $(( (10 + ${#h} + 1) % 64 )) != 0 ]; do h="$h "; done
{ printf '\223NUMPY\001\000'; printf "\\$(printf %o $(( ${#h} + 1 )))\\000"; printf '%s\n' "$h"; } > "$tmp/4d.npy"
check ".npy 4-D" 2 "$TTX" op relu --in "$tmp/4d.npy" --out "$tmp/o.npy"
err_has ".npy 4-D" "shape (2, 3, 4, 5): arrays of more than 3 dimensions are not supported"
err_lacks ".npy 4-D" "fortran_order"
# a complete version 2 file whose header is over 64 KiB
"$PY" - "$tmp/v2.npy" <<'EOF' 2>/dev/null || printf 'skip' > "$tmp/v2.skip"
import struct, sys
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
h = h + " " * (70000 - len(h)) + "\n"
while (12 + len(h)) % 64:
    h = h[:-1] + " \n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(h)) + h.encode() + struct.pack("<6f", 1, 2, 3, 4, 5, 6))
EOF
if [ ! -f "$tmp/v2.skip" ]; then
	check ".npy v2 with a 70 KB header" 0 "$TTX" op relu --in "$tmp/v2.npy" --out "$tmp/o.npy"
fi

# ---- 5. memory needed, from the shapes, before allocating ----
"$PY" -c "
import numpy as np, sys
np.save(sys.argv[1], np.ones((65536, 1), np.float32)); np.save(sys.argv[2], np.ones((1, 65536), np.float32))" \
	"$tmp/col.npy" "$tmp/row.npy" 2>/dev/null
if [ -f "$tmp/col.npy" ]; then
	check "add (65536,1) + (1,65536)" 2 "$TTX" op add --in "$tmp/col.npy" --in "$tmp/row.npy" --out "$tmp/o.npy"
	err_has "add refused" "ttx: op add: 1 x 65536 x 1 and 1 x 1 x 65536 need"
	err_has "add refused" "bytes of host memory, more than the limit of"
	check "--max-memory 1M" 2 "$TTX" op relu --in "$tmp/col.npy" --out "$tmp/o5.npy" --max-memory 1M
	err_has "--max-memory 1M" "more than the limit of 1048576 (--max-memory)"
	check "--max-memory bad" 2 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/o5.npy" --max-memory lots
	err_has "--max-memory bad" "--max-memory 'lots': expected a number of bytes"
	ok "no output after a refusal" [ ! -e "$tmp/o5.npy" ]
fi

# ---- 6. a batch's per-job budgets ----
cat > "$tmp/long.s" <<'EOF'
.rept 200000
SFPNOP
.endr
EOF
cat > "$tmp/jobs" <<EOF
run $tmp/long.s --engine interp
op relu --in $tmp/a.npy --out $tmp/b6.npy
EOF
check "batch --job-max-insns" 1 "$TTX" batch "$tmp/jobs" --job-max-insns 1000
err_has "batch --job-max-insns" "stopped after 1000 instructions"
ok "the other job ran" [ -f "$tmp/b6.npy" ]
# minutes of work in a small program: 100,000 MOPs of 127 x 127 SFPNOPs
cat > "$tmp/forever.s" <<'EOF'
.mmio 0xFFB80000, 127          # OuterCount
.mmio 0xFFB80004, 127          # InnerCount
.mmio 0xFFB80008, 0x02000000   # StartOp: NOP (skipped)
.mmio 0xFFB8000C, 0x02000000   # EndOp0
.mmio 0xFFB80010, 0x02000000   # EndOp1
.mmio 0xFFB80014, 0x8F000000   # LoopOp: SFPNOP
.mmio 0xFFB80018, 0x02000000   # LoopOp1
.mmio 0xFFB8001C, 0x8F000000   # Loop0Last
.mmio 0xFFB80020, 0x8F000000   # Loop1Last
.rept 100000
MOP 1, 0, 0
.endr
EOF
echo "run $tmp/forever.s --engine interp --dst-out $tmp/never.bin" > "$tmp/jobs"
check "batch --job-timeout" 1 timeout 120 "$TTX" batch "$tmp/jobs" --job-timeout 0.5
err_has "batch --job-timeout" "the job's time limit (--job-timeout)"
ok "a stopped job leaves no output" [ ! -e "$tmp/never.bin" ]
check "--job-timeout bad" 2 "$TTX" batch "$tmp/jobs" --job-timeout -1

# ---- interrupts: SIGINT stops a long run, nothing left behind ----
"$TTX" run "$tmp/forever.s" --engine interp --dst-out "$tmp/int.bin" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
ok "SIGINT: exit 130" [ $? = 130 ]
err_has "SIGINT" "interrupted after"
ok "SIGINT: no output" [ ! -e "$tmp/int.bin" ]
no_temps "SIGINT" "$tmp"

# ---- 14. exit codes and messages ----
check "demo --format int8" 2 "$TTX" demo --format int8
err_has "demo --format int8" "--format 'int8': expected fp32, bf16"
check "demo --format tf32" 2 "$TTX" demo --format tf32
check "op --stats=1" 2 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/o.npy" --stats=1
err_has "op --stats=1" "op: this option takes no value: '--stats=1'"
err_lacks "op --stats=1" "(null)"
check "run --strict=yes" 2 "$TTX" run "$tmp/p.s" --strict=yes
err_has "run --strict=yes" "run: this option takes no value: '--strict=yes'"
check "batch --progress=1" 2 "$TTX" batch "$tmp/jobs" --progress=1
err_has "batch --progress=1" "batch: this option takes no value: '--progress=1'"
check "op --out-format bad" 2 "$TTX" op relu --in "$tmp/a.npy" --out "$tmp/o.npy" --out-format nope
err_has "op --out-format bad" "--out-format 'nope'"
check "demo -xy" 2 "$TTX" demo -xy
err_has "demo -xy" "demo: unknown option: '-xy'"
check "op --in (no value)" 2 "$TTX" op relu --in
err_has "op --in (no value)" "op: this option needs a value: '--in'"
check "op --o (ambiguous)" 2 "$TTX" op relu --o x
err_has "op --o (ambiguous)" "op: ambiguous option (it abbreviates several): '--o'"

# ---- 17. --help and the man page list the same options ----
check "--help" 0 "$TTX" --help
cp "$tmp/out" "$tmp/help"
check "--man" 0 "$TTX" --man
cp "$tmp/out" "$tmp/man"
for opt in format fidelity size quick engine out-format perfetto clock-ghz list max-memory job-timeout \
	job-max-insns dst16-out l1-out; do
	ok "--help lists --$opt" grep -q -- "--$opt" "$tmp/help"
	ok "the man page lists --$opt" grep -q -- "\\\\-\\\\-$(echo $opt | sed 's/-/\\\\-/g')" "$tmp/man"
done
n_help=$(grep -c '^  -' "$tmp/help")
n_man=$(grep -c '^\.TP' "$tmp/man")
ok "--help and the man page list as many options ($n_help, $n_man)" [ "$n_help" = "$n_man" ]

# ---- 13. the demo's references model the input conversion ----
check "demo --format fp16 --size 64,256,64 --engine interp" 0 "$TTX" demo --format fp16 --size 64,256,64 \
	--engine interp
check "demo --format bfp8a --quick --engine interp" 0 "$TTX" demo --format bfp8a --quick --engine interp

echo "test_cli_hardening: $pass passed, $fail failed"
[ "$fail" = 0 ]
