"""The operations on a grid of a chip's tiles (grid=(R, C), ttx op --grid;
docs/ops.md "Grid operations"): every op against NumPy within its bound
(tests/ops_check.py) on random shapes, against the 1 x 1 op (bit for bit:
the tiles run the same kernels on the same blocks), with inputs in DRAM
and sharded in L1; results and device cycles the same on 1 and 2 host
threads; the matmul's data crossing the NoC as tt-metal's multicast
matmul moves it; bad grids, L1 overflow and the CLI."""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttx  # noqa: E402
from ops_check import check, inputs  # noqa: E402

try:
    ttx.op("abs", np.ones((1, 1), np.float32), grid=(1, 1))
except ttx.Error as e:
    if "without a RISC-V cross compiler" not in str(e):
        raise
    print("skipped: %s" % e)
    sys.exit(77)

rng = np.random.default_rng(30)
failures = []
cases = 0


def bits(a):
    return np.asarray(a, np.float32).view(np.uint32)


def case(name, x, grid, what="", **kw):
    """The grid op within the bound and equal to the 1 x 1 op."""
    global cases
    cases += 1
    stats = {}
    try:
        y = ttx.op(name, *x, grid=grid, stats=stats, **kw)
        one = ttx.op(name, *x, kernels="riscv", **{k: v for k, v in kw.items() if k != "shard"})
        q = [np.asarray(ttx.quantize(v, kw.get("fmt", "bf16")), np.float64) for v in x]
        check(name, y, q, fmt=kw.get("fmt", "bf16"), out_fmt=kw.get("out_fmt", "fp32"),
              fidelity=kw.get("fidelity", "hifi4"), param=kw.get("param"), dim=kw.get("dim", "rows"))
        if y.shape != one.shape or not np.array_equal(bits(y), bits(one)):
            diff = int(np.sum(bits(y) != bits(one))) if y.shape == one.shape else -1
            raise AssertionError("%d elements differ from the 1 x 1 op" % diff)
        if stats["cycles"] <= 0 or stats["grid"] != tuple(grid):
            raise AssertionError("stats %r" % stats)
    except (AssertionError, ttx.Error) as e:
        shapes = " and ".join("x".join(map(str, np.shape(v))) for v in x)
        failures.append("%s on %s, grid %s %s %s: %s" % (name, shapes, grid, what, kw, e))
        return None
    return stats


GRIDS = [(1, 1), (2, 2), (3, 2), (1, 4), (2, 3)]

# every op, random shapes (some not multiples of 32, some batched), grids
for i, name in enumerate(ttx.ops()):
    for k in range(2):
        g = GRIDS[(i + k) % len(GRIDS)]
        if name == "matmul":
            shape = (int(rng.integers(1, 200)), int(rng.integers(1, 300)), int(rng.integers(1, 200)))
        elif name in ("add", "sub", "mul"):
            s = (int(rng.integers(1, 150)), int(rng.integers(1, 200)))
            shape = (s, [s, (1, s[1]), (s[0], 1)][k % 3])
        elif k == 1:
            shape = (2, int(rng.integers(1, 80)), int(rng.integers(1, 200)))
        else:
            shape = (int(rng.integers(1, 150)), int(rng.integers(1, 300)))
        x = inputs(name, rng, shape)
        case(name, x, g)
    case(name, inputs(name, rng, (64, 64, 64) if name == "matmul" else
                      ((64, 96), (64, 96)) if name in ("add", "sub", "mul") else (64, 96)), (2, 2), "sharded",
         shard=True)

# matmul: the inner dimension split (FP32 partial sums in L1), formats and
# fidelities, shapes uneven over the grid, a batch
x = inputs("matmul", rng, (96, 1100, 64))
case("matmul", x, (3, 2), fmt="bfp8", out_fmt="bf16")
case("matmul", x, (2, 2), fidelity="hifi2", out_fmt="bf16")
case("matmul", inputs("matmul", rng, (250, 96, 170)), (4, 3), fidelity="lofi")
case("matmul", inputs("matmul", rng, (40, 64, 300)), (8, 8))
case("matmul", [rng.standard_normal((3, 40, 70)).astype(np.float32),
                rng.standard_normal((70, 50)).astype(np.float32)], (2, 2))
case("softmax", inputs("softmax", rng, (70, 500)), (2, 2), fmt="fp32")
case("layernorm", inputs("layernorm", rng, (65, 128)), (3, 3))
case("reduce_max", inputs("reduce_max", rng, (3, 70, 100)), (2, 2), dim="cols")

