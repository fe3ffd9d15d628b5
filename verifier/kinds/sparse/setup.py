"""The concrete objects of a metadata check, built once: the instruction's sparse type (hardware/wgmma_sparse.py), the
tiled MMA and CuTe's partitions of E over it (cute/sparse.py: make_tiled_copy_E, partition_S of the shared tile, the
register fragment retile_D views), partition_A's slices, and the box make_tma_copy_A_sm90<uint64_t> derives.

Problems CuTe would meet, or the models do not cover, are kept as data for the theorems to report.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Hashable, Protocol

from ...algebra import functions as F
from ...algebra.inttuple import AlgebraError, Underscore, product
from ...algebra.layout import Layout
from ...cute import gmma as G
from ...cute import sparse as SP
from ...cute.tma_basis import TmaRefused
from ...cute.copy import TiledCopy
from ...cute.mma import MMAAtom, TiledMMA, operand_projection
from ...hardware import tma as TMA
from ...hardware import wgmma_sparse as WS
from ...hardware.base import CopyModel
from ...hardware.shared_memory import SM90_BLOCK_SHARED_BYTES
from ...hardware.registry import Instruction
from ...specfile.model import CopyAtomSpec, MMAAtomSpec, ValueType
from ..base import per_atom
from ..cute_objects import copy_atom, copy_model_for, mma_atom
from .config import MetadataCheck

TMA_DTYPE = "uint64"              # make_tma_copy_A_sm90<uint64_t> (make_tma_atom_A_sm100's too)
META_WORD = WS.META_BITS          # recast<uint32_t>: one sp-meta register a wgmma


class MetaLoad(Protocol):
    """What theorem 27 reads of a metadata check's setup, SM90's (MetaSetup) or SM100's (sm100_setup.py): the shared
    tile and its stages, the tiles of the global E and the TMA box CuTe derives for a stage."""
    @property
    def check(self) -> MetadataCheck: ...
    @property
    def e_bits(self) -> int: ...
    @property
    def blk_m(self) -> int: ...
    @property
    def blk_k(self) -> int: ...
    @property
    def stages(self) -> int: ...
    @property
    def tile_index(self) -> Layout: ...
    @property
    def tiles(self) -> tuple[int, int]: ...
    @property
    def tile_problem(self) -> str | None: ...
    @property
    def collective_refusal(self) -> tuple[str, str] | None: ...
    @property
    def type_refusal(self) -> tuple[str, str] | None: ...
    @property
    def tma(self) -> SP.MetaTma | None: ...
    @property
    def tma_problem(self) -> str | None: ...
    @property
    def tma_refusal(self) -> TmaRefused | None: ...
    @property
    def tensor_map(self) -> TMA.TensorMapND | None: ...
    @property
    def stage_stride(self) -> int: ...
    @property
    def footprint_bits(self) -> int: ...
    @property
    def shared_capacity(self) -> int: ...


@dataclass(frozen=True)
class MetadataSide:
    """What a metadata check's build and theorems read of its sparse atom (`metadata_side`): `build` reads the atom
    through this alone, and the theorems read `MetaSetup.atom` only to name it in a suspect -- so two checks whose
    atoms agree here (a wgmma.mma_async.sp of any N) and whose own fields agree decide alike (the kind's shared
    group).  The tiled MMA partitions E and A over the atom's A side (`operand_projection`: its M and K, thread ids
    and A layout); the instruction is read for its sparse type (or why it has none) and named with its N left
    out."""
    atom: MMAAtom                          # CuTe's atom projected on A
    e: Layout | None                       # MMA_Traits::ELayout: (thr, val) -> m + M k, logical elements of A
    e_type: ValueType | None               # the atom's ValTypeE
    sp_sel: int                            # its GMMA::SparseSel
    stype: WS.SparseType | None            # the instruction's sparse type (None: not a wgmma.mma_async.sp)
    instruction_problem: str | None        # ... why not
    instruction: str                       # the instruction, its N left out (`mNnNkK`)
    a_bits: int = 0                        # the atom's A type's bits (Sm90GemmSparseConfig's ElementAMma)
    a_from_registers: bool = False         # an RS atom: A from registers (the sparse collective is SS only)

    def key(self) -> tuple[Hashable, ...]:
        """The side as a `Group.shared` key."""
        from ...algebra.memo import exact_key
        from ..base import content_key
        return (content_key(self.atom, ()), exact_key(self.e), self.e_type, self.sp_sel,
                None if self.stype is None else content_key(self.stype, ()), self.instruction_problem,
                self.instruction, self.a_bits, self.a_from_registers)


WGMMA_N = re.compile(r"(?<=^m64n)\d+(?=k\d+$)")    # N in a wgmma shape qualifier m64nNkK


@per_atom
def metadata_side(atom: MMAAtomSpec) -> MetadataSide:
    """What `build` reads of `atom` (`MetadataSide`), made once for each atom definition."""
    stype, problem = _sparse_type(atom)
    instruction = ".".join(WGMMA_N.sub("N", q) for q in (atom.instruction or "").split("."))
    a_type = atom.types.get("a")
    return MetadataSide(operand_projection(mma_atom(atom), "A"), atom.e, atom.types.get("e"), atom.sp_sel, stype,
                        problem, instruction, a_type.bits if a_type is not None else 0, _a_from_registers(atom))


def _a_from_registers(atom: MMAAtomSpec) -> bool:
    """The sparse wgmma atom takes A from registers (an RS atom: its operand lists, or its name)."""
    from ...hardware.registry import Instruction
    from ...hardware.wgmma import parse_wgmma
    form = parse_wgmma(Instruction.parse(atom.instruction)) if atom.instruction else None
    return form is not None and form.sparse and form.a_in_registers(atom.name)


@dataclass
class MetaSetup:
    check: MetadataCheck
    atom: MMAAtomSpec                      # named in a refutation's suspects: what is read of it is `side`
    side: MetadataSide
    mma: TiledMMA
    blk_m: int
    blk_k: int
    stages: int
    tile_global: Layout                    # (m, k) of one CTA tile -> global E element, relative to the tile's first
    tile_index: Layout                     # (tile along M, tile along K) -> the tile's first global element
    tiles: tuple[int, int]
    tile_problem: str | None = None        # the shared tile is no whole number of the tiled MMA's / global tiles
    collective_refusal: tuple[str, str] | None = None   # the collective's static_assert on the tile: (rule, given)
    type_refusal: tuple[str, str] | None = None   # the sparse config's static_assert on ValTypeE: (rule, given)
    tma: SP.MetaTma | None = None
    tma_problem: str | None = None
    tma_refusal: TmaRefused | None = None   # make_tma_copy's static_assert on the stage (construct_tma_gbasis)
    tensor_map: TMA.TensorMapND | None = None
    copy: TiledCopy | None = None          # make_tiled_copy_E(Copy_Atom<AutoVectorizingCopy, uint32_t>, tiled_mma)
    cute_refusal: str | None = None        # CuTe's rule when the copy or a partition cannot be built
    source: Layout | None = None           # partition_S of the tile's coordinates: (thr, val, (rm, rk)) -> m + BLK_M k
    reads: Layout | None = None            # partition_S of SmemLayoutE: (thr, val, (rm, rk, stage)) -> E element
    fragment: Layout | None = None         # tErE: (CPY, CPY_M, CPY_K) -> register element (logical E elements)
    a_slices: Layout | None = None         # partition_A of the tile's coordinates, ((ThrV,(ThrM,ThrK)),(FrgV,Rest))
    copy_model: CopyModel | None = None    # the instruction model of the shared -> register copy

    @property
    def threads(self) -> int:
        return self.mma.num_threads()

    @property
    def stype(self) -> WS.SparseType | None:
        """The instruction's sparse type (None: not a wgmma.mma_async.sp, `instruction_problem` says why)."""
        return self.side.stype

    @property
    def instruction_problem(self) -> str | None:
        return self.side.instruction_problem

    @property
    def e_bits(self) -> int:
        """Bits of one logical element of E (the atom's ValTypeE)."""
        return self.side.e_type.bits if self.side.e_type is not None else 1

    @property
    def warpgroup(self) -> int:
        return int(self.side.atom.thr_id.size())

    @property
    def values(self) -> int:
        """Logical E elements of one thread for one wgmma: 32 bits of sp-meta."""
        return META_WORD // max(1, self.e_bits)

    @property
    def stage_stride(self) -> int:
        """E elements between two stages (the shared layout's stage stride)."""
        smem = self.check.smem
        return _at(smem, 0, 0, 1) - _at(smem, 0, 0, 0) if smem.rank() > 2 and self.stages > 1 else 0

    @cached_property
    def stage0(self) -> Layout:
        smem = self.check.smem
        return smem.slice((Underscore, Underscore, 0)) if smem.rank() > 2 else smem

    @property
    def rest(self) -> tuple[int, int]:
        """wgmmas of a warpgroup along (M, K) per k-tile: the fragment's (CPY_M, CPY_K)."""
        return self.blk_m // self.mma.tile_size(0), self.blk_k // self.mma.tile_size(2)

    @property
    def k_instr(self) -> int:
        return int(self.side.atom.shape_mnk[2])

    @property
    def footprint_bits(self) -> int:
        return int(self.check.smem.cosize()) * self.e_bits

    @property
    def shared_capacity(self) -> int:
        return SM90_BLOCK_SHARED_BYTES


