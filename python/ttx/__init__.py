"""ttx: the Tenstorrent Wormhole B0 Tensix coprocessor emulator, from Python.

NumPy arrays in, what a Tensix tile computes out (docs/ops.md):

    import numpy as np, ttx
    c = ttx.matmul(a, b, fmt="bf16", fidelity="hifi4")
    p = ttx.softmax(x)
    y = ttx.exp(x, fmt="fp32")

Every number of a result comes out of the emulated tile: the inputs are
converted to the L1 format `fmt` and tiled, a kernel of ttx's library runs on
the tile's three threads, and the result is read back from L1 in `out_fmt`.

For simulator authors, `Tile` is one emulated tile: L1, Dst and LReg access,
instruction pushes and runs (ttx.h).

ctypes over libttx; no compile step.  The library is found through
$TTX_LIBRARY, then next to this package in a build tree, then where
`make install` put it, then the system's search path.
"""
import atexit
import ctypes
import ctypes.util
import os
import signal
import threading

import numpy as np

__all__ = ["Error", "Fault", "Tile", "ops", "op", "assemble", "disassemble", "version", "jit_available"]


class Error(ValueError):
    """Bad input: shapes, formats, options (the CLI's exit code 2)."""


class Fault(RuntimeError):
    """The emulated tile stopped on a fault (the CLI's exit code 1)."""


def _candidates():
    env = os.environ.get("TTX_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    # a build tree: python/ttx/ inside the source (and build) directory
    for top in (os.path.join(here, "..", ".."), os.environ.get("TTX_BUILDDIR", "")):
        if top:
            for name in ("libttx.so.0", "libttx.so", "libttx.dylib"):
                yield os.path.join(top, ".libs", name)
    try:
        from . import _libdir  # written by make install
        yield os.path.join(_libdir.LIBDIR, "libttx.so.0")
    except ImportError:
        pass
    found = ctypes.util.find_library("ttx")
    if found:
        yield found
    yield "libttx.so.0"


def _load():
    errors = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("ttx: cannot find libttx (build ttx, or set TTX_LIBRARY): " + "; ".join(errors))


_lib = _load()

# ---- the C API (src/ttx.h) ----
_c_float_p = ctypes.POINTER(ctypes.c_float)


class _Tensor(ctypes.Structure):
    _fields_ = [("data", _c_float_p), ("batch", ctypes.c_size_t), ("rows", ctypes.c_size_t),
                ("cols", ctypes.c_size_t)]


_PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_double)


class _ChipStats(ctypes.Structure):
    _fields_ = [("cycles", ctypes.c_uint64), ("packets", ctypes.c_uint64), ("flits", ctypes.c_uint64),
                ("link_busy_max", ctypes.c_uint64), ("link_noc", ctypes.c_uint), ("link_x", ctypes.c_uint),
                ("link_y", ctypes.c_uint), ("link_kind", ctypes.c_char_p), ("link_busy_total", ctypes.c_uint64),
                ("dram_bytes", ctypes.c_uint64 * 6), ("dram_busy", ctypes.c_uint64 * 6)]


class _GridStats(ctypes.Structure):
    _fields_ = [("cycles", ctypes.c_uint64), ("rows", ctypes.c_uint), ("cols", ctypes.c_uint),
                ("phases", ctypes.c_uint), ("macs", ctypes.c_uint64), ("busy_by_unit", ctypes.c_uint64 * 10),
                ("chip", _ChipStats), ("host_seconds", ctypes.c_double)]


class _OpParams(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("out_format", ctypes.c_int), ("fidelity", ctypes.c_int),
                ("dim", ctypes.c_int), ("param", ctypes.c_double), ("has_param", ctypes.c_int),
                ("progress", _PROGRESS), ("progress_ctx", ctypes.c_void_p), ("max_memory", ctypes.c_size_t),
                ("kernels", ctypes.c_int), ("grid_rows", ctypes.c_uint), ("grid_cols", ctypes.c_uint),
                ("shard", ctypes.c_int), ("threads", ctypes.c_uint), ("grid_stats", ctypes.POINTER(_GridStats)),
                ("chip", ctypes.c_void_p)]


class _OpInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("min_inputs", ctypes.c_uint), ("max_inputs", ctypes.c_uint),
                ("params", ctypes.c_char_p), ("summary", ctypes.c_char_p)]


class _Options(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("engine", ctypes.c_int), ("numerics", ctypes.c_int),
                ("jit_threshold", ctypes.c_uint),
                ("strict", ctypes.c_int), ("warn", ctypes.c_void_p), ("warn_ctx", ctypes.c_void_p),
                ("trace", ctypes.c_void_p), ("trace_ctx", ctypes.c_void_p),
                ("timing", ctypes.c_int), ("timing_event", ctypes.c_void_p), ("timing_ctx", ctypes.c_void_p),
                ("mmio", ctypes.c_void_p), ("mmio_ctx", ctypes.c_void_p), ("jit_cache", ctypes.c_void_p),
                ("interrupt", ctypes.c_void_p), ("trace_core", ctypes.c_void_p), ("trace_core_ctx", ctypes.c_void_p),
                ("core_event", ctypes.c_void_p), ("core_event_ctx", ctypes.c_void_p)]


