"""Families against their members written out: each family of specs/catalog/sm80_families.yaml proved as one check
(`prove --check NAME`) and, in the same rounds, its members written out as plain checks in one spec file and proved
together; interleaved rounds, medians, and the ratio to the written-out members (the baseline).

    python benchmarks/families.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "specs" / "catalog" / "sm80_families.yaml"


def written_out(name: str) -> tuple[str, int]:
    """The family's members as plain checks: the template's text with each member's values put in."""
    from ruamel.yaml import YAML

    from verifier.specfile import load_spec
    from verifier.specfile.family import FamilyCheck, substitute
    spec = load_spec(CATALOG)
    family = spec.checks[name]
    assert isinstance(family, FamilyCheck)
    doc = YAML().load(CATALOG.read_text())
    template = next(body for key, body in doc["checks"].items()
                    if name == key or ("{operand}" in key and name == key.replace("{operand}", family.operand or "")))
    lines = ["version: 2", "name: written_out",
             "include: [" + ", ".join(str((CATALOG.parent / p).resolve()) for p in doc["include"]) + "]", "checks:"]
    for i, m in enumerate(family.members):
        lines.append(f"  member_{i}:")
        for key, value in template.items():
            if key in ("family", "sweep", "description"):
                continue
            if isinstance(value, str):
                value = substitute(value.replace("{operand}", family.operand or ""), m.point)
                lines.append(f"    {key}: \"{value}\"")
            else:
                lines.append(f"    {key}: {list(value) if not isinstance(value, (int, str)) else value}")
        if "operand" not in template:
            lines.append(f"    operand: {family.operand}")
    return "\n".join(lines) + "\n", len(family.members)


def prove(*args: str) -> float:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", *args, "--no-cache"], capture_output=True,
                       text=True, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit(f"prove {' '.join(args)} exited {p.returncode}: {p.stdout[-800:]}{p.stderr[-800:]}")
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from verifier.specfile import load_spec
    names = list(load_spec(CATALOG).checks)
    with tempfile.TemporaryDirectory() as scratch:
        plain: dict[str, tuple[Path, int]] = {}
        for name in names:
            text, n = written_out(name)
            path = Path(scratch) / f"{name}.yaml"
            path.write_text(text)
            plain[name] = (path, n)
        times: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in names}
        for _ in range(args.rounds):
            for name in names:          # interleaved: the family, then its members written out, name by name
                times[name][0].append(prove(str(CATALOG), "--check", name))
                times[name][1].append(prove(str(plain[name][0]), "--allow-outside"))
    print(f"families of {CATALOG.relative_to(ROOT)}, {args.rounds} interleaved rounds, median wall seconds of "
          "`prove` (one process each, --no-cache)\n")
    print(f"| {'family':<28} | members | {'family':>8} | {'members written out':>19} | {'ratio':>6} |")
    print(f"|{'-' * 30}|---------|{'-' * 10}|{'-' * 21}|{'-' * 8}|")
    for name in names:
        fam, out = (statistics.median(x) for x in times[name])
        print(f"| {name:<28} | {plain[name][1]:>7} | {fam:>7.3f}s | {out:>18.3f}s | {fam / out:>5.2f}x |")


if __name__ == "__main__":
    main()
