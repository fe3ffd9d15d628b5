"""The views of a check, in CuTe's print_latex conventions: M (or N) down, K (or N) right; cells T{thread}
V{value}; CuTe's eight colours by thread % 8; an MMA drawn with A on the left, B on top, C below B; a copy's
source and destination side by side.  Replicated owners, which CuTe's pictures hide, are counted ("x128").

- mma:   the tiled MMA's A, B and C TV layouts;
- copy:  the tiled copy's source and destination TV layouts over the operand tile;
- smem:  the operand tile's shared-memory offsets, coloured by 16-byte chunk (the swizzle shows);
- banks: the tile coloured by bank, the elements of the worst warp instruction's conflicting lanes outlined;
- tmem:  a TMEM check's tensor-memory cells (lanes down, columns right), each labelled with the thread and
         register the instruction moves it to or from; cells whose register CuTe pairs with another cell outlined.
A refuted check's counterexample is outlined in red where it names cells (two lanes of a bank conflict, two
coordinates of one element) and written in the caption.
"""
from __future__ import annotations

from enum import Enum
from typing import Any

from ..algebra.layout import Layout
from ..cute.mma import TiledMMA
from ..cute.operand import Operand
from ..hardware.banks import WORD, wavefronts
from ..kinds.tiled.banks import _lane_offsets, _warps, bank_shape
from ..kinds.tiled.chain import OperandChain
from ..kinds.tiled.setup import TiledSetup
from ..kinds.tmem.theorems import TmemSetup
from .figure import CONFLICT, Cell, Figure, Panel, bank_color, thread_color


class View(str, Enum):
    MMA = "mma"
    COPY = "copy"
    SMEM = "smem"
    BANKS = "banks"
    TMEM = "tmem"


