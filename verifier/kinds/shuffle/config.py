"""The shuffle kind's configuration: the value-shuffled narrow A of an SM90 mixed-input GEMM (CUTLASS's `_shfl`
kernels) from the reordered global tensor (`gmem`) through TMA into the shared tile (`smem`, SmemLayoutA with its
stages), through the copy `copy` (Copy_Atom<AutoVectorizingCopy, Narrow>, make_tiled_copy_A over the tiled MMA) from
thr_mma.partition_A into a buffer laid out like that partition (make_tensor_like), and through dequantize_A_kblock's
LayoutAwareConvert into the RS wgmma's A fragment of the MMA's type.

    shuffled: A                     # whose: A, the narrow operand the registers convert
    mma: "SM90_64x128x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>"   # the RS atom of B's type
    atom_layout: [2, 1, 1]          # the tiled MMA's warpgroups
    copy: AutoVectorizingCopy       # the shared -> register copy
    value_type: int4b_t             # the narrow type (the tile's, the copy's)
    smem: "((8,2,8),(8,2,4),11):((32,1,256),(4,2,2048),8192)"                            # SmemLayoutA
    gmem: "((((8,2),1),16),(((2,4,2),1),8)):((((32,1),0),256),(((4,8,2),0),4096))"       # the reordered A over (M, K)
    # smem_align: 128               # the buffer's alignment (at least 128: the TMA destination)

Every layout is in elements of the narrow type.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...algebra.layout import Layout
from ...specfile.fields import Fields, is_int, read_version2_choice, refuse_keys, show
from ...specfile.model import CheckSpec, MMAAtomSpec, SpecError, common_fields
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS

SHUFFLE_KIND = "shuffle"           # the kind's name in reports
SHUFFLED_KEY = "shuffled"          # the key that makes a check a shuffle check
SHUFFLE_KEYS = (SHUFFLED_KEY,)
SHUFFLED_OPERANDS = ("A",)         # the mixed-input mainloop converts A (the builder swaps a narrow B into A)
NOT_READ = ("operand", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type", "tiled_copy",
            "major", "descriptor", "tma_box", "store", "buffer", "tmem", "tmem_columns", "scale_factors",
            "sf_vec_size", "tmem_alloc", "tmem_base", "smem_partition", "metadata")
DEFAULT_SMEM_ALIGN = 128           # at least alignas(128): TMA's destination
MAX_SMEM_ALIGN = 1 << 20


@dataclass(kw_only=True)
class ShuffleCheck(CheckSpec):
    """A value-shuffled narrow A (theorem 35), with the RS atom's theorems 1, 2 and 11."""
    kind: ClassVar[str] = SHUFFLE_KIND
    mma: str
    copy: str
    shuffled: str                      # "A"
    smem: Layout                       # (m, k, stage) -> narrow element of the shared buffer
    gmem: Layout                       # (m, k) -> narrow element of the global tensor
    smem_align: int = DEFAULT_SMEM_ALIGN

    def summary(self) -> str:
        vt = f" on {self.value_type.name}" if self.value_type else ""
        return (f"value-shuffled {self.shuffled} for {self.mma}: gmem {self.gmem} -> TMA -> smem {self.smem} -> "
                f"{self.copy}{vt} -> LayoutAwareConvert -> the RS fragment")


def reads_shuffle_check(fields: Fields) -> bool:
    return fields.has(SHUFFLED_KEY)


def _plain(fields: Fields, key: str, what: str) -> Layout:
    x = (fields.layout(key, max_elements=MAX_GLOBAL_ELEMENTS) if key == "gmem" else fields.layout(key))
    if not isinstance(x, Layout):
        raise SpecError(fields.at(key), f"'{key}' of {what} must be a plain layout of narrow elements (the reordered "
                                        f"layouts have no swizzle), not {show(fields.m[key])}")
    return x


def read_shuffle_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None) -> ShuffleCheck:
    what = fields.what
    shuffled = read_version2_choice(fields, SHUFFLED_KEY, SHUFFLED_OPERANDS, upper=True)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} names a value-shuffled {shuffled}: it needs 'mma' (the RS wgmma atom "
                                    "whose A fragment the registers fill)")
    if named.copy is None or named.value_type is None:
        raise SpecError(fields.loc, f"{what} needs 'copy' and 'value_type': the shared -> register copy of the "
                                    "narrow A (CUTLASS's Copy_Atom<AutoVectorizingCopy, Narrow>) and its type")
    for k in ("smem", "gmem"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} names a value-shuffled {shuffled} and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by shuffle checks")
    smem = _plain(fields, "smem", what)
    if smem.rank() not in (2, 3):
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be SmemLayoutA, (M, K[, PIPE]) -> element, not "
                                           f"rank {smem.rank()}")
    gmem = _plain(fields, "gmem", what)
    if gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be the reordered A over (M, K), rank 2 (one "
                                           "batch)")
    check = ShuffleCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, shuffled=shuffled,
                         smem=smem, gmem=gmem)
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    return check
