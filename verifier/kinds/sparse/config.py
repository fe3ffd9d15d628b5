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
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...algebra.layout import Layout
from ...algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle
from ...echo import quote
from ...specfile.fields import Fields, is_int, read_choice, refuse_keys, show
from ...specfile.model import METADATA_KEY, CheckKind, CheckSpec, MMAAtomSpec, SpecError, common_fields
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS

SPARSE_OPERANDS = ("A",)           # wgmma.mma_async.sp: A is the structured-sparse operand
NOT_READ = ("operand", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type", "tiled_copy",
            "major", "descriptor", "tma_box", "store", "buffer", "tmem", "tmem_columns", "scale_factors",
            "sf_vec_size", "tmem_alloc", "tmem_base", "smem_partition")
DEFAULT_SMEM_ALIGN = 128           # alignas(128) of CUTLASS's smem_E
MAX_SMEM_ALIGN = 1 << 20


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

    def summary(self) -> str:
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
    if fields.f.version < 2:
        raise SpecError(fields.at(METADATA_KEY), f"'{METADATA_KEY}' of {what} is a version 2 key: the file needs "
                                                 "'version: 2'")
    sparse = read_choice(fields.m[METADATA_KEY], fields.at(METADATA_KEY), f"'{METADATA_KEY}' of {what}",
                         SPARSE_OPERANDS, upper=True)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} names the metadata of {sparse}: it needs 'mma' (the structured-sparse "
                                    "wgmma atom that reads it)")
    if mma.e is None:
        raise SpecError(fields.at("mma"), f"{what}: {quote(mma.name)} has no metadata layout 'e' "
                                          "(MMA_Traits::ELayout): it is no structured-sparse MMA atom")
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} needs 'copy': the shared -> register copy of the metadata "
                                    "(CUTLASS's Copy_Atom<AutoVectorizingCopy, uint32_t>)")
    for k in ("smem", "gmem"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} names the metadata of {sparse} and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by metadata checks")
    e_bits = mma.types["e"].bits if "e" in mma.types else 1
    smem = _plain(fields, "smem", what, e_bits)
    if smem.rank() not in (2, 3):
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be SmemLayoutE, (M, K[, PIPE]) -> element, not "
                                           f"rank {smem.rank()}")
    gmem = _plain(fields, "gmem", what, e_bits)
    if gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be LayoutE over (M, K), rank 2 (one batch)")
    check = MetadataCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, sparse=sparse,
                          smem=smem, gmem=gmem)
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    return check
