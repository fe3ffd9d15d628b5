"""`python -m verifier prescreen-cutlass --arch 80|90|100 [--level N] [--jobs N] [--format ...] [--spec-out DIR]`.

Every GEMM kernel the generator emits (space.py) is mapped to its CuTe configuration (builders.py); the distinct
operand paths are written as one spec (several for a large --level's space; kept under --spec-out to re-prove or
edit), proved once each, and every
kernel gets the verdict of its paths: verified, refuted (with the counterexample), refused by CuTe's rule, or not
mapped (with the reason).  The report is per kernel (JUnit / SARIF / JSON / Markdown name each kernel); the text
format prints the summary table and the kernels that are not verified.

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
    return _report(args, found.results, table, found.seconds, ("family", "families"))


def _report(args: argparse.Namespace, results: list[CheckResult], table: str, seconds: float,
            unit: tuple[str, str]) -> int:
    """The report in its format (text: the table and the first results not verified; `unit`: what a result is, one
    and many: a kernel or a family), written to --output (the table printed) or printed; the exit code of the mapped
    results."""
    from ..report.by_format import renderer
    from ..report import text
    if args.format == "text":
        bad = [r for r in results if r.expect is not Expect.UNSUPPORTED and r.verdict is not Verdict.VERIFIED]
        lines = [table] + [line for r in bad[:SHOWN_NOT_VERIFIED] for line in text.render_check(r)]
        if len(bad) > SHOWN_NOT_VERIFIED:
            one, many = unit
            lines.append(f"... and {len(bad) - SHOWN_NOT_VERIFIED} more {many} (--format json lists every {one})")
        if bad and args.spec_out is None:     # the locations shown are in spec files that are gone
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
