"""`python -m verifier import-kernel FILE... [-o SPEC] [--atoms DIR]`: write the checks a kernel source's CuTe
configuration defines (kernel.py) as one spec file.

The atoms the checks name are copied into the spec from the atom library (the repository's specs/atoms/, or
`--atoms DIR`), so the spec proves on its own.  What could not be read is reported on standard error as
`file:line:column: what: why`.  Exit status: 0 when a spec with at least one check was written; 2 for bad input
(a file that cannot be read, no configuration found, an atom the library does not define, an output that
cannot be written).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..echo import quote_path
from ..specfile.model import SpecError
from ..outcome import ExitCode
from ..outputs import overwrites_input
from ..importer.compiled import CompilerUnavailable, toolchain
from ..importer.kernel_spec import ATOM_LIBRARY, KernelInputError, run


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m verifier import-kernel",
                                 description="write the checks a C++ kernel's CuTe configuration defines")
    ap.add_argument("files", nargs="+", type=Path, metavar="FILE")
    ap.add_argument("-o", "--output", type=Path, metavar="SPEC", help="the spec file to write (default: stdout)")
    ap.add_argument("--atoms", type=Path, default=ATOM_LIBRARY, metavar="DIR",
                    help="the atom library (spec files defining MMA and copy atoms; default: specs/atoms)")
    ap.add_argument("--name", help="the spec's name (default: the file's stem)")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                    help="a macro the compile defines (repeatable): #if / #ifdef branches are read as it takes them")
    ap.add_argument("-I", dest="include_dirs", action="append", default=[], type=Path, metavar="DIR",
                    help="with --compile: a directory the compile searches for #include files (repeatable), as "
                         "your build passes it (CUTLASS's examples: examples/common)")
    ap.add_argument("--check-reader", action="store_true",
                    help="compile a host program with CuTe's headers and compare every shared layout the reader "
                         "computed with CuTe's own (CuTe's is used where they differ)")
    ap.add_argument("--compile", action="store_true",
                    help="read the kernels through the host C++ compiler (GCC) with CuTe's headers: every "
                         "instantiated kernel's copies and MMAs, as CuTe's templates make them (about 5-15 s a "
                         "source on 2 cores, cached after)")
    ap.add_argument("--no-cache", action="store_true", help="with --compile: compile again, keep nothing")
    ap.add_argument("--instantiate", action="append", default=[], metavar="EXPR",
                    help="with --compile: a C++ expression the compile evaluates after the file (repeatable), "
                         "e.g. '&my_kernel<half_t, 128>' for a kernel template the file itself never instantiates")
    ap.add_argument("--cxx", help="the host C++ compiler (default: $CXX, g++, clang++)")
    ap.add_argument("--cutlass", type=Path, metavar="DIR",
                    help="CUTLASS's headers (default: those the nvidia-cutlass wheel ships)")
    args = ap.parse_args(argv)
    defines = dict((d.split("=", 1) + ["1"])[:2] for d in args.defines)
    clash = overwrites_input(args.output, args.files)
    if clash is not None:
        print(f"error: {clash}", file=sys.stderr)
        return 2
    if args.compile:
        return _compiled(args, defines)
    try:
        tools = toolchain(args.cxx, args.cutlass) if args.check_reader else None
        text, result = run(args.files, args.atoms, args.name, defines, tools)
        if args.output is not None:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(text, encoding="utf-8")
    except (KernelInputError, SpecError, CompilerUnavailable, OSError) as e:
        return _bad_input(e)
    for u in result.unreadable:
        print(str(u), file=sys.stderr)
    if args.output is None:
        sys.stdout.write(text)
    print(f"import-kernel: {len(result.checks)} checks from {len(args.files)} file(s)"
          + (f" written to {args.output}" if args.output else "")
          + f"; {len(result.unreadable)} things could not be read (listed above)", file=sys.stderr)
    if result.toolchain is not None:
        print(f"check-reader: {result.compared} shared layouts compared with CuTe's own ({result.toolchain}); "
              f"{result.differ} differ (CuTe's used)", file=sys.stderr)
    return 0


def _bad_input(e: Exception) -> int:
    """One line on standard error, exit 2 (a file's OS error names the file, never its contents)."""
    if isinstance(e, OSError) and not isinstance(e, (KernelInputError, SpecError, CompilerUnavailable)):
        print(f"error: {quote_path(str(e.filename or ''))}: {e.strerror}", file=sys.stderr)
    else:
        print(f"error: {e}", file=sys.stderr)
    return 2


def _compiled(args: argparse.Namespace, defines: dict[str, str]) -> int:
    """import-kernel --compile: exit 0 with a spec written, 1 when CuTe itself refuses a configuration (its
    static_assert, with the rule and where the source asked for it), 2 for bad input or a compile that fails, 3 when
    every copy and MMA found is one the verifier does not check (each listed, with its reason)."""
    from ..importer.compile_notes import CompileFailed
    from ..importer.compiled_import import NothingChecked, import_compiled
    try:
        tools = toolchain(args.cxx, args.cutlass)
        text, result = import_compiled(args.files, args.atoms, args.name, defines, tools, not args.no_cache,
                                       args.instantiate, tuple(args.include_dirs))
        if args.output is not None:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(text, encoding="utf-8")
    except CompileFailed as e:
        print(f"{'refused' if e.refused_by_cute else 'error'}: {e}", file=sys.stderr)
        return 1 if e.refused_by_cute else 2
    except NothingChecked as e:
        for s in e.result.skipped:
            print(str(s), file=sys.stderr)
        print(f"unsupported: {e}", file=sys.stderr)
        return int(ExitCode.UNDECIDED)
    except (KernelInputError, SpecError, CompilerUnavailable, OSError) as e:
        return _bad_input(e)
    for s in result.skipped:
        print(f"{s} (not checked)" if "not checked" not in s.why and not s.covered else str(s), file=sys.stderr)
    if args.output is None:
        sys.stdout.write(text)
    for f, c in result.compiles:
        print(f"import-kernel: {f}: compiled with CuTe's headers from {c.where}"
              + (" (cached)" if c.cached else f" in {c.seconds:.1f} s"), file=sys.stderr)
    print(f"import-kernel: {result.checks} checks from {len(args.files)} file(s)"
          + (f" written to {args.output}" if args.output else "")
          + f"; {sum(not s.covered for s in result.skipped)} calls not checked, "
            f"{sum(s.covered for s in result.skipped)} proved by another check (listed above)", file=sys.stderr)
    return 0
