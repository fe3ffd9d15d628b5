"""A tensor as far as the prover needs one: a base offset (in elements) and a layout.

CuTe's partitions are tensors whose data pointer moved to the thread's first element; the element
offsets (`&t(i) - base`) are `offset + layout(i)` for plain layouts and for swizzled ones alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import cast, overload

from ..algebra import functions as F
from ..algebra.inttuple import Coord, IntTuple, has_underscore
from ..algebra.layout import Layout
from ..algebra.ops import Tiler
from ..algebra.swizzle import ComposedLayout


@dataclass(frozen=True)
class Tensor:
    offset: int
    layout: Layout | ComposedLayout

    @overload
    def __call__(self, coord: int, /) -> int: ...
    @overload
    def __call__(self, *coord: Coord) -> Tensor | int: ...

    def __call__(self, *coord: Coord) -> Tensor | int:
        """The element offset of a coordinate; the sliced tensor when the coordinate holds `_` (see `slice`)."""
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if has_underscore(c):
            return self.slice(c)
        return self.offset + cast(int, self.layout(c))   # no `_`: the layout gives an offset

    def slice(self, coord: Coord) -> Tensor:
        """tensor(coord) for a coordinate holding `_`: the tensor of the kept modes, its offset moved along."""
        sliced, off = self.layout.slice_and_offset(coord)
        return Tensor(self.offset + off, sliced)

    def compose(self, *tiler: Tiler) -> "Tensor":
        t = tiler[0] if len(tiler) == 1 else tuple(tiler)
        return Tensor(self.offset, F.composition(self.layout, t))

    def offsets(self) -> list[int]:
        """Element offset of every element, in colexicographic order."""
        return [int(self.offset + self.layout(i)) for i in range(int(self.layout.size()))]

    def size(self) -> int:
        return int(self.layout.size())

    def rank(self) -> int:
        return self.layout.rank()

    @property
    def shape(self) -> IntTuple:
        return self.layout.shape

    def __str__(self) -> str:
        return str(self.layout)


def make_tensor(layout: Layout | ComposedLayout, offset: int = 0) -> Tensor:
    return Tensor(offset, layout)


def is_swizzled(layout: object) -> bool:
    return isinstance(layout, ComposedLayout)


def plain(layout: Layout | ComposedLayout) -> Layout:
    return layout.b if isinstance(layout, ComposedLayout) else layout
