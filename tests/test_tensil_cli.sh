#!/bin/sh
# ttx tensil (app/cli_tensil.c, docs/tensil.md): the reference cases run
# through the command, every program disassembled and reassembled to the
# same bytes, a model on CSV and .npy inputs, and bad input (exit 2 for
# files that are not what they claim, 1 for a fault while running; no
# output left behind either way).
set -u
TTX=${TTX:-./ttx}
V=${TTX_SRCDIR:-.}/tests/vectors/tensil
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { name=$1; shift; if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $name"; fi; }
check() { # name expected-exit command...
	name=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	if [ "$got" = "$want" ]; then pass=$((pass+1)); else
		fail=$((fail+1)); echo "FAIL: $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
err_has() { ok "$1: says '$2'" grep -qF -- "$2" "$tmp/err" || { echo "  stderr was:"; cat "$tmp/err"; }; }

for c in 0000 0013 0021 0037; do
	check "run $c" 0 "$TTX" tensil run "$V/$c.tprog" --arch "$V/$c.tarch" --dram0-in "$V/$c.dram0.bin" \
		--dram1-in "$V/$c.dram1.bin" --local-in "$V/$c.local.bin" --dram0-out "$tmp/d0" --stats
	ok "run $c: DRAM0 as the reference" cmp -s "$tmp/d0" "$V/$c.expect"
	err_has "run $c --stats" "MACs:"
done
n=0
for p in "$V"/*.tprog; do
	c=$(basename "$p" .tprog)
	"$TTX" tensil disasm "$p" --arch "$V/$c.tarch" -o "$tmp/$c.tasm" && \
		"$TTX" tensil asm "$tmp/$c.tasm" --arch "$V/$c.tarch" -o "$tmp/$c.re" && cmp -s "$tmp/$c.re" "$p" && n=$((n+1))
done
ok "disasm and asm give back all 40 programs ($n)" [ "$n" -eq 40 ]
# --trace: one line an instruction
check "trace" 0 "$TTX" tensil run "$V/0003.tprog" --arch "$V/0003.tarch" --trace "$tmp/trace"
ok "trace: every instruction" [ "$(wc -l < "$tmp/trace")" -eq $(($(wc -c < "$V/0003.tprog") / 4)) ]

# a model: y = W x + b
A="$V/0000.tarch"
cat > "$tmp/m.tasm" <<'ASM'
datamove dram1>local local 0 dram1 0 count 5
loadweights local 0 count 5
datamove dram0>local local 8 dram0 4 count 2
matmul local 8 acc 0 count 2
datamove acc>local local 10 acc 0 count 2
datamove local>dram0 local 10 dram0 20 count 2
ASM
check "model: assemble" 0 "$TTX" tensil asm "$tmp/m.tasm" --arch "$A" -o "$tmp/m.tprog"
"$PY" - "$tmp" <<'PYEOF'
import sys
import numpy as np
w = (np.arange(20).reshape(5, 4) % 7 - 3).astype(np.float64)   # bias, 4 rows
np.round(w * 256).astype('<i2').tofile(sys.argv[1] + "/m.tdata")
PYEOF
cat > "$tmp/m.tmodel" <<EOF
{"name": "m", "program": {"file_name": "m.tprog", "size": 0},
 "consts": [{"file_name": "m.tdata", "base": 0, "size": 5}],
 "inputs": [{"name": "x", "base": 4, "size": 2}],
 "outputs": [{"name": "y", "base": 20, "size": 2}],
 "arch": $(cat "$A"), "load_consts_to_local": false}
EOF
printf '1, 0.5, -1, 2\n0.25 0 0 1\n' > "$tmp/x.csv"
check "model: CSV in, npy out" 0 "$TTX" tensil model "$tmp/m.tmodel" --input "x=$tmp/x.csv" --output "y=$tmp/y.npy"
"$PY" - "$tmp" > "$tmp/py.out" 2>&1 <<'PYEOF'
import sys
import numpy as np
d = sys.argv[1]
w = (np.arange(20).reshape(5, 4) % 7 - 3).astype(np.float64)
x = np.array([[1, 0.5, -1, 2], [0.25, 0, 0, 1]])
want = x @ w[1:] + w[0]
got = np.load(d + "/y.npy")
assert got.shape == (2, 4), got.shape
assert np.array_equal(got, want), (got, want)
np.save(d + "/x.npy", x.astype(np.float32))
PYEOF
ok "model: the result is W x + b" [ $? -eq 0 ] || cat "$tmp/py.out"
check "model: npy in" 0 "$TTX" tensil model "$tmp/m.tmodel" --input "$tmp/x.npy" --output "y=$tmp/y2.npy"
ok "model: the same" cmp -s "$tmp/y.npy" "$tmp/y2.npy"

# bad input
bad() { # name exit message args...
	name=$1 want=$2 msg=$3; shift 3
	rm -f "$tmp/never"
	check "$name" "$want" "$@"
	err_has "$name" "$msg"
	ok "$name: nothing written" [ ! -e "$tmp/never" ]
}
bad "no --arch" 2 "--arch A.tarch is missing" "$TTX" tensil run "$V/0000.tprog"
printf '{"data_type": "FP16BP8", "array_size": 4}' > "$tmp/bad.tarch"
bad "a .tarch without keys" 2 'bad.tarch: the key "dram0_depth" is missing' "$TTX" tensil run "$V/0000.tprog" \
	--arch "$tmp/bad.tarch" --dram0-out "$tmp/never"
head -c 7 "$V/0000.tprog" > "$tmp/short.tprog"
bad "a partial instruction" 2 "short.tprog: 7 bytes is not a whole number of 4-byte instructions" \
	"$TTX" tensil run "$tmp/short.tprog" --arch "$A" --dram0-out "$tmp/never"
printf 'matmul local 60@4 acc 0 count 2\n' > "$tmp/f.tasm"
"$TTX" tensil asm "$tmp/f.tasm" --arch "$A" -o "$tmp/f.tprog"
check "a fault running" 1 "$TTX" tensil run "$tmp/f.tprog" --arch "$A" --acc-out "$tmp/acc"
err_has "a fault running" "f.tprog: instruction #0 (matmul): 2 vectors from local memory address 60, stride 4"
ok "a fault running: the outputs show the state" [ -s "$tmp/acc" ]
head -c 5 "$V/0000.dram0.bin" > "$tmp/odd.bin"
bad "an image of part of a vector" 2 "not a whole number of vectors" "$TTX" tensil run "$V/0000.tprog" --arch "$A" \
	--dram0-in "$tmp/odd.bin" --dram0-out "$tmp/never"
printf 'matmul local 99 acc 0 count 1\n' > "$tmp/e.tasm"
bad "asm error" 2 "e.tasm:1: local address 99 does not fit its 6 bits" "$TTX" tensil asm "$tmp/e.tasm" --arch "$A" \
	-o "$tmp/never"
bad "unknown sub-command" 2 "expected run, asm, disasm or model" "$TTX" tensil frob x
bad "model input count" 2 "has 1 input, 0 given" "$TTX" tensil model "$tmp/m.tmodel" --output "y=$tmp/never"
printf '1, x\n' > "$tmp/bad.csv"
bad "model: a bad CSV" 2 "bad.csv:1: 'x" "$TTX" tensil model "$tmp/m.tmodel" --input "x=$tmp/bad.csv" \
	--output "y=$tmp/never"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
