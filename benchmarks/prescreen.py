#!/usr/bin/env python3
"""How long does proving CUTLASS's generated kernel space take?  Prints a table; not a test.

Runs `python -m verifier prescreen-cutlass --arch A --jobs J [--level N]` for each architecture in its own process,
interleaving the architectures over the rounds, and prints the medians (the whole command's wall time, and the CPU
time of it and its children: on a shared machine the second says more) with what each run proved (kernels, kernels
mapped to a CuTe configuration, distinct operand paths; with --level, the families the kernels fall into and the
sampled members cross-checked, and the medians of the phases the command reports: listing, mapping and
cross-checks, proofs and report).  Needs cutlass_library (`pip install --no-deps nvidia-cutlass`).

With --level and --generator-floor, each round also times CUTLASS's generator alone for the level: GenerateSM<arch>
with its 3.x Create functions made no-ops (no kernel is built, named or recorded), its call sequence cut in two as
the listing cuts it and both parts run at once in their own processes (the listing's own set-up: its memo of
to_grouped_schedule) -- the least that listing the space through the generator costs, whatever is done with it.

With --baseline-rev REV, each round runs the command of the verifier package as it was at REV (git archive) just
before this tree's, and the table has a row for each with the ratio of this tree's median to the baseline's, measured
in the same run: on a shared machine whose speed drifts, rounds run back to back compare better than runs apart.

    python benchmarks/prescreen.py [--rounds 3] [--jobs 2] [--level N [--generator-floor]] [--arch 80 ...]
                                   [--baseline-rev REV]
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from revision import unpacked

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURES = (80, 90, 100)         # prescreen-cutlass --arch choices, each timed unless --arch picks some


# the first line of the report: per kernel (the default space), or by families (--level)
KERNELS = re.compile(r"(?P<kernels>\d+) GEMM kernels, (?P<mapped>\d+) mapped .*\((?P<paths>\d+) distinct")
FAMILIES = re.compile(r"(?P<kernels>\d+) GEMM kernels in (?P<families>\d+) families, (?P<mapped>\d+) kernels "
                      r"\((?P<mapped_families>\d+) families\) mapped .*\((?P<paths>\d+) distinct operand paths "
                      r"proved[^;]*; "
                      r"(?P<samples>\d+) sampled")
# ... and its phases (--level)
PHASES = re.compile(r"enumeration (?P<listing>[\d.]+) s, mapping and cross-checks (?P<mapping>[\d.]+) s, proofs and "
                    r"report (?P<proofs>[\d.]+) s")
PHASE_COLUMNS = ("listing", "mapping", "proofs")


THIS_TREE = "this tree"


def one(arch: int, jobs: int, level: str, tree: Path = ROOT) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the command and its children) and the report's first line of one run of the
    verifier package under `tree`."""
    cmd = [sys.executable, "-m", "verifier", "prescreen-cutlass", "--arch", str(arch), "--jobs", str(jobs)]
    if level:
        cmd += ["--level", level]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise SystemExit(p.stderr[-2000:])
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, p.stdout.splitlines()[0]


def generator_part(arch: int, level: str, part: int) -> None:
    """(In its own process) the generator's part `part` of its call sequence at `level`, every 3.x Create a no-op."""
    sys.path.insert(0, str(ROOT))
    from verifier.prescreen.families import generator_alone
    generator_alone(arch, level, part)


