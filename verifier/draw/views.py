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
from ..hardware.banks import WORD
from .figure import CONFLICT, Cell, Figure, Panel, thread_color


class View(str, Enum):
    MMA = "mma"
    COPY = "copy"
    SMEM = "smem"
    BANKS = "banks"
    TMEM = "tmem"


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
        info = (("thread", str(t)), ("value", str(v)), ("coordinate", f"({axes[0]}={r}, {axes[1]}={c})"),
                ("owners", str(len(who))))
        p.cells.append(Cell(c if transpose else r, r if transpose else c, f"T{t}{times}\nV{v}", thread_color(t), info))
    return p


def mma_figure(name: str, mma: TiledMMA) -> Figure:
    m, n, k = (mma.tile_size(i) for i in range(3))
    a = tv_panel("A (m, k)", mma.get_layout_tv("A"), m, k, ("m", "k"), x=0, y=k + 1)
    b = tv_panel("B (k, n)", mma.get_layout_tv("B"), n, k, ("n", "k"), transpose=True, x=k + 1, y=0)
    c = tv_panel("C (m, n)", mma.get_layout_tv("C"), m, n, ("m", "n"), x=k + 1, y=k + 1)
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
