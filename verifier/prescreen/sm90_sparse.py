"""SM90 structured-sparse GEMM (GemmKind.SparseUniversal3x, OpClassSparseTensorOp): the CuTe configuration CUTLASS
4.2's sparse collective builder builds, as data, and its three paths as checks.

The builder (cutlass/gemm/collective/builders/sm90_sparse_gmma_builder.inl, sm90_sparse_config.inl) and its collective
(sm90_sparse_mma_tma_gmma_ss_warpspecialized[_fp8].hpp):

- the schedules KernelTmaWarpSpecialized[Pingpong|Cooperative][FP8FastAccum]; KernelScheduleAuto is pingpong for
  BLK_M = 64 and cooperative otherwise; the FP8FastAccum ones take 8-bit float inputs only; the tiled MMA
  `make_tiled_mma(ss_op_selector_sparse<A, B, Acc, Tile, MajorA, MajorB>(), AtomLayout)`, AtomLayout (2,1,1) when
  cooperative, (1,1,1) otherwise: the atom SM90::GMMA::SPARSE::GMMA_64xNxK_<D><A><B>_SS<MajorA,MajorB> (16-bit) or
  _SS_TN (tf32, 8-bit), K = 512 / bits(A), sp-sel the atom's default GMMA::SparseSel::Zero; an 8- or 32-bit operand
  that is not K-major (is_use_rmem_A) selects the RS builder, whose static_assert says "Mainloop with sparse A sourced
  from RF is not implemented";
- compressed A: the SS smem atom `ss_smem_selector_sparse` picks (GMMA::Layout_{K,MN}_{...}_SpAtom<T, 2>, the widest
  whose logical extent divides the tile's), tiled to (BLK_M, BLK_K, Stages) (Step<_2,_1,_3> when MN-major), filled by
  TMA from the global A (fill_layoutA: (M,(2,K/2)):(K,(1,2)) K-major, (M,(2,K/2)):(2,(1,2M)) M-major, in logical
  elements): a descriptor check of the logical layout, whose stored M x K/2 tile theorems 13-16 read (smem_mma);
- B: the dense SS path with the sparse atom (ss_smem_selector's GMMA atom, TMA);
- the metadata E: Sm90GemmSparseConfig's TensorEAtom (min(BLK_K, 128)), SmemLayoutE = tile_to_shape(atom, (BLK_M,
  BLK_K, Stages)), the global LayoutE (fill_layoutE over two tiles each way), TMA, and Copy_Atom<AutoVectorizingCopy,
  uint32_t> into the sp-meta registers: a metadata check (theorems 27, 28);
- Stages: compute_stage_count_or_override_sparse for the whole shared memory without the epilogue's carveout (an upper
  bound, as for the dense kernels; every stage is proved alike): bits(A)/2, bits(B) and bits(E) of the tile a stage
  plus 16 bytes of barriers.

As for the dense kernels, the TMA of A and E multicast along N in a cluster (SM90_TMA_LOAD_MULTICAST) is proved as one
CTA's load (the multicast splits the same box between the cluster's CTAs, each writing the same shared positions).

The rules never import builders.py (which dispatches to `map_sm90_sparse`): they return their own path records,
`SparsePathCheck`, each the spec lines of its check.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from ..cute import sparse as SP
from ..hardware.shared_memory import SM90_BLOCK_SHARED_BYTES
from .space import KernelConfig

SPARSE_KINDS = ("SparseUniversal3x",)
SPARSE_OPCODE = "SparseTensorOp"
SPARSITY = 2                            # ElementASparsity: every stored element of A stands for two
GLOBAL_EXTENT = 4096                    # the global (MN, K) tensors TMA reads, as for the dense kernels
E_TILES = 2                             # tiles of the global metadata along M and K a check names
TMA_ALIGN_BITS = 128                    # detail::is_aligned<..., tma_alignment_bytes = 16>
PIPELINE_BYTES = 16                     # sizeof(PipelineTmaAsync<1>::SharedStorage)
WARPGROUP_M = 64
COOPERATIVE_M = 128
AUTO_SCHEDULE = "ScheduleAuto"
FAST_ACCUM = "FP8FastAccum"
# KernelScheduleType -> AtomLayoutMNK's warpgroups along M (the builder's enable_if list)
SCHEDULES = {"TmaWarpSpecialized": 1, "TmaWarpSpecializedPingpong": 1, "TmaWarpSpecializedCooperative": 2,
             "TmaWarpSpecializedFP8FastAccum": 1, "TmaWarpSpecializedPingpongFP8FastAccum": 1,
             "TmaWarpSpecializedCooperativeFP8FastAccum": 2}

# generator type -> (CuTe type, PTX type, the atom name's tag, bits)
TYPES: dict[str, tuple[str, str, str, int]] = {
    "f16": ("half_t", "f16", "F16", 16), "bf16": ("bfloat16_t", "bf16", "BF16", 16),
    "tf32": ("tfloat32_t", "tf32", "TF32", 32), "e4m3": ("float_e4m3_t", "e4m3", "E4M3", 8),
    "e5m2": ("float_e5m2_t", "e5m2", "E5M2", 8), "s8": ("int8_t", "s8", "S8", 8), "u8": ("uint8_t", "u8", "U8", 8)}
ACCUMULATORS: dict[str, tuple[str, str, str]] = {"f32": ("float", "f32", "F32"), "f16": ("half_t", "f16", "F16"),
                                                 "s32": ("int32_t", "s32", "S32")}
FP8 = ("e4m3", "e5m2")
# MMA_Traits::ELayout of the sparse atoms (cute/atom/mma_traits_sm90_gmma_sparse.hpp), by bits of A
#                                                                                        // (thr,val) -> m + 64 k
ELAYOUTS: dict[int, str] = {16: "((2,2,8,4),(16,2)):((1024,0,1,16),(64,8))",     # GMMA::ELayout_64x32
                            32: "((2,2,8,4),(8,2)):((512,0,1,16),(64,8))",       # GMMA::ELayout_64x16
                            8: "((2,2,8,4),(32)):((8,2048,1,16),(64))"}          # GMMA::ELayout_64x64
# the GMMA swizzle atoms, widest first: (name, bits one swizzle row spans along the contiguous extent)
SWIZZLES: tuple[tuple[str, int], ...] = (("SW128", 1024), ("SW64", 512), ("SW32", 256), ("INTER", 128))
MN_MAJOR_ORDER = ", (2,1,3)"            # tile_to_shape's Step<_2,_1,_3>
COPY_E = "AutoVectorizingCopy"          # Copy_Atom<AutoVectorizingCopy, uint32_t>: smem -> sp-meta registers
COPY_E_TYPE = "uint32_t"
RS_REFUSAL = ("CUTLASS's builder picks the register-sourced sparse mainloop (is_use_rmem_A) and refuses it "
              "(static_assert \"Mainloop with sparse A sourced from RF is not implemented.\")")


@dataclass(frozen=True)
class SparseAtom:
    """The sparse wgmma atom a check names, with its MMA_Traits (ELayout, ValTypeE included) as spec fields."""
    name: str
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class SparsePathCheck:
    """One path of a sparse kernel (A, B or the metadata E) as a check's fields (hashable: kernels share them)."""
    mma: SparseAtom
    operand: str                                    # "A" | "B" | "E"
    copy: str
    entries: tuple[tuple[str, str], ...]            # the check's other keys, YAML text

    def spec_lines(self) -> list[str]:
        return [f"    {k}: {v}" for k, v in self.entries]


