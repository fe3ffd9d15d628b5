"""A C integer expression as a kernel writes a k-tile index (`(k_tile + 1 < K_TILE_MAX) ? k_tile + 1 : k_tile`),
read into a small tree, its names replaced, and written back in the spec's expression language (Python's syntax:
`a if c else b`, `and`, `or`, `not`), which theorem 46 decides with Z3.

Read: integer literals, names, parentheses, unary `-` and `!`, `* + -`, the comparisons, `&&`, `||` and `?:`, with
C's precedence; casts are dropped first (`thread_slices.without_casts`).  Anything else (division, calls, member
access, assignment) is a reason, not a guess."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .thread_slices import without_casts



@dataclass(frozen=True)
class Tree:
    """An expression: kind "int" (value an int), "name" (value a str), "neg" / "not" (one arg), a BINARY op (two
    args) or "ite" (condition, then, else)."""
    kind: str
    value: int | str = 0
    args: tuple["Tree", ...] = ()


def integer(n: int) -> Tree:
    return Tree("int", n)


def name(n: str) -> Tree:
    return Tree("name", n)


def op(kind: str, *args: Tree) -> Tree:
    return Tree(kind, 0, args)


_TOKEN = re.compile(r"\s*(\d+[uUlL]*|[A-Za-z_]\w*|<=|>=|==|!=|&&|\|\||[-+*<>!?:()])")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
BINARY = ("+", "-", "*") + COMPARISONS + ("&&", "||")
MAX_LENGTH = 400


class ExpressionNotRead(Exception):
    """Why an expression is not read."""


def _tokens(text: str) -> list[str]:
    out, i = [], 0
    text = text.rstrip()
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            raise ExpressionNotRead(f"{text.strip()}: '{text[i:].strip()[:20]}' is not read")
        out.append(m.group(1))
        i = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise ExpressionNotRead(f"expected {want or 'more'} at '{' '.join(self.t[self.i:])[:20]}'")
        self.i += 1
        return tok

    def ternary(self) -> Tree:
        c = self.binary(0)
        if self.peek() == "?":
            self.take("?")
            a = self.ternary()
            self.take(":")
            return op("ite", c, a, self.ternary())
        return c

    LEVELS = (("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*",))

    def binary(self, level: int) -> Tree:
        if level == len(self.LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self.LEVELS[level]:
            kind = self.take()
            left = op(kind, left, self.binary(level + 1))
        return left

    def unary(self) -> Tree:
        tok = self.peek()
        if tok == "-":
            self.take()
            return op("neg", self.unary())
        if tok == "!":
            self.take()
            return op("not", self.unary())
        if tok == "+":
            self.take()
            return self.unary()
        if tok == "(":
            self.take()
            inner = self.ternary()
            self.take(")")
            return inner
        tok = self.take()
        if tok[0].isdigit():
            return integer(int(re.sub(r"[uUlL]+$", "", tok)))
        if re.fullmatch(r"[A-Za-z_]\w*", tok):
            return name(tok)
        raise ExpressionNotRead(f"'{tok}' is not read")


def parse(text: str) -> Tree:
    """`text` (a C expression) as a tree (ExpressionNotRead: why not)."""
    plain = without_casts(" ".join(text.split()))
    if len(plain) > MAX_LENGTH:
        raise ExpressionNotRead(f"an expression of more than {MAX_LENGTH} characters")
    p = _Parser(_tokens(plain))
    tree = p.ternary()
    if p.peek() is not None:
        raise ExpressionNotRead(f"{plain}: '{' '.join(p.t[p.i:])[:20]}' is not read")
    return tree


def substitute(tree: Tree, value: Callable[[str], Tree | None]) -> Tree:
    """`tree` with each name n replaced by value(n) where that is not None."""
    if tree.kind == "name":
        found = value(str(tree.value))
        return tree if found is None else found
    if not tree.args:
        return tree
    return Tree(tree.kind, tree.value, tuple(substitute(x, value) for x in tree.args))


def names(tree: Tree) -> set[str]:
    if tree.kind == "name":
        return {str(tree.value)}
    return set().union(*(names(x) for x in tree.args)) if tree.args else set()


_PY = {"&&": "and", "||": "or"}


def render(tree: Tree) -> str:
    """The tree in the spec's expression language (Python's syntax), fully parenthesized."""
    if tree.kind in ("int", "name"):
        return str(tree.value)
    if tree.kind == "neg":
        return f"(-{render(tree.args[0])})"
    if tree.kind == "not":
        return f"(not {render(tree.args[0])})"
    if tree.kind == "ite":
        c, a, b = tree.args
        return f"({render(a)} if {render(c)} else {render(b)})"
    a, b = tree.args
    return f"({render(a)} {_PY.get(tree.kind, tree.kind)} {render(b)})"


__all__ = ["ExpressionNotRead", "Tree", "integer", "name", "names", "op", "parse", "render", "substitute"]
