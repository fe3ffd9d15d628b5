"""`python -m verifier layout EXPR`: evaluate an expression of the layout algebra."""
from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from .algebra import ComposedLayout, Layout, Swizzle
from .algebra.inttuple import fmt
from .algebra.syntax import ParseError, parse_expression

MAX_VALUES = 1 << 22  # --json lists every value; refuse to print more than this many


def render(value: Any) -> str:
    if isinstance(value, (Layout, ComposedLayout, Swizzle)):
        return str(value)
    if isinstance(value, tuple):
        return fmt(value)
    return str(value)


def to_json(value: Any) -> dict:
    if isinstance(value, (Layout, ComposedLayout, Swizzle)):
        n = value.domain() if isinstance(value, Swizzle) else int(value.size())
        if n > MAX_VALUES:
            return {"layout": str(value), "error": f"size {n} is too large to list (limit {MAX_VALUES})"}
        return {"layout": str(value), "values": value.values()}
    if isinstance(value, tuple):
        return {"tuple": fmt(value)}
    return {"value": int(value)}


def evaluate_line(expr: str, as_json: bool) -> tuple[str, bool]:
    """One result line for one expression; the bool says whether it succeeded."""
    try:
        value = parse_expression(expr)
        return (json.dumps(to_json(value)) if as_json else render(value)), True
    except ParseError as e:
        msg = f"column {e.column}: {e.message}"
    except (ValueError, ArithmeticError, RecursionError) as e:  # defensive: report, never crash the batch
        msg = f"{type(e).__name__}: {e}"
    return (json.dumps({"error": msg}) if as_json else f"error: {msg}"), False


def run(exprs: list[str], as_json: bool, from_stdin: bool, out: TextIO = sys.stdout,
        err: TextIO = sys.stderr) -> int:
    """Exit status: 0 when every expression evaluated, 2 when one failed."""
    ok = True
    if from_stdin:
        for line in sys.stdin:
            expr = line.strip()
            if not expr:
                continue
            text, good = evaluate_line(expr, as_json)
            ok &= good
            out.write(text + "\n")
        out.flush()
        return 0 if ok else 2
    expr = " ".join(exprs)
    text, good = evaluate_line(expr, as_json)
    if good or as_json:
        out.write(text + "\n")
    else:
        err.write(f"verifier layout: {text[len('error: '):]}\n  {expr}\n")
        try:
            parse_expression(expr)
        except ParseError as e:
            err.write("  " + " " * (e.column - 1) + "^\n")
    return 0 if good else 2
