"""The value-shuffled narrow A of CUTLASS's SM90 mixed-input kernels (the generator's `_shfl` ConvertOnly kernels),
as the kernel and its collective build it: gemm_operation.py writes A's layout as tile_to_shape(compute_memory_
reordering_atom<Wide, Layout<Shape<_1,_1>>, ValueShuffle>(), (M, K, L)) with ValueShuffle (2,4):(4,1) for a 4-bit A
and (2,2):(2,1) for an 8-bit one; the collective's SmemLayoutA is that layout's tile made compact (get_smem_layout)
with the stages the builder counts, TMA loads it, the threads copy thr_mma.partition_A into a buffer laid out like it
(make_tensor_like) with Copy_Atom<AutoVectorizingCopy, Narrow>, and dequantize_A_kblock converts it into the RS
fragment (cute/shuffle.py).  One shuffle check (theorem 35) a kernel's A; B is the dense descriptor path."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from ..cute import shuffle as SH
from .atom_facts import MMAAtomFacts

SHUFFLE_COPY = "AutoVectorizingCopy"     # the builder's SmemCopyAtomA: Copy_Atom<AutoVectorizingCopy, ElementA>
GLOBAL_TILES = 2                          # the global A a check names: two CTA tiles each way


@dataclass(frozen=True)
class ShufflePathCheck:
    """A kernel's value-shuffled A as a shuffle check's fields (hashable: kernels share them)."""
    mma: MMAAtomFacts                               # the RS atom, written into the spec
    operand: str                                    # "A"
    copy: str
    entries: tuple[tuple[str, str], ...]            # the check's other keys, YAML text

    def spec_lines(self) -> list[str]:
        return [f"    {k}: {v}" for k, v in self.entries]


def shuffle_unsupported(narrow_bits: int, wide_bits: int) -> str | None:
    """Why a narrow A of these widths has no ValueShuffle the generator writes, or None."""
    if wide_bits != 16 or narrow_bits not in SH.VALUE_SHUFFLES:
        return (f"a value-shuffled {narrow_bits}-bit A with a {wide_bits}-bit B: the generator writes ValueShuffle for "
                "4- and 8-bit A with a 16-bit B only")
    return None


@lru_cache(maxsize=None)      # a pure function of its arguments: the families of a level share a few hundred
def shuffled_a_check(mma: MMAAtomFacts, narrow_type: str, narrow_bits: int, warpgroups: tuple[int, int, int],
                     tile: tuple[int, int], stages: int) -> ShufflePathCheck:
    """The shuffle check of a kernel's A: the reordering atom of its ValueShuffle, SmemLayoutA with the stages, the
    global A over two tiles each way."""
    smem, gmem = _shuffled_layouts(narrow_bits, tile, stages)
    entries = (("shuffled", "A"), ("atom_layout", f"[{', '.join(map(str, warpgroups))}]"),
               ("copy", SHUFFLE_COPY), ("value_type", narrow_type), ("smem", smem), ("gmem", gmem))
    return ShufflePathCheck(mma, "A", SHUFFLE_COPY, entries)


@lru_cache(maxsize=None)      # the layouts do not read the atom (whose N varies across a level's kernels)
def _shuffled_layouts(narrow_bits: int, tile: tuple[int, int], stages: int) -> tuple[str, str]:
    """SmemLayoutA with the stages and the global A over two tiles each way, as the check's YAML text."""
    blk_m, blk_k = tile
    atom = SH.reordering_atom(SH.VALUE_SHUFFLES[narrow_bits])
    smem = SH.shuffled_smem(atom, blk_m, blk_k, stages)
    gmem = SH.reordered_gmem(atom, GLOBAL_TILES * blk_m, GLOBAL_TILES * blk_k)
    return json.dumps(smem.plain()), json.dumps(gmem.plain())
