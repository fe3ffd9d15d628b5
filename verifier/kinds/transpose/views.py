"""The transpose kind's picture: one 8 x 8 warp tile of B's stage as AsyncTranspositionOperandB moves it — the warp,
call, lane and value that load each element (n, k) and store it transposed — with a theorem 34 counterexample's
element outlined (its warp tile is the one drawn)."""
from __future__ import annotations

from ...cute.transpose import Transposition
from ...draw.figure import CONFLICT, Cell, Figure, Panel, thread_color
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .setup import TransposeSetup

T = TheoremId
WITNESS_KEYS = ("stage", "tile_n", "tile_k", "lane", "value")


def transpose_figure(setup: TransposeSetup, result: CheckResult | None) -> Figure | str:
    """The warp tile of the first theorem 34 counterexample (or warp tile (0, 0) of stage 0): each element's lane and
    value; or why there is nothing to draw."""
    t = setup.transposition
    if not isinstance(t, Transposition):
        return f"no transposition to draw: {getattr(t, 'rule', t)}"
    witness = next((w for th, w in (result.counterexamples() if result is not None else [])
                    if th.id is T.GMMA_TRANSPOSE and all(k in w.point for k in WITNESS_KEYS)), None)
    point = witness.point if witness is not None else {"stage": 0, "tile_n": 0, "tile_k": 0}
    stage, tile_n, tile_k = int(point["stage"]), int(point["tile_n"]), int(point["tile_k"])
    w = t.warp_tile
    mover = next((m for m in t.schedule if (m.n, m.k) == (tile_n % (t.warpgroup_tile // w), tile_k)), None)
    who = (f"warpgroup {mover.warpgroup}, warp {mover.warp}, call {mover.step}" if mover is not None
           else "no warp of the tables")
    panel = Panel(f"stage {stage}, warp tile (n {tile_n}, k {tile_k}) of B: moved by {who}", w, w, 0, 0, "n", "k")
    outlined = None
    if witness is not None:
        c = t.coord_of(int(point["lane"]), int(point["value"]))
        outlined = (c % w, c // w)
    for lane in range(t.lanes):
        for value in range(t.values):
            c = t.coord_of(lane, value)
            n, k = c % w, c // w
            element = f"n {tile_n * w + n}, k {tile_k * w + k}"
            info = (("thread", str(lane)), ("value", str(value)), ("element", element), ("moved by", who),
                    ("stage", str(stage)))
            mark = outline = None
            if outlined == (n, k):
                outline, mark = CONFLICT, "theorem 34: this element's store is the counterexample's"
            panel.cells.append(Cell(n, k, f"L{lane}\nV{value}", thread_color(lane), info, outline, mark or ""))
    caption = [f"cells: the lane L and value V that load element (n, k) of the warp tile and store it transposed "
               f"({who}); colour: lane % 8"]
    if witness is not None:
        caption.append(f"counterexample, theorem 34 ({T.GMMA_TRANSPOSE.value}): lane {point['lane']} value "
                       f"{point['value']} — {witness.actual}")
    return Figure(f"{setup.check.name}: B transposed in shared memory", [panel], caption)
