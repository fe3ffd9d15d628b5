"""Reading CuTe's printed syntax and the calculator's expression language.

Layouts: `((4,8),(2,2,2)):((32,1),(16,8,128))`, with or without the `_` of static integers.
Swizzled layouts: `Sw<3,3,3> o _0 o (8,64):(64,1)`, `Sw<3,3,3> o (8,64):(64,1)`, and CuTe's GMMA
form `Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)`.
Expressions: CuTe's function names applied to those, `[a, b]` for a tuple tiler (`_N` items are
integers, `_` is CuTe's Underscore), `(8,8)` for a shape tiler, `upcast<16>(L)`,
`recast_layout<uint1_t,half_t>(L)`, and `L(i)` / `L(t,v)` to evaluate a layout.

Every refusal is a ParseError with a column, whatever the input: text too long or nested too deeply, integers
with too many digits, values of the wrong kind for an operation, and layouts too large to enumerate are all
refused before the algebra sees them; messages repeat at most ECHO_LIMIT characters of the input.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

from ..echo import ECHO_LIMIT, shorten
from . import functions as F
from .calls import (FUNCTIONS, LAYOUT_TYPES, MAX_SIZE, TArg, Value, check_shape, is_coord, is_tiler, show_count,
                    show_value)
from .functions import AnyLayout
from .inttuple import AlgebraError, IntTuple, PortLimit, Underscore, congruent, fmt_plain, is_int
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
  | (?P<smem>smem(?:_sparse<(?P<sparsity>[1-9]\d{0,2})>)?_ptr\[(?P<bits>\d+)b\]\(unset\))
  | (?P<int>_?-?\d+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<punct>[()\[\]<>,:{}])
""", re.VERBOSE)

MAX_TEXT_LENGTH = 10_000    # characters in one expression or layout string
MAX_NESTING = 64            # brackets inside brackets; the parser and the algebra recurse once (or more) per level
MAX_INT_DIGITS = 40         # CuTe's integers are 64-bit; a longer literal is a typo
MAX_SWIZZLE_BITS = 64       # Sw<B,M,S> reads and writes offset bits below B + M + |S|
_OPENERS, _CLOSERS = "([<", ")]>"


@dataclass
class Tok:
    kind: str
    text: str
    pos: int
    value: int | None = None     # the number of an `int` or `smem` token

    @property
    def number(self) -> int:
        assert self.value is not None, f"a {self.kind} token has no number"
        return self.value


def _int_literal(digits: str, text: str, pos: int) -> int:
    count = len(digits.lstrip("_-"))
    if count > MAX_INT_DIGITS:
        raise ParseError(f"an integer with {count} digits is too large (at most {MAX_INT_DIGITS} digits)", text, pos)
    return int(digits.lstrip("_"))


def _check_bounds(text: str) -> None:
    """Refuses text nested deeper than the parser's recursion allows, or too long to be a layout."""
    depth = 0
    for pos, ch in enumerate(text):
        if ch in _OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                raise ParseError(f"nested too deeply (limit {MAX_NESTING})", text, pos)
        elif ch in _CLOSERS:
            depth = max(0, depth - 1)
    if len(text) > MAX_TEXT_LENGTH:
        raise ParseError(f"the text is {len(text)} characters long; at most {MAX_TEXT_LENGTH} are supported",
                         text, MAX_TEXT_LENGTH)


