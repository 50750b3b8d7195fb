"""The Python package at its edges (issue 27): arguments checked before
they reach ctypes, closed tiles, stopping a long op (Ctrl-C, exceptions in
a progress callback), the memory limit, power with large integer
exponents, and matmul overflow as the Matrix Unit computes it."""
import os
import signal
import sys
import threading
import time
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttx  # noqa: E402

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


def raises(exc, f, *args, **kw):
    try:
        f(*args, **kw)
    except exc as e:
        return str(e)
    raise AssertionError("%s(%s) did not raise %s" % (getattr(f, "__name__", f), args, exc.__name__))


@test
def push_string_is_one_instruction():
    t = ttx.Tile(engine="interp")
    t.push(0, "NOP")
    t.push(0, ["SFPNOP", 0x02000000])
    t.run()
    assert t.stats()["insns"] == 3, t.stats()
    raises(ttx.Error, t.push, 0, "NOT_AN_OPCODE")


@test
def integers_checked_not_cut():
    t = ttx.Tile(engine="interp")
    t.l1_write(0, b"ABCD")
    assert "addr" in raises(ValueError, t.l1_write, 2 ** 32, b"QQQQ")
    assert t.l1_read(0, 4) == b"ABCD"              # address 0 untouched
    t.l1_write(0x1000, b"WXYZ")
    assert "addr" in raises(ValueError, t.l1_read, 2 ** 32 + 0x1000, 4)
    raises(ValueError, t.l1_read, -1, 4)
    raises(ValueError, t.l1_read, 0, -4)
    raises(ValueError, t.gpr, 2 ** 32, 0)
    raises(ValueError, t.gpr, 0, 2 ** 32 + 1)
    raises(ValueError, t.set_gpr, 0, 1, 2 ** 32)
    raises(ValueError, t.set_gpr, 0, 1, -1)
    raises(ValueError, t.push, 0, 2 ** 32 + 0x02000000)
    raises(ValueError, t.push, 2 ** 32, 0x02000000)
    assert "max_insns" in raises(ValueError, t.run, max_insns=-1)
    raises(ValueError, ttx.disassemble, 2 ** 32)
    raises(TypeError, t.l1_read, 1.5, 4)
    raises(TypeError, t.push, 0, 1.0)
    raises(TypeError, t.set_gpr, 0, 1, True)
    raises(TypeError, t.l1_write, 0, "text")
    raises(TypeError, ttx.assemble_line, 5)
    # the largest values pass
    t.set_gpr(0, 1, 2 ** 32 - 1)
    assert t.gpr(0, 1) == 2 ** 32 - 1
    assert ttx.disassemble(0xFFFFFFFF)


@test
def closed_tile_raises():
    t = ttx.Tile()
    t.close()
    t.close()   # twice is fine
    for name, args in [("l1_read", (0, 4)), ("l1_write", (0, b"x")), ("dst32", ()), ("dst16", ()),
                       ("lreg", (0,)), ("gpr", (0, 0)), ("set_gpr", (0, 0, 1)), ("push", (0, "NOP")),
                       ("run", ()), ("stats", ()), ("cycles", ()), ("reset", ()), ("cfg", ("ALU_ACC_CTRL_Fp32_enabled",)),
                       ("mmio_read", (0, 0)), ("run_program", ("NOP",))]:
        msg = raises(ValueError, getattr(t, name), *args)
        assert "closed" in msg, (name, msg)
    assert "closed" in raises(ValueError, lambda: t.error)
    assert "closed" in raises(ValueError, ttx.relu, np.ones(4, np.float32), tile=t)


@test
def progress_exceptions_propagate():
    a = np.ones((64, 64), np.float32)
    calls = []

    def boom(f):
        calls.append(f)
        raise RuntimeError("from the callback")
    assert "from the callback" in raises(RuntimeError, ttx.matmul, a, a, progress=boom)
    assert len(calls) == 1, calls   # the op stopped at the first call
    # a callback that returns normally sees the op through
    seen = []
    ttx.matmul(a, a, progress=seen.append)
    assert seen and seen[-1] == 1.0, seen
    raises(TypeError, ttx.matmul, a, a, progress=5)


@test
def ctrl_c_stops_a_long_op():
    a = np.ones((2048, 2048), np.float32)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.time()
    timer.start()
    try:
        ttx.matmul(a, a, fidelity="hifi4", engine="interp")
        raise AssertionError("the op ran to the end")
    except KeyboardInterrupt:
        pass
    finally:
        timer.cancel()
    elapsed = time.time() - start
    # (TTX_TEST_TIME_SCALE: slower machines, e.g. make check-aarch64 under qemu)
    limit = 3 * float(os.environ.get("TTX_TEST_TIME_SCALE", "1"))
    assert elapsed < limit, "KeyboardInterrupt came %.1f s after the op started" % elapsed
    # the tile is usable afterwards
    assert ttx.relu(np.array([-1, 2], np.float32)).tolist() == [0, 2]


@test
def memory_limit():
    col, row = np.ones((65536, 1), np.float32), np.ones((1, 65536), np.float32)
    msg = raises(MemoryError, ttx.add, col, row)
    assert "65536x1 and 1x65536" in msg and "bytes of host memory" in msg, msg
    msg = raises(MemoryError, ttx.relu, np.ones((64, 64), np.float32), max_memory=1000)
    assert "more than the limit of 1000" in msg, msg
    assert ttx.relu(np.ones((64, 64), np.float32), max_memory=1 << 30).shape == (64, 64)
    raises(ValueError, ttx.relu, np.ones(4, np.float32), max_memory=0)


