"""The tiled kind's neighbours for `--suggest`: the operand's own construction (copy_for, copy_mma), another
swizzle or one of CuTe's usual atoms for the shared tile, and a tile resized to a whole number of the tiled MMA's
operand tiles."""
from __future__ import annotations

from typing import Iterator

from ...algebra.layout import Layout
from ...algebra.swizzle import ComposedLayout, Swizzle
from ...specfile.model import Spec
from ..base import Change, Neighbour
from ..neighbours import SWIZZLES, USUAL_ATOMS, show_list, swizzle_text
from .config import TiledCheck


def construction_changes(check: TiledCheck) -> Iterator[Neighbour]:
    op = (check.operand or "A").upper()
    if check.copy_for and check.copy_for.upper() != op:
        yield (Change("copy_for", check.copy_for, "(removed)", f"make_tiled_copy_{op}(copy_atom, tiled_mma)"),
               {"copy_for": None})
    if check.tiled_copy is not None:
        yield (Change("tiled_copy", "(the copy as the kernel built it)", "(removed)",
                      f"make_tiled_copy_{op}(copy_atom, tiled_mma)"), {"tiled_copy": None})
    if check.copy_mma is not None:
        yield (Change("copy_mma", "(a different tiled MMA)", "(removed)",
                      f"make_tiled_copy_{op}(copy_atom, tiled_mma) with the kernel's own tiled_mma"),
               {"copy_mma": None})


def smem_changes(spec: Spec, check: TiledCheck) -> Iterator[Neighbour]:
    from ...algebra import functions as F
    from ...algebra.syntax import parse_layout
    smem = check.smem
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    if not isinstance(inner, Layout):
        return
    current = (smem.a.B, smem.a.M, smem.a.S) if isinstance(smem, ComposedLayout) and \
        isinstance(smem.a, Swizzle) else None
    def distance(sw: tuple[int, int, int] | None) -> int:      # the smallest change of B, M, S first
        a, b = sw or (0, current[1] if current else 0, current[2] if current else 0), current or (0, 0, 0)
        return sum(abs(x - y) for x, y in zip(a, b))
    options: list[tuple[int, int, int] | None] = sorted([None, *SWIZZLES], key=distance)
    for sw in options:
        if sw == current:
            continue
        try:
            new = inner if sw is None else ComposedLayout(Swizzle(*sw), 0, inner)
        except ValueError:
            continue
        text = "no swizzle" if sw is None else f"Sw<{sw[0]},{sw[1]},{sw[2]}> o the same layout"
        yield (Change("smem", str(smem), str(new), f"{swizzle_text(sw, inner)}   ({text})"), {"smem": new})
    bits = check.value_type.bits if check.value_type else 16
    if inner.rank() != 2:
        return
    rows, cols = int(inner.mode(0).size()), int(inner.mode(1).size())
    for sw, k_major, mn_major in USUAL_ATOMS.get(bits, []):
        for major, atom_text in (("K-major", k_major), ("MN-major", mn_major)):
            atom = parse_layout(atom_text)
            assert isinstance(atom, Layout)
            a_rows, a_cols = int(atom.mode(0).size()), int(atom.mode(1).size())
            if rows % a_rows or cols % a_cols:
                continue
            tiled = F.tile_to_shape(ComposedLayout(Swizzle(*sw), 0, atom), (rows, cols))
            if str(tiled) == str(smem):
                continue
            cpp = (f"tile_to_shape(composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, {swizzle_text(None, atom)}), "
                   f"make_shape(Int<{rows}>{{}}, Int<{cols}>{{}}))   ({major} {atom_text} atom)")
            yield Change("smem", str(smem), str(tiled), cpp), {"smem": tiled}


def operand_tile(spec: Spec, check: TiledCheck) -> tuple[int, int] | None:
    """The tiled MMA's (rows, cols) tile of the check's operand."""
    from ...algebra.inttuple import AlgebraError, PortLimit
    from ...cute.mma import TiledMMA
    from ...cute.operand import Operand
    from ..cute_objects import mma_atom, thread_layout
    atom = spec.mma_atoms.get(check.mma or "")
    if atom is None:
        return None
    try:
        mma = TiledMMA(mma_atom(atom), thread_layout(check.atom_layout), check.permutation)
    except (AlgebraError, PortLimit):   # CuTe refuses the tiled MMA, or the tool cannot build it: no tile
        return None
    mi, ki = Operand.of(check.operand or "A").modes
    return mma.tile_size(mi), mma.tile_size(ki)


def resize_changes(spec: Spec, check: TiledCheck) -> Iterator[Neighbour]:
    """A shared tile that is not a whole number of the tiled MMA's operand tiles, resized to the nearest ones:
    the same major-ness, unswizzled, or one of the usual atoms tiled to it; and the permutation removed."""
    from ...algebra import functions as F
    from ...algebra.syntax import parse_layout
    smem = check.smem
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    tile = operand_tile(spec, check)
    if not isinstance(inner, Layout) or inner.rank() != 2 or tile is None:
        return
    if check.permutation is not None:
        yield (Change("permutation", show_list(list(check.permutation)), "(removed)",
                      "make_tiled_mma(atom, thread_layout) without a Tile<...> permutation"), {"permutation": None})
    rows, cols = int(inner.mode(0).size()), int(inner.mode(1).size())
    tr, tc = tile
    if rows % tr == 0 and cols % tc == 0:
        return
    sizes = sorted({(max(tr, (rows // tr) * tr), max(tc, (cols // tc) * tc)),
                    (-(-rows // tr) * tr, -(-cols // tc) * tc)} - {(rows, cols)})
    row_major = int(inner.mode(1).stride if not isinstance(inner.mode(1).stride, tuple) else 1) == 1
    bits = check.value_type.bits if check.value_type else 16
    for r, c in sizes:
        plain = Layout((r, c), (c, 1) if row_major else (1, r))
        yield (Change("smem", str(smem), str(plain), f"make_layout(make_shape(Int<{r}>{{}}, Int<{c}>{{}}), "
                      f"{'LayoutRight' if row_major else 'LayoutLeft'}{{}})   (a whole number of {tr}x{tc} tiles)"),
               {"smem": plain})
        for sw, k_major, mn_major in USUAL_ATOMS.get(bits, []):
            for major, atom_text in (("K-major", k_major), ("MN-major", mn_major)):
                atom = parse_layout(atom_text)
                assert isinstance(atom, Layout)
                if r % int(atom.mode(0).size()) or c % int(atom.mode(1).size()):
                    continue
                tiled = F.tile_to_shape(ComposedLayout(Swizzle(*sw), 0, atom), (r, c))
                yield (Change("smem", str(smem), str(tiled),
                              f"tile_to_shape(composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, "
                              f"{swizzle_text(None, atom)}), make_shape(Int<{r}>{{}}, Int<{c}>{{}}))   "
                              f"({major} {atom_text} atom, a whole number of {tr}x{tc} tiles)"), {"smem": tiled})
