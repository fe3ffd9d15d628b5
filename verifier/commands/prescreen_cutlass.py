"""`python -m verifier prescreen-cutlass --arch 80|90|100 [--level N] [--jobs N] [--format ...] [--spec-out DIR]`.

Every GEMM kernel the generator emits (space.py) is mapped to its CuTe configuration (builders.py); the distinct
operand paths are written as one spec (several for a large --level's space; kept under --spec-out to re-prove or
edit), proved once each, and every
kernel gets the verdict of its paths: verified, refuted (with the counterexample), refused by CuTe's rule, or not
mapped (with the reason).  The report is per kernel (JUnit / JSON / Markdown name each kernel, SARIF each operand
path not verified); the text format prints the summary table and the operand paths not verified, each with the
kernels made of it.

Exit status: 0 when no mapped kernel is refuted, refused or in error; 1 when one is; 4 on an internal error;
2 for bad input (no cutlass_library, an unknown architecture, an output that cannot be written).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..echo import quote
from ..outcome import Expect, ExitCode, Verdict
from ..specfile.model import SpecError
from ..prescreen.space import ARCHITECTURES, SpaceError
from ..prescreen.families import FAMILY_ARCHITECTURES
from ..prescreen.run import FORMATS, SHOWN_NOT_VERIFIED, RuleError, run, summary_table

if TYPE_CHECKING:
    from ..theorems.result import CheckResult

PATH_NAMES = 3          # the results a failing operand path's line names in the text report


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m verifier prescreen-cutlass",
                                 description="prove every GEMM kernel CUTLASS's generator emits for an architecture")
    ap.add_argument("--arch", type=int, required=True, choices=sorted(ARCHITECTURES))
    ap.add_argument("--level", default="", help="the generator's instantiation level (default: its default space)")
    ap.add_argument("--jobs", "-j", type=int, default=1, metavar="N")
    ap.add_argument("--format", choices=FORMATS, default="text")
    ap.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the report here (the table is printed)")
    ap.add_argument("--spec-out", type=Path, metavar="DIR", help="keep the spec of the distinct operand paths here")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.level and not re.fullmatch(r"\d{1,4}", args.level):
        ap.error("--level is the generator's instantiation level, 1 to 4 digits (e.g. 1 or 2222), not "
                 + quote(args.level))
    if args.level and args.arch in FAMILY_ARCHITECTURES:
        return _by_families(args)
    try:
        results, mapped, paths, seconds = run(args.arch, args.level, args.jobs, args.spec_out)
    except (SpaceError, SpecError) as e:
        print(f"error: {e}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except RuleError as e:
        print(f"internal error: {e}", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR
    except OSError as e:
        print(f"error: {e.filename}: {e.strerror}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    table = summary_table(args.arch, results, mapped, paths, seconds)
    return _report(args, results, table, seconds, ("kernel", "kernels"))


def _by_families(args: argparse.Namespace) -> int:
    """--level: the space as families (prescreen/families.py), each proved once, exact kernel counts; the report names
    each family by its first kernel."""
    from ..prescreen.family_run import FamilyMismatch, family_table, run_families
    try:
        found = run_families(args.arch, args.level, args.jobs, args.spec_out)
    except (SpaceError, SpecError) as e:
        print(f"error: {e}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except (RuleError, FamilyMismatch) as e:
        print(f"internal error: {e}", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR
    except OSError as e:
        print(f"error: {e.filename}: {e.strerror}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    table = family_table(args.arch, args.level, found)
    return _report(args, found.results, table, found.seconds, ("family", "families"), found.kernels)


def _not_verified_text(results: list[CheckResult], weights: list[int], unit: tuple[str, str]) -> list[str]:
    """The text report's results not verified, by the operand path they fail at (`by_failing_path`): the first
    SHOWN_NOT_VERIFIED paths, those failing the most kernels first, each with its failure once and the results made of
    it counted and named; then any result not verified none of whose paths is."""
    from ..report import text
    from ..report.by_path import by_failing_path, first_named
    from ..report.failures import safe
    one, many = unit
    failing, alone = by_failing_path(results)
    failing.sort(key=lambda f: (-sum(weights[i] for i in f.checks), f.path.name))
    lines: list[str] = []
    for failure in failing[:SHOWN_NOT_VERIFIED]:
        kernels = sum(weights[i] for i in failure.checks)
        names = first_named([results[i].name for i in failure.checks], PATH_NAMES, safe)
        counted = (f"{len(failure.checks)} {one if len(failure.checks) == 1 else many}"
                   + (f" ({kernels} kernels)" if many != "kernels" else ""))
        lines += text.render_check(failure.path)
        lines.append(f"      operand path of {counted} not verified: {names}")
    room = max(0, SHOWN_NOT_VERIFIED - len(failing))
    for i in alone[:room]:
        lines += text.render_check(results[i])
    left = [f"{n} more {what}" for n, what in ((len(failing) - SHOWN_NOT_VERIFIED, "operand paths"),
                                                (len(alone) - room, many)) if n > 0]
    if left:
        lines.append(f"... and {' and '.join(left)} not verified (--format json lists every {one} and its paths)")
    return lines


def _report(args: argparse.Namespace, results: list[CheckResult], table: str, seconds: float,
            unit: tuple[str, str], weights: list[int] | None = None) -> int:
    """The report in its format (text: the table and the first operand paths not verified, each with the results
    made of it; `unit`: what a result is, one and many: a kernel or a family; `weights`: the kernels each result
    stands for, one each when not given), written to --output (the table printed) or printed; the exit code of the
    mapped results."""
    from ..report.by_format import renderer
    if args.format == "text":
        lines = [table] + _not_verified_text(results, weights or [1] * len(results), unit)
        if lines[1:] and args.spec_out is None:     # the locations shown are in spec files that are gone
            lines.append(f"(the locations in prescreen_sm{args.arch}*.yaml are in the operand paths' specs, written to "
                         "a temporary directory removed after the run: --spec-out DIR keeps them, to read, edit or "
                         "prove again)")
        report = "\n".join(lines) + "\n"
    else:
        report = renderer(args.format)(results, seconds)
    if args.output is not None:
        try:
            args.output.write_text(report, encoding="utf-8")
        except OSError as e:
            print(f"error: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        sys.stdout.write(table)
    else:
        sys.stdout.write(report)
    mapped_results = [r for r in results if r.expect is not Expect.UNSUPPORTED]
    if any(r.verdict is Verdict.ERROR for r in mapped_results):
        return ExitCode.INTERNAL_ERROR
    return ExitCode.WRONG if any(r.verdict is Verdict.REFUTED for r in mapped_results) else ExitCode.OK
