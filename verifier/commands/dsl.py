"""`python -m verifier dsl SCRIPT.py [--arch ARCH] [-o SPEC] [prove's report options] [-- ARGS...]`: run a CuTe DSL
script whose cute.compile uses fake arguments with its IR kept in a temporary directory, import every IR it leaves
(import-dsl) and prove the checks.  Exit status as `prove` (0 all as expected, 1 a wrong verdict, 2 bad input or a
script that fails or compiles nothing, 3 undecided, 4 internal error)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ..dsl.importer import DslInputError, run
from ..dsl.script import ARCHES, ScriptError, run_script
from ..importer.kernel_spec import ATOM_LIBRARY
from ..outcome import ExitCode
from ..symbolic.procedure import Settings

SCRIPT_TIMEOUT_S = 600.0


def main(argv: list[str]) -> int:
    own, script_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    ap = argparse.ArgumentParser(prog="python -m verifier dsl",
                                 description="compile a CuTe DSL script with its IR kept, import it and prove it")
    ap.add_argument("script", type=Path, metavar="SCRIPT.py")
    ap.add_argument("--arch", choices=ARCHES, help="CUTE_DSL_ARCH for the compile (default: the environment's)")
    ap.add_argument("-o", "--spec", type=Path, metavar="SPEC", help="also keep the imported spec here")
    ap.add_argument("--keep-ir", type=Path, metavar="DIR", help="keep the IR files in DIR (default: a temporary one)")
    ap.add_argument("--format", choices=("text", "json", "markdown", "junit", "sarif", "html"), default="text")
    ap.add_argument("--output", metavar="REPORT", help="write the report to REPORT")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--atoms", type=Path, default=ATOM_LIBRARY, metavar="DIR", help="the atom library")
    ap.add_argument("--timeout", type=float, default=SCRIPT_TIMEOUT_S, help="seconds the script may run")
    args = ap.parse_args(own)
    with tempfile.TemporaryDirectory(prefix="verifier_dsl_") as tmp:
        ir_dir = args.keep_ir or Path(tmp) / "ir"
        ir_dir.mkdir(parents=True, exist_ok=True)
        try:
            files = run_script(args.script, script_args, ir_dir, args.arch, args.timeout)
            text, result = run(files, args.atoms, args.script.stem)
        except (ScriptError, DslInputError) as e:
            print(f"error: {e}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        for s in result.skipped:
            print(f"{s}", file=sys.stderr)
        spec = args.spec or Path(tmp) / f"{args.script.stem}.yaml"
        try:
            spec.parent.mkdir(parents=True, exist_ok=True)
            spec.write_text(text, encoding="utf-8")
        except OSError as e:
            print(f"error: cannot write {spec}: {e.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        print(f"dsl: {result.checks} checks from {len(result.kernels)} kernel(s) in {len(files)} IR file(s); "
              f"{len(result.skipped)} things not checked (listed above)", file=sys.stderr)
        from .prove import prove_main
        return prove_main([str(spec)], args.format, args.output, None, Settings(), args.verbose,
                          allow_outside=True)
