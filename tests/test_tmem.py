"""tcgen05.ld / tcgen05.st (verifier/hardware/tmem_copy.py) against the PTX ISA's fragment figures, and CuTe's
SM100 TMEM copy traits against the model (tests/specs/sm100_tmem.yaml: the 148 atoms of CUTLASS v4.7, every
one verified; tests/specs/sm100_tmem_broken.yaml: written wrongly, every one refuted).

There is no Blackwell GPU on the capture machine: the tables below are read off the PTX ISA's figures
("Matrix fragments for shape .32x32b / .16x64b / .16x128b / .16x256b / .16x32bx2"), not captured.
"""
from functools import lru_cache
from itertools import product
from pathlib import Path

import pytest

from verifier.hardware.registry import copy_model, qualifiers
from verifier.hardware.tmem_copy import TmemForm, TmemShape, lane_quarter, parse_form, register_cell
from verifier.outcome import Status, Verdict
from verifier.spec import load_spec
from verifier.symbolic.expr import Const
from verifier.theorems.catalog import TheoremId
from verifier.theorems.runner import run_check

SPECS = Path(__file__).parent / "specs"

# (shape, lane, register) -> (TMEM lane, column) relative to the instruction's address, read off the figures
PTX_FIGURES = {
    TmemShape.S32x32b: {(0, 0): (0, 0), (5, 0): (5, 0), (31, 1): (31, 1), (7, 3): (7, 3)},
    # .16x64b: lanes 0..3 hold (0,0) (8,0) (0,1) (8,1); lane 4 starts the next TMEM lane
    TmemShape.S16x64b: {(0, 0): (0, 0), (1, 0): (8, 0), (2, 0): (0, 1), (3, 0): (8, 1), (4, 0): (1, 0),
                        (31, 0): (15, 1), (0, 1): (0, 2), (3, 1): (8, 3)},
    # .16x128b: four lanes of a quad cover one TMEM lane's 4 columns; the second register is 8 lanes below
    TmemShape.S16x128b: {(0, 0): (0, 0), (0, 1): (8, 0), (1, 0): (0, 1), (3, 1): (8, 3), (4, 0): (1, 0),
                         (31, 1): (15, 3), (0, 2): (0, 4)},
    # .16x256b: the mma-accumulator-like fragment: r0 r1 two adjacent columns, r2 r3 the same 8 lanes below
    TmemShape.S16x256b: {(0, 0): (0, 0), (0, 1): (0, 1), (0, 2): (8, 0), (0, 3): (8, 1), (1, 0): (0, 2),
                         (3, 1): (0, 7), (4, 0): (1, 0), (31, 3): (15, 7), (0, 4): (0, 8)},
    # .16x32bx2 .x1: lanes 0-15 read the first half, lanes 16-31 the second (one column after it with .x1)
    TmemShape.S16x32bx2: {(0, 0): (0, 0), (15, 0): (15, 0), (16, 0): (0, 1), (31, 0): (15, 1)},
}


def _ints(*xs):
    return tuple(int(x.value) if hasattr(x, "value") else int(x) for x in xs)


@pytest.mark.parametrize("shape", list(TmemShape))
def test_register_cells_are_the_ptx_figures(shape):
    for (lane, reg), want in PTX_FIGURES[shape].items():
        cell = register_cell(shape, 1 if shape is TmemShape.S16x32bx2 else 4, Const(lane), Const(reg))
        assert _ints(cell.lane, cell.column) == want, (shape, lane, reg)


FORMS = [TmemForm(s, n, packed, load) for s, n, packed, load in product(TmemShape, (1, 2, 8), (False, True),
                                                                          (True, False))]


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.instruction)
def test_every_tile_bit_is_held_by_exactly_one_register_bit(form):
    """The fragment is a bijection between the warp's register bits and the tile's data bits; `holder` inverts it."""
    seen = set()
    for lane in range(32):
        for bit in range(0, 32 * form.registers, 7):
            t = int(form.tile_bit(lane, bit))
            assert 0 <= t < form.tile_bits
            assert _ints(*form.holder(t)) == (lane, bit)
            seen.add(t)
    assert len(seen) == len(range(0, 32 * form.registers, 7)) * 32
    assert 32 * 32 * form.registers == form.tile_bits


