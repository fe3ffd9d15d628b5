"""The scale kind's configuration: the scale factors (SF) of operand A or B of a block-scaled tcgen05.mma, from the
global SF tensor (`gmem`) through TMA into the shared SF tile (`smem`, with its stages), through tcgen05.cp (`copy`:
SM100_UTCCP_4x32dp128bit_1cta / _2cta) into tensor memory (`tmem`, default CuTe's tmem_sf_frg of the shared tile's
shape), to the MMA that reads them (`mma`).

    scale_factors: A              # whose: A (CUTLASS's SFA) or B (SFB)
    value_type: float_ue8m0_t     # the SF type (ue8m0, ue4m3)
    sf_vec_size: 32               # VS: elements of K one factor scales
    smem: "((((32,4),1),(32,1)),1,(4,1),6):((((16,4),512),(0,1)),0,(1,512),512)"   # SmemLayoutSFA, CuTe's print
    gmem: "(((32,4),4),((32,4),8)):(((16,4),4096),((0,1),512))"    # layout_SFA over (MN, K): (mn, k) -> SF byte
    copy: SM100_UTCCP_4x32dp128bit_1cta
    tmem_base: 256                # the TMEM column the SF tile starts at (after the accumulators)

`smem` is CuTe's MMA-partitioned shape: ((MN_MMA, K_MMA), MMA repeats along MN, along K[, stages]), every layout in
bytes (an SF is one byte).  The theorems read it at the operand's own coordinates (mn, k).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...algebra.inttuple import product
from ...algebra.layout import Layout
from ...cute.blockscaled import SfAlloc, SfShape
from ...echo import quote
from ...specfile.fields import Fields, is_int, read_choice, read_version2_choice, refuse_keys, show
from ...specfile.model import SCALE_KEY, UTCCP_COPIES, CheckKind, CheckSpec, MMAAtomSpec, SpecError, common_fields
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS

SCALED_OPERANDS = ("A", "B")
SF_TYPES = ("float_ue8m0_t", "float_ue4m3_t")     # CuTe's scale-factor types (one byte each)
TMEM_ALLOCS = tuple(a.value for a in SfAlloc)
NOT_READ = ("operand", "atom_layout", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type",
            "tiled_copy", "major", "descriptor", "tma_box", "store", "buffer")
TMEM_COLUMN_LIMIT = 512
DEFAULT_SMEM_ALIGN = 128          # what TMA needs of the buffer (CUTLASS's SF arrays follow 128-aligned A and B)
MAX_SMEM_ALIGN = 1 << 20
VS_LIMIT = 1 << 10


@dataclass(kw_only=True)
class ScaleCheck(CheckSpec):
    """A block-scaled MMA's scale factors for one operand (theorems 24-26)."""
    kind: ClassVar[str] = CheckKind.SCALE
    mma: str
    copy: str
    scaled: str                       # "A" | "B": whose scale factors
    sf_vec_size: int
    smem: Layout                      # ((mn, k), n_mn, n_k[, stage]) -> SF byte
    gmem: Layout                      # (mn, k) -> SF byte of the global SF tensor
    tmem: Layout | None = None        # ((mn x replica, k), n_mn, n_k) -> TMEM uint8 element; None: tmem_sf_frg's
    tmem_alloc: SfAlloc = SfAlloc.DUPLICATED_4BY1
    tmem_base: int = 0                # the TMEM column of the SF tile's first cell
    tmem_columns: int = TMEM_COLUMN_LIMIT
    smem_align: int = DEFAULT_SMEM_ALIGN

    # -- the shared tile's shape, read off CuTe's partitioned layout -------------------------------------------
    @property
    def mn(self) -> int:
        """Rows (MN) of one MMA's SF tile."""
        return int(product(self.smem.mode(0).mode(0).shape))

    @property
    def k_mma(self) -> int:
        return int(product(self.smem.mode(0).mode(1).shape))

    @property
    def n_mn(self) -> int:
        return int(product(self.smem.mode(1).shape))

    @property
    def n_k(self) -> int:
        return int(product(self.smem.mode(2).shape))

    @property
    def stages(self) -> int:
        return int(product(self.smem.mode(3).shape)) if self.smem.rank() > 3 else 1

    @property
    def sf_shape(self) -> SfShape:
        return SfShape(self.mn * self.n_mn, self.k_mma, self.sf_vec_size, self.k_mma * self.n_k)

    def summary(self) -> str:
        return (f"scale factors of {self.scaled} for {self.mma}: {self.value_type.name if self.value_type else ''} "
                f"every {self.sf_vec_size}, gmem {self.gmem} -> smem {self.smem} -> {self.copy} -> TMEM")


