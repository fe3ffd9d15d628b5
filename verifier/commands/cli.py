"""Command line: `python -m verifier {prove,explain,layout,...}`."""
from __future__ import annotations

import argparse
import gc
import math
import os
import sys
from typing import NoReturn

from ..draw.figure import View

# The cyclic garbage collector runs after this many new container objects rather than 700: proving builds
# expression trees and layouts by the ten thousand, and hardly any of them are cyclic.
GC_THRESHOLD = (20_000, 50, 100)


class _Parser(argparse.ArgumentParser):
    """argparse with the project's exit code for bad command lines (2) and no traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def tool_version() -> str:
    """The installed distribution's version (the checkout's pyproject when run from a source tree)."""
    import importlib.metadata
    try:
        return importlib.metadata.version("cute-layout-verifier")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verifier",
                description="Prove that CuTe copy atoms deliver exactly the elements MMA atoms expect.")
    p.add_argument("--version", action="version", version=f"cute-layout-verifier {tool_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    lay = sub.add_parser("layout", help="evaluate a layout-algebra expression and print it in CuTe's syntax",
                         description="Evaluate an expression of CuTe's layout algebra, e.g. "
                                     "'right_inverse((32,(2,4)):(2,(1,64)))'. Use '-' to read one expression "
                                     "per line from stdin.")
    lay.add_argument("expr", nargs="+", help="the expression, or '-' for stdin")
    lay.add_argument("--json", action="store_true", help='print {"layout": ..., "values": [L(0), ...]}')
    pr = sub.add_parser("prove", help="prove every check of the given specs",
                        description="Prove every check of the given spec files (or directories of them). "
                                    "Exit 0: every verdict as expected; 1: a counterexample (or an unexpected "
                                    "proof); 2: bad input; 3: a check could not be decided (solver gave up, or "
                                    "no model); 4: an internal error of the tool.")
    pr.add_argument("paths", nargs="*", metavar="SPEC_OR_DIR")
    pr.add_argument("--changed", nargs="+", metavar="FILE",
                    help="prove the specs (under SPEC_OR_DIR, or every spec git tracks here) that are, or include, "
                         "one of these files: the pre-commit hook's mode")
    pr.add_argument("--check", action="append", metavar="NAME", help="only this check (repeatable)")
    pr.add_argument("--format", choices=["text", "json", "markdown", "job-summary", "junit", "sarif", "html"],
                    default="text", help="report format (default text; markdown fits a comment, job-summary a "
                                         "GitHub job summary)")
    pr.add_argument("--output", "-o", metavar="FILE", help="write the report here (standard output: what is not as "
                                                           "expected, and the summary)")
    _proving_options(pr)
    pr.add_argument("--verbose", "-v", action="store_true", help="list every theorem of every check")
    pr.add_argument("--quiet", "-q", action="store_true",
                    help="text: only the checks whose verdict is not the expected one, and the summary")
    pr.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    pr.add_argument("--suggest", action="store_true",
                    help="for each refuted check, search the nearby configurations (copy atom variant, value type, "
                         "swizzle, shared-memory major-ness, construction, atom layout, Hopper fields) and print the "
                         "smallest change every theorem proves, as spec lines and C++")

    df = sub.add_parser("diff", help="which checks change verdict between two versions of a spec",
                        description="Prove OLD and NEW (or SPEC at a git revision and SPEC now) and report the "
                                    "checks whose verdict changed, with counterexamples for the newly failing ones. "
                                    "Exit 1 when a check newly fails.")
    df.add_argument("old", metavar="OLD_OR_SPEC")
    df.add_argument("new", metavar="NEW", nargs="?")
    df.add_argument("--git", metavar="REV", help="compare SPEC with its version at git revision REV")
    df.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    df.add_argument("--output", "-o", metavar="FILE")
    _proving_options(df)

    dr = sub.add_parser("draw", help="draw a check's layouts (mma, copy, smem, banks) as SVG or one HTML page",
                        description="Draw a check as CuTe's print_latex does: TV layouts (thread/value per "
                                    "coordinate, coloured by thread %% 8), the shared-memory offsets and banks; a "
                                    "refuted check's counterexample is outlined. -o FILE.html writes every view "
                                    "(or --view) in one self-contained page; otherwise one view as SVG.")
    _one_check_arguments(dr)
    dr.add_argument("--view", choices=tuple(v.value for v in View))
    dr.add_argument("--output", "-o", metavar="FILE.svg|FILE.html")

    sub.add_parser("hw", help="query the hardware models: hw tma | hw wgmma | hw banks ... [--json], or hw - "
                              "(one query a line)", add_help=False)
    # commands whose own parser (options included) lives with their module; listed here for --help
    for name, summary, description in DELEGATED:
        sub.add_parser(name, help=summary, description=description, add_help=False).add_argument(
            "rest", nargs=argparse.REMAINDER)

    ex = sub.add_parser("explain", help="print the article's chain of numbers for one register slot or wgmma element",
                        description="Trace one destination (lane, value) of a tiled check through every layout, "
                                    "as the seed article does for A(0,9); or, for a Hopper check, one element "
                                    "(--coord MN,K) from global memory through the TMA box, the swizzled shared "
                                    "byte and the descriptor to the (mn, k) wgmma reads.")
    _one_check_arguments(ex)
    ex.add_argument("--lane", type=int, help="tiled checks: the destination thread")
    ex.add_argument("--value", type=int, help="tiled checks: the destination value")
    ex.add_argument("--instance", type=_int_list, default=[], help="copy instance, e.g. 0,1,0 (default all 0)")
    ex.add_argument("--coord", type=_int_list, help="Hopper checks: the tile element MN,K (A: m,k; B: n,k)")
    ex.add_argument("--stage", type=int, default=0, help="Hopper checks: the pipeline stage (default 0)")
    ex.add_argument("--base", type=lambda s: int(s, 0), default=0x1000, help="example smem base address")
    return p


MIN_TIMEOUT_S = 0.001      # Z3 counts in milliseconds, and reads 0 as "no limit"
MAX_TIMEOUT_S = 86400.0


def _one_check_arguments(p: argparse.ArgumentParser) -> None:
    """SPEC_OR_DIR and --check NAME: the one check a command works on (draw, explain)."""
    p.add_argument("spec", metavar="SPEC_OR_DIR")
    p.add_argument("--check", required=True)
    p.add_argument("--member", metavar="NAME=VALUE,...",
                   help="a family's member (default: its smallest member not verified, else its smallest)")
    p.add_argument("--allow-outside", action="store_true", help="allow includes outside the spec's repository")


def _proving_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=_timeout, default=30.0, metavar="SECONDS",
                   help=f"solver time limit per obligation, {MIN_TIMEOUT_S} to {MAX_TIMEOUT_S:.0f} (default 30)")
    p.add_argument("--jobs", "-j", type=_positive_int, default=1, metavar="N",
                   help="prove checks in N processes (default 1; at most the CPUs available)")
    p.add_argument("--cross-check", action="store_true",
                   help="decide every obligation a second time by the other procedure where it applies (Z3 or "
                        "exhaustive enumeration); a disagreement is an internal error")
    p.add_argument("--cache-dir", metavar="DIR",
                   help="where proved results are kept between runs (default $XDG_CACHE_HOME/cute-layout-verifier)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the proof cache")
    p.add_argument("--procedure", choices=("auto", "z3", "enumeration"), default="auto",
                   help="auto (default): each obligation's procedure chosen by its shape; z3 / enumeration: that "
                        "one wherever it applies (verdicts must not change)")
    p.add_argument("--allow-outside", action="store_true",
                   help="allow includes outside the including spec's repository")


def _timeout(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not math.isfinite(x) or not MIN_TIMEOUT_S <= x <= MAX_TIMEOUT_S:
        raise argparse.ArgumentTypeError(f"must be a number of seconds from {MIN_TIMEOUT_S} to {MAX_TIMEOUT_S:.0f}, "
                                         f"not {text[:40]!r}")
    return x


def _positive_int(text: str) -> int:
    try:
        x = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text[:40]!r}") from None
    if x <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return x


DELEGATED = (
    ("import-cutlass", "write spec files from CUTLASS's MMA_Traits / Copy_Traits headers",
     "Read MMA_Traits and Copy_Traits specialisations from a CUTLASS include directory and write one spec file per "
     "header family (atom-only checks). Every definition that cannot be read is reported with its header:line."),
    ("import-kernel", "write the checks a C++ kernel's CuTe configuration defines",
     "Read the TiledMMA, Copy_Atom and shared-memory layouts a C++ kernel source declares (aliases, auto variables, "
     "decltype) and write one check per operand path; what cannot be read is reported with file:line:column."),
    ("import-dsl", "write the checks CuTe DSL kernels define, from the IR the DSL leaves",
     "Read CuTe DSL IR text (CUTE_DSL_KEEP=ir): follow each kernel's data flow from shared allocations through views, "
     "tiled copies and tiled MMAs, and write one check per operand path and shared buffer (theorem 23); what is not "
     "checked is reported with file:line:column."),
    ("dsl", "compile a CuTe DSL script with its IR kept, import it and prove it",
     "Run a Python script whose cute.compile uses fake arguments, with CUTE_DSL_KEEP=ir in a temporary directory; "
     "import every IR it leaves (import-dsl) and prove the checks. Exit codes as prove."),
    ("prescreen-cutlass", "prove every GEMM kernel CUTLASS's generator emits for an arch",
     "Map each GEMM kernel cutlass_library's generator emits for --arch 80|90 to the CuTe configuration its "
     "collective builder builds, prove every distinct operand path, and report per kernel."),
)


def _int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["import-cutlass"]:   # its own parser (options included) lives with the importer
        from .import_cutlass import main as import_main
        return import_main(argv[1:])
    if argv[:1] == ["import-kernel"]:
        from .import_kernel import main as kernel_main
        return kernel_main(argv[1:])
    if argv[:1] == ["import-dsl"]:
        from .import_dsl import main as dsl_import_main
        return dsl_import_main(argv[1:])
    if argv[:1] == ["dsl"]:
        from .dsl import main as dsl_main
        return dsl_main(argv[1:])
    if argv[:1] == ["prescreen-cutlass"]:
        from .prescreen_cutlass import main as prescreen_main
        return prescreen_main(argv[1:])
    if argv[:1] == ["hw"]:               # the hardware calculator parses its queries itself (also for `hw -`)
        from .hw import hw_main
        return hw_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.command == "layout":
        from .layout import run
        stdin = args.expr == ["-"]
        return run(args.expr, args.json, stdin)
    if args.command in ("prove", "diff"):
        from ..symbolic.procedure import Procedure, Settings
        forced = {"z3": Procedure.Z3, "enumeration": Procedure.ENUMERATION}.get(args.procedure)
        settings = Settings(timeout_s=args.timeout, cross_check=args.cross_check, procedure=forced)
    if args.command == "prove":
        from ..engine.record import make_cache
        from .prove import prove_main
        if not args.paths and not args.changed:
            build_parser().error("prove needs SPEC_OR_DIR, or --changed FILE...")
        return prove_main(args.paths, args.format, args.output, args.check, settings, args.verbose, args.debug,
                          jobs=args.jobs, allow_outside=args.allow_outside, changed=args.changed,
                          cache=make_cache(args.cache_dir, args.no_cache), suggest=args.suggest, quiet=args.quiet)
    if args.command == "diff":
        from ..engine.record import make_cache
        from .diff import diff_main
        if (args.new is None) == (args.git is None):
            build_parser().error("diff takes OLD NEW, or SPEC_OR_DIR --git REV")
        return diff_main(args.old, args.new, args.git, args.format, args.output, settings, args.jobs,
                         allow_outside=args.allow_outside, cache=make_cache(args.cache_dir, args.no_cache))
    if args.command == "draw":
        from .draw import draw_main
        return draw_main(args.spec, args.check, args.view, args.output, allow_outside=args.allow_outside,
                         member=args.member)
    if args.command == "explain":
        from .explain import explain_main
        return explain_main(args.spec, args.check, args.lane, args.value, args.instance, args.base,
                            allow_outside=args.allow_outside, coord=args.coord, stage=args.stage,
                            member=args.member)
    return 2


def run_command_line() -> NoReturn:
    """The command line's entry point (`python -m verifier`, `cute-verifier`): main(), then exit at once.

    Tearing the interpreter down frees every remembered layout, expression and decision one by one, ~30 ms after
    proving the seed spec; by the time main() returns, every file it wrote is closed and every worker joined, so
    only the standard streams are flushed before the process ends.  SystemExit and KeyboardInterrupt leave the
    normal way, and so does a run under a profiler or a tracer (cProfile, coverage: they write their results while
    the interpreter exits).  Any other exception is a bug of the tool: its traceback, one line saying so, and exit
    code 4 (an internal error), never Python's 1, which would read as a counterexample."""
    gc.set_threshold(*GC_THRESHOLD)
    try:
        code = main()
    except Exception as e:  # noqa: BLE001 - a bug of the tool is its own outcome (exit 4), never a verdict
        import traceback

        from ..outcome import ExitCode
        traceback.print_exc()
        sys.stderr.write(f"internal error: {type(e).__name__}: {e} (a bug of the tool; the traceback above says "
                         "where)\n")
        code = ExitCode.INTERNAL_ERROR
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:   # the reader stopped reading (`| head`): there is nobody left to tell
        pass
    os._exit(code)

