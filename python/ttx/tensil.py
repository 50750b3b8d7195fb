"""ttx.tensil: the Tensil TCU, ttx's second target (docs/tensil.md).

    import numpy as np
    from ttx import tensil
    arch = tensil.Arch.load("zcu104.tarch")
    tcu = tensil.TCU(arch, engine="jit")
    tcu.write("dram0", 0, np.ones((4, arch.array_size)))   # floats, converted
    tcu.run(tensil.assemble(arch, "datamove dram0>local local 0 dram0 0 count 4"))
    tcu.read("local", 0, 4)                                # floats back
    outputs = tensil.Model.load("resnet20v2_cifar_onnx_zcu104.tmodel").run({"x:0": image})

Memories are "local", "acc" (the accumulators), "dram0" and "dram1", in
vectors of arch.array_size values.  read/write take and give float32 by
default (rounded to nearest, ties to even, and saturated to the data type),
or the raw two's-complement values (FLOAT32: the bits) with raw=True.

ctypes over libttx's ttx_tcu_* functions (src/ttx.h), like the package.
"""
import ctypes
import ctypes.util
import json
import os

import numpy as np

from . import _lib, _fn, _vp, _u32, _sz, _i, _OK, _FAULT, _LIMIT, _ENOMEM, _ENGINES, Error, Fault

__all__ = ["Arch", "TCU", "Model", "assemble", "disassemble", "DATA_TYPES"]

DATA_TYPES = ("FP16BP8", "FP8BP4", "FP18BP10", "FP32BP16", "FLOAT32")
_KEYS = ("data_type", "array_size", "dram0_depth", "dram1_depth", "local_depth", "accumulator_depth",
         "simd_registers_depth", "stride0_depth", "stride1_depth", "number_of_threads", "thread_queue_depth")
_MEMORIES = {"local": 0, "acc": 1, "accumulators": 1, "dram0": 2, "dram1": 3}
_u64 = ctypes.c_uint64


class _Arch(ctypes.Structure):
    _fields_ = [("data_type", ctypes.c_int), ("array_size", _u32), ("dram0_depth", _u64), ("dram1_depth", _u64),
                ("local_depth", _u64), ("accumulator_depth", _u64), ("simd_registers_depth", _u32),
                ("stride0_depth", _u32), ("stride1_depth", _u32), ("number_of_threads", _u32),
                ("thread_queue_depth", _u32)]


class _Stats(ctypes.Structure):
    _fields_ = [("insns", _u64), ("insns_by_opcode", _u64 * 16), ("macs", _u64), ("vectors_moved", _u64),
                ("cycles", _u64), ("insns_jit", _u64), ("wall_seconds", ctypes.c_double)]


class _ModelIO(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("base", _u64), ("size", _u64)]


class _ModelConst(ctypes.Structure):
    _fields_ = [("path", ctypes.c_char_p), ("base", _u64), ("size", _u64)]


class _Model(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("arch", _Arch), ("program", ctypes.c_char_p),
                ("consts", ctypes.POINTER(_ModelConst)), ("nconsts", _sz), ("ninputs", _sz), ("noutputs", _sz),
                ("inputs", ctypes.POINTER(_ModelIO)), ("outputs", ctypes.POINTER(_ModelIO)),
                ("load_consts_to_local", _i)]


_ArchP, _ccp = ctypes.POINTER(_Arch), ctypes.c_char_p
_arch_parse = _fn("ttx_tcu_arch_parse", _i, _ccp, _sz, _ccp, _ArchP, _ccp, _sz)
_value_bytes = _fn("ttx_tcu_value_bytes", ctypes.c_uint, _ArchP)
_insn_bytes = _fn("ttx_tcu_instruction_bytes", ctypes.c_uint, _ArchP)
_create = _fn("ttx_tcu_create", _i, _ArchP, _i, ctypes.POINTER(_vp), _ccp, _sz)
_destroy = _fn("ttx_tcu_destroy", None, _vp)
_error = _fn("ttx_tcu_error", _ccp, _vp)
_write = _fn("ttx_tcu_write", _i, _vp, _i, _u64, _vp, _u64)
_read = _fn("ttx_tcu_read", _i, _vp, _i, _u64, _vp, _u64)
_run = _fn("ttx_tcu_run", _i, _vp, _vp, _sz, _ccp, _u64)
_stats_get = _fn("ttx_tcu_stats_get", None, _vp, ctypes.POINTER(_Stats))
_assemble = _fn("ttx_tcu_assemble", _i, _ArchP, _ccp, _sz, _ccp, ctypes.POINTER(_vp), ctypes.POINTER(_sz), _ccp,
                _sz)
