"""tcgen05.ld / tcgen05.st (verifier/hardware/tmem_copy.py) against the PTX ISA's fragment figures, and CuTe's
SM100 TMEM copy traits against the model (tests/specs/sm100_tmem.yaml: the 148 atoms of CUTLASS v4.7, every
one verified: specs/catalog/atoms_sm100_tmem.yaml; tests/specs/sm100_tmem_broken.yaml: written wrongly, every one
refuted), and TMEM tiled copies (make_tmem_copy, theorems 19-21) of the SM100 epilogue catalog and its mistakes.

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
from verifier.specfile import load_spec
from verifier.symbolic.expr import Const
from verifier.theorems.catalog import TheoremId
from verifier.engine.runner import run_check

SPECS = Path(__file__).parent / "specs"
ROOT = Path(__file__).parent.parent

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
        for bit in range(32 * form.registers):      # every register bit: the bijection is checked whole
            t = int(form.tile_bit(lane, bit))
            assert 0 <= t < form.tile_bits
            seen.add(t)
            if bit % 7 == 0:                         # the inverse on a sample (it is a Python expression walk)
                assert _ints(*form.holder(t)) == (lane, bit)
    assert len(seen) == form.tile_bits == 32 * 32 * form.registers


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
    spec = load_spec(ROOT / "specs" / "catalog" / "atoms_sm100_tmem.yaml")
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


def test_the_epilogue_catalog_is_verified_by_every_tmem_theorem():
    spec = load_spec(ROOT / "specs" / "catalog" / "sm100_epilogue_tmem.yaml")
    assert len(spec.checks) >= 16
    for check in spec.checks.values():
        r = run_check(spec, check)
        assert r.verdict is Verdict.VERIFIED, (check.name, [(t.id, t.status, t.reason) for t in r.theorems])
        ids = ["copy.routing", "tmem.copy", "tmem.lane_access", "tmem.allocation"]
        assert [t.id.value for t in r.theorems] == ids + (["tmem.store"] if check.tmem_store else [])


def _mistake(name):
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    return run_check(spec, spec.checks[name])


def test_an_m64_accumulator_read_by_four_warps_is_refuted_where_warp_2_starts():
    r = _mistake("tmem_m64_accumulator_read_by_four_warps")
    status = {t.id: t.status for t in r.theorems}
    assert status[TheoremId.TMEM_COPY] is Status.REFUTED and status[TheoremId.TMEM_LANE_ACCESS] is Status.REFUTED
    lanes = next(t for t in r.theorems if t.id is TheoremId.TMEM_LANE_ACCESS).first_failure().witness
    assert lanes.point["thread"] == 64 and lanes.values["TMEM lane"] == 0
    copy = next(t for t in r.theorems if t.id is TheoremId.TMEM_COPY).first_failure().witness
    assert (copy.point["thread"], copy.point["thread2"]) == (0, 64)       # rows 0.. delivered to warps 0 and 2


def test_allocations_are_powers_of_two_and_hold_the_tile():
    r = _mistake("tmem_allocation_of_160_columns")
    bad = [t for t in r.theorems if t.status is not Status.PROVED]
    assert [t.id for t in bad] == [TheoremId.TMEM_ALLOCATION]
    assert bad[0].first_failure().witness.actual == "160 columns"
    r = _mistake("tmem_transposed_accumulator_wider_than_its_allocation")
    w = next(t for t in r.theorems if t.id is TheoremId.TMEM_ALLOCATION).first_failure().witness
    assert w.values["column"] == 128 and w.values["lane"] == 0


def _tmem_check(tmp_path, copy, value_type, tmem, store="", extra=""):
    """A one-check TMEM spec over the catalog's TMEM atoms (and `store:`, a flow mapping, when given, and `extra`,
    more fields), proved."""
    spec_file = tmp_path / "s.yaml"
    spec_file.write_text(f"""version: 2
name: one
include: ["{(ROOT / 'specs' / 'atoms' / 'sm100_tmem.yaml').as_posix()}",
          "{(ROOT / 'specs' / 'atoms' / 'generic.yaml').as_posix()}"]
checks:
  one: {{copy: {copy}, value_type: {value_type}, tmem: "{tmem}"{', store: ' + store if store else ''}{
    ', ' + extra if extra else ''}}}
