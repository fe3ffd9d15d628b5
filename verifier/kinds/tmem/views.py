"""The TMEM kind's picture: which thread and register each tensor-memory cell goes to (a load) or comes from (a
store), cells moved twice or to the wrong register outlined."""
from __future__ import annotations

from ...draw.figure import CONFLICT, Cell, Figure, Panel, thread_color
from .theorems import TmemSetup


MAX_TMEM_CELLS = 1 << 14      # cells of a TMEM picture (a 128 x 128 tile); larger tiles show their first columns


def tmem_figure(setup: TmemSetup) -> Figure:
    """Who the instruction moves each TMEM cell to (load) or from (store), over the lanes and columns the tile
    spans; outlined where CuTe's partition pairs that register with another cell (theorem 19)."""
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
    width = min(int(cols.max()) - col0 + 1, max(1, MAX_TMEM_CELLS // rows))
    p = Panel(f"TMEM lanes {lane0}.. x columns {col0}.. ({setup.form.instruction})", rows, width, 0, 0, "lane",
              "column")
    owners: dict[tuple[int, int], list[int]] = {}
    for i in np.argsort(t * nreg * ncall + v * ncall + c, kind="stable"):
        owners.setdefault((int(lanes[i]) - lane0, int(cols[i]) - col0), []).append(int(i))
    for (r, k), who in sorted(owners.items()):
        if k >= width:
            continue
        i = who[0]
        ti, vi, ci = int(t[i]), int(v[i]), int(c[i])
        wrong = len(who) > 1 or any(int(cute[j]) != int(hw[j]) for j in who)
        times = f" x{len(who)}" if len(who) > 1 else ""
        info = (("thread", str(ti)), ("warp", str(ti // 32)), ("register", str(vi)), ("call", str(ci)),
                ("cell", f"lane {int(lanes[i])}, column {int(cols[i])}"),
                ("CuTe coordinate", str(int(coords[i]))), ("moves", str(len(who))))
        p.cells.append(Cell(r, k, f"T{ti}{times}\nV{vi}", thread_color(ti), info, CONFLICT if wrong else None))
    caption = ["cells: the thread T and register V the instruction moves each TMEM cell to or from (colour: "
               "thread % 8; xN: moved N times); outlined: moved more than once, or by a register CuTe's partition "
               "pairs with another cell"]
    if width < int(cols.max()) - col0 + 1:
        caption.append(f"the first {width} of {int(cols.max()) - col0 + 1} columns")
    return Figure(f"{setup.check.name}: {setup.copy_spec.name} over tmem {setup.coord_to_addr}, "
                  f"{nthr} threads x {ncall} calls", [p], caption)
