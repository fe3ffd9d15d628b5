"""The chain of one metadata bit, as one would trace it by hand: the global element, the TMA box word bringing it, its
shared position, the thread and register the copy puts it in, and what the wgmma reads that sp-meta bit as; for a
tcgen05.mma.sp, the tcgen05.cp row and byte that move it, its tensor-memory cell and the MMA whose part holds it."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...hardware import wgmma_sparse as WS
from ...theorems.claims import ChainLine, Trace
from .setup import MetaLoad, MetaSetup, words

if TYPE_CHECKING:
    from .sm100_setup import Sm100MetaSetup


def _at(layout: object, *coord: object) -> int:
    from ...symbolic.expr import evaluate
    from ...symbolic.layouts import layout_expr
    return int(evaluate([layout_expr(layout, coord if len(coord) > 1 else coord[0])], {})[0])


class MetadataChain:
    def __init__(self, setup: MetaSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        if trace is Trace.METADATA_BIT:
            return self.bit_lines(int(point.get("thread", 0)), int(point.get("m_block", 0)),
                                  int(point.get("k_block", 0)), int(point.get("bit", 0)), int(point.get("stage", 0)))
        return self.element_lines(int(point.get("m", 0)), int(point.get("k", 0)), int(point.get("stage", 0)),
                                  (int(point.get("tile_m", 0)), int(point.get("tile_k", 0))))

    def element_lines(self, m: int, k: int, stage: int, tile: tuple[int, int]) -> tuple[str, list[ChainLine]]:
        return element_lines(self.setup, m, k, stage, tile)

    def bit_lines(self, thread: int, r: int, kb: int, bit: int, stage: int) -> tuple[str, list[ChainLine]]:
        """Bit `bit` of thread `thread`'s sp-meta for wgmma (m-block r, k-block kb) of a `stage`."""
        s = self.setup
        out: list[ChainLine] = []
        if s.source is None or s.stype is None:
            return f"sp-meta bit {bit} of thread {thread}", out
        eb = s.e_bits
        v, sub = bit // eb, bit % eb
        word_of, _ = words(s)
        out.append(ChainLine("register", f"wgmma (m {r}, k-block {kb}) takes recast<uint32_t>(tErE(_, {r}, {kb})) = "
                                         f"register {word_of.get((r, kb), '?')}; bit {bit} is value {v}"
                                         + (f", its bit {sub}" if eb > 1 else "")))
        coord = _at(s.source, thread, v, (r, kb))
        m, k = coord % s.blk_m, coord // s.blk_m
        shared = _at(s.check.smem, m, k, stage) if s.check.smem.rank() > 2 else _at(s.check.smem, m, k)
        out.append(ChainLine("copy", f"partition_S: thread {thread} value {v} reads tile element (m {m}, k {k}) at "
                                     f"SmemLayoutE = {shared}; row bit {k * eb + sub}"))
        lane, group = thread % s.warpgroup, thread // s.warpgroup
        assert s.a_slices is not None
        origin = _at(s.a_slices, (0, (group, 0)), (0, (r, kb)))
        m0, k0 = origin % s.blk_m, origin // s.blk_m
        supplies = WS.supplies(s.stype, lane, s.side.sp_sel)
        hw = WS.meta_bit(s.stype, lane, bit)
        from ...symbolic.expr import evaluate
        reads = bool(evaluate([supplies], {})[0])
        row, chunk, q = int(hw.row), int(hw.chunk), int(hw.nibble_bit)
        out.append(ChainLine("wgmma", f"warpgroup {group} lane {lane}: {'supplies' if reads else 'does not supply'} "
                                      f"metadata under sp-sel {s.side.sp_sel}; the A slice starts at (m {m0}, k {k0}); "
                                      f"bit {bit} is bit {q} of chunk {chunk} (K {k0 + chunk * s.stype.chunk}.."
                                      f"{k0 + (chunk + 1) * s.stype.chunk - 1}) of row {m0 + row}: row bit "
                                      f"{k0 * eb + 4 * chunk + q}"))
        return f"sp-meta bit {bit} of thread {thread}, wgmma (m {r}, k-block {kb}), stage {stage}", out