def test_instruction_text_is_parsed_in_any_qualifier_order():
    a = copy_model("tcgen05.ld.sync.aligned.16x256b.x4.pack::16b.b32 {%0, %1}, [%2];")
    b = copy_model("tcgen05.ld.sync.aligned.x4.16x256b.b32.pack::16b")
    assert a is not None and b is not None and a.instruction == b.instruction
    assert (a.src_bits, a.dst_bits, a.dst_lanes) == (16 * 256 * 4, 32 * 16, 32)
    st = copy_model("tcgen05.st.sync.aligned.32x32b.x2.unpack::16b.b32")
    assert st is not None and (st.direction, st.src_bits, st.dst_bits, st.dst_lanes) == ("store", 64, 2048, 1)
    for text in ("tcgen05.ld.sync.aligned.16x256b.x1.unpack::16b.b32",   # unpack is the store's
                 "tcgen05.st.sync.aligned.16x64b.x1.pack::16b.b32",
                 "tcgen05.ld.sync.aligned.8x64b.x1.b32", "tcgen05.ld.sync.16x64b.x1.b32",
                 "tcgen05.cp.cta_group::1.128x256b", "tcgen05.ld.sync.aligned.16x64b.b32"):
        assert parse_form(*qualifiers(text)) is None, text


def test_num_and_register_limits_are_the_ptx_isa():
    assert TmemForm(TmemShape.S32x32b, 128, False, True).invalid == ""
    assert TmemForm(TmemShape.S16x256b, 32, False, True).invalid == ""
    assert "256 registers (at most 128)" in TmemForm(TmemShape.S16x256b, 64, False, True).invalid
    assert "256 registers (at most 128)" in TmemForm(TmemShape.S16x128b, 128, False, True).invalid
    assert ".x3" in TmemForm(TmemShape.S32x32b, 3, False, True).invalid


def test_packed_forms_span_twice_the_columns_with_the_same_data_routing():
    plain, packed = (TmemForm(TmemShape.S16x128b, 2, p, True) for p in (False, True))
    assert (plain.columns, packed.columns) == (8, 16)
    assert all(int(plain.tile_bit(lane, b)) == int(packed.tile_bit(lane, b)) for lane in range(32) for b in range(128))
    assert packed.describe(0, 16)["TMEM column"] == "+1 (low 16 bits)"


def test_a_warp_reaches_only_its_lane_quarter():
    assert [_ints(lane_quarter(Const(w)))[0] for w in range(8)] == [0, 32, 64, 96, 0, 32, 64, 96]


@lru_cache(maxsize=None)
def _spec(name):
    return load_spec(SPECS / name, allow_outside=True)


def test_every_cutlass_tmem_atom_is_verified():
    spec = _spec("sm100_tmem.yaml")
    assert len(spec.checks) == 148
    for check in spec.checks.values():
        r = run_check(spec, check)
        assert r.verdict is Verdict.VERIFIED, check.name


BROKEN = ["TMEM_LOAD_16dp64b1x_pairs", "TMEM_LOAD_16dp256b1x_rows_adjacent", "TMEM_STORE_16dp32b1x_as_32dp",
          "TMEM_LOAD_16dp256b64x"]


@pytest.mark.parametrize("name", BROKEN)
def test_broken_tmem_atoms_are_refuted_with_a_witness(name):
    spec = _spec("sm100_tmem_broken.yaml")
    r = run_check(spec, spec.checks[name])
    assert r.verdict is Verdict.REFUTED
    routing = next(t for t in r.theorems if t.id is TheoremId.COPY_ROUTING)
    assert routing.status is Status.REFUTED
    failed = next(i for i in routing.items if i.status is Status.REFUTED)
    assert failed.witness is not None and failed.witness.suspect is not None


def test_the_refuted_16x64b_pairing_names_the_first_wrong_lane():
    spec = _spec("sm100_tmem_broken.yaml")
    r = run_check(spec, spec.checks["TMEM_LOAD_16dp64b1x_pairs"])
    item = next(i for t in r.theorems for i in t.items if i.status is Status.REFUTED)
    # lane 1 holds TMEM lane 8 (tile bit 8 * 64 = 512), not TMEM lane 0's second column (bit 32)
    assert item.witness.point == {"lane": 1, "bit": 0}
    assert (item.witness.actual, item.witness.expected) == ("32", "512")
