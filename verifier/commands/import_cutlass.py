"""`import-cutlass`: read CuTe's atom headers and write one spec file per header family.

Exit status of `main`: 0 when the import ran: every definition that could be read was written, and every
one that could not was reported by name and header:line (an unreadable definition is a finding of the
import, not a failure of the command); 2 for bad input (no such directory, no CuTe atom headers under
it, an output directory that cannot be written, a bad command line).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..importer.headers import DEFAULT_OUT, ImportInputError, import_cutlass


def main(argv: list[str]) -> int:
    """`python -m verifier import-cutlass INCLUDE_DIR [-o DIR] [--quiet]`; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m verifier import-cutlass",
        description="Read CuTe's MMA_Traits / Copy_Traits from CUTLASS headers and write spec files "
                    "(one per header family) whose checks are the atoms' theorems.")
    parser.add_argument("include_dir", type=Path, help="CUTLASS's include/ directory (the one holding cute/)")
    parser.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT,
                        help=f"directory for the spec files (default: {DEFAULT_OUT})")
    parser.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                        help="scan the headers in N processes (default: the CPUs available)")
    parser.add_argument("--no-notes", action="store_true", help="leave out the notes (instances not made, "
                        "checks left out); definitions not imported are always listed")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:                       # argparse exits 2 on a bad command line, 0 for --help
        return int(e.code or 0)
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if args.jobs is not None and args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    jobs = min(args.jobs or available, available)
    try:
        report = import_cutlass(args.include_dir, args.out, jobs)
    except ImportInputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report.text(notes=not args.no_notes))
    return 0
