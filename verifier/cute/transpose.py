"""What CUTLASS 4.2 builds to transpose operand B in shared memory for wgmma, when A and B are both MN-major and not
16-bit (wgmma reads 8- and 32-bit operands K-major only).

- the builders (cutlass/gemm/collective/builders/sm90_gmma_builder.inl, sm90_common.inl): is_warpspecialized_
  transpose_B holds for such a GEMM on a warp-specialized schedule; rs_smem_selector then gives a 32-bit MN-major
  operand GMMA::Layout_MN_SW32_Atom (its static_assert otherwise);
- the register-sourced mainloops (sm90_mma_tma_gmma_rs_warpspecialized.hpp, sm90_mma_multistage_gmma_rs_
  warpspecialized.hpp): SmemLayoutB, the tile TMA (or cp.async) writes, and GmmaSmemLayoutB, the same tile_to_shape
  of gmma_smem_transpose_or_passthrough's K-major atom (Layout_MN_SWxx -> Layout_K_SWxx), which the descriptor reads:
  two layouts of one buffer; their static_asserts "SmemLayoutB K must be 128bytes to be transposed." and "Warp
  specialized ARF kernels have not supported universal B transposition yet.";
- make_transpose_operand_b (cutlass/transform/collective/sm90_wgmma_transpose.hpp) picks AsyncTranspositionOperandB
  for a 4-byte element on an SW32 or SW128 atom (use_universal_transposition is false), whose operator()(sB, gmma_sB,
  stage, current_step) — `Steps` = 2 calls for one math warpgroup, one call each for two — has every warp load two
  8 x 8 warp tiles of each 32 x 32 warpgroup tile (zipped_divide of the stage by (8, 8)) into registers, with the
  tiled copy make_tiled_copy(Copy_Atom<DefaultCopy, ElementB>, (4, 8) threads, 1 value), then __syncwarp, then
  store them at the same coordinates of the transposed tensor; which two tiles comes from two 48-bit tables
  (WarpTileNCoordLUT, WarpTileKCoordLUT: 3 bits a step, 12 bits a warp), sliced by warp_idx % 4 in the constructor,
  by current_step and, for two math warpgroups, by warp_idx / 8; the second tile is the first's mirror (or its
  diagonal successor); `synchronize(k_block)` (fence.proxy.async and the named barrier of all math threads) when
  k_block < StepsPerWarpGroup.

The mainloops call operator() for current_step 0 before the k-tile's first wgmma and for current_step k_block + 1
after synchronize(k_block), before wgmma k_block: every transposition of current step c is fenced before wgmma
k_block exactly when c <= k_block (`fenced`).  The TMA mainloop synchronizes between the two current steps of every
k-tile; the cp.async one runs them back to back in its first k-tile (`steps_separated`).  What a fence and barrier
guarantee is assumed, not modelled: the PTX ISA's memory consistency model (its proxies: wgmma reads shared operands
through the async proxy, and fence.proxy.async orders the generic proxy's prior writes before it); so is the order of
CUTLASS's pipeline (TMA's writes of a stage complete before its transposition, the stage released after its wgmmas)
and of the pingpong kernel's two math warpgroups, whose mainloops the kernel's order barrier serializes.  The
consumer warps of a warp-specialized kernel are CTA warps 4.. (warpgroup 0 is the producer's): math warpgroup g's
warp w is warp_idx 4 + 4 g + w.  Every value here is a fact of the header, read off its code;
tools/cute_dump/transpose.cu prints CUTLASS's own and transpose_exec.cpp runs its operator() on the host
(tests/data/cute_transpose.json).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..algebra.layout import Layout
from .copy import CopyAtom, TiledCopy, make_tiled_copy

ASYNC_TRANSPOSITION = "AsyncTranspositionOperandB"
ONE_BYTE_TRANSPOSITION = "AsyncTranspositionOperandB_1BElementB"
UNIVERSAL_TRANSPOSITION = "UniversalTranspositionOperandB"
BYTE_BITS = 8
TRANSPOSED_BYTES = 4                  # the element AsyncTranspositionOperandB moves (tf32 / float / 32-bit int)
K_BYTES = 128                         # "SmemLayoutB K must be 128bytes to be transposed."
SWIZZLE_UNIT_BYTES = 16               # BytesPerSmemSwizzleUnit: WarpThreadShapeN = 16 / sizeof(ElementB)
WARP_THREADS = 32
WARPGROUP_WARPS = 4                   # NumWarpsPerWarpGroup
MAX_WARPGROUPS = 2                    # "Wrong math warp group number for TransposeB"
STEPS = 2                             # AsyncTranspositionOperandB::Steps
TILES_PER_WARP = 2                    # two warp tiles a warp a step (transpose_fragments[2])
PRODUCER_WARPS = 4                    # CTA warps 0..3 are the producer warpgroup; math warps follow
WARPS_PER_WARPGROUP_PAIR = 8          # warp_idx / (NumWarpsPerWarpGroup * 2): which of two math warpgroups
# WarpTileNCoordLUT / WarpTileKCoordLUT: [warp][step] -> warp tile 0's (n, k) in a warpgroup tile, 3 bits a step
N_COORD_TABLE = 0o6723763275316420
K_COORD_TABLE = 0o5410541064206420
BITS_PER_STEP, STEP_MASK = 3, 0o7
BITS_PER_WARP, WARP_MASK = 12, 0o7777
# the swizzles of an MN-major 32-bit atom use_universal_transposition sends to the universal transposition
UNIVERSAL_SWIZZLE_BYTES = (0, 64)     # Layout_MN_INTER_Atom (no swizzle), Layout_MN_SW64_Atom
# CUTLASS's rules, as its static_asserts say them
RULE_K = "SmemLayoutB K must be 128bytes to be transposed."
RULE_UNIVERSAL = "Warp specialized ARF kernels have not supported universal B transposition yet."
RULE_WARPGROUPS = "Wrong math warp group number for TransposeB"
RULE_DIVIDE = "Copy size must evenly divide SMEM tile."
RULE_FIRST_K_BLOCK = "Need to be able to transpose first k-block in the first step"
RULE_ATOM = "Unsupported Layout_SW_Atom for B SMEM transposition"    # gmma_smem_transpose_or_passthrough<true>
ONE_BYTE_ASYNC_SWIZZLE_BYTES = 128    # use_universal_transposition: a 1-byte B is async on Layout_MN_SW128 only
# CuTe's DefaultCopy (AutoVectorizingCopyWithAssumedAlignment<8>): one element a thread, (thr, bit) -> bit
DEFAULT_COPY = CopyAtom("DefaultCopy", Layout(1), Layout((1, 1), (0, 0)), Layout((1, 1), (0, 0)),
                        Layout((1, 1), (0, 0)))


@dataclass(frozen=True)
class WarpTile:
    """One 8 x 8 warp tile of a warpgroup tile: the warp that moves it and the call of operator() it is moved in."""
    warpgroup: int                    # the math warpgroup (1 only in a cooperative kernel)
    warp: int                         # the warp of its warpgroup (warp_idx % 4)
    step: int                         # current_step, the call of operator() (0 or 1)
    slot: int                         # which of the warp's two tiles of the call (transpose_fragments[slot])
    n: int                            # the warp tile's coordinates in the 32 x 32 warpgroup tile (units of 8)
    k: int

    @property
    def table_step(self) -> int:
        """The step of the coordinate tables the tile is read from (current_step, or the warpgroup of two)."""
        return self.step + self.warpgroup

    @property
    def owner(self) -> tuple[int, int, int]:
        """(warpgroup, warp, current step): the loads and stores of one owner are ordered by its __syncwarp."""
        return self.warpgroup, self.warp, self.step


@dataclass(frozen=True)
class Refused:
    """CUTLASS does not build the transposition: its static_assert and what broke it."""
    rule: str
    detail: str


@dataclass(frozen=True)
class Transposition:
    """AsyncTranspositionOperandB of one configuration: B of `n_extent` x `k_extent` elements a stage."""
    element_bits: int
    warpgroups: int                   # NumMathWarpGroup: size(TiledMma) / 128
    n_extent: int                     # BLK_N
    k_extent: int                     # BLK_K (WarpgroupTileSize: a warpgroup tile spans the whole K)
    steps_separated: bool             # a CTA barrier between the current steps of every k-tile (the TMA mainloop)

    @property
    def warp_thread(self) -> tuple[int, int]:
        """(WarpThreadShapeN, WarpThreadShapeK): the warp's threads over one warp tile, N fastest."""
        n = SWIZZLE_UNIT_BYTES * BYTE_BITS // self.element_bits
        return n, WARP_THREADS // n

    @property
    def warpgroup_tile(self) -> int:
        return self.k_extent

    @property
    def warp_tile(self) -> int:
        """WarpTileSize: a warpgroup tile is NumWarpsPerWarpGroup x NumWarpsPerWarpGroup warp tiles."""
        return self.warpgroup_tile // WARPGROUP_WARPS

    @property
    def warpgroup_tiles(self) -> int:
        """WarpgroupTileNum: the warpgroup tiles along N, each transposed by every call."""
        return self.n_extent // self.warpgroup_tile

    @property
    def steps_per_warpgroup(self) -> int:
        return STEPS // self.warpgroups

    @cached_property
    def schedule(self) -> tuple[WarpTile, ...]:
        """Every warp tile each warp moves in each call, as operator() decodes the coordinate tables."""
        out = []
        for g in range(self.warpgroups):
            for w in range(WARPGROUP_WARPS):
                warp_idx = PRODUCER_WARPS + WARPGROUP_WARPS * g + w
                n_slice = (N_COORD_TABLE >> (warp_idx % WARPGROUP_WARPS) * BITS_PER_WARP) & WARP_MASK
                k_slice = (K_COORD_TABLE >> (warp_idx % WARPGROUP_WARPS) * BITS_PER_WARP) & WARP_MASK
                for step in range(self.steps_per_warpgroup):
                    n_bits, k_bits = n_slice >> BITS_PER_STEP * step, k_slice >> BITS_PER_STEP * step
                    if self.warpgroups == MAX_WARPGROUPS:
                        shift = BITS_PER_STEP * (warp_idx // WARPS_PER_WARPGROUP_PAIR)
                        n_bits, k_bits = n_bits >> shift, k_bits >> shift
                    n0, k0 = n_bits & STEP_MASK, k_bits & STEP_MASK
                    n1, k1 = (n0 + 1, k0 + 1) if n0 == k0 else (k0, n0)
                    out += [WarpTile(g, w, step, 0, n0, k0), WarpTile(g, w, step, 1, n1, k1)]
        return tuple(out)

    def fenced(self, step: int, k_block: int) -> bool:
        """Whether every store of call `step` is fenced (fence.proxy.async, the math threads' named barrier) before
        wgmma `k_block` reads the stage: synchronize(k_block) follows the calls up to current_step k_block."""
        return step <= k_block

    @cached_property
    def thread_copy(self) -> TiledCopy:
        """make_tiled_copy(Copy_Atom<DefaultCopy, ElementB>, make_layout((WarpThreadShapeN, WarpThreadShapeK)),
        Layout<_1>): one warp's copy of a warp tile, one element a thread a copy."""
        return make_tiled_copy(DEFAULT_COPY.with_value_bits(self.element_bits), Layout(self.warp_thread), Layout(1))

    @cached_property
    def lane_to_coord(self) -> Layout:
        """partition_S / partition_D of one warp tile (flatten of the zipped_divide's tile): (lane, value) -> n + 8 k
        of the 8 x 8 warp tile — the same for the loaded and the transposed tensor (one tiled copy, one shape)."""
        tile = self.warp_tile
        tv = self.thread_copy.tidfrg_S(Layout((tile, tile)))        # (thr, atom value, rest) -> n + tile k
        return Layout((tv.mode(0).shape, tv.mode(2).shape), (tv.mode(0).stride, tv.mode(2).stride))

    @property
    def values(self) -> int:
        """Values a lane moves of one warp tile."""
        return int(self.lane_to_coord.mode(1).size())

    @property
    def lanes(self) -> int:
        return int(self.lane_to_coord.mode(0).size())

    def coord_of(self, lane: int, value: int) -> int:
        """n + warp_tile k of the warp-tile element (lane, value) moves."""
        return self.lane_to_coord(lane + self.lanes * value)


def _mn_atom(swizzle_bytes: int) -> str:
    """The MN-major GMMA layout atom of a swizzle span (0: none)."""
    return f"Layout_MN_{f'SW{swizzle_bytes}' if swizzle_bytes else 'INTER'}_Atom"


def transposition(element_bits: int, warpgroups: int, n_extent: int, k_extent: int, atom_k: int,
                  swizzle_bytes: int, steps_separated: bool, mn_major: bool = True) -> Transposition | Refused | str:
    """The AsyncTranspositionOperandB CUTLASS builds for B of `element_bits` bits on a tile of `n_extent` x
    `k_extent` (swizzle span `swizzle_bytes`, 0: none; `mn_major`: its N contiguous, as the MN-major GMMA atoms
    make it) and an MMA of K `atom_k`; CUTLASS's refusal; or (a string) why no model applies."""
    element_bytes = element_bits // BYTE_BITS
    if element_bits % BYTE_BITS or element_bytes not in (1, TRANSPOSED_BYTES):
        return (f"{element_bits}-bit B: CUTLASS transposes only 8- and 32-bit B in shared memory (16-bit B is read "
                "MN-major by wgmma itself)")
    if not mn_major:
        return Refused(RULE_ATOM, "the written tile is K-major (its K contiguous): the transposition takes only "
                                  "the MN-major GMMA::Layout_MN_*_Atom as SmemLayoutAtomB")
    if element_bytes == 1 and swizzle_bytes != ONE_BYTE_ASYNC_SWIZZLE_BYTES:
        return Refused(RULE_UNIVERSAL, f"an 8-bit B on GMMA::{_mn_atom(swizzle_bytes)}: use_universal_transposition "
                                       f"is true for every 1-byte atom but {_mn_atom(ONE_BYTE_ASYNC_SWIZZLE_BYTES)}, "
                                       f"and the register-sourced mainloops refuse {UNIVERSAL_TRANSPOSITION}")
    if element_bytes == 1:
        return (f"8-bit B on GMMA::{_mn_atom(swizzle_bytes)}: CUTLASS's {ONE_BYTE_TRANSPOSITION} (eight steps of "
                f"8 x 8 warp tiles) has no model; the model is {ASYNC_TRANSPOSITION}'s, of 32-bit B")
    if swizzle_bytes in UNIVERSAL_SWIZZLE_BYTES:
        return Refused(RULE_UNIVERSAL, f"a 32-bit B on GMMA::{_mn_atom(swizzle_bytes)}: make_transpose_operand_b "
                                       f"picks {UNIVERSAL_TRANSPOSITION}, which the register-sourced mainloops refuse")
    if k_extent * element_bytes != K_BYTES:
        return Refused(RULE_K, f"a K extent of {k_extent} elements, {k_extent * element_bytes} bytes")
    if not 1 <= warpgroups <= MAX_WARPGROUPS:
        return Refused(RULE_WARPGROUPS, f"{warpgroups} math warpgroups (NumMathWarpGroup at most {MAX_WARPGROUPS})")
    t = Transposition(element_bits, warpgroups, n_extent, k_extent, steps_separated)
    if n_extent % t.warpgroup_tile:
        return Refused(RULE_DIVIDE, f"BLK_N {n_extent} is no multiple of the warpgroup tile {t.warpgroup_tile}")
    if atom_k > t.warp_thread[1]:
        return Refused(RULE_FIRST_K_BLOCK, f"the MMA's K {atom_k} exceeds WarpThreadShapeK {t.warp_thread[1]}")
    return t


def transposed_atom(atom: str) -> str | None:
    """gmma_smem_transpose_or_passthrough<true, ...>: the K-major GMMA atom the descriptor reads in place of an
    MN-major one (None: its static_assert "Unsupported Layout_SW_Atom for B SMEM transposition")."""
    for swizzle in ("SW128", "SW64", "SW32", "INTER"):
        if atom == f"Layout_MN_{swizzle}_Atom":
            return f"Layout_K_{swizzle}_Atom"
    return None
