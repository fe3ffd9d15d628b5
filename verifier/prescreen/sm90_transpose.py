"""SM90 tf32 (32-bit) GEMMs with A and B both MN-major: CUTLASS's register-sourced mainloops transpose B in shared
memory before wgmma reads it (the builders' IsWarpSpecializedTransposeB; AsyncTranspositionOperandB,
cutlass/transform/collective/sm90_wgmma_transpose.hpp).  The path of B as a transpose check (verifier/kinds/transpose,
theorem 34), its fields as CUTLASS builds them:

- SmemLayoutB = tile_to_shape(GMMA::Layout_MN_SW32_Atom<T>, (BLK_N, BLK_K, PIPE)) — rs_smem_selector's only atom for
  a transposed 32-bit B ("only optimized transpositionB(SW32 and SW128 for tf32) can be used, but prefer SW32") —
  tiled K first (Step<_2,_1,_3>) by the TMA mainloop, in the default order by the cp.async one; written by TMA from
  the MN-major global B, or by Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint_byte_t<sizeof(T) * AlignmentB>>, T>;
- GmmaSmemLayoutB = the same tile_to_shape of gmma_smem_transpose_or_passthrough's K-major atom (Layout_K_SW32_Atom);
- the buffer aligned to 256 bytes (the TMA mainloop's alignment_for_swizzle of SmemLayoutB, the cp.async mainloop's
  array_aligned<..., 256>): the transposition reads and writes through position-independent swizzles.

A (MN-major, SW32) takes the register-sourced paths builders.py writes for any MN-major 32-bit A.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from ..cute.transpose import transposed_atom

TRANSPOSE_ATOM = "Layout_MN_SW32_Atom"   # rs_smem_selector<MN, 32-bit, ..., is_ws_transposed_B = true>
TRANSPOSE_ALIGN = 256                    # smem_B's alignment in both mainloops (alignment_for_swizzle of SW32; 256)
MN_MAJOR_ORDER = "(2,1,3)"               # tile_to_shape's Step<_2,_1,_3> (the TMA mainloop)


class AtomFacts(Protocol):
    """An MMA atom a check names, with its traits (builders.MMAAtomFacts)."""
    @property
    def name(self) -> str: ...
    @property
    def fields(self) -> tuple[tuple[str, str], ...]: ...


@dataclass(frozen=True)
class TransposePathCheck:
    """B of a kernel transposed in shared memory, as a transpose check's fields (hashable: kernels share them)."""
    mma: AtomFacts
    operand: str                                    # "B"
    copy: str
    entries: tuple[tuple[str, str], ...]            # the check's other keys, YAML text

    def spec_lines(self) -> list[str]:
        return [f"    {k}: {v}" for k, v in self.entries]


def transposed_b(atom: AtomFacts, warpgroups: tuple[int, int, int], type_name: str, n: int, k: int, stages: int,
                 copy: str, gmem: str | None) -> TransposePathCheck:
    """The transpose check of B (`copy`: SM90_TMA_LOAD with `gmem`, or a cp.async atom through the tile's layout);
    CUTLASS's static_asserts on the transposition (K of 128 bytes ...) are judged by its theorem 34."""
    k_atom = transposed_atom(TRANSPOSE_ATOM)
    assert k_atom is not None
    order = f", {MN_MAJOR_ORDER}" if gmem is not None else ""
    smem = f"tile_to_shape(GMMA::{TRANSPOSE_ATOM}<{type_name}>, ({n},{k},{stages}){order})"
    gmma_smem = f"tile_to_shape(GMMA::{k_atom}<{type_name}>, ({n},{k},{stages}){order})"
    entries = [("transpose", "B"), ("atom_layout", f"[{', '.join(map(str, warpgroups))}]"), ("copy", json.dumps(copy)),
               ("value_type", type_name), ("smem", json.dumps(smem)), ("gmma_smem", json.dumps(gmma_smem))]
    if gmem is not None:
        entries.append(("gmem", json.dumps(gmem)))
    entries.append(("smem_align", str(TRANSPOSE_ALIGN)))
    return TransposePathCheck(atom, "B", copy, tuple(entries))
