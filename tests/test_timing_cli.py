"""The cycle model through the command line (docs/timing.md): the --stats
lines, the same totals on the interpreter and the JIT, a Perfetto trace of
examples/three_threads.s parsed back (valid JSON, a track per thread,
slices ordered and not overlapping on every track), the trace's bound on a
long run, and bad options (exit 2)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TTX = os.environ.get("TTX", os.path.join(HERE, "..", "ttx"))
EXAMPLE = os.path.join(HERE, "..", "examples", "three_threads.s")
tmp = tempfile.mkdtemp(prefix="ttx-timing-")
failures = []


def run(args, expect=0):
    r = subprocess.run([TTX] + args, capture_output=True, text=True)
    if r.returncode != expect:
        raise AssertionError("ttx %s: exit %d, expected %d\n%s" % (" ".join(args), r.returncode, expect, r.stderr))
    return r


def test(fn):
    try:
        fn()
    except AssertionError as e:
        failures.append("%s: %s" % (fn.__name__, e))


def timing_lines(stderr):
    """The --stats lines of the cycle model, by their label."""
    keep = ("device cycles", "busy cycles by unit", "utilisation", "thread T", "MACs/cycle", "bottleneck")
    return [l for l in stderr.splitlines() if l.startswith(keep)]


@test
def stats_lines():
    r = run(["run", EXAMPLE, "--stats", "--engine", "interp"])
    lines = timing_lines(r.stderr)
    text = "\n".join(lines)
    m = re.search(r"^device cycles: (\d+)$", text, re.M)
    assert m and int(m.group(1)) > 0, text
    busy = re.search(r"^busy cycles by unit: matrix (\d+) sfpu (\d+) unpack (\d+) pack (\d+) mover (\d+) "
                     r"scalar (\d+) sync (\d+) config (\d+)$", text, re.M)
    assert busy, text
    assert int(busy.group(2)) > 0 and int(busy.group(2)) <= int(m.group(1)), text
    for th in range(3):
        assert re.search(r"^thread T%d: \d+ issued, busy \d+, stalled \d+" % th, text, re.M), text
    assert "estimated device time:" in r.stderr
    # --clock-ghz scales the estimate only
    r2 = run(["run", EXAMPLE, "--stats", "--engine", "interp", "--clock-ghz", "2"])
    assert "at 2.00 GHz" in r2.stderr
    us1 = float(re.search(r"estimated device time: ([\d.]+) us", r.stderr).group(1))
    us2 = float(re.search(r"estimated device time: ([\d.]+) us", r2.stderr).group(1))
    assert abs(us1 - 2 * us2) < 0.002, (us1, us2)


@test
def jit_same_totals():
    if "LLVM JIT" not in run(["--version"]).stdout:
        return   # --disable-jit: nothing to compare
    a = timing_lines(run(["run", EXAMPLE, "--stats", "--engine", "interp"]).stderr)
    b = timing_lines(run(["run", EXAMPLE, "--stats", "--engine", "jit"]).stderr)
    assert a == b, "\n".join(a + ["--- jit:"] + b)


def slices_by_track(trace):
    tracks = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "X":
            tracks.setdefault(e["tid"], []).append((e["ts"], e["dur"], e["name"]))
    return tracks


@test
def perfetto_three_threads():
    path = os.path.join(tmp, "three.json")
    r = run(["run", EXAMPLE, "--perfetto", path, "--stats"])
    with open(path) as f:
        trace = json.load(f)   # valid JSON
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    for th in range(3):
        assert "T%d issue" % th in names.values(), names
    tracks = slices_by_track(trace)
    for th in range(3):
        tid = [k for k, v in names.items() if v == "T%d issue" % th][0]
        assert tracks.get(tid), "no slices on thread %d's track" % th
    sfpu = [k for k, v in names.items() if v == "unit sfpu"][0]
    assert tracks.get(sfpu), "no slices on the SFPU's track"
    for tid, sl in tracks.items():
        for (t0, d0, n0), (t1, d1, n1) in zip(sl, sl[1:]):
            assert t1 >= t0 + d0 - 1e-9, "track %s: %s at %s overlaps %s at %s" % (names[tid], n1, t1, n0, t0)
        assert all(d > 0 for _, d, _ in sl)
    # the trace ends where the cycle model says the run ends
    cycles = int(re.search(r"^device cycles: (\d+)$", r.stderr, re.M).group(1))
    assert trace["metadata"]["device_cycles"] == cycles
    end = max(t + d for sl in tracks.values() for t, d, _ in sl)
    assert end <= cycles / 1000 + 1e-9, (end, cycles)
    counters = [e for e in trace["traceEvents"] if e.get("ph") == "C"]
    assert counters and "sfpu" in counters[0]["args"], counters[:1]


@test
def perfetto_bounded():
    # 300,000 alternating instructions: past 100,000 slices the trace
    # merges neighbours into bursts
    prog = os.path.join(tmp, "long.s")
    with open(prog, "w") as f:
        f.write(".rept 150000\nSFPLOADI 0, 0, 0x3F80\nSFPMAD 0, 0, 9, 1, 0\n.endr\n")
    path = os.path.join(tmp, "long.json")
    run(["run", prog, "--perfetto", path])
    with open(path) as f:
        trace = json.load(f)
    n = sum(1 for e in trace["traceEvents"] if e.get("ph") == "X")
    assert n < 110000, n
    assert os.path.getsize(path) < 30 * 1024 * 1024


@test
def op_matmul_bottleneck():
    # the kernel library's matmul on 128x128 BF16 at LoFi: 4 x 4 x 4 tile
    # steps of 16 MVMULs; each step unpacks two 2 KiB tiles at 16 B/cycle
    import numpy as np
    a = os.path.join(tmp, "a.npy")
    b = os.path.join(tmp, "b.npy")
    np.save(a, np.ones((128, 128), np.float32))
    np.save(b, np.ones((128, 128), np.float32))
    r = run(["op", "matmul", "--in", a, "--in", b, "--out", os.path.join(tmp, "c.npy"), "--fidelity", "lofi",
             "--stats"])
    assert re.search(r"^bottleneck: unpack \(busy", r.stderr, re.M), r.stderr
    macs = re.search(r"^MACs/cycle: ([\d.]+) of 2048", r.stderr, re.M)
    cycles = int(re.search(r"^device cycles: (\d+)$", r.stderr, re.M).group(1))
    assert macs and abs(float(macs.group(1)) * cycles - 128 ** 3) < cycles * 0.05 + 1, (macs.group(1), cycles)
    # the same op traced: the trace ends where --stats says
    path = os.path.join(tmp, "mm.json")
    run(["op", "matmul", "--in", a, "--in", b, "--out", os.path.join(tmp, "c.npy"), "--fidelity", "lofi",
         "--perfetto", path])
    with open(path) as f:
        trace = json.load(f)
    assert trace["metadata"]["device_cycles"] == cycles
    names = {e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"}
    assert {"T0 issue", "T1 issue", "T2 issue", "unit matrix", "unit unpack", "unit pack"} <= names, names


@test
def bad_options():
    for bad in ("0", "-1", "x", "1e9", ""):
        r = run(["run", EXAMPLE, "--clock-ghz", bad], expect=2)
        assert "--clock-ghz" in r.stderr, r.stderr
    r = run(["run", EXAMPLE, "--perfetto", "-", "--trace", "-", "--engine", "interp"], expect=2)
    assert "standard output" in r.stderr, r.stderr
    r = run(["run", EXAMPLE, "--perfetto", "-"])   # the trace on stdout
    assert json.loads(r.stdout)["metadata"]["device_cycles"] > 0
    r = run(["run", EXAMPLE, "--perfetto", os.path.join(tmp, "no", "such", "dir.json")], expect=2)
    assert "dir.json" in r.stderr, r.stderr
    # a bad program still reports as before, and writes no trace
    bad = os.path.join(tmp, "bad.s")
    with open(bad, "w") as f:
        f.write("NOSUCH 1\n")
    out = os.path.join(tmp, "bad.json")
    run(["run", bad, "--perfetto", out], expect=2)
    assert not os.path.exists(out)


shutil.rmtree(tmp, ignore_errors=True)
for f in failures:
    print("FAIL:", f)
print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