@test
def power_large_integer_exponents():
    x = np.array([-1.0, -2.0, -0.5, 0.5, 2.0, 1.0], np.float32)
    for p in (32, 33, -32, -33, 40, 63, -64):
        y = ttx.power(x, p, fmt="fp32")
        want = x.astype(np.float64) ** p
        assert not np.isnan(y).any(), (p, y)
        assert np.allclose(y, want, rtol=2e-5), (p, y, want)
        assert (np.sign(y) == np.sign(want)).all(), (p, y)
    # a non-integer exponent of a negative number is still NaN
    assert np.isnan(ttx.power(np.array([-2.0], np.float32), 32.5)).all()


@test
def matmul_overflow_as_the_matrix_unit_computes_it():
    # docs/ops.md "Overflow": an FP32 Dst that overflowed holds the Inf
    # pattern, read back as the finite 2^128 by the next MVMUL; BF16 data
    # have no bits for fidelity phases 2-3 (SrcB's low four), whose
    # products are zero but still align Dst to their exponent (2^247 here),
    # which wipes the 2^128: HiFi3 and HiFi4 give 0, LoFi and HiFi2 Inf.
    a = np.full((32, 32), 3e38, np.float32)
    got = [ttx.matmul(a, a, fidelity=f)[0, 0] for f in ("lofi", "hifi2", "hifi3", "hifi4")]
    assert got[0] == np.inf and got[1] == np.inf and got[2] == 0 and got[3] == 0, got
    # TF32 (fp32 inputs) has bits in every phase: Inf throughout
    got = [ttx.matmul(a, a, fmt="fp32", fidelity=f)[0, 0] for f in ("lofi", "hifi4")]
    assert got == [np.inf, np.inf], got


def _elf(words, base, entry=None):
    """A minimal ELF32 RISC-V executable: one PT_LOAD of `words` at `base`."""
    import struct
    code = struct.pack("<%dI" % len(words), *words)
    eh = struct.pack("<4sBBBB8xHHIIIIIHHHHHH", b"\x7fELF", 1, 1, 1, 0, 2, 243, 1,
                     base if entry is None else entry, 52, 0, 0, 52, 32, 1, 0, 0, 0)
    ph = struct.pack("<IIIIIIII", 1, 84, base, base, len(code), len(code), 5, 4)
    return eh + ph + code


@test
def riscv_cores():
    # addi a0, zero, 41; addi a0, a0, 1; sw a0, 0x100(zero); ebreak
    words = [0x02900513, 0x00150513, 0x10A02023, 0x00100073]
    assert ttx.cores() == ["brisc", "trisc0", "trisc1", "trisc2", "ncrisc"]
    assert ttx.rv_disassemble(words[0]) == "addi a0, zero, 41"
    raises(ttx.Error, ttx.rv_disassemble, 0xFFFFFFFF)
    with ttx.Tile() as t:
        assert t.load_elf(_elf(words, 0x6000), "trisc0") == 0x6000
        assert t.run()
        st = t.core_state("trisc0")
        assert st["halted"] and st["insns"] == 4 and st["pc"] == 0x6010, st   # past the ebreak
        assert t.core_reg("trisc0", 10) == 42 and t.core_reg("t0", "pc") == 0x6010
        assert t.l1_read(0x100, 4) == (42).to_bytes(4, "little")
        assert not t.core_state("brisc")["released"]
        # raw code: written to L1, the core started there; a step budget
        t.reset()
        t.l1_write(0x2000, b"".join(w.to_bytes(4, "little") for w in [0x00150513, 0xFFDFF06F]))  # addi; j -4
        t.start_core("brisc", 0x2000)
        assert t.run(max_insns=11) is False
        assert t.core_reg("brisc", 10) == 6
        t.set_core_reg("brisc", 10, 100)
        # until a word of L1 holds a value: the core stores its result,
        # then counts forever (run() alone would not end)
        t.reset()
        t.l1_write(0x3000, b"".join(w.to_bytes(4, "little") for w in
                                    [0x00500513, 0x10A02023, 0x00158593, 0xFFDFF06F]))  # li; sw; addi; j -4
        t.start_core("trisc1", 0x3000)
        assert t.run_until({0x100: 5}, max_insns=10 ** 7)
        assert int.from_bytes(t.l1_read(0x100, 4), "little") == 5
        # a core's view: its local data RAM
        t.core_write("trisc2", 0xFFB00010, 0x1234)
        assert t.core_read("trisc2", 0xFFB00010) == 0x1234
        raises(ttx.Error, t.load_elf, b"not an elf", "trisc0")
        raises(ttx.Error, t.load_elf, _elf(words, 0x6000, entry=0x9000000), "trisc0")
        raises(ttx.Error, t.start_core, "trisc9", 0)
        raises(TypeError, t.core_reg, 3, 1)
        raises(ValueError, t.core_reg, "brisc", 40)
        msg = raises(ttx.Error, t.core_read, "brisc", 0x20000000)
        assert "0x20000000" in msg, msg


if failures:
    print("FAILED: %s" % ", ".join(failures))
    sys.exit(1)
print("all Python API tests passed")
