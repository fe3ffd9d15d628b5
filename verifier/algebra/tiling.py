"""Divides and products of plain layouts (CuTe's logical/zipped/tiled/flat divide and product family)."""
from __future__ import annotations

from typing import Callable

from .inttuple import (AlgebraError, IntTuple, PortLimit, Underscore, append_n, ceil_div, evenly_divides, is_int,
                       is_tuple, is_underscore, product_each, rank, zip2_by, zip_tuples)
from .layout import Layout, make_layout, make_ordered_layout
from .memo import remembered
from .ops import Tiler, coalesce, complement, compose_layouts, compose_tiler


def _by_mode(layout: Layout, tiler: tuple[Tiler, ...], f: Callable[[Layout, Tiler], Layout]) -> Layout:
    """transform_layout(layout, tiler, f): f on the common modes, the layout's extra modes kept."""
    if len(tiler) > layout.rank():
        raise AlgebraError("Too many modes in tiler", f"{len(tiler)} > rank {layout.rank()}")
    parts = [f(layout.mode(i), t) for i, t in enumerate(tiler)]
    parts += [layout.mode(i) for i in range(len(tiler), layout.rank())]
    return make_layout(*parts)


@remembered
def logical_divide(layout: Layout, tiler: Tiler) -> Layout:
    """(tile, rest): the elements picked by the tiler, then the layout of the repeats."""
    if isinstance(tiler, Layout):
        return compose_layouts(layout, make_layout(tiler, complement(tiler, coalesce(layout).shape)))
    if is_tuple(tiler):
        return _by_mode(layout, tiler, logical_divide)
    if is_underscore(tiler):
        return layout
    if is_int(tiler):
        return logical_divide(layout, Layout(tiler))
    raise PortLimit("logical_divide: unsupported tiler", repr(tiler))


def tile_unzip(layout: Layout, tiler: Tiler) -> Layout:
    return Layout(zip2_by(layout.shape, tiler), zip2_by(layout.stride, tiler))


@remembered
def zipped_divide(layout: Layout, tiler: Tiler) -> Layout:
    return tile_unzip(logical_divide(layout, tiler), tiler)


def _unpack(layout: Layout, split0: bool) -> Layout:
    """result(_, repeat<R1>(_)) (and repeat<R0>(_) in mode 0 when split0): unpack rank-2 results."""
    m0, m1 = layout.mode(0), layout.mode(1)
    parts = []
    parts += m0.modes() if (split0 and m0.rank() > 1) else [m0]
    parts += m1.modes() if m1.rank() > 1 else [m1]
    return make_layout(*parts)


def tiled_divide(layout: Layout, tiler: Tiler) -> Layout:
    return _unpack(zipped_divide(layout, tiler), split0=False)


def flat_divide(layout: Layout, tiler: Tiler) -> Layout:
    return _unpack(zipped_divide(layout, tiler), split0=True)


@remembered
def logical_product(block: Layout, tiler: Tiler) -> Layout:
    """(block, repeats): the block, then copies of it laid out by the tiler in the block's complement."""
    if isinstance(tiler, Layout):
        return make_layout(block, compose_layouts(complement(block, block.size() * tiler.cosize()), tiler))
    if is_tuple(tiler):
        return _by_mode(block, tiler, logical_product)
    if is_underscore(tiler):
        return block
    if is_int(tiler):
        return logical_product(block, Layout(tiler))
    raise PortLimit("logical_product: unsupported tiler", repr(tiler))


def zipped_product(block: Layout, tiler: Tiler) -> Layout:
    return tile_unzip(logical_product(block, tiler), tiler)


def tiled_product(block: Layout, tiler: Tiler) -> Layout:
    return _unpack(zipped_product(block, tiler), split0=False)


def flat_product(block: Layout, tiler: Tiler) -> Layout:
    return _unpack(zipped_product(block, tiler), split0=True)


def _append_rank(layout: Layout, r: int) -> Layout:
    return Layout(append_n(layout.shape, r, 1), append_n(layout.stride, r, 0))


def _rank_sensitive_product(block: Layout, tiler: Layout, raked: bool) -> Layout:
    r = max(block.rank(), tiler.rank())
    result = logical_product(_append_rank(block, r), _append_rank(tiler, r))
    first, second = (result.mode(1), result.mode(0)) if raked else (result.mode(0), result.mode(1))
    return Layout(zip_tuples(first.shape, second.shape), zip_tuples(first.stride, second.stride))


def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Each element of the tiler becomes a copy of the block (blocks stay contiguous)."""
    return _rank_sensitive_product(block, tiler, raked=False)


def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Like blocked_product, with the copies interleaved element by element."""
    return _rank_sensitive_product(block, tiler, raked=True)


@remembered
def tile_to_shape(block: Layout, trg_shape: IntTuple, order: IntTuple | None = None) -> Layout:
    """Repeat `block` (column-major over the repeats, or in `order`) until it covers `trg_shape`."""
    if block.rank() > rank(trg_shape):
        raise AlgebraError("Rank of layout must be <= rank of target shape.")
    r = rank(trg_shape)
    padded = _append_rank(block, r)
    block_shape = product_each(padded.shape)
    target_shape = product_each(trg_shape)
    if not evenly_divides(target_shape, block_shape):
        raise AlgebraError("tile_to_shape: block shape does not divide the target shape.")
    product_shape = ceil_div(target_shape, block_shape)
    if order is None:
        repeats = Layout(product_shape)
    else:
        repeats = make_ordered_layout(product_shape, order)
    return blocked_product(padded, repeats)


__all__ = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
           "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape", "tile_unzip",
           "compose_tiler", "Underscore"]
