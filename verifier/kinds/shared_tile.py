"""The bytes of shared memory a check's tile spans (every stage): what a family's members are sized and ordered by,
and what decides which members fit in a block's shared memory (specfile/family.py)."""
from __future__ import annotations

from typing import Any

from ..algebra.inttuple import flatten_to_tuple, is_int
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, Swizzle
from ..specfile.model import CheckSpec
from ..symbolic.expr import Var, compile_numpy
from ..symbolic.layouts import layout_expr


INT64_SAFE = 1 << 62        # offsets whose magnitudes may reach this are summed as Python integers, not int64


def _offsets(layout: Layout) -> Any:
    """Every offset of a plain layout with integer strides, as one numpy array (the modes' sums, broadcast); of Python
    integers where an offset could overflow int64 (a stride of 10^20 is still a layout)."""
    import numpy as np
    modes = [(int(s), int(d)) for s, d in zip(flatten_to_tuple(layout.shape), flatten_to_tuple(layout.stride))]
    dtype = object if sum((s - 1) * abs(d) for s, d in modes) >= INT64_SAFE else np.int64
    out = np.zeros(1, dtype=dtype)
    for s, d in modes:
        out = np.add.outer(np.arange(s, dtype=np.int64).astype(dtype) * d, out).ravel()
    return out


def footprint_elements(layout: Any) -> int:
    """1 + the largest element offset the layout maps any coordinate to (its swizzle applied): exact."""
    import numpy as np
    if isinstance(layout, Layout) and all(is_int(d) for d in flatten_to_tuple(layout.stride)):
        return int(layout.cosize()) if all(int(d) >= 0 for d in flatten_to_tuple(layout.stride)) \
            else int(np.max(_offsets(layout))) + 1
    if (isinstance(layout, ComposedLayout) and isinstance(layout.a, Swizzle) and is_int(layout.offset)
            and int(layout.offset) == 0 and isinstance(layout.b, Layout)
            and all(is_int(d) for d in flatten_to_tuple(layout.b.stride))):
        x = _offsets(layout.b)
        sw = layout.a
        y = x ^ ((x & sw.yyy_msk) >> sw.S if sw.S >= 0 else (x & sw.yyy_msk) << -sw.S)
        return int(np.max(y)) + 1
    n = int(layout.size())
    index = Var("index", n)
    offset = layout_expr(layout, index)
    (values,) = compile_numpy([offset], [index])(np.arange(n, dtype=np.int64))
    return int(np.max(values)) + 1


def shared_tile_bytes(check: CheckSpec) -> int | None:
    """The bytes from the tile's first element to its last (all stages); None for a check without a shared tile."""
    layout = getattr(check, "stages", None)
    if layout is None:
        layout = getattr(check, "smem", None)
    if layout is None or isinstance(layout, str):
        return None
    element = getattr(check, "smem_type", None) or check.value_type
    if element is None:
        return None
    return -(-footprint_elements(layout) * element.smem_bits // 8)


__all__ = ["footprint_elements", "shared_tile_bytes"]
