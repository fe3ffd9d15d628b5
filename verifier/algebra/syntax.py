"""Reading CuTe's printed syntax and the calculator's expression language.

Layouts: `((4,8),(2,2,2)):((32,1),(16,8,128))`, with or without the `_` of static integers.
Swizzled layouts: `Sw<3,3,3> o _0 o (8,64):(64,1)`, `Sw<3,3,3> o (8,64):(64,1)`, and CuTe's GMMA
form `Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)`.
Expressions: CuTe's function names applied to those, `[a, b]` for a tuple tiler (`_N` items are
integers, `_` is CuTe's Underscore), `(8,8)` for a shape tiler, `upcast<16>(L)`,
`recast_layout<uint1_t,half_t>(L)`, and `L(i)` / `L(t,v)` to evaluate a layout.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from . import functions as F
from .inttuple import AlgebraError, IntTuple, Underscore, is_int, is_tuple
from .layout import Layout
from .swizzle import ComposedLayout, SmemPtrFlag, Swizzle, compose3
from .types import type_bits


class ParseError(ValueError):
    """A syntax error at `column` (1-based) of the text."""

    def __init__(self, message: str, text: str, pos: int) -> None:
        self.message, self.text, self.pos = message, text, pos
        super().__init__(f"column {pos + 1}: {message}")

    @property
    def column(self) -> int:
        return self.pos + 1


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<smem>smem_ptr\[(?P<bits>\d+)b\]\(unset\))
  | (?P<int>_?-?\d+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<punct>[()\[\]<>,:])
""", re.VERBOSE)

MAX_SIZE = 1 << 40  # absurd sizes are refused before anything is enumerated


@dataclass
class Tok:
    kind: str
    text: str
    pos: int
    value: Any = None


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"unexpected character {text[pos]!r}", text, pos)
        if m.group("smem"):
            toks.append(Tok("smem", m.group(0), pos, int(m.group("bits"))))
        elif m.group("int") is not None:
            toks.append(Tok("int", m.group(0), pos, int(m.group(0).lstrip("_"))))
        elif m.group("name") is not None:
            name = m.group(0)
            toks.append(Tok("name", name, pos))
        elif m.group("punct") is not None:
            toks.append(Tok(m.group(0), m.group(0), pos))
        pos = m.end()
    toks.append(Tok("end", "", len(text)))
    return toks


class Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = tokenize(text)
        self.i = 0

    # -- helpers ------------------------------------------------------------------------
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self, kind: str | None = None) -> Tok:
        t = self.tok
        if kind is not None and t.kind != kind:
            want = {"end": "end of input"}.get(kind, repr(kind))
            got = "end of input" if t.kind == "end" else repr(t.text)
            raise ParseError(f"expected {want}, found {got}", self.text, t.pos)
        self.i += 1
        return t

    def error(self, msg: str, tok: Tok | None = None) -> ParseError:
        return ParseError(msg, self.text, (tok or self.tok).pos)

    # -- grammar ------------------------------------------------------------------------
    def parse_expr(self) -> Any:
        start = self.tok
        parts = [self.parse_postfix()]
        while self.tok.kind == "name" and self.tok.text == "o":
            self.take()
            parts.append(self.parse_postfix())
        if len(parts) == 1:
            return parts[0]
        try:
            return _compose_chain(parts)
        except AlgebraError as e:
            raise ParseError(str(e), self.text, start.pos) from None

    def parse_postfix(self) -> Any:
        start = self.tok
        value = self.parse_primary()
        while self.tok.kind == "(" and isinstance(value, (Layout, ComposedLayout, Swizzle)):
            self.take("(")
            args = self.parse_args(")")
            self.take(")")
            coord = args[0] if len(args) == 1 else tuple(args)
            try:
                value = _apply(value, coord)
            except AlgebraError as e:
                raise ParseError(str(e), self.text, start.pos) from None
        return value

    def parse_args(self, close: str) -> list[Any]:
        args: list[Any] = []
        if self.tok.kind == close:
            return args
        args.append(self.parse_expr())
        while self.tok.kind == ",":
            self.take(",")
            args.append(self.parse_expr())
        return args

    def parse_primary(self) -> Any:
        t = self.tok
        if t.kind == "[":
            self.take("[")
            items = self.parse_args("]")
            self.take("]")
            return tuple(_tiler_item(x) for x in items)
        if t.kind == "smem":
            self.take()
            return SmemPtrFlag(t.value)
        if t.kind in ("int", "("):
            return self.parse_layout_or_tuple()
        if t.kind == "name":
            if t.text == "_":
                self.take()
                return Underscore
            return self.parse_call()
        raise self.error("expected a layout, a tiler or a function call" if t.kind != "end"
                         else "unexpected end of input")

    def parse_inttuple(self) -> IntTuple:
        t = self.tok
        if t.kind == "int":
            self.take()
            return t.value
        if t.kind == "(":
            self.take("(")
            items = [self.parse_inttuple()]
            while self.tok.kind == ",":
                self.take(",")
                items.append(self.parse_inttuple())
            self.take(")")
            return tuple(items)
        raise self.error("expected an integer or '('")

    def parse_layout_or_tuple(self) -> Any:
        start = self.tok
        # a parenthesised expression list that is not an int tuple, e.g. ((8,8):(1,8)) is not CuTe syntax;
        # everything starting with '(' or an integer is an IntTuple, optionally followed by ':' stride.
        shape = self.parse_inttuple()
        if self.tok.kind != ":":
            return shape
        self.take(":")
        stride_tok = self.tok
        stride = self.parse_inttuple()
        return make_checked_layout(shape, stride, self.text, start.pos, stride_tok.pos)

    def parse_call(self) -> Any:
        name_tok = self.take("name")
        name = name_tok.text
        targs: list[Any] = []
        if self.tok.kind == "<":
            self.take("<")
            targs.append(self.parse_targ())
            while self.tok.kind == ",":
                self.take(",")
                targs.append(self.parse_targ())
            self.take(">")
        if name in ("Sw", "Swizzle"):
            if len(targs) != 3 or not all(is_int(x) for x in targs):
                raise self.error("a swizzle is Sw<B,M,S> with three integers", name_tok)
            try:
                sw = Swizzle(*targs)
            except AlgebraError as e:
                raise ParseError(str(e), self.text, name_tok.pos) from None
            if self.tok.kind == "(" and self.peek().kind != ")":
                return sw  # applied by parse_postfix
            return sw
        if self.tok.kind != "(":
            raise self.error(f"unknown name '{name}'" if name not in FUNCTIONS else f"'{name}' needs arguments",
                             name_tok)
        self.take("(")
        args = self.parse_args(")")
        self.take(")")
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise ParseError(f"unknown function '{name}' (known: {', '.join(sorted(FUNCTIONS))})",
                             self.text, name_tok.pos)
        try:
            return fn(targs, args)
        except AlgebraError as e:
            raise ParseError(f"{name}: {e}", self.text, name_tok.pos) from None
        except (TypeError, ValueError, KeyError, IndexError) as e:
            msg = e.args[0] if e.args else str(e)
            raise ParseError(f"{name}: {msg}", self.text, name_tok.pos) from None

    def parse_targ(self) -> Any:
        t = self.tok
        if t.kind == "int":
            self.take()
            return t.value
        if t.kind == "name":
            self.take()
            return t.text
        raise self.error("expected a template argument")


