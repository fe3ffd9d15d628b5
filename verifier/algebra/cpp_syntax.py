"""Reading CuTe's C++ spelling of layouts: `Layout<Shape<Shape<_4,_8>,_2>, Stride<Stride<_32,_1>,_16>>`.

Used to read MMA_Traits / Copy_Traits from headers and the C++ expressions the oracle records
(`tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<...>{}), Shape<_64,_64>{})`).  Aliases
(`using ALayout = ...;`) are resolved through the `env` mapping given by the caller.  An env value that
is a `CppTemplate` is instantiated with the template arguments written after its name
(`CLayout_64xN<64>`, `Copy_Traits<SM75_U32x1_LDSM_N>::DstLayout`); a value with a `cpp_member(name)`
method answers `X<...>::name`.  `sizeof_bits<T>::value`, `sizeof_bits_v<T>`, `decltype(e)` and
`typename` are understood; arithmetic follows C++ precedence (`Int<N/8>`, `Int<2*N+1>`).
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from .calls import FUNCTIONS
from .inttuple import AlgebraError, PortLimit, Underscore
from .layout import Layout
from .swizzle import Swizzle
from .types import type_bits


class CppParseError(ValueError):
    def __init__(self, message: str, pos: int = 0) -> None:
        self.message, self.pos = message, pos
        super().__init__(message)


_TOK = re.compile(r"\s*(?:(?P<num>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)*)"
                  r"|(?P<p>::|[<>(){},*+/%\-]))")

# What the reader computes: a C++ value (a layout, a swizzle, an integer, a tuple, a TypeName, whatever an env
# answers), whose kind is the text's; as in the calculator (calls.Value), values travel as Any, named here.
CppValue = Any
# A layout function of C++: (template arguments, call arguments) -> value.
CppFunction = Callable[[list[CppValue], list[CppValue]], CppValue]

_TUPLE_NAMES = {"Shape", "Stride", "Step", "Tile", "Coord", "tuple", "make_shape", "make_stride", "make_tile",
                "make_step", "make_coord", "make_tuple"}


class CppReader:
    def __init__(self, text: str, env: Mapping[str, CppValue] | None = None) -> None:
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

    def parse(self) -> CppValue:
        v = self.expr()
        if self.peek()[0] != "end":
            raise CppParseError(f"unexpected '{self.peek()[1]}'", self.peek()[2])
        return v

    def _args(self, close: str) -> list[CppValue]:
        out: list[CppValue] = []
        if self.peek()[1] == close:
            self.take(close)
            return out
        out.append(self.expr())
        while self.peek()[1] == ",":
            self.take(",")
            out.append(self.expr())
        self.take(close)
        return out

    def expr(self) -> CppValue:
        v = self.product()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            w = self.product()
            v = v + w if op == "+" else v - w
        return v

    def product(self) -> CppValue:
        v = self.term()
        while self.peek()[1] in ("*", "/", "%"):
            op = self.take()[1]
            w = self.term()
            if op == "*":
                v = v * w
            elif isinstance(v, int) and isinstance(w, int):
                if w == 0:
                    raise CppParseError("division by zero", self.peek()[2])
                q = abs(v) // abs(w) * (1 if (v < 0) == (w < 0) else -1)   # C++ truncates toward zero
                v = q if op == "/" else v - q * w
            else:
                v = v // w if op == "/" else v % w
        return v

    def term(self) -> CppValue:
        kind, val, pos = self.take()
        if kind == "num":
            return int(val)
        if val == "-":                                   # unary minus: Stride<-1>, Int<-N>
            return -self.term()
        if val == "(":
            v = self.expr()
            self.take(")")
            return v
        if kind != "name":
            raise CppParseError(f"unexpected '{val or 'end'}'", pos)
        if val in ("typename", "const", "constexpr"):   # keywords that do not change the value
            return self.term()
        base = val.split("::")[-1]
        targs: list[CppValue] | None = None
        if self.peek()[1] == "<":
            self.take("<")
            targs = self._args(">")
        member: str | None = None
        while self.peek()[1] == "::":                     # X<...>::member
            self.take("::")
            k, m, mpos = self.take()
            if k != "name":
                raise CppParseError(f"expected a member name after '::', found '{m or 'end'}'", mpos)
            member = m if member is None else f"{member}::{m}"
        if member is not None:
            if self.peek()[1] == "{":
                self.take("{")
                self._args("}")
            return self.member(base, val, targs, member, pos)
        if self.peek()[1] == "{":
            self.take("{")
            self._args("}")
        cargs: list[CppValue] | None = None
        if self.peek()[1] == "(":
            self.take("(")
            cargs = self._args(")")
        return self.build(base, val, targs, cargs, pos)

    def member(self, base: str, full: str, targs: list[CppValue] | None, member: str, pos: int) -> CppValue:
        """`X<...>::member`: sizeof_bits<T>::value, or a member of a template instance from env."""
        if base == "sizeof_bits" and member == "value" and targs:
            return _bits_of(targs[0], pos)
        owner = self.build(base, full, targs, None, pos)
        if hasattr(owner, "cpp_member"):
            return owner.cpp_member(member)
        return TypeName(f"{type_text(owner)}::{member}", [])

    def build(self, base: str, full: str, targs: list[CppValue] | None, cargs: list[CppValue] | None,
              pos: int) -> CppValue:
        m = re.fullmatch(r"_(\d+)", base)
        if m and targs is None:
            return int(m.group(1))
        if base in ("_", "Underscore"):
            return Underscore
        if base in ("Int", "C", "integral_constant") and targs:
            return int(targs[-1])
        if base == "sizeof_bits_v" and targs:
            return _bits_of(targs[0], pos)
        if base == "decltype" and cargs is not None and len(cargs) == 1:
            return cargs[0]
        if base in _TUPLE_NAMES:
            items = targs if targs is not None else (cargs or [])
            return tuple(items)
        if base == "Layout" or base == "make_layout":
            items = targs if targs is not None else (cargs or [])
            for x in items:
                if not isinstance(x, Layout) and not _is_int_tuple(x):
                    raise CppParseError(f"{base}: a shape or stride holds integers (or tuples of them), not "
                                        f"'{_spelled(x)}'", pos)
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
        if base in _FUNCTIONS and cargs is not None:
            try:
                return _FUNCTIONS[base](targs or [], cargs)
            except (AlgebraError, PortLimit) as e:
                raise CppParseError(f"{base}: {e}", pos) from None
        # an env that answers qualified names itself (`exact_names`) is not asked for `X::Y` as `Y`
        keys = (full,) if getattr(self.env, "exact_names", False) or full == base else (full, base)
        for key in keys:
            if key in self.env:
                value = self.env[key]
                if isinstance(value, CppTemplate):
                    value = value.instantiate(targs or [])
                return value
        if cargs is None:
            return TypeName(full, targs or [])  # a type (half_t, an unresolved alias): the caller decides
        raise CppParseError(f"cannot read '{full}(...)'", pos)


def _spelled(x: object) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_spelled(v) for v in x) + ")"
    return "_" if x is Underscore else type_text(x)


def _is_int_tuple(x: object) -> bool:
    """Integers, tuples of them, or a name still to be resolved (its own error names it, at its column)."""
    if isinstance(x, tuple):
        return len(x) > 0 and all(_is_int_tuple(v) for v in x)
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, TypeName)


class TypeName(str):
    """A C++ name that is not layout vocabulary: a value type, or an alias the reader could not resolve."""
    targs: list[CppValue]

    def __new__(cls, name: str, targs: list[CppValue]) -> "TypeName":
        obj = super().__new__(cls, name)
        obj.targs = targs
        return obj


class CppTemplate:
    """An env value that is a C++ template (an alias template, MMA_Traits...): named with <args>."""

    def instantiate(self, targs: list[CppValue]) -> CppValue:
        raise NotImplementedError


def type_text(t: object) -> str:
    """C++ spelling of a value read_cpp returned for a type: `complex<double>`, `uint32_t`, `8`."""
    targs = getattr(t, "targs", None)
    if isinstance(t, str) and targs:
        return f"{t}<{','.join(type_text(a) for a in targs)}>"
    return str(t)


def _bits_of(t: CppValue, pos: int) -> int:
    bits = getattr(t, "bits", None)
    if isinstance(bits, int):
        return bits
    try:
        return type_bits(type_text(t))
    except (KeyError, ValueError):
        raise CppParseError(f"sizeof_bits of unknown type '{type_text(t)}'", pos) from None


# the layout functions the reader evaluates when C++ calls them, from the calculator's table (calls.FUNCTIONS), which
# checks each argument's kind: a name the reader could not resolve, passed where a layout or a shape goes, is refused
# there, never computed with.  (Not `size`, `rank`...: C++'s size<I>(x) is a mode's, the calculator's the whole.)
CPP_FUNCTIONS = ("composition", "tile_to_shape", "right_inverse", "left_inverse", "logical_divide", "zipped_divide",
                 "tiled_divide", "flat_divide", "logical_product", "blocked_product", "raked_product", "coalesce",
                 "complement", "upcast", "downcast", "recast_layout")


_FUNCTIONS: dict[str, CppFunction] = {name: FUNCTIONS[name] for name in CPP_FUNCTIONS}


def read_cpp(text: str, env: Mapping[str, CppValue] | None = None) -> CppValue:
    """Evaluate a CuTe C++ type/expression text to a Layout, tuple, int, Swizzle or ComposedLayout."""
    return CppReader(text, env).parse()