def reads_scale_check(fields: Fields) -> bool:
    return fields.has(SCALE_KEY)


def _int(fl: Fields, k: str, lo: int, hi: int) -> int:
    x = fl.m[k]
    if not is_int(x) or not lo <= x <= hi:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be an integer in {lo}..{hi}, not {show(x)}")
    return int(x)


def read_scale_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None) -> ScaleCheck:
    what = fields.what
    scaled = read_version2_choice(fields, SCALE_KEY, SCALED_OPERANDS, upper=True)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} names the scale factors of {scaled}: it needs 'mma' (the block-scaled "
                                    "tcgen05.mma atom that reads them)")
    if named.copy not in UTCCP_COPIES:
        raise SpecError(fields.at("copy") if fields.has("copy") else fields.loc,
                        f"{what}: the scale factors reach tensor memory through tcgen05.cp: 'copy' must be one of "
                        f"{', '.join(UTCCP_COPIES)}" + (f", not {quote(str(named.copy))}" if named.copy else ""))
    assert named.value_type is not None
    if named.value_type.name not in SF_TYPES:
        raise SpecError(fields.at("value_type"), f"'value_type' of {what} is the scale factor's type: one of "
                                                 f"{', '.join(SF_TYPES)}, not {quote(named.value_type.name)}")
    for k in ("sf_vec_size", "smem", "gmem"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} names scale factors and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by scale checks")
    vs = _int(fields, "sf_vec_size", 1, VS_LIMIT)
    smem = fields.layout("smem")
    if not isinstance(smem, Layout) or smem.rank() not in (3, 4) or smem.mode(0).rank() != 2:
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be CuTe's partitioned SF layout ((MN, K), n_mn, "
                                           f"n_k[, stages]) -> byte, a plain layout, not {show(fields.m['smem'])}")
    gmem = fields.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS)
    if not isinstance(gmem, Layout) or gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be the global SF tensor over (MN, K), a plain "
                                           "rank-2 layout")
    check = ScaleCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, scaled=scaled,
                       sf_vec_size=vs, smem=smem, gmem=gmem)
    if fields.has("tmem"):
        tmem = fields.layout("tmem")
        if not isinstance(tmem, Layout) or tmem.rank() != 3:
            raise SpecError(fields.at("tmem"), f"'tmem' of {what} must be CuTe's TMEM SF layout ((MN, K), n_mn, n_k) "
                                               "-> TMEM element, a plain rank-3 layout")
        check.tmem = tmem
    if fields.has("tmem_alloc"):
        check.tmem_alloc = SfAlloc(read_choice(fields.m["tmem_alloc"], fields.at("tmem_alloc"),
                                               f"'tmem_alloc' of {what}", TMEM_ALLOCS, upper=False))
    if fields.has("tmem_base"):
        check.tmem_base = _int(fields, "tmem_base", 0, TMEM_COLUMN_LIMIT - 1)
    if fields.has("tmem_columns"):
        check.tmem_columns = _int(fields, "tmem_columns", 1, TMEM_COLUMN_LIMIT)
    if fields.has("smem_align"):
        align = _int(fields, "smem_align", 1, MAX_SMEM_ALIGN)
        if align & (align - 1):
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two, not {align}")
        check.smem_align = align
    return check
