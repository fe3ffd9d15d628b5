"""The transpose kind's neighbours for `--suggest`: the transposed tile (`gmma_smem`, GmmaSmemLayoutB) rebuilt from
each K-major GMMA atom of the value type, tiled to the same (N, K, PIPE) in either of tile_to_shape's orders — the
swizzle of the MN-major tile first (what CUTLASS's gmma_smem_transpose_or_passthrough picks: the K-major atom of the
same swizzle), in the MN-major tile's own order first (CUTLASS's TMA mainloop tiles both K first, Step<_2,_1,_3>)."""
from __future__ import annotations

from typing import Iterator

from ...algebra.syntax import parse_layout
from ...smem import position_independent
from ..base import Change, Neighbour
from .config import TRANSPOSED_SMEM_KEY, TransposeCheck

GMMA_SWIZZLES = ("INTER", "SW32", "SW64", "SW128")     # the K-major GMMA atoms, narrowest swizzle first
K_FIRST = "(2,1,3)"                                    # tile_to_shape's order Step<_2,_1,_3>: along K first
ORDERS = (K_FIRST, "")                                 # "": tile_to_shape's default order (N first)


def _swizzle_of(check: TransposeCheck) -> str | None:
    """The swizzle of the MN-major tile's atom (SW32 for GMMA::Layout_MN_SW32_Atom), read off its layout: the B of
    its Swizzle<B,M,S> (0: INTER)."""
    from ...algebra.swizzle import ComposedLayout, Swizzle
    smem = check.smem
    if isinstance(smem, ComposedLayout) and isinstance(smem.a, Swizzle):
        return GMMA_SWIZZLES[smem.a.B] if 0 <= smem.a.B < len(GMMA_SWIZZLES) else None
    return GMMA_SWIZZLES[0]


def _text(swizzle: str, type_name: str, shape: tuple[int, int, int], order: str) -> str:
    return (f"tile_to_shape(GMMA::Layout_K_{swizzle}_Atom<{type_name}>, ({shape[0]},{shape[1]},{shape[2]})"
            + (f", {order})" if order else ")"))


def _cpp(swizzle: str, type_name: str, shape: tuple[int, int, int], order: str) -> str:
    step = ", Step<_2,_1,_3>{}" if order else ""
    return (f"using GmmaSmemLayoutB = decltype(tile_to_shape(GMMA::Layout_K_{swizzle}_Atom<{type_name}>{{}}, "
            f"make_shape(Int<{shape[0]}>{{}}, Int<{shape[1]}>{{}}, Int<{shape[2]}>{{}}){step}));")


def transpose_changes(check: TransposeCheck) -> Iterator[Neighbour]:
    vt = check.value_type
    if vt is None or check.gmma_smem.rank() != 3:
        return
    shape = tuple(int(check.gmma_smem.mode(i).size()) for i in range(3))
    assert len(shape) == 3
    mine = _swizzle_of(check)
    own = GMMA_SWIZZLES.index(mine) if mine in GMMA_SWIZZLES else 0
    swizzles = sorted(GMMA_SWIZZLES, key=lambda s: (abs(GMMA_SWIZZLES.index(s) - own), GMMA_SWIZZLES.index(s)))
    current = str(check.gmma_smem)
    for swizzle in swizzles:
        for order in ORDERS:
            text = _text(swizzle, vt.name, shape, order)
            try:
                layout = position_independent(parse_layout(text), vt.smem_bits)
            except (ValueError, ArithmeticError):        # the atom does not tile this shape (tile_to_shape refuses)
                continue
            if str(layout) == current:
                continue
            yield (Change(TRANSPOSED_SMEM_KEY, current, text, _cpp(swizzle, vt.name, shape, order)),
                   {TRANSPOSED_SMEM_KEY: layout, "gmma_smem_absolute": True})
