#!/usr/bin/env python3
"""Wall time of `python -m verifier prove SPEC` against `python -c "import z3"`, and solver time per theorem.

Prints tables; not a test.  The first run of each command is the coldest this script can see (file
caches of this machine may still be warm; run it right after boot for a truly cold number).

    python benchmarks/prove_time.py [specs/sm80_f16.yaml] [--runs 5]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", default="specs/sm80_f16.yaml")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cross-check", action="store_true", help="also time prove --cross-check")
    args = ap.parse_args()
    py = sys.executable
    prove = [py, "-m", "verifier", "prove", args.spec, "--no-cache"]   # every round proves
    imp = [py, "-c", "import z3"]
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {args.runs} interleaved rounds")
    commands: tuple[tuple[str, list[str]], ...] = (
        (f"python -m verifier prove {args.spec}", prove), ('python -c "import z3"', imp))
    if args.cross_check:
        commands = ((f"python -m verifier prove {args.spec} --cross-check", prove + ["--cross-check"]),) + commands
    times: dict[str, list[float]] = {name: [] for name, _ in commands}
    for _ in range(args.runs):            # interleaved: both commands see the same machine state each round
        for name, cmd in commands:
            times[name].append(wall(cmd))
    baseline = statistics.median(times[commands[-1][0]])
    print(f"{'command':<48} {'first run':>10} {'median':>10} {'min':>10} {'/ import z3':>12}")
    for name, _ in commands:
        t = times[name]
        print(f"{name:<48} {t[0]:>9.3f}s {statistics.median(t):>9.3f}s {min(t):>9.3f}s "
              f"{statistics.median(t) / baseline:>11.1f}x")
    out = subprocess.run(prove + ["--format", "json"], cwd=ROOT, capture_output=True, text=True).stdout
    report = json.loads(out)
    per_theorem: dict[str, list[float]] = defaultdict(list)
    obligations: dict[str, int] = defaultdict(int)
    for c in report["checks"]:
        for t in c["theorems"]:
            per_theorem[f'{t["number"]} {t["id"]}'].append(t["seconds"])
            obligations[f'{t["number"]} {t["id"]}'] += len(t["obligations"])
    print()
    print(f"{len(report['checks'])} checks, in-process {report['summary']['seconds']:.3f}s")
    print(f"{'theorem':<28} {'checks':>7} {'obligations':>12} {'total ms':>10} {'max ms':>9}")
    for k in sorted(per_theorem, key=lambda s: int(s.split()[0])):
        v = per_theorem[k]
        print(f"{k:<28} {len(v):>7} {obligations[k]:>12} {sum(v) * 1000:>10.1f} {max(v) * 1000:>9.1f}")


if __name__ == "__main__":
    main()
