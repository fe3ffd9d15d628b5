"""The layout algebra's functions as the calculator and the C++ reader call them: (template arguments, arguments) ->
value, each argument's kind checked first (a layout, a tiler, an integer tuple, a profile), so that what is not a
layout -- a name the C++ reader could not resolve, a number where a layout goes -- is refused with CuTe's words,
never computed with.  Also the calculator's own bounds on the layouts it is given (`check_shape`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

from ..echo import shorten
from . import functions as F
from .functions import AnyLayout
from .inttuple import (AlgebraError, IntTuple, PortLimit, congruent, flatten_to_tuple, fmt_plain, is_int, is_tuple,
                       is_underscore, product)
from .layout import Layout
from .swizzle import ComposedLayout, SmemPtrFlag, Swizzle, compose3
from .types import type_bits

# A value of the expression language: a layout, a composed layout, a swizzle, an smem pointer flag, an integer, `_`,
# or a tuple of values.  Which one is data (what the text says), and every operation checks the kinds it is given
# (`_layout_arg`, `_tiler_arg`...), so values travel as Any, named here.
Value = Any
# A template argument: an integer (`upcast<16>`) or a name (`recast_layout<uint1_t,half_t>`).
TArg = Union[int, str]
# A function of the calculator: (template arguments, arguments) -> value.
Function = Callable[[list[TArg], list[Value]], Value]

MAX_SIZE = 1 << 40          # absurd sizes are refused before anything is enumerated
LAYOUT_TYPES = (Layout, ComposedLayout, Swizzle)


def show_count(n: int) -> str:
    """A count for a message: the number itself, or its power of two when it has too many digits to print."""
    return str(n) if n.bit_length() <= 64 else f"about 2**{n.bit_length() - 1}"


def show_value(x: Value) -> str:
    """A value of the expression language as a message shows it (shortened)."""
    return shorten(value_text(x))


def value_text(x: Value) -> str:
    if is_tuple(x):
        return "(" + ",".join(value_text(e) for e in x) + ")"
    if is_int(x):
        return str(int(x))
    return str(x) if not is_underscore(x) else "_"


def check_shape(shape: IntTuple) -> None:
    """The calculator's own bounds on a layout it is given (not CuTe's rules): positive and not absurdly large."""
    if any(int(s) <= 0 for s in flatten_to_tuple(shape)):
        raise PortLimit("shape entries must be positive")
    size = product(shape)
    if size > MAX_SIZE:
        raise PortLimit(f"layout size {show_count(size)} is larger than the supported {MAX_SIZE}")


# --- the values of the expression language ---------------------------------------------------------

def is_inttuple(x: object) -> bool:
    return is_int(x) or (is_tuple(x) and len(x) > 0 and all(is_inttuple(e) for e in x))


def is_coord(x: object) -> bool:
    """An integer, `_`, or a tuple of them: what a layout is applied to, and a coalesce / filter profile."""
    return is_int(x) or is_underscore(x) or (is_tuple(x) and all(is_coord(e) for e in x))


def is_tiler(x: object) -> bool:
    """A layout, a swizzle, an integer, `_`, or a tuple of them: the right side of a composition or a divide."""
    if is_tuple(x):
        return all(is_tiler(e) for e in x)
    return isinstance(x, LAYOUT_TYPES) or is_int(x) or is_underscore(x)


# --- the function table of the calculator --------------------------------------------------------

def _n_args(name: str, args: list[Value], lo: int, hi: int | None = None) -> None:
    hi = lo if hi is None else hi
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise AlgebraError(f"{name} takes {want} argument(s), got {len(args)}")


def _layout_arg(x: Value) -> AnyLayout:
    if isinstance(x, LAYOUT_TYPES):
        return x
    if is_inttuple(x):
        # a bare shape used where a layout is expected: CuTe's make_layout(shape)
        check_shape(x)
        return Layout(x)
    raise AlgebraError(f"expected a layout, got {show_value(x)}")


def _tiler_arg(x: Value) -> Value:
    if not is_tiler(x):
        raise AlgebraError(f"expected a layout or a tiler, got {show_value(x)}")
    return x


def _inttuple_arg(x: Value, what: str) -> IntTuple:
    if not is_inttuple(x):
        raise AlgebraError(f"{what} must be an integer or a tuple of integers, got {show_value(x)}")
    return x


def _profile_arg(x: Value) -> Value:
    if not is_coord(x):
        raise AlgebraError(f"a profile is an integer, `_`, or a tuple of them, got {show_value(x)}")
    return x


def _unary(f: Callable[[AnyLayout], Value], name: str) -> Function:
    def call(targs: list[TArg], args: list[Value]) -> Value:
        _n_args(name, args, 1)
        return f(_layout_arg(args[0]))
    return call


def _binary(f: Callable[[AnyLayout, Value], Value], name: str) -> Function:
    def call(targs: list[TArg], args: list[Value]) -> Value:
        _n_args(name, args, 2)
        return f(_layout_arg(args[0]), _tiler_arg(args[1]))
    return call


def _composition(targs: list[TArg], args: list[Value]) -> Value:
    if len(args) == 3:  # composition(A, offset, B)
        outer, offset = args[0], args[1]
        if not isinstance(outer, (Swizzle, Layout)) or not (is_int(offset) or isinstance(offset, SmemPtrFlag)):
            raise AlgebraError("composition(A, offset, B) needs a swizzle or layout A and an integer offset")
        if isinstance(offset, SmemPtrFlag) and not isinstance(outer, Swizzle):
            raise AlgebraError("composition(A, smem_ptr, B) needs a swizzle A")
        return compose3(outer, offset, _plain_layout_arg(args[2]))
    _n_args("composition", args, 2)
    return F.composition(_layout_arg(args[0]), _tiler_arg(args[1]))


def _plain_layout_arg(x: Value) -> Layout:
    layout = _layout_arg(x)
    if not isinstance(layout, Layout):
        raise AlgebraError(f"expected a plain layout shape:stride, got {show_value(x)}")
    return layout


def _complement(targs: list[TArg], args: list[Value]) -> Value:
    _n_args("complement", args, 1, 2)
    cotarget = args[1] if len(args) > 1 else None
    if cotarget is not None and not isinstance(cotarget, Layout):
        _inttuple_arg(cotarget, "the cotarget")
    return F.complement(_layout_arg(args[0]), cotarget)


def _coalesce(targs: list[TArg], args: list[Value]) -> Value:
    _n_args("coalesce", args, 1, 2)
    return F.coalesce(_layout_arg(args[0]), *(_profile_arg(p) for p in args[1:]))


def _filter(targs: list[TArg], args: list[Value]) -> Value:
    _n_args("filter", args, 1, 2)
    return F.filter(_layout_arg(args[0]), *(_profile_arg(p) for p in args[1:]))


def _tile_to_shape(targs: list[TArg], args: list[Value]) -> Value:
    _n_args("tile_to_shape", args, 2, 3)
    shapes = [_inttuple_arg(x, "the target shape and order") for x in args[1:]]
    return F.tile_to_shape(_layout_arg(args[0]), *shapes)


def _product(f: Callable[[AnyLayout, Value], Value], name: str) -> Function:
    def call(targs: list[TArg], args: list[Value]) -> Value:
        _n_args(name, args, 2)
        blocked = name in ("blocked_product", "raked_product")   # these take a second layout, the others a tiler
        second = _plain_layout_arg(args[1]) if blocked else _tiler_arg(args[1])
        return f(_layout_arg(args[0]), second)
    return call


def _cast(f: Callable[[AnyLayout, int], Value], name: str) -> Function:
    def call(targs: list[TArg], args: list[Value]) -> Value:
        if len(targs) != 1 or not is_int(targs[0]) or targs[0] <= 0:
            raise AlgebraError(f"{name}<N>(L) needs one positive integer N")
        _n_args(name, args, 1)
        return f(_layout_arg(args[0]), targs[0])
    return call


def _recast(targs: list[TArg], args: list[Value]) -> Value:
    if len(targs) != 2:
        raise AlgebraError("recast_layout<From,To>(L) needs two types")
    _n_args("recast_layout", args, 1)
    return F.recast_layout(_layout_arg(args[0]), type_bits(targs[0]), type_bits(targs[1]))


def _scalar(f: Callable[[AnyLayout], int], name: str) -> Function:
    def call(targs: list[TArg], args: list[Value]) -> Value:
        _n_args(name, args, 1)
        return int(f(_layout_arg(args[0])))
    return call


def _make_layout(targs: list[TArg], args: list[Value]) -> Value:
    _n_args("make_layout", args, 1, 2)
    if len(args) == 2:
        shape = _inttuple_arg(args[0], "the shape")
        stride = _inttuple_arg(args[1], "the stride")
        if not congruent(shape, stride):
            raise AlgebraError("Mismatched ranks", f"shape {fmt_plain(shape)} and stride {fmt_plain(stride)} "
                                                   "are not congruent")
        check_shape(shape)
        return Layout(shape, stride)
    return _layout_arg(args[0])


FUNCTIONS: dict[str, Function] = {
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
