"""`python -m verifier dsl SCRIPT.py [--arch ARCH] [-o SPEC] [--format F] [--output REPORT] [-- ARGS...]`: run a
CuTe DSL script whose cute.compile uses fake arguments, with its IR kept in a temporary directory; import every IR it
leaves (import-dsl) and prove the checks.  Exit status as `prove` (0 all as expected, 1 a wrong verdict, 2 bad input
or a script that fails or compiles nothing, 3 undecided, 4 internal error)."""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from ..dsl.api import verify_ir
from ..dsl.importer import DslInputError
from ..dsl.script import ARCHES, ScriptError, run_script
from ..importer.kernel_spec import ATOM_LIBRARY
from ..outcome import ExitCode
from ..report import text
from ..report.by_format import renderer
from ..specfile.model import SpecError

SCRIPT_TIMEOUT_S = 600.0
FORMATS = ("text", "json", "markdown", "junit", "sarif")


def main(argv: list[str]) -> int:
    own, script_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    ap = argparse.ArgumentParser(prog="python -m verifier dsl",
                                 description="compile a CuTe DSL script with its IR kept, import it and prove it")
    ap.add_argument("script", type=Path, metavar="SCRIPT.py")
    ap.add_argument("--arch", choices=ARCHES, help="CUTE_DSL_ARCH for the compile (default: the environment's)")
    ap.add_argument("-o", "--spec", type=Path, metavar="SPEC", help="keep the imported spec here")
    ap.add_argument("--keep-ir", type=Path, metavar="DIR", help="keep the IR files in DIR (default: a temporary one)")
    ap.add_argument("--format", choices=FORMATS, default="text", help="the report's format (default: text)")
    ap.add_argument("--output", type=Path, metavar="REPORT", help="write the report to REPORT")
    ap.add_argument("-v", "--verbose", action="store_true", help="every theorem of every check, and what was not "
                                                                   "checked")
    ap.add_argument("--atoms", type=Path, default=ATOM_LIBRARY, metavar="DIR", help="the atom library")
    ap.add_argument("--timeout", type=float, default=SCRIPT_TIMEOUT_S, help="seconds the script may run")
    args = ap.parse_args(own)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="verifier_dsl_") as tmp:
        ir_dir = args.keep_ir or Path(tmp) / "ir"
        try:
            ir_dir.mkdir(parents=True, exist_ok=True)
            files = run_script(args.script, script_args, ir_dir, args.arch, args.timeout)
            done = verify_ir(files, args.atoms, name=args.script.stem)
            if args.spec is not None:
                args.spec.parent.mkdir(parents=True, exist_ok=True)
                args.spec.write_text(done.spec_text, encoding="utf-8")
        except (ScriptError, DslInputError, SpecError) as e:
            print(f"error: {e}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        except OSError as e:
            print(f"error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    if args.verbose:
        for s in done.skipped:
            print(f"{s}", file=sys.stderr)
    print(f"dsl: {len(done.results)} checks from {len(files)} IR file(s); {len(done.skipped)} things not checked"
          + (" (listed above)" if args.verbose else " (-v lists them)"), file=sys.stderr)
    seconds = time.perf_counter() - t0
    report = (text.render(done.results, seconds, args.verbose) if args.format == "text"
              else renderer(args.format)(done.results, seconds))
    if args.output is not None:
        try:
            args.output.write_text(report, encoding="utf-8")
        except OSError as e:
            print(f"error: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        if args.format != "text":
            sys.stdout.write(text.render(done.results, seconds, args.verbose))
    else:
        sys.stdout.write(report)
    return done.exit_code
