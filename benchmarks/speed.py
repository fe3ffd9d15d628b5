#!/usr/bin/env python3
"""How fast the verifier is at every size: one table.

Sections (each measured in this run, against a baseline measured in the same run, interleaved rounds, medians):
  start     `prove specs/sm80_f16.yaml` with an empty and with a warm proof cache, vs `python -c "import z3"`
  catalog   `prove specs/` with an empty cache at --jobs 1 and --jobs 2, and with a warm cache
  scaling   one A-operand check per tile size, row pitch and warp count (16x16 ... 4096x4096; pitches that are
            powers of two and padded ones: 648, 2008, 4008; 1-8 warps), in-process seconds from the JSON report
  cutlass   `import-cutlass` on a CUTLASS include/ directory and proving what it wrote (with --cutlass DIR)

Bytecode: the package is byte-compiled (compileall) before timing and the commands run with
PYTHONDONTWRITEBYTECODE unset, as after `pip install`; every command also runs once, untimed, before the rounds.
Not a test: prints numbers, asserts nothing.

    python benchmarks/speed.py [--rounds 5] [--sections start,catalog,scaling,cutlass] [--cutlass DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SECTIONS = ("start", "catalog", "scaling", "cutlass")

# (rows, cols, row pitch) of the K-major A tile; warps as the tiled MMA's atom layout along N (A's tile stays 16x16,
# so every size is a whole number of operand tiles)
SCALING_TILES = ((16, 16, 16), (64, 64, 64), (256, 256, 256), (1024, 1024, 1024), (4096, 4096, 4096),
                 (768, 640, 648), (2000, 2000, 2008), (4000, 4000, 4008))
SCALING_WARPS = (1, 2, 4, 8)


@dataclass
class Row:
    section: str
    measure: str
    median_s: float
    baseline: str = ""
    ratio: float | None = None
    note: str = ""


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    return time.perf_counter() - t0


def interleaved(commands: dict[str, list[str]], rounds: int, before_each: dict[str, object] | None = None
                ) -> dict[str, list[float]]:
    """Every round runs every command once, in the same order: all see the same machine state."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for cmd in commands.values():      # bytecode compiled, caches filled where a command fills them
        wall(cmd)
    for _ in range(rounds):
        for name, cmd in commands.items():
            hook = (before_each or {}).get(name)
            if callable(hook):
                hook()
            times[name].append(wall(cmd))
    return times


def section_start(rounds: int, scratch: Path) -> list[Row]:
    spec = "specs/sm80_f16.yaml"
    empty, warm = scratch / "empty-cache", scratch / "warm-cache"
    cmds = {
        'python -c "import z3"': [PY, "-c", "import z3"],
        f"prove {spec}, warm cache": [PY, "-m", "verifier", "prove", spec, f"--cache-dir={warm}"],
        f"prove {spec}, empty cache": [PY, "-m", "verifier", "prove", spec, f"--cache-dir={empty}"],
        f"prove {spec}, --no-cache": [PY, "-m", "verifier", "prove", spec, "--no-cache"],
    }
    t = interleaved(cmds, rounds, {cmds_name: (lambda: shutil.rmtree(empty, ignore_errors=True))
                                   for cmds_name in cmds if "empty cache" in cmds_name})
    base_name = 'python -c "import z3"'
    base = statistics.median(t[base_name])
    rows = [Row("start", base_name, base, base_name, 1.0)]
    for name in cmds:
        if name != base_name:
            m = statistics.median(t[name])
            rows.append(Row("start", name, m, base_name, m / base))
    return rows


def section_catalog(rounds: int, scratch: Path) -> list[Row]:
    warm = scratch / "catalog-cache"
    checks = len(json.loads(subprocess.run([PY, "-m", "verifier", "prove", "specs/", "--format", "json",
                                            f"--cache-dir={warm}"], cwd=ROOT, capture_output=True,
                                           text=True, env=ENV).stdout)["checks"])
    cmds = {
        "prove specs/ --jobs 1, no cache": [PY, "-m", "verifier", "prove", "specs/", "--jobs", "1", "--no-cache"],
        "prove specs/ --jobs 2, no cache": [PY, "-m", "verifier", "prove", "specs/", "--jobs", "2", "--no-cache"],
        "prove specs/ --jobs 1, warm cache": [PY, "-m", "verifier", "prove", "specs/", "--jobs", "1",
                                              f"--cache-dir={warm}"],
    }
    t = interleaved(cmds, rounds)
    base_name = "prove specs/ --jobs 1, no cache"
    base = statistics.median(t[base_name])
    rows = []
    for name in cmds:
        m = statistics.median(t[name])
        rows.append(Row("catalog", name, m, base_name, m / base, f"{checks} checks, {m / checks * 1000:.1f} ms/check"))
    return rows


