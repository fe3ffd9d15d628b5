#!/usr/bin/env python3
"""Throughput of `python -m verifier hw -`: N mixed TMA and wgmma queries through one process, in interleaved
rounds, against `python -c "import verifier.commands.hw"` (the start-up) measured in the same run.

Prints a table; not a test.   python benchmarks/hw_calculator.py [--n 1000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TMA = "tma --elem-bytes {e} --box {b0},{b1} --swizzle {s} --dst {d} --start 0,{r} --json"
WGMMA = ("wgmma --instruction wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16 --operand {op} --major {mj} "
         "--desc {desc} --json")


def queries(n: int) -> list[str]:
    out = []
    for i in range(n):
        if i % 2:
            e = (1, 2, 4, 8)[i % 4]
            s = ("none", "32B", "64B", "128B")[(i // 4) % 4]
            span = {"none": 128, "32B": 32, "64B": 64, "128B": 128}[s]
            out.append(TMA.format(e=e, b0=span // e, b1=8 + i % 8, s=s, d=1024 * (1 + i % 4), r=i % 5))
        else:
            desc = 0x4000004000010040 + (i % 16) * 0x40
            out.append(WGMMA.format(n=(8, 16, 32, 64)[i % 4], op="AB"[(i // 2) % 2], mj="K", desc=desc))
    return out


def run(cmd: list[str], stdin: str) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=ROOT)
    dt = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr[-500:]
    return dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    batch = "\n".join(queries(args.n)) + "\n"
    cmds = {f"hw - ({args.n} queries)": ([sys.executable, "-m", "verifier", "hw", "-"], batch),
            "import verifier.commands.hw": ([sys.executable, "-c", "import verifier.commands.hw"], "")}
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(args.rounds):
        for name, (cmd, stdin) in cmds.items():
            times[name].append(run(cmd, stdin))
    base = statistics.median(times["import verifier.commands.hw"])
    print(f"{'command':<28} {'median s':>9} {'min s':>8} {'per query ms':>13} {'/ start-up':>11}")
    for name, t in times.items():
        per = statistics.median(t) / args.n * 1000 if name.startswith("hw") else float("nan")
        med = statistics.median(t)
        print(f"{name:<28} {med:>9.3f} {min(t):>8.3f} {per:>13.3f} {med / base:>10.1f}x")


if __name__ == "__main__":
    main()
