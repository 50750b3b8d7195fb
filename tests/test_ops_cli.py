"""ttx op: every operation through the command line with .npy files, against
NumPy within its documented bound (docs/ops.md); --stats; --list; bad input
(exit 2, nothing written)."""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttx  # noqa: E402
from ops_check import DEFAULT_SHAPES, SHAPES, check, inputs  # noqa: E402

TTX = os.environ.get("TTX", os.path.join(os.path.dirname(__file__), "..", "ttx"))
tmp = tempfile.mkdtemp(prefix="ttx-op-")
rng = np.random.default_rng(7)
failures = []


def run(args, expect=0):
    r = subprocess.run([TTX] + args, capture_output=True, text=True)
    if r.returncode != expect:
        raise AssertionError("ttx %s: exit %d, expected %d\n%s" % (" ".join(args), r.returncode, expect, r.stderr))
    return r


def op(name, arrays, *opts, expect=0, out="out.npy"):
    args = ["op", name]
    for i, a in enumerate(arrays):
        path = os.path.join(tmp, "in%d.npy" % i)
        np.save(path, a)
        args += ["--in", path]
    path = os.path.join(tmp, out)
    if os.path.exists(path):
        os.remove(path)
    r = run(args + ["--out", path] + list(opts), expect)
    if expect:
        assert not os.path.exists(path), "an output was written after an error"
        return r
    return np.load(path), r


def case(f):
    try:
        f()
        print("ok   %s" % f.__name__)
    except Exception as e:
        failures.append(f.__name__)
        print("FAIL %s: %s" % (f.__name__, e))
    return f


@case
def every_op_on_random_shapes():
    for name in ttx.ops():
        fmt = "bf16" if name in ("matmul", "add", "sub", "mul") else "fp32"
        shapes = SHAPES.get(name, DEFAULT_SHAPES)
        for shape in shapes:
            xs = inputs(name, rng, shape)
            dim = ["rows", "cols", "all"][len(str(shape)) % 3]
            opts = ["--format", fmt] + (["--dim", dim] if name.startswith("reduce") else [])
            y, _ = op(name, xs, *opts)
            q = [ttx.quantize(x, fmt).astype(np.float64) for x in xs]
            check(name, y, q, fmt=fmt, dim=dim, what="(cli) %s" % (shape,))
        assert len(shapes) >= 5, name


@case
def input_dtypes_and_dimensions():
    x = rng.uniform(-3, 3, (40, 50)).astype(np.float32)
    for dt in (np.float16, np.float64, np.int8, np.int16, np.int32, np.uint8):
        a = (x * 20).astype(dt) if np.dtype(dt).kind in "iu" else x.astype(dt)
        y, _ = op("abs", [a], "--format", "fp32")
        assert y.dtype == np.float32 and y.shape == a.shape
        assert np.array_equal(y, np.abs(a.astype(np.float64)).astype(np.float32)), dt
    v = rng.uniform(-3, 3, 100).astype(np.float32)
    y, _ = op("relu", [v], "--format", "fp32")
    assert y.shape == (100,) and np.array_equal(y, np.maximum(v, 0))
    y, _ = op("reduce_sum", [v], "--format", "fp32", "--dim", "rows")
    assert y.shape == (1,)
    b = rng.uniform(-3, 3, (3, 40, 50)).astype(np.float32)
    y, _ = op("transpose", [b], "--format", "fp32")
    assert y.shape == (3, 50, 40) and np.array_equal(y, np.swapaxes(b, 1, 2))


@case
def stats_show_the_units():
    a = rng.standard_normal((64, 64)).astype(np.float32)
    _, r = op("matmul", [a, a], "--stats", "--fidelity", "hifi2")
    assert "by unit:" in r.stderr and "matrix" in r.stderr and "unpack" in r.stderr and "pack" in r.stderr, r.stderr
    line = [l for l in r.stderr.splitlines() if l.startswith("by instruction:")][0]
    assert "MVMUL 256" in line and "UNPACR 16" in line, line
    _, r = op("exp", [a], "--stats")
    line = [l for l in r.stderr.splitlines() if l.startswith("by instruction:")][0]
    assert "SFPMAD" in line and "SFPLOAD 128" in line, line
    assert " sfpu " in r.stderr, r.stderr


