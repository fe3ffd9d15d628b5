"""The sm_100a ldmatrix / stmatrix models (verifier/hardware/matrix_copy_sm100.py) and CuTe's SM100 LDSM / STSM
traits (tests/specs/sm100_matrix.yaml, transcribed from include/cute/atom/copy_traits_sm100.hpp).

The models are written from the PTX ISA ("Warp-level matrix load instruction: ldmatrix", "Warp-level matrix
store instruction: stmatrix", "Optional Decompression"); no Blackwell GPU was available, so the tables below
are read off the ISA's fragment figures by hand rather than captured.
"""
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.hardware import matrix_copy_sm100 as sm100
from verifier.hardware.registry import copy_model
from verifier.outcome import Verdict
from verifier.specfile import load_spec
from verifier.symbolic.expr import Const
from verifier.engine.runner import run_check

SPEC = load_spec(Path(__file__).parent / "specs" / "sm100_matrix.yaml", allow_outside=True)
ATOMS = [name for name in SPEC.checks if not name.endswith("_mutated")]
UNPACKING = [name for name in ATOMS if "_DU8x16_" in name]


def _ints(pair):
    return tuple(int(x.value) if hasattr(x, "value") else int(x) for x in pair)


def _source(model, lane, bit):
    return _ints(model.source_of(Const(lane), Const(bit)))


@lru_cache(maxsize=None)
def _result(name):
    return run_check(SPEC, SPEC.checks[name])


# --- (1) the formulas against hand-made tables from the ISA's fragment figures ----------------------------

# ldmatrix .m16n16 .trans .b8 (16x16 matrix M stored column-major, column c at address lane c):
# (lane, register, byte) -> (address lane, byte within that row) = (column of M, row of M)
LDSM_M16N16 = [
    (0, 0, 0, 0, 0), (0, 0, 3, 3, 0), (0, 1, 0, 0, 8),      # lane 0: M[0][0..3] in r0, M[8][0..3] in r1
    (1, 0, 0, 4, 0), (3, 0, 3, 15, 0),                       # lanes 0..3 cover row 0 of M
    (4, 0, 0, 0, 1), (31, 1, 3, 15, 15),                     # lane 4: row 1; lane 31: M[15][15] in r1
    (5, 2, 1, 16 + 5, 1), (5, 3, 2, 16 + 6, 9),              # .x2: registers 2, 3 hold matrix 1 (lanes 16..31)
]


@pytest.mark.parametrize("lane,register,byte,address_lane,row_byte", LDSM_M16N16)
def test_ldmatrix_m16n16_follows_the_isa_figure(lane, register, byte, address_lane, row_byte):
    model = copy_model("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8")
    for bit in (0, 7):
        assert _source(model, lane, 32 * register + 8 * byte + bit) == (address_lane, 8 * row_byte + bit)


# ldmatrix .m8n16 (lane l: row l/4, columns 4*(l%4) + byte) with 4-bit / 6-bit elements packed from bit 0:
# (lane, register, byte) -> (address lane, element of that row)
LDSM_M8N16 = [(0, 0, 0, 0, 0), (0, 0, 1, 0, 1), (1, 0, 0, 0, 4), (7, 0, 2, 1, 14), (31, 0, 3, 7, 15),
              (2, 1, 0, 8, 8), (30, 3, 3, 31, 11)]


@pytest.mark.parametrize("src_fmt,element_bits", [("b4x16_p64", 4), ("b6x16_p32", 6)])
@pytest.mark.parametrize("lane,register,byte,address_lane,element", LDSM_M8N16)
def test_ldmatrix_m8n16_unpacks_elements_from_the_packed_row(src_fmt, element_bits, lane, register, byte,
                                                            address_lane, element):
    model = copy_model(f"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.{src_fmt}")
    assert model.data_bits_per_byte == element_bits
    for bit in range(element_bits):    # the container's low bits carry the element ...
        assert _source(model, lane, 32 * register + 8 * byte + bit) == (address_lane, element_bits * element + bit)
    # ... and every element of the row comes from its first 64 / 96 bits: the rest of the row is padding
    data_bits = [b for b in range(model.dst_bits) if b % 8 < element_bits]
    assert max(_source(model, lane, b)[1] for b in data_bits) < element_bits * 16


# stmatrix .m16n8 .trans .b8 (16x8 matrix M stored column-major, column c at address lane 8j + c; lane l holds
# e0..e3 = M[l/4][2(l%4)], M[l/4][2(l%4)+1], M[l/4+8][2(l%4)], M[l/4+8][2(l%4)+1]):
# (address lane, byte in row) -> (source lane, register, element)
STSM_M16N8 = [(0, 0, 0, 0, 0), (1, 0, 0, 0, 1), (0, 8, 0, 0, 2), (1, 8, 0, 0, 3), (2, 0, 1, 0, 0),
              (0, 1, 4, 0, 0), (7, 15, 31, 0, 3), (8 + 3, 5, 21, 1, 1), (24 + 6, 9, 7, 3, 2)]


