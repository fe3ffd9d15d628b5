"""Theorem 42 (the subtile-order kind): each case of tests/specs/subtile_order.yaml gets the verdict it documents, its
refutation names the subtile and what its store puts where, and the spec keys are validated at their place."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_report import documented_report
from verifier.commands.cli import main
from verifier.outcome import ExitCode
from verifier.specfile import SpecError, load_spec

SPEC = Path(__file__).parent / "specs" / "subtile_order.yaml"
REFUTED = {
    "store_of_the_other_stage": "the store of subtile 0 reads stage 1, which no copy of this pass wrote before it",
    "every_store_at_the_first_place": "the store of subtile 1 puts the subtile loaded at (0, 32) (stage 1, written by "
                                      "the copy of subtile 1) at (0, 0)",
    "every_load_of_the_first_subtile": "no subtile loads at (0, 32)",
    "places_swapped": "the store of subtile 0 puts the subtile loaded at (0, 0) (stage 0, written by the copy of "
                      "subtile 0) at (0, 32)",
}


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    return documented_report(SPEC)


@pytest.mark.parametrize("name", ["two_subtiles", "four_subtiles_one_stage"])
def test_a_loop_whose_stores_put_each_subtile_in_place_is_verified(name: str, report: dict[str, dict[str, object]]):
    assert report[name]["verdict"] == "verified"
    assert "epilogue.subtile_order" in json.dumps(report[name])


@pytest.mark.parametrize("name", sorted(REFUTED))
def test_a_loop_that_stores_a_subtile_elsewhere_is_refuted(name: str, report: dict[str, dict[str, object]]):
    assert report[name]["verdict"] == "refuted"
    assert REFUTED[name] in json.dumps(report[name])


def test_explain_says_there_is_no_trace(capsys: pytest.CaptureFixture[str]):
    assert main(["explain", str(SPEC), "--check", "two_subtiles"]) == ExitCode.BAD_INPUT
    assert "subtile-order check" in capsys.readouterr().err


GOOD = "{tile: [128, 64], subtile: [128, 32], stages: 2, subtiles: [{load: [0, 0], write: 0, read: 0, place: [0, 0]}]}"


@pytest.mark.parametrize("body, why", [
    ("subtile_order: {subtile: [128, 32], stages: 2, subtiles: []}", "is missing 'tile'"),
    ("subtile_order: {tile: [128], subtile: [128, 32], stages: 2, subtiles: []}", "'tile' of 'subtile_order'"),
    ("subtile_order: {tile: [128, 0], subtile: [128, 32], stages: 2, subtiles: []}", "a tile of no element"),
    ("subtile_order: {tile: [128, 64], subtile: [128, 32], stages: 0, subtiles: []}", "'stages' of 'subtile_order'"),
    ("subtile_order: {tile: [128, 64], subtile: [128, 32], stages: 2, subtiles: []}", "must be a list of 1 to"),
    ("subtile_order: {tile: [128, 64], subtile: [128, 32], stages: 2, subtiles: [{load: [0, 0], write: 2, read: 0, "
     "place: [0, 0]}]}", "'write' of subtile 0"),
    ("subtile_order: {tile: [128, 64], subtile: [128, 32], stages: 2, subtiles: [{load: [0, -1], write: 0, read: 0, "
     "place: [0, 0]}]}", "'load' of subtile 0"),
    ("subtile_order: {tile: [128, 64], subtile: [128, 32], stages: 2, subtiles: [{load: [0, 0], write: 0, read: 0}]}",
     "is missing 'place'"),
    (f"subtile_order: {GOOD}\n    copy: SM90_TMA_LOAD\n    value_type: half_t", "is not used by subtile-order checks"),
])
def test_bad_subtile_order_keys_are_refused_with_their_place(body: str, why: str, tmp_path: Path):
    spec = tmp_path / "t.yaml"
    spec.write_text(f"version: 2\nname: t\nchecks:\n  c:\n    {body}\n", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert why in str(e.value) and str(e.value).startswith(str(spec) + ":"), str(e.value)


def test_a_check_of_the_good_keys_loads(tmp_path: Path):
    spec = tmp_path / "t.yaml"
    spec.write_text(f"version: 2\nname: t\nchecks:\n  c:\n    subtile_order: {GOOD}\n", encoding="utf-8")
    check = load_spec(spec, allow_outside=True).checks["c"]
    assert check.summary() == "1 subtiles of 128x32 of a 128x64 accumulator stage through 2 shared stages"
