#!/usr/bin/env python3
"""Throughput of `python -m verifier layout - --json`: N oracle expressions through one process.

Prints a table; not a test.   python benchmarks/calculator.py [--n 1000]
"""
from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    args = ap.parse_args()
    with gzip.open(ROOT / "tests" / "data" / "oracle_algebra.json.gz", "rt") as f:
        exprs = [c["expr"] for c in json.load(f) if c.get("expr")]
    batch = (exprs * (args.n // len(exprs) + 1))[: args.n]
    print(f"{'expressions':>12} {'wall s':>8} {'per expression ms':>18}")
    for n in (1, 100, args.n):
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "verifier", "layout", "-", "--json"], input="\n".join(batch[:n]),
                           capture_output=True, text=True, cwd=ROOT)
        dt = time.perf_counter() - t0
        assert len(p.stdout.splitlines()) == n
        print(f"{n:>12} {dt:>8.3f} {dt / n * 1000:>18.3f}")


if __name__ == "__main__":
    main()
