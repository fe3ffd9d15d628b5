#!/usr/bin/env python3
"""Time to prove one SM90 mainloop: the 128x256x64 Cooperative tile (2 warpgroups, 128-byte swizzle, 4 stages),
operands A and B of specs/catalog/sm90_gmma.yaml, against `python -c "import z3"` (the start-up every prove
pays) and the SM80 seed check, measured in the same run in interleaved rounds.

Prints tables; not a test.      python benchmarks/sm90_check.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = "specs/catalog/sm90_gmma.yaml"
CHECKS = ("cooperative_128x256x64_f16_tn_a", "cooperative_128x256x64_f16_tn_b")


def prove_cmd(spec: str, checks: tuple[str, ...], fmt: str = "text") -> list[str]:
    cmd = [sys.executable, "-m", "verifier", "prove", spec, "--no-cache", "--format", fmt]   # every round proves
    for c in checks:
        cmd += ["--check", c]
    return cmd


def wall(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-400:]}")
    return dt, p.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    commands = {
        "prove SM90 128x256x64 A+B (wall)": prove_cmd(SPEC, CHECKS, "json"),
        "prove SM80 seed check (wall)": prove_cmd("specs/sm80_f16.yaml", ("ldsm_x4_a_kmajor",), "json"),
        'python -c "import z3"': [sys.executable, "-c", "import z3"],
    }
    walls: dict[str, list[float]] = defaultdict(list)
    inproc: dict[str, list[float]] = defaultdict(list)
    per_theorem: dict[str, list[float]] = defaultdict(list)
    for _ in range(args.rounds):          # interleaved: every command sees the same machine state each round
        for name, cmd in commands.items():
            dt, out = wall(cmd)
            walls[name].append(dt)
            if out.startswith("{"):
                report = json.loads(out)
                inproc[name].append(sum(c["seconds"] for c in report["checks"]))
                if "SM90" in name:
                    for c in report["checks"]:
                        for t in c["theorems"]:
                            per_theorem[f'{t["number"]:>2} {t["id"]}'].append(t["seconds"])
    base = statistics.median(walls['python -c "import z3"'])
    print(f"{args.rounds} interleaved rounds; checks {', '.join(CHECKS)} of {SPEC}")
    print(f"{'command':<36} {'wall median':>12} {'wall min':>9} {'/ import z3':>12} {'proving median':>15}")
    for name, t in walls.items():
        proving = f"{statistics.median(inproc[name]):>14.3f}s" if inproc[name] else f"{'':>15}"
        print(f"{name:<36} {statistics.median(t):>11.3f}s {min(t):>8.3f}s {statistics.median(t) / base:>11.2f}x "
              f"{proving}")
    print()
    print(f"{'theorem (both checks, per round)':<36} {'median ms':>10}")
    rounds = args.rounds
    for k in sorted(per_theorem):
        v = per_theorem[k]
        sums = [sum(v[i::rounds]) for i in range(rounds)] if len(v) >= rounds else v
        print(f"{k:<36} {statistics.median(sums) * 1000:>10.1f}")


if __name__ == "__main__":
    main()
