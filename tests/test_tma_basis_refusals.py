"""make_tma_copy's construct_tma_gbasis refuses, at compile time, a shared stage whose first run of elements steps no
global mode by one element ("Could not find a common tile-gmem vectorization ..."); a stage that starts with a run of
another global mode compiles and fails the host's run-time check instead.  verifier/cute/tma_basis.py tells the two
apart, and the kinds that build a TMA copy from a stage (the sparse metadata, the value-shuffled A, the mixed-input
scales) refuse the first and refute the second.

tests/data/cute_tma_basis_refusals.txt is what nvcc said of each case of tools/cute_dump/tma_basis_refusals.cu
(CuTe 4.2's headers): "compiles", or the first static_assert it reported."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.cute.tma_basis import TmaBasis, TmaRefused, construct_tma_gbasis

CUTE_SAID = Path(__file__).parent / "data" / "cute_tma_basis_refusals.txt"
LINE = re.compile(r'^(?P<name>\w+) (?:(?P<compiles>compiles)|refused: static assertion failed with "(?P<rule>.+)")$')
BLK_M, BLK_K, SCALE_BITS = 128, 1, 16       # the cases' CTA tile (BLK_M, 1) of half_t scales
M_MAJOR = "(256,4):(1,256)"                 # the global scales   // (m, k) -> element
# the cases nvcc was given, by name: (global tensor, one shared stage   // (m, k) -> slot)
CASES = {"scale_rows_in_order": (M_MAJOR, "(128,1):(1,0)"),
         "scale_rows_exchanged": (M_MAJOR, "((8,16),1):((16,1),0)"),
         "scale_k_major_global": ("(256,4):(4,1)", "(128,1):(1,0)"),
         "scale_every_other_slot": (M_MAJOR, "(128,1):(2,0)")}


def _cute_said() -> dict[str, str | None]:
    """Case name -> CuTe's static_assert (None: it compiles)."""
    said: dict[str, str | None] = {}
    for line in CUTE_SAID.read_text().splitlines():
        m = LINE.match(line)
        assert m is not None, line
        said[m["name"]] = m["rule"]
    return said


SAID = _cute_said()


def test_the_data_names_every_case_once():
    assert sorted(SAID) == sorted(CASES)
    assert any(rule is None for rule in SAID.values()) and any(rule is not None for rule in SAID.values())


@pytest.mark.parametrize("name", sorted(CASES))
def test_construct_tma_gbasis_refuses_what_cute_refuses(name: str):
    gmem, stage = CASES[name]
    found = construct_tma_gbasis(parse_layout(gmem), BLK_M, BLK_K, parse_layout(stage), SCALE_BITS, SCALE_BITS)
    if SAID[name] is None:       # compiles: a box, or (scale_k_major_global) the run-time check's reason
        assert not isinstance(found, TmaRefused), found
    else:
        assert isinstance(found, TmaRefused) and found.rule == SAID[name]


def test_the_control_gets_the_box_of_its_stage():
    gmem, stage = CASES["scale_rows_in_order"]
    found = construct_tma_gbasis(parse_layout(gmem), BLK_M, BLK_K, parse_layout(stage), SCALE_BITS, SCALE_BITS)
    assert isinstance(found, TmaBasis) and found.box == (128, 1) and found.global_strides == (2, 512)
