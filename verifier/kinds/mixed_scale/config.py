"""The mixed-input scale kind's configuration: the scales (or zero points) of an SM90 mixed-input GEMM's narrow A,
from the global tensor (`gmem`, MN-major (M, scale_k)) through the scale TMA into the shared stages (`smem`,
SmemLayoutScale) and the k-block 0 copy into registers (`register_copy` on make_tiled_copy_A of the tiled MMA), to the
converted A elements they multiply (CUTLASS's MainloopSm90TmaGmmaRmemAWarpSpecializedMixedInput).

    mixed_scales: scale           # which tensor: scale (ConvertAndScale[WithZero]) or zero (ConvertAndScaleWithZero)
    mma: "SM90_64x128x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>"    # the RS wgmma the converted A feeds
    atom_layout: [2, 1, 1]        # the tiled MMA (cooperative: two warpgroups along M)
    tile: [128, 128, 64]          # the CTA tile (M, N, K)
    copy: SM90_TMA_LOAD           # GmemTiledCopyScale
    value_type: half_t            # ElementScale (ElementZero): B's type in the generator's kernels
    smem: "((_8,_16),(_1,_1),(_1,_9)):((_1,_8),(_0,_0),(_0,_128))"   # SmemLayoutScale, CuTe's print
    gmem: "(256,64):(1,256)"      # the scale tensor over (m, column) of one batch, MN-major
    problem_k: 4096               # the problem's K: its k-tiles, and the group sizes covered
    # group_size: 128             # one group size; default: every multiple of BLK_K up to problem_k (K among them)
    # register_copy: AutoVectorizingCopy   # SmemCopyAtomScale's operation (the atom library's generic.yaml)
    # reader_atom_layout: [2, 1, 1]        # the tiled MMA partition_A / make_tiled_copy_A of the scales use
    # smem_align: 128             # the buffer's alignment (its offset in CUTLASS's TensorStorage)
    # conversion: lookup_table    # the scales are lookup tables (UseScaleLookupTable: ScaleOnly, value_type
    #                             #   cutlass::Array<float_e4m3_t, 8>, an int4b_t A converted by lookup_table_convert)

`smem` and `gmem` are in elements of `value_type`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...algebra.inttuple import product
from ...algebra.layout import Layout, make_layout
from ...algebra.types import array_type
from ...echo import quote
from ...specfile.fields import AtomTable, Fields, is_int, read_version2_choice, refuse_keys, show
from ...specfile.model import TMA_COPIES, CheckKind, CheckSpec, MMAAtomSpec, SpecError, common_fields
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS
from ..conversion import CONVERSION_KEY, CONVERSION_LOOKUP_TABLE, read_lookup_table

MIXED_SCALES_KEY = "mixed_scales"       # the key that makes a check a mixed-input scale check
SCALE, ZERO = "scale", "zero"
TENSORS = (SCALE, ZERO)                 # which of the two tensors a check follows (they share every layout)
DEFAULT_REGISTER_COPY = "AutoVectorizingCopy"   # SmemCopyAtomScale = Copy_Atom<AutoVectorizingCopy, ElementScale>
WGMMA_INSTRUCTION = "wgmma."
NOT_READ = ("operand", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type", "tiled_copy",
            "major", "descriptor", "tma_box", "store", "buffer", "tmem", "tmem_columns", "scale_factors",
            "sf_vec_size", "tmem_alloc", "tmem_base", "smem_partition", "metadata", "blockwise", "granularity",
            "copy_layout", "tmem_load", "epilogue_tile")
DEFAULT_SMEM_ALIGN = 128
MAX_SMEM_ALIGN = 1 << 20
LIMIT = 1 << 16                         # tile extents, problem K, group sizes


@dataclass(kw_only=True)
class MixedScaleCheck(CheckSpec):
    """A mixed-input GEMM's scales or zero points (theorems 31, 32), with the MMA atom's theorems 1, 2 and 11."""
    kind: ClassVar[str] = CheckKind.MIXED_SCALE
    mma: str
    copy: str
    tensor: str                              # "scale" | "zero"
    tile: tuple[int, int, int]               # the CTA tile (M, N, K)
    smem: Layout                             # SmemLayoutScale   // (m, 0, stage) -> slot
    gmem: Layout                             # the scale tensor  // (m, column) -> element
    problem_k: int
    register_copy: str = DEFAULT_REGISTER_COPY
    group_size: int | None = None            # None: every multiple of BLK_K up to problem_k
    reader_atom_layout: tuple[int, ...] | None = None
    smem_align: int = DEFAULT_SMEM_ALIGN
    lookup_table: bool = False               # `conversion: lookup_table`: CUTLASS's UseScaleLookupTable

    @property
    def stages(self) -> int:
        return int(product(self.smem.mode(2).shape))

    def summary(self) -> str:
        groups = f"group {self.group_size}" if self.group_size is not None else "every group size"
        tables = "lookup-table " if self.lookup_table else ""
        return (f"mixed-input {tables}{self.tensor}s of A ({groups}, K = {self.problem_k}, tile "
                f"{'x'.join(map(str, self.tile))}): gmem {self.gmem} -> {self.copy} -> smem {self.smem} -> "
                f"{self.register_copy} -> {self.mma} A")


def reads_mixed_scale_check(fields: Fields) -> bool:
    return fields.has(MIXED_SCALES_KEY)


def _ints(fields: Fields, key: str, n: int) -> tuple[int, ...]:
    values = fields.int_list(key, n, n)
    if any(v <= 0 or v > LIMIT for v in values):
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must hold integers from 1 to {LIMIT}, not "
                                        f"{list(values)}")
    return values


def _int(fields: Fields, key: str) -> int:
    x = fields.m[key]
    if not is_int(x) or not 0 < x <= LIMIT:
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be an integer from 1 to {LIMIT}, not "
                                        f"{show(x)}")
    return int(x)


def _layouts(fields: Fields) -> tuple[Layout, Layout]:
    what = fields.what
    smem = fields.layout("smem")
    if not isinstance(smem, Layout) or smem.rank() != 3:
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be CUTLASS's SmemLayoutScale, (BLK_M, 1, PIPE) -> "
                                           f"slot, a plain rank-3 layout, not {show(fields.m['smem'])}")
    gmem = fields.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS)
    if isinstance(gmem, Layout) and gmem.rank() == 3 and int(product(gmem.mode(2).shape)) == 1:
        gmem = make_layout(gmem.mode(0), gmem.mode(1))           # (M, scale_k, L) of one batch
    if not isinstance(gmem, Layout) or gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be the scale tensor over (M, scale_k) of one "
                                           f"batch, a plain rank-2 layout, not {show(fields.m['gmem'])}")
    return smem, gmem


def read_mixed_scale_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None,
                           atoms: AtomTable) -> MixedScaleCheck:
    what = fields.what
    tensor = read_version2_choice(fields, MIXED_SCALES_KEY, TENSORS, upper=False)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} names the mixed-input {tensor}s of A: it needs 'mma' (the RS wgmma atom "
                                    "the converted A feeds)")
    if not (mma.instruction or "").strip().startswith(WGMMA_INSTRUCTION):
        raise SpecError(fields.at("mma"), f"{what}: the mixed-input scales multiply the A of an RS wgmma; "
                                          f"{quote(mma.name)} issues {quote(mma.instruction or 'no instruction')}")
    if named.copy is None or named.copy not in TMA_COPIES:
        raise SpecError(fields.at("copy") if fields.has("copy") else fields.loc,
                        f"{what} needs 'copy: {TMA_COPIES[0]}' (GmemTiledCopyScale: the collective loads the "
                        f"{tensor}s by TMA)")
    if named.value_type is None:
        raise SpecError(fields.loc, f"{what} needs 'value_type': the {tensor}s' type (ElementScale)")
    for k in ("tile", "smem", "gmem", "problem_k"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} names mixed-input {tensor}s and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by mixed-input scale checks")
    smem, gmem = _layouts(fields)
    tile = _ints(fields, "tile", 3)
    check = MixedScaleCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, tensor=tensor,
                            tile=(tile[0], tile[1], tile[2]), smem=smem, gmem=gmem, problem_k=_int(fields, "problem_k"))
    if fields.has("group_size"):
        check.group_size = _int(fields, "group_size")
    if fields.has("register_copy"):
        check.register_copy = atoms.lookup(fields, "register_copy", atoms.copy, "copy atom")
    elif DEFAULT_REGISTER_COPY not in atoms.copy:
        raise SpecError(fields.loc, f"{what}: the {tensor}s are copied into registers with {DEFAULT_REGISTER_COPY} "
                                    "(SmemCopyAtomScale): include the atom library's generic.yaml, or name "
                                    "'register_copy'")
    if fields.has("reader_atom_layout"):
        check.reader_atom_layout = _ints(fields, "reader_atom_layout", 3)
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    _read_lookup_table(fields, check)
    return check


def _read_lookup_table(fields: Fields, check: MixedScaleCheck) -> None:
    """`conversion: lookup_table`: the collective's UseScaleLookupTable (ConvertAndScale with an Array scale); an Array
    scale without it, or zero points with it, are not a configuration CUTLASS builds."""
    check.lookup_table = read_lookup_table(fields, None)
    vt = check.value_type
    assert vt is not None
    if check.lookup_table and check.tensor != SCALE:
        raise SpecError(fields.at(CONVERSION_KEY), f"'{CONVERSION_KEY}: {CONVERSION_LOOKUP_TABLE}' of {fields.what}: "
                                                   "the lookup tables are scales (UseScaleLookupTable is "
                                                   "ConvertAndScale: no zero points)")
    if not check.lookup_table and array_type(vt.name) is not None:
        raise SpecError(fields.at("value_type"), f"{fields.what}: {check.tensor}s of {quote(vt.name)} make CUTLASS's "
                                                 "collective convert by lookup tables (UseScaleLookupTable: an Array "
                                                 f"scale); the check says so with '{CONVERSION_KEY}: "
                                                 f"{CONVERSION_LOOKUP_TABLE}'")