_disassemble = _fn("ttx_tcu_disassemble", _i, _ArchP, _vp, _sz, _ccp, ctypes.POINTER(_vp), _ccp, _sz)
_from_float = _fn("ttx_tcu_from_float", None, _ArchP, _vp, _vp, _sz)
_to_float = _fn("ttx_tcu_to_float", None, _ArchP, _vp, _vp, _sz)
_model_load = _fn("ttx_tcu_model_load", _i, _ccp, ctypes.POINTER(ctypes.POINTER(_Model)), _ccp, _sz)
_model_free = _fn("ttx_tcu_model_free", None, ctypes.POINTER(_Model))
_model_run = _fn("ttx_tcu_model_run", _i, _vp, ctypes.POINTER(_Model), ctypes.POINTER(_vp), ctypes.POINTER(_vp))
_free = ctypes.CDLL(ctypes.util.find_library("c")).free
_free.argtypes, _free.restype = [_vp], None

def _engine(name):
    if name not in _ENGINES:
        raise Error("engine must be one of %s" % ", ".join(_ENGINES))
    return _ENGINES[name]


_OPCODES = {0: "wait", 1: "matmul", 2: "datamove", 3: "loadweights", 4: "simd", 5: "loadlut", 7: "configure"}


def _raise(st, msg):
    if st == _ENOMEM:
        raise MemoryError(msg)
    raise Fault(msg) if st in (_FAULT, _LIMIT) else Error(msg)


class Arch:
    """A TCU architecture: the 11 keys of a .tarch (all required)."""

    def __init__(self, spec, name="architecture"):
        """spec: a dict of the 11 keys, or a .tarch's JSON text."""
        text = spec if isinstance(spec, str) else json.dumps(spec)
        raw = text.encode()
        err = ctypes.create_string_buffer(512)
        self._a = _Arch()
        st = _arch_parse(raw, len(raw), name.encode(), ctypes.byref(self._a), err, 512)
        if st != _OK:
            _raise(st, err.value.decode(errors="replace"))

    @classmethod
    def load(cls, path):
        """An architecture from a .tarch file."""
        with open(path, encoding="utf-8", errors="replace") as f:
            return cls(f.read(), name=str(path))

    def __getattr__(self, key):
        if key in _KEYS:
            v = getattr(self._a, key)
            return DATA_TYPES[v] if key == "data_type" else int(v)
        raise AttributeError(key)

    def as_dict(self):
        return {k: getattr(self, k) for k in _KEYS}

    def __repr__(self):
        return "tensil.Arch(%r)" % self.as_dict()

    @property
    def value_bytes(self):
        """Bytes of one value in a memory image."""
        return _value_bytes(ctypes.byref(self._a))

    @property
    def instruction_bytes(self):
        return _insn_bytes(ctypes.byref(self._a))

    @property
    def raw_dtype(self):
        """The NumPy type raw values come in (sign-extended to it)."""
        return {1: np.int8, 2: np.int16}.get(self.value_bytes, np.int32)

    def to_raw(self, x):
        """floats -> the data type's values (round to nearest even, saturate)."""
        f = np.ascontiguousarray(x, dtype=np.float32)
        image = _image(self, f.size)
        _from_float(ctypes.byref(self._a), f.ctypes.data, image, f.size)
        return _unpack(self, image, f.size).reshape(f.shape)

    def to_float(self, raw):
        """the data type's values -> float32"""
        r = np.asarray(raw)
        image = _pack(self, r.ravel())
        out = np.empty(r.size, dtype=np.float32)
        _to_float(ctypes.byref(self._a), image, out.ctypes.data, r.size)
        return out.reshape(r.shape)


def _image(arch, n):
    return ctypes.create_string_buffer(max(1, n * arch.value_bytes))


def _unpack(arch, image, n):
    """a memory image (little-endian, value_bytes each) -> sign-extended ints"""
    b = arch.value_bytes
    u = np.frombuffer(image, dtype=np.uint8, count=n * b).reshape(n, b).astype(np.int64)
    v = np.zeros(n, dtype=np.int64)
    for k in range(b):
        v |= u[:, k] << (8 * k)
    if arch.data_type == "FLOAT32":
        return v.astype(np.uint32).view(np.int32)
    sign = 1 << (8 * b - 1)
    return ((v ^ sign) - sign).astype(arch.raw_dtype)


