"""The TMEM kind's neighbours for `--suggest`: the allocation rounded up to the power of two the tile needs, and
a tile of fewer than 128 rows spread over the four warps' lane quarters."""
from __future__ import annotations

from typing import Iterator

from ...algebra.layout import Layout
from ...cute.tmem import DP_CELLS, WARPS
from ...hardware.tmem_copy import WARP_LANE_QUARTER
from ..base import Change, Neighbour
from ..neighbours import cpp_layout
from .config import TmemCheck
from .theorems import MIN_COLUMNS

TMEM_QUARTER_CELLS = WARP_LANE_QUARTER * DP_CELLS      # the first cell of the next warp's lane quarter


def tmem_changes(check: TmemCheck) -> Iterator[Neighbour]:
    if not isinstance(check.tmem, Layout):
        return
    tmem: Layout = check.tmem
    columns = max(v % DP_CELLS for v in tmem.values()) + 1
    need = max(MIN_COLUMNS, 1 << (columns - 1).bit_length())
    if check.tmem_columns is not None and check.tmem_columns != need:
        yield (Change("tmem_columns", str(check.tmem_columns), str(need), f"tcgen05.alloc of {need} columns "
                      f"(TMEM::Allocator1Sm{{}}.allocate({need}, smem_ptr))"), {"tmem_columns": need})
    shape, stride = tmem.shape, tmem.stride
    if (tmem.rank() == 2 and isinstance(shape[0], int) and shape[0] < 128 and shape[0] % WARPS == 0
            and stride[0] == DP_CELLS):
        rows = shape[0] // WARPS
        spread = Layout(((rows, WARPS), shape[1]), ((DP_CELLS, TMEM_QUARTER_CELLS), stride[1]))
        yield (Change("tmem", tmem.plain(), spread.plain(), f"a TMEM tensor of layout {cpp_layout(spread)} (rows "
                      "spread over the four warps' lane quarters, as the M=64 data path is)"), {"tmem": spread})
