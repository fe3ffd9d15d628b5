#!/usr/bin/env python3
"""Loading the catalog's spec files with libyaml composing where it may, and with ruamel's pure-Python parser only.

Every spec file under specs/ (or the paths given) loaded by one loader, as a run loads them (an include parsed
once); interleaved rounds in this process, medians; the largest file also alone. Not a test: prints numbers.

    python benchmarks/yaml_load.py [--rounds 7] [PATH ...]
"""
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.specfile import libyaml  # noqa: E402
from verifier.specfile.files import spec_files  # noqa: E402
from verifier.specfile.loader import SpecLoader  # noqa: E402


def timed(load: Callable[[], object], with_libyaml: bool) -> float:
    with contextlib.nullcontext() if with_libyaml else libyaml.turned_off():
        t0 = time.perf_counter()
        load()
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "specs")])
    args = ap.parse_args()
    if not libyaml.available():
        raise SystemExit("ruamel.yaml.clib (libyaml) is not installed: nothing to compare")
    files = spec_files(args.paths)
    largest = max(files, key=os.path.getsize)

    def load_all() -> None:
        loader = SpecLoader(False)
        for f in files:
            loader.load(f)

    cases = {f"all {len(files)} files ({sum(map(os.path.getsize, files)) // 1024} KB)": load_all,
             f"{os.path.relpath(largest, ROOT)} ({os.path.getsize(largest) // 1024} KB)":
                 lambda: SpecLoader(False).load(largest)}
    times: dict[tuple[str, bool], list[float]] = {(c, w): [] for c in cases for w in (True, False)}
    for _ in range(args.rounds):
        for case, load in cases.items():
            for with_libyaml in (True, False):
                times[(case, with_libyaml)].append(timed(load, with_libyaml))
    print(f"{args.rounds} interleaved rounds in one process, medians")
    print(f"| {'files':<44} | libyaml where it may (s) | ruamel's parser only (s) | ratio |")
    print(f"|{'-' * 46}|{'-' * 26}|{'-' * 26}|-------|")
    for case in cases:
        fast, pure = statistics.median(times[(case, True)]), statistics.median(times[(case, False)])
        print(f"| {case:<44} | {fast:>24.3f} | {pure:>24.3f} | {pure / fast:>4.1f}x |")


if __name__ == "__main__":
    main()
