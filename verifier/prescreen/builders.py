"""Which CuTe configuration a generated kernel is built with: the collective builder's rules, as data.

SM90 (`include/cutlass/gemm/collective/builders/sm90_gmma_builder.inl`, the SS TMA warp-specialized mainloop):
the GMMA atom `ss_op_selector` picks (64 x BLK_N x 256/bits, each operand's major-ness from its layout), one
warpgroup or two along M (cooperative), the shared layout `tile_to_shape(<ss_smem_selector's GMMA atom>, (BLK_MN,
BLK_K, PIPE))` (Step<_2,_1,_3> for MN-major), filled by SM90_TMA_LOAD.  KernelScheduleAuto is pingpong for
BLK_M = 64 and cooperative otherwise when both operands are 16-byte aligned (TMA); a cp.async mainloop otherwise.
Stages: the builder's count for the whole shared memory without the epilogue's carveout (an upper bound; every
stage is proved alike).

SM80 (CUTLASS 2.x kernels): the CuTe configuration CUTLASS 3.x writes for the same types and layouts
(`DefaultGemmConfigurationToCutlass3Types`, test/unit/gemm/device/default_gemm_configuration.hpp): the mma.sync
atom on the kernel's warps with a 1x2x1 value group (Tile<16*WM, 16*WN, K_atom>), the K-major swizzle atom for the
K block (ldmatrix) or the MN-major one (ldmatrix.trans; UniversalCopy for 32-bit), tiled to the CTA's (MN, K).

SM100 (`include/cutlass/gemm/collective/builders/sm100_umma_builder.inl` with `sm100_common.inl`, the dense SS TMA
UMMA mainloop): the builder is given the MMA tile (MMA_M x MMA_N x BLK_K).  The schedule's 1-SM / 2-SM choice
(KernelScheduleAuto: 2-SM on a static cluster even along M with MMA_M a multiple of 128) picks the tcgen05 atom
`sm100_make_{1,2}sm_trivial_tiled_mma` builds for the operand types (SM100_MMA_{TF32,F16BF16,S8,F8F6F4}[_2x1SM]_SS,
its traits written into the spec as CuTe's MMA_Traits define them); each CTA holds MMA_M / cta_group rows of A and
MMA_N / cta_group rows of B, laid out by `tile_to_shape(<sm100_smem_selector's UMMA atom>, (rows, BLK_K, PIPE))`
(Step<_2,_1,_3> for MN-major): the widest swizzle whose span divides the CTA tile's contiguous extent, and
UMMA::Layout_MN_SW128_32B_Atom for every MN-major 32-bit operand; filled by TMA (SM90_TMA_LOAD; a 2-SM kernel's
SM100_TMA_2SM_LOAD fills each CTA's own half the same way).  Stages: the builder's count for the whole shared
memory without the kernel's and the epilogue's carveouts (an upper bound; every stage is proved alike).  The
runtime-typed 8-bit float (`f8`, type_erased_dynamic_float8_t) is proved as float_e4m3_t: the shared layout,
the TMA box and the descriptor depend on its width only.

A kernel the rules do not cover is `Unmapped`, with the reason (sparse, mixed input, complex, SIMT, cp.async,
block-scaled, blockwise-scaled ...).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ..cute import gmma as G
from ..cute import mma_families as MF
from ..cute import mixed_input as MI
from ..hardware.shared_memory import SM90_BLOCK_SHARED_BYTES, SM100_BLOCK_SHARED_BYTES
from .atom_facts import MMAAtomFacts
from .blockwise import BLOCKWISE_KINDS, BlockwiseScaleCheck, blockwise_paths, dense_config   # blockwise scales
from .sm80_simt import SIMT_COPY, SIMT_OPCODE, SIMT_THREADS, simt_configuration
from .sm90_mixed_scales import (LOOKUP_TABLE_CONVERSION, MixedScalePathCheck, mixed_scale_checks, scale_stage_bytes,
                                scale_type, storage, uses_lookup_table)
from .sm90_sparse import SPARSE_KINDS, SparsePathCheck, map_sm90_sparse
from .sm100_sparse import SPARSE_KINDS as SM100_SPARSE_KINDS, map_sm100_sparse
from .sm90_transpose import TransposePathCheck, transposed_b
from .sm90_shuffle import ShufflePathCheck, shuffle_unsupported, shuffled_a_check
from .space import KernelConfig

SM90_SMEM_BYTES = SM90_BLOCK_SHARED_BYTES     # cutlass::gemm::collective::detail::sm90_smem_capacity_bytes
SM90_PIPELINE_BYTES = 16            # sizeof(PipelineTmaAsync<1>::SharedStorage): two 8-byte barriers a stage
SM90_STAGE_ALIGN = 128
GLOBAL_EXTENT = 4096                # the global (MN, K) tensor TMA reads: 4096 x 4096
TMA_ALIGN_BITS = 128                # TMA reads 16-byte aligned global rows
MN_MAJOR_ORDER = ", (2,1,3)"        # tile_to_shape's order for an MN-major tile: Step<_2,_1,_3>

# the MMA's operand types: generator name -> (CuTe value type, PTX type, name in CuTe's atom names, bits)
OPERAND_TYPES: dict[str, tuple[str, str, str, int]] = {
    "f16": ("half_t", "f16", "F16", 16), "bf16": ("bfloat16_t", "bf16", "BF16", 16),
    "tf32": ("tfloat32_t", "tf32", "TF32", 32), "e4m3": ("float_e4m3_t", "e4m3", "E4M3", 8),
    "e5m2": ("float_e5m2_t", "e5m2", "E5M2", 8), "s8": ("int8_t", "s8", "S8", 8), "u8": ("uint8_t", "u8", "U8", 8),
    "f64": ("double", "f64", "F64", 64)}
ACCUMULATORS: dict[str, tuple[str, str, str]] = {"f32": ("float", "f32", "F32"), "f16": ("half_t", "f16", "F16"),
                                                 "s32": ("int32_t", "s32", "S32")}
SM90_KINDS = ("Universal3x", "GroupedUniversal3x", "BlockwiseUniversal3x", "GroupedBlockwiseUniversal3x")
COOPERATIVE = "Cooperative"
CP_ASYNC_AUTO_SCHEDULE = "CpAsyncWarpSpecialized"     # what KernelScheduleAuto picks without TMA alignment
CP_ASYNC_VECTOR = {4: "uint32_t", 8: "uint64_t", 16: "uint128_t"}   # bytes -> cute::uint_byte_t<bytes>


@dataclass(frozen=True)
class OperandCheck:
    """One operand path of a kernel, as the fields of a check (hashable: kernels share them)."""
    mma: MMAAtomFacts
    operand: str
    copy: str
    value_type: str
    smem: str
    atom_layout: tuple[int, int, int] | str | None     # None: the atom alone (an UMMA atom is issued by one thread)
    permutation: tuple[int | str, ...] | None = None     # Tile<M, N, K>: sizes, or layouts (a vectorizing Tile)
    gmem: str | None = None
    major: str | None = None                       # the descriptor's major-ness when the atom's name does not say
    smem_type: str | None = None                   # the tile's type, converted in registers to the MMA's (mixed input)
    smem_partition: str | None = None              # "mma": the copy reads thr_mma.partition_A (a tiled check's source)
    conversion: str | None = None                  # "lookup_table": smem_type converted by the scales' lookup tables


@dataclass(frozen=True)
class ScaleFactorCheck:
    """The scale factors of operand A or B of a block-scaled kernel, as the fields of a scale check (hashable)."""
    mma: MMAAtomFacts
    scaled: str                                    # "A" | "B"
    copy: str                                      # SM100_UTCCP_4x32dp128bit_1cta / _2cta
    sf_type: str                                   # float_ue8m0_t | float_ue4m3_t
    vs: int
    smem: str                                      # SmemLayoutSFA / SFB with its stages
    gmem: str                                      # tile_atom_to_shape_SF over two tiles along MN and K
    tmem_base: int                                 # the TMEM column after the accumulators

    @property
    def operand(self) -> str:
        return f"SF{self.scaled}"


# sparse: sm90_sparse.py's A, B and metadata; blockwise: blockwise.py's SFA / SFB of a blockwise-scaled kernel;
# shuffle: sm90_shuffle.py's value-shuffled A of a mixed-input kernel
PathCheck = OperandCheck | ScaleFactorCheck | SparsePathCheck | BlockwiseScaleCheck | ShufflePathCheck \
    | TransposePathCheck \
    | MixedScalePathCheck     # sm90_transpose.py's B transposed in shared memory; sm90_mixed_scales.py's scales


@dataclass(frozen=True)
class Mapped:
    checks: tuple[PathCheck, ...]
    how: str                                       # the builder's choices, for the report


@dataclass(frozen=True)
class Unmapped:
    reason: str


@dataclass
class Rules:
    notes: list[str] = field(default_factory=list)


def _major_a(layout: str) -> str:
    return "K" if layout == "RowMajor" else "MN"


def _major_b(layout: str) -> str:
    return "K" if layout == "ColumnMajor" else "MN"


def _global_tensor(major: str) -> str:
    """The (MN, K) global tensor TMA reads, contiguous along K or along MN."""
    g = GLOBAL_EXTENT
    return f"({g},{g}):({g},1)" if major == "K" else f"({g},{g}):(1,{g})"


# --- SM90 ------------------------------------------------------------------------------------------------------

def ss_smem_swizzle(major: str, bits: int, mn: int, k: int) -> str:
    """ss_smem_selector: the widest GMMA swizzle whose atom divides the tile's contiguous extent."""
    extent = k if major == "K" else mn
    for name, span_bits in (("SW128", 1024), ("SW64", 512), ("SW32", 256)):
        if extent % (span_bits // bits) == 0:
            return name
    return "INTER"


def gmma_atom(n: int, acc: str, a: str, b: str, majors: tuple[str, str], rs: bool = False) -> MMAAtomFacts:
    """SM90_64xNxK_<D><A><B>_SS (generator type names) with its MMA_Traits (mma_families.py); with `rs` the _RS
    form, whose A is the register fragment GMMA::ALayout_64xK."""
    return MF.gmma_atom(n, ACCUMULATORS[acc][2], OPERAND_TYPES[a][2], OPERAND_TYPES[b][2], majors, rs)


def sm90_stages(tile: tuple[int, int, int], bits_a: int, bits_b: int) -> int:
    m, n, k = tile
    stage = -(-(m * k * bits_a // 8 + n * k * bits_b // 8) // SM90_STAGE_ALIGN) * SM90_STAGE_ALIGN
    return SM90_SMEM_BYTES // SM90_STAGE_ALIGN * SM90_STAGE_ALIGN // (stage + SM90_PIPELINE_BYTES)


def map_sm90(kc: KernelConfig) -> Mapped | Unmapped:
    if kc.kind in SPARSE_KINDS:     # wgmma.mma_async.sp: compressed A, B and the metadata (sm90_sparse.py's rules)
        sparse = map_sm90_sparse(kc)
        return Unmapped(sparse) if isinstance(sparse, str) else Mapped(*sparse)
    if kc.kind not in SM90_KINDS:
        if "Sparse" in kc.kind:
            return Unmapped(f"{kc.kind} kernel: a sparse kind sm90_sparse.py's rules do not cover")
        m, n, k = kc.instruction
        if kc.element_a == "f64":
            return Unmapped(f"{kc.kind} kernel: a CUTLASS 2.x kernel on mma.sync m{m}n{n}k{k} (f64); CUTLASS 3 writes "
                            "no CuTe configuration for it (its SM90 double one is SM90_16x8x16_F64F64F64F64_TN)")
        return Unmapped(f"{kc.kind} kernel: not built by the SM90 collective builder")
    if kc.opcode != "TensorOp":
        return Unmapped(f"{kc.opcode} kernel: no wgmma mainloop")
    if kc.element_a not in OPERAND_TYPES or kc.element_b not in OPERAND_TYPES or \
            OPERAND_TYPES[kc.element_a][3] != OPERAND_TYPES[kc.element_b][3]:
        return map_sm90_mixed(kc)
    bits_a, bits_b = OPERAND_TYPES[kc.element_a][3], OPERAND_TYPES[kc.element_b][3]
    majors = (_major_a(kc.layout_a), _major_b(kc.layout_b))
    if (bits_a != 16 and majors[0] == "MN") or (bits_b != 16 and majors[1] == "MN"):
        return map_sm90_rs(kc)      # wgmma reads 8- and 32-bit operands K-major only: A goes through registers
    tma = kc.align_a * bits_a >= TMA_ALIGN_BITS and kc.align_b * bits_b >= TMA_ALIGN_BITS
    schedule = kc.schedule
    if schedule == "ScheduleAuto":
        # KernelScheduleAuto: TMA when both operands are 16-byte aligned, else KernelCpAsyncWarpSpecialized
        schedule = (("TmaWarpSpecializedPingpong" if kc.tile[0] == 64 else "TmaWarpSpecializedCooperative") if tma
                    else CP_ASYNC_AUTO_SCHEDULE)
    cp_async = "CpAsync" in schedule
    m, n, k = kc.tile
    if n > 256 or n % 8 or k % (256 // bits_a):
        return Unmapped(f"tile {m}x{n}x{k}: no wgmma of that N / K")
    acc = kc.element_acc if kc.element_acc in ACCUMULATORS else ""
    if not acc:
        return Unmapped(f"{kc.element_acc} accumulators: no wgmma")
    atom = gmma_atom(n, acc, kc.element_a, kc.element_b, majors)
    if cp_async:    # GMMA_CpAsync_WS_SS: AtomLayoutMNK (M < 128 ? 1 : 2, 1, 1) when cooperative
        warpgroups = ((1 if m < 128 else 2), 1, 1) if COOPERATIVE in schedule else (1, 1, 1)
    else:
        warpgroups = (2, 1, 1) if COOPERATIVE in schedule else (1, 1, 1)
    stages = kc.stages or sm90_stages(kc.tile, bits_a, bits_b)
    checks = []
    for op, mn, element, major, align in (("A", m, kc.element_a, majors[0], kc.align_a),
                                          ("B", n, kc.element_b, majors[1], kc.align_b)):
        type_name, _, _, bits = OPERAND_TYPES[element]
        swizzle = ss_smem_swizzle(major, bits, mn, k)
        # the TMA mainloop tiles an MN-major tile along K first (Step<_2,_1,_3>); the cp.async one
        # (sm90_mma_multistage_gmma_ss_warpspecialized.hpp) in tile_to_shape's default order
        order = MN_MAJOR_ORDER if major == "MN" and not cp_async else ""
        smem = f"tile_to_shape(GMMA::Layout_{major}_{swizzle}_Atom<{type_name}>, ({mn},{k},{stages}){order})"
        if not cp_async:
            checks.append(OperandCheck(atom, op, "SM90_TMA_LOAD", type_name, smem, warpgroups, None,
                                       _global_tensor(major)))
            continue
        # Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint_byte_t<sizeof(Element) * Alignment>>, Element>: the
        # threads write the tile through its layout (a through-layout descriptor check, no tensor map)
        vector = bits * align // 8
        if vector not in CP_ASYNC_VECTOR:
            return Unmapped(f"a cp.async mainloop with {vector}-byte aligned {type_name} operand {op}: CUTLASS's "
                            "builder refuses it (static_assert \"Minimum alignment required for cp.async is 4B.\"; "
                            "cp.async moves 4, 8 or 16 bytes)")
        copy = f"SM80_CP_ASYNC_CACHEALWAYS_ZFILL<{CP_ASYNC_VECTOR[vector]}>"
        checks.append(OperandCheck(atom, op, copy, type_name, smem, warpgroups, None, None))
    return Mapped(tuple(checks), f"{schedule}, {atom.name} on {warpgroups[0]} warpgroup(s), {stages} stages")


# --- SM90 register-sourced A (sm90_gmma_builder.inl: GMMA_TMA_WS_RS, GMMA_CpAsync_WS_RS) ------------------------
# wgmma reads an 8- or 32-bit operand K-major only, and a mixed-width GEMM converts its narrow A in registers: the
# builder then asks for an RS atom (rs_op_selector<..., Major::K, Major::K>) whose A the threads load from shared
# memory with Copy_Atom<AutoVectorizingCopy, ElementA> (make_tiled_copy_A + retile_D), B read through the descriptor.

RS_COPY = "AutoVectorizingCopy"     # the builder's SmemCopyAtomA: Copy_Atom<AutoVectorizingCopy, ElementA>
# rs_smem_selector (sm90_common.inl), widest first: (swizzle, bits its atom spans along the major mode); MN-major
# whole-word types "Fall into SW32 due to free bank conflict", then INTER
RS_SWIZZLES: tuple[tuple[str, int], ...] = (("SW128", 1024), ("SW64", 512), ("SW32", 256), ("INTER", 128))
RS_MN_WORD_SWIZZLES: tuple[tuple[str, int], ...] = (("SW32", 256), ("INTER", 128))
# cutlass::detail::alignment_for_swizzle of each atom (1 << (B + M + S) of its Swizzle<B,4,3>, bytes): the RS
# builders round a stage to the larger of A's and B's (SmemAlignment)
SWIZZLE_ALIGN_BYTES = {"SW128": 1024, "SW64": 512, "SW32": 256, "INTER": 128}
# the narrow A types of the mixed-input GEMMs that OPERAND_TYPES lacks: generator name -> (CuTe type, bits)
NARROW_TYPES: dict[str, tuple[str, int]] = {"s4": ("int4b_t", 4), "u4": ("uint4b_t", 4), "s2": ("int2b_t", 2),
                                            "u2": ("uint2b_t", 2)}
TRANSPOSE_SWIZZLE = "SW32"           # rs_smem_selector's only atom for an MN-major 32-bit tile when B is transposed
MIXED_SHUFFLED = ("value-shuffled mixed input (_shfl) of widths the generator writes no ValueShuffle for (4- and "
                  "8-bit A with a 16-bit B only): no reordering atom to model")


def rs_smem_swizzle(major: str, bits: int, extent: int) -> str | None:
    """rs_smem_selector: the widest GMMA atom whose extent along the major mode divides the tile's (`extent`: BLK_K
    for K-major, BLK_MN for MN-major); None: none does (its static_assert)."""
    table = RS_MN_WORD_SWIZZLES if major == "MN" and bits == 32 else RS_SWIZZLES
    return next((name for name, span in table if extent % (span // bits) == 0), None)


def rs_stages(tile: tuple[int, int, int], bits_a: int, bits_b: int, align: int, extra_bytes: int = 0) -> int:
    """compute_stage_count_or_override[_single_affine_transformed_input] for the whole shared memory (no epilogue
    carveout): a stage of A and B (and `extra_bytes`: a mixed-input stage's scales and zero points) rounded up to
    `align` bytes, plus its pipeline barriers."""
    m, n, k = tile
    stage = -(-(-(-m * k * bits_a // 8) + -(-n * k * bits_b // 8) + extra_bytes) // align) * align \
        + SM90_PIPELINE_BYTES
    return SM90_SMEM_BYTES // align * align // stage


def _rs_schedule(kc: KernelConfig, tma: bool) -> str:
    """The schedule KernelScheduleAuto resolves to (pingpong for BLK_M = 64, else cooperative, when TMA-aligned)."""
    if kc.schedule != "ScheduleAuto":
        return kc.schedule
    if not tma:
        return CP_ASYNC_AUTO_SCHEDULE
    return "TmaWarpSpecializedPingpong" if kc.tile[0] == 64 else "TmaWarpSpecializedCooperative"


def map_sm90_rs(kc: KernelConfig) -> Mapped | Unmapped:
    """A same-type 8- or 32-bit GEMM with an MN-major operand (the generator's tf32 NN, TT and NT kernels).  A
    MN-major, B K-major: A is TMA-loaded (cp.async-written) into an MN-major tile, loaded element by element into
    the RS A fragment, B read through the descriptor.  A K-major, B MN-major: SwapAB — the kernel swaps the problem's
    M and N and the operands, so the MMA's A is the user's B (the same register path) and its B the user's A (tiles
    keep the CTA's BLK_M x BLK_N).  Both MN-major: A as for a K-major B, B transposed in shared memory by CUTLASS
    (sm90_transpose.py: a transpose check, theorem 34)."""
    type_name, _, _, bits = OPERAND_TYPES[kc.element_a]
    majors = (_major_a(kc.layout_a), _major_b(kc.layout_b))
    transpose = majors == ("MN", "MN")      # the builders' IsWarpSpecializedTransposeB (both RS schedules here)
    if kc.kind != "Universal3x":
        return Unmapped(f"{kc.kind} kernel with an MN-major {type_name} operand: CUTLASS's RS builder refuses it "
                        "(static_assert \"Only mixed input grouped RS GEMM is supported.\")")
    m, n, k = kc.tile
    k_atom = 256 // bits
    if m % 64 or n > 256 or n % 8 or k % k_atom:
        return Unmapped(f"tile {m}x{n}x{k}: no wgmma of that M / N / K")
    if k // k_atom < G.RS_MIN_K_BLOCKS:
        return Unmapped(f"tile K {k}: {k // k_atom} k-blocks; CUTLASS's RS mainloop refuses it (static_assert "
                        f"\"{G.RS_K_BLOCKS_RULE}\")")
    acc = kc.element_acc if kc.element_acc in ACCUMULATORS else ""
    if not acc:
        return Unmapped(f"{kc.element_acc} accumulators: no wgmma")
    tma = kc.align_a * bits >= TMA_ALIGN_BITS and kc.align_b * bits >= TMA_ALIGN_BITS
    schedule = _rs_schedule(kc, tma)
    cp_async = "CpAsync" in schedule
    if not cp_async and not tma:
        return Unmapped("a TMA RS mainloop with operands under 16 bytes aligned: CUTLASS's builder refuses it "
                        "(static_assert \"Should meet TMA alignment requirement\")")
    swap = majors == ("K", "MN")
    # the MMA's (A, B): (rows it is tiled to, the extent its atom is chosen by, major-ness, the user's alignment)
    internal = ((m, n if swap else m, "MN", kc.align_b if swap else kc.align_a),
                (n, m if swap else n, "MN" if transpose else "K", kc.align_a if swap else kc.align_b))
    atom = gmma_atom(n, acc, kc.element_a, kc.element_b, ("K", "K"), rs=True)
    if cp_async:    # GMMA_CpAsync_WS_RS: AtomLayoutMNK (M < 128 ? 1 : 2, 1, 1) when cooperative
        warpgroups = ((1 if m < 128 else 2), 1, 1) if COOPERATIVE in schedule else (1, 1, 1)
    else:
        warpgroups = (2, 1, 1) if COOPERATIVE in schedule else (1, 1, 1)
    swizzles = []
    for rows, chosen_by, major, _ in internal:
        swizzle = rs_smem_swizzle(major, bits, chosen_by if major == "MN" else k)
        # the atom's rows: its span along MN (MN-major), 8 (K-major); the mainloop asserts they divide the tile
        atom_rows = dict(RS_SWIZZLES)[swizzle] // bits if swizzle is not None and major == "MN" else 8
        if swizzle is None or rows % atom_rows:
            return Unmapped(f"an {major}-major {type_name} tile of {rows}x{k} that no GMMA atom of rs_smem_selector "
                            "divides (its static_asserts: CUTLASS does not build it)")
        if transpose and swizzle != TRANSPOSE_SWIZZLE:   # is_ws_transposed_B: SW32 or its static_assert
            return Unmapped(f"an MN-major {type_name} tile of {rows}x{k} with B transposed: rs_smem_selector's "
                            "static_assert \"BLK_MN0 must be a multiple of size<0>(GMMA::Layout_MN_SW32_Atom"
                            "<ElementType>{})\"")
        swizzles.append(swizzle)
    align = 128 if cp_async else max(SWIZZLE_ALIGN_BYTES[s] for s in swizzles)   # cp.async: the default alignment
    stages = kc.stages or rs_stages(kc.tile, bits, bits, align)
    smem = []
    for (rows, _, major, _), swizzle in zip(internal, swizzles):
        # the TMA mainloop tiles along K first for an MN-major tile (Step<_2,_1,_3>); the cp.async one in order
        order = MN_MAJOR_ORDER if major == "MN" and not cp_async else ""
        smem.append(f"tile_to_shape(GMMA::Layout_{major}_{swizzle}_Atom<{type_name}>, ({rows},{k},{stages}){order})")
    checks: list[PathCheck] = []
    if cp_async:
        for _, _, _, user_align in internal:
            if bits * user_align // 8 not in CP_ASYNC_VECTOR:
                return Unmapped(f"a cp.async mainloop with {bits * user_align // 8}-byte aligned {type_name} operands: "
                                "CUTLASS's builder refuses it (static_assert \"Minimum alignment required for cp.async "
                                "is 4B.\"; cp.async moves 4, 8 or 16 bytes)")
        # A: cp.async writes the tile through its layout (partition_D); the threads load thr_mma.partition_A(sA)
        checks.append(OperandCheck(atom, "A", RS_COPY, type_name, smem[0], warpgroups, smem_partition="mma"))
        copy_b = f"SM80_CP_ASYNC_CACHEALWAYS_ZFILL<{CP_ASYNC_VECTOR[bits * internal[1][3] // 8]}>"
        checks.append(transposed_b(atom, warpgroups, type_name, n, k, stages, copy_b, None) if transpose
                      else OperandCheck(atom, "B", copy_b, type_name, smem[1], warpgroups))
        writer = ("A and B written by cp.async through their tiles' layouts (CuTe's partition_D; B a through-layout "
                  "descriptor check, A read back from thr_mma.partition_A by the tiled check)")
    else:
        checks += [OperandCheck(atom, "A", "SM90_TMA_LOAD", type_name, smem[0], warpgroups, None,
                                _global_tensor("MN")),
                   OperandCheck(atom, "A", RS_COPY, type_name, smem[0], warpgroups),
                   transposed_b(atom, warpgroups, type_name, n, k, stages, "SM90_TMA_LOAD", _global_tensor("MN"))
                   if transpose else
                   OperandCheck(atom, "B", "SM90_TMA_LOAD", type_name, smem[1], warpgroups, None, _global_tensor("K"))]
        writer = "A and B by TMA"
    how = (f"{schedule}, {atom.name} on {warpgroups[0]} warpgroup(s), {stages} stages; "
           + ("SwapAB (the kernel swaps M and N: the user's B is the MMA's A, the user's A its B); " if swap else "")
           + f"{writer}; the MMA's A MN-major ({swizzles[0]}) loaded into registers with {RS_COPY}, its B read "
             + (f"K-major through the descriptor after CUTLASS transposes it in shared memory (MN-major {swizzles[1]} "
                "to K-major SW32, AsyncTranspositionOperandB)" if transpose
                else f"K-major ({swizzles[1]}) through the descriptor"))
    return Mapped(tuple(checks), how)


def _narrow_type(element: str) -> tuple[str, int] | None:
    """A mixed-input GEMM's narrow A: its CuTe type and bits."""
    if element in NARROW_TYPES:
        return NARROW_TYPES[element]
    if element in OPERAND_TYPES and OPERAND_TYPES[element][3] == 8:
        return OPERAND_TYPES[element][0], 8
    return None


def map_sm90_mixed(kc: KernelConfig) -> Mapped | Unmapped:
    """A mixed-width GEMM (a narrow A, a 16-bit B): the mixed-input mainloop (MainloopSm90TmaGmmaRmemAWarpSpecialized
    MixedInput) TMA-loads A into a K-major tile of its own type, copies each thread's thr_mma.partition_A(sA) in
    order into a register buffer laid out like the fragment (AutoVectorizingCopy of the narrow type, retile_D of
    make_fragment_like<Narrow>(tCrA_mma)), converts it element by element into the RS A fragment of B's type, B read
    through the descriptor.  ScaleOnly / ScaleWithZeroPoint kernels add a mixed-scale check of their scales (and zero
    points, sm90_mixed_scales.py); the int4 x 8-bit float kernels' scales are lookup tables that also convert A
    (lookup_table_convert): their A checks and scale check say `conversion: lookup_table`."""
    unknown = Unmapped(f"{kc.element_a} x {kc.element_b} operands: mixed or narrow inputs are converted in registers "
                       "before wgmma; no model")
    narrow, wide = _narrow_type(kc.element_a), OPERAND_TYPES.get(kc.element_b)
    if narrow is None or wide is None or not kc.mixed_mode:
        return unknown
    # sm90_mixed_scales.py: the int4 x 8-bit float kernels' scales are lookup tables, which convert A too
    lookup = uses_lookup_table(kc.mixed_mode, narrow[0], wide[0])
    if kc.mixed_shuffle and shuffle_unsupported(narrow[1], wide[3]) is not None:
        return Unmapped(MIXED_SHUFFLED)
    from ..cute.convert import lookup_table_conversion, register_conversion
    n_type, n_bits = narrow
    w_type, _, _, w_bits = wide
    if (lookup_table_conversion if lookup else register_conversion)(n_type, w_type) is None:
        return Unmapped(f"{n_type} converted to {w_type} in registers: not one of CUTLASS's mixed-input conversions "
                        "modelled (cute/convert.py)")
    if (_major_a(kc.layout_a), _major_b(kc.layout_b)) != ("K", "K"):
        return Unmapped("mixed input with an MN-major operand: the builder asks for a K-major RS atom for both "
                        "(rs_op_selector<..., Major::K, Major::K>); not modelled")
    tma = kc.align_a * n_bits >= TMA_ALIGN_BITS and kc.align_b * w_bits >= TMA_ALIGN_BITS
    schedule = _rs_schedule(kc, tma)
    if "CpAsync" in schedule or not tma:
        return Unmapped("mixed input on a cp.async mainloop: CUTLASS's builder refuses it (static_assert \"Only TMA "
                        "warp specialized kernels are supported for mixed width input.\")")
    m, n, k = kc.tile
    k_atom = 256 // w_bits
    if m % 64 or n > 256 or n % 8 or k % k_atom:
        return Unmapped(f"tile {m}x{n}x{k}: no wgmma of that M / N / K")
    if k // k_atom < MI.MIN_K_BLOCKS:
        return Unmapped(f"tile K {k}: {k // k_atom} k-blocks; CUTLASS's mixed-input mainloop refuses it "
                        f"(static_assert \"{MI.K_BLOCKS_RULE}\")")
    acc = kc.element_acc if kc.element_acc in ACCUMULATORS else ""
    if not acc:
        return Unmapped(f"{kc.element_acc} accumulators: no wgmma")
    swizzle_a, swizzle_b = rs_smem_swizzle("K", n_bits, k), rs_smem_swizzle("K", w_bits, k)
    if swizzle_a is None or swizzle_b is None:
        return Unmapped(f"a K block of {k}: no GMMA atom of rs_smem_selector divides it (its static_assert)")
    atom = gmma_atom(n, acc, kc.element_b, kc.element_b, ("K", "K"), rs=True)
    warpgroups = (2, 1, 1) if COOPERATIVE in schedule else (1, 1, 1)
    align = max(SWIZZLE_ALIGN_BYTES[swizzle_a], SWIZZLE_ALIGN_BYTES[swizzle_b])
    s_type, s_bits = scale_type(lookup, w_type, w_bits)
    stages = kc.stages or rs_stages(kc.tile, n_bits, w_bits, align, scale_stage_bytes(kc.mixed_mode, m, s_bits))
    # ScaleOnly / ScaleWithZeroPoint: a mixed-scale check of the scales (and zero points), of B's type (lookup tables:
    # an Array of 8 of it)
    scales = mixed_scale_checks(kc, atom, warpgroups, stages, s_type, storage(
        kc.tile, stages, n_bits, w_bits, s_bits, SWIZZLE_ALIGN_BYTES[swizzle_a], SWIZZLE_ALIGN_BYTES[swizzle_b]),
        GLOBAL_EXTENT, lookup)
    conversion = LOOKUP_TABLE_CONVERSION if lookup else None
    scaled = f"; {' and '.join(c.tensor + 's' for c in scales)} by TMA, copied into registers partitioned like A" \
        if scales else ""
    smem_a = f"tile_to_shape(GMMA::Layout_K_{swizzle_a}_Atom<{n_type}>, ({m},{k},{stages}))"
    smem_b = f"tile_to_shape(GMMA::Layout_K_{swizzle_b}_Atom<{w_type}>, ({n},{k},{stages}))"
    if kc.mixed_shuffle:     # value-shuffled A (sm90_shuffle.py): one shuffle check (theorem 35), B as below
        return Mapped((shuffled_a_check(atom, n_type, n_bits, warpgroups, (m, k), stages),
                       OperandCheck(atom, "B", "SM90_TMA_LOAD", w_type, smem_b, warpgroups, None, _global_tensor("K")))
                      + scales,
                      f"{schedule}, {atom.name} on {warpgroups[0]} warpgroup(s), {stages} stages; A {n_type} "
                      "value-shuffled (compute_memory_reordering_atom): TMA of the reordered global A into its "
                      f"compact tile, copied from thr_mma.partition_A with {RS_COPY} into a buffer laid out like it "
                      f"and converted to {w_type} by LayoutAwareConvert; B by TMA, read K-major ({swizzle_b}) "
                      "through the descriptor" + scaled)
    checks: tuple[PathCheck, ...] = (
        OperandCheck(atom, "A", "SM90_TMA_LOAD", n_type, smem_a, warpgroups, None, _global_tensor("K"),
                     smem_type=n_type, conversion=conversion),
        OperandCheck(atom, "A", RS_COPY, n_type, smem_a, warpgroups, smem_type=n_type, smem_partition="mma",
                     conversion=conversion),
        OperandCheck(atom, "B", "SM90_TMA_LOAD", w_type, smem_b, warpgroups, None, _global_tensor("K"))) + scales
    return Mapped(checks, f"{schedule}, {atom.name} on {warpgroups[0]} warpgroup(s), {stages} stages; A {n_type} "
                          f"by TMA into a K-major {swizzle_a} tile, copied in order from thr_mma.partition_A with "
                          f"{RS_COPY} into a {n_type} buffer laid out like the fragment and converted to {w_type} "
                          + ("by lookup tables of the scales (lookup_table_convert) " if lookup else "")
                          + f"in registers; B by TMA, read K-major ({swizzle_b}) through the descriptor{scaled}")


# --- SM80 ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sm80Family:
    atom: str                       # CuTe's MMA atom (the atom library defines it)
    warp_stride: str | None         # a strided warp layout (the tf32 configuration's "(2,2,1):(2,1,1)" style)
    k_atoms: tuple[tuple[int, str, str], ...]     # (K block multiple, swizzle, K-major atom layout), widest first
    mn_atom: tuple[str, str] | None               # (swizzle, MN-major atom layout) or None: no MN-major path
    k_copy: str
    mn_copy: str | None
    # CUTLASS's vectorizing Tile<(8*W,2):(2,1), (8*W,2):(2,1), _> of its double configuration, instead of the
    # dense Tile<16*WM, 16*WN, K>
    vectorizing_tile: bool = False
    # why an operand has no path when its major-ness or K block fits no atom above
    no_path: str = "ldmatrix.trans moves 16-bit elements only"


# CUTLASS test/unit/gemm/device/default_gemm_configuration.hpp, Sm80 double: SM80_8x8x4_F64F64F64F64_TN on
# Swizzle<2,0,4> o (4,16):(1,4) (K-major) and Swizzle<2,2,2> o (16,4):(1,16) (MN-major), Copy_Atom<DefaultCopy,
# double> (one double a move: UniversalCopy<double>)
F64_FAMILY = Sm80Family("SM80_8x8x4_F64F64F64F64_TN", None, ((16, "Sw<2,0,4>", "(4,16):(1,4)"),),
                        ("Sw<2,2,2>", "(16,4):(1,16)"), "UniversalCopy<double>", "UniversalCopy<double>",
                        vectorizing_tile=True,
                        no_path="CUTLASS's SM80 double configuration's K-major atom (4,16):(1,4) spans K = 16; a K "
                                "block it does not divide has no shared-memory layout from CUTLASS")

SM80_FAMILIES: dict[tuple[str, str, tuple[int, int, int]], Sm80Family] = {
    ("f16", "f32", (16, 8, 16)): Sm80Family("SM80_16x8x16_F32F16F16F32_TN", None,
                                            ((64, "Sw<3,3,3>", "(8,64):(64,1)"), (32, "Sw<2,3,3>", "(8,32):(32,1)")),
                                            ("Sw<3,3,3>", "(64,8):(1,64)"), "SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T"),
    ("f16", "f16", (16, 8, 16)): Sm80Family("SM80_16x8x16_F16F16F16F16_TN", None,
                                            ((64, "Sw<3,3,3>", "(8,64):(64,1)"), (32, "Sw<2,3,3>", "(8,32):(32,1)")),
                                            ("Sw<3,3,3>", "(64,8):(1,64)"), "SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T"),
    ("bf16", "f32", (16, 8, 16)): Sm80Family("SM80_16x8x16_F32BF16BF16F32_TN", None,
                                             ((64, "Sw<3,3,3>", "(8,64):(64,1)"), (32, "Sw<2,3,3>", "(8,32):(32,1)")),
                                             ("Sw<3,3,3>", "(64,8):(1,64)"), "SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T"),
    ("tf32", "f32", (16, 8, 8)): Sm80Family("SM80_16x8x8_F32TF32TF32F32_TN", "strided",
                                            ((32, "Sw<3,2,3>", "(8,32):(32,1)"), (16, "Sw<2,2,3>", "(8,16):(16,1)")),
                                            ("Sw<3,2,3>", "(32,8):(1,32)"), "SM75_U32x4_LDSM_N",
                                            "UniversalCopy<tfloat32_t>"),
    ("s8", "s32", (16, 8, 32)): Sm80Family("SM80_16x8x32_S32S8S8S32_TN", None,
                                           ((64, "Sw<2,4,3>", "(16,64):(64,1)"),), None, "SM75_U32x4_LDSM_N", None),
    ("u8", "s32", (16, 8, 32)): Sm80Family("SM80_16x8x32_S32U8U8S32_TN", None,
                                           ((64, "Sw<2,4,3>", "(16,64):(64,1)"),), None, "SM75_U32x4_LDSM_N", None),
    ("f64", "f64", (8, 8, 4)): F64_FAMILY,
}
# copy atoms a SM80 check may name that no atom library file defines: (thr, bit) -> bit of one 32-bit move
EXTRA_COPY_ATOMS = {"UniversalCopy<tfloat32_t>": (("instruction", '"UniversalCopy<tfloat32_t>"'),
                                                  ("thr_id", '"1:0"'), ("src", '"(1,32):(0,1)"'),
                                                  ("dst", '"(1,32):(0,1)"'), ("ref", "dst")),
                    "UniversalCopy<double>": (("instruction", '"UniversalCopy<double>"'),
                                              ("thr_id", '"1:0"'), ("src", '"(1,64):(0,1)"'),
                                              ("dst", '"(1,64):(0,1)"'), ("ref", "dst"))}


def _warp_layout(warps: tuple[int, int, int], strided: bool) -> tuple[int, int, int] | str:
    if not strided or warps[0] == 1 or warps[1] == 1:
        return warps
    wm, wn, wk = warps
    return f"({wm},{wn},{wk}):({wn},1,{wm * wn})"


# the SM80 kernels of another kind than Universal / Grouped: why CUTLASS writes no CuTe configuration for them
SM80_NO_CONFIGURATION = {
    "PlanarComplex": "planar-complex kernel: CUTLASS 3 writes no CuTe configuration for planar complex (its "
                     "kernels are CUTLASS 2.x's MmaPlanarComplexMultistage only)",
    "PlanarComplexArray": "planar-complex kernel: CUTLASS 3 writes no CuTe configuration for planar complex (its "
                          "kernels are CUTLASS 2.x's MmaPlanarComplexMultistage only)",
    "Sparse": "sparse kernel: CUTLASS 3 writes no CuTe configuration for SM80's mma.sp (its sparse kernels are "
              "CUTLASS 2.x's SparseMmaMultistage only)",
}


def map_sm80(kc: KernelConfig) -> Mapped | Unmapped:
    if kc.opcode == SIMT_OPCODE and kc.kind == "Universal":     # CUTLASS 3's SIMT configuration (sm80_simt.py)
        simt = simt_configuration(kc, (_major_a(kc.layout_a), _major_b(kc.layout_b)), kc.complex_operands)
        if isinstance(simt, str):
            return Unmapped(simt)
        fma = MMAAtomFacts(simt.mma)
        return Mapped((OperandCheck(fma, "A", SIMT_COPY, simt.element, simt.smem_a, SIMT_THREADS),
                       OperandCheck(fma, "B", SIMT_COPY, simt.element, simt.smem_b, SIMT_THREADS)),
                      simt.how(kc.complex_operands))
    if kc.kind not in ("Universal", "Grouped") or kc.opcode != "TensorOp":
        return Unmapped(SM80_NO_CONFIGURATION.get(kc.kind, f"{kc.kind} {kc.opcode} kernel: CUTLASS 3 writes no "
                                                           "CuTe configuration for it"))
    family = SM80_FAMILIES.get((kc.element_a, kc.element_acc, kc.instruction))
    if family is None or kc.element_b != kc.element_a:
        return Unmapped(f"{kc.element_a} x {kc.element_b} -> {kc.element_acc} on mma.sync "
                        f"m{kc.instruction[0]}n{kc.instruction[1]}k{kc.instruction[2]}: no CuTe configuration is "
                        "written for these types")
    m, n, k = kc.tile
    wm, wn, wk = kc.warps
    ak = kc.instruction[2]
    permutation: tuple[int | str, ...] = ((f"({8 * wm},2):(2,1)", f"({8 * wn},2):(2,1)") if family.vectorizing_tile
                                          else (16 * wm, 16 * wn, ak))
    atom_layout = _warp_layout(kc.warps, family.warp_stride is not None)
    mma = MMAAtomFacts(family.atom)
    type_name = OPERAND_TYPES[kc.element_a][0]
    checks = []
    for op, mn, major in (("A", m, _major_a(kc.layout_a)), ("B", n, _major_b(kc.layout_b))):
        if major == "K":
            choice = next(((sw, lay) for mult, sw, lay in family.k_atoms if k % mult == 0), None)
            copy = family.k_copy
        else:
            choice, copy = family.mn_atom, family.mn_copy or ""
        if choice is None or not copy:
            return Unmapped(f"operand {op} {major}-major with {type_name} and K block {k}: no shared-memory layout and "
                            f"copy atom is written for it ({family.no_path})")
        swizzle, atom = choice
        smem = f"tile_to_shape({swizzle} o {atom}, ({mn},{k}))"
        checks.append(OperandCheck(mma, op, copy, type_name, smem, atom_layout, permutation))
    return Mapped(tuple(checks), f"{family.atom} on {wm}x{wn}x{wk} warps, Tile<"
                                 + ",".join(map(str, permutation)) + (",_>" if len(permutation) < 3 else ">"))


# --- SM100 -----------------------------------------------------------------------------------------------------

SM100_SMEM_BYTES = SM100_BLOCK_SHARED_BYTES   # cutlass::arch::Sm100::kSharedMemoryCapacityBytes
SM100_PIPELINE_BYTES = 16           # sizeof(PipelineTmaUmmaAsync<1>::SharedStorage): two 8-byte barriers a stage
UMMA_K_BITS = MF.MMA_K_BITS          # every dense tcgen05.mma reads 256 bits of K (8 tf32, 16 f16, 32 8-bit)
UMMA_COPY = "SM90_TMA_LOAD"
SM100_KINDS = ("Universal3x", "GroupedUniversal3x")
BLOCKWISE_SCALED = "blockwise-scaled (sm100_blockwise_umma_builder: the scale tensors' path has no model)"
# the kinds another SM100 builder builds, and why that builder's mainloop has no model here
SM100_OTHER_KINDS: dict[str, str] = {
    "BlockwiseUniversal3x": BLOCKWISE_SCALED, "GroupedBlockwiseUniversal3x": BLOCKWISE_SCALED,
}
# the dense schedules and the CTA group of the MMA each asks for (KernelSchedule1Sm / KernelSchedule2Sm)
SM100_SCHEDULES: dict[str, int] = {
    "TmaWarpSpecialized1SmSm100": 1, "TmaWarpSpecialized2SmSm100": 2,
    "PtrArrayTmaWarpSpecialized1SmSm100": 1, "PtrArrayTmaWarpSpecialized2SmSm100": 2,
}
AUTO_SCHEDULE = "ScheduleAuto"
TWO_SM_MMA_M = 128                  # KernelScheduleAuto picks a 2-SM MMA only for an MMA_M multiple of this
# an operand type the generator leaves to run time, proved as the fixed type of its width
RUNTIME_TYPE_STAND_INS: dict[str, str] = {"f8": "e4m3", "f6": "e3m2", "f4": "e2m1"}


@dataclass(frozen=True)
class UmmaFamily:
    """One tcgen05.mma kind: CuTe's atom family name, the PTX kind, the operand and accumulator types it takes."""
    tag: str                        # SM100_MMA_<tag>[_2x1SM]_SS
    kind: str                       # tcgen05.mma ... .kind::<kind>
    operands: tuple[str, ...]       # generator type names
    accumulators: tuple[str, ...]
    same_types: bool                # A and B must be one type (check_input_datatypes; F8F6F4 mixes 8-bit floats)


UMMA_FAMILIES = (
    UmmaFamily("TF32", "tf32", ("tf32",), ("f32",), True),
    UmmaFamily("F16BF16", "f16", ("f16", "bf16"), ("f32", "f16"), True),
    UmmaFamily("S8", "i8", ("s8", "u8"), ("s32",), True),
    UmmaFamily("F8F6F4", "f8f6f4", ("e4m3", "e5m2", "e2m1", "e3m2", "e2m3"), ("f32", "f16"), False),
)
# .kind::f8f6f4's 6- and 4-bit operands, each in one byte of shared memory (CuTe's float_*_unpacksmem_t: the builder's
# sm1xx_kernel_input_element_to_mma_input_element), laid out as uint8_t (SmemAllocType) and loaded by TMA unpacked
UNPACKED_OPERAND_TYPES: dict[str, tuple[str, str, str, int]] = {
    "e2m1": ("float_e2m1_unpacksmem_t", "e2m1", "E2M1", 8), "e3m2": ("float_e3m2_unpacksmem_t", "e3m2", "E3M2", 8),
    "e2m3": ("float_e2m3_unpacksmem_t", "e2m3", "E2M3", 8)}
UMMA_OPERAND_TYPES = OPERAND_TYPES | UNPACKED_OPERAND_TYPES
SMEM_SLOT = "uint8_t"             # the layout atoms' element type for an unpacked operand
# sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement (sm1xx_common.inl), which the dense, blockwise and block-scaled
# UMMA builders static_assert: an unpacked operand's TMA load needs its tile's contiguous extent a multiple of this
# many elements in each CTA (an MN-major B of a 2-SM MMA: of twice as many over the MMA's N, each CTA loading half)
UNPACKED_TMA_EXTENT = 128
UNPACKED_TMA_REFUSAL = ("CUTLASS's builder refuses it (static_assert \"TileSize and MNK Major does not met with MMA "
                        "Mix 8-bit TMA load requirement\": sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement)")
# sm100_smem_selector, widest first: (swizzle, bits one swizzle row spans along the contiguous extent)
UMMA_SWIZZLES: tuple[tuple[str, int], ...] = (("SW128", 1024), ("SW64", 512), ("SW32", 256), ("INTER", 128))
MN_32BIT_SWIZZLE = ("SW128_32B", 1024)   # UMMA::Layout_MN_SW128_32B_Atom: the only MN-major 32-bit atom
# the shared-memory layout atom of each major-ness, by swizzle and value type (CuTe's UMMA::Layout_* are GMMA's)
UMMA_SMEM_ATOMS: dict[str, str] = {"K": "UMMA::Layout_K_{swizzle}_Atom<{value_type}>",
                                   "MN": "UMMA::Layout_MN_{swizzle}_Atom<{value_type}>"}


def umma_atom(family: UmmaFamily, cta_group: int, a: str, b: str, acc: str, m: int, n: int) -> MMAAtomFacts:
    """SM100_MMA_<tag>[_2x1SM]_SS<A,B,C,M,N> (generator type names) with its MMA_Traits (mma_families.py)."""
    return MF.umma_atom(family.tag, cta_group, UMMA_OPERAND_TYPES[a][0], UMMA_OPERAND_TYPES[b][0],
                        ACCUMULATORS[acc][0], m, n)


def unpacked_tma_refusal(operand: str, major: str, tile: tuple[int, int, int], two_sm: bool) -> str | None:
    """Why the builder refuses a kernel whose `operand` (A or B) is unpacked in shared memory (a 4- or 6-bit
    float_*_unpacksmem_t), or None: sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement for a dense MMA of the MMA tile
    `tile` (the builder's TileShape_MNK) on two SMs or one (the builder's is_2sm).  K-major: the tile's K; MN-major
    A: the MMA's M over its SMs; MN-major B: the MMA's N, which a 2-SM MMA splits between its CTAs."""
    m, n, k = tile
    if major == "K":
        extent, what, need = k, "K", UNPACKED_TMA_EXTENT
    elif operand == "A":
        extent, what, need = (m // 2 if two_sm else m), "M a CTA", UNPACKED_TMA_EXTENT
    else:
        extent, what, need = n, "N", UNPACKED_TMA_EXTENT * (2 if two_sm else 1)
    if extent % need == 0:
        return None
    return (f"an unpacked {major}-major {operand} whose tile {what} of {extent} is not a multiple of {need}: "
            f"{UNPACKED_TMA_REFUSAL}")


def unpacked_operands_refusal(kc: KernelConfig, a: str, b: str, two_sm: bool) -> str | None:
    """`unpacked_tma_refusal` for each of the kernel's operands (generator types `a`, `b`) that the builder unpacks in
    shared memory; None when it refuses neither."""
    for operand, element, major in (("A", a, _major_a(kc.layout_a)), ("B", b, _major_b(kc.layout_b))):
        refusal = unpacked_tma_refusal(operand, major, kc.tile, two_sm) if element in UNPACKED_OPERAND_TYPES else None
        if refusal is not None:
            return refusal
    return None


def umma_smem_swizzle(major: str, bits: int, rows: int, k: int) -> str | None:
    """sm100_smem_selector: the widest UMMA atom whose span divides the CTA tile's contiguous extent (None: none
    does, a static_assert in CUTLASS)."""
    if major == "MN" and bits == 32:
        name, span_bits = MN_32BIT_SWIZZLE
        return name if rows % (span_bits // bits) == 0 else None
    extent = k if major == "K" else rows
    return next((name for name, span_bits in UMMA_SWIZZLES if extent % (span_bits // bits) == 0), None)


def sm100_stages(rows_a: int, rows_b: int, k: int, bits_a: int, bits_b: int) -> int:
    """sm100_compute_stage_count_or_override for the whole capacity (no kernel or epilogue carveout)."""
    stage = -(-rows_a * k * bits_a // 8) + -(-rows_b * k * bits_b // 8) + SM100_PIPELINE_BYTES
    return SM100_SMEM_BYTES // stage


def _builder_two_sm(kc: KernelConfig) -> bool:
    """The dense UMMA builder's is_2sm: a 2-SM schedule, or the auto schedule with a static cluster of even M (the
    tiled MMA's own choice, `_cta_group`, also asks the tile's M)."""
    if kc.schedule == AUTO_SCHEDULE:
        return kc.cluster[0] > 0 and kc.cluster[1] > 0 and kc.cluster[0] % 2 == 0
    return SM100_SCHEDULES.get(kc.schedule) == 2


def _cta_group(kc: KernelConfig) -> int | None:
    """The MMA's CTA group the schedule asks for (sm100_make_trivial_tiled_mma); None: not a dense UMMA schedule."""
    if kc.schedule == AUTO_SCHEDULE:
        cluster_m = kc.cluster[0]
        static_even = cluster_m > 0 and kc.cluster[1] > 0 and cluster_m % 2 == 0
        return 2 if static_even and kc.tile[0] % TWO_SM_MMA_M == 0 else 1
    return SM100_SCHEDULES.get(kc.schedule)


def map_sm100(kc: KernelConfig) -> Mapped | Unmapped:
    if kc.kind in BLOCK_SCALED_KINDS:
        return map_block_scaled(kc)
    if kc.kind in SM100_SPARSE_KINDS:   # tcgen05.mma.sp: compressed A, B and the metadata (sm100_sparse.py's rules)
        sparse = map_sm100_sparse(kc)
        return Unmapped(sparse) if isinstance(sparse, str) else Mapped(*sparse)
    if kc.kind in SM100_OTHER_KINDS:
        return Unmapped(f"{kc.kind} kernel: {SM100_OTHER_KINDS[kc.kind]}")
    if kc.kind not in SM100_KINDS or kc.opcode != "TensorOp":
        return Unmapped(f"{kc.kind} {kc.opcode} kernel: not built by the SM100 UMMA collective builder")
    cta_group = _cta_group(kc)
    if cta_group is None:
        return Unmapped(f"schedule {kc.schedule}: not the dense TMA UMMA mainloop (cp.async, mixed TMA / cp.async "
                        "and the like have no model)")
    a = RUNTIME_TYPE_STAND_INS.get(kc.element_a, kc.element_a)
    b = RUNTIME_TYPE_STAND_INS.get(kc.element_b, kc.element_b)
    family = next((f for f in UMMA_FAMILIES if a in f.operands and b in f.operands and (a == b or not f.same_types)),
                  None)
    if family is None:
        return Unmapped(f"{kc.element_a} x {kc.element_b} operands: no tcgen05.mma kind takes them together "
                        "(mixed input is converted before the MMA); no model")
    if kc.element_acc not in family.accumulators:
        return Unmapped(f"{kc.element_acc} accumulators: no tcgen05.mma.kind::{family.kind}")
    bits_a, bits_b = UMMA_OPERAND_TYPES[a][3], UMMA_OPERAND_TYPES[b][3]
    if kc.align_a * bits_a < TMA_ALIGN_BITS or kc.align_b * bits_b < TMA_ALIGN_BITS:
        return Unmapped("operands under 16 bytes aligned: TMA cannot load them (sm1xx_gemm_is_aligned)")
    m, n, k = kc.tile
    rows_a, rows_b = m // cta_group, n // cta_group
    if k % (UMMA_K_BITS // bits_a) or rows_a % 8 or rows_b % 8:
        return Unmapped(f"MMA tile {m}x{n}x{k} on {cta_group} SM(s): not a whole number of UMMA atoms")
    refusal = unpacked_operands_refusal(kc, a, b, _builder_two_sm(kc))
    if refusal is not None:
        return Unmapped(refusal)
    atom = umma_atom(family, cta_group, a, b, kc.element_acc, m, n)
    stages = kc.stages or sm100_stages(rows_a, rows_b, k, bits_a, bits_b)
    checks = []
    for op, rows, element, major in (("A", rows_a, a, _major_a(kc.layout_a)), ("B", rows_b, b, _major_b(kc.layout_b))):
        type_name, _, _, bits = UMMA_OPERAND_TYPES[element]
        swizzle = umma_smem_swizzle(major, bits, rows, k)
        if swizzle is None:
            return Unmapped(f"an {major}-major {type_name} operand whose CTA tile no UMMA shared-memory atom divides "
                            "(sm100_smem_selector's static_assert: CUTLASS does not build it)")
        order = MN_MAJOR_ORDER if major == "MN" else ""
        slot = SMEM_SLOT if element in UNPACKED_OPERAND_TYPES else type_name
        layout_atom = UMMA_SMEM_ATOMS[major].format(swizzle=swizzle, value_type=slot)
        smem = f"tile_to_shape({layout_atom}, ({rows},{k},{stages}){order})"
        checks.append(OperandCheck(atom, op, UMMA_COPY, type_name, smem, None, None, _global_tensor(major), major))
    stand_ins = [f"; {t} proved as {RUNTIME_TYPE_STAND_INS[t]}" for t in dict.fromkeys((kc.element_a, kc.element_b))
                 if t in RUNTIME_TYPE_STAND_INS]
    return Mapped(tuple(checks), f"{kc.schedule}, {atom.name} on {cta_group} SM(s), {stages} stages"
                                 + "".join(stand_ins))


# --- SM100 block-scaled (sm100_blockscaled_umma_builder.inl, sm100_blockscaled_mma_warpspecialized.hpp) ---------

BLOCK_SCALED_KINDS = ("BlockScaledUniversal3x", "GroupedBlockScaledUniversal3x")


@dataclass(frozen=True)
class BlockScaledFamily:
    """What a block-scaled schedule builds: CuTe's atom family, the PTX kind and vector-size qualifier, the MMA's K,
    the scale vector size VS, and whether 4-bit operands stay packed in shared memory (MXF4) or take a byte each."""
    tag: str                        # SM100_MMA_<tag>[_2x1SM]_SS
    kind: str                       # tcgen05.mma ... .kind::<kind>.block_scale<qualifier>
    qualifier: str
    k: int
    vs: int
    packed: bool


# the schedule's name says the family (find_vector_size: Nvf4 -> 16, otherwise 32)
BLOCK_SCALED_FAMILIES: dict[str, BlockScaledFamily] = {
    "Mxf8f6f4": BlockScaledFamily("MXF8F6F4", "mxf8f6f4", "", 32, 32, False),
    "Mxf4": BlockScaledFamily("MXF4", "mxf4", ".block32", 64, 32, True),
    "Nvf4": BlockScaledFamily("MXF4", "mxf4nvf4", ".block16", 64, 16, True)}
SCALE_TYPES = {"ue8m0": "float_ue8m0_t", "ue4m3": "float_ue4m3_t"}
BYTE_TYPES = {"e4m3": "float_e4m3_t", "e5m2": "float_e5m2_t"}
PACKED_FP4 = "float_e2m1_t"
SF_EPILOGUE_N = {"Nvf4": 64}                   # the epilogue tile N the emitter forces at MMA N = 256 (else 128)
UTCCP_OPS = {1: "SM100_UTCCP_4x32dp128bit_1cta", 2: "SM100_UTCCP_4x32dp128bit_2cta"}
SF_TILES = 2                                   # tiles of the global SF tensor along MN and K a check names


def _block_scaled_family(schedule: str) -> tuple[str, BlockScaledFamily] | None:
    return next(((name, f) for name, f in BLOCK_SCALED_FAMILIES.items() if name in schedule), None)


def block_scaled_atom(family: BlockScaledFamily, cta_group: int, a: str, b: str, sf: str, m: int,
                      n: int) -> MMAAtomFacts:
    """SM100_MMA_MXF8F6F4[_2x1SM]_SS<A,B,float,SF,M,N> / SM100_MMA_MXF4[_2x1SM]_SS<e2m1,e2m1,float,SF,M,N,VS> with its
    MMA_Traits (mma_families.py)."""
    return MF.umma_atom(family.tag, cta_group, a, b, "float", m, n, sf, family.vs if family.packed else None)


def accumulator_columns(n: int, schedule: str) -> int:
    """The TMEM columns the accumulators take before the scale factors (set_tmem_offsets): two stages of N columns,
    one overlapping stage at N = 256 (256 + 256 - the epilogue tile's N)."""
    if n < 256:
        return 2 * n
    epi_n = next((v for k, v in SF_EPILOGUE_N.items() if k in schedule), 128)
    return 256 + (256 - epi_n)


@lru_cache(maxsize=None)
def sf_layout_texts(shape: object, stages: int) -> tuple[str, str]:
    """SmemLayoutSF with its stages, and the global SF tensor over SF_TILES tiles each way, as CuTe prints them."""
    from ..cute import blockscaled as BS
    assert isinstance(shape, BS.SfShape)
    return (str(BS.sf_smem(shape, stages)),
            str(BS.sf_global(SF_TILES * shape.mn, SF_TILES * shape.tile_k, shape.vs)))


def map_block_scaled(kc: KernelConfig) -> Mapped | Unmapped:
    """A block-scaled kernel: its A and B through TMA and the UMMA descriptor (the dense path with the block-scaled
    atom), and its scale factors (SFA, SFB) through TMA, tcgen05.cp and tensor memory (scale checks)."""
    from ..cute import blockscaled as BS
    found = _block_scaled_family(kc.schedule)
    if found is None:
        return Unmapped(f"block-scaled schedule {kc.schedule}: not one of the Mxf8f6f4 / Mxf4 / Nvf4 builders")
    schedule_name, family = found
    cta_group = 2 if "2Sm" in kc.schedule else 1
    sf = SCALE_TYPES.get(kc.scale_factor)
    if sf is None:
        return Unmapped(f"scale factors of type {kc.scale_factor or 'none'}: no block-scaled MMA takes them")
    a = RUNTIME_TYPE_STAND_INS.get(kc.element_a, kc.element_a)
    b = RUNTIME_TYPE_STAND_INS.get(kc.element_b, kc.element_b)
    types: list[tuple[str, int]] = []
    for element in (a, b):
        if family.packed:
            if element != "e2m1":
                return Unmapped(f"{element} operand on {family.kind}: it takes packed e2m1 only")
            types.append((PACKED_FP4, 4))
        elif element in BYTE_TYPES:
            types.append((BYTE_TYPES[element], 8))
        elif element in UNPACKED_OPERAND_TYPES:
            types.append((UNPACKED_OPERAND_TYPES[element][0], 8))
        else:
            return Unmapped(f"{element} operand on {family.kind}: no type of the kind")
    m, n, k = kc.tile
    rows_a, rows_b = m // cta_group, n // cta_group
    # packed (MXF4 / NVF4) operands stay packed; the builder's is_2sm is the schedule's here (the generator names a
    # 1-SM or 2-SM one)
    refusal = None if family.packed else unpacked_operands_refusal(kc, a, b, cta_group == 2)
    if refusal is not None:
        return Unmapped(refusal)
    atom = block_scaled_atom(family, cta_group, types[0][0], types[1][0], sf, m, n)
    if k % family.k or rows_a % 8 or rows_b % 8:
        return Unmapped(f"MMA tile {m}x{n}x{k} on {cta_group} SM(s): not a whole number of UMMA atoms")
    sfa_shape = BS.SfShape(rows_a, family.k, family.vs, k)
    sfb_rows = -(-n // BS.SF_BLOCK_ROWS) * BS.SF_BLOCK_ROWS   # every CTA holds all of N, rounded up to 128
    sfb_shape = BS.SfShape(sfb_rows, family.k, family.vs, k)
    for shape in (sfa_shape, sfb_shape):
        problem = shape.problem()
        if problem is not None:
            return Unmapped(f"scale factors of a {m}x{n}x{k} tile: {problem} (CUTLASS's Sm1xxBlkScaledConfig)")
    ab_bytes = (rows_a * types[0][1] + rows_b * types[1][1]) * k // 8
    stage = ab_bytes + SM100_PIPELINE_BYTES + sfa_shape.stage_bytes + sfb_shape.stage_bytes
    stages = kc.stages or SM100_SMEM_BYTES // stage
    checks: list[PathCheck] = []
    for op, rows, (type_name, _), major in (("A", rows_a, types[0], _major_a(kc.layout_a)),
                                            ("B", rows_b, types[1], _major_b(kc.layout_b))):
        bits = 4 if family.packed else 8
        swizzle = umma_smem_swizzle(major, bits, rows, k)
        if swizzle is None:
            return Unmapped(f"an {major}-major {type_name} operand whose CTA tile no UMMA shared-memory atom divides "
                            "(sm100_smem_selector's static_assert: CUTLASS does not build it)")
        order = MN_MAJOR_ORDER if major == "MN" else ""
        slot = PACKED_FP4 if family.packed else SMEM_SLOT
        layout_atom = UMMA_SMEM_ATOMS[major].format(swizzle=swizzle, value_type=slot)
        smem = f"tile_to_shape({layout_atom}, ({rows},{k},{stages}){order})"
        checks.append(OperandCheck(atom, op, UMMA_COPY, type_name, smem, None, None, _global_tensor(major), major))
    tmem_base = accumulator_columns(n, kc.schedule)
    for scaled, shape, base in (("A", sfa_shape, tmem_base), ("B", sfb_shape, tmem_base + sfa_shape.tmem_columns)):
        smem, gmem = sf_layout_texts(shape, stages)
        checks.append(ScaleFactorCheck(atom, scaled, UTCCP_OPS[cta_group], sf, family.vs, smem, gmem, base))
    return Mapped(tuple(checks), f"{kc.schedule} ({schedule_name}), {atom.name} on {cta_group} SM(s), {stages} stages, "
                                 f"VS {family.vs}, scale factors in TMEM from column {tmem_base}")


def map_kernel(kc: KernelConfig) -> Mapped | Unmapped:
    if kc.kind in BLOCKWISE_KINDS and kc.arch in (90, 100):   # blockwise.py: the dense A/B paths and the scales
        dense = dense_config(kc)
        m = Unmapped(dense) if isinstance(dense, str) else MAPPERS[kc.arch](dense)
        found = m.reason if isinstance(m, Unmapped) else blockwise_paths(kc, m.checks, m.how)
        return Unmapped(found) if isinstance(found, str) else Mapped(*found)
    return MAPPERS[kc.arch](kc)


MAPPERS: dict[int, Callable[[KernelConfig], Mapped | Unmapped]] = {80: map_sm80, 90: map_sm90, 100: map_sm100}
