"""`prescreen-cutlass`: CUTLASS's generated GEMM kernels mapped to the CuTe configurations their builders build
(the rules on chosen kernels), the whole default spaces of SM80, SM90 and SM100 proved, and a wrong configuration
in the space reported per kernel with CuTe's rule or a counterexample."""
import importlib.util
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from verifier.outcome import Expect, Verdict
from verifier.prescreen import builders
from verifier.prescreen import run as command
from verifier.prescreen.builders import UMMA_FAMILIES, Mapped, Sm80Family, Unmapped, map_sm80, map_sm90, map_sm100
from verifier.prescreen.space import KernelConfig

ROOT = Path(__file__).parent.parent
HAS_CUTLASS_LIBRARY = importlib.util.find_spec("cutlass_library") is not None
needs_generator = pytest.mark.skipif(not HAS_CUTLASS_LIBRARY, reason="cutlass_library (pip install --no-deps "
                                                                     "nvidia-cutlass) is not installed")
SM90_F16 = KernelConfig("k90", 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1), (0, 0, 0), "f16", "f16",
                        "f32", "RowMajor", "ColumnMajor", 8, 8, "ScheduleAuto", 0)
SM80_F16 = KernelConfig("k80", 80, "Universal", "TensorOp", (128, 128, 32), (2, 2, 1), (16, 8, 16), "f16", "f16",
                        "f32", "RowMajor", "ColumnMajor", 8, 8, "", 3)
SM100_F16 = KernelConfig("k100", 100, "Universal3x", "TensorOp", (128, 256, 64), (4, 1, 1), (128, 256, 16), "f16",
                         "f16", "f32", "RowMajor", "ColumnMajor", 8, 8, "TmaWarpSpecialized1SmSm100", 0, (0, 0, 1))
# what the generator's default SM100 space (cutlass_library as installed) holds and maps
# the 64 SparseUniversal3x kernels mapped (sm100_sparse.py): 48 (f16, bf16, e4m3, e5m2, s8) verified, theorem 28 read
# against the layout inferred from JAX's Mosaic GPU; the 16 tf32 ones unsupported at theorem 28 only (Figures 262-267,
# and JAX has no sparse tf32)
SM100_DEFAULT_SPACE = {"kernels": 25384, "mapped": 25384, "paths": 1316, "verified": 23500, "unsupported": 1884}
# the blockwise-scaled kernels (BlockwiseUniversal3x, GroupedBlockwiseUniversal3x): A, B and their scales, all verified
BLOCKWISE_KERNELS = {90: 840, 100: 1152}
# the SM90 structured-sparse kernels (SparseUniversal3x): each a compressed A, a B and a metadata path, all verified
SM90_SPARSE_KERNELS = 1420
# the SM90 kernels whose A goes through registers (an RS wgmma), by class: the words of their summary -> kernels
SM90_RS_CLASSES = {"_RS_TN on": 244,                         # tf32 NN, TT (SwapAB) and NT (B transposed), TMA and
                                                             # cp.async (224); int4 x e4m3 / e5m2 (20)
                   # mixed input: not shuffled, ConvertOnly 160 and ScaleOnly / ScaleWithZeroPoint 320; value-shuffled
                   # 360 (sm90_shuffle.py)
                   "_RS<GMMA::Major::K,GMMA::Major::K> on": 840,
                   "not mapped: A and B MN-major tfloat32_t": 0,   # TransposeB: sm90_transpose.py maps them
                   # the scales (and zero points) of every scaled kernel, shuffled or not, the lookup-table ones too
                   "by TMA, copied into registers partitioned like A": 580,
                   # the int4 x 8-bit float ScaleOnly kernels: A converted by the scales' lookup tables
                   "by lookup tables of the scales (lookup_table_convert)": 20,
                   "not mapped: value-shuffled mixed input": 0}
UMMA_ATOM_NAME = re.compile(r"SM100_MMA_(\w+?)(_2x1SM)?_SS<(\w+),(\w+),(\w+),(\d+),(\d+)>")
TYPE_NAMES = {cute: name for name, (cute, *_) in {**builders.OPERAND_TYPES, **{
    acc: (cute, "", "", 0) for acc, (cute, *_) in builders.ACCUMULATORS.items()}}.items()}


def test_sm90_auto_schedule_and_the_smem_selector():
    m = map_sm90(SM90_F16)
    assert isinstance(m, Mapped) and "TmaWarpSpecializedCooperative" in m.how
    a, b = m.checks
    assert a.mma.name == "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>" and a.atom_layout == (2, 1, 1)
    assert a.smem.startswith("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,")
    pingpong = map_sm90(replace(SM90_F16, tile=(64, 128, 64)))
    assert isinstance(pingpong, Mapped) and "Pingpong" in pingpong.how and pingpong.checks[0].atom_layout == (1, 1, 1)
    mn = map_sm90(replace(SM90_F16, layout_a="ColumnMajor", tile=(128, 128, 32)))
    assert isinstance(mn, Mapped)
    assert mn.checks[0].smem.startswith("tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>, (128,32,") and \
        mn.checks[0].smem.endswith(", (2,1,3))")
    assert mn.checks[1].smem.startswith("tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>, (128,32,")


