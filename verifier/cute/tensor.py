"""A tensor as far as the prover needs one: a base offset (in elements) and a layout.

CuTe's partitions are tensors whose data pointer moved to the thread's first element; the element
offsets (`&t(i) - base`) are `offset + layout(i)` for plain layouts and for swizzled ones alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..algebra import functions as F
from ..algebra.inttuple import has_underscore
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout


@dataclass(frozen=True)
class Tensor:
    offset: Any
    layout: Any  # Layout | ComposedLayout

    def __call__(self, *coord: Any) -> Any:
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if has_underscore(c):
            sliced, off = self.layout.slice_and_offset(c)
            return Tensor(self.offset + off, sliced)
        return self.offset + self.layout(c)

    def compose(self, *tiler: Any) -> "Tensor":
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
    def shape(self) -> Any:
        return self.layout.shape

    def __str__(self) -> str:
        return str(self.layout)


def make_tensor(layout: Any, offset: int = 0) -> Tensor:
    return Tensor(offset, layout)


def is_swizzled(layout: Any) -> bool:
    return isinstance(layout, ComposedLayout)


def plain(layout: Any) -> Layout:
    return layout.b if isinstance(layout, ComposedLayout) else layout
