"""The TMEM kind's picture: which thread and register each tensor-memory cell goes to (a load) or comes from (a
store), cells moved twice or to the wrong register outlined."""
from __future__ import annotations

from typing import Any

from ...draw.figure import CONFLICT, EXPECTED, Cell, Figure, Panel, thread_color
from ...draw.views import MAX_HOLDERS_LISTED, outline
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .theorems import TmemSetup

T = TheoremId
MAX_TMEM_CELLS = 1 << 14      # cells of a TMEM picture (a 128 x 128 tile); larger tiles show their first columns
WINDOW_LANES, WINDOW_COLUMNS = 32, 128   # a report's picture: one warp's lane quarter around the counterexample

# TMEM cell (lane, column) -> (outline colour, why)
CellMarks = dict[tuple[int, int], tuple[str, str]]


def _hw_cell(setup: TmemSetup, thread: int, register: int, call: int) -> tuple[int, int]:
    """The TMEM (lane, column) the instruction moves `register` of `thread` in `call` to or from."""
    from ...cute.tmem import DP_CELLS
    from ...hardware.tmem_copy import register_cell
    cell = register_cell(setup.form.shape, setup.form.num, thread % 32, register)
    hw = int(setup.tmem_frag((thread, 0, call))) + DP_CELLS * int(cell.lane) + int(cell.column)
    return hw // DP_CELLS, hw % DP_CELLS


