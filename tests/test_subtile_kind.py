"""Theorem 39 (the epilogue-subtile kind): each case of tests/specs/epilogue_subtiles.yaml gets the verdict it
documents and is refuted by the claim that owns its mistake; the spec keys are validated at their place."""
from __future__ import annotations

from pathlib import Path

import pytest

from spec_report import assert_refuted_by, documented_report
from verifier.commands.cli import main
from verifier.outcome import ExitCode
from verifier.specfile import SpecError, load_spec

SPEC = Path(__file__).parent / "specs" / "epilogue_subtiles.yaml"
ATOMS = Path(__file__).resolve().parent.parent / "specs" / "atoms"
# the claim (by its words) each refuted case fails first, and what its witness names
FAILS_ON = {
    "every_subtile_takes_the_first_registers": ("stored by exactly one subtile's store",
                                                "register 0 stored 8 times; register 16 never stored"),
    "subtiles_stored_column_major": ("reaches its own place of the tile",
                                     "subtile 1 (at (64, 0)): thread 0's value 0 writes the subtile's (0, 0) with "
                                     "thread 0's value 0"),
    "two_values_swapped_in_one_subtile": ("reaches its own place of the tile", "register 50: accumulator (8, 96)"),
    "accumulator_of_another_shape": ("the tiled MMA's C fragment of its tile", "(_128,_1,_1):(_1,_0,_0)"),
    "pipeline_one_stage_three_left_reading": ("no subtile's copy writes a stage",
                                              "subtile 0's copy writes stage 0 while a TMA store of the block's "
                                              "previous pass may still be reading it"),
    "pipeline_two_stages_two_left_reading": ("no subtile's copy writes a stage",
                                             "subtile 2's copy writes stage 0 while subtile 0's TMA store may still be "
                                             "reading it: after subtile 1's store the kernel waits until at most 2"),
    "pipeline_no_wait": ("no subtile's copy writes a stage", "subtile 4's copy writes stage 0 while subtile 0's TMA "
                                                             "store may still be reading it: no wait orders it"),
    "each_store_reads_the_next_stage": ("every store reads a stage a copy of this tile wrote before it",
                                        "subtile 0's store reads stage 1, which no copy of the 8 subtiles wrote"),
    "each_store_reads_the_previous_subtile": ("stored by exactly one subtile's store",
                                              "register 0 stored 2 times; register 112 never stored; subtile 1's "
                                              "store reads the stage subtile 0's copy wrote"),
    "pipeline_unfenced_store": ("fenced for the async proxy", "subtile 5's store follows its copy with no proxy fence"),
}


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    return documented_report(SPEC)


def test_a_pipeline_whose_waits_free_each_stage_in_time_is_verified(report: dict[str, dict[str, object]]):
    case = report["pipeline_four_stages_three_left_reading"]
    assert case["verdict"] == "verified"
    assert [t["id"] for t in case["theorems"]] == ["epilogue.subtiles", "epilogue.store_pipeline"]   # type: ignore


def test_the_row_major_epilogue_is_verified_by_enumeration(report: dict[str, dict[str, object]]):
    case = report["row_major_subtiles"]
    assert case["verdict"] == "verified"
    [theorem] = case["theorems"]           # type: ignore[misc]
    assert theorem["id"] == "epilogue.subtiles" and theorem["status"] == "proved"


@pytest.mark.parametrize("name", sorted(FAILS_ON))
def test_each_refutation_names_the_claim_and_its_witness(name: str, report: dict[str, dict[str, object]]):
    assert_refuted_by(report[name], *FAILS_ON[name])


def test_explain_says_there_is_no_trace(capsys: pytest.CaptureFixture[str]):
    assert main(["explain", str(SPEC), "--check", "row_major_subtiles"]) == ExitCode.BAD_INPUT
    assert "epilogue-subtile check" in capsys.readouterr().err


_CHECK = """version: 2
name: s
include: [{gmma}, {sm90}]
checks:
  c:
    mma: "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    copy: SM90_U32x4_STSM_N
    value_type: half_t
{tiled_copy}    subtiles: {subtiles}
"""
_TILED_COPY = ('    tiled_copy: {layout_tv: "((4,32),((2,2,2),1)):((64,1),((256,32,512),0))", '
               'tiler: ["(8,4,2):(1,16,8)", "(4,2,2):(2,1,8)"]}\n')
_GOOD = "{accumulator: '((2,2,16),2,1):((1,2,4),64,0)', shape: [64, 32], stores: [{at: [0, 0], registers: [0, 1]}]}"


