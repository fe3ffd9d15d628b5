"""`python -m verifier import-dsl IR_FILE... [-o SPEC] [--atoms DIR]`: write the checks CuTe DSL kernels define —
their operand paths and shared buffers, read from the IR text the DSL leaves with CUTE_DSL_KEEP=ir — as one spec.

No DSL is needed to read the IR.  What is not turned into a check is reported on standard error as
`file:line:column: what: why`.  Exit status: 0 when a spec with at least one check was written; 2 for bad input (a
file that cannot be read or is not MLIR this reader takes, no kernel, nothing to check, an output that cannot be
written).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..echo import quote_path
from ..importer.kernel_spec import ATOM_LIBRARY
from ..importer.loaded_back import load_back
from ..dsl.importer import DslInputError, run
from ..outputs import overwrites_input


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m verifier import-dsl",
                                 description="write the checks CuTe DSL kernels (their IR text) define")
    ap.add_argument("files", nargs="+", type=Path, metavar="IR_FILE")
    ap.add_argument("-o", "--output", type=Path, metavar="SPEC", help="the spec file to write (default: stdout)")
    ap.add_argument("--atoms", type=Path, default=ATOM_LIBRARY, metavar="DIR",
                    help="the atom library (spec files defining MMA and copy atoms; default: specs/atoms)")
    ap.add_argument("--name", help="the spec's name (default: the file's stem)")
    args = ap.parse_args(argv)
    clash = overwrites_input(args.output, args.files)
    if clash is not None:
        print(f"error: {clash}", file=sys.stderr)
        return 2
    try:
        text, result = run(args.files, args.atoms, args.name)
        load_back(text, "import-dsl")        # what it wrote, loaded as prove will: a refusal is its bug (exit 4)
        if args.output is not None:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(text, encoding="utf-8")
    except DslInputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {quote_path(str(e.filename or ''))}: {e.strerror}", file=sys.stderr)
        return 2
    for s in result.skipped:
        print(f"{s}", file=sys.stderr)
    if args.output is None:
        sys.stdout.write(text)
    print(f"import-dsl: {result.checks} checks from {len(result.kernels)} kernel(s) in {len(args.files)} file(s)"
          + (f" written to {args.output}" if args.output else "")
          + f"; {len(result.skipped)} things not checked (listed above)", file=sys.stderr)
    return 0
