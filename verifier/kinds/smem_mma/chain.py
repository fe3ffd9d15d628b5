"""The chain of one element of a shared-memory MMA check, in numbers: global (row, col) -> TMA box -> shared byte
(the swizzle's XOR shown) -> descriptor fields -> the (mn, k) wgmma or tcgen05.mma reads there (the setup's
architecture, arch.py, reads the descriptor).  Used to describe witnesses and by `explain`.
"""
from __future__ import annotations

from typing import Mapping

from ...symbolic.expr import Const, ExprLike, const
from ...theorems.claims import ChainLine, Trace
from .setup import Sm90Setup


def _int(e: ExprLike) -> int:
    c = const(e)
    if not isinstance(c, Const):
        raise ValueError(f"not a number: {c!r}")
    return c.value


class Sm90Chain:
    """Evaluates the chain of a Hopper or Blackwell check at one point (all numbers concrete)."""

    def __init__(self, setup: Sm90Setup) -> None:
        self.setup = setup

    def element_of(self, trace: Trace, point: Mapping[str, int]) -> tuple[int, int, int, int]:
        """(base address, stage, mn, k) of a witness point of either trace."""
        s = self.setup
        base = int(point.get("base", 0)) * s.align
        stage = int(point.get("stage", 0))
        if trace is Trace.TMA_BOX:
            assert s.boxes is not None
            n0, n1 = s.boxes.box
            inner = int(point.get("box_inner", 0)) * n0 + int(point.get("col", 0))
            outer = int(point.get("box_outer", 0)) * n1 + int(point.get("row", 0))
            mn, k = (inner, outer) if s.boxes.inner_mode == 0 else (outer, inner)
            return base, stage, mn, k
        a, c = s.operand.axes
        mn = int(point.get("mn_block", 0)) * s.rows + int(point.get(a, 0))
        k = int(point.get("k_block", 0)) * s.k_instr + int(point.get(c, 0))
        return base, stage, mn, k

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        base, stage, mn, k = self.element_of(trace, point)
        return self.element_lines(base, stage, mn, k)

    def element_lines(self, base: int, stage: int, mn: int, k: int) -> tuple[str, list[ChainLine]]:
        s = self.setup
        op = s.operand.value
        a, c = s.operand.axes
        e = s.elem_bytes
        title = f"{op}({a}={mn}, {c}={k}) of stage {stage}, buffer at {base:#x}"
        out: list[ChainLine] = []
        g = s.gmem
        if g is not None:
            out.append(ChainLine("global", f"element ({a}0+{mn}, {c}0+{k}) of the {g} tensor, the CTA tile's origin "
                                           f"({a}0, {c}0); offset {a}0*{_stride(g, 0)} + {c}0*{_stride(g, 1)} + "
                                           f"{_int(const(mn) * _stride(g, 0) + const(k) * _stride(g, 1))}"))
        else:
            out.append(ChainLine("copy", f"{s.check.copy} writes element ({a}={mn}, {c}={k}) through the tile's "
                                         "layout (partition_D of the shared tensor)"))
        if s.boxes is not None and s.tensor_map is not None:
            n0, n1 = s.boxes.box
            inner, outer = (mn, k) if s.boxes.inner_mode == 0 else (k, mn)
            bi, bo, ii, oo = inner // n0, outer // n1, inner % n0, outer % n1
            dst = _int(s.box_destination(base, bi, bo, stage))
            raw = dst + oo * s.tensor_map.row_pitch + ii * e
            wrote = _int(s.tma_address(base, mn, k, stage))
            swz = s.tensor_map.swizzle
            dims = "(inner = " + (a if s.boxes.inner_mode == 0 else c) + ")"
            out.append(ChainLine("TMA box", f"box ({bi}, {bo}) {dims} of {n0}x{n1} elements, element (col {ii}, "
                                            f"row {oo}); the box's destination base+{dst - base:#x} = {dst:#x}"))
            out.append(ChainLine("TMA writes", f"{dst:#x} + row {oo} x {s.tensor_map.row_pitch} + col {ii} x {e} = "
                                               f"{raw:#x}{_xor_text(swz.bits, raw, wrote, swz.chunk_shift)}"))
        off = _int(s.layout_address(0, mn, k, stage)) if not s.absolute else None
        want = _int(s.layout_address(base, mn, k, stage))
        inner_off = s.tile.offset(mn, k, stage) if s.tile is not None else 0
        how = (f"swizzle(base + {inner_off} x {e})" if s.absolute
               else f"base + swizzled offset {off if off is not None else 0}")
        out.append(ChainLine("smem layout", f"smem_layout({mn},{k},{stage}) -> {how} = {want:#x}"))
        d = s.descriptor
        if d is not None and s.reader is not None and mn < s.extent[0] and k < s.extent[1]:
            w, kb, i, j = mn // s.rows, k // s.k_instr, mn % s.rows, k % s.k_instr
            start = _int(s.slice_start(base, w, kb, stage))
            word = s.reader.word(start) if start < 1 << 18 else None
            out.append(ChainLine("descriptor", f"slice ({a}-block {w}, k-block {kb}): start {start:#x}, LBO {d.lbo}, "
                                               f"SBO {d.sbo}, base offset {d.base_offset}, swizzle {d.swizzle.label}, "
                                               f"{s.major.value}-major" + (f" = {word:#018x}" if word is not None
                                                                            else "")))
            raw = start + s.unswizzled_offset(i, j)
            read = _int(s.read_address(start, i, j))
            bits, shift = d.swizzle.bits, s.descriptor_chunk_shift
            phase = ((raw >> 7) - d.base_offset) % (1 << bits) if bits else 0
            out.append(ChainLine(f"{s.engine} reads", f"the slice's {op}({a}={i}, {c}={j}) at {raw:#x}"
                                                      + (f" ^ (phase ((addr >> 7) - base offset) mod {1 << bits}"
                                                         f" = {phase}) << {shift} = {read:#x}" if bits else "")))
            tma_wrote = _tma_write(s, base, mn, k, stage)
            verdict = (("the byte the layout gives it" if read == want else "NOT the byte the layout gives it")
                       if not s.by_tma else "no TMA model places it" if tma_wrote is None
                       else "the byte TMA wrote it to" if read == tma_wrote else "NOT the byte TMA wrote it to")
            instruction = s.atom.instruction or s.atom.name
            out.append(ChainLine("instruction", f"{instruction} reads the slice's {op}({a}={i}, {c}={j}) from shared "
                                                f"memory (no thread holds it): {verdict}"))
        return title, out


def _tma_write(setup: Sm90Setup, base: int, mn: int, k: int, stage: int) -> int | None:
    if setup.boxes is None or setup.tensor_map is None:
        return None
    return _int(setup.tma_address(base, mn, k, stage))


def _stride(layout: object, mode: int) -> int:
    from ...algebra.inttuple import flatten_to_tuple
    return int(flatten_to_tuple(layout.mode(mode).stride)[0])   # type: ignore[attr-defined]


def _xor_text(bits: int, raw: int, final: int, chunk_shift: int = 4) -> str:
    if not bits:
        return ""
    phase = (raw >> 7) & ((1 << bits) - 1)
    return f" ^ (phase (addr >> 7) mod {1 << bits} = {phase}) << {chunk_shift} = {final:#x}"
