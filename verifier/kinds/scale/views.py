"""The scale kind's picture (`factors` view): the CTA's scale-factor tile of one stage, MN down and the factors along
K right (one cell a factor, k = VS j), each cell naming where the factor lives on its way to the tensor core — its
shared byte (TMA writes it, tcgen05.cp reads it), its TMEM lane and column in sub-partition 0, and the k-block whose
MMA reads it (the cell's colour).

A counterexample of theorems 24-26 that names a factor is outlined at that factor: 24 at the factor TMA brings from
the wrong global byte (or, for a CTA N of 64 / 192, the SF tile row an N tile's column reads), 25 at the factor whose
TMEM byte the copy writes wrongly, 26 at the factor the MMA should have read.  Description only: every number is
computed by the setup the theorems quantified over.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...cute import blockscaled as BS
from ...draw.figure import CONFLICT, Cell, Figure, Panel, thread_color
from ...draw.views import Marks, outline
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .setup import ScaleSetup

T = TheoremId
SCALE_THEOREMS = (T.SCALE_TMA, T.SCALE_COPY, T.SCALE_READ)
ROW_AXIS, FACTOR_AXIS = "mn", "factor"       # a cell's coordinate names, as the theorems' witnesses name them


def factor_of(point: Mapping[str, int]) -> tuple[int, int] | None:
    """The factor (mn, j) a witness names: its `mn` and `factor` (given or shown), None when it names none."""
    if ROW_AXIS in point and FACTOR_AXIS in point:
        return int(point[ROW_AXIS]), int(point[FACTOR_AXIS])
    return None


def factor_marks(setup: ScaleSetup, result: CheckResult | None) -> tuple[Marks, list[str]]:
    """The factor of each counterexample of theorems 24-26, with one caption line each."""
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    captions: list[str] = []
    for t, w in result.counterexamples() if result is not None else []:
        if t.id not in SCALE_THEOREMS:
            continue
        cell = factor_of(dict(w.values, **w.point))
        label = f"theorem {t.number} ({t.id.value})"
        where = ", ".join(f"{k} {v}" for k, v in w.point.items())
        if cell is None:
            captions.append(f"counterexample, {label}: {where} names no factor")
            continue
        marks.setdefault(cell, (CONFLICT, f"{label}: {where}"))
        values = f" — expected {w.expected}, actual {w.actual}" if w.expected or w.actual else ""
        captions.append(f"counterexample, {label}: {where}{values}; outlined at factor ({ROW_AXIS}={cell[0]}, "
                        f"{FACTOR_AXIS}={cell[1]})")
    return marks, captions


def factors_figure(setup: ScaleSetup, result: CheckResult | None = None) -> Figure:
    check = setup.check
    rows, factors = setup.mn, setup.factors_k
    panel = Panel(f"scale factors of {check.scaled}, stage 0: {rows} x {factors} (mn x k / {setup.vs})", rows,
                  factors, 0, 0, ROW_AXIS, FACTOR_AXIS)
    per_block = max(1, setup.k_mma // setup.vs)
    tile = setup.stage_table
    for j in range(factors):
        k = j * setup.vs
        block = k // setup.k_mma
        for x in range(rows):
            byte = tile[x + rows * k]
            lane, column, sub = BS.tmem_fields(BS.value_at(setup.tmem_view, x, 0, k))
            global_byte = BS.value_at(setup.load_layout if setup.load_layout is not None else check.gmem, x, k)
            info: tuple[tuple[str, str], ...] = (
                ("coordinate", f"({ROW_AXIS}={x}, {FACTOR_AXIS}={j})"), ("k", str(k)),
                ("shared byte", str(byte)), ("global byte (tile 0)", str(global_byte)),
                ("TMEM", f"lane {lane}+32p, column {check.tmem_base + column}, byte {sub}"),
                ("read by", f"k-block {block}, vector {j % per_block}"))
            panel.cells.append(Cell(x, j, f"s{byte}\nL{lane}C{check.tmem_base + column}", thread_color(block), info))
    marks, captions = factor_marks(setup, result)
    outline(panel, marks)
    caption = [f"cells: each factor's shared byte s (stage 0) and TMEM lane L / column C in sub-partition 0 (the "
               f"other three copies 32, 64 and 96 lanes on); colour: the k-block whose MMA reads it "
               f"({setup.k_blocks} a stage)"]
    if setup.remapped:
        caption.append(f"N = {setup.rows_read}: the SF tile is {rows} rows; the odd N tiles' MMA reads it from row "
                       f"{setup.odd_shift} on (CUTLASS's IsCtaN64 / IsCtaN192 glue)")
    caption += captions
    return Figure(f"{check.name}: scale factors of {check.scaled} for {check.mma}", [panel], caption)