def _at(layout: Layout, *coord: int) -> int:
    """layout(coord) of a whole coordinate: an offset."""
    value = layout(*coord)
    assert isinstance(value, int)
    return value


def _sparse_type(atom: MMAAtomSpec) -> tuple[WS.SparseType | None, str | None]:
    """The sparse type of the atom's instruction, or why it is no modelled wgmma.mma_async.sp."""
    ins = Instruction.parse(atom.instruction)
    q = ins.qualifiers
    if ins.opcode != "wgmma" or q[:2] != ("mma_async", WS.SPARSE_QUALIFIER) or len(q) < 8:
        return None, (f"{atom.name} issues {atom.instruction or 'no instruction'}: its metadata is read by "
                      "wgmma.mma_async.sp only (tcgen05.mma.sp's tensor-memory metadata has no model)")
    shape, atype = q[4], q[6]
    problem = WS.shape_problem(shape, atype)
    if problem is not None:
        return None, problem
    return WS.sparse_type(atype), None


MetadataBox = tuple[SP.MetaTma | None, TMA.TensorMapND | None, TmaRefused | None, str | None]


def metadata_box(gmem: Layout, blk_m: int, blk_k: int, stage0: Layout, e_bits: int) -> MetadataBox:
    """make_tma_copy of one stage of E (SP.metadata_tma), as a setup keeps it: (the box, its tensor map, CuTe's
    refusal of the stage, why no box exists), one of the first two and the last two set."""
    found = SP.metadata_tma(gmem, blk_m, blk_k, stage0, e_bits)
    if isinstance(found, TmaRefused):
        return None, None, found, None
    if isinstance(found, str):
        return None, None, None, found
    return found, TMA.TensorMapND(TMA_DTYPE, found.box, found.global_dim, found.global_strides[1:]), None, None


