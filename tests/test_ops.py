"""The tensor operations through the Python package (docs/ops.md): every op
against NumPy on random shapes within its documented bound, edge values,
bad input, both engines, and the tile-level API."""
import os
import sys
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttx  # noqa: E402
from ops_check import DEFAULT_SHAPES, SHAPES, check, inputs  # noqa: E402

rng = np.random.default_rng(20261125)
failures = []


def test(f):
    try:
        f()
        print("ok   %s" % f.__name__)
    except Exception:
        failures.append(f.__name__)
        print("FAIL %s" % f.__name__)
        traceback.print_exc()
    return f


def q64(xs, fmt):
    return [ttx.quantize(x, fmt).astype(np.float64) for x in xs]


def run_all(op, fmt, shapes=None, **kw):
    worst = 0
    for shape in shapes or SHAPES.get(op, DEFAULT_SHAPES):
        xs = inputs(op, rng, shape)
        y = ttx.op(op, *xs, fmt=fmt, **kw)
        worst = max(worst, check(op, y, q64(xs, fmt), fmt=fmt, what="%s %s" % (fmt, shape), **kw))
    return worst


@test
def every_op_is_tested():
    tested = {"matmul", "add", "sub", "mul", "reduce_sum", "reduce_max", "softmax", "layernorm", "transpose", "exp",
              "log", "reciprocal", "sqrt", "rsqrt", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu", "relu",
              "leaky_relu", "abs", "square", "power"}
    assert set(ttx.ops()) == tested, set(ttx.ops()) ^ tested


@test
def matmul_formats_and_fidelities():
    run_all("matmul", "bf16")
    for fmt in ("fp16", "fp32", "bfp8"):
        run_all("matmul", fmt, shapes=[(64, 96, 32), (33, 200, 70)])
    for fid in ("lofi", "hifi2", "hifi3"):
        run_all("matmul", "bf16", shapes=[(64, 128, 64)], fidelity=fid)


@test
def matmul_batched_and_output_formats():
    a = rng.standard_normal((3, 40, 70)).astype(np.float32)
    b = rng.standard_normal((70, 50)).astype(np.float32)
    check("matmul", ttx.matmul(a, b), q64([a, b], "bf16"))
    b3 = rng.standard_normal((3, 70, 50)).astype(np.float32)
    check("matmul", ttx.matmul(a, b3), q64([a, b3], "bf16"))
    for out in ("bf16", "bfp8"):
        check("matmul", ttx.matmul(a[0], b, out_fmt=out), q64([a[0], b], "bf16"), out_fmt=out)


@test
def elementwise():
    for op in ("add", "sub", "mul"):
        for fmt in ("bf16", "fp32", "fp16"):
            run_all(op, fmt)


@test
def reductions():
    for op in ("reduce_sum", "reduce_max"):
        for dim in ("rows", "cols", "all"):
            for fmt in ("fp32", "bf16"):
                run_all(op, fmt, dim=dim)
    # a band longer than one kernel run: reduced in parts
    x = rng.standard_normal((64, 64 * 33)).astype(np.float32)
    check("reduce_sum", ttx.reduce_sum(x, fmt="fp32", dim="all"), q64([x], "fp32"), dim="all", fmt="fp32")
    check("reduce_max", ttx.reduce_max(x, fmt="fp32", dim="rows"), q64([x], "fp32"), dim="rows", fmt="fp32")


@test
def softmax_layernorm_transpose():
    for op in ("softmax", "layernorm", "transpose"):
        for fmt in ("fp32", "bf16"):
            run_all(op, fmt)
    run_all("transpose", "fp16")
    run_all("transpose", "bfp8")


@test
def sfpu_functions():
    for op in ("exp", "log", "reciprocal", "sqrt", "rsqrt", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu", "relu",
               "leaky_relu", "abs", "square", "power"):
        run_all(op, "fp32")
        run_all(op, "bf16", shapes=DEFAULT_SHAPES[:2])
    for p in (3, -2, 0.5, 2.5):
        run_all("power", "fp32", shapes=[(32, 64)], param=p)
    run_all("leaky_relu", "fp32", shapes=[(32, 64)], param=0.2)


