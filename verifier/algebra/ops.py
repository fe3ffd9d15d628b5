"""Core layout algebra on plain layouts: coalesce, filter, composition, complement, inverses.

Each function follows the algorithm of CuTe's layout.hpp step by step (including its quirks: the
non-stable exchange sort of the inverses, the `coalesce_x` used by composition, the weak
divisibility checks that only fire on static values), because the prover must reason about exactly
the layouts CuTe builds, not about idealised ones.
"""
from __future__ import annotations

from typing import Any, TypeVar

from .inttuple import (AlgebraError, IntTuple, Modes, PortLimit, Underscore, ceil_div, coalesce_shape,
                       compact_col_major, div, filter_zeros, flatten, get, imin, is_constant, is_int, is_static,
                       is_tuple, is_underscore, mod, product, rank, signum, unwrap, wrap)
from .layout import Layout, make_layout
from .memo import remembered

# What CuTe accepts on the right of a composition or a divide: a Layout, an int, `_`, or a tuple of tilers, nested.
# Like an IntTuple its nesting is data; a parsed tiler may also hold a swizzle or a composed layout, which the
# by-mode functions refuse as a limit of the port (PortLimit).
Tiler = Any
V = TypeVar("V")


# --- coalesce ---------------------------------------------------------------------------------

def _bw_coalesce(old_shape: Modes, old_stride: Modes, start: int, new_shape: IntTuple, new_stride: IntTuple) -> Layout:
    for i in range(start, -1, -1):
        s, d = old_shape[i], old_stride[i]
        if is_constant(1, s):
            continue
        if is_constant(1, new_shape):
            new_shape, new_stride = s, d
            continue
        front_shape = new_shape[0] if is_tuple(new_shape) else new_shape
        front_stride = new_stride[0] if is_tuple(new_stride) else new_stride
        # merge only when CuTe can prove it statically: s*d == front stride
        if is_static(front_shape) and is_static(s) and is_static(d) and is_static(front_stride) \
                and s * d == front_stride:
            merged = s * front_shape
            new_shape = (merged,) + new_shape[1:] if is_tuple(new_shape) else merged
            new_stride = (d,) + new_stride[1:] if is_tuple(new_stride) else d
        else:
            new_shape = (s,) + new_shape if is_tuple(new_shape) else (s, new_shape)
            new_stride = (d,) + new_stride if is_tuple(new_stride) else (d, new_stride)
    if is_constant(1, new_shape):
        return Layout(1, 0)
    return Layout(new_shape, new_stride)


@remembered
def coalesce(layout: Layout, profile: IntTuple | None = None) -> Layout:
    """Merge modes that can be merged; with a profile, coalesce each mode of the profile separately."""
    if profile is not None and is_tuple(profile):
        if len(profile) > layout.rank():
            raise AlgebraError("coalesce: profile has more modes than the layout")
        parts = [coalesce(layout.mode(i), p) for i, p in enumerate(profile)]
        parts += [layout.mode(i) for i in range(len(profile), layout.rank())]
        return make_layout(*parts)
    fs, fd = flatten(layout.shape), flatten(layout.stride)
    fs, fd = wrap(fs), wrap(fd)
    r = len(fs)
    return _bw_coalesce(fs, fd, r - 2, fs[r - 1], fd[r - 1])


@remembered
def coalesce_x(layout: Layout) -> Layout:
    """CuTe's detail::coalesce_x: like coalesce, but keeps the function outside the domain too."""
    fs, fd = wrap(flatten(layout.shape)), wrap(flatten(layout.stride))
    r = len(fs)
    if is_constant(1, fs[r - 1]):
        return _bw_coalesce(fs, fd, r - 2, 2, fd[r - 1])
    return _bw_coalesce(fs, fd, r - 2, fs[r - 1], fd[r - 1])


def filter_zero_strides(layout: Layout) -> Layout:
    """filter_zeros: size-1 for every static stride-0 mode."""
    return Layout(filter_zeros(layout.stride, layout.shape), layout.stride)


def filter_layout(layout: Layout, profile: IntTuple | None = None) -> Layout:
    """filter: remove stride-0 and size-1 modes (a 1:0 layout if nothing remains)."""
    if profile is not None and is_tuple(profile):
        parts = [filter_layout(layout.mode(i), p) for i, p in enumerate(profile)]
        parts += [layout.mode(i) for i in range(len(profile), layout.rank())]
        return make_layout(*parts)
    return coalesce(filter_zero_strides(layout))