def _owners(tv: Layout, extent: int) -> dict[int, list[tuple[int, int]]]:
    """Tile index -> every (thread, value) the TV layout maps there."""
    nthr = int(tv.mode(0).size())
    out: dict[int, list[tuple[int, int]]] = {}
    for i, q in enumerate(tv.values()):
        if 0 <= int(q) < extent:
            out.setdefault(int(q), []).append((i % nthr, i // nthr))
    return out


def _tv_panel(title: str, tv: Layout, rows: int, cols: int, axes: tuple[str, str], transpose: bool = False,
              x: int = 0, y: int = 0) -> Panel:
    """A TV layout over a rows x cols tile (colex index r + rows*c); `transpose` draws it cols x rows (B on top)."""
    owners = _owners(tv, rows * cols)
    p = Panel(title, cols if transpose else rows, rows if transpose else cols, x, y,
              axes[1] if transpose else axes[0], axes[0] if transpose else axes[1])
    for q, who in sorted(owners.items()):
        r, c = q % rows, q // rows
        t, v = min(who)
        times = f" x{len(who)}" if len(who) > 1 else ""
        info = (("thread", str(t)), ("value", str(v)), ("coordinate", f"({axes[0]}={r}, {axes[1]}={c})"),
                ("owners", str(len(who))))
        p.cells.append(Cell(c if transpose else r, r if transpose else c, f"T{t}{times}\nV{v}", thread_color(t), info))
    return p


def mma_figure(name: str, mma: TiledMMA) -> Figure:
    m, n, k = (mma.tile_size(i) for i in range(3))
    a = _tv_panel("A (m, k)", mma.get_layout_tv("A"), m, k, ("m", "k"), x=0, y=k + 1)
    b = _tv_panel("B (k, n)", mma.get_layout_tv("B"), n, k, ("n", "k"), transpose=True, x=k + 1, y=0)
    c = _tv_panel("C (m, n)", mma.get_layout_tv("C"), m, n, ("m", "n"), x=k + 1, y=k + 1)
    return Figure(f"{name}: TiledMMA {m}x{n}x{k}, {mma.num_threads()} threads", [a, b, c],
                  ["cells: the thread T and value V holding each coordinate (colour: thread % 8, as CuTe's "
                   "print_latex); xN: N owners"])


def copy_figure(setup: TiledSetup) -> Figure:
    tc = setup.tiled_copy
    mi, ki = Operand.of(setup.operand).modes
    rows, cols = setup.copy_mma.tile_size(mi), setup.copy_mma.tile_size(ki)
    axes = Operand.of(setup.operand).axes
    store = setup.is_store
    src = "registers" if store else "shared memory"
    dst = "shared memory" if store else "registers"
    s = _tv_panel(f"source ({src}): layoutS_TV", tc.layout_S_tv(), rows, cols, axes, x=0, y=0)
    d = _tv_panel(f"destination ({dst}): layoutD_TV", tc.layout_D_tv(), rows, cols, axes, x=cols + 1, y=0)
    return Figure(f"{setup.check.name}: {setup.copy_spec.name} for {setup.operand}, {tc.num_threads} threads",
                  [s, d], [f"{setup.copy_spec.instruction}: each source cell is read by the thread/value shown, and "
                           "lands in the destination cell of the same coordinate"])


def _tile_offsets(layout: Any) -> tuple[int, int, dict[tuple[int, int], int]]:
    rows, cols = int(layout.mode(0).size()), int(layout.mode(1).size())
    vals = layout.values()
    return rows, cols, {(i % rows, i // rows): int(vals[i]) for i in range(rows * cols)}


def smem_figure(name: str, layout: Any, value_bits: int, axes: tuple[str, str],
                outlined: set[tuple[int, int]] = frozenset()) -> Figure:  # type: ignore[assignment]
    rows, cols, offsets = _tile_offsets(layout)
    p = Panel("shared-memory offset (element), colour: 16-byte chunk", rows, cols, 0, 0, axes[0], axes[1])
    for (r, c), off in sorted(offsets.items()):
        byte = off * value_bits // 8
        chunk = byte // 16
        info = (("coordinate", f"({axes[0]}={r}, {axes[1]}={c})"), ("offset", str(off)), ("byte", str(byte)),
                ("chunk", str(chunk)), ("bank", str(byte // WORD % 32)))
        p.cells.append(Cell(r, c, str(off), thread_color(chunk), info, CONFLICT if (r, c) in outlined else None))
    return Figure(f"{name}: {layout}", [p], ["chunk colours repeat every 8 chunks (128 bytes): a swizzle moves "
                                             "them along the rows"])


def banks_figure(setup: TiledSetup, chain: OperandChain, witness_lanes: tuple[int, ...] = ()) -> Figure:
    """The tile coloured by bank; outlined: what the worst warp instruction's conflicting lanes touch (or, for a
    counterexample, what its two lanes touch)."""
    layout = setup.check.smem
    vb = setup.value_bits
    axes = Operand.of(setup.operand).axes
    rows, cols, offsets = _tile_offsets(layout)
    where = {off: rc for rc, off in offsets.items()}
    shape = bank_shape(setup)
    warps = _warps(setup, chain)
    caption: list[str] = []
    marked: set[tuple[int, int]] = set()
    if isinstance(shape, str) or isinstance(warps, str):
        caption.append(f"no bank count: {shape if isinstance(shape, str) else warps}")
    else:
        worst = None
        for inst in _lane_offsets(setup, chain, warps):
            for addrs in inst:
                wf = wavefronts(shape.instruction, addrs)
                if worst is None or wf.count > worst[0].count:
                    worst = (wf, addrs)
        assert worst is not None
        wf, addrs = worst
        phase = max(wf.phases, key=lambda p: p.wavefronts)
        lanes = witness_lanes or phase.worst_lanes
        for lane in lanes:
            start = addrs[lane] * 8 // vb
            for e in range(shape.bytes_per_lane * 8 // vb):
                if start + e in where:
                    marked.add(where[start + e])
        caption.append(f"{shape.instruction.text}: the worst warp instruction takes {wf.count} wavefronts "
                       f"(ideal {wf.ideal})" + (f"; outlined: what lanes {', '.join(map(str, lanes))} touch "
                                                f"(bank {phase.worst_bank})" if lanes else ""))
    p = Panel("bank of each element (colour)", rows, cols, 0, 0, axes[0], axes[1])
    for (r, c), off in sorted(offsets.items()):
        byte = off * vb // 8
        bank = byte // WORD % 32
        info = (("coordinate", f"({axes[0]}={r}, {axes[1]}={c})"), ("offset", str(off)), ("byte", str(byte)),
                ("bank", str(bank)))
        p.cells.append(Cell(r, c, f"b{bank}", bank_color(bank), info, CONFLICT if (r, c) in marked else None))
    return Figure(f"{setup.check.name}: shared-memory banks", [p], caption)


MAX_TMEM_CELLS = 1 << 14      # cells of a TMEM picture (a 128 x 128 tile); larger tiles show their first columns


def tmem_figure(setup: TmemSetup) -> Figure:
    """Who the instruction moves each TMEM cell to (load) or from (store), over the lanes and columns the tile
    spans; outlined where CuTe's partition pairs that register with another cell (theorem 19)."""
    import numpy as np
    from ..cute.tmem import DP_CELLS
    from ..hardware.tmem_copy import register_cell
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