@case
def sfpu_kernels_run_compiled():
    # the math thread's SFPU code runs compiled while the unpacker and
    # packer threads wait (docs/jit.md), and a kernel's 32 passes are the
    # same words, so it compiles a handful of blocks (docs/ops.md "Speed")
    if "JIT" not in run(["--version"]).stdout:
        return
    a = rng.standard_normal((96, 128)).astype(np.float32)
    for name, most in (("gelu", 10), ("softmax", 30), ("layernorm", 30), ("reduce_sum", 16)):
        _, r = op(name, [a], "--stats", "--engine", "jit")
        m = re.search(r"jit: ([0-9.]+)% of instructions in compiled blocks .*?, ([0-9]+) blocks compiled", r.stderr)
        assert m, r.stderr
        share, blocks = float(m.group(1)), int(m.group(2))
        assert share > 80 and blocks <= most, (name, share, blocks)


@case
def list_ops():
    r = run(["op", "--list"])
    for name in ttx.ops():
        assert "\n" + name + " " in r.stdout, name
    assert "--dim rows|cols|all" in r.stdout


@case
def bad_input():
    a = np.ones((32, 32), np.float32)
    cases = [
        ("matmul", [a, np.ones((33, 32), np.float32)], [], "columns must match"),
        ("add", [a, np.ones((5, 32), np.float32)], [], "do not broadcast"),
        ("nope", [a], [], "unknown operation"),
        ("exp", [a], ["--format", "int8"], "int8"),
        ("exp", [a], ["--format", "bogus"], "--format"),
        ("exp", [a], ["--fidelity", "max"], "--fidelity"),
        ("reduce_sum", [a], ["--dim", "diag"], "--dim"),
        ("exp", [a], ["--param", "x1"], "--param"),
        ("exp", [a], ["--frobnicate"], "unknown"),
        ("exp", [a, a], [], "takes 1 --in file"),
        ("matmul", [a], [], "takes 2 --in files"),
        ("exp", [np.ones((2, 2, 2, 2), np.float32)], [], "more than 3 dimensions"),
        ("exp", [np.zeros((0, 4), np.float32)], [], "empty"),
        ("exp", [np.ones(4, np.complex64)], [], "dtype"),
        ("exp", [np.ones(4, ">f4")], [], "dtype"),
        ("exp", [np.asfortranarray(np.ones((3, 4), np.float32))], [], "Fortran"),
        ("layernorm", [a, np.ones(31, np.float32), np.ones(31, np.float32)], [], "must have 32 values"),
    ]
    for name, arrays, opts, msg in cases:
        r = op(name, arrays, *opts, expect=2)
        assert msg in r.stderr, "%s %s: %r not in %r" % (name, opts, msg, r.stderr)
    # files: missing, truncated, corrupt
    good = os.path.join(tmp, "good.npy")
    np.save(good, a)
    data = open(good, "rb").read()
    for content, msg in ((data[:100], "truncated"), (b"PK\x03\x04junk", "not a NumPy"),
                         (data[:8] + b"\xff\xff" + data[10:], "truncated header"),
                         (data.replace(b"'descr'", b"'dexcr'"), "corrupt header"), (data + b"xx", "after the data")):
        path = os.path.join(tmp, "bad.npy")
        open(path, "wb").write(content)
        r = run(["op", "exp", "--in", path, "--out", os.path.join(tmp, "o.npy")], 2)
        assert msg in r.stderr, (msg, r.stderr)
    r = run(["op", "exp", "--in", os.path.join(tmp, "missing.npy"), "--out", os.path.join(tmp, "o.npy")], 2)
    assert "No such file" in r.stderr
    r = run(["op", "exp", "--in", good], 2)
    assert "--out" in r.stderr
    assert not os.path.exists(os.path.join(tmp, "o.npy"))


if __name__ == "__main__":
    print("%d failed" % len(failures) if failures else "all passed")
    sys.exit(1 if failures else 0)
