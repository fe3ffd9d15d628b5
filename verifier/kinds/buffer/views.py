"""The buffer kind's picture (`bytes` view): the allocation at the witness's base address, 128-byte lines down and
16-byte chunks right, drawn twice over the same bytes — the coordinate the writer stores at each chunk's first byte
and the coordinate the reader loads from there (colour: the coordinate's first mode, so the two sides compare at a
glance).  Theorem 23's counterexample is outlined on both: red where the writer stored the element, blue where the
reader looks for it (or, for two stores to one byte, that byte; for an element outside the allocation, the caption
says so).  Every address is the chain's (chain.py), the one `explain --coord` prints."""
from __future__ import annotations

import itertools

from ...draw.figure import CONFLICT, EXPECTED, Cell, Figure, Panel, thread_color
from ...draw.views import outline
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .chain import BufferChain
from .theorems import BufferSetup

LINE, CHUNK = 128, 16
MAX_LINES = 128              # 16 KiB of the allocation per panel, around the counterexample
MAX_ELEMENTS = 1 << 16       # coordinates evaluated per side


def _coordinate(setup: BufferSetup, point: dict[str, int], prime: str = "") -> tuple[int, ...]:
    return tuple(int(point.get(v.name + prime, 0)) for v in setup.coords)


def buffer_figure(setup: BufferSetup, result: CheckResult | None = None) -> Figure:
    chain = BufferChain(setup)
    check = setup.check
    base = 0
    marks: dict[int, tuple[str, str]] = {}
    captions: list[str] = []
    for t, w in result.counterexamples() if result is not None else []:
        if t.id is not TheoremId.BUFFER_AGREEMENT:
            continue
        p = w.point
        base = int(p.get("base", 0)) * check.align
        coord = _coordinate(setup, p)
        wrote = chain.address(setup.writer, coord, base)
        looks = chain.address(check.reader, coord, base)
        if any(v.name + "'" in p for v in setup.coords):          # two coordinates, one byte
            other = _coordinate(setup, p, "'")
            marks[wrote] = (CONFLICT, f"theorem 23: the writer stores {coord} and {other} here")
            captions.append(f"counterexample (theorem 23): the writer stores elements {coord} and {other} both at "
                            f"byte {wrote:#x} (red)")
        else:
            marks.setdefault(wrote, (CONFLICT, f"theorem 23: the writer stores {coord} here"))
            if looks != wrote:
                marks.setdefault(looks, (EXPECTED, f"theorem 23: the reader looks for {coord} here"))
            captions.append(f"counterexample (theorem 23): element {coord} at base {base:#x} — the writer stores it "
                            f"at {wrote:#x} (red), the reader looks at {looks:#x}" + (" (blue)" if looks != wrote
                                                                                         else ""))
        break
    sizes = [v.size for v in setup.coords]
    written: dict[int, tuple[int, ...]] = {}
    read: dict[int, tuple[int, ...]] = {}
    for coord in itertools.islice(itertools.product(*(range(n) for n in sizes)), MAX_ELEMENTS):
        written.setdefault(chain.address(setup.writer, coord, base), coord)
        read.setdefault(chain.address(check.reader, coord, base), coord)
    inside = [a for a in written if base <= a < base + check.bytes] or [base]
    shown = inside + [b for b in marks if b >= 0]     # a counterexample's byte outside the allocation too
    lo, hi = min(shown) // LINE, max(shown) // LINE + 1
    if hi - lo > MAX_LINES:
        focus = min((b for b in marks if b >= 0), default=lo * LINE) // LINE
        lo = max(lo, focus - focus % 8 - 8)       # a few lines before the counterexample, for context
        hi = lo + MAX_LINES
    lines, cols = hi - lo, LINE // CHUNK
    wpanel = Panel(f"written ({setup.writer.by})", lines, cols, 0, 0, "line", "chunk")
    rpanel = Panel(f"read ({check.reader.by})", lines, cols, cols + 1, 0, "line", "chunk")
    for panel, side in ((wpanel, written), (rpanel, read)):
        firsts: dict[tuple[int, int], int] = {}
        for addr in side:
            rc = (addr // LINE - lo, addr % LINE // CHUNK)
            if 0 <= rc[0] < lines and (rc not in firsts or addr < firsts[rc]):
                firsts[rc] = addr
        for (row, col), addr in sorted(firsts.items()):
            coord = side[addr]
            start = (lo + row) * LINE + col * CHUNK
            panel.cells.append(Cell(row, col, ",".join(map(str, coord)), thread_color(coord[0] if coord else 0),
                                    (("coordinate", "(" + ",".join(map(str, coord)) + ")"), ("byte", str(start)),
                                     ("bytes", f"{start:#x}..{start + CHUNK - 1:#x}"),
                                     ("offset", str(start - base)))))
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    for byte, mark in marks.items():
        rc = (byte // LINE - lo, byte % LINE // CHUNK)
        if 0 <= rc[0] < lines:
            cells.setdefault(rc, mark)
        else:
            captions.append(f"byte {byte:#x} ({mark[1]}) lies outside the drawn lines (outside the allocation "
                            f"[{base:#x}, {base + check.bytes:#x}) when below or past it)")
    outline(wpanel, cells, missing="-")
    outline(rpanel, cells, missing="-")
    caption = [f"the allocation of {check.bytes} bytes at base {base:#x}; line 0 is address {lo * LINE:#x}, a line 128 "
               "bytes, a cell 16 bytes; labels: the coordinate at the chunk's first byte",
               *captions]
    return Figure(f"{check.name}: the buffer, written and read", [wpanel, rpanel], caption)


__all__ = ["buffer_figure"]
