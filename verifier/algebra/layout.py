"""Layout: a (shape, stride) pair, a function from coordinates to offsets, as cute::Layout."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Iterator, overload

from .inttuple import (AlgebraError, Coord, IntTuple, compact_col_major, congruent, crd2idx, depth, dice_tuple,
                       flatten, flatten_to_tuple, fmt, fmt_plain, get, has_underscore, idx2crd, inner_product, is_int,
                       is_static, is_tuple, product, rank, slice_tuple, transform_leaf)

if TYPE_CHECKING:
    from numpy import ndarray


class Layout:
    """shape:stride.  Called with an index or a (nested) coordinate it returns the offset."""

    __slots__ = ("shape", "stride", "memo_key")

    def __init__(self, shape: IntTuple, stride: IntTuple | None = None) -> None:
        if stride is None:
            stride = compact_col_major(shape)
        if not congruent(shape, stride):
            raise AlgebraError("Mismatched ranks",
                               f"shape {fmt_plain(shape)} and stride {fmt_plain(stride)} are not congruent")
        self.shape = shape
        self.stride = stride
        self.memo_key: Hashable | None = None   # algebra.memo's key for this layout, made when first needed

    # -- the function --------------------------------------------------------------------
    @overload
    def __call__(self, coord: int, /) -> int: ...
    @overload
    def __call__(self, *coord: Coord) -> Layout | int: ...

    def __call__(self, *coord: Coord) -> Layout | int:
        """The offset of a coordinate (or 1-D index); the sliced layout when the coordinate holds `_`."""
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if has_underscore(c):
            return self.slice(c)
        return crd2idx(c, self.shape, self.stride)

    def slice(self, coord: Coord) -> "Layout":
        """layout(coord) for a coordinate holding `_`: the layout of the modes it keeps."""
        return Layout(slice_tuple(coord, self.shape), slice_tuple(coord, self.stride))

    def values(self) -> list[int]:
        """[L(0), L(1), ..., L(size-1)] (colexicographic order), exact: built leaf by leaf, the first mode fastest."""
        out = [0]
        for s, d in zip(flatten_to_tuple(self.shape), flatten_to_tuple(self.stride)):
            s, d = int(s), int(d)
            if s != 1:
                out = [base + j * d for j in range(s) for base in out]
        return out

    def values_array(self) -> "ndarray[Any, Any]":
        """`values()` as a numpy int64 array, built mode by mode on whole arrays (exact: the largest magnitude,
        the sum of (extent - 1) |stride|, is checked to fit 62 bits first; a layout past it is built leaf by leaf
        into an array of Python ints)."""
        from ..numeric import load_numpy
        load_numpy()
        import numpy as np
        leaves = [(int(s), int(d)) for s, d in zip(flatten_to_tuple(self.shape), flatten_to_tuple(self.stride))]
        if sum((s - 1) * abs(d) for s, d in leaves) >= 1 << 62:
            return np.array(self.values(), dtype=object)
        out = np.zeros(1, dtype=np.int64)
        for s, d in leaves:
            if s != 1:      # the new leaf varies slowest so far: [j, base] -> base + j d, raveled row-major
                out = (out[None, :] + np.arange(s, dtype=np.int64)[:, None] * d).ravel()
        return out

    def __iter__(self) -> Iterator[int]:
        return iter(self.values())

    # -- properties ----------------------------------------------------------------------
    def size(self) -> int:
        return product(self.shape)

    def cosize(self) -> int:
        m1 = transform_leaf(self.shape, lambda s: s - 1)
        ab = transform_leaf(self.stride, abs)
        return inner_product(m1, ab) + 1

    def rank(self) -> int:
        return rank(self.shape)

    def depth(self) -> int:
        return depth(self.shape)

    def mode(self, *idx: int) -> "Layout":
        """get<i...>(layout)."""
        s, d = self.shape, self.stride
        for i in idx:
            if i >= rank(s):
                raise AlgebraError("Index out of range", f"mode {i} of a rank-{rank(s)} layout")
            s, d = get(s, i), get(d, i)
        return Layout(s, d)

    def modes(self) -> list["Layout"]:
        return [self.mode(i) for i in range(self.rank())]

    def is_static(self) -> bool:
        return is_static(self.shape) and is_static(self.stride)

    def get_hier_coord(self, idx: IntTuple) -> IntTuple:
        return idx2crd(idx, self.shape)

    def slice_and_offset(self, coord: Coord) -> tuple["Layout", int]:
        return (Layout(slice_tuple(coord, self.shape), slice_tuple(coord, self.stride)),
                crd2idx(coord, self.shape, self.stride))

    def dice(self, coord: Coord) -> "Layout":
        return Layout(dice_tuple(coord, self.shape), dice_tuple(coord, self.stride))

    def flatten(self) -> "Layout":
        return Layout(flatten(self.shape), flatten(self.stride))

    # -- identity and text ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        return isinstance(other, Layout) and _same(self.shape, other.shape) and _same(self.stride, other.stride)

    def __hash__(self) -> int:
        return hash((fmt(self.shape), fmt(self.stride)))

    def __str__(self) -> str:
        return f"{fmt(self.shape)}:{fmt(self.stride)}"

    def __repr__(self) -> str:
        return f"Layout({self})"

    def plain(self) -> str:
        """shape:stride without CuTe's `_` static markers."""
        return f"{fmt_plain(self.shape)}:{fmt_plain(self.stride)}"


def _same(a: IntTuple, b: IntTuple) -> bool:
    if is_tuple(a) or is_tuple(b):
        return is_tuple(a) and is_tuple(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return is_int(a) and is_int(b) and int(a) == int(b)


def make_layout(*layouts: Layout) -> Layout:
    """make_layout(L0, L1, ...): a layout whose modes are the given layouts (one layout -> rank-1 tuple)."""
    return Layout(tuple(L.shape for L in layouts), tuple(L.stride for L in layouts))


def make_ordered_layout(shape: IntTuple, order: IntTuple) -> Layout:
    from .inttuple import compact_order
    return Layout(shape, compact_order(shape, order))
