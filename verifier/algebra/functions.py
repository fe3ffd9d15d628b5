"""CuTe's vocabulary on any layout kind: plain Layout, Swizzle, ComposedLayout (swizzle o offset o layout).

Composed layouts delegate the shape algebra to their inner layout, as CuTe's layout_composed.hpp does;
the few operations that change the swizzle itself (composition with a swizzle, the inverses, the
recasts) are spelled out here.
"""
from __future__ import annotations

from typing import Callable, Concatenate, ParamSpec, Protocol, Union, cast, overload

from . import ops, recast, tiling
from .inttuple import AlgebraError, IntTuple, PortLimit, _Underscore, is_int, is_static, is_tuple
from .layout import Layout
from .ops import Tiler
from .swizzle import (ComposedLayout, MixedBits, Offset, SmemPtrFlag, Swizzle, compose3, compose_swizzles,
                      downcast_swizzle, make_swizzle, upcast_swizzle)

AnyLayout = Union[Layout, ComposedLayout, Swizzle]
# What the shape algebra gives for a composed layout: the inner layout's result under the same swizzle and offset
# (compose3 drops an identity swizzle with a zero offset, leaving a plain layout).
Shaped = Union[Layout, ComposedLayout]
P = ParamSpec("P")


def _static_zero(x: object) -> bool:
    return is_int(x) and is_static(x) and int(x) == 0


@overload
def composition(lhs: Layout, rhs: Layout | int | _Underscore | tuple[Tiler, ...]) -> Layout: ...
@overload
def composition(lhs: Swizzle, rhs: Swizzle) -> Swizzle: ...
@overload
def composition(lhs: Layout | ComposedLayout, rhs: object) -> Shaped: ...
@overload
def composition(lhs: AnyLayout, rhs: object) -> AnyLayout: ...


def composition(lhs: AnyLayout, rhs: object) -> AnyLayout:
    """lhs o rhs.  rhs may be a layout, a swizzle, a composed layout, or a tiler (tuple / int / `_`)."""
    if isinstance(lhs, Swizzle):
        if isinstance(rhs, Swizzle):
            return compose_swizzles(lhs, rhs)
        if isinstance(rhs, Layout):
            return compose3(lhs, 0, rhs)
        if isinstance(rhs, ComposedLayout) and isinstance(rhs.a, Swizzle) and _static_zero(rhs.offset):
            return compose3(compose_swizzles(lhs, rhs.a), 0, rhs.b)
        raise PortLimit("composition: unsupported operands", f"{lhs} o {rhs}")
    if isinstance(lhs, ComposedLayout):
        # Typed as a plain layout, which it is unless rhs is swizzled: then, as in CuTe, the composed layout nests
        # one as its inner layout (see ComposedLayout).  Not honest in that case: gmma.smem_tile and others read B
        # as a Layout, so ComposedLayout.b cannot be typed Layout | ComposedLayout yet.
        return lhs.with_inner(cast(Layout, composition(lhs.b, rhs)))
    if isinstance(rhs, Swizzle):
        # a layout followed by a swizzle is a swizzle (on the layout's image bits) followed by the layout
        y = int(lhs(rhs.yyy_msk))
        z = int(lhs(rhs.zzz_msk))
        return compose3(make_swizzle(y, z), 0, lhs)
    if isinstance(rhs, ComposedLayout):
        if not (_static_zero(rhs.offset) or isinstance(rhs.offset, SmemPtrFlag)):
            raise AlgebraError("Require offset == 0.")
        return composition(composition(lhs, rhs.a), rhs.b)
    return ops.compose_tiler(lhs, rhs)


def complement(layout: AnyLayout, cotarget: IntTuple | None = None) -> Layout:
    if isinstance(layout, ComposedLayout):
        return ops.complement(layout.b, cotarget if cotarget is not None else layout.b.cosize())
    return ops.complement(_plain(layout, "complement"), cotarget)


def _inverse(layout: AnyLayout, plain_inverse: Callable[[Layout], Layout], name: str) -> AnyLayout:
    """A swizzle is its own inverse; (Sw o 0 o L)^-1 = L^-1 o Sw, which CuTe writes as a new swizzle o L^-1."""
    if isinstance(layout, Swizzle):
        return layout
    if isinstance(layout, ComposedLayout):
        if isinstance(layout.a, Swizzle) and (_static_zero(layout.offset) or isinstance(layout.offset, SmemPtrFlag)):
            return composition(plain_inverse(layout.b), layout.a)
        raise PortLimit(f"{name} of a composed layout with a non-zero offset is not supported")
    return plain_inverse(layout)


@overload
def right_inverse(layout: Layout) -> Layout: ...
@overload
def right_inverse(layout: Swizzle) -> Swizzle: ...
@overload
def right_inverse(layout: AnyLayout) -> AnyLayout: ...


def right_inverse(layout: AnyLayout) -> AnyLayout:
    return _inverse(layout, ops.right_inverse, "right_inverse")


@overload
def left_inverse(layout: Layout) -> Layout: ...
@overload
def left_inverse(layout: Swizzle) -> Swizzle: ...
@overload
def left_inverse(layout: AnyLayout) -> AnyLayout: ...


def left_inverse(layout: AnyLayout) -> AnyLayout:
    return _inverse(layout, ops.left_inverse, "left_inverse")


def _plain(layout: object, op: str) -> Layout:
    if not isinstance(layout, Layout):
        raise PortLimit(f"{op}: expected a layout", str(layout))
    return layout


