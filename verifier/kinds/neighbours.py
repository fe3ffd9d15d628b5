"""What `--suggest`'s neighbours of several kinds share: CuTe's usual shared-memory atoms and swizzles, and how a
layout is written in C++."""
from __future__ import annotations

from typing import Any

from ..algebra.layout import Layout

SWIZZLES = ((1, 3, 3), (2, 3, 3), (3, 3, 3), (3, 2, 3), (2, 4, 3), (3, 4, 3), (3, 1, 3))
# CuTe's usual shared-memory atoms per element width: (swizzle, K-major layout, MN-major layout) — the layouts
# CUTLASS's configurations tile (8 rows of 128 bytes along K, or 128 bytes along MN by 8)
USUAL_ATOMS: dict[int, list[tuple[tuple[int, int, int], str, str]]] = {
    8: [((3, 4, 3), "(8,128):(128,1)", "(128,8):(1,128)"), ((2, 4, 3), "(8,64):(64,1)", "(64,8):(1,64)")],
    16: [((3, 3, 3), "(8,64):(64,1)", "(64,8):(1,64)"), ((2, 3, 3), "(8,32):(32,1)", "(32,8):(1,32)")],
    32: [((3, 2, 3), "(8,32):(32,1)", "(32,8):(1,32)"), ((2, 2, 3), "(8,16):(16,1)", "(16,8):(1,16)")],
    64: [((2, 0, 4), "(4,16):(16,1)", "(16,4):(1,16)")],
}


def cpp_layout(layout: Layout) -> str:
    """The C++ type of a layout: `Layout<Shape<_8,_64>, Stride<_64,_1>>`."""
    return f"Layout<Shape<{cpp_tuple(layout.shape)}>, Stride<{cpp_tuple(layout.stride, 'Stride')}>>"


def swizzle_text(sw: tuple[int, int, int] | None, layout: Layout) -> str:
    inner = f"{cpp_layout(layout)}{{}}"
    return inner if sw is None else f"composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, {inner})"


def cpp_tuple(t: Any, kind: str = "Shape") -> str:
    """The inside of Shape<...> / Stride<...> for an IntTuple: `_8,Shape<_8,_8>`."""
    if isinstance(t, tuple):
        return ",".join(f"{kind}<{cpp_tuple(x, kind)}>" if isinstance(x, tuple) else f"_{int(x)}" for x in t)
    return f"_{int(t)}"


def show_list(x: Any) -> str:
    return str(x) if not isinstance(x, (tuple, list)) else "[" + ", ".join(map(str, x)) + "]"