SS_ATOM_RULE = "MMA atom must source both A and B operand from smem_desc for this mainloop."


def _collective_refusal(side: MetadataSide, blk_m: int, blk_k: int, stages: int) -> tuple[str, str] | None:
    """The SM90 sparse collective's static_asserts a check's tile reaches (sm90_sparse_mma_tma_gmma_ss_warpspecialized
    and its fp8 form, and the Sm90GemmSparseConfig they instantiate): Stages >= 2, then TensorEAtom's
    "MinTileShapeK must be a multiple of BlockK" (MinTileShapeK = min(BLK_K, 128), BlockK = 512 / bits of A), then
    SmemLayoutE's tile_to_shape of that atom (64 x MinTileShapeK) to the tile."""
    if stages < G.MIN_STAGES:
        return G.STAGES_RULE, f"{stages} stage(s) of SmemLayoutE"
    if side.a_from_registers:
        return SS_ATOM_RULE, "an RS atom (A from registers): the sparse mainloop takes both operands' descriptors"
    if side.stype is None or side.a_bits not in SP.FORMATS:      # no sparse wgmma: the theorems say so
        return None
    found = SP.tensor_e_atom(side.a_bits, blk_k)
    if isinstance(found, str) and SP.MIN_TILE_K_RULE in found:
        return SP.MIN_TILE_K_RULE, f"a {blk_k}-deep tile of {side.a_bits}-bit A: {found}"
    if isinstance(found, str):
        return None
    try:                              # SmemLayoutE = tile_to_shape(TensorEAtom, (BLK_M, BLK_K, Stages))
        SP.smem_layout_e(found, blk_m, blk_k, stages)
    except AlgebraError as e:
        atom_m, atom_k = SP.atom_extent(found)
        return e.rule, (f"SmemLayoutE of a {blk_m} x {blk_k} tile on TensorEAtom's {atom_m} x {atom_k} "
                        f"({side.a_bits}-bit A: its K is min(BLK_K, {SP.MAX_ATOM_K}))")
    return None