class _Cycles(ctypes.Structure):
    _fields_ = [("device_cycles", ctypes.c_uint64), ("busy_by_unit", ctypes.c_uint64 * 10),
                ("issued", ctypes.c_uint64 * 3), ("busy", ctypes.c_uint64 * 3),
                ("stalled", (ctypes.c_uint64 * 6) * 3), ("stalled_on_unit", (ctypes.c_uint64 * 10) * 3),
                ("macs", ctypes.c_uint64), ("l1_bytes_read", ctypes.c_uint64), ("l1_bytes_written", ctypes.c_uint64)]


class _Stats(ctypes.Structure):
    _fields_ = [("insns", ctypes.c_uint64), ("insns_by_unit", ctypes.c_uint64 * 10),
                ("insns_interp", ctypes.c_uint64), ("insns_jit", ctypes.c_uint64),
                ("insns_jit_fallback", ctypes.c_uint64), ("jit_blocks_compiled", ctypes.c_uint64),
                ("jit_compile_seconds", ctypes.c_double), ("jit_compile_median_seconds", ctypes.c_double),
                ("insns_by_thread", ctypes.c_uint64 * 3), ("wall_seconds", ctypes.c_double),
                ("insns_by_opcode", ctypes.c_uint64 * 256)]


def _fn(name, res, *args):
    f = getattr(_lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


_vp, _u32, _sz, _i, _ci = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_int, ctypes.c_uint
_tile_new = _fn("ttx_tile_new", _vp, ctypes.POINTER(_Options))
_jit_cache_new = _fn("ttx_jit_cache_new", _vp)
_jit_cache_release = _fn("ttx_jit_cache_release", None, _vp)
_tile_destroy = _fn("ttx_tile_destroy", None, _vp)
_tile_reset = _fn("ttx_tile_reset", None, _vp)
_tile_error = _fn("ttx_tile_error", ctypes.c_char_p, _vp)
_l1_read = _fn("ttx_l1_read", _i, _vp, _u32, _vp, _sz)
_l1_write = _fn("ttx_l1_write", _i, _vp, _u32, _vp, _sz)
_dst32_read = _fn("ttx_dst32_read", None, _vp, _vp)
_dst32_write = _fn("ttx_dst32_write", None, _vp, _vp)
_dst16_read = _fn("ttx_dst16_read", None, _vp, _vp)
_dst16_write = _fn("ttx_dst16_write", None, _vp, _vp)
_lreg_read = _fn("ttx_lreg_read", _i, _vp, _ci, _vp)
_lreg_write = _fn("ttx_lreg_write", _i, _vp, _ci, _vp)
_gpr_read = _fn("ttx_gpr_read", _i, _vp, _ci, _ci, ctypes.POINTER(_u32))
_gpr_write = _fn("ttx_gpr_write", _i, _vp, _ci, _ci, _u32)
_cfg_field_read = _fn("ttx_cfg_field_read", _i, _vp, ctypes.c_char_p, _ci, ctypes.POINTER(_u32))
_cfg_field_write = _fn("ttx_cfg_field_write", _i, _vp, ctypes.c_char_p, _ci, _u32)
_push = _fn("ttx_push", _i, _vp, _ci, _u32)
_mmio_write = _fn("ttx_mmio_write", _i, _vp, _ci, _u32, _u32)
_mmio_read = _fn("ttx_mmio_read", _i, _vp, _ci, _u32, ctypes.POINTER(_u32))
_run = _fn("ttx_run", _i, _vp, ctypes.c_uint64)
_run_until_stalled = _fn("ttx_run_until_stalled", _i, _vp, ctypes.c_uint64)
_stats_get = _fn("ttx_stats_get", None, _vp, ctypes.POINTER(_Stats))
_cycles_get = _fn("ttx_cycles_get", None, _vp, ctypes.POINTER(_Cycles))
_run_cycles = _fn("ttx_run_cycles", _i, _vp, ctypes.c_uint64, ctypes.c_uint64)
_cycles_bottleneck = _fn("ttx_cycles_bottleneck", _i, ctypes.POINTER(_Cycles))
_asm_line = _fn("ttx_asm_line", _i, ctypes.c_char_p, ctypes.POINTER(_u32), ctypes.c_char_p, _sz)
_disasm = _fn("ttx_disasm", _i, _u32, ctypes.c_char_p, _sz)
_program_parse = _fn("ttx_program_parse", _i, ctypes.c_char_p, _sz, ctypes.c_char_p, ctypes.POINTER(_vp),
                     ctypes.c_char_p, _sz)
_program_run = _fn("ttx_program_run", _i, _vp, _vp, ctypes.c_uint64)
_program_free = _fn("ttx_program_free", None, _vp)
_format_parse = _fn("ttx_format_parse", _i, ctypes.c_char_p, ctypes.POINTER(_i))
_format_bytes = _fn("ttx_format_bytes", _sz, _i, _sz)
_format_encode = _fn("ttx_format_encode", _i, _i, _i, _vp, _sz, _vp, _sz)
_format_decode = _fn("ttx_format_decode", _i, _i, _vp, _sz, _vp, _sz)
_op_list = _fn("ttx_op_list", ctypes.POINTER(_OpInfo), ctypes.POINTER(_sz))
_op_params_default = _fn("ttx_op_params_default", None, ctypes.POINTER(_OpParams))
_op_shape = _fn("ttx_op_shape", _i, ctypes.c_char_p, ctypes.POINTER(_Tensor), _ci, ctypes.POINTER(_OpParams),
                ctypes.POINTER(_sz), ctypes.POINTER(_sz), ctypes.POINTER(_sz), ctypes.c_char_p, _sz)
_op_memory = _fn("ttx_op_memory", _i, ctypes.c_char_p, ctypes.POINTER(_Tensor), _ci, ctypes.POINTER(_OpParams),
                 ctypes.POINTER(_sz), ctypes.c_char_p, _sz)
_op_run = _fn("ttx_op_run", _i, _vp, ctypes.c_char_p, ctypes.POINTER(_Tensor), _ci, ctypes.POINTER(_OpParams),
              ctypes.POINTER(_Tensor), ctypes.c_char_p, _sz)
_version = _fn("ttx_version", ctypes.c_char_p)
_opcode_name = _fn("ttx_opcode_name", ctypes.c_char_p, _ci)
_jit_available = _fn("ttx_jit_available", _i)


class _CoreState(ctypes.Structure):
    _fields_ = [("released", ctypes.c_int), ("halted", ctypes.c_int), ("wait", ctypes.c_int),
                ("wait_addr", ctypes.c_uint32), ("pc", ctypes.c_uint32), ("insns", ctypes.c_uint64),
                ("cycles", ctypes.c_uint64), ("stalls", ctypes.c_uint64 * 6)]


_core_name = _fn("ttx_core_name", ctypes.c_char_p, _i)
_core_parse = _fn("ttx_core_parse", _i, ctypes.c_char_p, ctypes.POINTER(_i))
_core_wait_name = _fn("ttx_core_wait_name", ctypes.c_char_p, _i)
_core_stall_name = _fn("ttx_core_stall_name", ctypes.c_char_p, _i)
_elf_load = _fn("ttx_elf_load", _i, _vp, _i, _vp, _sz, ctypes.POINTER(_u32))
_core_start = _fn("ttx_core_start", _i, _vp, _i, _u32)
_core_reg_read = _fn("ttx_core_reg_read", _i, _vp, _i, _ci, ctypes.POINTER(_u32))
_core_reg_write = _fn("ttx_core_reg_write", _i, _vp, _i, _ci, _u32)
_core_state = _fn("ttx_core_state", None, _vp, _i, ctypes.POINTER(_CoreState))
_core_read = _fn("ttx_core_read", _i, _vp, _i, _u32, ctypes.POINTER(_u32))
_core_write = _fn("ttx_core_write", _i, _vp, _i, _u32, _u32)
_run_until = _fn("ttx_run_until", _i, _vp, ctypes.c_uint64, ctypes.POINTER(_u32), ctypes.POINTER(_u32), _sz)
_rv_disasm = _fn("ttx_rv_disasm", _i, _u32, _u32, ctypes.c_char_p, _sz)

_OK, _FAULT, _EINVAL, _ENOMEM, _LIMIT, _INTERRUPTED = 0, 1, 2, 3, 4, 5
_ENGINES = {"interp": 0, "jit": 1, "auto": 2}
_NUMERICS = {"exact": 0, "fast": 1}
_FIDELITIES = {"lofi": 0, "hifi2": 1, "hifi3": 2, "hifi4": 3}
_DIMS = {"rows": 0, "cols": 1, "all": 2}
_KERNELS = {"asm": 0, "riscv": 1}


def _int(name, v, lo, hi):
    """v as an int in lo..hi, else TypeError / ValueError naming the argument
    (ctypes would cut it to the C type's width)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError("%s must be an integer, not %s" % (name, type(v).__name__))
    v = int(v)
    if not lo <= v <= hi:
        raise ValueError("%s = %d is out of range (%d to %d)" % (name, v, lo, hi))
    return v


_U32 = 0xFFFFFFFF
_U64 = (1 << 64) - 1


def version():
    return _version().decode()


def jit_available():
    return bool(_jit_available())


def _format(name):
    f = ctypes.c_int()
    if _format_parse(str(name).encode(), ctypes.byref(f)) != _OK:
        raise Error("unknown format %r" % (name,))
    return f.value


# One JIT code cache for the process (ttx_jit_cache_new, ttx.h):
# every Tile, and so every ttx.op() call, reuses what any of them compiled.
_shared_cache = []


def _jit_cache():
    if not _shared_cache:
        c = _jit_cache_new()   # NULL in a --disable-jit build
        _shared_cache.append(c)
        if c:
            atexit.register(_jit_cache_release, c)   # the tiles alive then keep their references
    return _shared_cache[0]


def _options(engine, numerics, strict, timing=False):
    if engine not in _ENGINES:
        raise Error("engine must be one of %s" % ", ".join(_ENGINES))
    if numerics not in _NUMERICS:
        raise Error("numerics must be exact or fast")
    return _Options(size=ctypes.sizeof(_Options), engine=_ENGINES[engine], numerics=_NUMERICS[numerics],
                    strict=int(bool(strict)), timing=int(bool(timing)),
                    jit_cache=_jit_cache() if engine != "interp" else None)


_UNITS = ["frontend", "misc", "matrix", "sfpu", "unpack", "pack", "mover", "scalar", "sync", "config"]
_STALLS = ["unit", "stallwait", "semwait", "src", "mutex", "frontend"]


# ---- one emulated tile ----
class Tile:
    """One emulated Tensix tile (ttx.h).  Addresses and indices are checked."""

    def __init__(self, engine="auto", numerics="exact", strict=False, timing=False):
        """timing=True runs the cycle model (docs/timing.md): see cycles()."""
        self._t = None
        self._opt = _options(engine, numerics, strict, timing)
        self._t = _tile_new(ctypes.byref(self._opt))
        if not self._t:
            raise MemoryError("ttx: cannot create a tile")

    def close(self):
        """Free the tile; every method but close() then raises ValueError."""
        if self._t:
            _tile_destroy(self._t)
            self._t = None

    @property
    def _h(self):
        if not self._t:
            raise ValueError("ttx: the Tile is closed")
        return self._t

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check(self, st, what):
        if st == _OK:
            return
        msg = "%s: %s" % (what, _tile_error(self._h).decode(errors="replace"))
        raise Fault(msg) if st in (_FAULT, _LIMIT) else Error(msg)

    @property
    def error(self):
        return _tile_error(self._h).decode(errors="replace")

    def reset(self):
        _tile_reset(self._h)

    def l1_read(self, addr, n):
        h = self._h
        addr, n = _int("addr", addr, 0, _U32), _int("n", n, 0, _U32)
        buf = ctypes.create_string_buffer(n)
        self._check(_l1_read(h, addr, buf, n), "l1_read")
        return buf.raw

    def l1_write(self, addr, data):
        h = self._h
        addr = _int("addr", addr, 0, _U32)
        if isinstance(data, str):
            raise TypeError("data must be bytes-like, not str")
        data = bytes(data)
        self._check(_l1_write(h, addr, data, len(data)), "l1_write")

    def dst32(self):
        """Dst as 512 x 16 FP32 values (what SFPLOAD Mod0 = 3 reads)."""
        h = self._h
        a = np.zeros((512, 16), np.uint32)
        _dst32_read(h, a.ctypes.data)
        return a.view(np.float32)

    def set_dst32(self, values):
        h = self._h
        a = np.ascontiguousarray(np.asarray(values, np.float32).reshape(512, 16)).view(np.uint32)
        _dst32_write(h, a.ctypes.data)

    def dst16(self):
        """Dst's raw 1024 x 16 16-bit storage."""
        h = self._h
        a = np.zeros((1024, 16), np.uint16)
        _dst16_read(h, a.ctypes.data)
        return a

    def set_dst16(self, values):
        h = self._h
        a = np.ascontiguousarray(np.asarray(values, np.uint16).reshape(1024, 16))
        _dst16_write(h, a.ctypes.data)

    def lreg(self, r):
        h = self._h
        r = _int("r", r, 0, _U32)
        a = np.zeros(32, np.uint32)
        self._check(_lreg_read(h, r, a.ctypes.data), "lreg")
        return a

    def set_lreg(self, r, lanes):
        h = self._h
        r = _int("r", r, 0, _U32)
        a = np.ascontiguousarray(np.asarray(lanes, np.uint32).reshape(32))
        self._check(_lreg_write(h, r, a.ctypes.data), "set_lreg")

    def gpr(self, thread, index):
        h = self._h
        thread, index = _int("thread", thread, 0, _U32), _int("index", index, 0, _U32)
        v = _u32()
        self._check(_gpr_read(h, thread, index, ctypes.byref(v)), "gpr")
        return v.value

    def set_gpr(self, thread, index, value):
        h = self._h
        thread, index = _int("thread", thread, 0, _U32), _int("index", index, 0, _U32)
        self._check(_gpr_write(h, thread, index, _int("value", value, 0, _U32)), "set_gpr")

    def cfg(self, name, bank_or_thread=0):
        h = self._h
        v = _u32()
        self._check(_cfg_field_read(h, name.encode(), _int("bank_or_thread", bank_or_thread, 0, _U32),
                                    ctypes.byref(v)), "cfg")
        return v.value

    def set_cfg(self, name, value, bank_or_thread=0):
        h = self._h
        self._check(_cfg_field_write(h, name.encode(), _int("bank_or_thread", bank_or_thread, 0, _U32),
                                     _int("value", value, 0, _U32)), "set_cfg")

    def push(self, thread, words):
        """Queue instructions on a thread: a word (int), an assembler line
        (str), or a sequence of them."""
        h = self._h
        thread = _int("thread", thread, 0, _U32)
        if isinstance(words, (int, np.integer, str)):
            words = [words]
        for w in words:
            w = assemble_line(w) if isinstance(w, str) else _int("word", w, 0, _U32)
            self._check(_push(h, thread, w), "push")

    def mmio_write(self, thread, addr, value):
        h = self._h
        self._check(_mmio_write(h, _int("thread", thread, 0, _U32), _int("addr", addr, 0, _U32),
                                _int("value", value, 0, _U32)), "mmio_write")

    def mmio_read(self, thread, addr):
        h = self._h
        v = _u32()
        self._check(_mmio_read(h, _int("thread", thread, 0, _U32), _int("addr", addr, 0, _U32), ctypes.byref(v)),
                    "mmio_read")
        return v.value

    # ---- the five RISC-V cores (docs/riscv.md) ----

    def load_elf(self, image, core=None, start=True):
        """Place an ELF32 RISC-V image (bytes, or a path) by its PT_LOAD
        segments as `core` ("brisc", "trisc0".."trisc2", "ncrisc") sees
        memory, and with start=True release the core at the entry point;
        core=None: L1 only, no core started.  Returns the entry point."""
        h = self._h
        if isinstance(image, (str, os.PathLike)):
            with open(image, "rb") as f:
                image = f.read()
        image = bytes(image)
        c = _core(core) if core is not None else 5
        entry = _u32()
        self._check(_elf_load(h, c, image, len(image), ctypes.byref(entry)), "load_elf")
        if core is not None and start:
            self._check(_core_start(h, c, entry.value), "load_elf")
        return entry.value

    def start_core(self, core, pc):
        """Release `core` from soft reset at pc (registers zeroed)."""
        self._check(_core_start(self._h, _core(core), _int("pc", pc, 0, _U32)), "start_core")

    def core_reg(self, core, reg):
        """x0-x31 as 0-31 (or "pc")."""
        h = self._h
        v = _u32()
        self._check(_core_reg_read(h, _core(core), _reg(reg), ctypes.byref(v)), "core_reg")
        return v.value

    def set_core_reg(self, core, reg, value):
        self._check(_core_reg_write(self._h, _core(core), _reg(reg), _int("value", value, 0, _U32)),
                    "set_core_reg")

    def core_read(self, core, addr):
        """A 32-bit load by `core` (its address map)."""
        h = self._h
        v = _u32()
        self._check(_core_read(h, _core(core), _int("addr", addr, 0, _U32), ctypes.byref(v)), "core_read")
        return v.value

    def core_write(self, core, addr, value):
        """A 32-bit store by `core` (its address map)."""
        self._check(_core_write(self._h, _core(core), _int("addr", addr, 0, _U32), _int("value", value, 0, _U32)),
                    "core_write")

    def core_state(self, core):
        """released, halted, wait (None or why), pc, insns, cycles, stalls."""
        s = _CoreState()
        _core_state(self._h, _core(core), ctypes.byref(s))
        return {"released": bool(s.released), "halted": bool(s.halted),
                "wait": _core_wait_name(s.wait).decode() if s.wait else None, "wait_addr": s.wait_addr,
                "pc": s.pc, "insns": s.insns, "cycles": s.cycles,
                "stalls": {_core_stall_name(i).decode(): s.stalls[i] for i in range(6) if s.stalls[i]}}

    def run_until(self, conditions, max_insns=0):
        """Run (as run()) until every L1 word addr holds value, for the
        (addr, value) pairs of `conditions`; False if max_insns ran out."""
        h = self._h
        pairs = list(conditions.items()) if isinstance(conditions, dict) else list(conditions)
        n = len(pairs)
        addrs = (_u32 * max(n, 1))(*[_int("addr", a, 0, _U32) for a, _ in pairs])
        values = (_u32 * max(n, 1))(*[_int("value", v, 0, _U32) for _, v in pairs])
        st = _run_until(h, _int("max_insns", max_insns, 0, _U64), addrs, values, n)
        if st == _LIMIT:
            return False
        self._check(st, "run_until")
        return True

    def run(self, max_insns=0, until_stalled=False):
        """Run the queued instructions; Fault on a fault or deadlock.  With
        max_insns (0: no bound), returns False if work is left."""
        h = self._h
        st = (_run_until_stalled if until_stalled else _run)(h, _int("max_insns", max_insns, 0, _U64))
        if st == _LIMIT:
            return False
        self._check(st, "run")
        return True

    def run_program(self, text, name="<program>", max_insns=0):
        """Assemble a program (docs/assembly.md) and run it on this tile."""
        h = self._h
        max_insns = _int("max_insns", max_insns, 0, _U64)
        prog = _vp()
        err = ctypes.create_string_buffer(512)
        data = text.encode()
        if _program_parse(data, len(data), name.encode(), ctypes.byref(prog), err, 512) != _OK:
            raise Error(err.value.decode())
        try:
            self._check(_program_run(h, prog, max_insns), name)
        finally:
            _program_free(prog)

    def run_cycles(self, cycle, max_insns=0):
        """Run until each thread's next instruction could not issue before
        device cycle `cycle` (needs timing=True); False if work is left."""
        h = self._h
        st = _run_cycles(h, _int("cycle", cycle, 0, _U64), _int("max_insns", max_insns, 0, _U64))
        if st == _LIMIT:
            return False
        self._check(st, "run_cycles")
        return True

    def cycles(self):
        """The cycle model's totals (Tile(timing=True)): device cycles, busy
        cycles by unit, per-thread issue and stall cycles (by reason), MACs,
        L1 bytes read and written."""
        c = _Cycles()
        _cycles_get(self._h, ctypes.byref(c))
        threads = []
        for th in range(3):
            stalls = {r: c.stalled[th][i] for i, r in enumerate(_STALLS) if c.stalled[th][i]}
            stalls.update({u + " busy": c.stalled_on_unit[th][i] for i, u in enumerate(_UNITS)
                           if c.stalled_on_unit[th][i]})
            stalls.pop("unit", None)
            threads.append({"issued": c.issued[th], "busy": c.busy[th],
                            "stalled": sum(c.stalled[th][i] for i in range(6)), "stalls": stalls})
        return {"device_cycles": c.device_cycles,
                "busy_by_unit": {u: c.busy_by_unit[i] for i, u in enumerate(_UNITS) if i >= 2},
                "threads": threads, "macs": c.macs,
                "bottleneck": (_UNITS + [None])[_cycles_bottleneck(ctypes.byref(c))],
                "macs_per_cycle": c.macs / c.device_cycles if c.device_cycles else 0.0,
                "l1_bytes_read": c.l1_bytes_read, "l1_bytes_written": c.l1_bytes_written}

    def stats(self):
        s = _Stats()
        _stats_get(self._h, ctypes.byref(s))
        units = _UNITS
        return {"insns": s.insns, "by_unit": {u: s.insns_by_unit[i] for i, u in enumerate(units)},
                "insns_interp": s.insns_interp, "insns_jit": s.insns_jit,
                "jit_blocks_compiled": s.jit_blocks_compiled, "by_thread": list(s.insns_by_thread),
                "wall_seconds": s.wall_seconds,
                "by_opcode": {_opcode_name(o).decode(): s.insns_by_opcode[o] for o in range(256)
                              if s.insns_by_opcode[o]}}


def _core(name):
    if not isinstance(name, str):
        raise TypeError("core must be a str (brisc, trisc0, trisc1, trisc2, ncrisc), not %s" % type(name).__name__)
    c = _i()
    if _core_parse(name.encode(), ctypes.byref(c)) != _OK:
        raise Error("unknown core %r: expected brisc, trisc0, trisc1, trisc2 or ncrisc" % name)
    return c.value


def _reg(r):
    return 32 if r == "pc" else _int("reg", r, 0, 31)


def cores():
    """The names of a tile's RISC-V cores."""
    return [_core_name(i).decode() for i in range(5)]


def rv_disassemble(word, pc=0):
    """A RISC-V instruction word as text."""
    buf = ctypes.create_string_buffer(96)
    if _rv_disasm(_int("word", word, 0, _U32), _int("pc", pc, 0, _U32), buf, 96):
        raise Error("0x%08X is not an RV32IM instruction" % word)
    return buf.value.decode()


def assemble_line(text):
    if not isinstance(text, str):
        raise TypeError("text must be a str, not %s" % type(text).__name__)
    w = _u32()
    err = ctypes.create_string_buffer(512)
    if _asm_line(text.encode(), ctypes.byref(w), err, 512) != _OK:
        raise Error(err.value.decode())
    return w.value


def assemble(text):
    """Assembler lines (one instruction each) to words."""
    return [assemble_line(l) for l in text.splitlines() if l.split("#")[0].strip()]


def disassemble(word):
    buf = ctypes.create_string_buffer(256)
    _disasm(_int("word", word, 0, _U32), buf, 256)
    return buf.value.decode()


def quantize(x, fmt):
    """x as the tile receives it in L1 format `fmt` (to nearest, ties to even;
    the BFP formats share an exponent per 16 values along each row, the rows
    padded with zeros to a multiple of 32 as the tiles are)."""
    a = np.asarray(x, np.float32)
    cols = a.shape[-1] if a.ndim else 1
    if a.ndim >= 2 and cols % 32:
        padded = np.zeros(a.shape[:-1] + ((cols + 31) // 32 * 32,), np.float32)
        padded[..., :cols] = a
        return quantize(padded, fmt)[..., :cols]
    a = np.ascontiguousarray(a)
    flat = a.reshape(-1)
    n = (flat.size + 15) // 16 * 16
    pad = np.zeros(n, np.float32)
    pad[:flat.size] = flat
    f = _format(fmt)
    buf = ctypes.create_string_buffer(_format_bytes(f, n))
    if _format_encode(f, 0, pad.ctypes.data, n, buf, len(buf)) != _OK:
        raise Error("quantize: cannot encode as %s" % fmt)
    out = np.zeros(n, np.float32)
    _format_decode(f, buf, len(buf), out.ctypes.data, n)
    return out[:flat.size].reshape(a.shape)


# ---- tensor operations ----
def ops():
    """{name: (min inputs, max inputs, parameters, summary)} of the operations."""
    n = _sz()
    v = _op_list(ctypes.byref(n))
    return {v[i].name.decode(): (v[i].min_inputs, v[i].max_inputs, v[i].params.decode(), v[i].summary.decode())
            for i in range(n.value)}


def _as_tensor(x, name):
    a = np.asarray(x)
    if a.dtype.kind not in "fiu" or a.dtype.itemsize > 8:
        raise Error("%s: dtype %s is not a number type" % (name, a.dtype))
    if a.ndim not in (1, 2, 3) or a.size == 0:
        raise Error("%s: shape %s: expected a non-empty 1-D, 2-D or 3-D array" % (name, a.shape))
    a = np.ascontiguousarray(a, np.float32)
    b = a.shape[0] if a.ndim == 3 else 1
    r = 1 if a.ndim == 1 else a.shape[-2]
    return a, _Tensor(a.ctypes.data_as(_c_float_p), b, r, a.shape[-1])


# The tiles op() runs on when not given one: one per thread, engine and
# numerics, kept (a tile keeps the kernels it assembled; ttx_op_run resets
# the rest for each kernel), so a loop of calls does not rebuild them.
_default_tiles = threading.local()


def _default_tile(engine, numerics):
    tiles = getattr(_default_tiles, "tiles", None)
    if tiles is None:
        tiles = _default_tiles.tiles = {}
    key = (engine, numerics)
    if key not in tiles:
        tiles[key] = Tile(engine, numerics)
    return tiles[key]


def _physical_memory():
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def op(name, *inputs, fmt="bf16", out_fmt="fp32", fidelity="hifi4", dim="rows", param=None, engine="auto",
       numerics="exact", tile=None, progress=None, max_memory=None, kernels="asm", grid=None, shard=False,
       threads=None, stats=None):
    """Run operation `name` (ops()) on NumPy arrays; returns a float32 array
    with the inputs' number of dimensions.  `tile`: run on this Tile (its
    statistics accumulate) instead of the calling thread's own for this
    engine and numerics.  `progress(fraction)` is called between the
    kernel runs; an exception it raises stops the op and propagates, and so
    does Ctrl-C (KeyboardInterrupt), checked at the same points.
    `max_memory`: bytes of host memory the op may take (its result and the
    tiles it keeps; default half the physical memory): MemoryError beyond.
    `kernels`: "asm" (the host pushes the kernels' words) or "riscv" (C
    programs on the tile's RISCV T0-T2 push them; the same results).
    `grid=(R, C)`: run on R x C tiles of an emulated chip's 8 x 8 worker
    grid, inputs and results in its DRAM (`shard=True`: in the tiles' L1),
    on `threads` host threads (default: every core; the results and
    cycles do not depend on it); `stats`, a dict, then gets the device
    cycles and where they went (docs/ops.md "Grid operations")."""
    if not isinstance(name, str):
        raise TypeError("name must be a str, not %s" % type(name).__name__)
    if fidelity not in _FIDELITIES:
        raise Error("fidelity must be one of %s" % ", ".join(_FIDELITIES))
    if dim not in _DIMS:
        raise Error("dim must be rows, cols or all")
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable")
    if kernels not in _KERNELS:
        raise Error("kernels must be asm or riscv")
    if grid is not None:
        if not isinstance(grid, (tuple, list)) or len(grid) != 2:
            raise TypeError("grid must be a pair (rows, cols)")
        grid = (_int("grid rows", grid[0], 1, 8), _int("grid cols", grid[1], 1, 8))
    elif shard or threads is not None:
        raise Error("shard and threads go with grid=(rows, cols)")
    if stats is not None and not isinstance(stats, dict):
        raise TypeError("stats must be a dict")
    limit = _physical_memory() // 2 if max_memory is None else _int("max_memory", max_memory, 1, (1 << 63) - 1)
    arrays, tensors = [], []
    for i, x in enumerate(inputs):
        a, t = _as_tensor(x, "input %d" % (i + 1))
        arrays.append(a)
        tensors.append(t)
    p = _OpParams()
    _op_params_default(ctypes.byref(p))
    p.format, p.out_format = _format(fmt), _format(out_fmt)
    p.fidelity, p.dim = _FIDELITIES[fidelity], _DIMS[dim]
    p.max_memory = limit
    p.kernels = _KERNELS[kernels]
    gs = _GridStats()
    if grid is not None:
        p.grid_rows, p.grid_cols, p.shard = grid[0], grid[1], 1 if shard else 0
        p.threads = 0 if threads is None else _int("threads", threads, 1, 1024)
        p.grid_stats = ctypes.pointer(gs)
    if param is not None:
        p.param, p.has_param = float(param), 1
    # The callback runs between kernel runs, in this thread: an exception
    # of progress() stops the op (a non-zero return) and is raised again
    # once it returns.  Ctrl-C: while the op runs, SIGINT only records
    # itself (Python runs the handler at the callback's first bytecode,
    # where a KeyboardInterrupt would be lost in ctypes); the op stops at
    # the next callback and the previous handler then runs.
    raised, sigint = [], []

    def between_runs(ctx, fraction):
        if sigint or raised:
            return 1
        try:
            if progress is not None:
                progress(fraction)
            return 0
        except BaseException as e:   # noqa: B036 -- re-raised below
            raised.append(e)
            return 1
    cb = _PROGRESS(between_runs)
    p.progress = cb
    n = len(tensors)
    tin = (_Tensor * max(n, 1))(*tensors)
    b, r, c, need = _sz(), _sz(), _sz(), _sz()
    err = ctypes.create_string_buffer(512)
    if _op_shape(name.encode(), tin, n, ctypes.byref(p), ctypes.byref(b), ctypes.byref(r), ctypes.byref(c), err,
                 512) != _OK:
        raise Error("%s: %s" % (name, err.value.decode()))
    _op_memory(name.encode(), tin, n, ctypes.byref(p), ctypes.byref(need), err, 512)
    if need.value > limit:
        raise MemoryError("ttx.%s on %s needs %d bytes of host memory, more than the limit of %d (max_memory=)"
                          % (name, " and ".join("x".join(map(str, a.shape)) for a in arrays), need.value, limit))
    out = np.zeros((b.value, r.value, c.value), np.float32)
    tout = _Tensor(out.ctypes.data_as(_c_float_p), b.value, r.value, c.value)
    if grid is not None:
        h = None
    else:
        t = tile if tile is not None else _default_tile(engine, numerics)
        if not isinstance(t, Tile):
            raise TypeError("tile must be a ttx.Tile")
        h = t._h
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, lambda signum, frame: sigint.append(frame))
    try:
        st = _op_run(h, name.encode(), tin, n, ctypes.byref(p), ctypes.byref(tout), err, 512)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if sigint and callable(previous):
        previous(signal.SIGINT, sigint[0])   # the default one raises KeyboardInterrupt
    elif sigint and previous == signal.SIG_DFL:
        raise KeyboardInterrupt
    if raised:
        raise raised[0]
    if grid is not None and stats is not None:
        c = gs.chip
        stats.update({"cycles": gs.cycles, "grid": (gs.rows, gs.cols), "launches": gs.phases, "macs": gs.macs,
                      "busy_by_unit": {u: gs.busy_by_unit[i] for i, u in enumerate(_UNITS) if i >= 2},
                      "noc_packets": c.packets, "noc_flits": c.flits, "busiest_link_flits": c.link_busy_max,
                      "dram_bytes": sum(c.dram_bytes), "dram_busy": list(c.dram_busy),
                      "host_seconds": gs.host_seconds})
    if st != _OK:
        msg = "%s: %s" % (name, err.value.decode())
        if st == _ENOMEM:
            raise MemoryError(msg)
        raise Fault(msg) if st == _FAULT else Error(msg)
    ndim = max(a.ndim for a in arrays)
    if ndim == 3:
        return out
    out = out[0]
    if ndim == 1 and out.shape[0] == 1:
        return out[0]
    return out


def _unary(name, doc):
    def f(x, **kw):
        return op(name, x, **kw)
    f.__name__, f.__doc__ = name, doc
    return f


for _name, (_lo, _hi, _params, _summary) in ops().items():
    if _hi == 1 and _name not in ("power", "leaky_relu"):
        globals()[_name] = _unary(_name, _summary)
        __all__.append(_name)


def matmul(a, b, **kw):
    """a @ b: a [batch] M x K, b [batch or 1] K x N."""
    return op("matmul", a, b, **kw)


def add(a, b, **kw):
    """a + b, NumPy broadcasting."""
    return op("add", a, b, **kw)


def sub(a, b, **kw):
    """a - b, NumPy broadcasting."""
    return op("sub", a, b, **kw)


def mul(a, b, **kw):
    """a * b, NumPy broadcasting."""
    return op("mul", a, b, **kw)


def power(x, p=2, **kw):
    """x ** p."""
    return op("power", x, param=p, **kw)


def leaky_relu(x, slope=0.01, **kw):
    """x < 0 ? slope x : x."""
    return op("leaky_relu", x, param=slope, **kw)


def layernorm(x, gamma=None, beta=None, eps=1e-5, **kw):
    """(x - mean) / sqrt(var + eps) [* gamma + beta], along each row."""
    if (gamma is None) != (beta is None):
        raise Error("layernorm: give both gamma and beta, or neither")
    ins = (x,) if gamma is None else (x, np.reshape(gamma, -1), np.reshape(beta, -1))
    return op("layernorm", *ins, param=eps, **kw)


__all__ += ["matmul", "add", "sub", "mul", "power", "leaky_relu", "layernorm", "assemble_line", "quantize"]