def tokenize(text: str) -> list[Tok]:
    _check_bounds(text)
    toks: list[Tok] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"unexpected character {text[pos]!a}", text, pos)
        if m.group("smem"):   # a sparse pointer's unit is a logical element: bits(T) / S (smem_sparse<S>_ptr[bits(T)b])
            sparsity = int(m.group("sparsity") or 1)
            toks.append(Tok("smem", m.group(0), pos, max(1, _int_literal(m.group("bits"), text, pos) // sparsity)))
        elif m.group("int") is not None:
            toks.append(Tok("int", m.group(0), pos, _int_literal(m.group(0), text, pos)))
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
            got = "end of input" if t.kind == "end" else repr(shorten(t.text))
            raise ParseError(f"expected {want}, found {got}", self.text, t.pos)
        self.i += 1
        return t

    def error(self, msg: str, tok: Tok | None = None) -> ParseError:
        return ParseError(msg, self.text, (tok or self.tok).pos)

    def evaluate(self, what: str, tok: Tok, f: Callable[[], Value]) -> Value:
        """f(): an algebra operation written at `tok`; its refusal becomes a ParseError there, and a layout
        it returns must be no larger than MAX_SIZE."""
        prefix = f"{what}: " if what else ""
        try:
            value = f()
        except ALGEBRA_ERRORS as e:
            raise ParseError(prefix + _error_text(e), self.text, tok.pos) from None
        if isinstance(value, (Layout, ComposedLayout)) and int(value.size()) > MAX_SIZE:
            raise ParseError(f"{prefix}the result has {show_count(int(value.size()))} elements; at most "
                             f"{MAX_SIZE} (2**{MAX_SIZE.bit_length() - 1}) are supported", self.text, tok.pos)
        return value

    # -- grammar ------------------------------------------------------------------------
    def parse_expr(self) -> Value:
        start = self.tok
        parts = [self.parse_postfix()]
        while self.tok.kind == "name" and self.tok.text == "o":
            self.take()
            parts.append(self.parse_postfix())
        if len(parts) == 1:
            return parts[0]
        return self.evaluate("", start, lambda: _compose_chain(parts))

    def parse_postfix(self) -> Value:
        start = self.tok
        value = self.parse_primary()
        while self.tok.kind == "(" and isinstance(value, LAYOUT_TYPES):
            self.take("(")
            args = self.parse_args(")")
            self.take(")")
            coord = args[0] if len(args) == 1 else tuple(args)
            value = self.evaluate("", start, partial(_apply, value, coord))
        return value

    def parse_args(self, close: str) -> list[Value]:
        args: list[Value] = []
        if self.tok.kind == close:
            return args
        args.append(self.parse_expr())
        while self.tok.kind == ",":
            self.take(",")
            args.append(self.parse_expr())
        return args

    def parse_primary(self) -> Value:
        t = self.tok
        if t.kind == "[":
            self.take("[")
            items = self.parse_args("]")
            self.take("]")
            return tuple(items)
        if t.kind == "smem":
            self.take()
            return SmemPtrFlag(t.number)
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
            return t.number
        if t.kind == "(":
            self.take("(")
            items = [self.parse_inttuple()]
            while self.tok.kind == ",":
                self.take(",")
                items.append(self.parse_inttuple())
            self.take(")")
            return tuple(items)
        raise self.error("expected an integer or '('")

    def parse_layout_or_tuple(self) -> Layout | IntTuple:
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

    def parse_call(self) -> Value:
        name_tok = self.take("name")
        name = name_tok.text
        targs: list[TArg] = []
        if self.tok.kind == "<":
            self.take("<")
            targs.append(self.parse_targ())
            while self.tok.kind == ",":
                self.take(",")
                targs.append(self.parse_targ())
            self.take(">")
        if name in ("Sw", "Swizzle"):
            return self.evaluate("", name_tok, lambda: _swizzle(targs))  # applied, if at all, by parse_postfix
        if _gmma_atom_name(name):
            if self.tok.kind == "{":                                     # C++ value syntax: Atom<T>{}
                self.take("{")
                self.take("}")
            return self.evaluate(name, name_tok, lambda: _gmma_atom(name, targs))
        if self.tok.kind != "(":
            shown = shorten(name)
            raise self.error(f"unknown name '{shown}'" if name not in FUNCTIONS else f"'{name}' needs arguments",
                             name_tok)
        self.take("(")
        args = self.parse_args(")")
        self.take(")")
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise ParseError(f"unknown function '{shorten(name)}' (known: {', '.join(sorted(FUNCTIONS))})",
                             self.text, name_tok.pos)
        return self.evaluate(name, name_tok, lambda: fn(targs, args))

    def parse_targ(self) -> TArg:
        t = self.tok
        if t.kind == "int":
            self.take()
            return t.number
        if t.kind == "name":
            self.take()
            return t.text
        raise self.error("expected a template argument")


# What the algebra raises when it refuses its input: AlgebraError (CuTe's static_asserts) and the arithmetic
# and lookup errors of the operations it delegates to (an unknown type name is a KeyError).
ALGEBRA_ERRORS = (ValueError, ArithmeticError, KeyError, IndexError)


def _error_text(e: Exception) -> str:
    """An algebra error as one short line: CuTe's rule (or the port's limit) in full, the values it names shortened."""
    if isinstance(e, (AlgebraError, PortLimit)):
        head = e.rule if isinstance(e, AlgebraError) else e.reason
        detail = str(e)[len(head) + 2:]
        return head + (f": {shorten(detail)}" if detail else "")
    text = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
    return shorten(" ".join(str(text).split()), 4 * ECHO_LIMIT)


def make_checked_layout(shape: IntTuple, stride: IntTuple, text: str = "", pos: int = 0,
                        stride_pos: int | None = None) -> Layout:
    """shape:stride as written at `pos` of `text` (the stride at `stride_pos`): congruent, positive, not absurd."""
    if not congruent(shape, stride):
        raise ParseError(f"shape {shorten(fmt_plain(shape))} and stride {shorten(fmt_plain(stride))} "
                         "have different ranks", text, stride_pos if stride_pos is not None else pos)
    try:
        check_shape(shape)
    except PortLimit as e:
        raise ParseError(str(e), text, pos) from None
    return Layout(shape, stride)


def _gmma_atom_name(name: str) -> bool:
    from .layout_atoms import ATOM_NAME, SPARSE_ATOM_NAME
    return ATOM_NAME.match(name) is not None or SPARSE_ATOM_NAME.match(name) is not None


SPARSITY_LIMIT = 8      # GMMA::Layout_*_SpAtom<T, S>: S is a sparse_elem's sparsity (2 on Hopper)


def _gmma_atom(name: str, targs: list[TArg]) -> Value:
    """GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>: CuTe's shared-memory layout atoms of wgmma (and their
    structured-sparse forms _SpAtom<T, S>)."""
    from .layout_atoms import SPARSE_ATOM_NAME, atom_from_name, gmma_sparse_layout_atom
    sparse = SPARSE_ATOM_NAME.match(name)
    if sparse is not None:
        if len(targs) != 2 or not is_int(targs[1]) or not 1 <= int(targs[1]) <= SPARSITY_LIMIT:
            raise AlgebraError(f"{name} takes two template arguments, the value type and the sparsity S "
                               f"(1..{SPARSITY_LIMIT})")
        return gmma_sparse_layout_atom(sparse.group(1), sparse.group(2), type_bits(targs[0]), int(targs[1]))
    if len(targs) != 1:
        raise AlgebraError(f"{name} takes one template argument, the value type")
    return atom_from_name(name, type_bits(targs[0]))


def _swizzle(targs: list[TArg]) -> Swizzle:
    bmsk = [x for x in targs if is_int(x)]
    if len(targs) != 3 or len(bmsk) != 3:
        raise AlgebraError("a swizzle is Sw<B,M,S> with three integers")
    sw = Swizzle(*bmsk)   # CuTe's own rules first (BBits must be positive, ...)
    if sw.B + sw.M + abs(sw.S) > MAX_SWIZZLE_BITS:
        raise PortLimit(f"Sw<B,M,S> must have B + M + |S| at most {MAX_SWIZZLE_BITS}", str(sw))
    return sw


def _compose_chain(parts: list[Value]) -> Value:
    """a o b o ... o z; `Sw o offset o L` (the offset an integer or an smem pointer) is a composed layout."""
    if len(parts) == 3 and isinstance(parts[2], Layout):
        outer, offset = parts[0], parts[1]
        if isinstance(outer, Swizzle) and isinstance(offset, SmemPtrFlag):
            return ComposedLayout(outer, offset, parts[2])
        if isinstance(outer, (Swizzle, Layout)) and is_int(offset):
            return compose3(outer, offset, parts[2])
    for p in parts[:-1]:
        if not isinstance(p, LAYOUT_TYPES):
            raise AlgebraError("the left side of 'o' must be a layout or a swizzle", show_value(p))
    result = parts[-1]
    if not is_tiler(result):
        raise AlgebraError("the right side of 'o' must be a layout or a tiler", show_value(result))
    for p in reversed(parts[:-1]):
        result = F.composition(p, result)
    return result


def _apply(value: AnyLayout, coord: Value) -> Value:
    if isinstance(value, Swizzle):
        if not is_int(coord):
            raise AlgebraError("a swizzle is applied to one integer")
        return value(coord)
    if not is_coord(coord):
        raise AlgebraError("a layout is applied to an integer, `_`, or a tuple of them", show_value(coord))
    out = value(coord)
    return out if isinstance(out, (Layout, ComposedLayout)) else int(out)


# CuTe's C++ spelling: `Layout<Shape<_8,_64>, Stride<_64,_1>>{}`, `composition(Swizzle<3,3,3>{}, ...)`
_CPP_SPELLING = re.compile(r"\b(?:Layout|Shape|Stride|Swizzle|Int|Tile|Step|Coord|Int)\s*<|\{\s*\}")


def is_cpp_spelling(text: str) -> bool:
    """Whether `text` is written as C++ (template arguments, brace initializers) rather than as CuTe prints."""
    return bool(_CPP_SPELLING.search(text))


def parse_cpp(text: str) -> Value:
    """A layout-algebra value written in CuTe's C++ spelling, with the printed syntax's limits on input."""
    _check_bounds(text)
    depth = 0
    for pos, ch in enumerate(text):
        depth += 1 if ch in "([{<" else -1 if ch in ")]}>" else 0
        if depth > MAX_NESTING:
            raise ParseError(f"nested too deeply (limit {MAX_NESTING})", text, pos)
    long_number = re.search(r"\d{%d,}" % (MAX_INT_DIGITS + 1), text)
    if long_number:
        raise ParseError(f"an integer with {len(long_number.group())} digits is too large (at most "
                         f"{MAX_INT_DIGITS} digits)", text, long_number.start())
    from .cpp_syntax import CppParseError, read_cpp
    try:
        value = read_cpp(text)
    except CppParseError as e:
        raise ParseError(e.message, text, min(e.pos, max(0, len(text) - 1))) from None
    except (AlgebraError, ArithmeticError, ValueError, TypeError, IndexError) as e:
        raise ParseError(shorten(str(e), 4 * ECHO_LIMIT), text, 0) from None
    name = first_name(value)
    if name is not None:
        raise ParseError(f"unknown name '{shorten(name)}' (not CuTe's layout vocabulary, or a run-time value)",
                         text, max(0, text.find(name)))
    if isinstance(value, (Layout, ComposedLayout)) and int(value.size()) > MAX_SIZE:
        raise ParseError(f"layout size {show_count(int(value.size()))} is larger than the supported {MAX_SIZE}",
                         text, 0)
    return value


def first_name(value: object) -> str | None:
    """The first C++ name (not a number) a value read from C++ holds, if any: what the reader could not resolve."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, ComposedLayout):
        return first_name(value.b)
    if isinstance(value, Layout):
        return first_name((value.shape, value.stride))
    if isinstance(value, tuple):
        return next((n for n in map(first_name, value) if n is not None), None)
    return None


def parse_expression(text: str) -> Value:
    """Evaluate one calculator expression; raises ParseError with the column of the problem.  Text the printed
    syntax refuses but that is written as C++ (`Layout<Shape<...>>{}`) is read as C++."""
    try:
        return _parse_printed_expression(text)
    except ParseError:
        if not is_cpp_spelling(text):
            raise
    return parse_cpp(text)


def _parse_printed_expression(text: str) -> Value:
    p = Parser(text)
    if p.tok.kind == "end":
        raise ParseError("empty expression", text, 0)
    value = p.parse_expr()
    p.take("end")
    return value


@lru_cache(maxsize=4096)
def parse_layout(text: str) -> Layout | ComposedLayout:
    """A layout as CuTe prints it (plain or swizzled), or as C++ spells it; nothing else is accepted.  Remembered
    per text (an atom library repeats its layouts; a layout is never changed after it is built); a text that
    does not parse raises every time."""
    try:
        return _parse_printed_layout(text)
    except ParseError:
        if not is_cpp_spelling(text):
            raise
    value = parse_cpp(text)
    if not isinstance(value, (Layout, ComposedLayout)):
        raise ParseError("expected a layout such as Layout<Shape<_4,_8>, Stride<_8,_1>>{}", text, 0)
    return value


def _parse_printed_layout(text: str) -> Layout | ComposedLayout:
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
