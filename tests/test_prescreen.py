"""`prescreen-cutlass`: CUTLASS's generated GEMM kernels mapped to the CuTe configurations their builders build
(the rules on chosen kernels), the whole default spaces of SM80 and SM90 proved, and a wrong configuration in the
space reported per kernel with CuTe's rule."""
import importlib.util
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from verifier.outcome import Verdict
from verifier.prescreen import builders, command
from verifier.prescreen.builders import Mapped, Sm80Family, Unmapped, map_sm80, map_sm90
from verifier.prescreen.space import KernelConfig

ROOT = Path(__file__).parent.parent
HAS_CUTLASS_LIBRARY = importlib.util.find_spec("cutlass_library") is not None
needs_generator = pytest.mark.skipif(not HAS_CUTLASS_LIBRARY, reason="cutlass_library (pip install --no-deps "
                                                                     "nvidia-cutlass) is not installed")
SM90_F16 = KernelConfig("k90", 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1), (0, 0, 0), "f16", "f16",
                        "f32", "RowMajor", "ColumnMajor", 8, 8, "ScheduleAuto", 0)
SM80_F16 = KernelConfig("k80", 80, "Universal", "TensorOp", (128, 128, 32), (2, 2, 1), (16, 8, 16), "f16", "f16",
                        "f32", "RowMajor", "ColumnMajor", 8, 8, "", 3)


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


@pytest.mark.parametrize("change, words", [
    ({"align_a": 2}, "cp.async mainloop"),
    ({"element_a": "tf32", "element_b": "tf32", "layout_a": "ColumnMajor"}, "MN-major 8- or 32-bit operand"),
    ({"element_a": "s4"}, "mixed or narrow inputs"),
    ({"kind": "SparseUniversal3x"}, "sparse GMMA"),
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


def test_a_wrong_configuration_in_the_space_is_reported_per_kernel_with_cutes_rule(monkeypatch, tmp_path):
    # a mapping that pairs the m16n8k8 atom with ldmatrix x4: CuTe refuses the tiled copy
    wrong = Sm80Family("SM80_16x8x8_F32F16F16F32_TN", None, ((32, "Sw<2,3,3>", "(8,32):(32,1)"),),
                       ("Sw<3,3,3>", "(64,8):(1,64)"), "SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T")
    monkeypatch.setitem(builders.SM80_FAMILIES, ("f16", "f32", (16, 8, 8)), wrong)
    k8 = replace(SM80_F16, name="k8", instruction=(16, 8, 8))
    monkeypatch.setattr(command, "kernels", lambda arch, level: [SM80_F16, k8])
    results, mapped, paths, _ = command.run(80, "", 1, tmp_path)
    assert mapped == 2 and paths == 4
    by = {r.name: r for r in results}
    assert by["k80"].verdict is Verdict.VERIFIED
    assert by["k8"].verdict is Verdict.REFUTED
    table = command.summary_table(80, results, mapped, paths, 0.0)
    assert "| refused by CuTe | 1 |" in table and "TiledCopy uses too few vals for selected CopyAtom" in table
    assert (tmp_path / "prescreen_sm80.yaml").is_file()


@needs_generator
@pytest.mark.parametrize("arch", [80, 90])
def test_the_generators_default_space_is_proved(arch, tmp_path):
    report = tmp_path / "kernels.json"
    p = subprocess.run([sys.executable, "-m", "verifier", "prescreen-cutlass", "--arch", str(arch), "--jobs", "2",
                        "--format", "json", "-o", str(report)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    checks = json.loads(report.read_text())["checks"]
    mapped = [c for c in checks if c["expect"] != "unsupported"]
    assert mapped and all(c["verdict"] == "verified" for c in mapped)
    assert all(c["verdict"] == "unsupported" and c["info"][0].startswith("not mapped") for c in checks
               if c["expect"] == "unsupported")
    assert f"prescreen-cutlass --arch {arch}: {len(checks)} GEMM kernels, {len(mapped)} mapped" in p.stdout


@pytest.mark.parametrize("args", [["--arch", "70"], ["--arch", "90", "--level", "abc"],
                                  ["--arch", "90", "--jobs", "0"]])
def test_bad_arguments_are_bad_input(args):
    p = subprocess.run([sys.executable, "-m", "verifier", "prescreen-cutlass", *args], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.strip().splitlines()[-1].count("error") == 1
