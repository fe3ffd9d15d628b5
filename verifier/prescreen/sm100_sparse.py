"""SM100 structured-sparse GEMM (GemmKind.SparseUniversal3x, OpClassSparseTensorOp, tcgen05.mma.sp): the CuTe
configuration CUTLASS 4.2's sparse UMMA collective builder builds, as data, and its three paths as checks.

The builder (cutlass/gemm/collective/builders/sm100_sparse_umma_builder.inl, sm1xx_sparse_config.inl) and its
collective (sm100_sparse_mma_warpspecialized.hpp):

- the schedules KernelSparseTmaWarpSpecialized{1,2}SmSm100: the 1-SM or 2-SM tiled MMA of the atom
  SM100_MMA_{TF32,F16BF16,S8,F8F6F4}[_2x1SM]_SS_SPARSE<A, B, Acc, M, N, MajorA, MajorB> (K = 512 / bits(A), the
  sparse instruction's), the TileShape the generator gives being the MMA's (M, N) and the CTA's K; each CTA holds
  M / cta_group rows of A and of E, and N / cta_group rows of B;
- compressed A: sm100_smem_selector_sparse's UMMA::Layout_K_{...}_SpAtom<T, 2> (the widest whose logical K extent
  divides the tile's), tiled to (rows, BLK_K, Stages), filled by TMA from fill_layoutA ((M,(2,K/2)):(K,(1,2)),
  logical): a descriptor check of the logical layout whose stored M x K/2 tile theorems 13-16 read;
- B: the dense path with the sparse atom (sm100_smem_selector's UMMA atom, TMA);
- the metadata E: Sm1xxGemmSparseConfig's TensorEAtom, SmemLayoutE = tile_to_shape(TensorEAtom, (rows, lcm(BLK_K,
  TensorEAtomK), Stages)) (UMMA::tile_to_mma_shape's (m, k, stage) form), the global LayoutE (fill_layoutE over two
  tiles each way), TMA, tcgen05.cp.128x128b (SM100_UTCCP_128dp128bit_{1,2}cta) into tensor memory after the
  accumulators: a metadata check (theorems 27, 33, 28);
- Stages: sm100_compute_stage_count_or_override_sparse for the whole capacity without the kernel's and the
  epilogue's carveouts (an upper bound, as for the dense kernels; every stage is proved alike): the A, B and E of a
  stage (E twice for 16- and 32-bit A whose k-tile is 128 bytes: two k-tiles' metadata a stage) rounded to 128 bytes,
  plus 16 bytes of barriers.

The TMEM column E starts at: the accumulators' (find_tmem_tensor_col_offset): two stages of N columns for N <= 224
(AccumulatorPipelineStageCount 2); for N = 256 one overlapping stage, 256 + (256 - EpilogueTileN) columns -- the
check is written with the largest first column that leaves (ACC_COLUMNS_N256, EpilogueTileN >= 8), inside the 512
columns there and hence for every epilogue tile; it is even like every 256 + 256 - EpilogueTileN.

As for the dense kernels, a TMA multicast within the cluster is proved as one CTA's load, and the runtime-typed 8-bit
float (`f8`) as float_e4m3_t.  The rules never import builders.py (which dispatches here): they return sm90_sparse.py's
path records.
"""
from __future__ import annotations

import json
from functools import lru_cache

from ..cute import sparse as SP
from ..cute import sparse_sm100 as SS
from ..hardware.shared_memory import SM100_BLOCK_SHARED_BYTES
from .sm90_sparse import SparseAtom, SparsePathCheck
from .space import KernelConfig

SPARSE_KINDS = ("SparseUniversal3x",)
SPARSE_OPCODE = "SparseTensorOp"
SCHEDULES = {"SparseTmaWarpSpecialized1SmSm100": 1, "SparseTmaWarpSpecialized2SmSm100": 2}
SPARSITY = 2                            # ElementASparsity
GLOBAL_EXTENT = 4096                    # the global (MN, K) tensors TMA reads, as for the dense kernels
E_TILES = 2                             # tiles of the global metadata along M and K a check names
TMA_ALIGN_BITS = 128
STAGE_ALIGN = 128                       # round_up(MainloopTensorStorage_per_Stage, 128)
PIPELINE_BYTES = 16                     # round_up(sizeof(ClusterBarrier) * 2, 16)
TWO_K_PHASE_BYTES = 128                 # is_hmma_two_kphase: a 16- or 32-bit A k-tile of 128 bytes
TMA = "SM90_TMA_LOAD"                   # SM100_TMA_2SM_LOAD of a pair fills each CTA's own half the same way
ACC_STAGES = 2                          # AccumulatorPipelineStageCount for N <= 224
OVERLAP_N = 224                         # ... 1 (an overlapping accumulator) above
TMEM_COLUMNS = 512
MIN_EPILOGUE_N = 8
ACC_COLUMNS_N256 = TMEM_COLUMNS - MIN_EPILOGUE_N   # N = 256: the largest first column E can have
RUNTIME_TYPE_STAND_INS = {"f8": "e4m3"}