def make_checked_layout(shape: IntTuple, stride: IntTuple, text: str = "", pos: int = 0,
                        stride_pos: int | None = None) -> Layout:
    from .inttuple import congruent, fmt_plain, product
    if not congruent(shape, stride):
        raise ParseError(f"shape {fmt_plain(shape)} and stride {fmt_plain(stride)} have different ranks",
                         text, stride_pos if stride_pos is not None else pos)
    from .inttuple import flatten_to_tuple
    if any(int(s) <= 0 for s in flatten_to_tuple(shape)):
        raise ParseError("shape entries must be positive", text, pos)
    if product(shape) > MAX_SIZE:
        raise ParseError(f"layout size {product(shape)} is larger than the supported {MAX_SIZE}", text, pos)
    return Layout(shape, stride)


def _tiler_item(x: Any) -> Any:
    """Inside [...]: an integer N is the tiler N:1 (CuTe treats _N so); layouts, `_`, tuples as they are."""
    return x


def _compose_chain(parts: list[Any]) -> Any:
    if len(parts) == 3 and (is_int(parts[1]) or isinstance(parts[1], SmemPtrFlag)) and isinstance(parts[2], Layout):
        if isinstance(parts[0], Swizzle) and isinstance(parts[1], SmemPtrFlag):
            return ComposedLayout(parts[0], parts[1], parts[2])
        return compose3(parts[0], parts[1], parts[2])
    result = parts[-1]
    for p in reversed(parts[:-1]):
        result = F.composition(p, result)
    return result


def _apply(value: Any, coord: Any) -> Any:
    if isinstance(value, Swizzle):
        if not is_int(coord):
            raise AlgebraError("a swizzle is applied to one integer")
        return value(coord)
    out = value(coord)
    return out if isinstance(out, (Layout, ComposedLayout)) else int(out)


# --- the function table of the calculator --------------------------------------------------------

def _n_args(name: str, args: list, lo: int, hi: int | None = None) -> None:
    hi = lo if hi is None else hi
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise AlgebraError(f"{name} takes {want} argument(s), got {len(args)}")


def _layout_arg(x: Any, name: str) -> Any:
    if isinstance(x, (Layout, ComposedLayout, Swizzle)):
        return x
    if is_int(x) or is_tuple(x):
        # a bare shape used where a layout is expected: CuTe's make_layout(shape)
        return Layout(x)
    raise AlgebraError(f"{name}: expected a layout, got {x!r}")


def _unary(f: Callable[[Any], Any], name: str) -> Callable[[list, list], Any]:
    def call(targs: list, args: list) -> Any:
        _n_args(name, args, 1)
        return f(_layout_arg(args[0], name))
    return call


def _binary(f: Callable[[Any, Any], Any], name: str) -> Callable[[list, list], Any]:
    def call(targs: list, args: list) -> Any:
        _n_args(name, args, 2)
        return f(_layout_arg(args[0], name), args[1])
    return call