def floor(arch: int, level: str) -> tuple[float, float]:
    """Wall and CPU seconds of the generator's two parts at once (`generator_part`), each in its own process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    children = [subprocess.Popen([sys.executable, __file__, "--generator-part", str(part), "--level", level,
                                  "--arch", str(arch)], cwd=ROOT) for part in (0, 1)]
    if any(c.wait() != 0 for c in children):
        raise SystemExit("a part of the generator failed")
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--level", default="")
    ap.add_argument("--arch", type=int, action="append", choices=ARCHITECTURES,
                    help="time this architecture (repeatable; default: all)")
    ap.add_argument("--generator-floor", action="store_true",
                    help="with --level: also time CUTLASS's generator alone (its Create calls no-ops)")
    ap.add_argument("--generator-part", type=int, choices=(0, 1), help=argparse.SUPPRESS)   # floor's child
    ap.add_argument("--baseline-rev", metavar="REV", help="also time the verifier package at this git revision")
    args = ap.parse_args()
    if args.generator_part is not None:
        generator_part(args.arch[0], args.level, args.generator_part)
        return
    if args.generator_floor and not args.level:
        ap.error("--generator-floor needs --level")
    with tempfile.TemporaryDirectory() as scratch:
        trees = ({f"baseline {args.baseline_rev}": unpacked(args.baseline_rev, Path(scratch))}
                 if args.baseline_rev else {})
        trees[THIS_TREE] = ROOT
        measure(args, trees)


Row = tuple[int, str]         # (arch, tree)


def measure(args: argparse.Namespace, trees: dict[str, Path]) -> None:
    """Run the rounds over every architecture and tree (interleaved), then print the tables."""
    rows: list[Row] = [(arch, tree) for arch in args.arch or ARCHITECTURES for tree in trees]
    floors: dict[int, list[tuple[float, float]]] = {arch: [] for arch in args.arch or ARCHITECTURES}
    times: dict[Row, list[float]] = {row: [] for row in rows}
    cpus: dict[Row, list[float]] = {row: [] for row in rows}
    heads: dict[Row, str] = {}
    phases: dict[Row, list[dict[str, float]]] = {row: [] for row in rows}   # the command's own, by its report
    for _ in range(args.rounds):
        for arch in floors:
            if args.generator_floor:
                floors[arch].append(floor(arch, args.level))
            for tree, where in trees.items():
                row = (arch, tree)
                seconds, cpu, heads[row] = one(arch, args.jobs, args.level, where)
                times[row].append(seconds)
                cpus[row].append(cpu)
                said = PHASES.search(heads[row])
                if said:
                    phases[row].append({k: float(v) for k, v in said.groupdict().items()})
    print(f"machine: {os.cpu_count()} cores; --jobs {args.jobs}" + (f"; --level {args.level}" if args.level else "")
          + f"; {args.rounds} interleaved rounds, medians of the whole command (start, enumeration, mapping, proofs, "
          "report)")
    compared = len(trees) > 1
    columns = (("tree",) if compared else ()) + (
        "arch", "kernels", "families", "mapped", "mapped families", "paths", "samples checked", "median (s)",
        "median CPU (s)") + tuple(f"{c} (s)" for c in PHASE_COLUMNS if args.level) + (
        ("ratio to the baseline",) if compared else ())
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" for _ in columns) + "|")
    for (arch, tree), ts in times.items():
        head = heads[(arch, tree)]
        # a level of an architecture the families do not list (SM80, SM100) goes kernel by kernel: its line is the
        # default space's
        found = (FAMILIES.search(head) if args.level else None) or KERNELS.search(head)
        got = found.groupdict() if found else {}
        cells = ([tree] if compared else []) + [str(arch)] + [
            got.get(c, "-" if found else "?")      # "-": not a column of the default space's line
            for c in ("kernels", "families", "mapped", "mapped_families", "paths", "samples")]
        cells += [f"{statistics.median(ts):.2f}", f"{statistics.median(cpus[(arch, tree)]):.2f}"]
        if args.level:      # the medians of the phases the command reports (listing, mapping and cross-checks,
            #                  proofs and report)
            reported = phases[(arch, tree)]
            cells += [f"{statistics.median(p[c] for p in reported):.1f}" if reported else "-" if found else "?"
                      for c in PHASE_COLUMNS]
        if compared:        # this tree's median (or the baseline's own) over the baseline's, same architecture
            first = statistics.median(times[(arch, next(iter(trees)))])
            cells.append(f"{statistics.median(ts) / first:.2f}")
        print("| " + " | ".join(cells) + " |")
    if args.generator_floor:
        print()
        print("CUTLASS's generator alone at this level (3.x Create calls no-ops; its two parts at once, each in its "
              "own process), medians:")
        print("| arch | wall (s) | CPU (s) |")
        print("|---|---|---|")
        for arch, measured in floors.items():
            print(f"| {arch} | {statistics.median(w for w, _ in measured):.2f} | "
                  f"{statistics.median(c for _, c in measured):.2f} |")


if __name__ == "__main__":
    main()
