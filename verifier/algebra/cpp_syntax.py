"""Reading CuTe's C++ spelling of layouts: `Layout<Shape<Shape<_4,_8>,_2>, Stride<Stride<_32,_1>,_16>>`.

Used to read MMA_Traits / Copy_Traits from headers and the C++ expressions the oracle records
(`tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<...>{}), Shape<_64,_64>{})`).  Aliases
(`using ALayout = ...;`) are resolved through the `env` mapping given by the caller.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from . import functions as F
from .inttuple import AlgebraError, Underscore
from .layout import Layout
from .swizzle import Swizzle
from .types import type_bits


class CppParseError(ValueError):
    def __init__(self, message: str, pos: int = 0) -> None:
        self.message, self.pos = message, pos
        super().__init__(message)


_TOK = re.compile(r"\s*(?:(?P<num>-?\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)*)"
                  r"|(?P<p>[<>(){},*+/\-]))")

_TUPLE_NAMES = {"Shape", "Stride", "Step", "Tile", "Coord", "tuple", "make_shape", "make_stride", "make_tile",
                "make_step", "make_coord", "make_tuple"}


class CppReader:
    def __init__(self, text: str, env: Mapping[str, Any] | None = None) -> None:
        self.text = text
        self.env = env or {}
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            m = _TOK.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise CppParseError(f"unexpected character {text[pos]!r}", pos)
            kind = m.lastgroup or ""
            val = m.group(kind)
            if kind == "name":
                val = re.sub(r"\s+", "", val)
            self.toks.append((kind, val, m.start(kind)))
            pos = m.end()
        self.toks.append(("end", "", len(text)))
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self, val: str | None = None) -> tuple[str, str, int]:
        t = self.toks[self.i]
        if val is not None and t[1] != val:
            raise CppParseError(f"expected '{val}', found '{t[1] or 'end'}'", t[2])
        self.i += 1
        return t

    def parse(self) -> Any:
        v = self.expr()
        if self.peek()[0] != "end":
            raise CppParseError(f"unexpected '{self.peek()[1]}'", self.peek()[2])
        return v

    def _args(self, close: str) -> list[Any]:
        out: list[Any] = []
        if self.peek()[1] == close:
            self.take(close)
            return out
        out.append(self.expr())
        while self.peek()[1] == ",":
            self.take(",")
            out.append(self.expr())
        self.take(close)
        return out

    def expr(self) -> Any:
        v = self.term()
        while self.peek()[1] in ("*", "+", "-", "/"):
            op = self.take()[1]
            w = self.term()
            v = {"*": lambda a, b: a * b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
                 "/": lambda a, b: a // b}[op](v, w)
        return v

    def term(self) -> Any:
        kind, val, pos = self.take()
        if kind == "num":
            return int(val)
        if val == "(":
            v = self.expr()
            self.take(")")
            return v
        if kind != "name":
            raise CppParseError(f"unexpected '{val or 'end'}'", pos)
        base = val.split("::")[-1]
        targs: list[Any] | None = None
        if self.peek()[1] == "<":
            self.take("<")
            targs = self._args(">")
        if self.peek()[1] == "{":
            self.take("{")
            self._args("}")
        cargs: list[Any] | None = None
        if self.peek()[1] == "(":
            self.take("(")
            cargs = self._args(")")
        return self.build(base, val, targs, cargs, pos)

    def build(self, base: str, full: str, targs: list | None, cargs: list | None, pos: int) -> Any:
        m = re.fullmatch(r"_(\d+)", base)
        if m and targs is None:
            return int(m.group(1))
        if base in ("_", "Underscore"):
            return Underscore
        if base in ("Int", "C", "integral_constant") and targs:
            return int(targs[-1])
        if base in _TUPLE_NAMES:
            items = targs if targs is not None else (cargs or [])
            return tuple(items)
        if base == "Layout" or base == "make_layout":
            items = targs if targs is not None else (cargs or [])
            if len(items) == 1:
                return items[0] if isinstance(items[0], Layout) else Layout(items[0])
            if len(items) == 2 and not isinstance(items[0], Layout):
                return Layout(items[0], items[1])
            if all(isinstance(x, Layout) for x in items):
                from .layout import make_layout
                return make_layout(*items)
            raise CppParseError("Layout<Shape, Stride> expected", pos)
        if base == "Swizzle":
            return Swizzle(*[int(x) for x in (targs or [])])
        if base in _FUNCS:
            try:
                return _FUNCS[base](targs or [], cargs or [])
            except AlgebraError as e:
                raise CppParseError(f"{base}: {e}", pos) from None
        if full in self.env:
            return self.env[full]
        if base in self.env:
            return self.env[base]
        if cargs is None:
            return TypeName(full, targs or [])  # a type (half_t, an unresolved alias): the caller decides
        raise CppParseError(f"cannot read '{full}(...)'", pos)


class TypeName(str):
    """A C++ name that is not layout vocabulary: a value type, or an alias the reader could not resolve."""

    def __new__(cls, name: str, targs: list) -> "TypeName":
        obj = super().__new__(cls, name)
        obj.targs = targs
        return obj


def _f(fn: Callable) -> Callable[[list, list], Any]:
    return lambda t, a: fn(*a)


_FUNCS: dict[str, Callable[[list, list], Any]] = {
    "composition": lambda t, a: F.composition(*a) if len(a) == 2 else __import__(
        "verifier.algebra.swizzle", fromlist=["compose3"]).compose3(*a),
    "tile_to_shape": _f(F.tile_to_shape), "right_inverse": _f(F.right_inverse), "left_inverse": _f(F.left_inverse),
    "logical_divide": _f(F.logical_divide), "zipped_divide": _f(F.zipped_divide),
    "tiled_divide": _f(F.tiled_divide), "flat_divide": _f(F.flat_divide), "logical_product": _f(F.logical_product),
    "blocked_product": _f(F.blocked_product), "raked_product": _f(F.raked_product), "coalesce": _f(F.coalesce),
    "complement": _f(F.complement),
    "upcast": lambda t, a: F.upcast(a[0], int(t[0])), "downcast": lambda t, a: F.downcast(a[0], int(t[0])),
    "recast_layout": lambda t, a: F.recast_layout(a[0], type_bits(t[0]), type_bits(t[1])),
}


def read_cpp(text: str, env: Mapping[str, Any] | None = None) -> Any:
    """Evaluate a CuTe C++ type/expression text to a Layout, tuple, int, Swizzle or ComposedLayout."""
    return CppReader(text, env).parse()
