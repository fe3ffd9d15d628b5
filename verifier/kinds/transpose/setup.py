"""The concrete objects of a transpose check, built once: the written tile (SmemLayoutB, as the smem_mma kind builds a
tile TMA or a cp.async copy fills), the transposed tile (GmmaSmemLayoutB, as it builds a tile the descriptor reads),
and CUTLASS's AsyncTranspositionOperandB over them (cute/transpose.py).

The addresses the theorems compare, all of them expressions of the buffer's base address and of one element of the
transposition (stage, warp tile along N and K, lane, value):
- the byte the lane loads: the position-independent sB (as_position_independent_swizzle_tensor: the swizzle acts on
  the byte offset in the buffer) at the element's coordinate;
- the byte it stores to: gmma_sB at the same coordinate, position-independent in the TMA mainloop, a swizzled
  pointer (the swizzle on the absolute address) in the cp.async one;
- the byte the writer put the element at (TMA's hardware model; the cp.async copy's partition_D through the
  position-dependent sB_) and the byte wgmma's descriptor reads it from (the descriptor model).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...cute import gmma as G
from ...cute.transpose import Refused, Transposition, transposition
from ...hardware import tma as TMA
from ...specfile.model import CopyAtomSpec, MMAAtomSpec, common_fields
from ...symbolic.expr import Expr, ExprLike, Var, const
from ...symbolic.layouts import swizzle_expr
from ..cute_objects import wgmma_a_from_shared
from ..smem_mma.config import SmemMmaCheck
from ..smem_mma.setup import SMEM_BYTES, Sm90Setup, build
from .config import TransposeCheck

if TYPE_CHECKING:
    from ...cute.gmma import SmemTile

TRANSPOSE_COPY = "DefaultCopy"      # Copy_Atom<DefaultCopy, ElementB>: the transposition's loads and stores


@dataclass
class TransposeSetup:
    check: TransposeCheck
    atom: MMAAtomSpec
    written: Sm90Setup                   # SmemLayoutB: what TMA / cp.async writes and the transposition loads
    read: Sm90Setup                      # GmmaSmemLayoutB: what the transposition stores and the descriptor reads
    transposition: Transposition | Refused | str
    warpgroups: int
    align: int
    base_var: Var = field(default_factory=lambda: Var("base", 1))
    mainloop: tuple[str, str, str] | None = None   # the RS mainloop refuses the check: (rule, what it was given, field)

    @property
    def stages(self) -> int:
        return self.written.stages

    @property
    def extent(self) -> tuple[int, int]:
        return self.written.extent

    @property
    def elem_bytes(self) -> int:
        return self.written.elem_bytes

    @property
    def store_position_independent(self) -> bool:
        """gmma_sB is made position-independent by the TMA mainloop, not by the cp.async one."""
        return self.check.by_tma

    def base(self) -> Expr:
        """The buffer's byte address: every multiple of `align` whose buffer fits shared memory."""
        return self.base_var * self.align

    def load_address(self, base: ExprLike, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte the transposition loads (n, k, stage) from: the position-independent sB."""
        return _relative(self.written, base, n, k, stage)

    def store_address(self, base: ExprLike, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte the transposition stores (n, k, stage) to: gmma_sB as the mainloop makes it."""
        if self.store_position_independent:
            return _relative(self.read, base, n, k, stage)
        return _absolute(self.read, base, n, k, stage)

    def written_address(self, base: ExprLike, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte the writer put (n, k, stage) at: TMA's hardware model, or the cp.async copy's partition_D of the
        position-dependent sB_ (the swizzle on the absolute address)."""
        if self.written.boxes is not None and self.written.tensor_map is not None:
            return self.written.tma_address(base, n, k, stage)
        return _absolute(self.written, base, n, k, stage)

    def descriptor_address(self, base: ExprLike, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte wgmma reads as B(n, k) of `stage` through the descriptor of n's slice along N and k's k-block."""
        r = self.read
        rows, k_instr = r.rows, r.k_instr
        start = r.slice_start(base, const(n) // rows, const(k) // k_instr, stage)
        return r.read_address(start, const(n) % rows, const(k) % k_instr)


def _tile(setup: Sm90Setup) -> SmemTile:
    assert setup.tile is not None
    return setup.tile


def _offset_bytes(setup: Sm90Setup, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
    return const(_tile(setup).offset(const(n), const(k), const(stage))) * setup.elem_bytes


def _relative(setup: Sm90Setup, base: ExprLike, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
    """base + swizzle(offset bytes): a position-independent tensor's element."""
    tile = _tile(setup)
    offset = _offset_bytes(setup, n, k, stage)
    sw = tile.byte_swizzle
    return const(base) + (swizzle_expr(sw, offset) if tile.swizzle_bits else offset)


def _absolute(setup: Sm90Setup, base: ExprLike, n: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
    """swizzle(base + offset bytes): a swizzled pointer's element (CuTe's smem_ptr with its swizzle)."""
    tile = _tile(setup)
    addr = const(base) + _offset_bytes(setup, n, k, stage)
    return swizzle_expr(tile.byte_swizzle, addr) if tile.swizzle_bits else addr


def _smem_check(check: TransposeCheck, copy: str, smem: object, absolute: bool, gmem: object, align: int,
                no_descriptor: bool) -> SmemMmaCheck:
    fields = {**common_fields(check), "copy": copy, "operand": check.transposed}
    return SmemMmaCheck(**fields, smem=smem, gmem=gmem, smem_absolute=absolute, smem_align=align,
                        register_sourced=no_descriptor)


def _swizzle_repeat(setup: Sm90Setup) -> int:
    return setup.tile.repeat if setup.tile is not None else 0


def build_transpose(check: TransposeCheck, atom: MMAAtomSpec, writer: CopyAtomSpec | None) -> TransposeSetup:
    """Both tiles and the transposition, read off the check (`writer`: the cp.async atom that fills `smem`, None
    for TMA)."""
    def tiles(align: int) -> tuple[Sm90Setup, Sm90Setup]:
        # the written tile: TMA's or the copy's, no descriptor reads it (register_sourced: the smem_mma kind's "no
        # descriptor" form); the transposed tile: read through the descriptor, written by the transposition
        written = build(_smem_check(check, check.copy, check.smem, check.smem_absolute, check.gmem, align, True),
                        atom, writer)
        read = build(_smem_check(check, TRANSPOSE_COPY, check.gmma_smem, check.gmma_smem_absolute, None, align,
                                 False), atom, None)
        return written, read
    align = check.smem_align or TMA.SMEM_ALIGN
    written, read = tiles(align)
    if check.smem_align is None:          # CUTLASS's alignment_for_swizzle of both layouts, at least 128 bytes
        align = max(TMA.SMEM_ALIGN, _swizzle_repeat(written), _swizzle_repeat(read))
        written, read = tiles(align)
    warpgroups = 1
    if isinstance(check.atom_layout, tuple):
        for x in check.atom_layout:
            warpgroups *= x
    elif check.atom_layout is not None:
        warpgroups = int(check.atom_layout.size())
    bits = check.value_type.bits if check.value_type is not None else 0
    t: Transposition | Refused | str
    if written.tile is None or read.tile is None:
        t = f"the shared tiles are no tiles TMA and wgmma know: {written.tile_problem or read.tile_problem}"
    else:
        n, k = written.extent
        mn_major = n == 1 or written.tile.offset(1, 0) - written.tile.offset(0, 0) == 1    # N contiguous
        t = transposition(bits, warpgroups, n, k, read.k_instr, written.tile.swizzle.span, check.by_tma, mn_major)
    s = TransposeSetup(check, atom, written, read, t, warpgroups, align)
    # the transposition runs in CUTLASS's RS mainloops: their own asserts (k-blocks: the TMA form's mma() only)
    k_blocks = written.extent[1] // read.k_instr if read.k_instr else 0
    s.mainloop = G.rs_mainloop_refusal(written.stages, wgmma_a_from_shared(atom), k_blocks,
                                       G.RS_MIN_K_BLOCKS if check.by_tma else 0)
    footprint = max(written.footprint_bytes if written.tile is not None else 0,
                    read.footprint_bytes if read.tile is not None else 0)
    span = max(1, (SMEM_BYTES - footprint) // align + 1) if footprint <= SMEM_BYTES else 1
    s.base_var = Var("base", span)
    return s