def test_sm90_cp_async_mainloops_are_through_layout_descriptor_checks(monkeypatch, tmp_path):
    """GMMA_CpAsync_WS_SS: Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint_byte_t<sizeof(E) * Alignment>>, E> writes
    the ss_smem_selector tile through its layout (no tensor map); KernelScheduleAuto picks it when an operand is not
    16-byte aligned; under 4 bytes CUTLASS's builder refuses (its static_assert). The mapped kernels are proved;
    a rule that gives an M-major A tile a K-major wgmma is not."""
    auto = map_sm90(replace(SM90_F16, align_a=4))           # 8 bytes: not TMA-aligned
    assert isinstance(auto, Mapped) and auto.how.startswith("CpAsyncWarpSpecialized,")
    a, b = auto.checks
    assert (a.copy, a.gmem, a.atom_layout) == ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>", None, (1, 1, 1))
    assert b.copy == "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>"
    coop = map_sm90(replace(SM90_F16, schedule="CpAsyncWarpSpecializedCooperative", tile=(64, 128, 64)))
    assert isinstance(coop, Mapped) and coop.checks[0].atom_layout == (1, 1, 1)       # M < 128: one warpgroup
    two = map_sm90(replace(SM90_F16, align_a=1))
    assert isinstance(two, Unmapped) and "Minimum alignment required for cp.async is 4B." in two.reason
    cp = replace(SM90_F16, name="cp", align_a=4)
    cooperative = replace(SM90_F16, name="coop", schedule="CpAsyncWarpSpecializedCooperative")
    monkeypatch.setattr(command, "kernels", lambda arch, level: [cp, cooperative])
    results, mapped, paths, _ = command.run(90, "", 1, tmp_path)
    assert mapped == 2 and all(r.verdict is Verdict.VERIFIED for r in results), [r.verdict for r in results]
    m_major = replace(SM90_F16, name="mn", align_a=4, layout_a="ColumnMajor")
    monkeypatch.setattr(command, "kernels", lambda arch, level: [m_major])
    results, _, _, _ = command.run(90, "", 1, tmp_path)
    assert [r.verdict for r in results] == [Verdict.VERIFIED]
    real = builders.gmma_atom
    monkeypatch.setattr(builders, "gmma_atom", lambda n, acc, a, b, majors: real(n, acc, a, b, ("K", "K")))
    results, _, _, _ = command.run(90, "", 1, tmp_path)
    assert [r.verdict for r in results] == [Verdict.REFUTED]


@pytest.mark.parametrize("change, words", [
    ({"align_a": 1}, "cp.async is 4B"),
    # an int4 x e4m3 ScaleOnly (lookup-table) kernel whose int4 A is 32 bits aligned: not a TMA mainloop
    ({"element_a": "s4", "element_b": "e4m3", "mixed_mode": "ScaleOnly"}, "Only TMA warp specialized kernels"),
    ({"element_a": "s4"}, "mixed or narrow inputs"),
    ({"kind": "SparseUniversal3x"}, "not built by the SM90 sparse collective builder"),   # a dense opcode
])
def test_sm90_kernels_outside_the_model_are_not_mapped_with_a_reason(change, words):
    m = map_sm90(replace(SM90_F16, **change))
    assert isinstance(m, Unmapped) and words in m.reason


def test_sm80_rules_follow_the_default_configuration():
    m = map_sm80(SM80_F16)
    assert isinstance(m, Mapped)
    a, b = m.checks
    assert (a.mma.name, a.atom_layout, a.permutation, a.copy) == ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1),
                                                                 (32, 32, 16), "SM75_U32x4_LDSM_N")
    assert a.smem == "tile_to_shape(Sw<2,3,3> o (8,32):(32,1), (128,32))"
    tf32 = map_sm80(replace(SM80_F16, element_a="tf32", element_b="tf32", instruction=(16, 8, 8),
                            layout_b="RowMajor"))
    assert isinstance(tf32, Mapped)
    assert tf32.checks[0].atom_layout == "(2,2,1):(2,1,4)" and tf32.checks[1].copy == "UniversalCopy<tfloat32_t>"
    assert isinstance(map_sm80(replace(SM80_F16, element_a="s8", element_b="s8", element_acc="s32",
                                       instruction=(16, 8, 32), layout_a="ColumnMajor")), Unmapped)


SM80_F64 = replace(SM80_F16, name="d884", tile=(128, 64, 16), warps=(4, 2, 1), instruction=(8, 8, 4),
                   element_a="f64", element_b="f64", element_acc="f64")


