"""The concrete objects of a Hopper check, built once: the wgmma instruction, the operand's shared tile, the TMA
boxes make_tma_copy uses to fill it, the tensor map, and the descriptor make_gmma_desc builds to read it.  A check
whose atom issues tcgen05.mma (Blackwell's UMMA) is built the same way with the UMMA descriptor instead: the one
make_umma_desc builds (cute/umma.py), read by the tcgen05 descriptor model (hardware/umma_desc.py); its M/N/K come
from the atom's shape and its CTA group, never from an instruction model.

The theorems (sm90_theorems.py) quantify over the base address of the buffer, the pipeline stage, the
instruction slice and the element; everything here is exact and computed before any solver runs.  Problems
CuTe or the driver would meet are kept as data (`tile_problem`, `gmem_problem`) for the theorems to report, so
that one wrong field does not hide what the other theorems can still say.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...algebra.inttuple import flatten_to_tuple
from ...algebra.layout import Layout
from ...cute.gmma import SmemTile, TmaBoxes, atom_major, gmma_descriptor, smem_tile, tma_boxes
from ...cute.operand import Operand
from ...cute.umma import cta_group, is_umma, operand_rows, umma_descriptor
from ...hardware import gmma_desc as GD
from ...hardware import tma as TMA
from ...hardware import umma_desc as UD
from ...hardware.base import MMAModel
from ...hardware.gmma_desc import Descriptor, GmmaSwizzle, Major
from ...hardware.umma_desc import UmmaDescriptor, UmmaLayoutType
from ...hardware.registry import mma_instruction_model
from ...specfile.model import CheckSpec, MMAAtomSpec
from ...symbolic.expr import Expr, ExprLike, Var, const
from ...symbolic.layouts import layout_expr, swizzle_expr

AnyDescriptor = Descriptor | UmmaDescriptor     # wgmma's, or tcgen05.mma's
WGMMA, TCGEN05 = "wgmma", "tcgen05.mma"

SMEM_BYTES = 228 * 1024          # shared memory of one SM on sm_90 (the most a CTA's buffers can span)
TMA_SWIZZLE = {GmmaSwizzle.NONE: TMA.TmaSwizzle.NONE, GmmaSwizzle.B32: TMA.TmaSwizzle.B32,
               GmmaSwizzle.B64: TMA.TmaSwizzle.B64, GmmaSwizzle.B128: TMA.TmaSwizzle.B128}


@dataclass
class Sm90Setup:
    check: CheckSpec
    atom: MMAAtomSpec
    model: MMAModel | None
    operand: Operand                      # A or B: the operand TMA fills and the descriptor reads
    rows: int                             # M (A) or N (B) rows of one instruction
    k_instr: int                          # K of one instruction
    elem_bytes: int
    major: Major
    major_source: str                     # where the major-ness came from, in words
    tile: SmemTile | None
    tile_problem: str | None              # why the smem layout is no tile TMA and wgmma know
    gmem: Layout
    inner_mode: int | None                # the gmem mode of stride 1 (the tensor map's dimension 0)
    gmem_problem: str | None
    boxes: TmaBoxes | None = None
    tensor_map: TMA.TensorMap2D | None = None
    align: int = TMA.SMEM_ALIGN
    derived: AnyDescriptor | None = None     # what make_gmma_desc / make_umma_desc builds for slice (0, 0), stage 0
    descriptor: AnyDescriptor | None = None  # ... with the check's overrides
    overrides: dict[str, int] = field(default_factory=dict)
    base_var: Var = field(default_factory=lambda: Var("base", 1))
    umma: bool = False                    # the atom issues tcgen05.mma: the UMMA descriptor reads the tile
    cta_group: int = 1                    # CTAs one instruction spans (tcgen05 .cta_group::2: each reads half)

    # -- names -------------------------------------------------------------------------------------------------
    @property
    def engine(self) -> str:
        """The instruction family that reads the operand through the descriptor."""
        return TCGEN05 if self.umma else WGMMA

    @property
    def desc_builder(self) -> str:
        return "make_umma_desc" if self.umma else "make_gmma_desc"

    # -- sizes ---------------------------------------------------------------------------------------------
    @property
    def extent(self) -> tuple[int, int]:
        assert self.tile is not None
        return self.tile.extent

    @property
    def stages(self) -> int:
        return self.tile.stages if self.tile is not None else 1

    @property
    def slices(self) -> tuple[int, int]:
        """Instruction slices of one stage: (along MN, along K)."""
        mn, k = self.extent
        return max(1, mn // self.rows), max(1, k // self.k_instr)

    @property
    def footprint_bytes(self) -> int:
        assert self.tile is not None
        return int(self.tile.inner.cosize()) * self.elem_bytes

    @property
    def absolute(self) -> bool:
        return self.check.smem_absolute

    @property
    def swizzle(self) -> GmmaSwizzle:
        return self.tile.swizzle if self.tile is not None else GmmaSwizzle.NONE

    def base(self) -> Expr:
        """The buffer's byte address: every multiple of `align` whose buffer fits shared memory."""
        return self.base_var * self.align

    # -- addresses (expressions or ints) --------------------------------------------------------------------
    def layout_address(self, base: ExprLike, mn: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte CuTe's layout assigns to (mn, k, stage): `base + smem_layout(mn,k,stage) * sizeof(T)`, the
        swizzle applied to the absolute address for a GMMA smem_ptr layout, to the offset otherwise."""
        assert self.tile is not None
        e = self.elem_bytes
        coord = (mn, k, stage) if self.tile.inner.rank() > 2 else (mn, k)
        if self.absolute:
            addr = const(base) + layout_expr(self.tile.inner, coord) * e
            sw = self.tile.byte_swizzle
            return swizzle_expr(sw, addr) if sw.B else addr
        return const(base) + layout_expr(self.check.smem, coord) * e

    def box_origin(self, bi: ExprLike, bo: ExprLike) -> tuple[ExprLike, ExprLike]:
        """(mn, k) of the first element of box (bi along the inner dimension, bo along the outer)."""
        assert self.boxes is not None
        n0, n1 = self.boxes.box
        inner, outer = const(bi) * n0, const(bo) * n1
        return (inner, outer) if self.boxes.inner_mode == 0 else (outer, inner)

    def box_destination(self, base: ExprLike, bi: ExprLike, bo: ExprLike, stage: ExprLike) -> Expr:
        """The shared address make_tma_copy gives the box: the layout's offset of its first element, unswizzled."""
        assert self.tile is not None
        mn, k = self.box_origin(bi, bo)
        coord = (mn, k, stage) if self.tile.inner.rank() > 2 else (mn, k)
        return const(base) + layout_expr(self.tile.inner, coord) * self.elem_bytes

    def tma_address(self, base: ExprLike, mn: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte TMA writes tile element (mn, k) of `stage` to (the hardware model, tma.py)."""
        assert self.boxes is not None and self.tensor_map is not None
        n0, n1 = self.boxes.box
        inner, outer = (const(mn), const(k)) if self.boxes.inner_mode == 0 else (const(k), const(mn))
        dst = self.box_destination(base, inner // n0, outer // n1, stage)
        return TMA.smem_address(self.tensor_map, dst, outer % n1, inner % n0)   # type: ignore[arg-type]

    def slice_start(self, base: ExprLike, w: ExprLike, kb: ExprLike, stage: ExprLike) -> Expr:
        """The descriptor's start address for instruction slice (w along MN, kb along K) of `stage`."""
        assert self.tile is not None
        mn0, k0 = const(w) * self.rows, const(kb) * self.k_instr
        coord = (mn0, k0, stage) if self.tile.inner.rank() > 2 else (mn0, k0)
        return const(base) + layout_expr(self.tile.inner, coord) * self.elem_bytes

    def read_address(self, start: ExprLike, i: ExprLike, j: ExprLike) -> Expr:
        """The byte the tensor core reads as element (i, j) of its operand (A(m,k) / B(n,k)) through the descriptor."""
        d = self.descriptor
        assert d is not None
        if isinstance(d, UmmaDescriptor):
            return UD.read_address(d, self.major, i, j, self.elem_bytes, start=start)  # type: ignore[no-any-return]
        return GD.read_address(d, self.major, i, j, self.elem_bytes, start=start)  # type: ignore[no-any-return]

    def unswizzled_offset(self, i: int, j: int) -> int:
        """Bytes from the slice's start to element (i, j) before the descriptor's swizzle (concrete)."""
        d = self.descriptor
        assert d is not None
        if isinstance(d, UmmaDescriptor):
            return int(UD.unswizzled_offset(d, self.major, i, j, self.elem_bytes))
        return int(GD.unswizzled_offset(d, self.major, i, j, self.elem_bytes))

    @property
    def descriptor_chunk_shift(self) -> int:
        """log2 of the bytes the descriptor's swizzle moves together (4; 5 for tcgen05's 128B_BASE32B)."""
        d = self.descriptor
        return 5 if isinstance(d, UmmaDescriptor) and d.layout is UmmaLayoutType.B128_BASE32B else 4


def _inner_mode(gmem: Layout) -> tuple[int | None, str | None]:
    modes = [gmem.mode(i) for i in range(gmem.rank())]
    if any(len(flatten_to_tuple(m.shape)) != 1 for m in modes):
        return None, (f"the global tensor {gmem} has a nested mode; a 2-D tensor map has one extent and one stride "
                      "per dimension")
    unit = [i for i, m in enumerate(modes) if int(flatten_to_tuple(m.stride)[0]) == 1]
    if not unit:
        return None, f"the global tensor {gmem} has no mode of stride 1: TMA's dimension 0 must be contiguous"
    return unit[0], None


def build_sm90(check: CheckSpec, atom: MMAAtomSpec) -> Sm90Setup:
    """Everything a Hopper check's theorems need, read off the check and CuTe's derivations."""
    assert check.value_type is not None and check.operand is not None
    op = Operand.of(check.operand)
    umma = is_umma(atom)
    model = None if umma else mma_instruction_model(atom.instruction, atom.name)   # M/N/K: the atom's shape
    m, n, k = atom.shape_mnk
    rows = operand_rows(atom, op) if umma else m if op is Operand.A else n
    bits = check.value_type.bits
    named = atom_major(atom.name, op)
    spec_major = Major(check.major) if check.major else None
    major = named or spec_major or Major.K
    source = (f"the atom {atom.name}" if named else "the check's 'major'" if spec_major else "the default (K)")
    tile = smem_tile(check.smem, bits, check.smem_absolute, umma=umma)
    problem = tile if isinstance(tile, str) else None
    gmem = check.gmem
    inner_mode, gmem_problem = _inner_mode(gmem)
    s = Sm90Setup(check, atom, model, op, rows, k, max(1, bits // 8), major, source,
                  None if isinstance(tile, str) else tile, problem, gmem, inner_mode, gmem_problem,
                  umma=umma, cta_group=cta_group(atom) if umma else 1)
    if s.tile is None:
        return s
    s.align = check.smem_align or TMA.SMEM_ALIGN
    span = max(1, (SMEM_BYTES - s.footprint_bytes) // s.align + 1) if s.footprint_bytes <= SMEM_BYTES else 1
    s.base_var = Var("base", span)
    if inner_mode is not None:
        s.boxes = (TmaBoxes(check.tma_box, inner_mode, ()) if check.tma_box is not None
                   else tma_boxes(s.tile, inner_mode))
        e = s.elem_bytes
        outer = gmem.mode(1 - inner_mode)
        s.tensor_map = TMA.TensorMap2D(
            elem_bytes=e, box=s.boxes.box,
            swizzle=(TMA.TmaSwizzle.B128_ATOM_32B if s.tile.layout_type is UmmaLayoutType.B128_BASE32B
                     else TMA_SWIZZLE[s.tile.swizzle]),
            global_dim=(int(gmem.mode(inner_mode).size()), int(outer.size())),
            global_stride=int(flatten_to_tuple(outer.stride)[0]) * e)
    if s.tile.extent[0] >= rows and s.tile.extent[1] >= k:
        s.overrides = dict(check.descriptor)
        if umma:
            u = umma_descriptor(s.tile, major, (0, 0), 0, (rows, k))
            s.derived = u
            swizzle = s.overrides.get("swizzle")   # given in GMMA naming: the same layout type
            s.descriptor = replace(u, lbo=s.overrides.get("lbo", u.lbo), sbo=s.overrides.get("sbo", u.sbo),
                                   base_offset=s.overrides.get("base_offset", u.base_offset),
                                   layout=u.layout if swizzle is None else UmmaLayoutType.of_gmma(GmmaSwizzle(swizzle)))
        else:
            d = gmma_descriptor(s.tile, major, (0, 0), 0, (rows, k))
            s.derived = d
            s.descriptor = replace(d, lbo=s.overrides.get("lbo", d.lbo), sbo=s.overrides.get("sbo", d.sbo),
                                   base_offset=s.overrides.get("base_offset", d.base_offset),
                                   swizzle=GmmaSwizzle(s.overrides.get("swizzle", int(d.swizzle))))
    return s

