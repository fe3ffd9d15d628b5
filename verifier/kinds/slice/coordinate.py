"""A thread coordinate as a kernel computes it: an integer expression of the thread's index `tid`, read from the
spec's text and evaluated with CUDA C's (and MLIR arith's) integer semantics.

    tid                 the thread's index in its block (threadIdx.x, nvvm.read.ptx.sreg.tid.x)
    tid % 128           C's remainder (the sign of the dividend), `/` C's division (toward zero)
    floordiv(tid, 32)   division rounding down (arith.floordivsi)
    tid ^ 32, tid & 31, tid | 1, tid << 1, tid >> 5, -tid, 7, (tid - 128) % 64

A condition (the slice kind's `runs:`, which threads run the copy) is an expression of the same language whose value
is 1 for true and 0 for false, as in C: the comparisons `==  !=  <  <=  >  >=` (one a comparison), `not`, `and`, `or`
(read left to right, each side 0 or not), and `a if c else b` (C's `c ? a : b`):

    floordiv(tid, 32) >= 4 and not floordiv(tid, 32) == 8
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

THREAD = "tid"
FLOOR_DIVISION = "floordiv"
MAX_LENGTH = 1000                 # characters of a coordinate or condition expression


class CoordinateError(ValueError):
    """A coordinate expression this module does not read: why, in words."""


def _c_div(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _c_rem(a: int, b: int) -> int:
    return a - b * _c_div(a, b)


def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def _shift_left(a: int, b: int) -> int:
    if not 0 <= b < 32:
        raise ZeroDivisionError(f"a shift by {b}")
    return a << b


def _shift_right(a: int, b: int) -> int:
    if not 0 <= b < 32:
        raise ZeroDivisionError(f"a shift by {b}")
    return a >> b


_BINARY: dict[type, Callable[[int, int], int]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b, ast.Div: _c_div,
    ast.Mod: _c_rem, ast.BitXor: lambda a, b: a ^ b, ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
    ast.LShift: _shift_left, ast.RShift: _shift_right}
Evaluate = Callable[[int], int]
_COMPARE: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


@dataclass(frozen=True)
class Coordinate:
    """A thread coordinate: its text, and its value for a thread index (ZeroDivisionError: the expression divides
    by zero, or shifts by more than 31, for that thread)."""
    text: str
    evaluate: Evaluate

    def __call__(self, tid: int) -> int:
        return self.evaluate(tid)


def read_coordinate(text: str) -> Coordinate:
    """`text` as a Coordinate, or CoordinateError saying what it holds that is not allowed."""
    if len(text) > MAX_LENGTH:
        raise CoordinateError(f"a coordinate of more than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise CoordinateError(f"'{text}' is not an integer expression of {THREAD}") from None
    return Coordinate(text, _compile(tree.body))


def _compile(node: ast.expr) -> Evaluate:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        value = node.value
        return lambda tid: value
    if isinstance(node, ast.Name) and node.id == THREAD:
        return lambda tid: tid
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _compile(node.operand)
        return lambda tid: -inner(tid)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        f, left, right = _BINARY[type(node.op)], _compile(node.left), _compile(node.right)
        return lambda tid: f(left(tid), right(tid))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        test, left, right = _COMPARE[type(node.ops[0])], _compile(node.left), _compile(node.comparators[0])
        return lambda tid: int(test(left(tid), right(tid)))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _compile(node.operand)
        return lambda tid: int(not inner(tid))
    if isinstance(node, ast.BoolOp):
        sides = [_compile(v) for v in node.values]
        if isinstance(node.op, ast.And):
            return lambda tid: int(all(side(tid) for side in sides))
        return lambda tid: int(any(side(tid) for side in sides))
    if isinstance(node, ast.IfExp):
        test_, then, other = _compile(node.test), _compile(node.body), _compile(node.orelse)
        return lambda tid: then(tid) if test_(tid) else other(tid)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == FLOOR_DIVISION \
            and len(node.args) == 2 and not node.keywords:
        left, right = _compile(node.args[0]), _compile(node.args[1])
        return lambda tid: _floordiv(left(tid), right(tid))
    what = type(node).__name__ if not isinstance(node, ast.Name) else f"the name '{node.id}'"
    raise CoordinateError(f"{what} is not allowed: integers, {THREAD}, + - * / % ^ & | << >>, "
                          f"{FLOOR_DIVISION}(a, b), one comparison, not, and, or and `a if c else b` are")



def plain(text: str) -> str:
    """An expression without the parentheses around all of it, as a spec writes it: `(tid % 128)` -> `tid % 128`."""
    return text[1:-1] if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]) else text


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0