def _yaml(text: str) -> str:
    return json.dumps(text)


def _major_a(layout: str) -> str:
    return "K" if layout == "RowMajor" else "MN"


def _major_b(layout: str) -> str:
    return "K" if layout == "ColumnMajor" else "MN"


def sparse_atom(n: int, acc: str, a: str, b: str, majors: tuple[str, str]) -> SparseAtom:
    """SM90::GMMA::SPARSE::GMMA_64xNxK_<D><A><B>_SS[<MajorA,MajorB> | _TN] with its MMA_Traits: ABLayout<64, K> and
    ABLayout<N, K> (every thread names the logical tile), CLayout_64xN, ELayout_64xK, ValTypeE."""
    a_type, a_ptx, a_tag, bits = TYPES[a]
    b_type, b_ptx, b_tag, _ = TYPES[b]
    c_type, c_ptx, c_tag = ACCUMULATORS[acc]
    k = SP.BLOCK_K_BITS // bits
    name = f"SM90::GMMA::SPARSE::GMMA_64x{n}x{k}_{c_tag}{a_tag}{b_tag}_SS"
    name += f"<GMMA::Major::{majors[0]},GMMA::Major::{majors[1]}>" if bits == 16 else "_TN"
    e_type = SP.FORMATS[bits].e_type
    return SparseAtom(name, (
        ("instruction", f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{k}.{c_ptx}.{a_ptx}.{b_ptx}"),
        ("shape_mnk", f"[64, {n}, {k}]"), ("thr_id", '"128:1"'),
        ("types", f"{{a: {a_type}, b: {b_type}, c: {c_type}, d: {c_type}, e: {_yaml(e_type)}}}"),
        ("a", f'"(128,(64,{k})):(0,(1,64))"'), ("b", f'"(128,({n},{k})):(0,(1,{n}))"'),
        ("c", f'"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))"'), ("e", _yaml(ELAYOUTS[bits]))))


def smem_swizzle(major: str, bits: int, mn: int, k: int, sparsity: int = 1) -> str | None:
    """ss_smem_selector[_sparse]: the widest GMMA atom whose extent along the contiguous mode divides the tile's
    (a sparse atom spans `sparsity` logical elements a stored one along K); None: none does (its static_assert)."""
    for name, span_bits in SWIZZLES:
        extent, span = (k, span_bits // bits * sparsity) if major == "K" else (mn, span_bits // bits)
        if extent % span == 0:
            return name
    return None


def sparse_stages(tile: tuple[int, int, int], bits_a: int, bits_b: int, e_bits: int) -> int:
    """compute_stage_count_or_override_sparse for the whole capacity: A's sparse_elem<2> is bits(A)/2 a logical
    element, E's bits(E)."""
    m, n, k = tile
    stage = (-(-bits_a // SPARSITY * m * k // 8) + -(-bits_b * n * k // 8) + -(-e_bits * m * k // 8)
             + PIPELINE_BYTES)
    return SM90_BLOCK_SHARED_BYTES // stage


@lru_cache(maxsize=None)
def metadata_layouts(bits: int, tile_m: int, tile_k: int, stages: int) -> tuple[str, str, str] | str:
    """SmemLayoutE with its stages and LayoutE over E_TILES tiles each way, as CuTe prints them, and the atom; or
    CUTLASS's refusal."""
    atom = SP.tensor_e_atom(bits, tile_k)
    if isinstance(atom, str):
        return atom
    atom_m, atom_k = SP.atom_extent(atom)
    if tile_m % atom_m or tile_k % atom_k:
        return (f"the tile {tile_m}x{tile_k} is no whole number of the metadata atom {atom_m}x{atom_k} "
                "(tile_to_shape's static_assert)")
    return (str(SP.smem_layout_e(atom, tile_m, tile_k, stages)),
            str(SP.fill_layout_e(atom, E_TILES * tile_m, E_TILES * tile_k)), str(atom))


def _global_a(major: str) -> str:
    """fill_layoutA over (GLOBAL_EXTENT, GLOBAL_EXTENT) logical elements, one batch."""
    g, h = GLOBAL_EXTENT, GLOBAL_EXTENT // SPARSITY
    return f"({g},({SPARSITY},{h})):({g},(1,{SPARSITY}))" if major == "K" else \
        f"({g},({SPARSITY},{h})):({SPARSITY},(1,{SPARSITY * g}))"


def _global_b(major: str) -> str:
    g = GLOBAL_EXTENT
    return f"({g},{g}):({g},1)" if major == "K" else f"({g},{g}):(1,{g})"


Mapping = tuple[tuple[SparsePathCheck, ...], str]


def map_sm90_sparse(kc: KernelConfig) -> Mapping | str:
    """A SparseUniversal3x kernel's three paths (compressed A, B, metadata E) and the builder's choices in words, or
    why the rules do not map it (CUTLASS's refusal, or a kernel outside the sparse builder)."""
    if kc.opcode != SPARSE_OPCODE:
        return f"{kc.kind} {kc.opcode} kernel: not built by the SM90 sparse collective builder"
    if kc.element_a not in TYPES or kc.element_b not in TYPES:
        return f"{kc.element_a} x {kc.element_b} operands: no wgmma.mma_async.sp takes them"
    bits_a, bits_b = TYPES[kc.element_a][3], TYPES[kc.element_b][3]
    majors = (_major_a(kc.layout_a), _major_b(kc.layout_b))
    if bits_a != bits_b or (bits_a != 16 and majors != ("K", "K")):
        return RS_REFUSAL
    if kc.element_acc not in ACCUMULATORS:
        return f"{kc.element_acc} accumulators: no wgmma.mma_async.sp"
    if kc.align_a * bits_a < TMA_ALIGN_BITS or kc.align_b * bits_b < TMA_ALIGN_BITS:
        return "operands under 16 bytes aligned: CUTLASS's builder refuses them (static_assert \"Should meet TMA " \
               "alignment requirement\")"
    m, n, k = kc.tile
    schedule = kc.schedule
    if schedule == AUTO_SCHEDULE:
        schedule = "TmaWarpSpecializedPingpong" if m == WARPGROUP_M else "TmaWarpSpecializedCooperative"
    if schedule not in SCHEDULES:
        return f"schedule {schedule}: not one of the sparse builder's TMA warp-specialized schedules"
    if FAST_ACCUM in schedule and not (kc.element_a in FP8 and kc.element_b in FP8):
        return "an FP8FastAccum schedule with non-FP8 inputs: CUTLASS's builder refuses it (static_assert \"Only " \
               "FP8 datatypes are compatible with these kernel schedules\")"
    warpgroups = SCHEDULES[schedule]
    k_inst = SP.BLOCK_K_BITS // bits_a
    if m % (WARPGROUP_M * warpgroups) or n > 256 or n % 8 or k % k_inst:
        return (f"tile {m}x{n}x{k}: no tiled wgmma.mma_async.sp of it (ss_op_selector_sparse: Tile_M a multiple of "
                f"{WARPGROUP_M * warpgroups}, Tile_K of {k_inst})")
    fmt = SP.FORMATS[bits_a]
    stages = kc.stages or sparse_stages(kc.tile, bits_a, bits_b, fmt.e_bits)
    if stages < 2:
        return f"{stages} stage(s) fit shared memory: the collective's static_assert asks for 2 or more"
    meta = metadata_layouts(bits_a, m, k, stages)
    if isinstance(meta, str):
        return f"the metadata of a {m}x{n}x{k} tile: {meta}"
    smem_e, gmem_e, atom_e = meta
    atom = sparse_atom(n, kc.element_acc, kc.element_a, kc.element_b, majors)
    layout = f"[{warpgroups}, 1, 1]"
    checks: list[SparsePathCheck] = []
    for op, rows, element, major in (("A", m, kc.element_a, majors[0]), ("B", n, kc.element_b, majors[1])):
        type_name, _, _, bits = TYPES[element]
        sparsity = SPARSITY if op == "A" else 1
        swizzle = smem_swizzle(major, bits, rows, k, sparsity)
        if swizzle is None:
            return f"an {major}-major {type_name} {op} tile no GMMA layout atom divides (the selector's static_assert)"
        order = MN_MAJOR_ORDER if major == "MN" else ""
        named = f"GMMA::Layout_{major}_{swizzle}_SpAtom<{type_name},{SPARSITY}>" if op == "A" else \
            f"GMMA::Layout_{major}_{swizzle}_Atom<{type_name}>"
        smem = f"tile_to_shape({named}, ({rows},{k},{stages}){order})"
        gmem = _global_a(major) if op == "A" else _global_b(major)
        checks.append(SparsePathCheck(atom, op, "SM90_TMA_LOAD", (
            ("atom_layout", layout), ("operand", op), ("copy", "SM90_TMA_LOAD"), ("value_type", type_name),
            ("smem", _yaml(smem)), ("gmem", _yaml(gmem)))))
    checks.append(SparsePathCheck(atom, "E", COPY_E, (
        ("metadata", "A"), ("atom_layout", layout), ("copy", COPY_E), ("value_type", COPY_E_TYPE),
        ("smem", _yaml(smem_e)), ("gmem", _yaml(gmem_e)))))
    return tuple(checks), (f"{schedule}, {atom.name} on {warpgroups} warpgroup(s), {stages} stages, metadata atom "
                           f"{atom_e}")
