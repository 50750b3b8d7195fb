"""References and error bounds of the tensor operations (docs/ops.md), for
test_ops.py (the Python package) and test_ops_cli.py (ttx op).

Every bound is on |y - ref|, ref computed in float64 from the inputs as the
tile receives them (ttx.quantize: the conversion to the L1 format), so that
it covers the tile's arithmetic and the result's conversion to out_fmt."""
import math

import numpy as np

U = {"fp32": 2.0 ** -24, "bf16": 2.0 ** -9, "fp16": 2.0 ** -11, "fp8": 2.0 ** -3, "bfp8": 2.0 ** -7,
     "bfp4": 2.0 ** -3, "bfp8a": 2.0 ** -7}
BF16_FAMILY = ("bf16", "bfp8", "bfp4", "bfp2")


def erf(x):
    return np.vectorize(math.erf)(x)


def erfc(x):
    return np.vectorize(math.erfc)(x)


def reference(op, q, param=None, dim="rows"):
    """float64 result of `op` on the float64 inputs q (a list)."""
    x = q[0]
    with np.errstate(all="ignore"):
        if op == "matmul":
            return np.matmul(x, q[1])
        if op in ("add", "sub", "mul"):
            return {"add": np.add, "sub": np.subtract, "mul": np.multiply}[op](x, q[1])
        if op in ("reduce_sum", "reduce_max"):
            axis = {"rows": -1, "cols": -2, "all": (-2, -1)}[dim]
            return (np.sum if op == "reduce_sum" else np.max)(x, axis=axis, keepdims=True)
        if op == "softmax":
            e = np.exp(x - x.max(-1, keepdims=True))
            return e / e.sum(-1, keepdims=True)
        if op == "layernorm":
            m = x.mean(-1, keepdims=True)
            y = (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + (1e-5 if param is None else param))
            return y * q[1] + q[2] if len(q) == 3 else y
        if op == "transpose":
            return np.swapaxes(x, -1, -2)
        f = {
            "exp": np.exp, "log": np.log, "reciprocal": lambda v: 1 / v, "sqrt": np.sqrt,
            "rsqrt": lambda v: 1 / np.sqrt(v), "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh,
            "gelu": lambda v: 0.5 * v * erfc(-v / math.sqrt(2)),
            "gelu_tanh": lambda v: 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3))),
            "silu": lambda v: v / (1 + np.exp(-v)), "relu": lambda v: np.maximum(v, 0),
            "leaky_relu": lambda v: np.where(v < 0, (0.01 if param is None else param) * v, v),
            "abs": np.abs, "square": np.square, "power": lambda v: v ** (2 if param is None else param),
        }[op]
        return f(x)


PHASES = {"lofi": 1, "hifi2": 2, "hifi3": 3, "hifi4": 4}


def product_loss(fmt, fidelity, ea=None, eb=None):
    """docs/ops.md: the largest relative error of one Matrix Unit product of
    two values of `fmt` at `fidelity`: the bits the missing fidelity phases
    would have multiplied (phase 1: SrcA's bits below its top 5; phase 2:
    SrcB's below its top 7; phase 3: both), SrcA's ignored last bit (FP16,
    TF32), FP32's truncation to TF32; and for the FP16 family the phases
    whose reference exponent ea + eb - offset falls below -14 (docs/matrix.md
    departure 11), and operands below FP16's normal range (read as 0);
    ea, eb = floor(log2|a|), floor(log2|b|) (arrays)."""
    bf16 = fmt in BF16_FAMILY
    part = {1: 2.0 ** -4, 2: 2.0 ** -7 if bf16 else 2.0 ** -6, 3: 2.0 ** -11 if bf16 else 2.0 ** -10}
    offset = {0: 0, 1: 5, 2: 7, 3: 12}
    n = PHASES[fidelity]
    base = sum(part[p] for p in (1, 2, 3) if p >= n) + (0 if bf16 else 2.0 ** -10)
    if fmt == "fp32":
        base += 2.0 ** -9
    if bf16 or ea is None:
        return base
    e = np.asarray(ea) + np.asarray(eb)
    loss = np.full(np.shape(e), base, np.float64)
    loss = np.where((np.asarray(ea) < -14) | (np.asarray(eb) < -14), 1.0, loss)
    for p in range(n):
        dropped = np.asarray(e) - offset[p] < -14
        loss = np.where(dropped, loss + (1.0 if p == 0 else part[p]), loss)
    return np.minimum(loss, 1.0)


