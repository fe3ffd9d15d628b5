"""Theorem 41 (the transaction kind): each case of tests/specs/transaction_bytes.yaml gets the verdict it documents,
its refutation says how the bytes differ, and the spec keys are validated at their place."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_report import documented_report
from verifier.commands.cli import main
from verifier.outcome import ExitCode
from verifier.specfile import SpecError, load_spec

SPEC = Path(__file__).parent / "specs" / "transaction_bytes.yaml"
REFUTED = {
    "armed_for_a_only": "armed for 8192 bytes -- the phase completes before the tiles have landed",
    "two_cta_leader_armed_for_one": "armed for 24576 bytes -- the phase completes before the tiles have landed",
    "armed_for_more": "armed for 24576 bytes -- the phase never completes",
}


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    return documented_report(SPEC)


@pytest.mark.parametrize("name", ["a_and_b_tiles", "two_cta_leader"])
def test_a_barrier_armed_for_its_loads_is_verified(name: str, report: dict[str, dict[str, object]]):
    assert report[name]["verdict"] == "verified"
    assert "tma.transaction_bytes" in json.dumps(report[name])


@pytest.mark.parametrize("name", sorted(REFUTED))
def test_a_barrier_armed_for_other_bytes_is_refuted(name: str, report: dict[str, dict[str, object]]):
    assert report[name]["verdict"] == "refuted"
    assert REFUTED[name] in json.dumps(report[name])


def test_explain_says_there_is_no_trace(capsys: pytest.CaptureFixture[str]):
    assert main(["explain", str(SPEC), "--check", "a_and_b_tiles"]) == ExitCode.BAD_INPUT
    assert "transaction check" in capsys.readouterr().err


@pytest.mark.parametrize("body, why", [
    ("transaction: {loads: [{bytes: 8, ctas: 1, by: a}]}", "is missing 'armed'"),
    ("transaction: {armed: -1, loads: [{bytes: 8, ctas: 1, by: a}]}", "'armed' of 'transaction'"),
    ("transaction: {armed: 8, loads: []}", "must be a list of 1 to"),
    ("transaction: {armed: 8, loads: [{bytes: 0, ctas: 1, by: a}]}", "'bytes' of load 0"),
    ("transaction: {armed: 8, loads: [{bytes: 8, ctas: 99, by: a}]}", "'ctas' of load 0"),
    ("transaction: {armed: 8, loads: [{bytes: 8, ctas: 1, by: ''}]}", "must be a text naming the load"),
    ("transaction: {armed: 8, loads: [{bytes: 8, ctas: 1}]}", "is missing 'by'"),
    ("transaction: {armed: 8, loads: [{bytes: 8, ctas: 1, by: a}]}\n    copy: SM90_TMA_LOAD\n    value_type: half_t",
     "is not used by transaction checks"),
])
def test_bad_transaction_keys_are_refused_with_their_place(body: str, why: str, tmp_path: Path):
    spec = tmp_path / "t.yaml"
    spec.write_text(f"version: 2\nname: t\nchecks:\n  c:\n    {body}\n", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert why in str(e.value) and str(e.value).startswith(str(spec) + ":"), str(e.value)


@pytest.mark.parametrize("memref, expected", [
    # a 64x64 half tile, two stages: 8 KB a stage
    ('!cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((8,8),(64,1)),(1,2)):(((64,512),(1,0)),(0,4096))">', 8192),
    # a block-scaled kernel's scale-factor tile: 128 rows x 4 of e4m3, each broadcast over 16 positions (stride 0)
    ('!cute.memref<f8E4M3FN, smem, align<128>, "(((32,4),(16,4)),3):(((16,4),(0,1)),512)">', 512),
    # fp4 elements: half a byte each
    ('!cute.memref<f4E2M1FN, smem, align<1024>, "((128,256),4):((256,1),32768)">', 16384),
])
def test_a_loads_tile_counts_the_bytes_tma_writes(memref: str, expected: int):
    from verifier.dsl.transaction_bytes import tile_bytes
    assert tile_bytes(memref) == expected