def test_sm80_double_follows_cutlass_s_m8n8k4_configuration_and_is_proved(monkeypatch, tmp_path):
    """The vectorizing Tile<(8*WM,2):(2,1), (8*WN,2):(2,1), _> on the kernel's warps, Swizzle<2,0,4> o (4,16):(1,4)
    for a K-major operand, Swizzle<2,2,2> o (16,4):(1,16) for an MN-major one, one double a copy; a K-major operand
    whose K block the atom's 16 does not divide is not mapped, with the reason; both mapped kernels are proved."""
    m = map_sm80(SM80_F64)                              # A row-major (K-major), B column-major (K-major)
    assert isinstance(m, Mapped)
    a, b = m.checks
    assert (a.mma.name, a.atom_layout, a.permutation, a.copy, a.value_type) == (
        "SM80_8x8x4_F64F64F64F64_TN", (4, 2, 1), ("(32,2):(2,1)", "(16,2):(2,1)"), "UniversalCopy<double>", "double")
    assert a.smem == "tile_to_shape(Sw<2,0,4> o (4,16):(1,4), (128,16))"
    nt = map_sm80(replace(SM80_F64, name="d884_nt", tile=(64, 64, 8), layout_a="ColumnMajor", layout_b="RowMajor"))
    assert isinstance(nt, Mapped) and nt.checks[1].smem == "tile_to_shape(Sw<2,2,2> o (16,4):(1,16), (64,8))"
    k8 = map_sm80(replace(SM80_F64, tile=(64, 64, 8)))
    assert isinstance(k8, Unmapped) and "spans K = 16" in k8.reason
    monkeypatch.setattr(command, "kernels", lambda arch, level: [SM80_F64, replace(SM80_F64, name="d884_nt",
                        tile=(64, 64, 8), layout_a="ColumnMajor", layout_b="RowMajor")])
    results, mapped, paths, _ = command.run(80, "", 1, tmp_path)
    assert mapped == 2 and paths == (4, 4) and all(r.verdict is Verdict.VERIFIED for r in results)
    wrong = replace(builders.F64_FAMILY, k_copy="SM75_U32x4_LDSM_N")     # ldmatrix for doubles: CuTe refuses
    monkeypatch.setitem(builders.SM80_FAMILIES, ("f64", "f64", (8, 8, 4)), wrong)
    results, _, _, _ = command.run(80, "", 1, tmp_path)
    assert any(r.verdict is not Verdict.VERIFIED for r in results)


def test_a_wrong_configuration_in_the_space_is_reported_per_kernel_with_cutes_rule(monkeypatch, tmp_path):
    # a mapping that pairs the m16n8k8 atom with ldmatrix x4: CuTe refuses the tiled copy
    wrong = Sm80Family("SM80_16x8x8_F32F16F16F32_TN", None, ((32, "Sw<2,3,3>", "(8,32):(32,1)"),),
                       ("Sw<3,3,3>", "(64,8):(1,64)"), "SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T")
    monkeypatch.setitem(builders.SM80_FAMILIES, ("f16", "f32", (16, 8, 8)), wrong)
    k8 = replace(SM80_F16, name="k8", instruction=(16, 8, 8))
    monkeypatch.setattr(command, "kernels", lambda arch, level: [SM80_F16, k8])
    results, mapped, paths, _ = command.run(80, "", 1, tmp_path)
    assert mapped == 2 and paths == (4, 4)
    by = {r.name: r for r in results}
    assert by["k80"].verdict is Verdict.VERIFIED
    assert by["k8"].verdict is Verdict.REFUTED
    table = command.summary_table(80, results, mapped, paths, 0.0)
    assert "| refused by CuTe | 1 |" in table and "TiledCopy uses too few vals for selected CopyAtom" in table
    assert (tmp_path / "prescreen_sm80.yaml").is_file()


def test_sm100_rules_follow_the_umma_builder():
    m = map_sm100(SM100_F16)
    assert isinstance(m, Mapped) and "1 SM(s), 4 stages" in m.how
    a, b = m.checks
    assert a.mma.name == "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256>" and a.atom_layout is None
    assert (a.smem, a.major, a.gmem) == ("tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>, (128,64,4))", "K",
                                         "(4096,4096):(4096,1)")
    assert b.smem == "tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>, (256,64,4))"
    # 2-SM: each CTA holds half of the MMA's M rows of A and half of its N rows of B
    two_sm = map_sm100(replace(SM100_F16, schedule="TmaWarpSpecialized2SmSm100", tile=(256, 256, 64),
                               layout_a="ColumnMajor"))
    assert isinstance(two_sm, Mapped) and two_sm.checks[0].mma.name.startswith("SM100_MMA_F16BF16_2x1SM_SS<")
    assert two_sm.checks[0].smem == "tile_to_shape(UMMA::Layout_MN_SW128_Atom<half_t>, (128,64,7), (2,1,3))"
    assert two_sm.checks[0].major == "MN" and two_sm.checks[1].smem.startswith("tile_to_shape(UMMA::Layout_K_SW128_"
                                                                                "Atom<half_t>, (128,64,7)")
    # MN-major 32-bit: the 32-byte-atomic atom; MN-major 8-bit over 64 rows: the widest swizzle dividing them
    tf32 = map_sm100(replace(SM100_F16, element_a="tf32", element_b="tf32", align_a=4, align_b=4, tile=(128, 128, 32),
                             layout_b="RowMajor"))
    assert isinstance(tf32, Mapped) and tf32.checks[1].smem.startswith("tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom"
                                                                       "<tfloat32_t>, (128,32,")
    fp8 = map_sm100(replace(SM100_F16, element_a="f8", element_b="e5m2", align_a=16, align_b=16, tile=(64, 128, 128),
                            layout_a="ColumnMajor"))
    assert isinstance(fp8, Mapped) and "f8 proved as e4m3" in fp8.how
    assert fp8.checks[0].mma.name == "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e5m2_t,float,64,128>"
    assert fp8.checks[0].smem.startswith("tile_to_shape(UMMA::Layout_MN_SW64_Atom<float_e4m3_t>, (64,128,")
    # KernelScheduleAuto: 2-SM on a static cluster even along M, 1-SM on a dynamic one
    auto = replace(SM100_F16, schedule="ScheduleAuto", cluster=(2, 1, 1))
    assert all(isinstance(x, Mapped) for x in (map_sm100(auto), map_sm100(replace(auto, cluster=(0, 0, 1)))))
    assert "on 2 SM(s)" in map_sm100(auto).how and "on 1 SM(s)" in map_sm100(replace(auto, cluster=(0, 0, 1))).how


