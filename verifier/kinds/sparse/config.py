"""The sparse metadata kind's configuration: the metadata E of a structured-sparse wgmma (wgmma.mma_async.sp) from
the global tensor (`gmem`, Sm90GemmSparseConfig::fill_layoutE) through TMA into the shared tile (`smem`, SmemLayoutE
with its stages) and through the copy `copy` (Copy_Atom<AutoVectorizingCopy, uint32_t>, make_tiled_copy_E over the
tiled MMA) into each wgmma's sp-meta register.

    metadata: A                     # whose: A, the structured-sparse operand
    mma: "SM90::GMMA::SPARSE::GMMA_64x128x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"   # with `e:` (ELayout)
    atom_layout: [2, 1, 1]          # the tiled MMA's warpgroups
    copy: AutoVectorizingCopy       # the shared -> register copy
    value_type: uint32_t            # its Copy_Atom's value type
    smem: "(((8,2,4),2),((16,2,2),1),(1,4)):(((64,16,1024),4096),((1,512,32),0),(0,8192))"   # SmemLayoutE
    gmem: "(((8,2,4),4),((16,2,2),2)):(((64,16,1024),4096),((1,512,32),16384))"            # LayoutE over (M, K)
    # smem_align: 128               # the buffer's alignment (CUTLASS's alignas(128))

Every layout is in logical elements of E (the atom's `types: {e: sparse_elem<8,uint8_t>}`: one bit each; two for
tf32's sparse_elem<4,uint8_t>), as CUTLASS writes them.

A tcgen05.mma.sp atom (SM100, sm100_sparse_mma_warpspecialized.hpp) reads its metadata from tensor memory: TMA brings
a stage of E into shared memory, tcgen05.cp.128x128b (`copy: SM100_UTCCP_128dp128bit_1cta` / `_2cta`,
make_utccp_copy over recast<uint8_t> of the TMEM tile) copies it into tensor memory, and each k-block's MMA is handed
the address of its part (theorems 27, 33, 28):

    metadata: A
    mma: "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,128>"
    copy: SM100_UTCCP_128dp128bit_1cta
    value_type: uint8_t             # recast<ElementE>: the copy moves bytes of E
    smem: "(((8,2,8),(16,2)),1,4,(1,8)):(((128,16,2048),(1,1024)),0,32,(0,16384))"   # SmemLayoutE, CuTe's print
    gmem: "(((8,2,8),2),((16,2,4),2)):(((128,16,2048),16384),((1,1024,32),32768))"  # LayoutE over (M, K)
    tile_k: 64                      # the CTA tile's K (TileShape); E's tile holds lcm(it, the atom's K)
    tmem_base: 256                  # E's first TMEM column (after the accumulators)
    # tmem: the TMEM tile tCtE, ((128, K_MMA), 1, MMA_K) -> TMEM element (default CuTe's tmem_e_frg)
    # tmem_columns: 512             # what tcgen05.alloc allocated

`smem` may be CuTe's partitioned print ((MMA_M, MMA_K), 1, MMA_K, PIPE) or the (M, K, PIPE) form tile_to_shape gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...algebra.layout import Layout
from ...algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle
from ...echo import quote
from ...specfile.fields import Fields, is_int, read_version2_choice, refuse_keys, show
from ...specfile.model import (METADATA_KEY, TMEM_METADATA_INSTRUCTION, CheckKind, CheckSpec, MMAAtomSpec, SpecError,
                               common_fields)
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS

SPARSE_OPERANDS = ("A",)           # wgmma.mma_async.sp / tcgen05.mma.sp: A is the structured-sparse operand
TMEM_METADATA_KEYS = ("tile_k", "tmem", "tmem_columns", "tmem_base")   # read for a tcgen05.mma.sp atom only
NOT_READ = ("operand", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type", "tiled_copy",
            "major", "descriptor", "tma_box", "store", "buffer", "scale_factors", "sf_vec_size", "tmem_alloc",
            "smem_partition")
DEFAULT_SMEM_ALIGN = 128           # alignas(128) of CUTLASS's smem_E
MAX_SMEM_ALIGN = 1 << 20
TMEM_COLUMN_LIMIT = 512
TILE_K_LIMIT = 1 << 16


@dataclass(kw_only=True)
class MetadataCheck(CheckSpec):
    """A structured-sparse wgmma's metadata (theorems 27, 28), with the atom's theorems 1, 2 and 11."""
    kind: ClassVar[str] = CheckKind.METADATA
    mma: str
    copy: str
    sparse: str                        # "A": whose metadata
    smem: Layout                       # (m, k, stage) -> E element of the shared buffer
    gmem: Layout                       # (m, k) -> E element of the global tensor
    smem_align: int = DEFAULT_SMEM_ALIGN
    # a tcgen05.mma.sp atom's (SM100: the metadata through tensor memory)
    tmem_path: bool = False            # the atom is a tcgen05.mma.sp
    tile_k: int | None = None          # the CTA tile's K (None: E's tile K, no reuse)
    tmem: Layout | None = None         # (m, k) -> TMEM element of E's tile; None: CuTe's tmem_e_frg
    tmem_base: int = 0                 # E's first TMEM column
    tmem_columns: int = TMEM_COLUMN_LIMIT

    def summary(self) -> str:
        if self.tmem_path:
            return (f"metadata of {self.sparse} for {self.mma}: gmem {self.gmem} -> TMA -> smem {self.smem} -> "
                    f"{self.copy} -> TMEM (column {self.tmem_base}) -> [sp-meta-tmem]")
        return (f"metadata of {self.sparse} for {self.mma}: gmem {self.gmem} -> TMA -> smem {self.smem} -> {self.copy}"
                f"{f' on {self.value_type.name}' if self.value_type else ''} -> sp-meta")


def reads_metadata_check(fields: Fields) -> bool:
    return fields.has(METADATA_KEY)


def _plain(fields: Fields, key: str, what: str, e_bits: int) -> Layout:
    """A layout, or a composed one whose swizzle is the identity (CuTe prints SmemLayoutE with Swizzle<0,4,3>)."""
    x = (fields.layout(key, swizzle_ok=True, max_elements=MAX_GLOBAL_ELEMENTS) if key == "gmem"
         else fields.layout(key, swizzle_ok=True))
    if isinstance(x, ComposedLayout) and isinstance(x.a, Swizzle) and x.a.B == 0 and int(x.offset) == 0:
        if isinstance(x.offset, SmemPtrFlag) and x.offset.bits != e_bits:   # CuTe's smem_sparse<S>_ptr[8b]
            raise SpecError(fields.at(key), f"'{key}' of {what} is a layout of {x.offset.bits}-bit elements; the "
                                            f"metadata's elements (the atom's ValTypeE) have {e_bits}")
        x = x.b
    if not isinstance(x, Layout):
        raise SpecError(fields.at(key), f"'{key}' of {what} must be a layout of logical metadata elements (no "
                                        f"swizzle: SmemLayoutE's is the identity), not {show(fields.m[key])}")
    return x


def read_metadata_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None) -> MetadataCheck:
    what = fields.what
    sparse = read_version2_choice(fields, METADATA_KEY, SPARSE_OPERANDS, upper=True)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} names the metadata of {sparse}: it needs 'mma' (the structured-sparse "
                                    "wgmma atom that reads it)")
    tmem_path = (mma.instruction or "").strip().startswith(TMEM_METADATA_INSTRUCTION)
    if mma.e is None and not (tmem_path and "e" in mma.types):
        raise SpecError(fields.at("mma"), f"{what}: {quote(mma.name)} has no metadata layout 'e' "
                                          "(MMA_Traits::ELayout), nor is it a tcgen05.mma.sp atom with a metadata type "
                                          "'e': it is no structured-sparse MMA atom")
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} needs 'copy': the copy of the metadata out of shared memory "
                                    "(CUTLASS's Copy_Atom<AutoVectorizingCopy, uint32_t>; for tcgen05.mma.sp "
                                    "SM100_UTCCP_128dp128bit_1cta / _2cta)")
    for k in ("smem", "gmem"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} names the metadata of {sparse} and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by metadata checks")
    if tmem_path:
        refuse_keys(fields, ("atom_layout",), "is not used by the metadata check of a tcgen05.mma.sp atom (one "
                                              "thread issues the MMA of its CTA or CTA pair)")
    else:
        refuse_keys(fields, TMEM_METADATA_KEYS, "is only read by the metadata check of a tcgen05.mma.sp atom (its "
                                                "metadata in tensor memory)")
    e_bits = mma.types["e"].bits if "e" in mma.types else 1
    smem = _plain(fields, "smem", what, e_bits)
    if tmem_path:                        # Blackwell's module: loaded by a tcgen05.mma.sp check only
        from ...cute.sparse_sm100 import mk_view
        smem = mk_view(smem, pipe=True)      # CuTe's partitioned ((MMA_M, MMA_K), 1, MMA_K, PIPE) at (m, k, stage)
    if smem.rank() not in (2, 3):
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be SmemLayoutE, (M, K[, PIPE]) -> element"
                                           + (" or CuTe's ((MMA_M, MMA_K), 1, MMA_K[, PIPE])" if tmem_path else "")
                                           + f", not rank {smem.rank()}")
    gmem = _plain(fields, "gmem", what, e_bits)
    if gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be LayoutE over (M, K), rank 2 (one batch)")
    check = MetadataCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, sparse=sparse,
                          smem=smem, gmem=gmem, tmem_path=tmem_path)
    if tmem_path:
        _read_tmem_fields(fields, check)
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    return check


def _read_tmem_fields(fields: Fields, check: MetadataCheck) -> None:
    """A tcgen05.mma.sp check's keys: the CTA tile's K, E's TMEM tile, its first column, the allocation."""
    from ...cute.sparse_sm100 import mk_view
    what = fields.what
    if fields.has("tile_k"):
        check.tile_k = fields.bounded_int("tile_k", 1, TILE_K_LIMIT)
    if fields.has("tmem"):
        tmem = fields.layout("tmem")
        if not isinstance(tmem, Layout) or mk_view(tmem, pipe=False).rank() != 2:
            raise SpecError(fields.at("tmem"), f"'tmem' of {what} must be E's TMEM tile, CuTe's ((128, K_MMA), 1, "
                                               "MMA_K) or (M, K) -> TMEM element, a plain layout")
        check.tmem = mk_view(tmem, pipe=False)
    if fields.has("tmem_base"):
        check.tmem_base = fields.bounded_int("tmem_base", 0, TMEM_COLUMN_LIMIT)     # 512: after 512 columns of D
    if fields.has("tmem_columns"):
        check.tmem_columns = fields.bounded_int("tmem_columns", 1, TMEM_COLUMN_LIMIT)
