"""Mixed-input GEMMs with scales (MixedInputMode ScaleOnly, ScaleWithZeroPoint): the generator's A of
`cute::tuple<Narrow, Wide[, Wide]>` (gemm_operation.py: scale and zero of B's type), as CUTLASS's RS builder and the
mixed-input collective build its scales and zero points, as data, and each kernel's scale paths as checks (theorems
31, 32).  A and B are the ConvertOnly kernels' paths (builders.py's map_sm90_mixed) with the builder's stage count,
whose stage also holds a (BLK_M, 1) tile of each of the scales and zero points
(compute_stage_count_or_override_single_affine_transformed_input); then one mixed-scale check a tensor:

- SmemLayoutScale: tile_to_shape of a (size<0>(SmemLayoutAtomA), 1) atom to (BLK_M, 1, Stages), Step<_2,_1,_3>;
- the global tensor: MN-major (M, scale_k), two CTA tiles along M, as many columns as K has groups of the smallest
  group size (BLK_K); K the prescreen's global extent; every multiple of BLK_K up to K is covered (the group sizes
  can_implement accepts but those larger than K; the library's operation (gemm_operation_3x.hpp) runs group_size = K,
  among them: the generator itself fixes none);
- the buffer's alignment: its offset in the collective's TensorStorage (smem_A, smem_B aligned to their swizzles,
  then smem_scale and smem_zero, cute::array_aligned's 16 bytes each), within the storage's alignment.

The int4 x 8-bit-float kernels (ScaleOnly only) scale through lookup tables: the generator's scale is
`cutlass::Array<Wide, 8>` (gemm_operation.py), one 8-entry table a (row, group), so the collective's
UseScaleLookupTable converts A with lookup_table_convert; their scale check and A's checks say `conversion:
lookup_table`, the scales are 64 bits each in the stage count, the buffers and the TMA.  The rules never import
builders.py (which calls them from `map_kernel`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from ..cute import mixed_input as MI
from .space import KernelConfig

SCALE_ONLY, SCALE_WITH_ZERO = "ScaleOnly", "ScaleWithZeroPoint"
TENSORS_OF_MODE: dict[str, tuple[str, ...]] = {SCALE_ONLY: ("scale",), SCALE_WITH_ZERO: ("scale", "zero")}
SCALE_ATOM_ROWS = 8                 # size<0> of every K-major GMMA shared-memory atom (Layout_K_*_Atom: 8 rows)
ARRAY_ALIGN = 16                    # cute::array_aligned's default alignment: smem_scale and smem_zero
GLOBAL_TILES = 2                    # CTA tiles of the global scale tensor along M a check names
SCALE_COPY = "SM90_TMA_LOAD"        # GmemTiledCopyScale
# the generator's lookup-table kernels (gemm_operation.py: an s4 A with an e4m3 / e5m2 B scales by
# cutlass::Array<scale, 8>; generator.py gives them ScaleOnly only)
LOOKUP_TABLE_NARROW = "int4b_t"
LOOKUP_TABLE_WIDE = ("float_e4m3_t", "float_e5m2_t")
LOOKUP_TABLE_ENTRIES = 8
LOOKUP_TABLE_CONVERSION = "lookup_table"     # the checks' `conversion:` (kinds/conversion.py)


class AtomFacts(Protocol):
    """builders.MMAAtomFacts: an MMA atom a check names, with the MMA_Traits the spec defines it by."""
    @property
    def name(self) -> str: ...
    @property
    def fields(self) -> tuple[tuple[str, str], ...]: ...


@dataclass(frozen=True)
class MixedScalePathCheck:
    """The scales or zero points of a mixed-input kernel as a check's fields (hashable: kernels share them)."""
    mma: AtomFacts
    tensor: str                                     # "scale" | "zero"
    copy: str
    entries: tuple[tuple[str, str], ...]            # the check's other keys, YAML text

    @property
    def operand(self) -> str:
        return self.tensor

    def spec_lines(self) -> list[str]:
        return [f"    {k}: {v}" for k, v in self.entries]


def scale_tensors(mode: str) -> tuple[str, ...]:
    """The tensors a MixedInputMode loads besides A: () for ConvertOnly."""
    return TENSORS_OF_MODE.get(mode, ())