def build(check: MetadataCheck, atom: MMAAtomSpec, copy_spec: CopyAtomSpec | None,
          side: MetadataSide | None = None) -> MetaSetup:
    """Everything the metadata theorems need, read off the check, the atom's side (`metadata_side`) and CuTe's
    derivations."""
    side = side or metadata_side(atom)
    mma = TiledMMA(side.atom, check.atom_layout if check.atom_layout is not None else (1, 1, 1), check.permutation)
    smem = check.smem
    blk_m, blk_k = int(smem.mode(0).size()), int(smem.mode(1).size())
    stages = int(smem.mode(2).size()) if smem.rank() > 2 else 1
    g = check.gmem
    g_m, g_k = int(g.mode(0).size()), int(g.mode(1).size())
    if g_m % blk_m or g_k % blk_k:
        s = MetaSetup(check, atom, side, mma, blk_m, blk_k, stages, g, Layout(1, 0), (1, 1),
                      tile_problem=f"the global E tensor's {g_m} x {g_k} is no whole number of {blk_m} x {blk_k} "
                                   "tiles")
    else:
        divided = F.zipped_divide(g, (blk_m, blk_k))
        s = MetaSetup(check, atom, side, mma, blk_m, blk_k, stages, divided.mode(0),
                      divided.mode(1), (g_m // blk_m, g_k // blk_k))
        s.tma, s.tensor_map, s.tma_refusal, s.tma_problem = metadata_box(g, blk_m, blk_k, s.stage0, s.e_bits)
    refused = _collective_refusal(side, blk_m, blk_k, stages)
    s.collective_refusal = (refused[0], f"the SM90 sparse collective: {refused[1]}") if refused else None
    s.type_refusal = SP.metadata_type_refusal(side.e_type.name if side.e_type is not None else None)
    tile_m, tile_k = mma.tile_size(0), mma.tile_size(2)
    if s.tile_problem is None and (blk_m % tile_m or blk_k % tile_k):
        s.tile_problem = (f"the {blk_m} x {blk_k} tile is no whole number of the tiled MMA's {tile_m} x {tile_k} "
                          "(M, K) tiles")
    if copy_spec is not None:
        s.copy_model = copy_model_for(copy_spec, None, check.value_type.bits if check.value_type else None)
    if copy_spec is None or side.e is None or s.tile_problem is not None:
        return s
    try:
        typed = copy_atom(copy_spec).with_value_bits(check.value_type.bits if check.value_type else META_WORD)
        s.copy = SP.tiled_copy_e(mma, side.e, typed)
        s.source = s.copy.tidfrg_S(Layout((blk_m, blk_k)))
        s.reads = s.copy.tidfrg_S(smem)
        s.fragment = SP.register_fragment(mma, s.stage0, side.e, s.copy, 0)
        s.a_slices = mma.thrfrg(Layout((blk_m, blk_k)), "A")
    except AlgebraError as e:          # CuTe's own rule (a static_assert of make_tiled_copy / the divides)
        s.cute_refusal = str(e)
    return s


def words(s: MetaSetup) -> tuple[dict[tuple[int, int], int], str | None]:
    """The sp-meta register of each wgmma (M repeat r, k-block kb): recast<uint32_t>(tErE(_, r, kb)) -- its first
    register element / 32 bits -- or why CuTe's recast does not make it one 32-bit register (the values not
    contiguous and aligned)."""
    assert s.fragment is not None
    found, problem = _words(s.fragment, s.values, s.e_bits)
    return dict(found), problem


@lru_cache(maxsize=1024)
def _words(frag: Layout, n: int, e_bits: int) -> tuple[tuple[tuple[tuple[int, int], int], ...], str | None]:
    """`words` of a register fragment of `n` values a wgmma, `e_bits` bits each (the checks of one tiled MMA and
    metadata atom share their fragment: it is computed once)."""
    sizes = [int(frag.mode(i).size()) for i in range(frag.rank())]
    if sizes[0] != n:
        return (), (f"each wgmma's metadata fragment holds {sizes[0]} logical elements of {e_bits} bits, not the "
                    f"{n} of one 32-bit sp-meta register (CuTe: recast<uint32_t> must give one register)")
    rest = (sizes[1] if len(sizes) > 1 else 1, sizes[2] if len(sizes) > 2 else 1)
    out: list[tuple[tuple[int, int], int]] = []
    for r in range(rest[0]):
        for kb in range(rest[1]):
            offs = [_at(frag, v, r, kb) if frag.rank() > 2 else _at(frag, v, r) for v in range(n)]
            if offs != list(range(offs[0], offs[0] + n)) or (offs[0] * e_bits) % META_WORD:
                return (), (f"the metadata of wgmma (m {r}, k-block {kb}) lies in register elements {offs[:4]}..., "
                            f"not one aligned run of {n}: recast<uint32_t> would not make it one sp-meta register")
            out.append(((r, kb), offs[0] * e_bits // META_WORD))
    return tuple(out), None


def thread_warpgroup_m(s: MetaSetup) -> str | None:
    """Why the tiled MMA's thread layout is not warpgroup w of thread t = t / 128 along M (thr_vmnk's m), or None."""
    vmnk = s.mma.thr_layout_vmnk
    if int(product(vmnk.mode(2).shape)) != 1 or int(product(vmnk.mode(3).shape)) != 1:
        return f"the tiled MMA {vmnk} spreads warpgroups along N or K: the metadata of such a tiled MMA is not modelled"
    for t in range(s.threads):
        v, m, _, _ = s.mma.thr_vmnk(t)
        if int(v) != t % s.warpgroup or int(m) != t // s.warpgroup:
            return (f"thread {t} is ({v}, {m}) of the tiled MMA {vmnk}, not lane {t % s.warpgroup} of warpgroup "
                    f"{t // s.warpgroup}")
    return None