# generator type -> (CuTe type, PTX type, the atom family, bits)
TYPES: dict[str, tuple[str, str, str, int]] = {
    "f16": ("half_t", "f16", "F16BF16", 16), "bf16": ("bfloat16_t", "bf16", "F16BF16", 16),
    "tf32": ("tfloat32_t", "tf32", "TF32", 32), "e4m3": ("float_e4m3_t", "e4m3", "F8F6F4", 8),
    "e5m2": ("float_e5m2_t", "e5m2", "F8F6F4", 8), "s8": ("int8_t", "s8", "S8", 8), "u8": ("uint8_t", "u8", "S8", 8)}
KINDS = {"F16BF16": "f16", "TF32": "tf32", "F8F6F4": "f8f6f4", "S8": "i8"}
ACCUMULATORS: dict[str, str] = {"f32": "float", "f16": "half_t", "s32": "int32_t"}
# sm100_smem_selector[_sparse], widest first: (swizzle, bits its atom spans along K)
SWIZZLES: tuple[tuple[str, int], ...] = (("SW128", 1024), ("SW64", 512), ("SW32", 256), ("INTER", 128))


def _yaml(text: str) -> str:
    return json.dumps(text)


def sparse_atom(family: str, ctas: int, a: str, b: str, acc: str, m: int, n: int) -> SparseAtom:
    """SM100_MMA_<family>[_2x1SM]_SS_SPARSE<A,B,Acc,M,N> with its MMA_Traits: one thread a CTA, each naming M/ctas
    rows of A and D and N/ctas of B over the logical K; ValTypeE."""
    a_type, a_ptx, _, bits = TYPES[a]
    b_type = TYPES[b][0]
    c_type = ACCUMULATORS[acc]
    k = SP.BLOCK_K_BITS // bits
    pair = "_2x1SM" if ctas == 2 else ""
    name = f"SM100_MMA_{family}{pair}_SS_SPARSE<{a_type},{b_type},{c_type},{m},{n}>"
    m_cta, n_cta = m // ctas, n // ctas
    m_stride, n_stride = (m_cta, n_cta) if ctas > 1 else (0, 0)
    e_type = SS.FORMATS[bits].e_type
    return SparseAtom(name, (
        ("instruction", _yaml(f"tcgen05.mma.sp.cta_group::{ctas}.kind::{KINDS[family]}")),
        ("shape_mnk", f"[{m}, {n}, {k}]"), ("thr_id", _yaml(f"{ctas}:{ctas - 1}")),
        ("types", f"{{a: {a_type}, b: {b_type}, c: {c_type}, d: {c_type}, e: {_yaml(e_type)}}}"),
        ("a", _yaml(f"({ctas},({m_cta},{k})):({m_stride},(1,{m}))")),
        ("b", _yaml(f"({ctas},({n_cta},{k})):({n_stride},(1,{n}))")),
        ("c", _yaml(f"({ctas},({m_cta},{n})):({m_stride},(1,{m}))"))))


