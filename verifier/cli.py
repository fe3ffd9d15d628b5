"""Command line: `python -m verifier {prove,explain,layout,...}`."""
from __future__ import annotations

import argparse
import sys


class _Parser(argparse.ArgumentParser):
    """argparse with the project's exit code for bad command lines (2) and no traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verifier",
                description="Prove that CuTe copy atoms deliver exactly the elements MMA atoms expect.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    lay = sub.add_parser("layout", help="evaluate a layout-algebra expression and print it in CuTe's syntax",
                         description="Evaluate an expression of CuTe's layout algebra, e.g. "
                                     "'right_inverse((32,(2,4)):(2,(1,64)))'. Use '-' to read one expression "
                                     "per line from stdin.")
    lay.add_argument("expr", nargs="+", help="the expression, or '-' for stdin")
    lay.add_argument("--json", action="store_true", help='print {"layout": ..., "values": [L(0), ...]}')
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "layout":
        from .calculator import run
        stdin = args.expr == ["-"]
        return run(args.expr, args.json, stdin)
    return 2
