"""Layouts as expressions: L(coordinate) for symbolic coordinates, exactly as crd2idx computes it."""
from __future__ import annotations

from typing import Any, Hashable

from ..algebra.inttuple import IntTuple, is_tuple, product
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, MixedBits, SmemPtrFlag, Swizzle
from .expr import Expr, ExprLike, add, const, floordiv, mod, mul


def _split(c: Expr, shape: Any) -> list[Expr]:
    """A 1-D index into a tuple shape -> one 1-D index per mode (colexicographic; the last is not reduced)."""
    out = []
    rest = c
    for i, s in enumerate(shape):
        if i == len(shape) - 1:
            out.append(rest)
        else:
            p = int(product(s))
            out.append(mod(rest, p))
            rest = floordiv(rest, p)
    return out


_MEMO: dict[tuple[Hashable, IntTuple, IntTuple], Expr] = {}     # (coordinate's key, shape, stride) -> L(coordinate)
MEMO_SIZE = 1 << 16


def _coord_key(coord: Any) -> Any:
    if isinstance(coord, Expr):
        return coord.key()
    if isinstance(coord, tuple):
        return tuple(_coord_key(c) for c in coord)
    return int(coord)


def crd2idx_expr(coord: Any, shape: Any, stride: Any) -> Expr:
    """L(coord) for L = shape:stride, as crd2idx computes it; remembered per process (the atoms' layouts recur in
    every check that uses them)."""
    key = (_coord_key(coord), shape, stride)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = _crd2idx_expr(coord, shape, stride)
    return found


def _crd2idx_expr(coord: Any, shape: Any, stride: Any) -> Expr:
    if is_tuple(coord):
        if not is_tuple(shape) or len(shape) != len(coord):
            raise ValueError("coordinate does not match the layout's modes")
        return add(*[_crd2idx_expr(c, s, d) for c, s, d in zip(coord, shape, stride)])
    c = const(coord)
    if is_tuple(shape):
        return add(*[_crd2idx_expr(ci, s, d) for ci, s, d in zip(_split(c, shape), shape, stride)])
    if int(shape) == 1:
        return const(0)
    return mul(c, int(stride))


def swizzle_expr(sw: Swizzle, x: Expr) -> Expr:
    y = x & sw.yyy_msk
    moved = y >> sw.S if sw.S >= 0 else y << -sw.S
    return x ^ moved


def layout_expr(layout: Any, coord: Any) -> Expr:
    """layout(coord) where coord is an expression (1-D index) or a tuple of them per mode."""
    if isinstance(layout, Layout):
        return crd2idx_expr(coord, layout.shape, layout.stride)
    if isinstance(layout, ComposedLayout):
        inner = layout_expr(layout.b, coord)
        off = layout.offset
        if isinstance(off, SmemPtrFlag):
            off = 0
        x = add(inner, int(off) if isinstance(off, MixedBits) else int(off))
        if isinstance(layout.a, Swizzle):
            return swizzle_expr(layout.a, x)
        return layout_expr(layout.a, x)
    if isinstance(layout, Swizzle):
        return swizzle_expr(layout, const(coord))
    raise TypeError(f"not a layout: {layout!r}")


def index_of(coord_exprs: list[ExprLike], sizes: list[int]) -> Expr:
    """Colexicographic 1-D index of per-mode indices."""
    out: Expr = const(0)
    mult = 1
    for c, s in zip(coord_exprs, sizes):
        out = add(out, mul(c, mult))
        mult *= s
    return out