@pytest.mark.parametrize("tiled_copy, subtiles, why", [
    ("", _GOOD, "needs 'tiled_copy'"),
    (_TILED_COPY, "{shape: [64, 32], stores: [{at: [0, 0], registers: [0]}]}", "is missing 'accumulator'"),
    (_TILED_COPY, _GOOD.replace("'((2,2,16),2,1):((1,2,4),64,0)'", "'(128):(1)'"),
     "must be a plain layout (value, m, n)"),
    (_TILED_COPY, _GOOD.replace("'((2,2,16),2,1):((1,2,4),64,0)'", "'(4096,1,1):(1,0,0)'"),
     "a thread's fragment holds at most 1024"),
    (_TILED_COPY, _GOOD.replace("shape: [64, 32]", "shape: [64]"), "'shape' of 'subtiles'"),
    (_TILED_COPY, _GOOD.replace("stores: [{at: [0, 0], registers: [0, 1]}]", "stores: []"), "must be a list of 1 to"),
    (_TILED_COPY, _GOOD.replace("at: [0, 0]", "at: [0, -1]"), "'at' of store 0"),
    (_TILED_COPY, _GOOD.replace("registers: [0, 1]", "registers: [0, x]"), "'registers' of store 0"),
    (_TILED_COPY, _GOOD.replace("registers: [0, 1]", "registers: [0, 1], stage: 2"), "unknown key 'stage'"),
    (_TILED_COPY, _GOOD[:-1] + ", pipeline: {stages: [0, 1], fenced: [true], pending: [0], pending_at_start: []}}",
     "'stages' of 'pipeline' of 'subtiles'"),
    (_TILED_COPY, _GOOD[:-1] + ", pipeline: {stages: [0], fenced: [1], pending: [0], pending_at_start: []}}",
     "must be a list of true / false"),
    (_TILED_COPY, _GOOD[:-1] + ", pipeline: {stages: [0], fenced: [true], pending: [-1], pending_at_start: []}}",
     "must be a list of counts of stores"),
    (_TILED_COPY, _GOOD[:-1] + ", pipeline: {stages: [0], fenced: [true], pending: [0]}}",
     "is missing 'pending_at_start'"),
    (_TILED_COPY, _GOOD.replace("registers: [0, 1]", "registers: [0, 1], write: 0"), "states 'write' without 'read'"),
    (_TILED_COPY, _GOOD.replace("registers: [0, 1]", "registers: [0, 1], write: 0, read: -1"),
     "'read' of store 0 of 'subtiles'"),
    (_TILED_COPY, _GOOD.replace("stores: [{at: [0, 0], registers: [0, 1]}]",
                                "stores: [{at: [0, 0], registers: [0, 1], write: 0, read: 0}, "
                                "{at: [0, 32], registers: [2, 3]}]"), "every store states its stages or none does"),
    (_TILED_COPY, _GOOD.replace("registers: [0, 1]", "registers: [0, 1], write: 0, read: 1")[:-1] +
     ", pipeline: {stages: [0], fenced: [true], pending: [0], pending_at_start: []}}",
     "must state the stages its stores write ([0]) and read ([1])"),
    (_TILED_COPY, _GOOD[:-1] + ", pipeline: {stages: [0], fenced: [true], pending: [0], pending_at_start: [], "
                               "reads: [0, 1]}}", "'reads' of 'pipeline' of 'subtiles'"),
])
def test_bad_subtile_keys_are_refused_with_their_place(tiled_copy: str, subtiles: str, why: str, tmp_path: Path):
    spec = tmp_path / "s.yaml"
    spec.write_text(_CHECK.format(gmma=ATOMS / "sm90_gmma.yaml", sm90=ATOMS / "sm90.yaml", tiled_copy=tiled_copy,
                                  subtiles=subtiles), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert why in str(e.value) and str(e.value).startswith(str(spec) + ":"), str(e.value)


def test_a_check_of_the_good_keys_loads(tmp_path: Path):
    spec = tmp_path / "s.yaml"
    spec.write_text(_CHECK.format(gmma=ATOMS / "sm90_gmma.yaml", sm90=ATOMS / "sm90.yaml", tiled_copy=_TILED_COPY,
                                  subtiles=_GOOD), encoding="utf-8")
    [check] = list(load_spec(spec, allow_outside=True).checks.values())
    assert check.kind == "subtiles"