class ShapeFunction(Protocol[P]):
    """A function of the shape algebra on plain layouts (coalesce, the divides and products...), taken to every
    layout kind: a composed layout's inner layout is transformed under the same swizzle and offset; a swizzle alone
    has no shape (PortLimit)."""

    __name__: str

    @overload
    def __call__(self, layout: Layout, /, *args: P.args, **kwargs: P.kwargs) -> Layout: ...
    @overload
    def __call__(self, layout: AnyLayout, /, *args: P.args, **kwargs: P.kwargs) -> Shaped: ...


def _on_inner(name: str, f: Callable[Concatenate[Layout, P], Layout]) -> ShapeFunction[P]:
    def g(layout: AnyLayout, /, *args: P.args, **kwargs: P.kwargs) -> Shaped:
        if isinstance(layout, ComposedLayout):
            return layout.with_inner(f(layout.b, *args, **kwargs))
        return f(_plain(layout, name), *args, **kwargs)
    g.__name__ = name
    g.__doc__ = f.__doc__
    # g meets both overloads of ShapeFunction: a plain layout takes the last line, whose result is f's, a Layout
    return cast(ShapeFunction[P], g)


coalesce = _on_inner("coalesce", ops.coalesce)
filter = _on_inner("filter", ops.filter_layout)  # noqa: A001 - CuTe's name
logical_divide = _on_inner("logical_divide", tiling.logical_divide)
zipped_divide = _on_inner("zipped_divide", tiling.zipped_divide)
tiled_divide = _on_inner("tiled_divide", tiling.tiled_divide)
flat_divide = _on_inner("flat_divide", tiling.flat_divide)
logical_product = _on_inner("logical_product", tiling.logical_product)
zipped_product = _on_inner("zipped_product", tiling.zipped_product)
tiled_product = _on_inner("tiled_product", tiling.tiled_product)
flat_product = _on_inner("flat_product", tiling.flat_product)
blocked_product = _on_inner("blocked_product", tiling.blocked_product)
raked_product = _on_inner("raked_product", tiling.raked_product)
tile_to_shape = _on_inner("tile_to_shape", tiling.tile_to_shape)


def _offset_cast(offset: Offset, n: int, up: bool) -> Offset:
    if isinstance(offset, SmemPtrFlag):
        return SmemPtrFlag(offset.bits * n if up else offset.bits // n)
    if isinstance(offset, MixedBits):
        raise PortLimit("recasting a composed layout whose offset is partly run-time is not supported", str(offset))
    return offset // n if up else offset * n


@overload
def upcast(layout: Layout, n: int) -> Layout: ...
@overload
def upcast(layout: Swizzle, n: int) -> Swizzle: ...
@overload
def upcast(layout: AnyLayout, n: int) -> AnyLayout: ...


def upcast(layout: AnyLayout, n: int) -> AnyLayout:
    if isinstance(layout, Swizzle):
        return upcast_swizzle(layout, n)
    if isinstance(layout, ComposedLayout):
        if isinstance(layout.offset, SmemPtrFlag):  # CuTe keeps the swizzle and rescales the pointer type
            return ComposedLayout(layout.a, _offset_cast(layout.offset, n, True), recast.upcast(layout.b, n))
        return compose3(upcast(layout.a, n), _offset_cast(layout.offset, n, True), recast.upcast(layout.b, n))
    return recast.upcast(_plain(layout, "upcast"), n)


@overload
def downcast(layout: Layout, n: int) -> Layout: ...
@overload
def downcast(layout: Swizzle, n: int) -> Swizzle: ...
@overload
def downcast(layout: AnyLayout, n: int) -> AnyLayout: ...


def downcast(layout: AnyLayout, n: int) -> AnyLayout:
    if isinstance(layout, Swizzle):
        return downcast_swizzle(layout, n)
    if isinstance(layout, ComposedLayout):
        if isinstance(layout.offset, SmemPtrFlag):
            return ComposedLayout(layout.a, _offset_cast(layout.offset, n, False), recast.downcast(layout.b, n))
        return compose3(downcast(layout.a, n), _offset_cast(layout.offset, n, False), recast.downcast(layout.b, n))
    return recast.downcast(_plain(layout, "downcast"), n)


@overload
def recast_layout(layout: Layout, old_bits: int, new_bits: int) -> Layout: ...
@overload
def recast_layout(layout: Swizzle, old_bits: int, new_bits: int) -> Swizzle: ...
@overload
def recast_layout(layout: AnyLayout, old_bits: int, new_bits: int) -> AnyLayout: ...


def recast_layout(layout: AnyLayout, old_bits: int, new_bits: int) -> AnyLayout:
    num, den = recast.recast_ratio(old_bits, new_bits)
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast(layout, den)
    if den == 1:
        return upcast(layout, num)
    return downcast(upcast(layout, num), den)


def size(layout: AnyLayout) -> int:
    if isinstance(layout, Swizzle):
        return layout.domain()
    return int(layout.size())


def cosize(layout: AnyLayout) -> int:
    if isinstance(layout, Swizzle):
        return layout.domain()
    return int(layout.cosize())


def rank(layout: AnyLayout) -> int:
    return 1 if isinstance(layout, Swizzle) else layout.rank()


def depth(layout: AnyLayout) -> int:
    return 0 if isinstance(layout, Swizzle) else layout.depth()


def evaluate(layout: AnyLayout) -> list[int]:
    """[L(0), ..., L(size-1)]."""
    return layout.values()


def is_tuple_tiler(x: object) -> bool:
    return is_tuple(x)