def uses_lookup_table(mode: str, narrow: str, wide: str) -> bool:
    """The kernel's scales are lookup tables (the generator's int4 x 8-bit float ScaleOnly kernels)."""
    return mode == SCALE_ONLY and narrow == LOOKUP_TABLE_NARROW and wide in LOOKUP_TABLE_WIDE


def scale_type(lookup: bool, wide: str, wide_bits: int) -> tuple[str, int]:
    """ElementScale (and ElementZero) of a kernel and its bits: B's type, or for lookup tables an Array of 8 of it."""
    if lookup:
        return f"cutlass::Array<{wide}, {LOOKUP_TABLE_ENTRIES}>", LOOKUP_TABLE_ENTRIES * wide_bits
    return wide, wide_bits


def scale_stage_bytes(mode: str, tile_m: int, scale_bits: int) -> int:
    """The bytes the scales and zero points add to a stage (the builder's scale_bytes + zero_bytes)."""
    return len(scale_tensors(mode)) * -(-scale_bits * tile_m // 8)


def _round_up(x: int, to: int) -> int:
    return -(-x // to) * to


@dataclass(frozen=True)
class Storage:
    """The collective's TensorStorage: each buffer's byte offset, and the storage's alignment."""
    smem_a: int
    smem_b: int
    smem_scale: int
    smem_zero: int
    align: int

    def buffer_align(self, tensor: str) -> int:
        """The alignment a buffer is guaranteed: the largest power of two dividing its offset, at most the storage's."""
        offset = self.smem_zero if tensor == "zero" else self.smem_scale
        return min(self.align, offset & -offset) if offset else self.align


def storage(tile: tuple[int, int, int], stages: int, bits_a: int, bits_b: int, scale_bits: int, align_a: int,
            align_b: int) -> Storage:
    """CUTE_ALIGNAS(SmemAlignmentA) smem_A, CUTE_ALIGNAS(SmemAlignmentB) smem_B, then smem_scale and smem_zero
    (ArrayEngine of whole-byte types: cute::array_aligned, 16 bytes)."""
    m, n, k = tile
    size_a = -(-m * k * stages * bits_a // 8)
    size_b = -(-n * k * stages * bits_b // 8)
    offset_b = _round_up(size_a, align_b)
    offset_scale = _round_up(offset_b + size_b, ARRAY_ALIGN)
    offset_zero = _round_up(offset_scale + m * stages * scale_bits // 8, ARRAY_ALIGN)
    return Storage(0, offset_b, offset_scale, offset_zero, max(align_a, align_b))


def _yaml(text: str) -> str:
    return json.dumps(text)


def mixed_scale_checks(kc: KernelConfig, mma: AtomFacts, warpgroups: tuple[int, int, int], stages: int,
                       scale_type: str, store: Storage, problem_k: int,
                       lookup: bool = False) -> tuple[MixedScalePathCheck, ...]:
    """A mixed-scale check of each tensor the kernel's mode loads (none for ConvertOnly); `lookup`: its scales are
    lookup tables."""
    m, n, k = kc.tile
    smem = MI.scale_smem(SCALE_ATOM_ROWS, m, stages)
    gmem = MI.scale_global(GLOBAL_TILES * m, problem_k // k)
    out = []
    for tensor in scale_tensors(kc.mixed_mode):
        value_type = _yaml(scale_type) if lookup else scale_type      # cutlass::Array<Wide, 8>: quoted
        entries: tuple[tuple[str, str], ...] = (
            ("mixed_scales", tensor), ("atom_layout", f"[{', '.join(map(str, warpgroups))}]"),
            ("tile", f"[{m}, {n}, {k}]"), ("copy", SCALE_COPY), ("value_type", value_type),
            ("smem", _yaml(str(smem))), ("gmem", _yaml(str(gmem))), ("problem_k", str(problem_k)),
            ("smem_align", str(store.buffer_align(tensor))))
        if lookup:
            entries += (("conversion", LOOKUP_TABLE_CONVERSION),)
        out.append(MixedScalePathCheck(mma, tensor, SCALE_COPY, entries))
    return tuple(out)