@test
def edge_values():
    """+-0, +-Inf, NaN, denormals (read as 0: the SFPU and Dst flush them),
    extremes, and inputs outside a function's domain: the documented results."""
    inf, nan = np.inf, np.nan
    x = np.array([0.0, -0.0, inf, -inf, nan, 1e-40, -1e-40, 3.0e38, -3.0e38, -1.0, 1.0, 100.0, -100.0], np.float32)
    want = {
        "exp": [1, 1, inf, 0, nan, 1, 1, inf, 0, np.exp(-1.0), np.e, inf, 0],
        "log": [-inf, -inf, inf, nan, nan, -inf, -inf, np.log(3e38), nan, nan, 0, np.log(100), nan],
        "sqrt": [0, -0.0, inf, nan, nan, 0, -0.0, np.sqrt(3e38), nan, nan, 1, 10, nan],
        "rsqrt": [inf, -inf, 0, nan, nan, inf, -inf, 1 / np.sqrt(3e38), nan, nan, 1, 0.1, nan],
        # |x| >= 2^126: 1/x is below the normal range, and the SFPU has no denormals
        "reciprocal": [inf, -inf, 0, -0.0, nan, inf, -inf, 0, -0.0, -1, 1, 0.01, -0.01],
        "relu": [0, 0, inf, 0, nan, 0, 0, 3e38, 0, 0, 1, 100, 0],
        "abs": [0, 0, inf, inf, nan, 0, 0, 3e38, 3e38, 1, 1, 100, 100],
        "tanh": [0, 0, 1, -1, nan, 0, 0, 1, -1, np.tanh(-1.0), np.tanh(1.0), 1, -1],
        "sigmoid": [0.5, 0.5, 1, 0, nan, 0.5, 0.5, 1, 0, 1 / (1 + np.e), 1 / (1 + np.exp(-1.0)), 1, 0],
    }
    for op, w in want.items():
        y = ttx.op(op, x, fmt="fp32")
        w = np.array(w, np.float64)
        for i in range(len(x)):
            ok = (np.isnan(w[i]) and np.isnan(y[i])) or (w[i] == 0 and y[i] == 0) or \
                abs(y[i] - w[i]) <= 2 ** -20 * abs(w[i]) or (np.isinf(w[i]) and y[i] == w[i])
            assert ok, "%s(%r) = %r, want %r" % (op, float(x[i]), float(y[i]), float(w[i]))
    # the sign of a reciprocal's zero and of the root of -0
    assert np.signbit(ttx.op("reciprocal", np.array([-inf], np.float32), fmt="fp32")[0])
    # softmax of large values is stable; a row of equal values is uniform
    s = ttx.softmax(np.array([[1e4, 1e4 - 1, -1e4], [5, 5, 5]], np.float32), fmt="fp32")
    assert abs(s[0, 0] - 1 / (1 + np.exp(-1))) < 1e-6 and s[0, 2] == 0 and np.allclose(s[1], 1 / 3)
    # reductions of zeros and of -Inf
    assert ttx.reduce_sum(np.zeros((40, 40), np.float32), dim="all")[0, 0] == 0
    m = np.full((33, 40), -np.inf, np.float32)
    m[5, 7] = -3
    assert ttx.reduce_max(m, dim="all", fmt="fp32")[0, 0] == -3
    # large magnitudes through matmul: FP32 accumulation does not overflow at 1e30
    a = np.full((32, 32), 1e18, np.float32)
    c = ttx.matmul(a, a, fmt="fp32")
    assert abs(c[0, 0] / 3.2e37 - 1) < 2 ** -8


@test
def bad_input():
    a = np.ones((32, 32), np.float32)
    cases = [
        (lambda: ttx.matmul(a, np.ones((33, 32), np.float32)), "columns must match"),
        (lambda: ttx.add(a, np.ones((5, 32), np.float32)), "do not broadcast"),
        (lambda: ttx.op("no_such_op", a), "unknown operation"),
        (lambda: ttx.exp(np.ones((2, 2, 2, 2), np.float32)), "1-D, 2-D or 3-D"),
        (lambda: ttx.exp(np.ones((0, 3), np.float32)), "non-empty"),
        (lambda: ttx.exp(np.array(["a"])), "not a number type"),
        (lambda: ttx.exp(a, fmt="int8"), "int8"),
        (lambda: ttx.exp(a, fmt="nope"), "unknown format"),
        (lambda: ttx.matmul(a, a, fidelity="max"), "fidelity"),
        (lambda: ttx.reduce_sum(a, dim="diagonal"), "dim"),
        (lambda: ttx.layernorm(a, np.ones(31)), "gamma and beta"),
        (lambda: ttx.layernorm(a, np.ones(31), np.ones(31)), "must have 32 values"),
        (lambda: ttx.exp(a, engine="gpu"), "engine"),
    ]
    for f, msg in cases:
        try:
            f()
        except ttx.Error as e:
            assert msg in str(e), "%r not in %r" % (msg, str(e))
        else:
            raise AssertionError("no error for %s" % msg)


@test
def engines_agree():
    if not ttx.jit_available():
        return
    xs = [rng.standard_normal((64, 96)).astype(np.float32), rng.standard_normal((96, 64)).astype(np.float32)]
    for op, args in (("matmul", xs), ("gelu", xs[:1]), ("softmax", xs[:1]), ("layernorm", xs[:1]),
                     ("add", [xs[0], xs[0][:1]])):
        y = [ttx.op(op, *args, engine=e).view(np.uint32) for e in ("interp", "jit", "auto")]
        assert np.array_equal(y[0], y[1]) and np.array_equal(y[0], y[2]), op