def element_lines(s: MetaLoad, m: int, k: int, stage: int, tile: tuple[int, int]) -> tuple[str, list[ChainLine]]:
    """Element (m, k) of the metadata of CTA tile `tile`, in `stage`: from the global tensor to shared memory."""
    check = s.check
    gm, gk = tile[0] * s.blk_m + m, tile[1] * s.blk_k + k
    out = [ChainLine("global", f"LayoutE({gm}, {gk}) = element {_at(check.gmem, gm, gk)}  "
                               f"[tile ({tile[0]}, {tile[1]}) of {s.tiles[0]} x {s.tiles[1]}]")]
    shared = _at(check.smem, m, k, stage) if check.smem.rank() > 2 else _at(check.smem, m, k)
    out.append(ChainLine("shared", f"SmemLayoutE({m}, {k}, stage {stage}) = element {shared} (bit "
                                   f"{shared * s.e_bits})"))
    if s.tma is not None:
        local = shared - stage * s.stage_stride
        word = local // s.tma.elements_per_word
        out.append(ChainLine("TMA", f"box {s.tma.box} uint64, word {word} of the stage (bit "
                                    f"{(local % s.tma.elements_per_word) * s.e_bits} of it)"))
    return f"metadata element ({m}, {k}) of stage {stage}", out


class Sm100MetadataChain:
    """The chain of a tcgen05.mma.sp's metadata: global element, TMA, shared position, the tcgen05.cp that moves it,
    its TMEM cell, and the MMA whose part of the TMEM tile holds it."""
    def __init__(self, setup: Sm100MetaSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        s = self.setup
        if trace is Trace.METADATA_COPY:
            return self.copy_lines(int(point.get("stage", 0)), int(point.get("row", 0)), int(point.get("element", 0)))
        if trace is Trace.METADATA_MMA:
            kb = int(point.get("k_block", 0))
            k0 = s.a_origins[kb][1] if kb < len(s.a_origins) else kb * s.k_mma
            k = int(point.get("k_tile", 0)) * s.tile_k + k0 + int(point.get("k", 0))
            return self.tmem_lines(int(point.get("m", 0)), k, int(point.get("stage", 0)))
        return self.tmem_lines(int(point.get("m", 0)), int(point.get("k", 0)), int(point.get("stage", 0)),
                               (int(point.get("tile_m", 0)), int(point.get("tile_k", 0))))

    def tmem_lines(self, m: int, k: int, stage: int, tile: tuple[int, int] = (0, 0)) -> tuple[str, list[ChainLine]]:
        """Element (m, k) of E's tile: global -> shared -> TMEM -> the MMA that is handed it."""
        from ...cute import sparse_sm100 as SS
        s = self.setup
        title, out = element_lines(s, m, k, stage, tile)
        if s.tmem_view is None:
            return title, out
        element = _at(s.tmem_view, m, k)
        lane, column, bit = SS.tmem_fields(element * s.e_bits)
        shared = _at(s.check.smem, m, k, stage) if s.check.smem.rank() > 2 else _at(s.check.smem, m, k)
        local = shared * s.e_bits - stage * s.stage_stride * s.e_bits
        out.append(ChainLine("tcgen05.cp", f"the stage's byte {local // 8} (row {local // 8 // SS.UTCCP_ROW_BYTES}, "
                                           f"byte {local // 8 % SS.UTCCP_ROW_BYTES}, bit {local % 8}) -> TMEM lane "
                                           f"{lane}, column {s.check.tmem_base + column}, bit {bit}"))
        index, k_in = k // s.k_mma, k % s.k_mma
        t = k // s.tile_k
        kb = (k % s.tile_k) // s.k_mma
        handed = SS.mma_metadata(s.partitioned(s.tmem_view), s.check.tmem_base, index, s.e_bits)
        out.append(ChainLine("MMA", f"k-block {kb} of the k-tile at position {t} of the stage reads A's K "
                                    f"{(k % s.tile_k) - k_in}..; it is handed tCtE(_, _, {index}): [sp-meta-tmem] "
                                    f"column {handed.column}, selector {handed.selector}; (m {m}, k {k_in}) of its "
                                    "part"))
        return title + " to tensor memory", out

    def copy_lines(self, stage: int, row: int, element: int) -> tuple[str, list[ChainLine]]:
        """Element `element` of row `row` of the tcgen05.cp of `stage` (the first copy of the stage)."""
        from ...cute import sparse_sm100 as SS
        s = self.setup
        out: list[ChainLine] = []
        bit = element * s.e_bits
        byte = row * SS.UTCCP_ROW_BYTES + bit // 8
        out.append(ChainLine("tcgen05.cp", f"row {row}, byte {bit // 8} (bit {bit % 8}) of stage {stage}: shared byte "
                                           f"{stage * s.stage_stride * s.e_bits // 8 + byte}; TMEM lane {row}, column "
                                           f"{s.check.tmem_base + bit // SS.CELL_BITS}"))
        return f"element {element} of row {row} copied to tensor memory, stage {stage}", out
