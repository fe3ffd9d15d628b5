"""The chain of one scale, as one would trace it by hand: its global element (layout_SF), the shared slot the shared
layout gives its block, the loader's write that fills the slot (the scale warp's lane, value and copy_if call, or the
TMA box element), and the threads whose accumulator values read it -- or, from a thread's side, the accumulator
element a register holds, the slot it is handed and the global scale that slot holds."""
from __future__ import annotations

from collections.abc import Mapping

from ...algebra.layout import Layout
from ...algebra.ops import filter_zero_strides, left_inverse
from ...cute import blockwise as BW
from ...cute.tensor import Tensor
from ...hardware.tmem_copy import register_cell
from ...symbolic.expr import evaluate
from ...symbolic.layouts import layout_expr
from ...theorems.claims import ChainLine, Trace
from .setup import WARP, BlockwiseSetup, Sm90Reader, Sm100Reader, value_at

WARPGROUP = 128
SHOWN_READERS = 4             # readers of a slot a chain names


def _at(layout: object, coord: object) -> int:
    return int(evaluate([layout_expr(layout, coord)], {})[0])


class BlockwiseChain:
    def __init__(self, setup: BlockwiseSetup) -> None:
        self.setup = setup

    # -- what a witness names ---------------------------------------------------------------------------------
    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        s = self.setup
        if trace is Trace.BLOCKWISE_READ:
            return self.value_lines(int(point.get("thread", 0)), int(point.get("value", 0)), _call(point),
                                    int(point.get("k_block", 0)), int(point.get("stage", 0)))
        tile = (int(point.get("tile_mn", 0)), int(point.get("tile_k", 0)))
        stage = int(point.get("stage", 0))
        if "mn" in point and "k" in point:
            return self.scale_lines(int(point["mn"]), int(point["k"]), stage, tile)
        if "block_mn" in point:
            return self.scale_lines(int(point["block_mn"]) * s.g_mn, int(point.get("block_k", 0)) * s.g_k, stage, tile)
        return self.scale_lines(0, 0, stage, tile)

    # -- one scale, from global memory to the readers -----------------------------------------------------------
    def scale_lines(self, mn: int, k: int, stage: int, tile: tuple[int, int]) -> tuple[str, list[ChainLine]]:
        s = self.setup
        check = s.check
        out: list[ChainLine] = []
        gm, gk = tile[0] * s.tile_mn + mn, tile[1] * s.tile_k + k
        scale = value_at(check.gmem, gm, gk)
        out.append(ChainLine("global", f"layout_SF({gm}, {gk}) = scale {scale}  [block ({gm // s.g_mn}, "
                                       f"{gk // s.g_k}); tile ({tile[0]}, {tile[1]}) of {s.tiles[0]} x {s.tiles[1]}]"))
        slot = s.slot(mn, k, stage)
        out.append(ChainLine("shared", f"SmemLayoutSF({mn}, {k}, stage {stage}) = slot {slot} (byte "
                                       f"{slot * BW.SCALE_BYTES})"))
        out += self._writer_lines(slot, stage, tile)
        out += self._reader_lines(slot, stage, k // s.g_k)
        return f"scale of element ({mn}, {k}) of {check.scaled}'s tile, stage {stage}", out

    def _writer_lines(self, slot: int, stage: int, tile: tuple[int, int]) -> list[ChainLine]:
        s = self.setup
        if s.tma is not None:
            local = slot - stage * s.stage_stride
            index, run = [], 1
            for b in s.tma.box:
                index.append((local // run) % b)
                run *= b
            origin = value_at(filter_zero_strides(s.check.gmem), tile[0] * s.blocks_mn, tile[1] * s.blocks_k)
            read = origin + sum(i * d for i, d in zip(index, s.tma.box_strides))
            return [ChainLine("TMA", f"box {s.tma.box} element {tuple(index)} of stage {stage} reads global scale "
                                     f"{read}")]
        parts = s.parts
        if parts is None or s.copy is None or s.tile_index is None:
            return []
        dst, src = parts.dst, parts.src
        found = []
        for lane in range(s.active_lanes):
            for i in range(dst.calls):
                for v in range(dst.vector):
                    d = stage * s.stage_stride + int(dst.thread(lane)) + int(dst.filtered.mode(0)(v)) \
                        + int(dst.rest(i))
                    if d == slot:
                        g = value_at(s.tile_index, *tile) + int(src.thread(lane)) + int(src.filtered.mode(0)(v)) \
                            + int(src.rest(i))
                        found.append(f"lane {lane} value {v} call {i} reads global scale {g}")
        if not found:
            return [ChainLine("cp.async", f"no write of the scale warp lands in slot {slot}")]
        return [ChainLine("cp.async", "; ".join(found) + ("  -- written more than once" if len(found) > 1 else ""))]

    def _reader_lines(self, slot: int, stage: int, kb: int) -> list[ChainLine]:
        s = self.setup
        r = s.reader
        if r is None:
            return []
        readers = []
        if isinstance(r, Sm90Reader):
            for t in range(r.threads):
                part = r.mma.partition(Tensor(0, r.view), "C", t)
                for v in range(r.values):
                    if _offset(part(v, 0, 0, (kb * s.g_k, stage))) == slot:
                        readers.append(f"thread {t} value {v}")
                if len(readers) >= SHOWN_READERS:
                    break
        elif isinstance(r, Sm100Reader):
            for t in range(r.threads):
                for v in range(r.values):
                    if _at(r.view_part, (t, v, (0,) * len(r.calls) + (kb * s.g_k, stage))) == slot:
                        readers.append(f"thread {t} register {v}")
                if len(readers) >= SHOWN_READERS:
                    break
        text = ", ".join(readers[:SHOWN_READERS]) + (" ..." if len(readers) >= SHOWN_READERS else "")
        return [ChainLine("read by", text or "no accumulator value")]

    # -- one accumulator value, from the thread's side ------------------------------------------------------------
    def value_lines(self, thread: int, value: int, call: tuple[int, ...], kb: int,
                    stage: int) -> tuple[str, list[ChainLine]]:
        s = self.setup
        r = s.reader
        out: list[ChainLine] = []
        if isinstance(r, Sm90Reader) and r.model is not None:
            rm, rn = (call + (0, 0))[:2]
            lane = thread % WARPGROUP
            row, col = r.model.c.coord(lane, value)
            w_thread = thread // WARPGROUP * WARPGROUP
            tile_m, tile_n, tile_k = s.check.tile
            a0 = _offset(r.compute.partition(Tensor(0, Layout((tile_m, tile_k))), "A", w_thread)(0, rm, 0))
            b0 = _offset(r.compute.partition(Tensor(0, Layout((tile_n, tile_k))), "B", w_thread)(0, rn, 0))
            m, n = a0 % s.check.tile[0] + int(row), b0 % s.check.tile[1] + int(col)
            out.append(ChainLine("wgmma", f"warpgroup {thread // WARPGROUP} lane {lane}: D register {value} of wgmma "
                                          f"(m {rm}, n {rn}) is accumulator ({m}, {n})"))
            one = s.blocks_mn == 1
            part = r.mma.partition(Tensor(0, r.view), "C", thread)
            slot = _offset(part(0 if one else value, 0 if one else rm, 0 if one else rn, (kb * s.g_k, stage)))
            out.append(ChainLine("partition_C", f"tCsSF({'_0' if one else value}, ...) of thread {thread} = slot "
                                                f"{slot}"))
        elif isinstance(r, Sm100Reader):
            calls = (call + (0, 0, 0, 0))[:4]
            base = _at(r.tmem_part, (thread, 0, calls))
            cell = register_cell(r.form.shape, r.form.num, thread % WARP, value)
            addr = base + int(cell.lane) * BW.TMEM_LANE + int(cell.column)
            index = _at(left_inverse(r.tmem), addr)
            m_acc = int(s.atom.shape_mnk[0])
            m, n = index % m_acc, index // m_acc
            out.append(ChainLine("tcgen05.ld", f"thread {thread} register {value} of call {calls} reads TMEM lane "
                                               f"{addr // BW.TMEM_LANE} column {addr % BW.TMEM_LANE}: accumulator "
                                               f"({m}, {n})"))
            slot = _at(r.view_part, (thread, value, calls + (kb * s.g_k, stage)))
            out.append(ChainLine("partition_D", f"tTR_sSF of thread {thread} value {value} = slot {slot}"))
        else:
            return f"value {value} of thread {thread}", out
        mn = m if s.check.scaled == "A" else n
        want = s.slot(mn, kb * s.g_k, stage)
        out.append(ChainLine("block", f"{'row' if s.check.scaled == 'A' else 'column'} {mn} is in block "
                                      f"{mn // s.g_mn}, K block {kb}: slot {want}" + ("" if want == slot else
                                                                                     f"  -- not {slot}")))
        return f"accumulator value {value} of thread {thread}, K block {kb}, stage {stage}", out


def _offset(x: object) -> int:
    """A tensor's element offset at a full coordinate."""
    assert isinstance(x, int)
    return x


def _call(point: Mapping[str, int]) -> tuple[int, ...]:
    keys = ("m_block", "n_block") if "m_block" in point else ("t2r_m", "t2r_n", "epi_m", "epi_n")
    return tuple(int(point.get(k, 0)) for k in keys)


