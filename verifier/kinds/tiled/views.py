"""The tiled kind's own pictures: the tiled copy's source and destination TV layouts over the operand tile, and
the tile coloured by bank with the worst warp instruction's conflicting lanes (or a counterexample's) outlined."""
from __future__ import annotations

from ...algebra.layout import Layout
from ...cute.operand import Operand
from ...draw.figure import CONFLICT, Cell, Figure, Panel, bank_color
from ...draw.views import outline, tile_offsets, tv_panel
from ...hardware.banks import WORD, BankModelError, wavefronts
from .banks import bank_shape, lane_offsets, warps_of
from .chain import OperandChain
from .setup import TiledSetup


THREAD_NAMES = ("thread", "lane", "t")      # how the copy theorems name the thread of a witness
VALUE_NAMES = ("value", "v")


def _point(witness: dict[str, int], names: tuple[str, ...]) -> int | None:
    return next((int(witness[n]) for n in names if n in witness), None)


def _cells_of(tv: Layout, t: int, v: int | None, rows: int) -> list[tuple[int, int]]:
    """The (row, col) cells a TV layout gives thread `t` (value `v`, or every value)."""
    values = [v] if v is not None else range(int(tv.mode(1).size()))
    out = []
    for value in values:
        try:
            q = tv((t, value))
        except (IndexError, ValueError, TypeError, ArithmeticError):
            continue                      # outside this side's layout: nothing to outline there
        if isinstance(q, int):
            out.append((q % rows, q // rows))
    return out


def copy_figure(setup: TiledSetup, witnesses: list[tuple[str, dict[str, int]]] | None = None,
                structural: str = "") -> Figure:
    """The copy's source and destination TV layouts; each refuted theorem's counterexample (thread, value)
    outlined on both sides, the coordinate each side gives it named in the caption.  `structural`: a refuted copy
    theorem without a point; when the copy has fewer threads than the MMA, the MMA's elements it leaves unfilled
    are drawn and outlined."""
    tc = setup.tiled_copy
    mi, ki = Operand.of(setup.operand).modes
    rows, cols = setup.copy_mma.tile_size(mi), setup.copy_mma.tile_size(ki)
    axes = Operand.of(setup.operand).axes
    store = setup.is_store
    src = "registers" if store else "shared memory"
    dst = "shared memory" if store else "registers"
    s_tv, d_tv = tc.layout_S_tv(), tc.layout_D_tv()
    s = tv_panel(f"source ({src}): layoutS_TV", s_tv, rows, cols, axes, x=0, y=0)
    d = tv_panel(f"destination ({dst}): layoutD_TV", d_tv, rows, cols, axes, x=cols + 1, y=0)
    caption = [f"{setup.copy_spec.instruction}: each source cell is read by the thread/value shown, and lands in "
               "the destination cell of the same coordinate"]
    panels = [s, d]
    sides = ((s_tv, "source"), (d_tv, "destination"))
    marks: dict[int, dict[tuple[int, int], tuple[str, str]]] = {0: {}, 1: {}}
    for theorem, witness in witnesses or []:
        t, v = _point(witness, THREAD_NAMES), _point(witness, VALUE_NAMES)
        alike = t is None and v is not None    # a value of every thread (theorem 12): thread 0's shown
        if alike:
            t = 0
        if t is None:
            continue
        where = []
        # without a value (an address theorem about a thread): every value of the thread, on its memory side
        for i, (tv, side) in enumerate(sides):
            if v is None and i != (1 if store else 0):
                continue
            cells = _cells_of(tv, t, v, rows)
            why = f"{theorem}: thread {t}" + (f" value {v}" if v is not None else "")
            for rc in cells:
                marks[i].setdefault(rc, (CONFLICT, why))
            if cells:
                where.append(f"{side} " + ", ".join(f"({axes[0]}={r}, {axes[1]}={c})" for r, c in cells[:4])
                             + (f" and {len(cells) - 4} more" if len(cells) > 4 else ""))
        repeats = {k: n for k, n in witness.items() if k[:1] == "r" and k[1:].isdigit() and n}
        rep = (f" of tile repeat {', '.join(f'{k}={n}' for k, n in sorted(repeats.items()))} (outlined in the "
               "first repeat, where the same thread and value sit)" if repeats else "")
        who = (f"value {v} of every thread (thread 0's outlined)" if alike
               else f"thread {t}, value {v}" if v is not None else f"thread {t} (every value it moves)")
        caption.append(f"counterexample ({theorem}): {who}{rep} — outlined at " + ", ".join(where))
    outline(s, marks[0])
    outline(d, marks[1])
    if structural and not witnesses and tc.num_threads < setup.mma.num_threads():
        # no point: the copy has fewer threads than the MMA; draw the kernel's MMA operand, its threads past
        # the copy's outlined (nothing the copy does fills their registers)
        m = setup.mma
        mrows, mcols = m.tile_size(mi), m.tile_size(ki)
        panel = tv_panel(f"the kernel's MMA {setup.operand}: threads {tc.num_threads}.. get nothing from the copy",
                         m.get_layout_tv(setup.operand), mrows, mcols, axes, x=0, y=rows + 1)
        lacking = {(c.row, c.col): (CONFLICT, f"{structural}: its thread is not one of the copy's {tc.num_threads}")
                   for c in panel.cells if int(dict(c.info)["thread"]) >= tc.num_threads}
        outline(panel, lacking)
        panels.append(panel)
        caption.append(f"counterexample ({structural}): the copy has {tc.num_threads} threads, the MMA "
                       f"{m.num_threads()}: outlined, the {len(lacking)} elements of MMA threads "
                       f"{tc.num_threads}..{m.num_threads() - 1}, which no copy thread moves")
    return Figure(f"{setup.check.name}: {setup.copy_spec.name} for {setup.operand}, {tc.num_threads} threads",
                  panels, caption)


def banks_figure(setup: TiledSetup, chain: OperandChain, witness_lanes: tuple[int, ...] = ()) -> Figure:
    """The tile coloured by bank; outlined: what the worst warp instruction's conflicting lanes touch (or, for a
    counterexample, what its two lanes touch)."""
    layout = setup.check.smem
    vb = setup.value_bits
    axes = Operand.of(setup.operand).axes
    rows, cols, offsets = tile_offsets(layout)
    where = {off: rc for rc, off in offsets.items()}
    shape = bank_shape(setup)
    warps = warps_of(setup, chain)
    caption: list[str] = []
    marked: set[tuple[int, int]] = set()
    worst = None
    if isinstance(shape, str) or isinstance(warps, str):
        caption.append(f"no bank count: {shape if isinstance(shape, str) else warps}")
    else:
        try:
            for inst in lane_offsets(setup, chain, warps):
                for addrs in inst:
                    wf = wavefronts(shape.instruction, addrs)
                    if worst is None or wf.count > worst[0].count:
                        worst = (wf, addrs)
        except BankModelError as refused:   # the instruction cannot run on these addresses: no count to draw
            worst = None
            caption.append(f"no bank count: {shape.instruction.text} cannot read these addresses ({refused}); the "
                           "addressing theorem's counterexample says why")
    if worst is not None and not isinstance(shape, str):
        wf, addrs = worst
        phase = max(wf.phases, key=lambda p: p.wavefronts)
        lanes = witness_lanes or phase.worst_lanes
        for lane in lanes:
            start = addrs[lane] * 8 // vb
            for k in range(shape.bytes_per_lane * 8 // vb):
                if start + k in where:
                    marked.add(where[start + k])
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