def scaling_spec(path: Path) -> list[str]:
    lines = ["version: 2", "name: scaling", "include: [%s, %s]" % (ROOT / "specs/atoms/sm75.yaml",
                                                                 ROOT / "specs/atoms/sm80_f16.yaml"), "checks:"]
    names = []
    for rows_, cols, pitch in SCALING_TILES:
        for warps in SCALING_WARPS:
            name = f"a_{rows_}x{cols}_pitch{pitch}_{warps}warps"
            names.append(name)
            lines += [f"  {name}:", "    mma: SM80_16x8x16_F16F16F16F16_TN", "    operand: A",
                      "    copy: SM75_U32x4_LDSM_N", "    value_type: half_t",
                      f"    atom_layout: [1, {warps}, 1]", f'    smem: "({rows_},{cols}):({pitch},1)"']
    path.write_text("\n".join(lines) + "\n")
    return names


def section_scaling(rounds: int, scratch: Path) -> list[Row]:
    """Each configuration in its own process (no memo shared between configurations), in-process seconds of its
    check from the JSON report; one row per tile and pitch, the slowest warp count as its median."""
    spec = scratch / "scaling.yaml"
    names = scaling_spec(spec)
    seconds: dict[str, list[float]] = {n: [] for n in names}
    verdicts: dict[str, str] = {}
    procedures: dict[str, set[str]] = {}
    for _ in range(rounds):
        for name in names:
            out = subprocess.run([PY, "-m", "verifier", "prove", str(spec), "--check", name, "--allow-outside",
                                  "--no-cache", "--format", "json"], cwd=ROOT, capture_output=True, text=True,
                                 env=ENV).stdout
            (c,) = json.loads(out)["checks"]
            seconds[name].append(c["seconds"])
            verdicts[name] = c["verdict"]
            procedures.setdefault(name, set()).update(o["procedure"] for t in c["theorems"]
                                                      for o in t["obligations"] if o.get("procedure"))
    base_name = names[0]
    base = statistics.median(seconds[base_name])
    rows = []
    for rows_, cols, pitch in SCALING_TILES:
        group = [n for n in names if n.startswith(f"a_{rows_}x{cols}_pitch{pitch}_")]
        med = {n: statistics.median(seconds[n]) for n in group}
        worst = max(med.values())
        per_warp = ", ".join(f"{w}w {med[n]:.3f}" for w, n in zip(SCALING_WARPS, group))
        states = sorted({verdicts[n] for n in group})
        procs = sorted(set().union(*(procedures[n] for n in group)) - {"evaluation"})
        rows.append(Row("scaling", f"A {rows_}x{cols}, pitch {pitch}, 1-8 warps (slowest)", worst,
                        f"A 16x16, 1 warp ({base:.3f} s)", worst / base,
                        f"{per_warp}; {'/'.join(states)}; {' + '.join(procs)}"))
    return rows


def section_cutlass(rounds: int, scratch: Path, cutlass: Path | None) -> list[Row]:
    if cutlass is None:
        return [Row("cutlass", "import-cutlass (skipped: no --cutlass DIR)", float("nan"))]
    out = scratch / "imported"
    imp = [PY, "-m", "verifier", "import-cutlass", str(cutlass), "-o", str(out)]
    prove = [PY, "-m", "verifier", "prove", str(out), "--allow-outside", "--no-cache"]
    times: dict[str, list[float]] = {"import": [], "prove": []}
    for _ in range(rounds):
        shutil.rmtree(out, ignore_errors=True)
        times["import"].append(wall(imp))
        times["prove"].append(wall(prove))
    i, p = statistics.median(times["import"]), statistics.median(times["prove"])
    return [Row("cutlass", "import-cutlass include/", i), Row("cutlass", "prove what it wrote", p),
            Row("cutlass", "import + prove", i + p)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--cutlass", type=Path, help="a CUTLASS include/ directory (the cutlass section)")
    args = ap.parse_args()
    wanted = [s for s in args.sections.split(",") if s]
    unknown = set(wanted) - set(SECTIONS)
    if unknown:
        ap.error(f"unknown sections {sorted(unknown)}; choose from {', '.join(SECTIONS)}")
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "verifier")], check=True, env=ENV,
                   stdout=subprocess.DEVNULL)
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {args.rounds} rounds, medians; "
          "bytecode compiled (compileall), one untimed run of each command first")
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for s in wanted:
            if s == "start":
                rows += section_start(args.rounds, scratch)
            elif s == "catalog":
                rows += section_catalog(args.rounds, scratch)
            elif s == "scaling":
                rows += section_scaling(args.rounds, scratch)
            else:
                rows += section_cutlass(args.rounds, scratch, args.cutlass)
    print(f"| {'section':<8} | {'measure':<46} | {'median':>9} | {'ratio':>7} | {'baseline / note':<48} |")
    print(f"|{'-' * 10}|{'-' * 48}|{'-' * 11}|{'-' * 9}|{'-' * 50}|")
    for r in rows:
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else ""
        extra = "; ".join(x for x in (f"vs {r.baseline}" if r.baseline and r.ratio != 1.0 else "", r.note) if x)
        print(f"| {r.section:<8} | {r.measure:<46} | {r.median_s:>8.3f}s | {ratio:>7} | {extra:<48} |")


if __name__ == "__main__":
    main()
