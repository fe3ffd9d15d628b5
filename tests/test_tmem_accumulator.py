"""Theorem 36 (hardware/tmem_datapath.py, kinds/tmem/accumulator.py): the TMEM tile is where the tcgen05.mma named
by `accumulator:` writes D.  The data path model (PTX ISA Layouts A-G) is checked against the layouts CuTe's own
tmem_frg_1sm / tmem_frg_2sm / tmem_frg_ws_1sm give (tests/data/cute_tmem_datapath.json, printed by
tools/cute_dump/tmem_datapath.cu); the catalog's placements are proved and TileLang #2644's .ws / non-.ws swap is
refuted both ways at the element that differs."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

from verifier.algebra.syntax import parse_layout
from verifier.engine.runner import run_check
from verifier.hardware.tmem_datapath import Datapath, cell, columns, datapath, parse_accumulator
from verifier.outcome import Status
from verifier.specfile import load_spec
from verifier.specfile.model import SpecError
from verifier.theorems.catalog import TheoremId

ROOT = Path(__file__).parent.parent
CUTE = json.loads((ROOT / "tests" / "data" / "cute_tmem_datapath.json").read_text(encoding="utf-8"))
DP = 1 << 16


def _instruction(case: dict) -> str:
    return f"tcgen05.mma{'.ws' if case['ws'] else ''}.cta_group::{case['ctas']}.kind::f16"


def _cell(layout: Datapath, n: int, r, c):
    lane, column = cell(layout, n, r, c)
    return DP * lane + column


@pytest.mark.parametrize("case", CUTE["cases"], ids=lambda c: f"{c['frg']}_{c['rows']}x{c['n']}x{c['tiles_n']}")
def test_the_model_places_d_where_cutes_tmem_fragment_does(case):
    form = parse_accumulator(_instruction(case), case["rows"] * case["ctas"], case["n"])
    assert not isinstance(form, str)
    layout = datapath(form)
    assert isinstance(layout, Datapath) and form.rows_per_cta == case["rows"]
    cute = parse_layout(case["layout"])        # ((row, column), 1, MMA along N) -> TMEM address
    rows, n = case["rows"], case["n"]
    i = np.arange(rows * n * case["tiles_n"])
    r, c, t = i % rows, (i // rows) % n, i // (rows * n)
    values = np.array(cute.values())           # colex over the domain, as i enumerates it
    bases = values[t * rows * n]               # each MMA's d_tmem: its element (0, 0)
    model = _cell(layout, n, r, c)
    assert np.array_equal(values - bases, model), case["layout"]
    assert columns(layout, n) == 1 + int((model % DP).max())


@pytest.mark.parametrize("instruction, m, n, why", [
    ("tcgen05.mma.ws.cta_group::2.kind::f16", 64, 128, ".cta_group::1 form only"),
    ("tcgen05.mma.ws.cta_group::1.kind::f16", 256, 128, ".ws shapes"),
    ("tcgen05.mma.ws.cta_group::1.kind::f16", 64, 96, ".ws shapes"),
    ("tcgen05.mma.ws.cta_group::1.kind::mxf4", 64, 128, "not .kind::mxf4"),
    ("tcgen05.mma.cta_group::1.kind::f16", 32, 128, "M = 64 or 128"),
    ("tcgen05.mma.cta_group::2.kind::f16", 64, 128, "M = 128 or 256"),
])
def test_forms_the_ptx_isa_does_not_have_are_said(instruction, m, n, why):
    form = parse_accumulator(instruction, m, n)
    assert not isinstance(form, str)
    problem = datapath(form)
    assert isinstance(problem, str) and why in problem


def test_unmodelled_forms_are_not_placed():
    assert "not modelled" in str(parse_accumulator("tcgen05.mma.sp.cta_group::1.kind::f16", 128, 128))
    assert "not a tcgen05.mma" in str(parse_accumulator("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", 64, 128))


@functools.lru_cache(maxsize=None)
def _spec(path: str):
    return load_spec(ROOT / path)


def _result(path: str, name: str):
    spec = _spec(path)
    return run_check(spec, spec.checks[name])


@pytest.mark.parametrize("name", ["accumulator_m128_two_mmas", "accumulator_m64_layout_f",
                                  "accumulator_m128_cta_pair_layout_b", "accumulator_ws_m64_n128",
                                  "accumulator_ws_m32_n256"])
def test_the_catalog_s_placements_are_proved(name):
    result = _result("specs/catalog/sm100_tmem_accumulator.yaml", name)
    placed = next(t for t in result.theorems if t.id is TheoremId.TMEM_ACCUMULATOR)
    assert placed.status is Status.PROVED, placed


@pytest.mark.parametrize("name, tile_lane, instruction_lane", [
    ("tilelang_2644_ws_accumulator_given_layout_f", 32, 16),
    ("tmem_m64_accumulator_given_the_ws_layout", 16, 32)])
def test_the_ws_swap_is_refuted_at_row_16(name, tile_lane, instruction_lane):
    result = _result("specs/mistakes.yaml", name)
    refuted = [t for t in result.theorems if t.status is Status.REFUTED]
    assert [t.id for t in refuted] == [TheoremId.TMEM_ACCUMULATOR]
    witness = refuted[0].first_failure().witness
    shown = dict(witness.values, **witness.point)
    assert shown["row"] == 16 and shown["column"] == 0
    assert shown["lane (tile)"] == tile_lane and shown["lane (instruction)"] == instruction_lane


ACC_SPEC = """version: 2
name: acc
include: ["{atoms}/sm100_tmem.yaml", "{atoms}/sm100_umma.yaml"]
checks:
  a:
    copy: SM100_TMEM_LOAD_32dp32b64x
    value_type: float
    tmem: "(128,64):(65536,1)"
    accumulator: {value}
"""


@pytest.mark.parametrize("value, message", [
    ('{instruction: "tcgen05.mma.cta_group::1.kind::f16", m: 128}', "needs 'n'"),
    ('{instruction: "mma.sync.aligned.m16n8k16", m: 128, n: 64}', "must be a tcgen05.mma instruction"),
    ('{instruction: "tcgen05.mma.cta_group::1.kind::f16", m: 0, n: 64}', "must be a positive size"),
    ('"SM100_MMA_NO_SUCH_ATOM"', "unknown MMA atom"),
])
def test_a_bad_accumulator_is_one_line_with_its_place(tmp_path, value, message):
    atoms = tmp_path / "atoms"
    atoms.mkdir()
    for f in ("sm100_tmem.yaml", "sm100_umma.yaml"):
        (atoms / f).write_text((ROOT / "specs" / "atoms" / f).read_text(encoding="utf-8"), encoding="utf-8")
    spec = tmp_path / "acc.yaml"
    spec.write_text(ACC_SPEC.format(atoms="atoms", value=value), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec)
    assert message in e.value.message and e.value.loc is not None and e.value.loc.line >= 9, str(e.value)
