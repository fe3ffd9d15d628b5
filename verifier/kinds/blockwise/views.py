"""The blockwise kind's picture (`scales` view): the scale blocks of one CTA tile in stage 0, MN blocks down and K
blocks right (one cell a block of gMN x gK elements), each cell naming the shared slot the block's scale lives in, the
global scale it is loaded from (CTA tile 0) and who writes it (the scale warp's lane, or the TMA box).  The cell's
colour is the writing lane's.

A counterexample of theorems 29 and 30 that names an element is outlined at that element's block: 29 at the element
or block whose slot or global scale is wrong, 30 at the block of the accumulator element (its row for A, column for
B) whose value was handed another slot.  Description only: every number is computed by the setup the theorems
quantified over.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...draw.figure import CONFLICT, Cell, Figure, Panel, thread_color
from ...draw.views import Marks, outline
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .setup import BlockwiseSetup, value_at

T = TheoremId
BLOCKWISE_THEOREMS = (T.BLOCKWISE_LOAD, T.BLOCKWISE_READ)
ROW_AXIS, COL_AXIS = "block_mn", "block_k"       # a cell's coordinate names, as the load theorem's witnesses name them


def block_of(setup: BlockwiseSetup, point: Mapping[str, int]) -> tuple[int, int] | None:
    """The block (block_mn, block_k) a witness names: its block, its element (mn, k), or the accumulator row (A) /
    column (B) and K block it was read for; None when it names none."""
    if ROW_AXIS in point:
        return int(point[ROW_AXIS]), int(point.get(COL_AXIS, 0))
    if "mn" in point and "k" in point:
        return int(point["mn"]) // setup.g_mn, int(point["k"]) // setup.g_k
    key = "m" if setup.check.scaled == "A" else "n"
    if key in point:
        return int(point[key]) // setup.g_mn, int(point.get("k_block", 0))
    return None


def scale_marks(setup: BlockwiseSetup, result: CheckResult | None) -> tuple[Marks, list[str]]:
    """The block of each counterexample of theorems 29 and 30, with one caption line each."""
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    captions: list[str] = []
    for t, w in result.counterexamples() if result is not None else []:
        if t.id not in BLOCKWISE_THEOREMS:
            continue
        label = f"theorem {t.number} ({t.id.value})"
        where = ", ".join(f"{k} {v}" for k, v in w.point.items())
        cell = block_of(setup, dict(w.values, **w.point))
        if cell is None or not (0 <= cell[0] < setup.blocks_mn and 0 <= cell[1] < setup.blocks_k):
            captions.append(f"counterexample, {label}: {where} names no block of the tile")
            continue
        marks.setdefault(cell, (CONFLICT, f"{label}: {where}"))
        values = f" — expected {w.expected}, actual {w.actual}" if w.expected or w.actual else ""
        captions.append(f"counterexample, {label}: {where}{values}; outlined at block ({ROW_AXIS}={cell[0]}, "
                        f"{COL_AXIS}={cell[1]})")
    return marks, captions


def _writers(setup: BlockwiseSetup) -> dict[int, str]:
    """Slot of stage 0 -> who writes it (lane, value, call of the scale warp's copy_if)."""
    parts = setup.parts
    if parts is None or setup.copy is None:
        return {}
    dst = parts.dst
    out: dict[int, str] = {}
    for lane in range(setup.active_lanes):
        for i in range(dst.calls):
            for v in range(dst.vector):
                slot = int(dst.thread(lane)) + int(dst.filtered.mode(0)(v)) + int(dst.rest(i))
                out.setdefault(slot, f"lane {lane} value {v} call {i}")
    return out


def scales_figure(setup: BlockwiseSetup, result: CheckResult | None = None) -> Figure:
    check = setup.check
    if setup.granularity_problem is not None or setup.tile_problem is not None:
        return Figure(f"{check.name}: blockwise scales of {check.scaled}", [],
                      [setup.granularity_problem or setup.tile_problem or ""])
    rows, cols = setup.blocks_mn, setup.blocks_k
    panel = Panel(f"scale blocks of {check.scaled}, stage 0: {rows} x {cols} blocks of {setup.g_mn} x {setup.g_k}",
                  rows, cols, 0, 0, ROW_AXIS, COL_AXIS)
    writers = _writers(setup)
    for bk in range(cols):
        for bm in range(rows):
            mn, k = bm * setup.g_mn, bk * setup.g_k
            slot, scale = setup.slot(mn, k, 0), value_at(check.gmem, mn, k)
            writer = "TMA box" if check.tma else writers.get(slot, "no write")
            lane = int(writer.split()[1]) if writer.startswith("lane") else 0
            info: tuple[tuple[str, str], ...] = (
                ("block", f"({ROW_AXIS}={bm}, {COL_AXIS}={bk})"), ("elements", f"mn {mn}.., k {k}.."),
                ("shared slot", str(slot)), ("global scale (tile 0)", str(scale)), ("written by", writer))
            panel.cells.append(Cell(bm, bk, f"s{slot}\ng{scale}", thread_color(lane), info))
    marks, captions = scale_marks(setup, result)
    outline(panel, marks)
    caption = [f"cells: each block's shared slot s (stage 0) and global scale g (CTA tile 0); colour: the scale "
               f"warp's lane that writes it ({'TMA' if check.tma else check.copy})"]
    return Figure(f"{check.name}: blockwise scales of {check.scaled} for {check.mma}", [panel], caption + captions)
