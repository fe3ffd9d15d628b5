"""The tiled kind's own pictures: the tiled copy's source and destination TV layouts over the operand tile, and
the tile coloured by bank with the worst warp instruction's conflicting lanes (or a counterexample's) outlined."""
from __future__ import annotations

import dataclasses

from ...cute.operand import Operand
from ...draw.figure import CONFLICT, Cell, Figure, Panel, bank_color
from ...draw.views import tile_offsets, tv_panel
from ...hardware.banks import WORD, BankModelError, wavefronts
from .banks import bank_shape, lane_offsets, warps_of
from .chain import OperandChain
from .setup import TiledSetup


THREAD_NAMES = ("thread", "lane", "t")      # how the copy theorems name the thread of a witness
VALUE_NAMES = ("value", "v")


def _point(witness: dict[str, int], names: tuple[str, ...]) -> int | None:
    return next((int(witness[n]) for n in names if n in witness), None)


def copy_figure(setup: TiledSetup, witness: dict[str, int] | None = None, theorem: str = "") -> Figure:
    """The copy's source and destination TV layouts; a counterexample's (thread, value) outlined on both sides,
    the coordinate each side gives it named in the caption."""
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
    t = _point(witness, THREAD_NAMES) if witness else None
    v = _point(witness, VALUE_NAMES) if witness else None
    if t is not None and v is not None:
        marks = []
        for panel, tv, side in ((s, s_tv, "source"), (d, d_tv, "destination")):
            try:
                q = tv((t, v))
            except (IndexError, ValueError, TypeError, ArithmeticError):
                continue                      # outside this side's layout: nothing to outline there
            if not isinstance(q, int):
                continue
            r, c = q % rows, q // rows
            panel.cells = [dataclasses.replace(cell, outline=CONFLICT) if (cell.row, cell.col) == (r, c) else cell
                           for cell in panel.cells]
            marks.append(f"{side} ({axes[0]}={r}, {axes[1]}={c})")
        repeats = {k: n for k, n in (witness or {}).items() if k[:1] == "r" and k[1:].isdigit() and n}
        where = (f" of tile repeat {', '.join(f'{k}={n}' for k, n in sorted(repeats.items()))} (outlined in the "
                 "first repeat, where the same thread and value sit)" if repeats else "")
        caption.append(f"counterexample ({theorem}): thread {t}, value {v}{where} — outlined at " + ", ".join(marks))
    return Figure(f"{setup.check.name}: {setup.copy_spec.name} for {setup.operand}, {tc.num_threads} threads",
                  [s, d], caption)


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