def _composition(targs: list, args: list) -> Any:
    if len(args) == 3:  # composition(A, offset, B)
        return compose3(args[0], args[1], _layout_arg(args[2], "composition"))
    _n_args("composition", args, 2)
    return F.composition(_layout_arg(args[0], "composition"), args[1])


def _complement(targs: list, args: list) -> Any:
    _n_args("complement", args, 1, 2)
    return F.complement(_layout_arg(args[0], "complement"), args[1] if len(args) > 1 else None)


def _coalesce(targs: list, args: list) -> Any:
    _n_args("coalesce", args, 1, 2)
    return F.coalesce(_layout_arg(args[0], "coalesce"), *(args[1:]))


def _filter(targs: list, args: list) -> Any:
    _n_args("filter", args, 1, 2)
    return F.filter(_layout_arg(args[0], "filter"), *(args[1:]))


def _tile_to_shape(targs: list, args: list) -> Any:
    _n_args("tile_to_shape", args, 2, 3)
    return F.tile_to_shape(_layout_arg(args[0], "tile_to_shape"), *args[1:])


def _product(f: Callable, name: str) -> Callable[[list, list], Any]:
    def call(targs: list, args: list) -> Any:
        _n_args(name, args, 2)
        return f(_layout_arg(args[0], name), _layout_arg(args[1], name) if name in ("blocked_product", "raked_product")
                 else args[1])
    return call


def _cast(f: Callable, name: str) -> Callable[[list, list], Any]:
    def call(targs: list, args: list) -> Any:
        if len(targs) != 1 or not is_int(targs[0]) or targs[0] <= 0:
            raise AlgebraError(f"{name}<N>(L) needs one positive integer N")
        _n_args(name, args, 1)
        return f(_layout_arg(args[0], name), targs[0])
    return call


def _recast(targs: list, args: list) -> Any:
    if len(targs) != 2:
        raise AlgebraError("recast_layout<From,To>(L) needs two types")
    _n_args("recast_layout", args, 1)
    return F.recast_layout(_layout_arg(args[0], "recast_layout"), type_bits(targs[0]), type_bits(targs[1]))


def _scalar(f: Callable[[Any], int], name: str) -> Callable[[list, list], Any]:
    def call(targs: list, args: list) -> Any:
        _n_args(name, args, 1)
        return int(f(_layout_arg(args[0], name)))
    return call


def _make_layout(targs: list, args: list) -> Any:
    _n_args("make_layout", args, 1, 2)
    if len(args) == 2:
        return Layout(args[0], args[1])
    return _layout_arg(args[0], "make_layout")


FUNCTIONS: dict[str, Callable[[list, list], Any]] = {
    "composition": _composition,
    "complement": _complement,
    "right_inverse": _unary(F.right_inverse, "right_inverse"),
    "left_inverse": _unary(F.left_inverse, "left_inverse"),
    "coalesce": _coalesce,
    "filter": _filter,
    "logical_divide": _binary(F.logical_divide, "logical_divide"),
    "zipped_divide": _binary(F.zipped_divide, "zipped_divide"),
    "tiled_divide": _binary(F.tiled_divide, "tiled_divide"),
    "flat_divide": _binary(F.flat_divide, "flat_divide"),
    "logical_product": _product(F.logical_product, "logical_product"),
    "zipped_product": _product(F.zipped_product, "zipped_product"),
    "tiled_product": _product(F.tiled_product, "tiled_product"),
    "flat_product": _product(F.flat_product, "flat_product"),
    "blocked_product": _product(F.blocked_product, "blocked_product"),
    "raked_product": _product(F.raked_product, "raked_product"),
    "tile_to_shape": _tile_to_shape,
    "upcast": _cast(F.upcast, "upcast"),
    "downcast": _cast(F.downcast, "downcast"),
    "recast_layout": _recast,
    "size": _scalar(F.size, "size"),
    "cosize": _scalar(F.cosize, "cosize"),
    "rank": _scalar(F.rank, "rank"),
    "depth": _scalar(F.depth, "depth"),
    "make_layout": _make_layout,
}


def parse_expression(text: str) -> Any:
    """Evaluate one calculator expression; raises ParseError with the column of the problem."""
    p = Parser(text)
    if p.tok.kind == "end":
        raise ParseError("empty expression", text, 0)
    value = p.parse_expr()
    p.take("end")
    return value


def parse_layout(text: str) -> Layout | ComposedLayout:
    """A layout as CuTe prints it (plain or swizzled); nothing else is accepted."""
    p = Parser(text)
    if p.tok.kind == "end":
        raise ParseError("empty layout", text, 0)
    start = p.tok
    value = p.parse_expr()
    p.take("end")
    if isinstance(value, SmemPtrFlag) or not isinstance(value, (Layout, ComposedLayout)):
        raise ParseError("expected a layout such as (4,8):(8,1)", text, start.pos)
    return value


def parse_inttuple(text: str) -> IntTuple:
    p = Parser(text)
    v = p.parse_inttuple()
    p.take("end")
    return v
