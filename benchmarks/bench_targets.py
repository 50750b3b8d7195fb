#!/usr/bin/env python3
"""ttx built several ways on one host, timed in one run (issue 33).

    benchmarks/bench_targets.py --build avx512=/path/a --build v4=/path/b \
        --build v3=/path/c [--jit-cpu v3=x86-64-v3] [--rounds 3] [--quick]

Each --build is a configured and built tree (`make` and the benchmark
programs: `make benchmarks/bench_matrix benchmarks/bench_sfpu
benchmarks/bench_pack benchmarks/bench_ops`).  The demo and the four
benchmarks run in every tree in turn (--jit-cpu: that build's JIT makes
code for another CPU, as on an AVX2 host), round after round, and each line's
best is kept; the table gives every line's figure per build and the
slowdown of each build against the first (first's rate / this rate, or this
time / first's time: 1.00 is as fast, 1.50 is 50 % slower).
docs/portability.md; results in benchmarks/RESULTS.md.
"""
import argparse
import os
import re
import subprocess
import sys


def run(cmd, cwd, jit_cpu=None):
    env = dict(os.environ)
    if jit_cpu:
        env["TTX_JIT_CPU"] = jit_cpu
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("bench_targets: %s in %s failed:\n%s" % (" ".join(cmd), cwd, p.stdout))
    return p.stdout


def num(text):
    """'1.2e+06', '126 k', '5.046' -> float"""
    text = text.strip()
    scale = 1.0
    if text.endswith(" k"):
        scale, text = 1e3, text[:-2]
    return float(text) * scale


def demo(out):
    """(line, value, higher is better)"""
    for line in out.splitlines():
        m = re.match(r"\s+(interp|jit again)\s+([0-9.]+)\s", line)
        if m:
            yield "demo: %s (s)" % m.group(1), float(m.group(2)), False


def matrix(out):
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) >= 5 and re.match(r"^[0-9.]+$", cells[2] or "x"):
            yield "matrix: %s, interp (G MAC/s)" % cells[1], float(cells[2]), True
            yield "matrix: %s, JIT (G MAC/s)" % cells[1], float(cells[3]), True


def sfpu(out):
    for line in out.splitlines():
        m = re.match(r"^(\S.*?)\s+([0-9.]+) M insns/s", line)
        if m:
            yield "sfpu: %s (M insns/s)" % m.group(1), float(m.group(2)), True


def pack(out):
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) >= 7 and cells[3].endswith(" k"):
            yield "pack: %s unpack (tiles/s)" % cells[1], num(cells[3]), True
            yield "pack: %s pack (tiles/s)" % cells[1], num(cells[5]), True


def ops(out):
    for line in out.splitlines():
        m = re.match(r"^(\S.*?)\s+([0-9.e+]+)\s+([0-9.e+]+)\s+[0-9.]+\s+", line)
        if m and not line.startswith("operation"):
            yield "ops: %s, interp (el/s)" % m.group(1), float(m.group(2)), True
            yield "ops: %s, JIT (el/s)" % m.group(1), float(m.group(3)), True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", action="append", required=True, metavar="NAME=DIR")
    ap.add_argument("--jit-cpu", action="append", default=[], metavar="NAME=CPU",
                    help="the JIT of build NAME generates code for CPU (TTX_JIT_CPU), e.g. v3=x86-64-v3")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="shorter benchmark runs")
    a = ap.parse_args()
    builds = []
    for b in a.build:
        name, _, path = b.partition("=")
        if not path or not os.path.isfile(os.path.join(path, "ttx")):
            sys.exit("bench_targets: --build %s: expected NAME=DIR with a built ttx in DIR" % b)
        builds.append((name, os.path.abspath(path)))
    jit_cpu = dict(x.split("=", 1) for x in a.jit_cpu)
    q = ["--quick"] if a.quick else []
    benches = [
        (["./ttx", "demo"], demo),
        (["./benchmarks/bench_matrix"] + q, matrix),
        (["./benchmarks/bench_sfpu"] + (["20000"] if a.quick else []), sfpu),
        (["./benchmarks/bench_pack"] + (["500"] if a.quick else []), pack),
        (["./benchmarks/bench_ops"] + q, ops),
    ]
    best, order = {}, []
    for r in range(a.rounds):
        for cmd, parse in benches:
            for name, path in builds:
                print("round %d/%d: %s in %s" % (r + 1, a.rounds, " ".join(cmd), name), file=sys.stderr, flush=True)
                for line, value, higher in parse(run(cmd, path, jit_cpu.get(name))):
                    key = (line, name)
                    if line not in order:
                        order.append(line)
                    if key not in best or (value > best[key] if higher else value < best[key]):
                        best[key] = value
                    best[(line, "higher")] = higher
    names = [n for n, _ in builds]
    print("| line | " + " | ".join(names) + " | " + " | ".join("%s / %s" % (n, names[0]) for n in names[1:]) + " |")
    print("|---" * (1 + 2 * len(names) - 1) + "|")
    worst = {n: (0.0, "") for n in names[1:]}
    for line in order:
        vals = [best.get((line, n)) for n in names]
        if None in vals or vals[0] == 0:
            continue
        higher = best[(line, "higher")]
        ratios = [(vals[0] / v if higher else v / vals[0]) if v else float("inf") for v in vals[1:]]
        for n, rt in zip(names[1:], ratios):
            if rt > worst[n][0]:
                worst[n] = (rt, line)
        print("| %s | %s | %s |" % (line, " | ".join("%.4g" % v for v in vals), " | ".join("%.2f" % x for x in ratios)))
    for n in names[1:]:
        print("\nworst %s / %s: %.2f (%s)" % (n, names[0], worst[n][0], worst[n][1]))


if __name__ == "__main__":
    main()