def exponents(x):
    with np.errstate(divide="ignore"):
        return np.floor(np.log2(np.abs(x))).astype(np.int64)


def matmul_eps(fmt, fidelity, k):
    """docs/ops.md: |C - AB| <= eps sum|a||b| (BF16 family; the FP16 family
    adds product_loss's flushed phases product by product)."""
    return product_loss(fmt, fidelity) + 2 ** -8 + (k // 32 + 1) * 2 ** -23


def out_rounding(ref, out_fmt):
    return 0 if out_fmt == "fp32" else U.get(out_fmt, 2 ** -7) * 2 * np.abs(ref)


def bound(op, q, ref, fmt="bf16", out_fmt="fp32", fidelity="hifi4", param=None, dim="rows"):
    """The allowed |y - ref|, element by element."""
    x = q[0]
    a = np.abs(ref)
    tiny = 2.0 ** -126
    if op == "matmul":
        y = q[1]
        b = matmul_eps(fmt, fidelity, x.shape[-1]) * np.matmul(np.abs(x), np.abs(y))
        if fmt not in BF16_FAMILY and fmt != "fp32":
            prod = np.abs(x[..., :, :, None] * y[..., None, :, :])
            loss = product_loss(fmt, fidelity, exponents(x)[..., :, :, None], exponents(y)[..., None, :, :])
            b = b + np.sum(prod * (loss - product_loss(fmt, fidelity)), axis=-2)
    elif op in ("add", "sub"):
        if fmt == "fp32":
            b = 2 ** -23 * a
        else:
            b = 2 ** -10 * np.maximum(np.abs(x), np.abs(q[1])) + 2 ** -23 * a
    elif op == "mul":
        if fmt == "fp32":
            b = 2 ** -22 * a
        else:
            x1 = np.broadcast_to(x, ref.shape)
            y1 = np.broadcast_to(q[1], ref.shape)
            b = (product_loss(fmt, fidelity, exponents(x1), exponents(y1)) + 2 ** -10) * a
    elif op == "reduce_sum":
        axis = {"rows": -1, "cols": -2, "all": (-2, -1)}[dim]
        n = x.size // ref.size
        b = (n + 2) * 2 ** -24 * np.sum(np.abs(x), axis=axis, keepdims=True)
    elif op in ("reduce_max", "relu", "abs", "transpose"):
        b = 0 * a
    elif op == "softmax":
        b = (2 ** -20 + x.shape[-1] * 2 ** -24) * a + tiny
    elif op == "layernorm":
        n = x.shape[-1]
        g = np.abs(q[1]) if len(q) == 3 else 1
        b = (2 ** -20 + n * 2 ** -22) * (1 + np.abs(reference(op, q[:1], param))) * np.maximum(g, 1) + 2 ** -22 * a
    elif op == "gelu":
        b = 2e-7 * np.abs(x) + 2 ** -20 * a + tiny
    elif op == "gelu_tanh":
        b = 2 ** -20 * a + 2 ** -22 * np.abs(x) + tiny
    elif op == "log":
        b = 2 ** -21 * a + 2 ** -22
    elif op == "power":
        p = 2 if param is None else param
        if p == int(p):
            b = abs(p) * 2 ** -23 * a + tiny
        else:
            b = 2 ** -20 * (1 + np.abs(p * np.log(np.abs(x) + tiny))) * a + tiny
    elif op in ("leaky_relu", "square"):
        b = 2 ** -23 * a
    else:   # exp, reciprocal, sqrt, rsqrt, sigmoid, tanh, silu
        b = 2 ** -20 * a + tiny
    return b + out_rounding(ref, out_fmt)


def check(op, y, q, fmt="bf16", out_fmt="fp32", fidelity="hifi4", param=None, dim="rows", what=""):
    """Assert y is within the bound of the reference; returns the worst
    error / bound."""
    ref = reference(op, q, param, dim)
    y = np.asarray(y, np.float64).reshape(np.shape(ref))
    b = bound(op, q, ref, fmt, out_fmt, fidelity, param, dim)
    with np.errstate(all="ignore"):
        same_special = (np.isnan(ref) & np.isnan(y)) | (np.isinf(ref) & (y == ref))
        err = np.where(same_special, 0.0, np.abs(y - ref))
        ratio = np.where(err == 0, 0.0, err / np.where(b > 0, b, 1e-300))
    bad = ~(err <= b)
    if op == "matmul" and bad.any():
        # docs/ops.md: an accumulation that cancels to exactly -1 unit of the
        # FP32 grid is written as -2^(R+4) (docs/matrix.md departure 10, as
        # Tenstorrent's simulator does), about once in 2^23 accumulation
        # steps: such outliers are negative powers of two and rare
        with np.errstate(all="ignore"):
            d = y - ref
            p2 = 2.0 ** np.round(np.log2(np.abs(d)))
            quirk = bad & (d < 0) & (np.abs(np.abs(d) / p2 - 1) < 2 ** -6)
        steps = ref.size * (q[0].shape[-1] // 16 + 1) * PHASES[fidelity]
        if quirk.sum() <= max(2, steps // 2 ** 21):
            bad &= ~quirk
            ratio = np.where(quirk, 0.0, ratio)
    if bad.any():
        i = np.unravel_index(np.argmax(np.where(bad, 1, 0)), bad.shape)
        inputs = ", ".join(repr(float(v[i])) if np.shape(v) == np.shape(ref) else repr(np.shape(v)) for v in q)
        raise AssertionError("%s %s: %d values out of bound; at %s: got %r, want %r +- %r (inputs %s)"
                             % (op, what, int(bad.sum()), i, float(y[i]), float(ref[i]), float(np.broadcast_to(b, ref.shape)[i]), inputs))
    return float(np.max(ratio)) if ratio.size else 0.0


# Inputs for each op: random values where the function is interesting, and
# shapes (at least five an op, some not multiples of 32, some batched).
def inputs(op, rng, shape):
    def r(s, lo=-4, hi=4):
        return rng.uniform(lo, hi, s).astype(np.float32)
    if op == "matmul":
        m, k, n = shape
        return [rng.standard_normal(m * k).reshape(m, k).astype(np.float32),
                rng.standard_normal(k * n).reshape(k, n).astype(np.float32)]
    if op in ("add", "sub", "mul"):
        return [r(shape[0]), r(shape[1])]
    if op in ("log", "sqrt", "rsqrt"):
        return [np.exp(rng.uniform(-20, 20, shape)).astype(np.float32)]
    if op == "reciprocal":
        return [(np.exp(rng.uniform(-20, 20, shape)) * rng.choice([-1, 1], shape)).astype(np.float32)]
    if op == "exp":
        return [r(shape, -80, 80)]
    if op == "power":
        return [np.exp(rng.uniform(-3, 3, shape)).astype(np.float32)]
    if op == "layernorm":
        x = r(shape, -3, 5)
        if len(shape) == 2 and shape[0] % 2:
            return [x, r(shape[-1:], 0.5, 2), r(shape[-1:], -1, 1)]
        return [x]
    return [r(shape)]


SHAPES = {
    "matmul": [(32, 32, 32), (64, 96, 32), (50, 70, 40), (96, 1100, 64), (512, 512, 512)],
    "add": [((32, 32), (32, 32)), ((70, 100), (70, 100)), ((70, 100), (1, 100)), ((70, 100), (70, 1)),
            ((2, 40, 33), (1, 1)), ((3, 40, 64), (1, 40, 64))],
    "transpose": [(32, 32), (64, 96), (70, 100), (3, 33, 65), (1, 300)],
}
SHAPES["sub"] = SHAPES["mul"] = SHAPES["add"]
DEFAULT_SHAPES = [(32, 32), (64, 128), (70, 100), (2, 40, 65), (5, 300)]
