"""The concrete objects of a tcgen05.mma.sp metadata check, built once: the instruction's sparse kind (hardware/
umma_sparse.py), CUTLASS's metadata format and reuse count, the shared and TMEM tiles of E at (m, k), the tile of the
global E, the TMA box make_tma_atom_A_sm100<uint64_t> derives (cute/sparse.py's construct_tma_gbasis), the tcgen05.cp
copies make_utccp_copy hands out, and the origins of the A slices partition_A gives each k-block's MMA
(cute/sparse_sm100.py).

What CUTLASS would refuse (its static_asserts) and what the models do not cover are kept as data for the theorems.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...algebra import functions as F
from ...algebra.inttuple import AlgebraError, Coord, Underscore
from ...algebra.layout import Layout, make_layout
from ...cute import sparse as SP
from ...cute import sparse_sm100 as SS
from ...cute.mma import TiledMMA
from ...cute.tma_basis import TmaRefused
from ...hardware import tma as TMA
from ...hardware import umma_sparse as US
from ...hardware.shared_memory import SM100_BLOCK_SHARED_BYTES
from ...specfile.model import MMAAtomSpec
from ..cute_objects import mma_atom
from .config import MetadataCheck
from .setup import metadata_box

K_PHASES = (2, 4)                 # static_assert "This kernel only support MmaShape=128 and 2/4 kphase."
MMA_ROWS = SS.ATOM_M


SMEM_CAPACITY_RULE = "SMEM usage exceeded capacity."     # the SM100 sparse kernel's static_assert on SharedStorage
BYTE_BITS = 8


@dataclass
class Sm100MetaSetup:
    check: MetadataCheck
    atom: MMAAtomSpec
    kind: US.SparseKind | None             # the instruction's sparse kind (None: not a modelled tcgen05.mma.sp)
    instruction_problem: str | None
    e_bits: int                            # bits of one logical element of E (the atom's ValTypeE)
    ctas: int                              # the MMA's CTAs (AtomThrID)
    k_mma: int                             # K of one MMA (the atom's)
    blk_m: int                             # rows of E's tile (a CTA's rows of the MMA)
    blk_k: int                             # K of E's tile (TileShapeE)
    stages: int
    tile_k: int                            # the CTA tile's K (TileShape)
    tile_global: Layout                    # (m, k) of one tile -> global E element, relative to the tile's first
    tile_index: Layout                     # (tile along M, tile along K) -> the tile's first global element
    tiles: tuple[int, int]
    tile_problem: str | None = None
    collective_refusal: tuple[str, str] | None = None   # the kernel's shared-memory capacity (others: cute_refusal)
    type_refusal: tuple[str, str] | None = None   # Sm1xxGemmSparseConfig's static_assert on ValTypeE: (rule, given)
    cute_refusal: str | None = None        # the collective's static_assert this configuration fails
    fmt: SS.MetadataFormat | None = None
    reuse: int = 1                         # UtccpReuseCnt
    tma: SP.MetaTma | None = None
    tma_problem: str | None = None
    tma_refusal: TmaRefused | None = None   # make_tma_copy's static_assert on the stage (construct_tma_gbasis)
    tensor_map: TMA.TensorMapND | None = None
    tmem_view: Layout | None = None        # (m, k) -> TMEM element of E's tile (lane << 21 | bit column, / bits(E))
    copies: list[SS.UtccpCopy] = field(default_factory=list)
    copies_problem: str | None = None      # CuTe's refusal of make_utccp_copy / its descriptor: the rule
    copies_detail: str = ""                # ... and where it failed
    a_origins: list[tuple[int, int]] = field(default_factory=list)   # k-block -> (m0, k0) of this CTA's A slice
    a_slices: Layout | None = None         # partition_A of the MMA's (M, TileK): ((ThrV,(ThrM,ThrK)),(FrgV,Rest))

    @property
    def shared_capacity(self) -> int:
        return SM100_BLOCK_SHARED_BYTES

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
    def footprint_bits(self) -> int:
        return int(self.check.smem.cosize()) * self.e_bits

    @property
    def k_blocks(self) -> int:
        """MMAs of one k-tile (size<2>(tCrA))."""
        return self.tile_k // self.k_mma

    @property
    def mma_k(self) -> int:
        """MMAs whose metadata one stage of E holds (MMA_K of MmaShapeE_MK)."""
        return self.blk_k // self.k_mma

    @property
    def stage_bits(self) -> int:
        return self.blk_m * self.blk_k * self.e_bits

    def partitioned(self, view: Layout) -> Layout:
        """An (m, k[, stage]) layout of E's tile in CuTe's partition form ((128, K_MMA), 1, MMA_K[, stage])."""
        m, k = self.blk_m, self.k_mma
        coords = [Layout((m, k), (1, m)), Layout(1, 0), Layout(self.mma_k, m * k)]
        if view.rank() > 2:
            coords.append(Layout(self.stages, m * self.blk_k))
        out: Layout = F.composition(view, make_layout(*coords))     # the view read at linear index m + M k (+ ..)
        return out


def _at(layout: Layout, *coord: Coord) -> int:
    value = layout(*coord)
    assert isinstance(value, int)
    return value


def _problem(s: Sm100MetaSetup) -> str | None:
    """The collective's static_asserts this configuration fails (sm100_sparse_mma_warpspecialized.hpp), or None."""
    if s.blk_m != MMA_ROWS or s.tile_k % s.k_mma or s.k_blocks not in K_PHASES:
        return (f"{s.blk_m} rows a CTA and {s.tile_k // max(1, s.k_mma)} MMAs a k-tile (static_assert \"This kernel "
                f"only support MmaShape=128 and 2/4 kphase.\": {MMA_ROWS} rows, {' or '.join(map(str, K_PHASES))} "
                "MMAs a k-tile)")
    return None


