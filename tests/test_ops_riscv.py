"""The tensor ops' kernels in C on RISCV T0-T2 (kernels="riscv", ttx op
--kernels riscv) give the bits of the assembler kernels the host pushes:
every operation, its shapes (batches, broadcasting, padding), input and
output formats, fidelities, dimensions and parameters, under both engines
and with the cycle model.  Also the Python core API on those programs."""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttx  # noqa: E402
from ops_check import DEFAULT_SHAPES, SHAPES, inputs  # noqa: E402

try:
    ttx.op("abs", np.ones((1, 1), np.float32), kernels="riscv")
except ttx.Error as e:
    if "without a RISC-V cross compiler" not in str(e):
        raise
    print("skipped: %s" % e)
    sys.exit(77)

rng = np.random.default_rng(11)
failures = []
cases = 0


def same(name, x, **kw):
    global cases
    cases += 1
    a = ttx.op(name, *x, kernels="asm", **kw)
    b = ttx.op(name, *x, kernels="riscv", **kw)
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    if a.shape != b.shape or not np.array_equal(a.view(np.uint32), b.view(np.uint32)):
        shapes = " and ".join("x".join(map(str, np.shape(v))) for v in x)
        diff = int(np.sum(a.view(np.uint32) != b.view(np.uint32))) if a.shape == b.shape else -1
        failures.append("%s on %s %s: %d elements differ" % (name, shapes, kw, diff))


for name in ttx.ops():
    for shape in SHAPES.get(name, DEFAULT_SHAPES)[:4]:
        x = inputs(name, rng, shape)
        same(name, x)
        same(name, x, fmt="fp32")
    x = inputs(name, rng, SHAPES.get(name, DEFAULT_SHAPES)[1])
    for fmt, out_fmt in (("bfp8", "bf16"), ("fp16", "fp16"), ("bfp4", "bfp8"), ("fp8", "fp32")):
        same(name, x, fmt=fmt, out_fmt=out_fmt)
    same(name, x, engine="interp")

x = inputs("matmul", rng, (64, 96, 32))
for fidelity in ("lofi", "hifi2", "hifi3"):
    same("matmul", x, fidelity=fidelity)
    same("mul", inputs("mul", rng, ((70, 100), (70, 1))), fidelity=fidelity)
same("matmul", inputs("matmul", rng, (96, 1100, 64)), fmt="bfp8")   # the inner dimension split over runs
same("matmul", [rng.standard_normal((3, 40, 70)).astype(np.float32),
                rng.standard_normal((70, 50)).astype(np.float32)])
for op in ("reduce_sum", "reduce_max"):
    for dim in ("rows", "cols", "all"):
        same(op, inputs(op, rng, (2, 70, 1300)), dim=dim)   # long bands: partial results
        same(op, inputs(op, rng, (64, 96)), dim=dim, fmt="fp32")
for p in (0, 1, 3, -2, 31, 40, -33, 0.5, -1.5):
    same("power", [rng.uniform(-3, 3, (40, 70)).astype(np.float32)], param=p)
same("leaky_relu", inputs("leaky_relu", rng, (64, 64)), param=0.2)
g, b = rng.uniform(-2, 2, (1, 100)).astype(np.float32), rng.uniform(-2, 2, (1, 100)).astype(np.float32)
same("layernorm", [rng.uniform(-4, 4, (70, 100)).astype(np.float32), g, b], param=1e-3)
same("softmax", [rng.uniform(-4, 4, (3, 20, 1500)).astype(np.float32)])
same("transpose", [rng.uniform(-4, 4, (70, 100)).astype(np.float32)], fmt="fp32", out_fmt="fp32")

# with the cycle model the cores' pushes take device time: the same bits
with ttx.Tile(timing=True) as t:
    for name in ("matmul", "exp", "add", "reduce_sum"):
        x = inputs(name, rng, SHAPES.get(name, DEFAULT_SHAPES)[1])
        same(name, x, tile=t)
    st = t.core_state("trisc1")
    if not (st["halted"] and st["insns"] > 0 and st["cycles"] >= st["insns"]):
        failures.append("trisc1 after a riscv kernel under timing: %s" % st)

# bad values
try:
    ttx.op("exp", np.ones((4, 4), np.float32), kernels="c")
    failures.append("kernels='c' was accepted")
except ttx.Error:
    pass

# the command line
TTX = os.environ.get("TTX", os.path.join(os.path.dirname(__file__), "..", "ttx"))
tmp = tempfile.mkdtemp(prefix="ttx-rv-")
a, b = os.path.join(tmp, "a.npy"), os.path.join(tmp, "b.npy")
np.save(a, rng.standard_normal((64, 96)).astype(np.float32))
np.save(b, rng.standard_normal((96, 64)).astype(np.float32))
outs = []
for k in ("asm", "riscv"):
    out = os.path.join(tmp, "c_%s.npy" % k)
    r = subprocess.run([TTX, "op", "matmul", "--in", a, "--in", b, "--out", out, "--kernels", k, "--stats"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        failures.append("ttx op --kernels %s: exit %d: %s" % (k, r.returncode, r.stderr))
    outs.append(np.load(out) if os.path.exists(out) else None)
    if k == "riscv" and "trisc1" not in r.stderr:
        failures.append("ttx op --kernels riscv --stats has no per-core line:\n" + r.stderr)
if outs[0] is None or outs[1] is None or not np.array_equal(outs[0], outs[1]):
    failures.append("ttx op matmul --kernels riscv differs from asm")
r = subprocess.run([TTX, "op", "exp", "--in", a, "--out", os.path.join(tmp, "x.npy"), "--kernels", "c"],
                   capture_output=True, text=True)
if r.returncode != 2 or "--kernels 'c'" not in r.stderr or os.path.exists(os.path.join(tmp, "x.npy")):
    failures.append("ttx op --kernels c: exit %d, %r" % (r.returncode, r.stderr))

for f in failures:
    print("FAIL:", f)
print("test_ops_riscv: %d op runs compared, %d failures" % (cases, len(failures)))
sys.exit(1 if failures else 0)
