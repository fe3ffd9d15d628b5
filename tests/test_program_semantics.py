"""Verdicts about what the program computes (tests/specs/program_semantics.yaml): who writes each element of C,
the width of what a copy moves, a copy judged by the partitions it produces, and an MMA atom judged by what it
computes (C += A·B up to one renaming of m, n, k).  Every decision is cross-checked by the other procedure."""
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.outcome import Status, Verdict
from verifier.specfile import SpecError, load_spec
from verifier.symbolic.decide import Procedure, Settings
from verifier.theorems.catalog import THEOREMS, TheoremId
from verifier.engine.runner import run_check

SPECS = Path(__file__).parent / "specs"
CASES = load_spec(SPECS / "program_semantics.yaml", allow_outside=True)
CROSS = Settings(cross_check=True)
T = TheoremId


@lru_cache(maxsize=None)
def result(name):
    return run_check(CASES, CASES.checks[name], CROSS)


def theorem(name, tid):
    return next(t for t in result(name).theorems if t.id is tid)


def refuted_by(name):
    return {t.id for t in result(name).theorems if t.status is Status.REFUTED}


@pytest.mark.parametrize("name", [n for n, c in CASES.checks.items()])
def test_every_case_gets_its_documented_verdict(name):
    r = result(name)
    want = Verdict.REFUTED if CASES.checks[name].expect == "fail" else Verdict.VERIFIED
    assert r.verdict is want, [(t.id.value, t.status.value, t.reason) for t in r.theorems]


# --- C-store ownership (theorem 18) ----------------------------------------------------------------------------

def test_a_k_split_c_store_is_refuted_with_its_two_writers():
    assert refuted_by("ksplit_c_store") == {T.C_OWNERSHIP}
    item = theorem("ksplit_c_store", T.C_OWNERSHIP).first_failure()
    w = item.witness
    # thread 0 of K slice 0 and thread 32 of K slice 1 both store C(0, 0)
    assert (w.point["thread"], w.point["thread2"]) == (0, 32)
    assert w.values["row"] == 0 and w.values["col"] == 0
    assert (w.values["K slice"], w.values["K slice2"]) == (0, 1)
    assert "reduction" in item.note and "reduction: K" in w.suspect.what
    assert w.suspect.loc.line == CASES.checks["ksplit_c_store"].field_locs["atom_layout"].line


def test_a_declared_k_reduction_is_proved_per_k_slice():
    tr = theorem("ksplit_c_store_reduced", T.C_OWNERSHIP)
    assert tr.status is Status.PROVED
    assert any("per K slice" in i.title for i in tr.items)


def test_a_reduction_needs_operand_c(tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text(
        "version: 2\nname: x\ninclude: [" + str(SPECS.parent.parent / "specs/atoms/sm80_f16.yaml") + ", "
        + str(SPECS.parent.parent / "specs/atoms/sm75.yaml") + "]\nchecks:\n  c:\n"
        "    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n    copy: SM75_U32x4_LDSM_N\n"
        "    value_type: half_t\n    smem: \"(16,16):(16,1)\"\n    reduction: K\n")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert e.value.loc is not None and e.value.loc.line == 11 and "operand C" in e.value.message


def test_overlapping_c_columns_are_refuted_by_ownership_too():
    assert refuted_by("c_columns_overlap") == {T.SMEM_INJECTIVE, T.C_OWNERSHIP}
    w = theorem("c_columns_overlap", T.C_OWNERSHIP).first_failure().witness
    assert w.actual == w.expected        # two coordinates, one offset


def test_stores_run_the_ownership_theorem_and_loads_do_not():
    tiled_c_store = tuple(t.id for t in THEOREMS if t.number <= 12) + (TheoremId.C_OWNERSHIP,)
    for name in ("c_store_stsm", "c_store_stsm_x4", "half_store_of_float_accumulators"):
        assert [t.id for t in result(name).theorems] == sorted(tiled_c_store, key=lambda t: _number(t)), name
    assert T.C_OWNERSHIP not in {t.id for t in result("copy_mma_same_partitions").theorems}


def _number(tid):
    from verifier.theorems.catalog import BY_ID
    return BY_ID[tid].number


# --- operand types (theorem 12) ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, operand, covered", [("float_on_half_c", "C", "elements 0..1"),
                                                     ("float_on_half_a", "A", "elements 0..1")])
def test_a_value_type_wider_than_the_fragment_is_refuted_with_the_slice(name, operand, covered):
    assert refuted_by(name) == {T.COPY_VALUE_TYPE}
    item = theorem(name, T.COPY_VALUE_TYPE).first_failure()
    assert item.subject == operand
    assert covered in item.witness.actual and "overlap" in item.witness.actual
    assert item.witness.point == {"value": 0}


def test_a_converted_c_tile_declares_its_type():
    assert theorem("half_store_of_float_accumulators", T.COPY_VALUE_TYPE).status is Status.PROVED
    item = theorem("half_store_of_float_accumulators_undeclared", T.COPY_VALUE_TYPE).first_failure()
    assert "16 of" not in item.witness.actual and "never copied" in item.witness.actual
    assert "smem_type: half_t" in item.witness.suspect.what


# --- copy_mma by its partitions (theorem 4) ----------------------------------------------------------------

