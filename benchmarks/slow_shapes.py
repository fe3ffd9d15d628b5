#!/usr/bin/env python3
"""The shapes that were slow, each against its baseline measured in the same run (interleaved rounds, medians,
fresh processes, no proof cache).  Prints a table; not a test.

  grid      one A-operand check of a 240x64 K-major tile on a 3x5 warp grid, against the same tile on 1x15 warps
  pitch     `prove` of a spec of padded-pitch checks (row pitches 72, 136, 264 halves), against `import z3`
  select    `prove --check NAME` on a file of 1,001 checks (1,000 of them one sweep), against proving that check
            alone in its own file

    python benchmarks/slow_shapes.py [--rounds 5] [--sections grid,pitch,select]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ATOMS = [ROOT / "specs/atoms/sm75.yaml", ROOT / "specs/atoms/sm80_f16.yaml"]


def prove(spec: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "verifier", "prove", str(spec), "--no-cache", "--allow-outside", *extra]


def wall(cmd: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-400:]}")
    return seconds


def header(extra: str = "") -> str:
    include = ", ".join(str(p) for p in ATOMS)
    return f"version: 2\nname: slow_shapes\ninclude: [{include}]\n{extra}checks:\n"


def tiled_check(name: str, warps: tuple[int, int], smem: str) -> str:
    return (f"  {name}:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n    copy: SM75_U32x4_LDSM_N\n"
            f"    value_type: half_t\n    atom_layout: [{warps[0]}, {warps[1]}, 1]\n    smem: \"{smem}\"\n")


def compare(rounds: int, label: str, case: list[str], base_label: str, base: list[str]) -> tuple[str, ...]:
    wall(case), wall(base)                   # once each, untimed: bytecode and the file cache
    a, b = [], []
    for _ in range(rounds):
        a.append(wall(case))
        b.append(wall(base))
    ma, mb = statistics.median(a), statistics.median(b)
    return label, f"{ma:.3f}", base_label, f"{mb:.3f}", f"{ma / mb:.2f}x"


def section_grid(rounds: int, scratch: Path) -> tuple[str, ...]:
    smem = "(240,64):(64,1)"
    grid, flat = scratch / "grid_3x5.yaml", scratch / "grid_1x15.yaml"
    grid.write_text(header() + tiled_check("a_3x5", (3, 5), smem))
    flat.write_text(header() + tiled_check("a_1x15", (1, 15), smem))
    return compare(rounds, "3x5 warps, 240x64 A", prove(grid), "1x15 warps, same tile", prove(flat))


def section_pitch(rounds: int, scratch: Path) -> tuple[str, ...]:
    spec = scratch / "pitch.yaml"
    spec.write_text(header() + "".join(tiled_check(f"a_pitch_{p}", (2, 2), f"(64,64):({p},1)")
                                       for p in (72, 136, 264)))
    return compare(rounds, "3 padded-pitch checks", prove(spec), "import z3", [sys.executable, "-c", "import z3"])


def section_select(rounds: int, scratch: Path) -> tuple[str, ...]:
    target = tiled_check("target", (2, 2), "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))")
    sweep = ("  other_{atom_layout}_{pitch}:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n"
             "    copy: SM75_U32x4_LDSM_N\n    value_type: half_t\n    smem: \"(128,64):({pitch},1)\"\n"
             "    sweep:\n      atom_layout: {w11: [1, 1, 1], w21: [2, 1, 1], w12: [1, 2, 1], w22: [2, 2, 1]}\n"
             "      pitch: [" + ", ".join(str(64 + 8 * i) for i in range(250)) + "]\n")
    large, alone = scratch / "large.yaml", scratch / "alone.yaml"
    large.write_text(header() + target + sweep)
    alone.write_text(header() + target)
    return compare(rounds, "--check target (a file of 1001 checks)", prove(large, "--check", "target"),
                   "target alone in its file", prove(alone))


SECTIONS = {"grid": section_grid, "pitch": section_pitch, "select": section_select}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sections", default=",".join(SECTIONS))
    args = ap.parse_args()
    rows = [("case", "median s", "baseline", "median s", "ratio")]
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sections.split(","):
            rows.append(SECTIONS[name](args.rounds, Path(tmp)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    print(f"({args.rounds} interleaved rounds, medians, fresh processes, no proof cache, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