@pytest.mark.parametrize("address_lane,row_byte,lane,register,element", STSM_M16N8)
def test_stmatrix_m16n8_follows_the_isa_figure(address_lane, row_byte, lane, register, element):
    model = copy_model("stmatrix.sync.aligned.m16n8.x4.trans.shared.b8")
    for bit in (0, 5):
        assert _source(model, address_lane, 8 * row_byte + bit) == (lane, 32 * register + 8 * element + bit)


def test_every_form_routes_each_source_bit_once():
    forms = ["ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8",
             "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8", "stmatrix.sync.aligned.m16n8.x4.trans.shared::cta.b8",
             "ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32"]
    for text in forms:
        model = copy_model(text)
        routed = [_source(model, lane, bit) for lane in range(model.dst_lanes) for bit in range(model.dst_bits)
                  if bit % 8 < model.data_bits_per_byte]
        assert len(set(routed)) == len(routed), text
        assert all(s_lane < (model.address_lanes if model.direction == "load" else 32) for s_lane, _ in routed)


def test_cute_regrouping_moves_bytes_between_the_two_registers_of_a_matrix():
    raw = sm100.ldmatrix_m16n16(1, "")
    atom = copy_model("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", "SM100_U8x8_LDSM_T")
    assert atom is sm100.cute_regrouped_ldmatrix_m16n16(1)
    # out register 0 = {raw r0 byte 0, raw r0 byte 1, raw r1 byte 0, raw r1 byte 1}
    assert _source(atom, 5, 16) == _source(raw, 5, 32)
    assert _source(atom, 5, 32 + 8) == _source(raw, 5, 24)
    # the raw instruction is what any other atom name (or none) gets
    assert copy_model("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", "MyAtom") is raw


@pytest.mark.parametrize("text", [
    "ldmatrix.sync.aligned.m8n16.x1.shared.b8",                   # .m8n16 is for the unpacking formats
    "stmatrix.sync.aligned.m16n16.x1.trans.shared.b8",
])
def test_forms_the_isa_does_not_define_have_no_model(text):
    assert copy_model(text) is None


@pytest.mark.parametrize("text,reason", [
    ("ldmatrix.sync.aligned.m16n16.x1.shared.b8", ".m16n16 requires .trans"),
    ("ldmatrix.sync.aligned.m8n16.x1.trans.shared.b8x16.b4x16_p64", ".m8n16 has no .trans"),
    ("stmatrix.sync.aligned.m16n8.x1.shared.b8", ".m16n8 requires .trans"),
])
def test_a_shape_with_the_wrong_trans_is_an_invalid_instruction(text, reason):
    """A known SM100 shape written with .trans where the ISA forbids it, or without it where it is mandatory,
    is no instruction: an atom issuing it is refuted with the reason (as .x4 on .m16n16 is), not left
    unsupported."""
    assert copy_model(text).invalid == reason


def test_m16n16_takes_x1_or_x2_only():
    assert "x1 or .x2" in copy_model("ldmatrix.sync.aligned.m16n16.x4.trans.shared.b8").invalid


def test_existing_m8n8_forms_are_unchanged():
    model = copy_model("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
    assert model.data_bits_per_byte == 8 and model.address_lanes == 32 and model.dst_bits == 128


# --- (2) CuTe's traits proved against the models; (3) one stride changed is refuted -------------------------

@pytest.mark.parametrize("name", [n for n in ATOMS if n not in UNPACKING])
def test_cute_traits_are_verified(name):
    assert _result(name).verdict is Verdict.VERIFIED


@pytest.mark.parametrize("name", [n for n in ATOMS if n not in UNPACKING])   # those are refuted unchanged
def test_a_changed_stride_is_refuted(name):
    assert _result(f"{name}_mutated").verdict is Verdict.REFUTED


@pytest.mark.parametrize("name", UNPACKING)
def test_unpacking_traits_route_bytes_where_the_isa_unpacks_elements(name):
    """Finding.  PTX ISA, "Warp-level matrix load instruction: ldmatrix" (.m8n16, .b8x16.b4x16_p64 /
    .b8x16.b6x16_p32) with "Optional Decompression": a row is 16 4-bit (6-bit) elements packed from bit 0 and
    then 64 (32) bits of padding, and lane l receives elements 4*(l%4) .. 4*(l%4)+3 of row l/4, one per byte.
    CuTe's traits route register byte k of lane l from byte 4*(l%4)+k of the row, i.e. as a plain byte copy
    of the padded row: lane 0's byte 1 (element 1, row bits 4..7 or 6..11) is claimed to come from bits 8..15.
    The rows each lane addresses agree; the bits within a row do not."""
    result = _result(name)
    assert result.verdict is Verdict.REFUTED
    element_bits = copy_model(SPEC.copy_atoms[name].instruction).data_bits_per_byte
    witness = result.theorems[0].first_failure().witness
    # lane 0, destination bit 8: bit 0 of element 1, which the ISA reads from row bit 4 (6) and CuTe from 8
    assert witness.point == {"lane": 0, "bit": 8}
    assert witness.values["src bit"] == element_bits and witness.values["D(dst)"] == 8
