"""Every theorem proves a correct configuration and refutes a broken one (tests/specs/theorem_cases.yaml),
and the eight theorems agree on every tiled configuration CuTe's oracle records."""
from pathlib import Path

import pytest

from verifier.spec import load_spec
from verifier.theorems.catalog import ALL
from verifier.theorems.runner import run_check

SPECS = Path(__file__).parent / "specs"
CASES = load_spec(SPECS / "theorem_cases.yaml")


def result(name):
    return run_check(CASES, CASES.checks[name])


def status(name):
    return {t.id: t.status for t in result(name).theorems}


# theorem -> (a correct check that proves it, a broken check that refutes it)
PAIRS = {
    "mma.bijective": ("good_mma_atom", "bad_int4_b_pr3140"),
    "mma.matches_instruction": ("good_seed", "bad_mutated_alayout"),
    "copy.routing": ("good_copy_atom", "bad_swapped_n_t"),
    "copy.dst_matches_mma": ("good_seed", "bad_copy_b_for_a"),
    "copy.src_matches_dst": ("good_store_c_stsm", "bad_swapped_n_t"),
    "copy.addressing": ("good_seed", "bad_pitch_40_bytes"),
    "fragment.aliasing": ("good_store_c_stsm", "bad_copy_b_for_a"),
    "end_to_end": ("good_seed", "bad_mutated_alayout"),
}


def test_every_theorem_has_a_pair():
    assert sorted(PAIRS) == sorted(ALL)


@pytest.mark.parametrize("theorem", ALL)
def test_theorem_proves_a_correct_configuration(theorem):
    good, _ = PAIRS[theorem]
    assert status(good)[theorem] == "proved"


@pytest.mark.parametrize("theorem", ALL)
def test_theorem_refutes_a_broken_configuration(theorem):
    _, bad = PAIRS[theorem]
    r = result(bad)
    tr = next(t for t in r.theorems if t.id == theorem)
    assert tr.status == "counterexample"
    v = tr.first_failure()
    assert v.counterexample is not None and v.failing and v.failing > 0
    assert r.verdict == "refuted" and r.ok


def test_good_configurations_are_verified_by_all_their_theorems():
    for name in ("good_seed", "good_store_c_stsm"):
        r = result(name)
        assert [t.id for t in r.theorems] == list(ALL)
        assert r.verdict == "verified", [(t.id, t.status, t.reason) for t in r.theorems]


def test_int4_b_layout_bug_names_an_unreached_offset():
    """CUTLASS's int4 BLayout before PR #3140 (stride 32 where 64 is right) never reaches 96 of 256 B offsets."""
    r = result("bad_int4_b_pr3140")
    tr = next(t for t in r.theorems if t.id == "mma.bijective")
    v = tr.first_failure()
    assert "96 of 256 coordinates are never reached" in v.obligation.note
    assert v.counterexample == {"coordinate": 160} and v.failing == 96


def test_store_pitch_breaks_stmatrix_rows():
    assert status("bad_store_pitch")["copy.addressing"] == "counterexample"


def test_mutated_layout_is_invisible_to_the_copy_theorems():
    """A wrong ALayout propagates into the copy built from it: only the instruction sees the error."""
    st = status("bad_mutated_alayout")
    assert st["mma.matches_instruction"] == "counterexample" and st["end_to_end"] == "counterexample"
    for tid in ("copy.routing", "copy.dst_matches_mma", "copy.src_matches_dst", "copy.addressing",
                "fragment.aliasing"):
        assert st[tid] == "proved"


def test_atom_only_report_blames_the_failing_operand():
    from verifier.report.counterexample import failures
    r = result("bad_mutated_clayout_atom")
    f = next(x for x in failures(r) if x.theorem == "mma.matches_instruction")
    assert "the C layout" in f.suspect
    atom = CASES.mma_atoms["SM80_16x8x16_F16_TN_MUTATED_C"]
    assert f.suspect_loc == atom.field_locs["c"]
