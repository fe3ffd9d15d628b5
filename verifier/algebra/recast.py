"""upcast / downcast / recast_layout: change the unit a layout counts in (bits, halves, words...)."""
from __future__ import annotations

from math import gcd

from .inttuple import (AlgebraError, IntTuple, ceil_div, div, flatten_to_tuple, is_constant, is_static, is_tuple,
                       mod, signum)
from .layout import Layout, make_layout


def _upcast(shape: IntTuple, stride: IntTuple, n: int) -> Layout:
    if is_tuple(shape):
        return make_layout(*[_upcast(s, d, n) for s, d in zip(shape, stride)])
    if is_constant(0, stride):
        return Layout(shape, stride)
    if is_static(stride):
        if mod(stride, n) != 0 and mod(n, stride) != 0:
            raise AlgebraError("Divisibility condition", f"upcast<{n}> of stride {int(stride)}")
        return Layout(ceil_div(shape, ceil_div(n, abs(stride))), signum(stride) * ceil_div(abs(stride), n))
    return Layout(shape, div(stride, n))


def upcast(layout: Layout, n: int) -> Layout:
    """Count in units n times larger: the stride-1 mode shrinks by n, other strides are divided by n."""
    return _upcast(layout.shape, layout.stride, n)


def _downcast(shape: IntTuple, stride: IntTuple, n: int) -> Layout:
    if is_tuple(shape):
        return make_layout(*[_downcast(s, d, n) for s, d in zip(shape, stride)])
    if is_constant(1, stride) or is_constant(-1, stride):
        return Layout(shape * n, stride)
    return Layout(shape, stride * n)


def downcast(layout: Layout, n: int) -> Layout:
    """Count in units n times smaller: the stride-1 mode grows by n, other strides are multiplied by n."""
    if not any(is_constant(1, d) for d in flatten_to_tuple(layout.stride)):
        raise AlgebraError("Downcast requires adjacent elements")
    return _downcast(layout.shape, layout.stride, n)


def recast_ratio(old_bits: int, new_bits: int) -> tuple[int, int]:
    g = gcd(new_bits, old_bits)
    return new_bits // g, old_bits // g