# the matmul's operands cross the NoC: senders read DRAM, multicast along
# rows and columns; with shard nothing moves
a, b = inputs("matmul", rng, (256, 256, 256))
s = case("matmul", [a, b], (4, 4), out_fmt="bf16")
if s is not None:
    # A and B read once from DRAM by the senders, C written once (bf16: 2 KiB a tile)
    want = (64 + 64 + 64) * 2048
    if s["dram_bytes"] != want:
        failures.append("matmul 256^3 on 4x4 moved %d bytes of DRAM, expected %d" % (s["dram_bytes"], want))
    if s["noc_packets"] < 64 or s["busiest_link_flits"] <= 0:
        failures.append("matmul 256^3 on 4x4: NoC stats %r" % s)
s = case("matmul", [a, b], (4, 4), "sharded", out_fmt="bf16", shard=True)
if s is not None and (s["dram_bytes"] or s["noc_packets"]):
    failures.append("a sharded matmul used DRAM or the NoC: %r" % s)

# results and device cycles the same on 1 and 2 host threads
for name, x, g in (("matmul", inputs("matmul", rng, (200, 300, 150)), (3, 3)),
                   ("softmax", inputs("softmax", rng, (100, 200)), (2, 4)),
                   ("add", inputs("add", rng, ((90, 100), (90, 100))), (4, 2))):
    cases += 1
    s1, s2 = {}, {}
    y1 = ttx.op(name, *x, grid=g, threads=1, stats=s1)
    y2 = ttx.op(name, *x, grid=g, threads=2, stats=s2)
    if not np.array_equal(bits(y1), bits(y2)) or s1["cycles"] != s2["cycles"] or \
            s1["noc_flits"] != s2["noc_flits"] or s1["busiest_link_flits"] != s2["busiest_link_flits"]:
        failures.append("%s on %s: 1 and 2 threads differ (cycles %d, %d)" % (name, g, s1["cycles"], s2["cycles"]))

# bad input
x = inputs("matmul", rng, (64, 64, 64))
for g, msg in (((9, 1), "grid rows"), ((0, 2), "grid rows"), ((2, 9), "grid cols")):
    cases += 1
    try:
        ttx.op("matmul", *x, grid=g)
        failures.append("grid %s accepted" % (g,))
    except (ttx.Error, ValueError) as e:
        if msg not in str(e):
            failures.append("grid %s: %s" % (g, e))
for bad in ({"shard": True}, {"threads": 2}):
    cases += 1
    try:
        ttx.op("exp", x[0], **bad)
        failures.append("%s without a grid accepted" % bad)
    except ttx.Error:
        pass
cases += 1
try:   # a band of softmax longer than a tile's L1 holds
    ttx.op("softmax", np.zeros((32, 32 * 700), np.float32), grid=(2, 2), fmt="fp32")
    failures.append("softmax with rows of 700 tiles accepted")
except ttx.Error as e:
    if "softmax" not in str(e) or "tile (0, 0)" not in str(e) or "bytes" not in str(e):
        failures.append("L1 overflow: %s" % e)

# the CLI
with tempfile.TemporaryDirectory() as d:
    ttx_bin = os.environ.get("TTX", "./ttx")
    np.save(os.path.join(d, "a.npy"), a)
    np.save(os.path.join(d, "b.npy"), b)
    out = os.path.join(d, "c.npy")

    def run(*args):
        return subprocess.run([ttx_bin, "op", "matmul", "--in", os.path.join(d, "a.npy"), "--in",
                               os.path.join(d, "b.npy"), "--out", out] + list(args), capture_output=True, text=True)
    cases += 1
    r = run("--grid", "2x2", "--stats", "--threads", "2")
    if r.returncode != 0 or "device cycles" not in r.stderr or "NoC:" not in r.stderr or "DRAM:" not in r.stderr \
            or "bottleneck" not in r.stderr:
        failures.append("ttx op --grid 2x2 --stats: %d %s" % (r.returncode, r.stderr))
    elif not np.array_equal(bits(np.load(out)), bits(ttx.op("matmul", a, b, grid=(2, 2)))):
        failures.append("ttx op --grid 2x2 differs from Python's")
    for args, msg in ((["--grid", "9x1"], "--grid '9x1'"), (["--grid", "2"], "--grid '2'"),
                      (["--shard"], "only with --grid"), (["--grid", "2x2", "--threads", "0"], "--threads '0'")):
        cases += 1
        os.path.exists(out) and os.remove(out)
        r = run(*args)
        if r.returncode != 2 or msg not in r.stderr or os.path.exists(out):
            failures.append("ttx op %s: exit %d, %s" % (" ".join(args), r.returncode, r.stderr.strip()))

for f in failures:
    print("FAIL:", f)
print("%d cases, %d failures" % (cases, len(failures)))
sys.exit(1 if failures else 0)