def test_a_copy_built_from_another_permutation_with_the_same_partitions_is_verified():
    tr = theorem("copy_mma_same_partitions", T.COPY_DST_MATCHES_MMA)
    assert tr.status is Status.PROVED
    assert any("whole shared tile" in i.note for i in tr.items)
    assert theorem("copy_mma_without_permutation", T.COPY_DST_MATCHES_MMA).status is Status.PROVED


def test_no_permutation_is_expressible_in_copy_mma():
    cm = CASES.checks["copy_mma_without_permutation"].copy_mma
    assert cm is not None and cm.permutation is None and cm.permutation_given
    same = CASES.checks["copy_mma_same_partitions"].copy_mma
    assert same is not None and same.permutation == (16, 16, 16)


def test_a_copy_built_from_other_partitions_is_refuted():
    assert T.COPY_DST_MATCHES_MMA in refuted_by("copy_mma_other_partitions")
    assert T.END_TO_END in refuted_by("copy_mma_other_partitions")


# --- semantic MMA equivalence (theorem 2) ------------------------------------------------------------------

@pytest.mark.parametrize("name, axis", [("renamed_k_atom", "k"), ("renamed_m_atom", "m")])
def test_a_consistent_renaming_is_verified_with_a_note(name, axis):
    r = result(name)
    tr = theorem(name, T.MMA_MATCHES_INSTRUCTION)
    assert tr.status is Status.PROVED
    assert all(i.procedure is Procedure.EVALUATION for i in tr.items)
    assert any(f"renaming of {axis} (" in line and "C += A·B" in line for line in r.info)


def test_the_exact_atom_has_no_renaming_note():
    assert not result("c_store_stsm").info


def test_a_renamed_atom_is_judged_end_to_end_in_its_own_coordinates():
    # a per-element copy delivers what CuTe's layout asks for: with the renaming proved, that is what the
    # instruction consumes, so the configuration is verified
    assert theorem("renamed_k_tiled_a", T.END_TO_END).status is Status.PROVED
    # ldmatrix delivers 8 contiguous k: under the renamed k the fragment asks for k=8 next to k=0
    assert {T.COPY_ADDRESSING, T.END_TO_END} <= refuted_by("renamed_k_tiled_b")


def test_an_inconsistent_renaming_is_refuted_with_the_slot_pair():
    assert refuted_by("renamed_k_in_a_only") == {T.MMA_MATCHES_INSTRUCTION}
    tr = theorem("renamed_k_in_a_only", T.MMA_MATCHES_INSTRUCTION)
    # first the instruction's own counterexample (lane, value, CuTe's and the PTX ISA's coordinate), noting that no
    # renaming explains it; then the slot pair that rules every renaming out
    first = tr.first_failure()
    assert "CuTe's layout equals" in first.title and "no renaming" in first.note and first.witness.point
    item = next(i for i in tr.items if "up to one renaming" in i.title)
    assert item.status is Status.REFUTED
    w = item.witness
    assert "A thread 0 value 1" in w.actual and "B thread 0 value 1" in w.actual
    assert "k=1 is renamed k=8 in one slot and k=1 in the other" in w.actual
    assert w.point == {"thread": 0, "value": 1, "thread2": 0, "value2": 1}
    assert "ALayout" in w.suspect.what and "A and B rename k differently" in w.suspect.what


# --- atom fields the configuration never reads -------------------------------------------------------------

def test_a_wrong_layout_the_configuration_never_reads_is_a_finding_not_its_verdict():
    r = result("unread_wrong_dst_layout")
    assert r.verdict is Verdict.VERIFIED
    assert [t.id for t in r.findings] == [T.COPY_ROUTING] and r.findings[0].status is Status.REFUTED
    assert T.COPY_ROUTING not in {t.id for t in r.theorems}
    assert any("never reads DstLayout" in line for line in r.info)
    # the atom's own check refutes the same layout; read through `ref: dst`, it refutes the configuration
    assert refuted_by("unread_wrong_dst_layout_atom") == {T.COPY_ROUTING}
    assert {T.COPY_ROUTING, T.COPY_SRC_MATCHES_DST, T.END_TO_END} <= refuted_by("read_wrong_dst_layout")
    assert not result("read_wrong_dst_layout").findings


def test_findings_reach_every_report_format(tmp_path):
    import json
    import subprocess
    import sys
    root = Path(__file__).parent.parent
    spec = str(SPECS / "program_semantics.yaml")

    def run(*fmt):
        p = subprocess.run([sys.executable, "-m", "verifier", "prove", spec, "--allow-outside", "--no-cache",
                            "--check", "unread_wrong_dst_layout", *fmt], capture_output=True, text=True, cwd=root)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
        return p.stdout

    check = json.loads(run("--format", "json"))["checks"][0]
    assert check["verdict"] == "verified" and [f["theorem"] for f in check["findings"]] == ["copy.routing"]
    sarif = json.loads(run("--format", "sarif"))["runs"][0]
    found = [x for x in sarif["results"] if x["ruleId"] == "finding.unread_atom_field"]
    assert len(found) == 1 and found[0]["level"] == "warning"
    assert sarif["tool"]["driver"]["rules"][found[0]["ruleIndex"]]["id"] == "finding.unread_atom_field"
    assert "finding (a warning" in run()
    assert "finding (a warning, not the verdict)" in run("--format", "markdown")