""")
    spec = load_spec(spec_file, allow_outside=True)
    return run_check(spec, spec.checks["one"])


def test_a_tmem_layout_cute_cannot_cotile_is_refused_with_cutes_rule(tmp_path):
    r = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "((16,4),64):((65536,2097152),1)")
    assert r.verdict is Verdict.REFUTED   # a refusal by CuTe is a refutation of the configuration
    refused = next(t for t in r.theorems if t.id is TheoremId.TMEM_COPY)
    assert refused.status is Status.REFUSED
    assert "does not exist in the DataLayout" in refused.reason
    stored = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "((16,4),64):((65536,2097152),1)",
                         '{copy: "UniversalCopy<uint128_t>", value_type: float, smem: "(128,64):(64,1)"}')
    assert {t.id: t.status for t in stored.theorems}[TheoremId.TMEM_STORE] is Status.REFUSED   # listed, not dropped


def test_the_whole_tensor_a_tile_is_cut_from_lies_in_the_allocation(tmp_path):
    """`tmem_view`: a two-stage accumulator of 64 columns a stage fits 128 allocated columns and not 64 (stage 1
    past it, refuted at its first cell), and a tile of its own at column 128 fits 256 and not 128; with `stages`,
    only the stages the copies take must fit."""
    def allocation(view: str, columns: int) -> Status:
        r = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "(128,64):(65536,1)",
                        extra=f"tmem_columns: {columns}, tmem_view: {view}")
        return {t.id: t.status for t in r.theorems}[TheoremId.TMEM_ALLOCATION]
    staged = '{layout: "((128,64),1,1,2):((65536,1),0,0,64)", column: 0}'
    assert allocation(staged, 128) is Status.PROVED and allocation(staged, 64) is Status.REFUTED
    beside = '{layout: "(128,64):(65536,1)", column: 128}'
    assert allocation(beside, 256) is Status.PROVED and allocation(beside, 128) is Status.REFUTED
    # the copies take stage 0 of a three-stage view at column 384 (a blockwise kernel's): only that stage must fit
    first = '{layout: "((128,128),1,1,3):((65536,1),0,0,128)", column: 384, stages: [0]}'
    assert allocation(first, 512) is Status.PROVED
    assert allocation(first.replace("stages: [0]", "stages: [0, 1]"), 512) is Status.REFUTED
    # a one-stage view (stage mode 1:0) sliced at stages 0 and 1: both on the same cells (a race)
    one = '{layout: "((128,64),1,1,1):((65536,1),0,0,0)", column: 0, stages: [0, 1]}'
    assert allocation(one, 128) is Status.REFUTED
    assert allocation(one.replace("stages: [0, 1]", "stages: [0]"), 128) is Status.PROVED
    # a pipeline of three stages over a two-stage view reads stage 2 past its extent, as CuTe does: 128..191
    past = '{layout: "((128,64),1,1,2):((65536,1),0,0,64)", column: 0, stages: [0, 1, 2]}'
    assert allocation(past, 256) is Status.PROVED and allocation(past, 128) is Status.REFUTED
    r = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "(128,64):(65536,1)",
                    extra=f"tmem_columns: 64, tmem_view: {staged}")
    refuted = next(t for t in r.theorems if t.id is TheoremId.TMEM_ALLOCATION).first_failure()
    assert refuted is not None and refuted.witness is not None and refuted.witness.point == {"coordinate": 8192}


def test_accumulator_stages_are_a_load_s_and_proved_whatever_the_copy_s_model(tmp_path):
    """Theorem 38 is about the stages alone: stated on a tcgen05.st check it is bad input at its key; on a load the
    copy model lacks (a 16-bit tile: theorem 19 unsupported) it is still decided."""
    from verifier.specfile import SpecError
    with pytest.raises(SpecError, match="names the stages a TMEM load reads") as info:
        _tmem_check(tmp_path, "SM100_TMEM_STORE_32dp32b8x", "float", "(128,64):(65536,1)",
                    extra="accumulator_stages: {mma: [0], load: [0]}")
    assert info.value.loc.line == 6
    r = _tmem_check(tmp_path, "SM100_TMEM_LOAD_16dp128b1x_16b", "half_t", "(128,64):(65536,1)",
                    extra="accumulator_stages: {mma: [0, 1], load: [1]}")
    statuses = {t.id: t.status for t in r.theorems}
    assert statuses[TheoremId.TMEM_COPY] is Status.UNSUPPORTED
    assert statuses[TheoremId.TMEM_ACCUMULATOR_STAGES] is Status.REFUTED and r.verdict is Verdict.REFUTED
    stage = next(t for t in r.theorems if t.id is TheoremId.TMEM_ACCUMULATOR_STAGES).first_failure()
    assert stage is not None and stage.witness is not None and stage.witness.point == {"stage": 0}
    ahead = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "(128,64):(65536,1)",
                        extra="accumulator_stages: {mma: [0, 1], load: [0, 1], mma_wait_offsets: [1], "
                              "load_wait_offsets: [0]}")
    stage = next(t for t in ahead.theorems if t.id is TheoremId.TMEM_ACCUMULATOR_STAGES).first_failure()
    assert ahead.verdict is Verdict.REFUTED and stage is not None and stage.witness is not None
    assert stage.witness.point == {"stage_offset": 1}
    assert "the MMAs slice the accumulator at" in stage.witness.suspect.what
    # both sides one stage past their waits: the stages renamed alike (survey 8's b5_a11), harmless; one side alone
    # linked: nothing to compare
    for offsets in ("mma_wait_offsets: [1], load_wait_offsets: [1]", "mma_wait_offsets: [1]"):
        renamed = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "(128,64):(65536,1)",
                              extra=f"accumulator_stages: {{mma: [0, 1], load: [0, 1], {offsets}}}")
        assert renamed.verdict is Verdict.VERIFIED, offsets
    level = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b8x", "float", "(128,64):(65536,1)",
                        extra="accumulator_stages: {mma: [0, 1], load: [0, 1], mma_wait_offsets: [0], "
                              "load_wait_offsets: [0]}")
    assert level.verdict is Verdict.VERIFIED


def test_sixteen_bit_tmem_tiles_are_unsupported_not_guessed(tmp_path):
    r = _tmem_check(tmp_path, "SM100_TMEM_LOAD_16dp128b1x_16b", "half_t", "(128,64):(65536,1)")
    assert {t.id: t.status for t in r.theorems}[TheoremId.TMEM_COPY] is Status.UNSUPPORTED
    # a packed form with 32-bit values: each register spans two columns, which the routing does not model
    packed = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b2x_16b", "float", "(128,4):(65536,1)")
    assert {t.id: t.status for t in packed.theorems}[TheoremId.TMEM_COPY] is Status.UNSUPPORTED
    assert packed.verdict is Verdict.UNSUPPORTED


HEAD = """version: {version}
name: bad
copy_atoms:
  TMEM_LOAD:
    instruction: "tcgen05.ld.sync.aligned.32x32b.x1.b32"
    thr_id: "32:1"
    src: "(32,1024):(0,1)"
    dst: "(32,32):(32,1)"
    ref: src
  LDSM:
    instruction: "ldmatrix.sync.aligned.m8n8.x1.shared.b16"
    thr_id: "32:1"
    src: "((8,4),128):((128,0),1)"
    dst: "(32,(32,1)):(32,(1,1))"
    ref: dst