def smem_swizzle(bits: int, k: int, sparsity: int = 1) -> str | None:
    """sm100_smem_selector[_sparse] for a K-major tile: the widest atom whose logical K extent divides the tile's."""
    return next((name for name, span in SWIZZLES if k % (span // bits * sparsity) == 0), None)


def sparse_stages(rows_a: int, rows_b: int, k: int, bits_a: int, bits_b: int, e_bits: int) -> int:
    """sm100_compute_stage_count_or_override_sparse for the whole capacity."""
    two_kphase = bits_a * k // 8 == TWO_K_PHASE_BYTES and bits_a in (16, 32)
    stage = (-(-bits_a // SPARSITY * rows_a * k // 8) + -(-bits_b * rows_b * k // 8)
             + -(-e_bits * rows_a * k * (2 if two_kphase else 1) // 8))
    stage = -(-stage // STAGE_ALIGN) * STAGE_ALIGN
    return SM100_BLOCK_SHARED_BYTES // (stage + PIPELINE_BYTES)


def accumulator_columns(n: int) -> int:
    """E's first TMEM column (see the module's docstring)."""
    return ACC_STAGES * n if n <= OVERLAP_N else ACC_COLUMNS_N256


@lru_cache(maxsize=None)
def metadata_layouts(bits: int, rows: int, tile_k: int, stages: int) -> tuple[str, str, str, int] | str:
    """SmemLayoutE with its stages and LayoutE over E_TILES tiles each way, as CuTe prints them, the atom and E's
    tile K; or CUTLASS's refusal."""
    fmt = SS.metadata_format(bits)
    if isinstance(fmt, str):
        return fmt
    reuse = SS.utccp_reuse(tile_k, fmt.atom_k)
    if isinstance(reuse, str):
        return reuse
    k_e = SS.tile_k_e(tile_k, fmt.atom_k)
    if rows % SS.ATOM_M:
        return f"{rows} rows a CTA: no whole TensorEAtom of {SS.ATOM_M} rows (tile_to_shape's static_assert)"
    return (str(SP.smem_layout_e(fmt.atom, rows, k_e, stages)),
            str(SP.fill_layout_e(fmt.atom, E_TILES * rows, E_TILES * k_e)), str(fmt.atom), k_e)


def _global_a() -> str:
    """fill_layoutA of a K-major A over (GLOBAL_EXTENT, GLOBAL_EXTENT) logical elements, one batch."""
    g, h = GLOBAL_EXTENT, GLOBAL_EXTENT // SPARSITY
    return f"({g},({SPARSITY},{h})):({g},(1,{SPARSITY}))"


def _global_b() -> str:
    g = GLOBAL_EXTENT
    return f"({g},{g}):({g},1)"


Mapping = tuple[tuple[SparsePathCheck, ...], str]


def map_sm100_sparse(kc: KernelConfig) -> Mapping | str:
    """A SparseUniversal3x kernel's three paths (compressed A, B, metadata E) and the builder's choices in words, or
    why the rules do not map it (CUTLASS's refusal, or a kernel outside the sparse UMMA builder)."""
    if kc.opcode != SPARSE_OPCODE:
        return f"{kc.kind} {kc.opcode} kernel: not built by the SM100 sparse collective builder"
    a = RUNTIME_TYPE_STAND_INS.get(kc.element_a, kc.element_a)
    b = RUNTIME_TYPE_STAND_INS.get(kc.element_b, kc.element_b)
    if a not in TYPES or b not in TYPES or TYPES[a][2] != TYPES[b][2]:
        return f"{kc.element_a} x {kc.element_b} operands: no tcgen05.mma.sp kind modelled here takes them together"
    family = TYPES[a][2]
    if kc.element_acc not in ACCUMULATORS:
        return f"{kc.element_acc} accumulators: no tcgen05.mma.sp"
    if (kc.layout_a, kc.layout_b) != ("RowMajor", "ColumnMajor"):
        return "an MN-major operand: the SM100 sparse kernels the rules map are TN (K-major A and B)"
    bits_a, bits_b = TYPES[a][3], TYPES[b][3]
    if kc.align_a * bits_a < TMA_ALIGN_BITS or kc.align_b * bits_b < TMA_ALIGN_BITS:
        return "operands under 16 bytes aligned: TMA cannot load them (sm1xx_sparse_gemm_is_aligned)"
    ctas = SCHEDULES.get(kc.schedule)
    if ctas is None:
        return f"schedule {kc.schedule}: not one of the sparse UMMA builder's 1-SM / 2-SM schedules"
    m, n, k = kc.tile
    rows_a, rows_b = m // ctas, n // ctas
    k_inst = SP.BLOCK_K_BITS // bits_a
    if rows_a != SS.ATOM_M or k % k_inst or k // k_inst not in (2, 4):
        return (f"MMA tile {m}x{n}x{k} on {ctas} SM(s): CUTLASS's collective refuses it (static_assert \"This kernel "
                "only support MmaShape=128 and 2/4 kphase.\")")
    fmt = SS.metadata_format(bits_a)
    if isinstance(fmt, str):
        return fmt
    stages = kc.stages or sparse_stages(rows_a, rows_b, k, bits_a, bits_b, fmt.e_bits)
    meta = metadata_layouts(bits_a, rows_a, k, stages)
    if isinstance(meta, str):
        return f"the metadata of a {m}x{n}x{k} tile: {meta}"
    smem_e, gmem_e, atom_e, k_e = meta
    atom = sparse_atom(family, ctas, a, b, kc.element_acc, m, n)
    checks: list[SparsePathCheck] = []
    for op, rows, element in (("A", rows_a, a), ("B", rows_b, b)):
        type_name, _, _, bits = TYPES[element]
        sparsity = SPARSITY if op == "A" else 1
        swizzle = smem_swizzle(bits, k, sparsity)
        if swizzle is None:
            return f"a K-major {type_name} {op} tile no UMMA layout atom divides (the selector's static_assert)"
        named = (f"UMMA::Layout_K_{swizzle}_SpAtom<{type_name},{SPARSITY}>" if op == "A"
                 else f"UMMA::Layout_K_{swizzle}_Atom<{type_name}>")
        smem = f"tile_to_shape({named}, ({rows},{k},{stages}))"
        checks.append(SparsePathCheck(atom, op, TMA, (
            ("operand", op), ("copy", TMA), ("value_type", type_name), ("smem", _yaml(smem)),
            ("gmem", _yaml(_global_a() if op == "A" else _global_b())), ("major", "K"))))
    base = accumulator_columns(n)
    checks.append(SparsePathCheck(atom, "E", SS.UTCCP_OPS[ctas], (
        ("metadata", "A"), ("copy", SS.UTCCP_OPS[ctas]), ("value_type", "uint8_t"), ("smem", _yaml(smem_e)),
        ("gmem", _yaml(gmem_e)), ("tile_k", str(k)), ("tmem_base", str(base)))))
    stand_ins = "; f8 proved as e4m3" if "f8" in (kc.element_a, kc.element_b) else ""
    return tuple(checks), (f"{kc.schedule}, {atom.name} on {ctas} SM(s), {stages} stages, metadata atom {atom_e}, "
                           f"E's tile K {k_e} (UtccpReuseCnt {k_e // k}), E in TMEM from column {base}" + stand_ins)
