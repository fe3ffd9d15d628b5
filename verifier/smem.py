"""Shared-memory operand layouts: (row, col) -> element offset, swizzle included.

CuTe writes GMMA smem atoms as `Sw<B,M,S> o smem_ptr[Nb](unset) o L`: once bound to a pointer the
swizzle acts on byte addresses.  `position_independent` rewrites them to the element-level form
`Sw' o _0 o L` (CuTe's as_position_independent_swizzle_layout), which every other part of the
prover understands.
"""
from __future__ import annotations

from typing import overload

from .algebra import functions as F
from .algebra.functions import AnyLayout
from .algebra.layout import Layout
from .algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle, compose3


@overload
def position_independent(layout: Layout, elem_bits: int) -> Layout: ...
@overload
def position_independent(layout: AnyLayout, elem_bits: int) -> AnyLayout: ...


def position_independent(layout: AnyLayout, elem_bits: int) -> AnyLayout:
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        if not isinstance(layout.a, Swizzle):
            raise ValueError("a smem_ptr layout must be a swizzle")
        if layout.offset.bits != elem_bits:
            raise ValueError(f"the layout is for {layout.offset.bits}-bit elements, the value type has {elem_bits}")
        sw = F.recast_layout(layout.a, 8, elem_bits)
        return compose3(sw, 0, layout.b)
    return layout


def element_offsets(layout: AnyLayout, elem_bits: int) -> list[int]:
    """&t(i) - base for t = make_tensor(make_smem_ptr(base), layout), base aligned (the swizzle's period)."""
    lay = position_independent(layout, elem_bits)
    return lay.values()


def inner_layout(layout: Layout | ComposedLayout) -> Layout:
    return layout.b if isinstance(layout, ComposedLayout) else layout
