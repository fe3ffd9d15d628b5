"""The TMEM kind's neighbours for `--suggest`: the allocation rounded up to the power of two the tile needs, a tile
of fewer than 128 rows spread over the four warps' lane quarters, and, with `accumulator:`, the tile laid out where
that tcgen05.mma writes D (its data path layout, MMAs side by side along N)."""
from __future__ import annotations

from typing import Iterator

from ...algebra.layout import Layout
from ...cute.tmem import DP_CELLS, WARPS
from ...hardware.tmem_copy import WARP_LANE_QUARTER
from ...hardware.tmem_datapath import Datapath, columns as datapath_columns, datapath, parse_accumulator
from ..base import Change, Neighbour
from ..neighbours import cpp_layout
from .config import TmemCheck
from .theorems import MIN_COLUMNS

TMEM_QUARTER_CELLS = WARP_LANE_QUARTER * DP_CELLS      # the first cell of the next warp's lane quarter


def datapath_tile(check: TmemCheck) -> Layout | None:
    """The (row, column) -> TMEM address layout of the accumulator `accumulator:` writes, over the check's tile (its
    rows, whole MMAs along N side by side from address 0); None where there is none to give."""
    acc, tmem = check.accumulator, check.tmem
    if acc is None or not isinstance(tmem, Layout) or tmem.rank() != 2:
        return None
    form = parse_accumulator(acc.instruction, acc.m, acc.n)
    if isinstance(form, str):
        return None
    layout = datapath(form)
    rows, cols, n = int(tmem.mode(0).size()), int(tmem.mode(1).size()), form.n
    if isinstance(layout, str) or rows != form.rows_per_cta or cols % n:
        return None
    mmas, width = cols // n, datapath_columns(layout, n)
    if layout is Datapath.F:                        # // (row, column) -> 16 rows a lane quarter, column
        return Layout(((16, WARPS), cols), ((DP_CELLS, TMEM_QUARTER_CELLS), 1))
    folds = n // width
    if folds > 1:                                   # // (row, (column % width, fold, MMA)) -> lane, column
        return Layout((rows, (width, folds, mmas)), (DP_CELLS, (1, rows * DP_CELLS, width)))
    return Layout((rows, cols), (DP_CELLS, 1))      # // (row, column) -> lane row, column


def tmem_changes(check: TmemCheck) -> Iterator[Neighbour]:
    if not isinstance(check.tmem, Layout):
        return
    tmem: Layout = check.tmem
    placed = datapath_tile(check)
    if placed is not None and placed.values() != tmem.values():
        yield (Change("tmem", tmem.plain(), placed.plain(), f"the TMEM tensor of layout {cpp_layout(placed)}: where "
                      f"{check.accumulator.instruction if check.accumulator else ''} writes D"), {"tmem": placed})
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
