"""The mixed-input scale kind's picture (`scales` view), three panels:

- the shared slots: rows m of the CTA tile down, stages right, each cell the slot SmemLayoutScale(m, 0, stage) and the
  global element TMA brings there (CTA tile 0, column 0);
- one thread's A elements: k-blocks down, the elements x of a k-block's fragment right, each cell the element (m, k)
  the RS wgmma reads from it, the scale register dequantize_A_kblock pairs with it and the slot the k-block 0 copy put
  there, against row m's slot;
- the groups of K: k-tiles down, k of the tile right, each cell the column the producer loads for the k-tile and the
  group of the element, for one group size (a counterexample's, the check's, else BLK_K).

A counterexample of theorem 31 or 32 is outlined where it names a cell: a row and stage, a thread's element, or a
(k-tile, k).  Description only: every number is computed by the setup and the expressions the theorems quantified over.
"""
from __future__ import annotations

from ...cute import mixed_input as MI
from ...draw.figure import CONFLICT, Cell, Figure, Panel, thread_color
from ...draw.views import outline
from ...symbolic.expr import Expr, const, evaluate
from ...symbolic.layouts import layout_expr
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .setup import MixedScaleSetup
from .theorems import a_row, read_register, slot_expr, source_slot, written_register

T = TheoremId
MIXED_THEOREMS = (T.MIXED_SCALE_LOAD, T.MIXED_SCALE_READ)
SHOWN_K_TILES = 4              # k-tiles the groups panel shows (more when a counterexample lies further)


def _at(e: Expr) -> int:
    return int(evaluate([e], {})[0])


def _counterexamples(result: CheckResult | None) -> list[tuple[str, dict[str, int]]]:
    out = []
    for t, w in result.counterexamples() if result is not None else []:
        if t.id in MIXED_THEOREMS:
            out.append((f"theorem {t.number} ({t.id.value})", dict(w.values, **w.point)))
    return out


def _slots_panel(s: MixedScaleSetup, found: list[tuple[str, dict[str, int]]]) -> Panel:
    panel = Panel(f"{s.tensor} slots of the shared tile: rows m, stages", s.tile_m, s.stages, 0, 0, "m", "stage")
    for stage in range(s.stages):
        for m in range(s.tile_m):
            slot = s.slot(m, stage)
            element = _at(layout_expr(s.check.gmem, (const(m), const(0))))
            panel.cells.append(Cell(m, stage, f"s{slot}", thread_color(stage), (
                ("coordinate", f"(m={m}, stage={stage})"), ("slot", str(slot)),
                ("global element (tile 0, column 0)", str(element)))))
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    for label, p in found:
        for suffix in ("", "2"):
            if f"m{suffix}" in p and f"stage{suffix}" in p and "thread" not in p:
                marks.setdefault((p[f"m{suffix}"], p[f"stage{suffix}"]), (CONFLICT, label))
    outline(panel, marks)
    return panel


def _thread_panel(s: MixedScaleSetup, thread: int, found: list[tuple[str, dict[str, int]]], y: int) -> Panel | None:
    r = s.registers
    if r is None or s.model is None or s.compute is None:
        return None
    values, m_blocks, k_blocks = s.a_fragment
    x_size = values * m_blocks
    panel = Panel(f"thread {thread}: A elements of each k-block (stage 0)", k_blocks, x_size, 0, y, "k_block",
                  "value")
    k_atom = s.atom.shape_mnk[2]
    writes = int(r.write_view.size())
    for kb in range(k_blocks):
        for x in range(x_size):
            row_e, col_e = a_row(s, const(thread), const(x))
            m, k = _at(row_e), kb * k_atom + _at(col_e)
            register = _at(read_register(s, const(x), const(kb)))
            writers = [y2 for y2 in range(writes) if _at(written_register(s, const(y2))) == register]
            got = _at(source_slot(s, const(thread), const(writers[-1]), const(0))) if writers else None
            want = _at(slot_expr(s, const(m), const(0)))
            panel.cells.append(Cell(kb, x, f"m{m}\ns{got if got is not None else '-'}",
                                    thread_color(m // 8), (
                ("thread", str(thread)), ("value", str(x)), ("k_block", str(kb)), ("A element", f"({m}, {k})"),
                ("register", str(register)), ("slot copied into it", "none" if got is None else str(got)),
                ("slot of row m", str(want)))))
    marks = {(p["k_block"], p["value"]): (CONFLICT, label) for label, p in found
             if p.get("thread") == thread and "value" in p and "k_block" in p}
    outline(panel, marks)
    return panel


def _groups_panel(s: MixedScaleSetup, found: list[tuple[str, dict[str, int]]], y: int) -> Panel | None:
    if not s.groups or s.k_tiles == 0:
        return None
    pointed = [(label, p) for label, p in found if "k_tile" in p and "k" in p]
    group = pointed[0][1].get("group_size", s.groups[0]) if pointed else (s.check.group_size or s.tile_k)
    rows = min(s.k_tiles, max([SHOWN_K_TILES] + [p["k_tile"] + 1 for _, p in pointed]))
    reload = MI.reload_factor(group, s.tile_k)
    panel = Panel(f"groups of K, group size {group} (reload_factor {reload}): k-tiles, k of the tile", rows,
                  s.tile_k, 0, y, "k_tile", "k")
    for kt in range(rows):
        for k in range(s.tile_k):
            column, element = kt // reload, (kt * s.tile_k + k) // group
            panel.cells.append(Cell(kt, k, f"c{column}\ng{element}", thread_color(element), (
                ("coordinate", f"(k_tile={kt}, k={k})"), ("column loaded", str(column)),
                ("the element's group", str(element)))))
    outline(panel, {(p["k_tile"], p["k"]): (CONFLICT, label) for label, p in pointed})
    return panel


def scales_figure(setup: MixedScaleSetup, result: CheckResult | None = None) -> Figure:
    check = setup.check
    title = f"{check.name}: mixed-input {setup.tensor}s of A for {check.mma}"
    if setup.layout_problem is not None:
        return Figure(title, [], [setup.layout_problem])
    found = _counterexamples(result)
    thread = next((p["thread"] for _, p in found if "thread" in p), 0)
    panels = [_slots_panel(setup, found)]
    y = setup.tile_m + 2
    for extra in (_thread_panel(setup, thread, found, y),):
        if extra is not None:
            panels.append(extra)
            y += extra.rows + 2
    groups = _groups_panel(setup, found, y)
    if groups is not None:
        panels.append(groups)
    caption = [f"slots: SmemLayoutScale(m, 0, stage); thread {thread}'s cells: the row m the wgmma reads and the slot "
               "its scale register holds (colour: the row's 8-row group); groups: c the column loaded, g the "
               "element's group"]
    caption += [f"counterexample, {label}: " + ", ".join(f"{k} {v}" for k, v in p.items()) for label, p in found]
    return Figure(title, panels, caption)

