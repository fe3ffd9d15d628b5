"""Theorem 36: the TMEM tile is where the tcgen05.mma named by `accumulator:` writes D.

The tile `tmem: (row, column) -> lane << 16 | column` holds this CTA's rows of the accumulator of one or more MMAs
side by side along N: column c belongs to MMA t = c / N, whose D starts at the tile's address of (0, N t) (that MMA's
d_tmem).  The instruction (hardware/tmem_datapath.py) puts D's element (r, c') at d_tmem plus the lane and column
offsets of its data path layout.  So, for every (r, c) of the tile:

    tmem(r, c) == tmem(0, N * (c / N)) + (lane(r, c % N) << 16) + column(r, c % N)

TileLang #2644's mistake -- a .ws MMA given the layout the non-.ws M = 64 MMA writes (F instead of E) -- is refuted
here with the element whose cell differs.
"""
from __future__ import annotations

from ...cute.tmem import DP_CELLS
from ...hardware.tmem_datapath import SECTION, cell, datapath, parse_accumulator
from ...symbolic.expr import Var, eq
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Obligation
from ...theorems.claims import Claim, Fact, Plan, Unsupported
from ...theorems.suspects import Suspects
from .config import TmemCheck

ACCUMULATOR_KEY = "accumulator"
TILE_RANK = 2          # (row, column)


def accumulator_placement(check: TmemCheck, suspects: Suspects) -> Plan:
    """Theorem 36."""
    acc = check.accumulator
    assert acc is not None
    form = parse_accumulator(acc.instruction, acc.m, acc.n)
    if isinstance(form, str):
        return Unsupported(form)
    named = f"{acc.instruction} m{acc.m}n{acc.n}" + (f" ({acc.atom})" if acc.atom else "")
    layout = datapath(form)
    blame_form = suspects.field(ACCUMULATOR_KEY, "no tcgen05.mma of this form and shape exists")
    if isinstance(layout, str):
        return [Fact(f"the PTX ISA has a {acc.instruction} of M = {acc.m}, N = {acc.n}", False, layout,
                     f"an instruction of Table 39 ({SECTION})", blame_form)]
    tmem = check.tmem
    rows = form.rows_per_cta
    blame = suspects.field("tmem", f"the TMEM tile is not where {named} writes D (data path Layout "
                                   f"{layout.value})")
    if tmem.rank() != TILE_RANK:
        return Unsupported(f"the TMEM tile {tmem} is not a (rows, columns) tile of the accumulator")
    tile_rows, tile_cols = int(tmem.mode(0).size()), int(tmem.mode(1).size())
    if tile_rows != rows:
        return [Fact(f"the TMEM tile holds the {rows} rows of D {named} writes in each CTA", False,
                     f"{tile_rows} rows", f"{rows} rows (Layout {layout.value})", blame)]
    size = rows * tile_cols
    i = Var("coordinate", size)
    r, c = i % rows, i // rows
    mma = c // form.n
    address = layout_expr(tmem, i)
    d_tmem = layout_expr(tmem, rows * form.n * mma)
    lane, column = cell(layout, form.n, r, c % form.n)
    expected = d_tmem + DP_CELLS * lane + column
    claim = Obligation(f"every element of the tile lies where {named} writes it: its MMA's d_tmem plus Layout "
                       f"{layout.value}'s lane and column offsets", [i], eq(address, expected), lhs=address,
                       rhs=expected, shown={"row": r, "column": c, "MMA along N": mma, "d_tmem": d_tmem,
                                            "lane (tile)": address // DP_CELLS, "column (tile)": address % DP_CELLS,
                                            "lane (instruction)": expected // DP_CELLS,
                                            "column (instruction)": expected % DP_CELLS},
                       note=f"{SECTION}; Layout {layout.value}")
    return [Claim(claim, blame)]


__all__ = ["accumulator_placement"]
