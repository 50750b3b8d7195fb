"""ttx.tensil (python/ttx/tensil.py): architectures, memories in floats and
raw values at the types' corners, assembling, running the reference cases
under both engines, a model, statistics and bad input."""
import os
import sys
import tempfile

import numpy as np

from ttx import tensil, Error, Fault, jit_available

SRC = os.environ.get("TTX_SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
V = os.path.join(SRC, "tests", "vectors", "tensil")
failures = 0


def check(name, cond, detail=""):
    global failures
    if not cond:
        failures += 1
        print("FAIL: %s %s" % (name, detail))


def raises(what, exc, text, f, *a, **kw):
    try:
        f(*a, **kw)
    except exc as e:
        check(what, text in str(e), "message %r lacks %r" % (str(e), text))
        return
    except Exception as e:  # noqa: BLE001 - any other kind is the failure reported
        check(what, False, "raised %s: %s" % (type(e).__name__, e))
        return
    check(what, False, "did not raise")


def arch(dtype="FP16BP8", n=4, regs=1):
    return tensil.Arch({"data_type": dtype, "array_size": n, "dram0_depth": 64, "dram1_depth": 64,
                        "local_depth": 64, "accumulator_depth": 32, "simd_registers_depth": regs,
                        "stride0_depth": 4, "stride1_depth": 4, "number_of_threads": 1, "thread_queue_depth": 8})


# ---- architectures ----
a = arch()
check("arch keys", a.array_size == 4 and a.data_type == "FP16BP8" and a.local_depth == 64)
check("value bytes", [arch(t).value_bytes for t in tensil.DATA_TYPES] == [2, 1, 3, 4, 4])
# FP16BP8, depths 64/32, strides 4: operand 0 2+6 bits, operand 1 2+6, operand 2 max(6, 4+3*1): 8 each, header 8
check("instruction bytes", a.instruction_bytes == 4, a.instruction_bytes)
d = a.as_dict()
del d["stride1_depth"]
raises("missing key", Error, '"stride1_depth" is missing', tensil.Arch, d)
raises("bad data type", Error, "FP16BP8, FP8BP4", tensil.Arch, dict(a.as_dict(), data_type="FP12"))
raises("array_size 0", Error, "array_size", tensil.Arch, dict(a.as_dict(), array_size=0))
raises("not JSON", Error, "x.tarch", tensil.Arch, "{", name="x.tarch")

# ---- conversions at the corners (round to nearest even, saturate) ----
check("FP16BP8 rounding", list(a.to_raw([1.0, -0.5, 1 / 512, 3 / 512, 1000, -1000])) ==
      [256, -128, 0, 2, 32767, -32768])
b8 = arch("FP8BP4")
check("FP8BP4 corners", list(b8.to_raw([7.9375, 8, -8, -9, 0.03125, 0.09375])) == [127, 127, -128, -128, 0, 2])
b18 = arch("FP18BP10")
check("FP18BP10 sign", list(b18.to_raw([-1.0, 127.999, -128])) == [-1024, 131071, -131072])
check("FP18BP10 back", list(b18.to_float(np.array([-1024, 131071]))) == [-1.0, 131071 / 1024])

# ---- memories ----
t = tensil.TCU(a, engine="interp")
t.write("dram0", 2, [[1, 2, 3, 4], [-1, -2, -3, -4]])
check("read back", np.array_equal(t.read("dram0", 2, 2), [[1, 2, 3, 4], [-1, -2, -3, -4]]))
t.write("local", 0, np.array([[-32768, 32767, -1, 0]]), raw=True)
check("raw round trip", list(t.read("local", 0, 1, raw=True)[0]) == [-32768, 32767, -1, 0])
check("raw as floats", list(t.read("local", 0, 1)[0]) == [-128.0, 32767 / 256, -1 / 256, 0])
raises("raw out of range", Error, "-32768 to 32767", t.write, "local", 0, np.array([[40000, 0, 0, 0]]), raw=True)
raises("not whole vectors", Error, "whole vectors of 4", t.write, "local", 0, [1, 2, 3])
raises("past the depth", Error, "write dram1", t.write, "dram1", 63, np.zeros((2, 4)))
raises("memory name", Error, "expected local, acc", t.read, "sram", 0, 1)

# ---- assembler ----
text = "datamove dram0>local local 0 dram0 2 count 2\nloadweights local 0 count 2\nmatmul local 1 acc 3 count 1\n"
prog = tensil.assemble(a, text)
check("assembled size", len(prog) == 12)
dis = tensil.disassemble(a, prog)
check("disassembly reassembles", tensil.assemble(a, dis) == prog, dis)
raises("assembler error names the line", Error, "x.tasm:2:", tensil.assemble, a, "wait 0\nmatmul local 99 acc 0 count 1",
       name="x.tasm")
raises("not whole instructions", Error, "not a whole number", tensil.disassemble, a, b"\0\0\0")

# ---- running: weights loaded last address first (row 0 the bias) ----
t.write("dram0", 2, [[1, 2, 3, 4], [0.5, 0, 0, 0]])
t.run(prog)
# weights: row 0 (bias) = [1,2,3,4], row 1 = [0.5,0,0,0]; input local 1 = [0.5,0,0,0]
# out = bias + 0.5 * row1 = [1.25, 2, 3, 4]
check("matmul with bias", list(t.read("acc", 3, 1)[0]) == [1.25, 2, 3, 4], t.read("acc", 3, 1))
s = t.stats()
check("stats", s["insns"] == 3 and s["insns_by_opcode"]["matmul"] == 1 and s["macs"] == 16, s)
raises("a fault", Fault, "instruction #0", t.run, tensil.assemble(a, "datamove local>dram0 local 63 dram0 0 count 2"))
raises("limit", Fault, "limit", t.run, prog, max_insns=1)
t.close()
raises("closed", ValueError, "closed", t.read, "local", 0, 1)

# ---- the reference cases, both engines, from files ----
engines = ["interp"] + (["jit"] if jit_available() else [])
manifest = {}
with open(os.path.join(V, "MANIFEST.tsv")) as f:
    lines = [x for x in f if not x.startswith("#")]
    head = lines[0].rstrip("\n").split("\t")
    for line in lines[1:]:
        row = dict(zip(head, line.rstrip("\n").split("\t")))
        manifest[row[head[0]]] = row
cases = sorted(manifest)[:12]
for case in cases:
    p = os.path.join(V, case)
    ar = tensil.Arch.load(p + ".tarch")
    want = np.fromfile(p + ".expect", dtype="<i2").reshape(ar.dram0_depth, ar.array_size)
    cmp = manifest[case].get("compare", "all")
    rows = slice(None) if cmp == "all" else [int(x) for x in cmp.split(",") if x]
    for eng in engines:
        with tensil.TCU(ar, engine=eng) as tc:
            for mem in ("dram0", "dram1", "local"):
                depth = getattr(ar, "local_depth" if mem == "local" else mem + "_depth")
                raw = np.fromfile("%s.%s.bin" % (p, mem), dtype="<i2").reshape(depth, ar.array_size)
                tc.write(mem, 0, raw, raw=True)
            tc.run(p + ".tprog")
            got = tc.read("dram0", 0, ar.dram0_depth, raw=True)
            check("case %s (%s)" % (case, eng), np.array_equal(got[rows], want[rows]))

# ---- a model: y = W x + b, as test_tensil_cli.sh builds it ----
with tempfile.TemporaryDirectory() as d:
    A = os.path.join(V, "0000.tarch")
    ar = tensil.Arch.load(A)
    mp = tensil.assemble(ar, "datamove dram1>local local 0 dram1 0 count 5\nloadweights local 0 count 5\n"
                             "datamove dram0>local local 8 dram0 4 count 2\nmatmul local 8 acc 0 count 2\n"
                             "datamove acc>local local 10 acc 0 count 2\n"
                             "datamove local>dram0 local 10 dram0 20 count 2\n")
    open(os.path.join(d, "m.tprog"), "wb").write(mp)
    w = (np.arange(20).reshape(5, 4) % 7 - 3).astype(np.float64)
    np.round(w * 256).astype("<i2").tofile(os.path.join(d, "m.tdata"))
    with open(A) as f:
        archtext = f.read()
    with open(os.path.join(d, "m.tmodel"), "w") as f:
        f.write('{"name": "m", "program": {"file_name": "m.tprog", "size": 0}, '
                '"consts": [{"file_name": "m.tdata", "base": 0, "size": 5}], '
                '"inputs": [{"name": "x", "base": 4, "size": 2}], '
                '"outputs": [{"name": "y", "base": 20, "size": 2}], '
                '"arch": %s, "load_consts_to_local": false}' % archtext)
    m = tensil.Model.load(os.path.join(d, "m.tmodel"))
    check("model io", m.inputs == {"x": (2, 4)} and m.outputs == {"y": (2, 4)}, (m.inputs, m.outputs))
    x = np.array([[1, 0.5, -1, 2], [0.25, 0, 0, 1]])
    for eng in engines:
        y = m.run({"x": x}, engine=eng)["y"]
        check("model result (%s)" % eng, np.array_equal(y, x @ w[1:] + w[0]), y)
    raises("model input name", Error, "inputs are x", m.run, {"z": x})
    raises("model input size", Error, "takes 8", m.run, {"x": np.zeros(9)})
    m.close()
raises("model file", Error, "nothing.tmodel", tensil.Model.load, "/nonexistent/nothing.tmodel")

print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