# --- composition ------------------------------------------------------------------------------

def _composition_impl(lshape: IntTuple, lstride: IntTuple, rshape: IntTuple, rstride: IntTuple) -> Layout:
    if is_tuple(rshape):
        return make_layout(*[_composition_impl(lshape, lstride, s, d) for s, d in zip(rshape, rstride)])
    if is_constant(0, rstride):
        return Layout(rshape, rstride)
    if not is_tuple(lshape):
        return Layout(rshape, rstride * lstride)
    R = len(lshape)
    result_shape: list[IntTuple] = []
    result_stride: list[IntTuple] = []
    rest_shape, rest_stride = rshape, rstride
    for i in range(R - 1):
        curr_shape, curr_stride = lshape[i], lstride[i]
        if is_static(curr_shape) and is_static(rest_stride):
            if not (mod(rest_stride, curr_shape) == 0 or rest_stride < curr_shape):
                raise AlgebraError("Stride Divisibility Condition",
                                   f"stride {rest_stride} vs shape {curr_shape}")
        next_shape = ceil_div(curr_shape, abs(rest_stride))
        next_stride = ceil_div(abs(rest_stride), curr_shape) * signum(rest_stride)
        if is_constant(1, next_shape) or is_constant(1, rest_shape):
            rest_stride = next_stride
            continue
        new_shape = imin(next_shape, rest_shape)
        if is_static(new_shape) and is_static(rest_shape) and mod(rest_shape, new_shape) != 0:
            raise AlgebraError("Shape Divisibility Condition", f"shape {rest_shape} vs {new_shape}")
        result_shape.append(new_shape)
        result_stride.append(rest_stride * curr_stride)
        rest_shape = div(rest_shape, new_shape)
        rest_stride = next_stride
    if not result_shape:
        return Layout(rest_shape, rest_stride * lstride[R - 1])
    if is_constant(1, rest_shape):
        return Layout(unwrap(tuple(result_shape)), unwrap(tuple(result_stride)))
    return Layout(tuple(result_shape) + (rest_shape,), tuple(result_stride) + (rest_stride * lstride[R - 1],))


@remembered
def compose_layouts(lhs: Layout, rhs: Layout) -> Layout:
    """lhs o rhs for two plain layouts: result(c) = lhs(rhs(c)) where CuTe's conditions hold."""
    flat = coalesce_x(lhs)
    return _composition_impl(flat.shape, flat.stride, rhs.shape, rhs.stride)


@remembered
def compose_tiler(lhs: Layout, tiler: Tiler) -> Layout:
    """composition(layout, tiler): by-mode for a tuple tiler (modes not hit are dropped)."""
    if isinstance(tiler, Layout):
        return compose_layouts(lhs, tiler)
    if is_tuple(tiler):
        if len(tiler) > lhs.rank():
            raise AlgebraError("composition: too many modes in tiler", f"{len(tiler)} > rank {lhs.rank()}")
        return make_layout(*[compose_tiler(lhs.mode(i), t) for i, t in enumerate(tiler)])
    if is_underscore(tiler):
        return lhs
    if is_int(tiler):
        flat = coalesce_x(lhs)
        return _composition_impl(flat.shape, flat.stride, tiler, 1)
    raise PortLimit("composition: unsupported tiler", repr(tiler))


# --- complement -------------------------------------------------------------------------------

def _complement_impl(shape: IntTuple, stride: IntTuple, cotarget: IntTuple) -> Layout:
    if is_constant(0, stride):
        s = coalesce_shape(cotarget)
        return Layout(s, compact_col_major(s))
    R = rank(shape)
    if R > 1 and not is_static(stride):
        raise AlgebraError("Dynamic-stride complement only for rank-1 layouts")
    shp, std = list(wrap(shape)), list(wrap(stride))
    result_shape: list[IntTuple] = []
    result_stride: list[IntTuple] = [1]
    for i in range(R - 1):
        min_stride = std[0]
        for d in std[1:]:
            if d < min_stride:
                min_stride = d
        min_idx = next(j for j, d in enumerate(std) if d == min_stride)
        new_shape = div(min_stride, result_stride[i])
        new_stride = min_stride * shp[min_idx]
        if is_constant(0, new_shape):
            raise AlgebraError("Non-injective Layout detected in complement.")
        del shp[min_idx]
        del std[min_idx]
        result_shape.append(new_shape)
        result_stride.append(new_stride)
    new_shape = div(std[0], result_stride[R - 1])
    if is_constant(0, new_shape):
        raise AlgebraError("Non-injective Layout detected in complement.")
    result_shape.append(new_shape)
    new_stride = std[0] * shp[0]
    rest_shape = coalesce_shape(ceil_div(cotarget, new_stride))
    rest_stride = compact_col_major(rest_shape, new_stride)
    return coalesce(Layout((tuple(result_shape), rest_shape), (tuple(result_stride), rest_stride)))