@pytest.mark.parametrize("change, words", [
    ({"kind": "GroupedBlockwiseUniversal3x"}, "blockwise-scaled"),
    ({"kind": "SparseUniversal3x", "opcode": "SparseTensorOp"}, "sparse UMMA"),
    ({"element_b": "bf16"}, "mixed input"),
    ({"align_a": 4}, "under 16 bytes aligned"),
    ({"schedule": "CpAsyncWarpSpecialized1SmSm100"}, "not the dense TMA UMMA mainloop"),
])
def test_sm100_kernels_outside_the_model_are_not_mapped_with_a_reason(change, words):
    m = map_sm100(replace(SM100_F16, **change))
    assert isinstance(m, Unmapped) and words in m.reason


SM100_BLOCK_SCALED = replace(SM100_F16, name="bs", kind="BlockScaledUniversal3x", opcode="BlockScaledTensorOp",
                             tile=(128, 128, 128), element_a="e4m3", element_b="e2m1", align_a=128, align_b=128,
                             schedule="Mxf8f6f4TmaWarpSpecialized1SmSm100", scale_factor="ue8m0")


def test_a_block_scaled_kernel_maps_to_its_operands_and_their_scale_factors():
    m = map_sm100(SM100_BLOCK_SCALED)
    assert isinstance(m, Mapped), m
    a, b, sfa, sfb = m.checks
    assert a.mma.name == b.mma.name == ("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,"
                                        "float_ue8m0_t,128,128>")
    assert (a.value_type, b.value_type) == ("float_e4m3_t", "float_e2m1_unpacksmem_t")
    assert b.smem.startswith("tile_to_shape(UMMA::Layout_K_SW128_Atom<uint8_t>, (128,128,")   # a byte an element
    assert isinstance(sfa, builders.ScaleFactorCheck) and isinstance(sfb, builders.ScaleFactorCheck)
    assert (sfa.scaled, sfb.scaled, sfa.vs, sfa.copy) == ("A", "B", 32, "SM100_UTCCP_4x32dp128bit_1cta")
    assert sfa.smem.startswith("((((_32,_4),_1),(_32,_1)),_1,(_4,_1),") and sfb.tmem_base == sfa.tmem_base + 4
    nvf4 = map_sm100(replace(SM100_BLOCK_SCALED, element_a="e2m1", tile=(256, 256, 256), scale_factor="ue4m3",
                             schedule="Nvf4TmaWarpSpecialized2SmSm100"))
    assert isinstance(nvf4, Mapped)
    assert nvf4.checks[0].mma.name == ("SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,256,"
                                       "256,16>")
    assert nvf4.checks[2].copy == "SM100_UTCCP_4x32dp128bit_2cta" and nvf4.checks[2].vs == 16
    assert "kind::mxf4nvf4.block_scale.block16" in dict(nvf4.checks[0].mma.fields)["instruction"]
    # the dense kind::f8f6f4 path of a 4-bit operand: a byte of shared memory each, as the builder lays it out
    dense = map_sm100(replace(SM100_F16, element_a="e2m1", element_b="e4m3", align_a=128, align_b=16,
                              tile=(128, 128, 128)))
    assert isinstance(dense, Mapped) and dense.checks[0].value_type == "float_e2m1_unpacksmem_t"
    for change, words in (({"scale_factor": ""}, "scale factors of type none"),
                          ({"element_b": "e4m3", "schedule": "Nvf4TmaWarpSpecialized1SmSm100"}, "packed e2m1 only"),
                          ({"schedule": "BlockwiseTmaWarpSpecialized1SmSm100"}, "not one of the Mxf8f6f4")):
        unmapped = map_sm100(replace(SM100_BLOCK_SCALED, **change))
        assert isinstance(unmapped, Unmapped) and words in unmapped.reason, (change, unmapped)


# sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement: an unpacked (4- or 6-bit) operand's contiguous tile extent, each
# side of the rule: (change, refused); SM100_BLOCK_SCALED's B is the e2m1 one (1 SM, tile 128x128x128)
UNPACKED_TMA_CASES = [
    ({"layout_b": "RowMajor", "tile": (128, 64, 128)}, True),      # MN-major B: N a multiple of 128 on one SM
    ({"layout_b": "RowMajor", "tile": (128, 192, 128)}, True),
    ({"layout_b": "RowMajor", "tile": (128, 256, 128)}, False),
    ({"tile": (128, 128, 64)}, True),                                # K-major B: K a multiple of 128
    ({"tile": (128, 128, 256)}, False),
    # two SMs: an MN-major B's N a multiple of 256 (each CTA loads half of it)
    ({"layout_b": "RowMajor", "tile": (256, 128, 128), "schedule": "Mxf8f6f4TmaWarpSpecialized2SmSm100"}, True),
    ({"layout_b": "RowMajor", "tile": (256, 256, 128), "schedule": "Mxf8f6f4TmaWarpSpecialized2SmSm100"}, False),
    # the rule reads the unpacked operands only: an MN-major e4m3 B of N 64 is not its business
    ({"element_b": "e4m3", "layout_b": "RowMajor", "tile": (128, 64, 128)}, False),
]


@pytest.mark.parametrize("change, refused", UNPACKED_TMA_CASES)
def test_an_unpacked_operand_the_builders_tma_rule_refuses_is_not_mapped(change, refused):
    """CUTLASS's UMMA builders static_assert that an unpacked operand's TMA load spans whole 128-element runs (a level
    of 9999 lists block-scaled kernels of N 64 and 192 with an MN-major e2m1 B, which would otherwise be refuted at
    theorem 13 for a box CUTLASS never encodes); the dense f8f6f4 builder alike."""
    dense = replace(SM100_F16, element_a="e4m3", element_b="e2m1", align_a=16, align_b=128)
    for kc in (replace(SM100_BLOCK_SCALED, **change),
               replace(dense, **{k: v.replace("Mxf8f6f4", "") if k == "schedule" else v for k, v in change.items()})):
        m = map_sm100(kc)
        if refused:
            assert isinstance(m, Unmapped) and "Mix 8-bit TMA load requirement" in m.reason, (kc, m)
        else:
            assert isinstance(m, Mapped), (kc, m)


def test_the_dense_builders_auto_schedule_asks_the_unpacked_rule_on_two_sms():
    """KernelScheduleAuto: the builder's is_2sm is a static cluster even along M, whatever the tile (the tiled MMA
    itself also asks the tile's M): an MN-major unpacked A of M 128 on such a cluster is 64 rows a CTA to the rule."""
    auto = replace(SM100_F16, element_a="e2m1", element_b="e4m3", align_a=128, align_b=16, tile=(128, 128, 128),
                   layout_a="ColumnMajor", schedule="ScheduleAuto")
    assert isinstance(map_sm100(replace(auto, cluster=(1, 1, 1))), Mapped)
    refused = map_sm100(replace(auto, cluster=(2, 1, 1)))
    assert isinstance(refused, Unmapped) and "tile M a CTA of 64" in refused.reason, refused


def test_block_scaled_paths_are_proved_and_the_unsettled_ones_say_why(monkeypatch):
    """One kernel of each block-scaled shape class, proved through the prescreen's own spec: the K-major ones
    verified, N = 192 too (CUTLASS's remapped SFB); an MN-major 4-bit operand unsupported with its reason."""
    space = [SM100_BLOCK_SCALED, replace(SM100_BLOCK_SCALED, name="mn_major_fp4", layout_b="RowMajor"),
             replace(SM100_BLOCK_SCALED, name="nvf4_n192", element_a="e2m1", tile=(128, 192, 256),
                     scale_factor="ue4m3", schedule="Nvf4TmaWarpSpecialized1SmSm100")]
    monkeypatch.setattr(command, "kernels", lambda arch, level: space)
    results, mapped, paths, _ = command.run(100, "", 1, None)
    by = {r.name: r for r in results}
    assert mapped == 3 and by["bs"].verdict is Verdict.VERIFIED
    assert by["mn_major_fp4"].verdict is Verdict.UNSUPPORTED
    assert "an MN-major 4-bit operand" in command.unsupported_reason(by["mn_major_fp4"])
    assert by["nvf4_n192"].verdict is Verdict.VERIFIED
    table = command.summary_table(100, results, mapped, paths, 0.0)
    assert "unsupported, by reason:" in table and "| verified | 2 |" in table


