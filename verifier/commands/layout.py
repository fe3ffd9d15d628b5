"""`python -m verifier layout EXPR`: evaluate an expression of the layout algebra.

With `-`, one expression a line from stdin, and exactly one output line for every non-empty input line:
the result, or `error: ...` (`{"error": ...}` with --json). The parser refuses what it cannot evaluate
(too long, nested too deeply, absurd sizes) with a ParseError, so a bad line never stops the batch.
"""
from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from ..algebra import ComposedLayout, Layout, Swizzle
from ..algebra.inttuple import fmt, is_int, is_underscore
from ..algebra.syntax import ParseError, parse_expression

MAX_VALUES = 1 << 22  # --json lists every value; refuse to print more than this many
MAX_SHOWN_EXPRESSION = 200  # a failing command-line expression is echoed under its message up to this length


def render(value: Any) -> str:
    """CuTe's print of a result: a layout, a swizzle, an integer, or a tuple of them (a tiler)."""
    if isinstance(value, (Layout, ComposedLayout, Swizzle)):
        return str(value)
    if isinstance(value, tuple):
        return _render_item(value)
    return str(value)


def _render_item(item: Any) -> str:
    """An item of a tuple as CuTe prints it: integers static (`_4`), layouts and swizzles as themselves."""
    if isinstance(item, tuple):
        return "(" + ",".join(_render_item(e) for e in item) + ")"
    if is_int(item) or is_underscore(item):
        return fmt(item)
    return str(item)


def _values(value: Layout | ComposedLayout | Swizzle) -> list[int]:
    """[value(0), value(1), ...], exactly."""
    return value.values()


def to_json(value: Any) -> dict[str, Any]:
    if isinstance(value, (Layout, ComposedLayout, Swizzle)):
        n = value.domain() if isinstance(value, Swizzle) else int(value.size())
        if n > MAX_VALUES:
            return {"layout": str(value), "error": f"size {n} is too large to list (limit {MAX_VALUES})"}
        return {"layout": str(value), "values": _values(value)}
    if isinstance(value, tuple):
        return {"tuple": render(value)}
    if isinstance(value, int):
        return {"value": int(value)}
    return {"text": render(value)}   # `_`, or an smem pointer on its own


def _evaluate(expr: str) -> tuple[Any, ParseError | None]:
    try:
        return parse_expression(expr), None
    except ParseError as e:
        return None, e


def evaluate_line(expr: str, as_json: bool) -> tuple[str, bool]:
    """One result line for one expression; the bool says whether it succeeded."""
    value, problem = _evaluate(expr)
    if problem is None:
        return (json.dumps(to_json(value)) if as_json else render(value)), True
    msg = f"column {problem.column}: {problem.message}"
    return (json.dumps({"error": msg}) if as_json else f"error: {msg}"), False


def run(exprs: list[str], as_json: bool, from_stdin: bool, out: TextIO | None = None,
        err: TextIO | None = None, inp: Iterable[str] | None = None) -> int:
    """Exit status: 0 when every expression evaluated, 2 when one failed. `inp`: the lines for `-` (stdin); `out`,
    `err`: the streams at the time of the call (standard output and error by default)."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if from_stdin:
        return _run_lines(_stdin_lines() if inp is None else inp, as_json, out)
    expr = " ".join(exprs)
    value, problem = _evaluate(expr)
    if problem is None:
        out.write((json.dumps(to_json(value)) if as_json else render(value)) + "\n")
        return 0
    if as_json:
        out.write(json.dumps({"error": f"column {problem.column}: {problem.message}"}) + "\n")
        return 2
    err.write(f"verifier layout: column {problem.column}: {problem.message}\n")
    if len(expr) <= MAX_SHOWN_EXPRESSION:
        err.write(f"  {expr}\n  " + " " * (problem.column - 1) + "^\n")
    return 2


def _stdin_lines() -> Iterable[str]:
    """stdin split at '\\n' only, bytes that are not UTF-8 replaced (the parser then refuses them), so that
    every input line is one expression and decoding never fails."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:   # a text stream put in place of stdin (tests)
        return sys.stdin
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline="\n")


def _run_lines(lines: Iterable[str], as_json: bool, out: TextIO) -> int:
    ok = True
    for line in lines:
        expr = line.strip()
        if not expr:
            continue
        text, good = evaluate_line(expr, as_json)
        ok &= good
        out.write(text + "\n")
    out.flush()
    return 0 if ok else 2
