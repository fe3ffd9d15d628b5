#!/usr/bin/env python3
"""How long does proving CUTLASS's generated kernel space take?  Prints a table; not a test.

Runs `python -m verifier prescreen-cutlass --arch A --jobs J` for each architecture in its own process, interleaving
the architectures over the rounds, and prints the medians with what each run proved (kernels, kernels mapped to a
CuTe configuration, distinct operand paths).  Needs cutlass_library (`pip install --no-deps nvidia-cutlass`).

    python benchmarks/prescreen.py [--rounds 3] [--jobs 2] [--level N] [--arch 80 --arch 100 ...]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURES = (80, 90, 100)         # prescreen-cutlass --arch choices, each timed unless --arch picks some


def one(arch: int, jobs: int, level: str) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "verifier", "prescreen-cutlass", "--arch", str(arch), "--jobs", str(jobs)]
    if level:
        cmd += ["--level", level]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(p.stderr[-2000:])
    return seconds, p.stdout.splitlines()[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--level", default="")
    ap.add_argument("--arch", type=int, action="append", choices=ARCHITECTURES,
                    help="time this architecture (repeatable; default: all)")
    args = ap.parse_args()
    times: dict[int, list[float]] = {arch: [] for arch in args.arch or ARCHITECTURES}
    heads: dict[int, str] = {}
    for _ in range(args.rounds):
        for arch in times:
            seconds, heads[arch] = one(arch, args.jobs, args.level)
            times[arch].append(seconds)
    print(f"machine: {os.cpu_count()} cores; --jobs {args.jobs}; {args.rounds} interleaved rounds, medians of the "
          "whole command (start, enumeration, mapping, proofs, report)")
    print(f"| {'arch':>4} | {'kernels':>7} | {'mapped':>6} | {'paths':>5} | {'median (s)':>10} |")
    print(f"|{'-' * 6}|{'-' * 9}|{'-' * 8}|{'-' * 7}|{'-' * 12}|")
    for arch, ts in times.items():
        m = re.search(r"(\d+) GEMM kernels, (\d+) mapped .*\((\d+) distinct", heads[arch])
        kernels, mapped, paths = m.groups() if m else ("?", "?", "?")
        print(f"| {arch:>4} | {kernels:>7} | {mapped:>6} | {paths:>5} | {statistics.median(ts):>10.2f} |")


if __name__ == "__main__":
    main()