def _pack(arch, raw):
    b = arch.value_bytes
    r = np.asarray(raw)
    if r.dtype.kind not in "iu":
        raise Error("raw values are integers (the data type's two's complement, FLOAT32's bits), not %s" % r.dtype)
    if arch.data_type != "FLOAT32":
        lo, hi = -(1 << (8 * b - 1)), (1 << (8 * b - 1)) - 1
        if r.size and (r.min() < lo or r.max() > hi):
            raise Error("raw values of %s are %d to %d" % (arch.data_type, lo, hi))
    v = r.astype(np.int64) & ((1 << (8 * b)) - 1)
    bytes_ = np.stack([(v >> (8 * k)) & 0xFF for k in range(b)], axis=-1).astype(np.uint8)
    return ctypes.create_string_buffer(bytes_.tobytes(), max(1, bytes_.size))


def _bytes_of(prog):
    if isinstance(prog, (bytes, bytearray, memoryview)):
        return bytes(prog), "program"
    with open(prog, "rb") as f:
        return f.read(), str(prog)


def assemble(arch, text, name="text"):
    """Assembler text (docs/tensil.md "Assembly") -> .tprog bytes."""
    raw = text.encode()
    prog, n = _vp(), _sz()
    err = ctypes.create_string_buffer(512)
    st = _assemble(ctypes.byref(arch._a), raw, len(raw), name.encode(), ctypes.byref(prog), ctypes.byref(n), err, 512)
    if st != _OK:
        _raise(st, err.value.decode(errors="replace"))
    try:
        return ctypes.string_at(prog, n.value)
    finally:
        _free(prog)


def disassemble(arch, prog, name="program"):
    """.tprog bytes (or a path) -> assembler text that reassembles to them."""
    data, label = _bytes_of(prog)
    if not isinstance(prog, (bytes, bytearray, memoryview)):
        name = label
    text = _vp()
    err = ctypes.create_string_buffer(512)
    st = _disassemble(ctypes.byref(arch._a), data, len(data), name.encode(), ctypes.byref(text), err, 512)
    if st != _OK:
        _raise(st, err.value.decode(errors="replace"))
    try:
        return ctypes.string_at(text).decode()
    finally:
        _free(text)