def test_umma_atom_traits_match_the_atom_library():
    from ruamel.yaml import YAML
    library = YAML(typ="safe").load((ROOT / "specs" / "atoms" / "sm100_umma.yaml").read_text())["mma_atoms"]
    families = {f.tag: f for f in UMMA_FAMILIES}
    compared = 0
    for name, traits in library.items():
        m = UMMA_ATOM_NAME.fullmatch(name)
        if m is None:
            continue
        tag, two_sm, a, b, c, mm, nn = m.groups()
        atom = builders.umma_atom(families[tag], 2 if two_sm else 1, TYPE_NAMES[a], TYPE_NAMES[b], TYPE_NAMES[c],
                                  int(mm), int(nn))
        assert atom.name == name
        ours = YAML(typ="safe").load("\n".join(f"{k}: {v}" for k, v in atom.fields))
        assert ours == {k: v for k, v in traits.items() if k != "source"}, name
        compared += 1
    assert compared > 100


def test_a_wrong_umma_rule_shows_refuted_kernels_in_the_table(monkeypatch, tmp_path):
    # an MN-major operand's global tensor written K-major: TMA's boxes cannot fill the tile (a K-major layout atom
    # for it would be CuTe's refusal instead: make_umma_desc's canonical-layout static_assert)
    global_tensor = builders._global_tensor
    monkeypatch.setattr(builders, "_global_tensor", lambda major: global_tensor("K"))
    mn_b = replace(SM100_F16, name="mn_b", tile=(64, 64, 64), layout_b="RowMajor")
    k_only = replace(mn_b, name="k_only", layout_b="ColumnMajor")
    monkeypatch.setattr(command, "kernels", lambda arch, level: [k_only, mn_b])
    monkeypatch.setattr(command, "PATHS_PER_SPEC", 2)       # a large space's paths are written as several specs
    results, mapped, paths, _ = command.run(100, "", 1, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prescreen_sm100.yaml", "prescreen_sm100_2.yaml"]
    by = {r.name: r for r in results}
    assert (mapped, paths) == (2, (3, 3)) and by["k_only"].verdict is Verdict.VERIFIED
    assert by["mn_b"].verdict is Verdict.REFUTED
    # mn_b's A path lies in the first file, its B path in the second: its description names both files
    assert "(prescreen_sm100.yaml)" in by["mn_b"].summary and "(prescreen_sm100_2.yaml)" in by["mn_b"].summary
    assert "(prescreen_sm100" not in by["k_only"].summary          # one file: the paths' names suffice
    table = command.summary_table(100, results, mapped, paths, 0.0)
    assert "| verified | 1 |" in table and "| refuted (a counterexample) | 1 |" in table
    at = command.refuting_theorems(by["mn_b"])
    assert at and f"refuted, by theorem:\n      1  {at}" in table


SHUFFLED_S8_KERNELS = {90: 60}     # the s8 `_shfl` kernels: 20 ConvertOnly, 40 with scales


@needs_generator
@pytest.mark.parametrize("arch", [80, 90])
def test_the_generators_default_space_is_proved(arch, tmp_path):
    report = tmp_path / "kernels.json"
    p = subprocess.run([sys.executable, "-m", "verifier", "prescreen-cutlass", "--arch", str(arch), "--jobs", "2",
                        "--format", "json", "-o", str(report)], capture_output=True, text=True, cwd=ROOT)
    doc = json.loads(report.read_text())
    checks = doc["checks"]
    mapped = [c for c in checks if c["expect"] != "unsupported"]
    # the documented finding (README, theorem 35): CUTLASS's int8 LayoutAwareConvertImpl of the value-shuffled
    # kernels writes another k-block's registers; every other mapped kernel is verified
    refuted = [c for c in mapped if c["verdict"] != "verified"]
    assert all(c["verdict"] == "refuted" and "_s8_" in c["check"] and "_shfl_" in c["check"] for c in refuted)
    assert len(refuted) == SHUFFLED_S8_KERNELS.get(arch, 0), len(refuted)
    # each operand path once, with its theorems and counterexamples; a kernel names its paths
    paths = doc["paths"]
    assert {p for c in mapped for p in c["paths"]} == set(paths)
    assert all("theorems" not in c and "counterexamples" not in c for c in mapped)
    for c in mapped:
        verdicts = [paths[p]["verdict"] for p in c["paths"]]
        assert c["verdict"] == ("verified" if set(verdicts) == {"verified"} else "refuted"), (c["check"], verdicts)
    assert all(paths[p]["counterexamples"] for c in refuted for p in c["paths"] if paths[p]["verdict"] == "refuted")
    assert p.returncode == (1 if refuted else 0), p.stdout[-2000:] + p.stderr[-2000:]
    assert mapped
    assert all(c["verdict"] == "unsupported" and c["info"][0].startswith("not mapped") for c in checks
               if c["expect"] == "unsupported")
    assert f"prescreen-cutlass --arch {arch}: {len(checks)} GEMM kernels, {len(mapped)} mapped" in p.stdout
    if arch == 90:
        blockwise = [c for c in checks if "blockwise scales" in c["summary"]]
        assert len(blockwise) == BLOCKWISE_KERNELS[90] and all(c["verdict"] == "verified" for c in blockwise)
        assert {words: sum(1 for c in checks if words in c["summary"]) for words in SM90_RS_CLASSES} == SM90_RS_CLASSES
        assert not [c for c in checks if "mixed or narrow" in c["summary"]]      # every mixed kernel has its class
        sparse = [c for c in checks if c["check"].startswith("cutlass3x_sm90_sptensorop_")]
        assert len(sparse) == SM90_SPARSE_KERNELS and all(c["verdict"] == "verified" for c in sparse)
        assert all("SM90::GMMA::SPARSE::" in c["summary"] and "_e" in c["summary"] for c in sparse)


@needs_generator
def test_the_generators_default_sm100_space_is_proved():
    # the text table (the per-kernel JSON of 12932 kernels' theorems runs to hundreds of megabytes)
    p = subprocess.run([sys.executable, "-m", "verifier", "prescreen-cutlass", "--arch", "100", "--jobs", "2"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    kernels, mapped, paths = SM100_DEFAULT_SPACE["kernels"], SM100_DEFAULT_SPACE["mapped"], SM100_DEFAULT_SPACE["paths"]
    assert (f"prescreen-cutlass --arch 100: {kernels} GEMM kernels, {mapped} mapped to CuTe configurations "
            f"({paths} distinct operand paths proved)") in p.stdout
    assert f"| verified | {SM100_DEFAULT_SPACE['verified']} |" in p.stdout
    assert f"| unsupported (a model is missing) | {SM100_DEFAULT_SPACE['unsupported']} |" in p.stdout
    assert f"| not mapped | {kernels - mapped} |" in p.stdout
    assert "| refuted (a counterexample) | 0 |" in p.stdout and "| internal error | 0 |" in p.stdout
    assert "not mapped, by reason:" not in p.stdout     # blockwise (blockwise.py) and sparse (sm100_sparse.py) too
    unsupported = p.stdout.split("unsupported, by reason:")[1]
    for words in ("an MN-major 4-bit operand", "an MN-major 6-bit operand", "Figures 262-267", ".kind::tf32"):
        assert words in unsupported
    assert "the scale factors of B" not in unsupported      # N = 64 / 192: CUTLASS's remapped SFB, proved


@pytest.mark.parametrize("args", [["--arch", "70"], ["--arch", "90", "--level", "abc"],
                                  ["--arch", "90", "--jobs", "0"], ["--arch", "100", "--level", "1"]])
def test_bad_arguments_are_bad_input(args):
    p = subprocess.run([sys.executable, "-m", "verifier", "prescreen-cutlass", *args], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.strip().splitlines()[-1].count("error") == 1


def test_a_verified_kernel_reports_its_theorems_without_repeating_the_paths_obligations():
    """Thousands of kernels share a few operand paths: a verified path is reported by each theorem's status (in a
    refuted kernel too), a refuted one with its obligations and counterexample."""
    from verifier.prescreen.run import kernel_result
    from verifier.specfile import load_spec
    from verifier.engine.runner import run_check
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    good_spec = load_spec(ROOT / "specs" / "sm80_f16.yaml")
    good = run_check(good_spec, next(iter(good_spec.checks.values())))
    bad = run_check(spec, spec.checks["wrong_descriptor_base_offset"])
    verified = kernel_result(SM90_F16, "paths.yaml", [good], "how")
    assert verified.verdict.value == "verified" and verified.theorems
    assert all(t.items == [] for t in verified.theorems) and good.theorems[0].items
    refuted = kernel_result(SM90_F16, "paths.yaml", [good, bad], "how")
    assert refuted.verdict.value == "refuted" and any(t.items for t in refuted.theorems)
    assert [t.items for t in refuted.theorems[:len(good.theorems)]] == [[]] * len(good.theorems)
    assert [t.items for t in refuted.theorems[len(good.theorems):]] == [t.items for t in bad.theorems]


def test_a_worker_sends_a_verified_checks_theorems_without_their_obligations():
    """prove_in_parallel(brief=True), prescreen's: a verified result without its obligations, any other whole."""
    from verifier.engine.proving import brief_result
    from verifier.specfile import load_spec
    from verifier.engine.runner import run_check
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    good_spec = load_spec(ROOT / "specs" / "sm80_f16.yaml")
    good = run_check(good_spec, next(iter(good_spec.checks.values())))
    bad = run_check(spec, spec.checks["wrong_descriptor_base_offset"])
    brief = brief_result(good)
    assert [(t.id, t.status) for t in brief.theorems] == [(t.id, t.status) for t in good.theorems]
    assert all(t.items == [] for t in brief.theorems) and any(t.items for t in good.theorems)
    assert brief_result(bad) is bad


def test_a_rule_that_writes_a_layout_cute_refuses_is_an_internal_error_in_one_line(monkeypatch, capsys):
    """The rules are the tool's: a check they write that the loader refuses (here a non-injective atom, which
    CuTe's tile_to_shape rejects) is exit 4 with the rule named, not bad input blamed on a generated file."""
    from verifier.commands.prescreen_cutlass import main as prescreen_main
    wrong = replace(builders.F64_FAMILY, k_atoms=((16, "Sw<2,0,4>", "(4,16):(1,2)"),))
    monkeypatch.setitem(builders.SM80_FAMILIES, ("f64", "f64", (8, 8, 4)), wrong)
    monkeypatch.setattr(command, "kernels", lambda arch, level: [SM80_F64])
    assert prescreen_main(["--arch", "80"]) == 4
    err = capsys.readouterr().err
    assert err.startswith("internal error: a prescreen rule") and "Non-injective" in err and err.count("\n") == 1


def test_the_text_report_says_the_paths_specs_are_gone_unless_kept(monkeypatch, capsys, tmp_path):
    """The locations a refuted kernel's report shows are in the operand paths' specs: without --spec-out they lie in
    a temporary directory removed after the run, and the report says so (and how to keep them)."""
    import verifier.commands.prescreen_cutlass as prescreen_command
    from verifier.engine.runner import run_check
    from verifier.prescreen.run import kernel_result
    from verifier.specfile import load_spec
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    # a path as prescreen-cutlass writes it: expected to pass
    path = replace(run_check(spec, spec.checks["wrong_descriptor_base_offset"]), expect=Expect.PASS)
    refuted = kernel_result(SM90_F16, "paths.yaml", [path], "how")
    monkeypatch.setattr(prescreen_command, "run", lambda arch, level, jobs, spec_out: ([refuted], 1, (1, 1), 0.0))
    assert prescreen_command.main(["--arch", "90"]) == 1
    assert "written to a temporary directory removed after the run: --spec-out DIR keeps them" in \
        capsys.readouterr().out
    assert prescreen_command.main(["--arch", "90", "--spec-out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "REFUTED" in out and "temporary directory" not in out


def test_the_text_report_shows_each_failing_operand_path_once_and_counts_the_rest_by_their_unit(monkeypatch,
                                                                                               capsys):
    """The text report lists the operand paths not verified, each failure once with the kernels (families) made of
    it counted and named -- not the same failure for each of them -- and past the first 25 paths says how many more
    there are (it said "every familie" once)."""
    import verifier.commands.prescreen_cutlass as prescreen_command
    import verifier.prescreen.family_run as family_run
    from verifier.engine.runner import run_check
    from verifier.prescreen.run import SHOWN_NOT_VERIFIED, kernel_result
    from verifier.specfile import load_spec
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    bad = replace(run_check(spec, spec.checks["wrong_descriptor_base_offset"]), expect=Expect.PASS)   # as written
    # 28 kernels failing at one path: the path's failure once, the kernels counted and the first three named
    shared = [kernel_result(replace(SM90_F16, name=f"k{i:02d}"), "paths.yaml", [bad], "how")
              for i in range(SHOWN_NOT_VERIFIED + 3)]
    monkeypatch.setattr(prescreen_command, "run", lambda arch, level, jobs, spec_out: (shared, 1, (1, 1), 0.0))
    assert prescreen_command.main(["--arch", "90"]) == 1
    out = capsys.readouterr().out
    assert out.count("REFUTED (gmma.descriptor, gmma.end_to_end)") == 1 and "more operand paths" not in out
    assert f"operand path of {SHOWN_NOT_VERIFIED + 3} kernels not verified: k00, k01, k02 and " \
           f"{SHOWN_NOT_VERIFIED} more" in out
    # 28 paths, a kernel each: the first 25 paths, then how many more
    own = [kernel_result(replace(SM90_F16, name=f"k{i:02d}"), "paths.yaml", [replace(bad, name=f"path_{i:02d}")], "how")
           for i in range(SHOWN_NOT_VERIFIED + 3)]
    monkeypatch.setattr(prescreen_command, "run", lambda arch, level, jobs, spec_out: (own, 1, (1, 1), 0.0))
    assert prescreen_command.main(["--arch", "90"]) == 1
    out = capsys.readouterr().out
    assert out.count("REFUTED (gmma.descriptor, gmma.end_to_end)") == SHOWN_NOT_VERIFIED
    assert "... and 3 more operand paths not verified (--format json lists every kernel and its paths)" in out
    # families: counted by family and by kernel
    found = family_run.FamilyRun(shared, [4] * len(shared), 1, 0, 0.0)
    monkeypatch.setattr(family_run, "run_families", lambda arch, level, jobs, spec_out: found)
    assert prescreen_command.main(["--arch", "90", "--level", "9999"]) == 1
    out = capsys.readouterr().out
    assert f"operand path of {SHOWN_NOT_VERIFIED + 3} families ({4 * (SHOWN_NOT_VERIFIED + 3)} kernels) not " \
           "verified" in out
    found = family_run.FamilyRun(own, [1] * len(own), 1, 0, 0.0)
    monkeypatch.setattr(family_run, "run_families", lambda arch, level, jobs, spec_out: found)
    assert prescreen_command.main(["--arch", "90", "--level", "9999"]) == 1
    assert "... and 3 more operand paths not verified (--format json lists every family and its paths)" in \
        capsys.readouterr().out
