"""Injectivity read off a layout's strides: a proof that needs no enumeration and no solver.

A plain layout sends the index x, whose colexicographic digits over its flattened modes are x_i in [0, s_i), to
sum_i x_i * d_i.  Order the modes of extent above 1 by |d_i|.  When no stride is 0 and each |d| exceeds the most the
modes before it can add up, sum_j (s_j - 1) * |d_j| over those modes, two indices with equal offsets have equal
digits: at the last mode where their digits differ, the difference there is at least that mode's |d|, and the
modes before it make up less.  So the layout is injective on its domain.  The condition is sufficient, not
necessary ((3,2):(2,3) is injective and fails it); where it fails, `decide` uses its other procedures.

A swizzle composed with a layout (Sw<B,M,S> o offset o L) is injective exactly when L is: the offset is a
translation, and Sw XORs the B bits at M + max(0, S) into the B bits at M - min(0, S), two fields that do not
overlap because |S| >= B (Swizzle's constructor refuses less) -- the bits it reads are the ones it leaves alone, so
applying it twice gives the offset back: it is a bijection of the integers.
"""
from __future__ import annotations

from ..algebra.inttuple import flatten_to_tuple
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, Swizzle

InjectiveLayout = Layout | ComposedLayout


def injective_by_strides(layout: InjectiveLayout) -> str | None:
    """Why `layout` (a plain layout, or a swizzle composed with one) is injective on its domain, read off its
    strides, as a sentence; None when its strides do not show it (it may still be injective)."""
    inner = layout
    swizzled = ""
    if isinstance(layout, ComposedLayout):
        if not isinstance(layout.a, Swizzle) or not isinstance(layout.b, Layout):
            return None
        inner = layout.b
        swizzled = f"; the swizzle Sw<{layout.a.B},{layout.a.M},{layout.a.S}> after it is a bijection"
    assert isinstance(inner, Layout)
    modes = sorted(((int(s), abs(int(d))) for s, d in zip(flatten_to_tuple(inner.shape),
                                                          flatten_to_tuple(inner.stride)) if int(s) != 1),
                   key=lambda mode: mode[1])
    reach = 0              # the largest offset the modes taken so far can add up to
    for extent, stride in modes:
        if stride <= reach:
            return None
        reach += (extent - 1) * stride
    shown = ", ".join(f"{s}:{d}" for s, d in modes) or "no mode of extent above 1"
    return (f"injective by its strides: its modes (extent:|stride|) {shown}, in order of |stride|, each has a "
            f"stride above the most the modes before it reach{swizzled}")