def build(check: MetadataCheck, atom: MMAAtomSpec) -> Sm100MetaSetup:
    """Everything the SM100 metadata theorems need, read off the check and CuTe's derivations."""
    kind = US.sparse_kind(atom.instruction)
    problem = None if kind is not None else (f"{atom.name} issues {atom.instruction or 'no instruction'}: a tcgen05.mma"
                                             ".sp of a kind this module models (.kind::tf32, f16, f8f6f4, i8) reads "
                                             "its metadata from tensor memory")
    e_type = atom.types.get("e")
    e_bits = e_type.bits if e_type is not None else 1
    ctas = int(atom.thr_id.size())
    m, _, k_mma = (int(x) for x in atom.shape_mnk)
    smem = check.smem
    blk_m, blk_k = int(smem.mode(0).size()), int(smem.mode(1).size())
    stages = int(smem.mode(2).size()) if smem.rank() > 2 else 1
    tile_k = check.tile_k if check.tile_k is not None else blk_k
    g = check.gmem
    g_m, g_k = int(g.mode(0).size()), int(g.mode(1).size())
    if g_m % blk_m or g_k % blk_k:
        s = Sm100MetaSetup(check, atom, kind, problem, e_bits, ctas, k_mma, blk_m, blk_k, stages, tile_k, g,
                           Layout(1, 0), (1, 1), tile_problem=f"the global E tensor's {g_m} x {g_k} is no whole "
                                                              f"number of {blk_m} x {blk_k} tiles")
    else:
        divided = F.zipped_divide(g, (blk_m, blk_k))
        s = Sm100MetaSetup(check, atom, kind, problem, e_bits, ctas, k_mma, blk_m, blk_k, stages, tile_k,
                           divided.mode(0), divided.mode(1), (g_m // blk_m, g_k // blk_k))
        s.tma, s.tensor_map, s.tma_refusal, s.tma_problem = metadata_box(g, blk_m, blk_k, s.stage0, e_bits)
    s.type_refusal = SP.metadata_type_refusal(e_type.name if e_type is not None else None)
    footprint = -(-s.footprint_bits // BYTE_BITS)
    if footprint > SM100_BLOCK_SHARED_BYTES:    # the kernel's SharedStorage holds E's buffer, and more
        s.collective_refusal = (SMEM_CAPACITY_RULE, f"the SM100 sparse kernel (sm100_sparse_gemm_tma_warpspecialized."
                                                    f"hpp): its SharedStorage holds E's {stages}-stage buffer, "
                                                    f"{footprint} bytes alone, over sm100_smem_capacity_bytes "
                                                    f"({SM100_BLOCK_SHARED_BYTES})")
    if m // ctas != blk_m and s.tile_problem is None:
        s.tile_problem = (f"E's tile has {blk_m} rows, the MMA {m // ctas} a CTA: the shared metadata is a CTA's rows "
                          "of one MMA (TensorEAtomM = 128)")
    fmt = SS.metadata_format(atom.types["a"].bits) if "a" in atom.types else "no type of A"
    s.cute_refusal = _problem(s) if isinstance(fmt, SS.MetadataFormat) else fmt
    if isinstance(fmt, SS.MetadataFormat):
        s.fmt = fmt
        reuse = SS.utccp_reuse(tile_k, fmt.atom_k)
        if isinstance(reuse, str):
            s.cute_refusal = s.cute_refusal or reuse
        else:
            s.reuse = reuse
    if s.tile_problem is not None or s.cute_refusal is not None or s.fmt is None or s.blk_k % k_mma:
        return s
    mma = TiledMMA(mma_atom(atom), (1, 1, 1), None)
    s.a_slices = mma.thrfrg(Layout((m, tile_k)), "A")        # m + M k of the MMA's tile
    s.a_origins = [(o % m, o // m) for o in (_at(s.a_slices, (0, (0, 0)), (0, (0, kb))) for kb in range(s.k_blocks))]
    tmem = check.tmem
    if tmem is None:
        tmem = SS.mk_view(SS.tmem_e(s.fmt, s.mma_k), pipe=False)
    s.tmem_view = tmem
    try:
        _, s.copies = SS.utccp_copies(check.copy, s.partitioned(s.stage0), s.partitioned(tmem), e_bits)
    except AlgebraError as e:       # CuTe's make_utccp_copy refuses the TMEM tile (its own static_assert)
        s.copies_problem, s.copies_detail = e.rule, str(e)
    return s
