"""The blockwise kind's neighbours for `--suggest`: the scale copy run by the warp CUTLASS runs it with (its 32 lanes,
or one thread a scale for fewer than 32 scales a tile), and the SM100 accumulator load of the 16- or 32-datapath
forms whose repetition covers the epilogue tile's columns (what CUTLASS's epilogue builder picks among)."""
from __future__ import annotations

from typing import Iterator

from ...specfile.model import Spec
from ..base import Change, Neighbour
from .config import SM90, BlockwiseCheck

WARP = 32
CELL_BITS = 32
# a tcgen05.ld form's bits a datapath a call (x1), for the accumulator loads CUTLASS's epilogue builder chooses from
T2R_FORMS = {"SM100_TMEM_LOAD_16dp256b": 256, "SM100_TMEM_LOAD_16dp128b": 128, "SM100_TMEM_LOAD_32dp32b": 32}


def blockwise_changes(spec: Spec, check: BlockwiseCheck) -> Iterator[Neighbour]:
    if check.copy_layout is not None:
        threads, values = check.copy_layout
        blocks = check.tile_mn // max(1, check.granularity[0])
        for layout in dict.fromkeys(((WARP, values), (WARP, 1), (min(blocks, WARP), 1))):
            if layout != check.copy_layout and layout[0] > 0:
                yield (Change("copy_layout", str(list(check.copy_layout)), str(list(layout)),
                              f"make_tiled_copy(Copy_Atom<{check.copy}, float>{{}}, Layout<Shape<_{layout[0]}>>{{}}, "
                              f"Layout<Shape<_{layout[1]}>>{{}})"), {"copy_layout": layout})
    if check.arch == SM90 or check.epilogue_tile is None:
        return
    column_bits = check.epilogue_tile[1] * CELL_BITS
    for form, bits in T2R_FORMS.items():
        name = f"{form}{column_bits // bits}x"
        if column_bits % bits == 0 and name != check.tmem_load and name in spec.copy_atoms:
            yield (Change("tmem_load", check.tmem_load or "", name, f"using CopyOpT2R = {name};"),
                   {"tmem_load": name})