def tmem_marks(setup: TmemSetup, result: CheckResult | None, store: Any = None) -> tuple[CellMarks, list[str]]:
    """The TMEM cells of each counterexample (theorems 19-22, 36), with one caption line each; `store`: the store's
    setup (store.py), for theorem 22's registers."""
    from ...cute.tmem import DP_CELLS
    marks: CellMarks = {}
    captions: list[str] = []
    for t, w in result.counterexamples() if result is not None else []:
        p = w.point
        label = f"theorem {t.number} ({t.id.value})"
        cells: list[tuple[int, int]] = []
        if {"thread", "register", "call"} <= set(p):
            cells.append(_hw_cell(setup, p["thread"], p["register"], p["call"]))
            if {"thread2", "register2", "call2"} <= set(p):
                cells.append(_hw_cell(setup, p["thread2"], p["register2"], p["call2"]))
            who = " and ".join(f"thread {p[f'thread{s}']} register {p[f'register{s}']} call {p[f'call{s}']}"
                               for s in ("", "2") if f"thread{s}" in p)
        elif t.id is T.TMEM_ALLOCATION and "coordinate" in p:
            addr = int(setup.coord_to_addr(int(p["coordinate"])))
            cells.append((addr // DP_CELLS, addr % DP_CELLS))
            who = f"tile coordinate {p['coordinate']}"
        elif t.id is T.TMEM_ACCUMULATOR and "coordinate" in p:
            addr = int(setup.coord_to_addr(int(p["coordinate"])))
            cells.append((addr // DP_CELLS, addr % DP_CELLS))
            row, col = w.values.get("row"), w.values.get("column")
            who = f"tile coordinate {p['coordinate']} (row {row}, column {col}) lies here"
            written = w.values.get("lane (instruction)"), w.values.get("column (instruction)")
            if written[0] is not None and written[1] is not None:
                at_mma = (int(written[0]), int(written[1]))
                marks.setdefault(at_mma, (EXPECTED, f"{label}: the MMA writes row {row}, column {col} here"))
                who += f"; the MMA writes it at lane {at_mma[0]} column {at_mma[1]}"
        elif t.id is T.TMEM_STORE and store is not None and store.model is not None:
            width = store.model.lanes
            thread = int(p.get("warp", p.get("thread", 0))) * width + int(p.get("lane", 0)) \
                if "lane" in p else int(p.get("thread", 0))
            value = int(p.get("value_in_row", p.get("value", 0)))
            storage = int(store.retiled((value, int(p.get("instance", 0)))))
            register, call = storage % setup.values, storage // setup.values
            cells.append(_hw_cell(setup, thread, register, call))
            who = (f"thread {thread} stores register {register} of call {call} (value {value}, instance "
                   f"{p.get('instance', 0)})")
        else:
            continue
        for cell in cells:
            marks.setdefault(cell, (CONFLICT, f"{label}: {who}"))
        at = ", ".join(f"lane {lane} column {col}" for lane, col in cells)
        captions.append(f"counterexample, {label}: {who}" + (f" — expected {w.expected}, actual {w.actual}"
                                                             if w.expected or w.actual else "")
                        + f"; outlined at {at}")
    return marks, captions


def tmem_figure(setup: TmemSetup, marks: CellMarks | None = None, captions: list[str] | None = None,
                window: bool = False) -> Figure:
    """Who the instruction moves each TMEM cell to (load) or from (store), over the lanes and columns the tile
    spans; outlined where CuTe's partition pairs that register with another cell (theorem 19), and `marks` (a
    counterexample's cells).  `window`: at most one lane quarter and 128 columns, around the first mark."""
    from ...numeric import load_numpy
    load_numpy()
    import numpy as np
    from ...cute.tmem import DP_CELLS
    from ...hardware.tmem_copy import register_cell
    nthr, nreg, ncall = setup.threads, setup.values, setup.calls
    t, v, c = (g.ravel() for g in np.meshgrid(np.arange(nthr), np.arange(nreg), np.arange(ncall), indexing="ij"))
    base = np.array([int(setup.tmem_frag((int(ti), 0, int(ci)))) for ti, ci in zip(t, c)], dtype=np.int64)
    cell = register_cell(setup.form.shape, setup.form.num, t % 32, v)
    hw = base + DP_CELLS * np.asarray(cell.lane, dtype=np.int64) + np.asarray(cell.column, dtype=np.int64)
    coords = np.array([int(setup.reg_frag((int(ti), int(vi), int(ci)))) for ti, vi, ci in zip(t, v, c)])
    cute = np.array([int(setup.coord_to_addr(int(q))) if q < setup.tile_size else -1 for q in coords])
    lanes, cols = hw // DP_CELLS, hw % DP_CELLS
    lane0, col0 = int(lanes.min()), int(cols.min())
    rows = int(lanes.max()) - lane0 + 1
    span = int(cols.max()) - col0 + 1
    width = min(span, max(1, MAX_TMEM_CELLS // rows))
    first = min(marks) if marks else (lane0, col0)
    if window and rows * width > WINDOW_LANES * WINDOW_COLUMNS:
        if rows > WINDOW_LANES:
            lane0 += max(0, (first[0] - lane0) // WINDOW_LANES * WINDOW_LANES)
            rows = min(WINDOW_LANES, int(lanes.max()) - lane0 + 1)
        if span > WINDOW_COLUMNS:
            col0 += max(0, (first[1] - col0) // WINDOW_COLUMNS * WINDOW_COLUMNS)
            span = min(WINDOW_COLUMNS, int(cols.max()) - col0 + 1)
        width = min(span, WINDOW_COLUMNS)
    p = Panel(f"TMEM lanes {lane0}.. x columns {col0}.. ({setup.form.instruction})", rows, width, 0, 0, "lane",
              "column")
    owners: dict[tuple[int, int], list[int]] = {}
    for i in np.argsort(t * nreg * ncall + v * ncall + c, kind="stable"):
        owners.setdefault((int(lanes[i]) - lane0, int(cols[i]) - col0), []).append(int(i))
    for (r, k), who in sorted(owners.items()):
        if not (0 <= k < width and 0 <= r < rows):
            continue
        i = who[0]
        ti, vi, ci = int(t[i]), int(v[i]), int(c[i])
        wrong = len(who) > 1 or any(int(cute[j]) != int(hw[j]) for j in who)
        times = f" x{len(who)}" if len(who) > 1 else ""
        info: tuple[tuple[str, str], ...] = (
                ("thread", str(ti)), ("warp", str(ti // 32)), ("register", str(vi)), ("call", str(ci)),
                ("cell", f"lane {int(lanes[i])}, column {int(cols[i])}"),
                ("CuTe coordinate", str(int(coords[i]))), ("moves", str(len(who))))
        if 1 < len(who) <= MAX_HOLDERS_LISTED:
            info += (("holders", " ".join(f"T{int(t[j])}R{int(v[j])}C{int(c[j])}" for j in who)),)
        p.cells.append(Cell(r, k, f"T{ti}{times}\nV{vi}", thread_color(ti), info, CONFLICT if wrong else None))
    caption = ["cells: the thread T and register V the instruction moves each TMEM cell to or from (colour: "
               "thread % 8; xN: moved N times); outlined: moved more than once, or by a register CuTe's partition "
               "pairs with another cell"]
    if width < int(cols.max()) - int(cols.min()) + 1 or rows < int(lanes.max()) - int(lanes.min()) + 1:
        caption.append(f"drawn: lanes {lane0}..{lane0 + rows - 1}, columns {col0}..{col0 + width - 1} of lanes "
                       f"{int(lanes.min())}..{int(lanes.max())}, columns {int(cols.min())}..{int(cols.max())}")
    wanted = {(lane - lane0, col - col0): mark for (lane, col), mark in (marks or {}).items()}
    outline(p, {rc: mark for rc, mark in wanted.items() if 0 <= rc[0] < rows and 0 <= rc[1] < width}, missing="-")
    caption += captions or []
    caption += [f"({why}) lane {lane0 + r}, column {col0 + c} is not drawn" for (r, c), (_, why) in wanted.items()
                if not (0 <= r < rows and 0 <= c < width)]
    return Figure(f"{setup.check.name}: {setup.copy_spec.name} over tmem {setup.coord_to_addr}, "
                  f"{nthr} threads x {ncall} calls", [p], caption)
