"""UniversalFMA<D, A, B, C> (hardware/scalar_fma.py): one thread's d = a * b + c as a 1x1x1 MMA, and the SIMT
mainloops built from it (CUTLASS 3's SIMT configuration: 16x16x1 threads, DefaultCopy from shared memory)."""
import textwrap
from pathlib import Path

import pytest

from verifier.engine.proving import prove_check
from verifier.hardware import scalar_fma as F
from verifier.hardware.registry import mma_instruction_model, mma_instruction_types
from verifier.outcome import Verdict
from verifier.specfile import load_spec
from verifier.symbolic.procedure import Settings

ROOT = Path(__file__).parent.parent
GENERIC = (ROOT / "specs" / "atoms" / "generic.yaml").as_posix()


def test_the_template_is_read_with_cute_defaults():
    assert F.parse_form("UniversalFMA<double,double,double,double>") == F.ScalarFmaForm(*["double"] * 4)
    assert F.parse_form("cute::UniversalFMA<float>") == F.ScalarFmaForm(*["float"] * 4)     # A = B = C = D
    assert F.parse_form("UniversalFMA<int32_t,int8_t,int8_t,int32_t>") == F.ScalarFmaForm(
        "int32_t", "int8_t", "int8_t", "int32_t")
    assert F.parse_form("UniversalFMA<complex<float>,complex<float>>").a == "complex<float>"
    assert F.parse_form("UniversalFMA<not_a_type>") is None
    assert F.parse_form("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") is None


def test_the_model_is_one_thread_one_value_each():
    model = mma_instruction_model("UniversalFMA<double,double,double,double>")
    assert model is not None and model.shape_mnk == (1, 1, 1) and model.lanes == 1
    for frag in (model.a, model.b, model.c):
        assert frag.elements == 1 and frag.coords([0], 1) == [[(0, 0)]]
    assert mma_instruction_types("UniversalFMA<int32_t,int8_t,int8_t,int32_t>") == {
        "a": "s8", "b": "s8", "c": "s32", "d": "s32"}
    assert mma_instruction_types("UniversalFMA<complex<float>>")["a"] == "b64"     # no PTX type: its width


def _prove(text: str, check: str, tmp_path: Path):
    path = tmp_path / "fma.yaml"
    path.write_text(textwrap.dedent(text))
    spec = load_spec(path, allow_outside=True)
    return prove_check(spec, spec.checks[check], Settings())


ATOM = """\
    version: 2
    name: fma
    include: ["{generic}"]
    mma_atoms:
      WIDE:
        instruction: "UniversalFMA<double,double,double,double>"
        shape_mnk: [1, 1, 2]
        thr_id: "1:0"
        types: {{a: double, b: double, c: double, d: double}}
        a: "(1,2):(0,1)"
        b: "(1,2):(0,1)"
        c: "(1,1):(0,0)"
      FLOAT_A:
        instruction: "UniversalFMA<double,double,double,double>"
        shape_mnk: [1, 1, 1]
        thr_id: "1:0"
        types: {{a: float, b: double, c: double, d: double}}
        a: "(1,1):(0,0)"
        b: "(1,1):(0,0)"
        c: "(1,1):(0,0)"
    checks:
      double: {{mma: "UniversalFMA<double,double,double,double>"}}
      complex: {{mma: "UniversalFMA<complex<float>,complex<float>,complex<float>,complex<float>>"}}
      wide: {{mma: WIDE}}
      float_a: {{mma: FLOAT_A}}
    """.format(generic=GENERIC)


@pytest.mark.parametrize("check, verdict, failed", [
    ("double", Verdict.VERIFIED, set()), ("complex", Verdict.VERIFIED, set()),
    ("wide", Verdict.REFUTED, {"mma.matches_instruction"}),     # a K of 2 is no scalar multiply-add
    ("float_a", Verdict.REFUTED, {"mma.types"}),                 # traits whose A is not the template's
])
def test_the_atom_library_atoms_are_proved_and_broken_ones_refuted(check, verdict, failed, tmp_path):
    r = _prove(ATOM, check, tmp_path)
    assert r.verdict is verdict
    assert {t.id.value for t in r.failures()} == failed


SIMT = """\
    version: 2
    name: simt
    include: ["{generic}"]
    checks:
      dgemm_a:
        mma: "UniversalFMA<double,double,double,double>"
        atom_layout: [16, 16, 1]
        operand: A
        copy: DefaultCopy
        value_type: double
        smem: "{smem}"
    """


@pytest.mark.parametrize("smem, verdict", [
    ("(128,8):(1,128)", Verdict.VERIFIED),          # DefaultGemm_Simt_OperandA<double, ColumnMajor, 256, 128, 8>
    ("(128,8):(1,132)", Verdict.VERIFIED),          # ... RowMajor: padded by 4
    ("(128,8):(1,64)", Verdict.REFUTED),            # rows overlapping: two elements share a shared address
])
def test_a_simt_mainloop_reads_what_the_fma_threads_multiply(smem, verdict, tmp_path):
    r = _prove(SIMT.format(generic=GENERIC, smem=smem), "dgemm_a", tmp_path)
    assert r.verdict is verdict, [(t.id.value, t.status) for t in r.theorems]
