"""The concrete objects of a shared-memory MMA check, built once: the instruction reading the operand, the operand's
shared tile, the TMA boxes make_tma_copy uses to fill it, the tensor map, and the descriptor CuTe builds to read it.

This part is architecture-neutral: the instruction (Hopper's wgmma, Blackwell's tcgen05.mma) is reached through the
Protocols of arch.py, implemented by sm90.py (make_gmma_desc, hardware/gmma_desc.py) and sm100.py (make_umma_desc,
hardware/umma_desc.py); `build` picks one from the atom's instruction and imports only it.

The theorems (theorems.py) quantify over the base address of the buffer, the pipeline stage, the
instruction slice and the element; everything here is exact and computed before any solver runs.  Problems
CuTe or the driver would meet are kept as data (`tile_problem`, `gmem_problem`) for the theorems to report, so
that one wrong field does not hide what the other theorems can still say.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ...algebra.inttuple import AlgebraError, flatten_to_tuple
from ...algebra import functions as F
from ...algebra.layout import Layout
from ...algebra.ops import coalesce
from ...algebra.swizzle import ComposedLayout
from ...algebra.swizzle import require_nonnegative_strides
from ...cute.gmma import Refused, SmemTile, TmaBoxes, atom_major, builder_swizzle_rules, descriptor_slice, tma_boxes
from ...cute.operand import Operand
from ...hardware import tma as TMA
from ...hardware.base import CopyModel
from ...hardware.shared_memory import SM90_BLOCK_SHARED_BYTES
from ...hardware.smem_operand import GmmaSwizzle, Major
from ...specfile.model import CopyAtomSpec, MMAAtomSpec, ValueType
from ...symbolic.expr import Expr, ExprLike, Var, const
from ...symbolic.layouts import layout_expr, swizzle_expr
from .arch import Architecture, DescriptorFields, TileDescriptor, architecture

if TYPE_CHECKING:
    from .config import SmemMmaCheck     # the kind's configuration (a CheckSpec with the smem_mma fields)

WGMMA, TCGEN05 = "wgmma", "tcgen05.mma"

SMEM_BYTES = SM90_BLOCK_SHARED_BYTES   # the most shared memory a CTA's buffers can span (sm_90 and sm_100 alike)
# (the tile's swizzle, its atomicity in bytes) -> the tensor map's swizzle that writes the same bytes
TMA_SWIZZLE = {(GmmaSwizzle.NONE, 16): TMA.TmaSwizzle.NONE, (GmmaSwizzle.B32, 16): TMA.TmaSwizzle.B32,
               (GmmaSwizzle.B64, 16): TMA.TmaSwizzle.B64, (GmmaSwizzle.B128, 16): TMA.TmaSwizzle.B128,
               (GmmaSwizzle.B128, 32): TMA.TmaSwizzle.B128_ATOM_32B}


@dataclass(frozen=True)
class AtomSide:
    """What a shared-memory MMA check's build and theorems read of its MMA atom for its operand: `build` reads the
    atom through this alone, and the theorems read `Sm90Setup.atom` only to name it in a refutation's suspect, so
    two checks whose atoms agree here (a wgmma A of any N) and whose own fields agree decide alike (the kind's
    shared group, kind.py)."""
    arch: Architecture                    # the instruction family that reads the operand through the descriptor
    rows: int                             # M (A) or N (B) rows of one instruction (one CTA's share of them)
    k: int                                # K of one instruction, in logical elements
    major: Major | None                   # the operand's major-ness as the atom's name gives it
    sparsity: int                         # logical elements one stored element stands for (2: a sparse A)
    cta_group: int                        # CTAs one instruction spans
    operand_type: ValueType | None        # the MMA's type of the operand (theorem 12)


def atom_side(atom: MMAAtomSpec, operand: Operand) -> AtomSide:
    """What `build` reads of `atom` for `operand`."""
    arch = architecture(atom)
    return AtomSide(arch, arch.rows(atom, operand), atom.shape_mnk[2], atom_major(atom.name, operand),
                    arch.sparsity(atom, operand), arch.cta_group(atom), atom.types.get(operand.value.lower()))


STAGE_START = "stage_start"


@dataclass(frozen=True)
class StageStart:
    """The stages of a buffer whose every stage is its stage 0 moved by `step` multiples of the alignment (a GMMA
    layout's stage mode of one stride, the swizzle reading absolute addresses): each claim of one stage at base b
    (the theorems' addresses depend on the base and the stage only through base + smem_layout(mn, k, stage), which
    is b * align + smem_layout(mn, k, 0) + stage * step * align) is the claim of a one-stage buffer starting at
    `start` = b + step * stage.  `start` ranges over every such value: from 0 to the last base plus step * (stages
    - 1), without gaps (step is at most the number of bases), so the one-stage claim over `start` holds exactly
    when the claim over (base, stage) does, and two buffers of the same stage 0 but different stage counts have
    the same one-stage claims."""
    start: Var                # the stage's first byte, in multiples of the alignment
    step: int                 # multiples of the alignment from one stage to the next


@dataclass
class Sm90Setup:
    check: SmemMmaCheck
    atom: MMAAtomSpec                     # named in a refutation's suspects; what is read of it is `side`
    side: AtomSide
    operand: Operand                      # A or B: the operand TMA fills and the descriptor reads
    rows: int                             # M (A) or N (B) rows of one instruction (one CTA's share of them)
    k_instr: int                          # K of one instruction
    elem_bytes: int
    major: Major
    major_source: str                     # where the major-ness came from, in words
    tile: SmemTile | None
    tile_problem: str | None              # why the smem layout is no tile TMA and the tensor core know
    gmem: Layout | None                   # the global tensor TMA reads (None: the threads fill the tile)
    inner_mode: int | None                # the gmem mode of stride 1 (the tensor map's dimension 0)
    gmem_problem: str | None
    cta_group: int = 1                    # CTAs one instruction spans (tcgen05 .cta_group::2: each reads half)
    boxes: TmaBoxes | None = None
    tensor_map: TMA.TensorMap2D | None = None
    align: int = TMA.SMEM_ALIGN
    built: TileDescriptor | None = None   # what make_gmma_desc / make_umma_desc builds for slice (0, 0), stage 0
    reader: TileDescriptor | None = None  # ... with the check's overrides: the one the tensor core reads through
    overrides: dict[str, int] = field(default_factory=dict)
    base_var: Var = field(default_factory=lambda: Var("base", 1))
    writer: CopyModel | None = None       # a copy through the tile's layout: the instruction that writes it
    smem: Any = None                      # the shared layout the theorems read: the check's, or (packed sub-byte
                                          # elements) its bytes, upcast<pack>
    pack: int = 1                         # elements one byte of `smem` holds (2: packed 4-bit elements)
    subbyte_map: TMA.TensorMapND | None = None    # a 4- or 6-bit operand's tensor map, in the driver's packed type
    # CuTe's builders, where the check lets CuTe build (no 'tma_box', no 'descriptor'): the static_assert with which
    # make_tma_copy refuses the shared layout's swizzle, and with which make_gmma_desc / make_umma_desc refuse the
    # slice they are given (its swizzle or its canonical form), each with what it met
    tma_rule: Refused | None = None
    desc_rule: Refused | None = None

    @property
    def by_tma(self) -> bool:
        """TMA fills the tile; otherwise the threads write it through its layout (theorems 13, 14, 16 do not apply)."""
        return self.check.by_tma

    @property
    def arch(self) -> Architecture:
        """The instruction that reads the operand through the descriptor."""
        return self.side.arch

    @property
    def layout_tma_swizzle(self) -> TMA.TmaSwizzle | None:
        """The tensor map's swizzle that writes the bytes the tile's own swizzle places (make_tma_copy's), if any."""
        return TMA_SWIZZLE.get((self.tile.swizzle, self.tile.chunk_bytes)) if self.tile is not None else None

    # -- names -------------------------------------------------------------------------------------------------
    @property
    def engine(self) -> str:
        """The instruction family that reads the operand through the descriptor."""
        return self.arch.engine

    @property
    def desc_builder(self) -> str:
        return self.arch.builder

    @property
    def umma(self) -> bool:
        """The atom issues tcgen05.mma: the UMMA descriptor reads the tile."""
        return self.arch.engine == TCGEN05

    @property
    def derived(self) -> DescriptorFields | None:
        """The fields of what the builder makes for slice (0, 0), stage 0."""
        return self.built.fields if self.built is not None else None

    @property
    def descriptor(self) -> DescriptorFields | None:
        """The fields the tensor core reads through (the builder's, with the check's overrides)."""
        return self.reader.fields if self.reader is not None else None

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

    @cached_property
    def stage_start(self) -> StageStart | None:
        """The buffer's stages as translates of its stage 0, when they are: `StageStart`; None otherwise (read once
        the setup is built)."""
        tile = self.tile
        if tile is None or not self.absolute or tile.inner.rank() <= 2 or self.footprint_bytes > SMEM_BYTES:
            return None
        stride = tile.offset(0, 0, 1) if self.stages > 1 else 0       # elements from one stage to the next
        if any(tile.offset(0, 0, s) != s * stride for s in range(self.stages)):
            return None
        if stride * self.elem_bytes % self.align:
            return None
        step = stride * self.elem_bytes // self.align
        if step > self.base_var.size:          # the stages' starts would leave gaps: not every start is one
            return None
        return StageStart(Var(STAGE_START, self.base_var.size + (self.stages - 1) * step), step)

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
        return const(base) + layout_expr(self.smem, coord) * e

    def box_origin(self, bi: ExprLike, bo: ExprLike) -> tuple[ExprLike, ExprLike]:
        """(mn, k) of the first element of box (bi along the inner dimension, bo along the outer)."""
        return self._box_corner(const(bi), const(bo))

    def _box_corner(self, bi: Any, bo: Any) -> tuple[Any, Any]:
        """`box_origin` on integers or expressions as given."""
        assert self.boxes is not None
        n0, n1 = self.boxes.box
        inner, outer = bi * n0, bo * n1
        return (inner, outer) if self.boxes.inner_mode == 0 else (outer, inner)

    def box_destination(self, base: ExprLike, bi: ExprLike, bo: ExprLike, stage: ExprLike) -> Expr:
        """The shared address make_tma_copy gives the box: the layout's offset of its first element, unswizzled."""
        assert self.tile is not None
        mn, k = self.box_origin(bi, bo)
        coord = (mn, k, stage) if self.tile.inner.rank() > 2 else (mn, k)
        return const(base) + layout_expr(self.tile.inner, coord) * self.elem_bytes

    def box_offset(self, bi: int, bo: int, stage: int) -> int:
        """`box_destination` at base 0 on integers: the bytes from the buffer's start to box (bi, bo) of `stage`."""
        assert self.tile is not None
        mn, k = self._box_corner(bi, bo)
        return int(self.tile.offset(mn, k, stage)) * self.elem_bytes

    def tma_address(self, base: ExprLike, mn: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """The byte TMA writes tile element (mn, k) of `stage` to (the hardware model, tma.py)."""
        assert self.tensor_map is not None
        addr: Expr = TMA.swizzle_address(self.tensor_map.swizzle, self.tma_unswizzled(base, mn, k, stage))
        return addr

    def tma_unswizzled(self, base: ExprLike, mn: ExprLike, k: ExprLike, stage: ExprLike) -> Expr:
        """`tma_address` before TMA's swizzle of the absolute address (tma.smem_unswizzled)."""
        assert self.boxes is not None and self.tensor_map is not None
        n0, n1 = self.boxes.box
        inner, outer = (const(mn), const(k)) if self.boxes.inner_mode == 0 else (const(k), const(mn))
        dst = self.box_destination(base, inner // n0, outer // n1, stage)
        addr: Expr = TMA.smem_unswizzled(self.tensor_map, dst, outer % n1, inner % n0)
        return addr

    def slice_start(self, base: ExprLike, w: ExprLike, kb: ExprLike, stage: ExprLike) -> Expr:
        """The descriptor's start address for instruction slice (w along MN, kb along K) of `stage`."""
        assert self.tile is not None
        mn0, k0 = const(w) * self.rows, const(kb) * self.k_instr
        coord = (mn0, k0, stage) if self.tile.inner.rank() > 2 else (mn0, k0)
        return const(base) + layout_expr(self.tile.inner, coord) * self.elem_bytes

    def read_address(self, start: ExprLike, i: ExprLike, j: ExprLike) -> Expr:
        """The byte the tensor core reads as element (i, j) of its operand (A(m,k) / B(n,k)) through the descriptor."""
        assert self.reader is not None
        return self.reader.read_address(self.major, i, j, self.elem_bytes, start)

    def unswizzled_offset(self, i: int, j: int) -> int:
        """Bytes from the slice's start to element (i, j) before the descriptor's swizzle (concrete)."""
        assert self.reader is not None
        return self.reader.unswizzled_offset(self.major, i, j, self.elem_bytes)

    @property
    def descriptor_chunk_shift(self) -> int:
        """log2 of the bytes the descriptor's swizzle moves together (4; 5 for tcgen05's 128B_BASE32B)."""
        return (self.reader.chunk_bytes if self.reader is not None else 16).bit_length() - 1


def _inner_mode(gmem: Layout) -> tuple[int | None, str | None]:
    modes = [gmem.mode(i) for i in range(gmem.rank())]
    if any(len(flatten_to_tuple(m.shape)) != 1 for m in modes):
        return None, (f"the global tensor {gmem} has a nested mode; a 2-D tensor map has one extent and one stride "
                      "per dimension")
    unit = [i for i, m in enumerate(modes) if int(flatten_to_tuple(m.stride)[0]) == 1]
    if not unit:
        return None, f"the global tensor {gmem} has no mode of stride 1: TMA's dimension 0 must be contiguous"
    return unit[0], None


BYTE_BITS = 8
# (element bits, packed two a byte in shared memory) -> the CUtensorMapDataType TMA loads the operand with
# (CUTLASS's to_CUtensorMapDataType, cute/arch/copy_sm90_desc.hpp): an unpacked element takes one byte of shared
# memory, 16 elements a 16-byte slot (8 or 12 data bytes, then padding), as tcgen05.mma reads them
SUBBYTE_TMA_TYPES = {(4, False): "16U4_ALIGN16B", (6, False): "16U6_ALIGN16B", (4, True): "16U4_ALIGN8B"}


def packed_problem(layout: object, pack: int, bits: int) -> str | None:
    """Why a layout of `bits`-bit elements does not keep each byte's `pack` elements together (CuTe's recast to bytes
    would split one): every stride is 0, a multiple of `pack`, or 1 over a multiple of `pack` elements; None when it
    does."""
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    assert isinstance(inner, Layout)
    for shape, stride in zip(flatten_to_tuple(inner.shape), flatten_to_tuple(inner.stride)):
        d, n = int(stride), int(shape)
        if d != 0 and n > 1 and d % pack and not (abs(d) == 1 and n % pack == 0):
            return (f"{bits}-bit elements are read {pack} a byte; the layout {inner} puts a mode of {n} at stride {d}, "
                    "which splits a byte")
    return None


def sparse_problem(layout: object, sparsity: int, bits: int, name: str, unit_bits: int | None) -> str | None:
    """Why a structured-sparse A's shared layout is no logical layout of its stored elements, or None.  CuTe writes
    it in logical units (GMMA::Layout_*_SpAtom<T, S>: smem_sparse_ptr_flag_bits<S, bits(T)>, each stored T standing
    for S adjacent logical elements along K); a sparse pointer reads logical offset i at stored element i / S, so the
    S logical elements of one stored element must take adjacent offsets."""
    unit = max(1, bits // sparsity)
    if unit_bits is not None and unit_bits != unit:
        return (f"the layout is in units of {unit_bits} bits, not the {unit}-bit logical elements of the sparse A "
                f"(sparse_elem<{sparsity}, {name}>): a sparse A's layout is CuTe's GMMA::Layout_*_SpAtom<{name}, "
                f"{sparsity}> over the logical (M, K), whose stored tile is M x K/{sparsity}")
    split = packed_problem(layout, sparsity, bits)
    if split is not None:
        return (f"each stored {name} of the sparse A stands for {sparsity} adjacent logical elements along K: "
                + split.split("; ", 1)[-1].replace("splits a byte", f"splits a stored {name}"))
    return None


def _recast_global(gmem: Layout | None, n: int) -> tuple[Layout | None, str | None]:
    """The global tensor in stored elements (CuTe's upcast<n>, n logical elements a stored one), or it unchanged and
    why CuTe refuses (a stride that splits a stored element)."""
    if gmem is None:
        return None, None
    try:
        return F.upcast(gmem, n), None
    except AlgebraError as e:
        return gmem, f"CuTe's recast of the global tensor {gmem} to its stored elements refuses it ({e})"


def atoms_along_mn(check: SmemMmaCheck) -> int:
    """How many atoms make_tiled_mma's atom layout puts along the operand's M (A) or N (B) mode: theorem 15 reads it
    (they must share the tile's instruction slices evenly), so the descriptor path's group keys on it."""
    layout, index = check.atom_layout, 0 if (check.operand or "A").upper() == "A" else 1
    if layout is None:
        return 1
    if isinstance(layout, tuple):
        return int(layout[index]) if len(layout) > index else 1
    return int(layout.mode(index).size()) if layout.rank() > index else 1


def build(check: SmemMmaCheck, atom: MMAAtomSpec, writer: CopyAtomSpec | None = None) -> Sm90Setup:
    """Everything a shared-memory MMA check's theorems need, read off the check and CuTe's derivations (`writer`:
    the copy atom that fills the tile through its layout, when it is not TMA)."""
    assert check.value_type is not None and check.operand is not None
    require_nonnegative_strides(check.smem, "the shared-memory layout")
    op = Operand.of(check.operand)
    side = atom_side(atom, op)
    arch, k, rows = side.arch, side.k, side.rows
    bits = check.value_type.smem_bits      # an unpacked 4- or 6-bit element: a byte of shared memory
    named = side.major
    spec_major = Major(check.major) if check.major else None
    major = named or spec_major or Major.K
    source = ("the atom's name" if named else "the check's 'major'" if spec_major else "the default (K)")
    smem, gmem = check.smem, check.gmem
    pack = 1
    recast_problem: str | None = None      # CuTe's refusal to recast the global tensor to the stored elements
    tile: SmemTile | str
    sparsity = side.sparsity
    if sparsity > 1:                       # a structured-sparse A: CuTe's layouts are logical, the tile is stored
        split = sparse_problem(smem, sparsity, bits, check.value_type.name, check.smem_unit_bits)
        if split is None:                  # recast<T> as CuTe's TMA and descriptor do: the stored M x K/S tile
            smem = F.upcast(smem, sparsity)
            gmem, recast_problem = _recast_global(gmem, sparsity)
            gmem = coalesce(gmem, (1, 1)) if gmem is not None and recast_problem is None else gmem
            k //= sparsity
            tile = arch.tile(smem, bits, check.smem_absolute)
        else:
            tile = split
    elif bits < BYTE_BITS:                 # packed sub-byte elements: the checks read whole bytes of them
        pack = BYTE_BITS // bits
        split = packed_problem(smem, pack, bits) if BYTE_BITS % bits == 0 else f"{bits}-bit elements fill no byte"
        if split is None:
            smem = F.upcast(smem, pack)
            gmem, recast_problem = _recast_global(gmem, pack)
            rows, k = (rows, k // pack) if major is Major.K else (rows // pack, k)
            tile = arch.tile(smem, BYTE_BITS, check.smem_absolute)
        else:
            tile = split
        bits = BYTE_BITS
    else:
        tile = arch.tile(smem, bits, check.smem_absolute)
    problem = tile if isinstance(tile, str) else None
    inner_mode, gmem_problem = _inner_mode(gmem) if gmem is not None and recast_problem is None else (None,
                                                                                                        recast_problem)
    s = Sm90Setup(check, atom, side, op, rows, k, max(1, bits // 8), major, source,
                  None if isinstance(tile, str) else tile, problem, gmem, inner_mode, gmem_problem,
                  cta_group=side.cta_group, smem=smem, pack=pack)
    cute_bits = check.value_type.smem_bits // sparsity      # the units of the check's layout, as CuTe types them
    # (a layout written in other units than the value type's, smem_ptr[Nb], has its swizzle on those)
    tma_rule, desc_rule = builder_swizzle_rules(check.smem, check.smem_unit_bits or cute_bits, check.smem_absolute,
                                                arch.swizzles, arch.builder)
    # a box or swizzle the check gives is not make_tma_copy's derivation from this layout: its rule does not apply
    s.tma_rule = tma_rule if check.by_tma and check.tma_box is None and check.tma_swizzle is None else None
    builds_descriptor = not check.register_sourced and not check.descriptor
    s.desc_rule = desc_rule if builds_descriptor else None
    if writer is not None:
        from ..cute_objects import copy_model_for
        s.writer = copy_model_for(writer, value_bits=bits)   # an element-wise copy moves the check's value type
    if s.tile is None:
        return s
    s.align = check.smem_align or TMA.SMEM_ALIGN
    span = max(1, (SMEM_BYTES - s.footprint_bytes) // s.align + 1) if s.footprint_bytes <= SMEM_BYTES else 1
    s.base_var = Var("base", span)
    if gmem is not None and inner_mode is not None:
        s.boxes = (TmaBoxes(check.tma_box, inner_mode, ()) if check.tma_box is not None
                   else tma_boxes(s.tile, inner_mode, inner_limit=TMA.BOX_LIMIT // pack))
        e = s.elem_bytes
        outer = gmem.mode(1 - inner_mode)
        swizzle = check.tma_swizzle or s.layout_tma_swizzle
        assert swizzle is not None
        global_dim = (int(gmem.mode(inner_mode).size()), int(outer.size()))
        row = int(flatten_to_tuple(outer.stride)[0])
        s.tensor_map = TMA.TensorMap2D(elem_bytes=e, box=s.boxes.box, swizzle=swizzle, global_dim=global_dim,
                                       global_stride=row * e)
        payload = check.value_type.bits
        # the driver's packed type (elements counted singly, global rows packed) — but SM90's mixed-input mainloop
        # loads a sub-byte A for its registers as bytes (TmaElementA = uint8_t): the byte map above is its own
        dtype = None if check.register_sourced else SUBBYTE_TMA_TYPES.get((payload, pack > 1))
        if dtype is not None:
            s.subbyte_map = TMA.TensorMapND(
                dtype, (s.boxes.box[0] * pack, s.boxes.box[1]), (global_dim[0] * pack, global_dim[1]),
                (row * pack * payload // BYTE_BITS,), swizzle)
    if s.tile.extent[0] >= rows and s.tile.extent[1] >= k and not check.register_sourced:
        s.overrides = dict(check.descriptor)
        s.built = arch.descriptor(s.tile, major, (0, 0), 0, (rows, k))
        s.reader = s.built.overridden(s.overrides)
        if builds_descriptor and s.desc_rule is None:
            s.desc_rule = arch.builder_rule(descriptor_slice(check.smem, side.rows, side.k), cute_bits, major, s.tile)
    return s


def build_sm90(check: SmemMmaCheck, atom: MMAAtomSpec, writer: CopyAtomSpec | None = None) -> Sm90Setup:
    """`build`, under the name the callers know (the check may be Hopper's or Blackwell's)."""
    return build(check, atom, writer)