@test
def tiles_share_compiled_code():
    # every Tile of the process (and so every ttx.op call) uses one JIT
    # code cache, and --engine jit runs its blocks compiled from the first
    # even when an auto tile of an earlier test left them queued for the
    # cache's compile thread
    if not ttx.jit_available():
        return
    x = rng.standard_normal((64, 64)).astype(np.float32)
    with ttx.Tile(engine="jit") as t1, ttx.Tile(engine="jit") as t2, ttx.Tile() as t3:
        assert t1._opt.jit_cache and t1._opt.jit_cache == t2._opt.jit_cache == t3._opt.jit_cache
        y1 = ttx.gelu(x, tile=t1)
        y2 = ttx.gelu(x, tile=t2)
        for s in (t1.stats(), t2.stats()):
            assert s["insns_jit"] > s["insns"] // 2, s
        assert np.array_equal(y1.view(np.uint32), y2.view(np.uint32))


@test
def the_work_runs_on_the_tile():
    a = rng.standard_normal((64, 64)).astype(np.float32)
    with ttx.Tile(engine="interp") as t:
        ttx.matmul(a, a, tile=t, fidelity="hifi2")
        s = t.stats()["by_opcode"]
        assert s["MVMUL"] == 4 * 2 * 2 * 16 and s["UNPACR"] == 16 and s["PACR"] == 4, s
    with ttx.Tile(engine="interp") as t:
        ttx.exp(a, tile=t)
        s = t.stats()["by_opcode"]
        assert s["SFPLOAD"] == 4 * 32 and s["SFPSTORE"] == 4 * 32 and s["SFPMAD"] > 4 * 32 * 8, s
        assert s["UNPACR"] == 4 and s["PACR"] == 4 and s["MOVA2D"] == 4 * 8, s


@test
def progress_is_reported():
    seen = []
    ttx.matmul(np.ones((128, 64), np.float32), np.ones((64, 128), np.float32), progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen), seen


@test
def tile_api():
    with ttx.Tile(engine="interp") as t:
        t.l1_write(0x1000, b"\x01\x02\x03\x04")
        assert t.l1_read(0x1000, 4) == b"\x01\x02\x03\x04"
        d = np.arange(512 * 16, dtype=np.float32).reshape(512, 16)
        t.set_dst32(d)
        assert np.array_equal(t.dst32(), d)
        t.push(0, ["SFPLOAD 1, 3, 0, 4", "SFPADD 1, 10, 1, 2, 0", "SFPNOP", "SFPSTORE 2, 3, 0, 8"])
        assert t.run()
        assert np.array_equal(t.dst32()[8:12, ::2].reshape(-1), 2 * d[4:8, ::2].reshape(-1))
        assert t.lreg(1).view(np.float32)[0] == d[4, 0]
        t.set_gpr(0, 5, 1234)
        assert t.gpr(0, 5) == 1234
        t.set_cfg("ALU_ACC_CTRL_Fp32_enabled", 1)
        assert t.cfg("ALU_ACC_CTRL_Fp32_enabled") == 1
        assert t.stats()["by_opcode"]["SFPLOAD"] == 1
        t.run_program(".thread 1\nSFPLOADI 3, 0, 0x4000\n")
        assert t.lreg(3).view(np.float32)[0] == 2.0
        try:
            t.run_program("SEMWAIT 2, 1, 1\nSEMPOST 1\n")   # the post waits forever: a deadlock
        except ttx.Fault as e:
            assert "deadlock" in str(e) or "blocked" in str(e), str(e)
        else:
            raise AssertionError("no fault")
        try:
            t.l1_write(0x16E000, b"x")
        except ttx.Error:
            pass
        else:
            raise AssertionError("no error past L1")
    assert ttx.assemble("SFPNOP\n# comment\nNOP") == [0x8F000000, 0x02000000]
    assert ttx.disassemble(0x8F000000) == "SFPNOP"


@test
def device_cycles():
    # the cycle model from Python (docs/timing.md): SFPMAD, SFPNOP, SFPMAD
    # issue at 0, 1, 2 and the last result is ready at 4
    with ttx.Tile(engine="interp", timing=True) as t:
        t.run_program("SFPMAD 0, 0, 9, 1, 0\nSFPNOP\nSFPMAD 1, 1, 9, 2, 0\n")
        c = t.cycles()
        assert c["device_cycles"] == 4, c
        assert c["busy_by_unit"]["sfpu"] == 3 and c["threads"][0]["issued"] == 3, c
    # a 32x32 tile matmul at LoFi: 16 MVMULs of 2048 MACs
    with ttx.Tile(timing=True) as t:
        a = np.ones((32, 32), np.float32)
        ttx.matmul(a, a, fidelity="lofi", tile=t)
        c = t.cycles()
        assert c["macs"] == 16 * 2048 and c["device_cycles"] > 256, c
        assert c["bottleneck"] == "pack", c
        assert c["l1_bytes_read"] == 2 * 32 * 32 * 2, c   # two BF16 tiles
    # without timing=True nothing is counted; run_cycles refuses
    with ttx.Tile() as t:
        t.run_program("SFPNOP\n")
        assert t.cycles()["device_cycles"] == 0
        try:
            t.run_cycles(10)
        except ttx.Error:
            pass
        else:
            raise AssertionError("run_cycles without the cycle model")


if __name__ == "__main__":
    print("%d failed" % len(failures) if failures else "all passed")
    sys.exit(1 if failures else 0)
