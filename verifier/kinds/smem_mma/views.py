"""The shared-memory MMA kind's own picture (`smem` view): one stage of the buffer in shared memory, 128-byte
lines down and 16-byte chunks right, drawn twice over the same bytes:

- written: the tile element TMA's box puts at the start of each chunk (or the layout, when the threads write it),
  coloured by the element's 16-byte piece of its unswizzled row, so a swizzle shows as a permutation per line;
- read: the element the tensor core reads there through the descriptor of each instruction slice (MN-block,
  k-block), coloured by k-block, the core matrix named on hover.

A counterexample of theorems 9 and 13-16 is outlined on both: red at the byte the failing side uses (`actual`),
blue at the byte it should have used (`expected`), at the witness's base address and stage.  Description only:
every number is computed by the same setup functions the theorems quantified over.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...draw.figure import CONFLICT, EXPECTED, Cell, Figure, Panel, thread_color
from ...draw.views import outline
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from .chain import _int
from .setup import Sm90Setup

T = TheoremId
LINE, CHUNK = 128, 16                # bytes of a drawn line (the swizzle's row) and of a cell
MAX_LINES = 128                      # 16 KiB of one stage per panel; a larger stage is drawn around the witness
BYTE_THEOREMS = (T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END)
SMEM_MMA_MARKED = (T.SMEM_INJECTIVE, T.TMA_ENCODABLE, *BYTE_THEOREMS)


@dataclass(frozen=True)
class _Mark:
    byte: int
    colour: str
    why: str


def _marks(setup: Sm90Setup, result: CheckResult | None) -> tuple[int, int, list[_Mark], list[str]]:
    """The base address and stage to draw, the bytes to outline and one caption line per counterexample."""
    if result is None:
        return 0, 0, [], []
    base = stage = None
    marks: list[_Mark] = []
    captions: list[str] = []
    for t, w in result.counterexamples():
        if t.id not in SMEM_MMA_MARKED:
            continue
        p = w.point
        b = int(p.get("base", 0)) * setup.align
        element = (_element_of_index(setup, int(p["index"])) if t.id is T.SMEM_INJECTIVE and "index" in p
                   and setup.tile is not None else None)
        s = element[2] if element is not None else int(p.get("stage", 0))
        if base is not None and (b, s) != (base, stage):
            captions.append(f"theorem {t.number} {t.id.value}: its counterexample is at base {b:#x}, stage {s} "
                            "(not drawn; see the report)")
            continue
        base, stage = b, s
        if t.id in BYTE_THEOREMS and w.actual is not None and w.expected is not None \
                and w.actual.isdigit() and w.expected.isdigit():
            got, want = int(w.actual), int(w.expected)
            side = {T.TMA_PLACEMENT: "TMA writes it", T.GMMA_DESCRIPTOR: f"{setup.engine} reads it",
                    T.GMMA_END_TO_END: f"{setup.engine} reads it"}[t.id]
            other = ("the layout puts it" if t.id is not T.GMMA_END_TO_END
                     else "TMA wrote it" if setup.by_tma else "the layout puts it")
            point = ", ".join(f"{k}={v}" for k, v in p.items())
            marks.append(_Mark(got, CONFLICT, f"theorem {t.number}: {side} here ({point})"))
            marks.append(_Mark(want, EXPECTED, f"theorem {t.number}: {other} here ({point})"))
            captions.append(f"counterexample (theorem {t.number}, {t.id.value}) at {point}: {side} at byte "
                            f"{got:#x} (red), {other} at {want:#x} (blue)")
        elif t.id is T.TMA_ENCODABLE and "offset" in p:
            marks.append(_Mark(b + int(p["offset"]), CONFLICT, f"theorem {t.number}: {w.actual}"))
            captions.append(f"counterexample (theorem {t.number}, {t.id.value}): {w.actual}, expected "
                            f"{w.expected} (red)")
        elif element is not None and "index2" in p:
            mn0, k0, _ = element
            byte = _int(setup.layout_address(b, mn0, k0, s))
            marks.append(_Mark(byte, CONFLICT, f"theorem {t.number}: tile indices {p['index']} and {p['index2']} "
                                               "both land here"))
            captions.append(f"counterexample (theorem {t.number}, {t.id.value}): tile indices {p['index']} and "
                            f"{p['index2']} share byte {byte:#x} (red)")
    return base or 0, stage or 0, marks, captions


def _element_of_index(setup: Sm90Setup, index: int) -> tuple[int, int, int]:
    """(mn, k, stage) of theorem 9's index, colex over the (MN, K, PIPE) tile as the theorem numbers it."""
    mn, k = setup.extent
    return index % mn, index // mn % k, index // (mn * k)