class TCU:
    """One emulated TCU of an architecture: its memories, weights and registers."""

    def __init__(self, arch, engine="auto"):
        """engine: "interp", "jit" (programs compiled before they run) or "auto"."""
        if not isinstance(arch, Arch):
            arch = Arch(arch) if not (isinstance(arch, str) and os.path.exists(arch)) else Arch.load(arch)
        self.arch = arch
        self._t = None
        h = _vp()
        err = ctypes.create_string_buffer(512)
        st = _create(ctypes.byref(arch._a), _engine(engine), ctypes.byref(h), err, 512)
        if st != _OK:
            _raise(st, err.value.decode(errors="replace"))
        self._t = h

    def close(self):
        if self._t:
            _destroy(self._t)
            self._t = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def _h(self):
        if not self._t:
            raise ValueError("ttx.tensil: the TCU is closed")
        return self._t

    def _check(self, st, what):
        if st != _OK:
            _raise(st, "%s: %s" % (what, _error(self._h).decode(errors="replace")))

    @staticmethod
    def _memory(name):
        if name not in _MEMORIES:
            raise Error("memory %r: expected local, acc, dram0 or dram1" % (name,))
        return _MEMORIES[name]

    def write(self, memory, at, values, raw=False):
        """Write vectors from vector `at` of a memory: values of shape
        (vectors, array_size) (or anything of a multiple of array_size
        values), floats converted to the data type, or raw values."""
        N = self.arch.array_size
        v = np.asarray(values)
        if v.size % N:
            raise Error("%d values are not whole vectors of %d" % (v.size, N))
        image = _pack(self.arch, v.ravel()) if raw else None
        if image is None:
            f = np.ascontiguousarray(v, dtype=np.float32).ravel()
            image = _image(self.arch, f.size)
            _from_float(ctypes.byref(self.arch._a), f.ctypes.data, image, f.size)
        self._check(_write(self._h, self._memory(memory), at, image, v.size // N), "write %s" % memory)

    def read(self, memory, at, vectors, raw=False):
        """Read vectors from a memory: float32 (or raw values), shape
        (vectors, array_size)."""
        N = self.arch.array_size
        if vectors < 0:
            raise Error("vectors: %d" % vectors)
        image = _image(self.arch, vectors * N)
        self._check(_read(self._h, self._memory(memory), at, image, vectors), "read %s" % memory)
        if raw:
            return _unpack(self.arch, image, vectors * N).reshape(vectors, N)
        out = np.empty(vectors * N, dtype=np.float32)
        _to_float(ctypes.byref(self.arch._a), image, out.ctypes.data, out.size)
        return out.reshape(vectors, N)

    def run(self, prog, max_insns=0, name=None):
        """Run a program: .tprog bytes, or a path to one.  Error for one
        that is not a program, Fault for one that goes wrong running or
        runs past max_insns (0: no limit)."""
        data, label = _bytes_of(prog)
        label = name or label
        buf = ctypes.create_string_buffer(data, max(1, len(data)))
        self._check(_run(self._h, buf, len(data), label.encode(), max_insns), "run")

    def stats(self):
        """Instructions (all, by opcode, compiled), MACs, vectors moved, the
        cycle estimate and the host's seconds, summed over every run."""
        s = _Stats()
        _stats_get(self._h, ctypes.byref(s))
        return {"insns": s.insns, "insns_by_opcode": {_OPCODES[k]: s.insns_by_opcode[k] for k in _OPCODES},
                "macs": s.macs, "vectors_moved": s.vectors_moved, "cycles": s.cycles, "insns_jit": s.insns_jit,
                "wall_seconds": s.wall_seconds}


class Model:
    """A compiled model (.tmodel with its .tprog and .tdata), run as
    Tensil's emulator runs it: constants loaded, inputs into DRAM0, the
    program, outputs out of DRAM0."""

    def __init__(self, handle):
        self._m = handle
        m = handle.contents
        self.name = m.name.decode() if m.name else ""
        self.arch = Arch.__new__(Arch)
        self.arch._a = _Arch.from_buffer_copy(m.arch)
        self.inputs = {m.inputs[i].name.decode(): (int(m.inputs[i].size), self.arch.array_size)
                       for i in range(m.ninputs)}
        self.outputs = {m.outputs[i].name.decode(): (int(m.outputs[i].size), self.arch.array_size)
                        for i in range(m.noutputs)}

    @classmethod
    def load(cls, path):
        h = ctypes.POINTER(_Model)()
        err = ctypes.create_string_buffer(512)
        st = _model_load(os.fsencode(path), ctypes.byref(h), err, 512)
        if st != _OK:
            _raise(st, err.value.decode(errors="replace"))
        return cls(h)

    def close(self):
        if self._m:
            _model_free(self._m)
            self._m = None

    def __del__(self):
        self.close()

    def run(self, inputs, engine="auto", tcu=None):
        """inputs: {name: array} (or a list in the model's order), each
        of the input's vectors x array_size values (fewer values are
        zero-padded); returns {name: float32 array (vectors, array_size)}."""
        if not self._m:
            raise ValueError("ttx.tensil: the Model is closed")
        names = list(self.inputs)
        if not isinstance(inputs, dict):
            inputs = dict(zip(names, inputs))
        for k in inputs:
            if k not in self.inputs:
                raise Error("input %r: the model's inputs are %s" % (k, ", ".join(names)))
        ins = []
        for k in names:
            if k not in inputs:
                raise Error("input %r is missing" % k)
            shape = self.inputs[k]
            v = np.ascontiguousarray(inputs[k], dtype=np.float32).ravel()
            if v.size > shape[0] * shape[1]:
                raise Error("input %r: %d values, the model takes %d" % (k, v.size, shape[0] * shape[1]))
            full = np.zeros(shape[0] * shape[1], dtype=np.float32)
            full[:v.size] = v
            ins.append(full)
        outs = [np.zeros(self.outputs[k], dtype=np.float32) for k in self.outputs]
        own = tcu is None
        t = TCU(self.arch, engine) if own else tcu
        try:
            in_p = (_vp * max(1, len(ins)))(*[a.ctypes.data for a in ins])
            out_p = (_vp * max(1, len(outs)))(*[a.ctypes.data for a in outs])
            t._check(_model_run(t._h, self._m, in_p, out_p), "model %s" % self.name)
        finally:
            if own:
                t.close()
        return dict(zip(self.outputs, outs))
