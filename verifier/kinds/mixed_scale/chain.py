"""The chain of one mixed-input scale (zero point), as one would trace it by hand: its global element, the TMA box
element that brings it and the shared slot it lands in, and the threads whose registers read it -- or, from a thread's
side, the A element a register of a k-block holds, the scale register dequantize_A_kblock pairs it with, the copy that
fills that register and the slot it reads, against the slot of the element's row."""
from __future__ import annotations

from collections.abc import Mapping

from ...symbolic.expr import Expr, const, evaluate
from ...symbolic.layouts import layout_expr
from ...theorems.claims import ChainLine, Trace
from .setup import WARPGROUP, MixedScaleSetup
from .theorems import a_row, read_register, slot_expr, source_slot, written_register

SHOWN_READERS = 4             # readers of a slot a chain names


def _at(e: Expr) -> int:
    return int(evaluate([e], {})[0])


class MixedScaleChain:
    def __init__(self, setup: MixedScaleSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        if trace is Trace.MIXED_SCALE_READ:
            return self.value_lines(int(point.get("thread", 0)), int(point.get("value", 0)),
                                    int(point.get("k_block", 0)), int(point.get("stage", 0)))
        return self.scale_lines(int(point.get("m", 0)), int(point.get("stage", 0)), int(point.get("tile_m", 0)),
                                int(point.get("column", 0)))

    # -- one scale, from global memory to the registers that read it ----------------------------------------------
    def scale_lines(self, m: int, stage: int, tile: int, column: int) -> tuple[str, list[ChainLine]]:
        s = self.setup
        check = s.check
        out: list[ChainLine] = []
        row = tile * s.tile_m + m
        element = _at(layout_expr(check.gmem, (const(row), const(column))))
        out.append(ChainLine("global", f"{s.tensor}({row}, column {column}) = element {element}  [CTA tile {tile} of "
                                       f"{s.tiles_m} along M]"))
        slot = s.slot(m, stage)
        if s.tma is not None:
            local, index, run = slot - _at(layout_expr(s.stage_mode, const(stage))), [], 1
            for b in s.tma.box:
                index.append((local // run) % b)
                run *= b
            out.append(ChainLine("TMA", f"box {s.tma.box} element {tuple(index)} of stage {stage}"))
        out.append(ChainLine("shared", f"SmemLayoutScale({m}, 0, stage {stage}) = slot {slot} (byte "
                                       f"{slot * s.elem_bytes} of the {s.tensor} buffer)"))
        out.append(ChainLine("read by", self._readers(m, stage) or "no register of a listed thread"))
        return f"{s.tensor} of row {m} of the CTA tile, stage {stage}", out

    def _readers(self, m: int, stage: int) -> str:
        s = self.setup
        r = s.registers
        if r is None or s.compute is None:
            return ""
        found = []
        want = s.slot(m, stage)
        for t in range(s.threads):
            for y in range(int(r.write_view.size())):
                if _at(source_slot(s, const(t), const(y), const(stage))) == want:
                    found.append(f"thread {t} copy value {y} (register {_at(written_register(s, const(y)))})")
                    break
            if len(found) >= SHOWN_READERS:
                break
        return ", ".join(found) + (" ..." if len(found) >= SHOWN_READERS else "")

    # -- one A element's factor, from the thread's side -------------------------------------------------------------
    def value_lines(self, thread: int, x: int, kb: int, stage: int) -> tuple[str, list[ChainLine]]:
        s = self.setup
        r = s.registers
        out: list[ChainLine] = []
        title = f"A element {x} of k-block {kb} of thread {thread}, stage {stage}"
        if r is None or s.model is None or s.compute is None:
            return title, out
        values = s.a_fragment[0]
        m_e, col_e = a_row(s, const(thread), const(x))
        m, col = _at(m_e), _at(col_e)
        k = kb * s.atom.shape_mnk[2] + col
        out.append(ChainLine("wgmma", f"warpgroup {thread // WARPGROUP} lane {thread % WARPGROUP}: A register {x} of "
                                      f"k-block {kb} is value {x % values} of M block {x // values}: A({m}, {k}) of "
                                      "the tile"))
        register = _at(read_register(s, const(x), const(kb)))
        if s.lookup is not None:      # lookup_table_convert: chunk x / N, the table of the value's output register
            n = s.lookup.values
            out.append(ChainLine("dequantize", f"chunk {x // n} position {int(s.lookup.source_chunk(x % n))}: "
                                               f"lookup_table_convert's table {int(s.lookup.source_chunk(x % n)) // 4}"
                                               f" = tCrS_neg / tCrS_pos register {register}"))
        else:
            out.append(ChainLine("dequantize", f"tCrS(_,_,{kb}) element {x} = register {register}"))
        writes = []
        for y in range(int(r.write_view.size())):
            if _at(written_register(s, const(y))) == register:
                writes.append(f"element {y} from slot {_at(source_slot(s, const(thread), const(y), const(stage)))}")
        out.append(ChainLine("copy", ("k-block 0 copy " + "; ".join(writes)) if writes
                             else "no element of the k-block 0 copy writes it"))
        want = _at(slot_expr(s, const(m), const(stage)))
        out.append(ChainLine("row", f"row {m}'s slot: SmemLayoutScale({m}, 0, {stage}) = {want}"))
        return title, out