checks:
  c:
"""


LOAD_HEAD = "    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n"   # a check's first lines


@pytest.mark.parametrize("body, version, line, column, words", [
    ("    copy: LDSM\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n", 2, 18, 11,
     ("needs a tcgen05.ld or tcgen05.st copy atom",)),
    ("    copy: SM90_TMA_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n", 2, 18, 11,
     ("needs a tcgen05.ld or tcgen05.st copy atom, not the TMA copy SM90_TMA_LOAD",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n    descriptor: {}\n", 2,
     21, 5, ("'descriptor' of check 'c' is not used by TMEM checks",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem_columns: 64\n", 2, 20, 19, ("only used with 'tmem'",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    store: [1, 2]\n", 2, 20, 12, ("'store' of check 'c' is only "
                                                                                "used with 'tmem'",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n", 1, 20, 5,
     ("version 2 key",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n    tmem_columns: many\n", 2,
     21, 19, ("must be a number of columns",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64\"\n", 2, 20, 19, ("tmem",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n    smem: \"(8,8):(8,1)\"\n", 2,
     21, 5, ("not used by TMEM checks",)),
    ("    copy: TMEM_LOAD\n    value_type: float\n    tmem: \"(128,64):(65536,1)\"\n    store: {copy: LDSM}\n", 2,
     21, 12, ("'store' of check 'c' needs 'value_type'",)),
    (LOAD_HEAD + "    store: {copy: STSMX, value_type: half_t, smem: \"(8,8):(8,1)\"}\n", 2, 21, 19,
     ("unknown copy atom",)),
    (LOAD_HEAD + "    store: {copy: LDSM, value_type: half_t, smem: \"(8,8):(8,1)\", extra: 1}\n", 2, 21, 66,
     ("extra",)),
    (LOAD_HEAD + "    accumulator_stages: {mma: [0, 1]}\n", 2, 21, 25, ("missing 'load'",)),
    (LOAD_HEAD + "    accumulator_stages: {mma: [0, 0], load: [0]}\n", 2, 21, 35, ("repeats stage 0",)),
    (LOAD_HEAD + "    accumulator_stages: {mma: [], load: [0]}\n", 2, 21, 31, ("a list of distinct stage indices",)),
    (LOAD_HEAD + "    accumulator_stages: {mma: [0], load: [-1]}\n", 2, 21, 43, ("item 0 is int -1",)),
    (LOAD_HEAD + "    accumulator_stages: {mma: [0], load: [0], stages: 2}\n", 2, 21, 47, ("stages",)),
    (LOAD_HEAD + "    tmem_view: {layout: \"(128,64):(65536,1)\", column: -1}\n", 2, 21, 55, ("must be a column",)),
    (LOAD_HEAD + "    tmem_view: {layout: \"(128,64):(65536,1)\"}\n", 2, 21, 16, ("missing 'column'",)),
    (LOAD_HEAD + "    tmem_view: {layout: \"((128,64),(2,1)):((65536,1),(64,0))\", column: 0, stages: [2]}\n",
     2, 21, 84, ("stage indices in 0..1",)),
    (LOAD_HEAD + "    accumulator_stages: {mma: [0], load: [0], load_wait_offsets: [one]}\n", 2, 21, 67,
     ("'load_wait_offsets' of 'accumulator_stages'", "distinct offsets in stages")),
])
def test_bad_tmem_checks_are_one_line_at_their_key(tmp_path, body, version, line, column, words):
    from verifier.specfile import SpecError
    f = tmp_path / "bad.yaml"
    f.write_text(HEAD.format(version=version) + body)
    with pytest.raises(SpecError) as info:
        load_spec(f)
    e = info.value
    assert (e.loc.line, e.loc.column) == (line, column), str(e)
    assert all(w in str(e) for w in words), str(e)


def _cli(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_explain_traces_a_register_of_a_tmem_check():
    r = _cli("explain", "specs/mistakes.yaml", "--check", "tmem_m64_accumulator_read_by_four_warps",
             "--lane", "64", "--value", "3", "--instance", "2")
    assert r.returncode == 0, r.stderr
    assert "thread 64 (warp 2, lane 0), register 3 of copy call 2" in r.stdout
    assert "coordinate (0, 19) of the (64, 64) tile, whose cell is lane 0, column 19" in r.stdout
    assert "warp 2 may access lanes 64..95: lane 0 is outside" in r.stdout
    bad = _cli("explain", "specs/mistakes.yaml", "--check", "tmem_m64_accumulator_read_by_four_warps",
               "--lane", "128", "--value", "0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--lane must be in [0,128)" in bad.stderr
    none = _cli("explain", "specs/mistakes.yaml", "--check", "tmem_m64_accumulator_read_by_four_warps")
    assert none.returncode == 2 and "is a TMEM check: give --lane THREAD" in none.stderr


def test_the_lane_access_witness_is_traced_through_the_chain():
    r = _mistake("tmem_m64_accumulator_read_by_four_warps")
    w = next(t for t in r.theorems if t.id is TheoremId.TMEM_LANE_ACCESS).first_failure().witness
    assert w.chain_title == "thread 64 (warp 2, lane 0), register 0 of copy call 0"
    assert [line.label for line in w.chain] == ["CuTe partition", "call address", "instruction", "agreement",
                                                "lane quarter"]


def test_draw_shows_the_tmem_cells_and_outlines_the_ones_moved_twice(tmp_path):
    out = tmp_path / "t.svg"
    r = _cli("draw", "specs/mistakes.yaml", "--check", "tmem_m64_accumulator_read_by_four_warps", "-o", str(out))
    assert r.returncode == 0, r.stderr
    svg = out.read_text()
    assert "TMEM lanes 0.. x columns 0.." in svg and "T0 x2" in svg and 'data-CuTe-coordinate="0"' in svg
    assert "#d00000" in svg                                   # outlined: moved by warps 0 and 2
    good = tmp_path / "g.svg"
    r = _cli("draw", "specs/catalog/sm100_epilogue_tmem.yaml", "--check", "epilogue_tmem_load_16dp256b_8x_128x64",
             "--view", "tmem", "-o", str(good))
    assert r.returncode == 0, r.stderr
    assert "#d00000" not in good.read_text() and " x2" not in good.read_text()


def test_stmatrix_after_a_32x32b_load_is_refused_where_a_row_breaks():
    """An address lane's 8 halves that are no contiguous run: CuTe's copy_unpack recasts each thread's destination
    to the instruction's uint128_t and static_asserts ("Copy_Traits: dst failed to vectorize into registers. ...",
    nvcc on the catalog's two stmatrix mistakes); theorem 22 refuses it, naming the first such lane (it was
    refuted). A row that is contiguous but misaligned is a fault at run time, refuted (tests/specs/theorem_cases.yaml
    bad_tmem_stsm_rows_unaligned)."""
    from verifier.kinds.tmem.store import VECTORIZE_RULE
    for name in ("tmem_32dp32b_registers_stored_with_stmatrix",
                 "tmem_16dp128b_registers_stored_as_half_with_stmatrix"):
        r = _mistake(name)
        failed = [t for t in r.theorems if t.status in (Status.REFUTED, Status.REFUSED)]
        assert [(t.id, t.status) for t in failed] == [(TheoremId.TMEM_STORE, Status.REFUSED)], name
        assert failed[0].reason == f"CuTe refuses it: {VECTORIZE_RULE}"
        refusal = failed[0].items[0]
        assert "thread 0's 8 values" in refusal.note and "row pitch, swizzle" in refusal.witness.suspect.what


def test_the_catalog_pairs_each_tmem_load_with_the_store_cutlass_uses():
    spec = load_spec(ROOT / "specs" / "catalog" / "sm100_epilogue_tmem.yaml")
    stores = {c.name: c.tmem_store.copy for c in spec.checks.values() if c.tmem_store is not None}
    assert stores["epilogue_t2r_16dp256b_stsm_n_half_128x64"] == "SM90_U32x4_STSM_N"
    assert stores["epilogue_t2r_32dp32b_vector_half_128x64"] == "UniversalCopy<uint128_t>"
    assert len(stores) == 6


def test_hw_tmem_answers_which_cell_each_register_holds():
    r = _cli("hw", "tmem", "16x256b", "--lane", "1", "--json")
    assert r.returncode == 0, r.stderr
    import json
    ans = json.loads(r.stdout)
    assert ans["cells"] == [[1, 0, 0, [2]], [1, 1, 0, [3]], [1, 2, 8, [2]], [1, 3, 8, [3]]]
    packed = json.loads(_cli("hw", "tmem", "16x64b", "--num", "2", "--pack", "--lane", "3", "--json").stdout)
    assert packed["cells"] == [[3, 0, 8, [2, 3]], [3, 1, 8, [6, 7]]] and packed["columns"] == 8
    refused = json.loads(_cli("hw", "tmem", "16x256b", "--num", "64", "--json").stdout)
    assert "256 registers (at most 128)" in refused["refused"]
    bad = _cli("hw", "tmem", "16x256b", "--lane", "40")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_a_warp_whose_lanes_name_different_addresses_is_refuted():
    """make_tmem_copy gives a warp's lanes one address by construction (thread stride 0); the claim that checks it
    refutes a partition that does not (the TMEM partition's lane stride made 1 here)."""
    import dataclasses

    from verifier.algebra.layout import Layout
    from verifier.theorems.suspects import Suspects
    from verifier.kinds.tmem.theorems import build_tmem, lane_access
    spec = load_spec(ROOT / "specs" / "catalog" / "sm100_epilogue_tmem.yaml")
    check = spec.checks["epilogue_tmem_load_32dp32b_32x_128x32"]
    setup = build_tmem(check, spec.copy_atoms[check.copy])
    frag = setup.tmem_frag
    thr = frag.mode(0)
    skewed = Layout((thr.shape, frag.mode(1).shape, frag.mode(2).shape),
                    ((1, thr.stride[1]), frag.mode(1).stride, frag.mode(2).stride))
    items = lane_access(dataclasses.replace(setup, tmem_frag=skewed), Suspects(spec, check))
    from verifier.symbolic.decide import decide
    uniform = items[0].obligation
    assert "warp-uniform" in uniform.title
    assert decide(uniform)[0].status is Status.REFUTED
    assert decide(lane_access(setup, Suspects(spec, check))[0].obligation)[0].status is Status.PROVED


def test_a_per_thread_vector_store_is_checked_for_every_thread(tmp_path):
    """A row pitch of 68 halves aligns rows 0, 32, 64 and 96 (one thread of each warp) to 16 bytes but not row 1:
    the 128-bit store of thread 1 is misaligned."""
    r = _tmem_check(tmp_path, "SM100_TMEM_LOAD_32dp32b32x", "float", "(128,64):(65536,1)",
                    '{copy: "UniversalCopy<uint128_t>", value_type: half_t, smem: "(128,64):(68,1)"}')
    store = next(t for t in r.theorems if t.id is TheoremId.TMEM_STORE)
    assert store.status is Status.REFUTED
    item = store.first_failure()
    assert "aligned" in item.title and item.witness.point["thread"] == 1
