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

import dataclasses
from typing import Any, Mapping

from ..algebra.layout import Layout
from ..cute.mma import TiledMMA
from ..hardware.banks import WORD
from .figure import CONFLICT, EMPTY, Cell, Figure, Panel, thread_color

MAX_HOLDERS_LISTED = 8       # a replicated cell names its (thread, value) holders on hover up to this many
# (row, col) of a panel -> (outline colour, why it is outlined): a counterexample's cells
Marks = Mapping[tuple[int, int], tuple[str, str]]


def owners(tv: Layout, extent: int) -> dict[int, list[tuple[int, int]]]:
    """Tile index -> every (thread, value) the TV layout maps there."""
    nthr = int(tv.mode(0).size())
    out: dict[int, list[tuple[int, int]]] = {}
    for i, q in enumerate(tv.values()):
        if 0 <= int(q) < extent:
            out.setdefault(int(q), []).append((i % nthr, i // nthr))
    return out


def tv_panel(title: str, tv: Layout, rows: int, cols: int, axes: tuple[str, str], transpose: bool = False,
              x: int = 0, y: int = 0) -> Panel:
    """A TV layout over a rows x cols tile (colex index r + rows*c); `transpose` draws it cols x rows (B on top)."""
    holders = owners(tv, rows * cols)
    p = Panel(title, cols if transpose else rows, rows if transpose else cols, x, y,
              axes[1] if transpose else axes[0], axes[0] if transpose else axes[1])
    for q, who in sorted(holders.items()):
        r, c = q % rows, q // rows
        t, v = min(who)
        times = f" x{len(who)}" if len(who) > 1 else ""
        info: tuple[tuple[str, str], ...] = (("thread", str(t)), ("value", str(v)),
                                             ("coordinate", f"({axes[0]}={r}, {axes[1]}={c})"),
                                             ("owners", str(len(who))))
        if 1 < len(who) <= MAX_HOLDERS_LISTED:
            info += (("holders", " ".join(f"T{th}V{va}" for th, va in sorted(who))),)
        p.cells.append(Cell(c if transpose else r, r if transpose else c, f"T{t}{times}\nV{v}", thread_color(t), info))
    return p


def outline(panel: Panel, marks: Marks, missing: str = "none") -> None:
    """Outline the panel's cells at `marks`; a cell the panel lacks (a coordinate nobody holds) is added, white,
    labelled `missing`.  Marks outside the panel are left out (the caption still names them)."""
    have = {(c.row, c.col) for c in panel.cells}
    cells = [dataclasses.replace(c, outline=marks[c.row, c.col][0], mark=marks[c.row, c.col][1])
             if (c.row, c.col) in marks else c for c in panel.cells]
    for (r, c), (colour, why) in sorted(marks.items()):
        if (r, c) not in have and 0 <= r < panel.rows and 0 <= c < panel.cols:
            cells.append(Cell(r, c, missing, EMPTY, (("coordinate", f"({panel.row_axis}={r}, {panel.col_axis}={c})"),
                                                     ("owners", "0")), colour, why))
    panel.cells = cells


def mma_figure(name: str, mma: TiledMMA, marks: Mapping[str, Marks] | None = None) -> Figure:
    """The A, B and C TV layouts; `marks`: operand -> its (row, col) cells to outline (B's row is n, col k)."""
    m, n, k = (mma.tile_size(i) for i in range(3))
    a = tv_panel("A (m, k)", mma.get_layout_tv("A"), m, k, ("m", "k"), x=0, y=k + 1)
    b = tv_panel("B (k, n)", mma.get_layout_tv("B"), n, k, ("n", "k"), transpose=True, x=k + 1, y=0)
    c = tv_panel("C (m, n)", mma.get_layout_tv("C"), m, n, ("m", "n"), x=k + 1, y=k + 1)
    for op, panel in (("A", a), ("B", b), ("C", c)):
        wanted = (marks or {}).get(op, {})
        if op == "B":               # drawn transposed: k down, n right
            wanted = {(col, row): v for (row, col), v in wanted.items()}
        if wanted:
            outline(panel, wanted)
    return Figure(f"{name}: TiledMMA {m}x{n}x{k}, {mma.num_threads()} threads", [a, b, c],
                  ["cells: the thread T and value V holding each coordinate (colour: thread % 8, as CuTe's "
                   "print_latex); xN: N owners"])


def tile_offsets(layout: Any) -> tuple[int, int, dict[tuple[int, int], int]]:
    rows, cols = int(layout.mode(0).size()), int(layout.mode(1).size())
    vals = layout.values()
    return rows, cols, {(i % rows, i // rows): int(vals[i]) for i in range(rows * cols)}


def smem_figure(name: str, layout: Any, value_bits: int, axes: tuple[str, str],
                outlined: set[tuple[int, int]] = frozenset()) -> Figure:  # type: ignore[assignment]
    rows, cols, offsets = tile_offsets(layout)
    p = Panel("shared-memory offset (element), colour: 16-byte chunk", rows, cols, 0, 0, axes[0], axes[1])
    for (r, c), off in sorted(offsets.items()):
        byte = off * value_bits // 8
        chunk = byte // 16
        info = (("coordinate", f"({axes[0]}={r}, {axes[1]}={c})"), ("offset", str(off)), ("byte", str(byte)),
                ("chunk", str(chunk)), ("bank", str(byte // WORD % 32)))
        p.cells.append(Cell(r, c, str(off), thread_color(chunk), info, CONFLICT if (r, c) in outlined else None))
    return Figure(f"{name}: {layout}", [p], ["chunk colours repeat every 8 chunks (128 bytes): a swizzle moves "
                                             "them along the rows"])