@remembered
def complement(layout: Layout, cotarget: IntTuple | None = None) -> Layout:
    """The layout of the offsets `layout` does not reach, up to `cotarget` (default: its cosize)."""
    fl = filter_layout(layout)
    if cotarget is None:
        cotarget = fl.cosize()
    elif isinstance(cotarget, Layout):
        cotarget = cotarget.shape
    return _complement_impl(fl.shape, fl.stride, cotarget)


# --- inverses ---------------------------------------------------------------------------------

def _exchange_sort(keys: list[int], vals: list[V]) -> list[V]:
    """CuTe's detail::SortByKey: an exchange sort (not stable), returns the values in key order."""
    pairs = list(zip(keys, vals))
    n = len(pairs)
    for i in range(n):
        for j in range(i + 1, n):
            if pairs[j][0] < pairs[i][0]:
                pairs[i], pairs[j] = pairs[j], pairs[i]
    return [v for _, v in pairs]


def _prefix_products(shape: Modes) -> list[int]:
    pre = [1]
    for s in shape:
        pre.append(s * pre[-1])
    return pre


@remembered
def right_inverse(layout: Layout) -> Layout:
    """R with layout(R(i)) == i for i < size(R): the largest contiguous prefix of the codomain."""
    cl = coalesce(layout)
    lstride, lshape = wrap(cl.stride), wrap(cl.shape)
    pre = _prefix_products(lshape)
    seq = [i for i, d in enumerate(lstride) if is_static(d)]
    order = _exchange_sort([int(lstride[i]) for i in seq], seq)
    rshape: list[IntTuple] = [1]
    rstride: list[IntTuple] = [0]
    curr: int = 1
    for i in order:
        if is_static(curr) and int(lstride[i]) == int(curr):
            rshape.append(lshape[i])
            rstride.append(pre[i])
            curr = lshape[i] * lstride[i]
    return coalesce(Layout(tuple(rshape), tuple(rstride)))


@remembered
def left_inverse(layout: Layout) -> Layout:
    """L with L(layout(i)) == i for all i when `layout` is injective (CuTe's quasi-inverse otherwise)."""
    cl = coalesce(layout)
    lstride, lshape = wrap(cl.stride), wrap(cl.shape)
    if not is_static(lstride):
        raise AlgebraError("Left inverse requires static strides.")
    pre = _prefix_products(lshape)
    order = _exchange_sort([int(d) for d in lstride], list(range(len(lstride))))
    rshape: list[IntTuple] = []
    rstride: list[IntTuple] = [0]
    for i in order:
        d = lstride[i]
        if is_constant(0, d):
            continue
        sz = product(tuple(rshape))
        if mod(d, sz) != 0:
            raise AlgebraError("Left inverse divisibility condition")
        rshape.append(div(d, sz))
        rstride.append(pre[i])
    return coalesce(Layout(tuple(rshape) + (lshape[order[-1]],), tuple(rstride)))


def max_common_vector(a: Layout, b: Layout) -> int:
    """How many contiguous elements a and b agree on (CuTe's max_common_vector)."""
    common = coalesce(compose_layouts(a, right_inverse(b)))
    s0, d0 = get(common.shape, 0), get(common.stride, 0)
    if is_static(s0) and is_constant(1, d0):
        return int(s0)
    return 1


__all__ = ["coalesce", "coalesce_x", "filter_layout", "filter_zero_strides", "compose_layouts", "compose_tiler",
           "complement", "right_inverse", "left_inverse", "max_common_vector", "Underscore"]