def smem_mma_figure(setup: Sm90Setup, result: CheckResult | None = None) -> Figure:
    """The written and the read side of one stage of the operand's buffer, a counterexample outlined."""
    assert setup.tile is not None
    op, (a, c), e = setup.operand.value, setup.operand.axes, setup.elem_bytes
    base, stage, marks, captions = _marks(setup, result)
    extent_mn, extent_k = setup.extent
    written: dict[int, tuple[int, int]] = {}
    for mn in range(extent_mn):
        for k in range(extent_k):
            addr = _int(setup.tma_address(base, mn, k, stage) if setup.by_tma and setup.boxes is not None
                        else setup.layout_address(base, mn, k, stage))
            written.setdefault(addr, (mn, k))
    read: dict[int, tuple[int, int, int, int]] = {}
    if setup.reader is not None:
        slices_mn, slices_k = setup.slices
        for w in range(slices_mn):
            for kb in range(slices_k):
                start = _int(setup.slice_start(base, w, kb, stage))
                for i in range(setup.rows):
                    for j in range(setup.k_instr):
                        read.setdefault(_int(setup.read_address(start, i, j)), (w, kb, i, j))
    lo = min(written) // LINE
    hi = max(written) // LINE + 1
    if hi - lo > MAX_LINES:
        focus = min((m.byte for m in marks), default=lo * LINE) // LINE
        lo = max(lo, focus - focus % 8)
        hi = lo + MAX_LINES
    lines = hi - lo
    cols = LINE // CHUNK
    major_k = setup.major.value == "K"

    def cell_of(byte: int) -> tuple[int, int]:
        return byte // LINE - lo, byte % LINE // CHUNK

    def chunk_info(row: int, col: int) -> tuple[tuple[str, str], ...]:
        start = (lo + row) * LINE + col * CHUNK
        return (("byte", str(start)), ("bytes", f"{start:#x}..{start + CHUNK - 1:#x}"),
                ("offset", str(start - base)))

    writer = "TMA" if setup.by_tma else "the layout"
    wpanel = Panel(f"written ({writer})", lines, cols, 0, 0, "line", "chunk")
    rpanel = Panel(f"read ({setup.engine})", lines, cols, cols + 1, 0, "line", "chunk")
    for panel, source in ((wpanel, written), (rpanel, read)):
        firsts: dict[tuple[int, int], int] = {}
        for addr in source:
            rc = cell_of(addr)
            if 0 <= rc[0] < lines and (rc not in firsts or addr < firsts[rc]):
                firsts[rc] = addr
        for (row, col), addr in sorted(firsts.items()):
            info = chunk_info(row, col)
            if panel is wpanel:
                mn, k = written[addr]
                piece = (k if major_k else mn) * e // CHUNK
                box: tuple[tuple[str, str], ...] = ()
                if setup.by_tma and setup.boxes is not None:
                    n0, n1 = setup.boxes.box
                    inner, outer = (mn, k) if setup.boxes.inner_mode == 0 else (k, mn)
                    box = (("TMA box", f"({inner // n0}, {outer // n1}), row {outer % n1}, col {inner % n0}"),)
                panel.cells.append(Cell(row, col, f"{a}{mn}\n{c}{k}", thread_color(piece % 8),
                                        (("element", f"{op}({a}={mn}, {c}={k})"), *info,
                                         ("16-byte piece of its row", str(piece)), *box)))
            else:
                w, kb, i, j = read[addr]
                mn, k = w * setup.rows + i, kb * setup.k_instr + j
                panel.cells.append(Cell(row, col, f"{a}{mn}\n{c}{k}", thread_color(kb),
                                        (("element", f"{op}({a}={mn}, {c}={k})"), *info,
                                         ("slice", f"({a}-block {w}, k-block {kb})"),
                                         ("core matrix", f"({i // 8}, {j * e // CHUNK})"))))
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    for m in marks:
        rc = cell_of(m.byte)
        if 0 <= rc[0] < lines:
            cells.setdefault(rc, (m.colour, m.why))
        else:
            captions.append(f"byte {m.byte:#x} ({m.why}) lies outside the drawn lines")
    outline(wpanel, cells, missing="-")
    outline(rpanel, cells, missing="-")
    caption = [f"stage {stage} of the buffer at base {base:#x}; line 0 is address {lo * LINE:#x}, a line 128 bytes, "
               "a cell 16 bytes",
               f"left: the {op} element {writer} puts at each chunk's first byte (colour: its 16-byte piece of the "
               "unswizzled row); right: the element the descriptor's slices read there (colour: k-block)",
               *captions]
    return Figure(f"{setup.check.name}: {op} in shared memory, written and read", [wpanel, rpanel], caption)


__all__ = ["SMEM_MMA_MARKED", "smem_mma_figure"]
