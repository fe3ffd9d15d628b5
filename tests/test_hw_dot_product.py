"""dp4a / dp2a (verifier/hardware/dot_product.py) against the H200 (tests/data/hw/dot_product.json.gz, written by
tools/gpu/capture_dot_product.cu), and CuTe's SM61 atoms against the model: SM61_DP4A verified; SM61_DP2A refuted —
its Op's `dp2a.s32.s32` names no .lo / .hi, which ptxas rejects, and its B elements are bytes, not int16_t."""
from pathlib import Path

import pytest

from hw_tables import tables
from verifier.hardware.dot_product import evaluate
from verifier.hardware.registry import mma_instruction_model, mma_instruction_types
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.theorems.catalog import TheoremId
from verifier.engine.runner import run_check

TABLE = tables("dot_product")
ROOT = Path(__file__).parent.parent


def test_the_table_carries_its_provenance():
    meta = TABLE["meta"]
    assert meta["gpu"].startswith("NVIDIA") and meta["driver"] and meta["date"] and not meta["fake"]
    assert len(TABLE["cases"]) == 72


@pytest.mark.parametrize("case", TABLE["cases"], ids=lambda c: f"{c['instruction']}:{c['a']:#x}")
def test_the_model_computes_what_the_gpu_computed(case):
    assert evaluate(case["instruction"], case["a"], case["b"], case["c"]) == case["d"]


def test_dp2a_without_lo_or_hi_is_no_instruction_as_ptxas_says():
    assert "'.hi/.lo' modifier required" in TABLE["refused"][0]["ptxas"]
    model = mma_instruction_model("dp2a.s32.s32")
    assert model is not None and model.invalid and model.invalid_in == "instruction"
    assert not mma_instruction_model("dp2a.lo.s32.u32").invalid
    assert mma_instruction_types("dp2a.hi.s32.u32") == {"a": "s16", "b": "u8", "c": "s32", "d": "s32"}
    assert mma_instruction_types("dp4a.u32.s32") == {"a": "u8", "b": "s8", "c": "s32", "d": "s32"}
    assert mma_instruction_types("dp2a.s32.lo.u32") is None      # .lo / .hi come first, as the model reads them


def test_cutes_sm61_atoms_against_the_model(tmp_path):
    f = tmp_path / "sm61.yaml"
    f.write_text(f"""version: 1
name: sm61
include: ["{(ROOT / 'specs' / 'atoms' / 'sm61.yaml').as_posix()}"]
checks:
  dp4a: {{mma: SM61_DP4A}}
  dp2a: {{mma: SM61_DP2A}}
""")
    spec = load_spec(f, allow_outside=True)
    assert run_check(spec, spec.checks["dp4a"]).verdict is Verdict.VERIFIED
    r = run_check(spec, spec.checks["dp2a"])
    assert r.verdict is Verdict.REFUTED
    st = {t.id: t.status for t in r.theorems}
    assert st[TheoremId.MMA_MATCHES_INSTRUCTION] is Status.REFUTED and st[TheoremId.MMA_TYPES] is Status.REFUTED
