"""Theorem 17 (`smem.bank_conflicts`) agrees with the bank model run on every warp instruction, `banks: report`
prints the counts as information, and the spec key is checked."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.outcome import Status, Verdict
from verifier.specfile import SpecError, load_spec
from verifier.kinds.tiled.banks import bank_counts
from verifier.theorems.catalog import TheoremId
from verifier.kinds.tiled.chain import OperandChain
from verifier.engine.runner import run_check
from verifier.kinds.tiled.setup import build_tiled

ROOT = Path(__file__).parent.parent
T = TheoremId
CATALOGS = ["sm80_f16", "sm80_tf32", "sm80_int8"]


def _cases():
    for name in CATALOGS:
        spec = load_spec(ROOT / "specs" / "catalog" / f"{name}.yaml")
        for check in spec.checks.values():
            if check.kind == "tiled" and check.name.startswith(("cutlass", "ldsm_", "warps4", "tutorial")):
                yield pytest.param(spec, check, id=f"{name}/{check.name}")


@pytest.mark.parametrize("spec,check", list(_cases()))
def test_theorem_agrees_with_the_model_on_every_instruction(spec, check):
    proof = run_check(spec, dataclasses.replace(check, banks="conflict_free"), only={T.SMEM_BANK_CONFLICTS})
    status = proof.theorems[0].status
    setup = build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy])
    found = bank_counts(setup, OperandChain(setup), base=0x2390)     # a base off the 128-byte rows: the same counts
    if status is Status.UNSUPPORTED:
        assert isinstance(found, str)
        return
    _, counts = found
    assert (status is Status.PROVED) == all(c == i for c, i in counts), (status, counts)


def test_the_unswizzled_tile_names_its_lanes():
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    r = run_check(spec, spec.checks["ldsm_unswizzled_kmajor_64x64_bank_conflicts"])
    assert r.verdict is Verdict.REFUTED
    t = next(t for t in r.theorems if t.id is T.SMEM_BANK_CONFLICTS)
    assert [x.id for x in r.theorems if x.status is not Status.PROVED] == [T.SMEM_BANK_CONFLICTS]
    w = t.first_failure().witness
    assert w.smallest and w.values["lane"] == 0 and w.values["lane2"] == 1
    assert w.values["bank"] == w.values["bank2"] == 0 and (w.values["word"], w.values["word2"]) == (0, 32)


def test_report_prints_counts_as_information(capsys):
    code = main(["prove", "specs/catalog/sm80_tf32.yaml", "--check", "cutlass_sm80_tf32_a_mnmajor_sw323_128x32",
                 "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    check = data["checks"][0]
    assert code == 0 and check["verdict"] == "verified"
    assert check["info"] == ["banks: ld.shared.b32, 256 warp instructions at base 0x0: 256 x 2 wavefronts (ideal 1)"]
    main(["prove", "specs/catalog/sm80_tf32.yaml", "--check", "cutlass_sm80_tf32_a_mnmajor_sw323_128x32"])
    assert "      banks: ld.shared.b32" in capsys.readouterr().out


SPEC = """version: 2
name: b
include: [{root}/specs/atoms/sm75.yaml, {root}/specs/atoms/sm80_f16.yaml]
checks:
  c:
    mma: SM80_16x8x16_F16F16F16F16_TN
    operand: A
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "(16,16):(16,1)"
    banks: conflict_free
"""


@pytest.mark.parametrize("edit,message", [
    (("banks: conflict_free", "banks: none"), ":11:12: 'banks' of check 'c' must be one of conflict_free | report"),
    (("version: 2", "version: 1"), ":11:5: 'banks' of check 'c' is a version 2 key"),
    (("    copy: SM75_U32x4_LDSM_N\n    value_type: half_t\n    smem: \"(16,16):(16,1)\"\n", ""),
     "'banks' of check 'c' is only used by checks that name both 'mma' and 'copy'"),
])
def test_the_banks_key_is_checked(tmp_path, edit, message):
    p = tmp_path / "b.yaml"
    p.write_text(SPEC.replace("{root}", str(ROOT)).replace(*edit))
    with pytest.raises(SpecError) as info:
        load_spec(p, allow_outside=True)
    assert message in str(info.value), str(info.value)
