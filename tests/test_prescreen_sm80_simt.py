"""`prescreen-cutlass --arch 80`'s SIMT kernels (prescreen/sm80_simt.py): judged by CUTLASS 3's SIMT configuration
(UniversalFMA on 16x16x1 threads over 128x128x8, DefaultCopy from the SIMT shared tiles), a tile CUTLASS writes no
configuration for left unmapped with that fact, the other SM80 kinds unmapped with theirs."""
from dataclasses import replace

import pytest

from verifier.outcome import Verdict
from verifier.prescreen import builders
from verifier.prescreen import run as command
from verifier.prescreen.builders import Mapped, Unmapped, map_sm80
from verifier.prescreen.sm80_simt import SIMT_SMEM_ATOMS, universal_fma
from verifier.prescreen.space import KernelConfig

DGEMM_NT = KernelConfig("dgemm_nt", 80, "Universal", "Simt", (128, 128, 8), (4, 2, 1), (1, 1, 1), "f64", "f64",
                        "f64", "ColumnMajor", "RowMajor", 1, 1, "", 3)
CGEMM_TN = replace(DGEMM_NT, name="cgemm_tn", element_a="f32", element_b="f32", element_acc="f32",
                   layout_a="RowMajor", layout_b="ColumnMajor", complex_operands=True)
SGEMM_256 = replace(DGEMM_NT, name="sgemm_256", tile=(256, 128, 8), element_a="f32", element_b="f32",
                    element_acc="f32")


def test_a_simt_kernel_maps_to_cutlass_3s_simt_configuration():
    mapped = map_sm80(DGEMM_NT)
    assert isinstance(mapped, Mapped)
    a, b = mapped.checks
    assert a.mma.name == b.mma.name == universal_fma("double")
    assert (a.copy, a.value_type, a.atom_layout) == ("DefaultCopy", "double", (16, 16, 1))
    # NT: A column-major (M-major), B row-major (N-major): both the unpadded M/N-major atom
    assert a.smem == b.smem == SIMT_SMEM_ATOMS["MN"]
    tn = map_sm80(CGEMM_TN)
    assert isinstance(tn, Mapped)
    assert {c.smem for c in tn.checks} == {SIMT_SMEM_ATOMS["K"]}          # TN: both K-major, padded by 4
    assert {c.value_type for c in tn.checks} == {"complex<float>"}


@pytest.mark.parametrize("kc, words", [
    (SGEMM_256, "for the 128x128x8 tile only"),
    (replace(DGEMM_NT, element_b="f32"), "no CuTe SIMT configuration for these types"),
    (replace(DGEMM_NT, kind="PlanarComplex", opcode="TensorOp"), "no CuTe configuration for planar complex"),
    (replace(DGEMM_NT, kind="Sparse", opcode="TensorOp"), "mma.sp"),
])
def test_what_cutlass_writes_no_configuration_for_is_unmapped_with_the_fact(kc, words):
    found = map_sm80(kc)
    assert isinstance(found, Unmapped) and words in found.reason, found


def test_simt_kernels_are_proved_and_a_wrong_simt_rule_is_refuted(monkeypatch):
    monkeypatch.setattr(command, "kernels", lambda arch, level: [DGEMM_NT, CGEMM_TN])
    results, mapped, _, _ = command.run(80, "", 1, None)
    assert mapped == 2 and {r.verdict for r in results} == {Verdict.VERIFIED}
    # rows of the K-major tile 64 elements apart: two elements of a column share a shared address
    from verifier.prescreen import sm80_simt
    monkeypatch.setitem(sm80_simt.SIMT_SMEM_ATOMS, "K", "(128,8):(1,64)")
    results, _, _, _ = command.run(80, "", 1, None)
    verdicts = {r.name: r.verdict for r in results}
    assert verdicts == {"dgemm_nt": Verdict.VERIFIED, "cgemm_tn": Verdict.REFUTED}
    assert builders.SM80_NO_CONFIGURATION      # the other SM80 kinds are named with their fact
