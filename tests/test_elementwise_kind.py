"""Theorem 43 (the element-wise kind): each case of tests/specs/elementwise.yaml gets the verdict it documents and is
refuted by the claim that owns its mistake; the decision over the sum of a tile part and a thread part agrees with
enumerating every (tile, thread, value) point on small shapes; the spec keys are validated at their place."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from spec_report import assert_refuted_by, documented_report
from verifier.kinds.elementwise.config import ElementwiseCheck, Side
from verifier.kinds.elementwise.theorems import _coordinate, elementwise
from verifier.specfile import SpecError, load_spec
from verifier.specfile.model import Loc, Spec
from verifier.theorems.claims import Fact
from verifier.theorems.suspects import Suspects

SPEC = Path(__file__).parent / "specs" / "elementwise.yaml"
FAILS_ON = {
    "add_b_partitioned_transposed": ("at its own coordinate", "output value 1 is the output's element (0, 1), "
                                                              "computed from value 1 of input 1, its element (1, 0)"),
    "add_output_values_collide": ("cover its tile, each element once", "threads 0 (value 0) and 1 (value 0) store "
                                                                       "one element"),
    "add_b_at_the_neighbour_thread": ("at its own coordinate", "tile 0, thread 0: output value 0 is the output's "
                                                               "element (0, 0), computed from value 0 of input 1, "
                                                               "its element (0, 8)"),
    "add_b_past_the_copys_threads": ("every thread takes a slice of each side's tiled copy",
                                     "thread 127 takes slice 128 (tid + 1) of input 1's tiled copy"),
    "dequantize_read_as_2x64": ("at its own coordinate",
                                "tile 0, thread 0: output value 1 is the output's element (0, 1), computed from value "
                                "1 of input 0, its element (1, 0)"),
}
LOC = Loc("t.yaml", 1, 1)


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    return documented_report(SPEC)


@pytest.mark.parametrize("name", ["add_tiled_alike", "dequantize_one_tile_a_thread",
                                  "add_every_side_at_the_neighbour_thread"])
def test_a_kernel_tiled_alike_is_verified(name: str, report: dict[str, dict[str, object]]):
    case = report[name]
    assert case["verdict"] == "verified"
    assert [t["id"] for t in case["theorems"]] == ["elementwise.coordinates"]   # type: ignore[index]


@pytest.mark.parametrize("name", sorted(FAILS_ON))
def test_each_refutation_names_the_claim_and_its_witness(name: str, report: dict[str, dict[str, object]]):
    assert_refuted_by(report[name], *FAILS_ON[name])


def _side(tile: tuple[int, int], tv: str | None = None, offset: int = 0, thread: str | None = None) -> Side:
    from verifier.algebra.syntax import parse_layout
    from verifier.kinds.slice.coordinate import read_coordinate
    return Side(tile, parse_layout(tv) if tv else None, LOC, offset, read_coordinate(thread) if thread else None)


def _check(shape: tuple[int, int], out: Side, inputs: list[Side],
           values: list[list[tuple[int, int]]]) -> ElementwiseCheck:
    return ElementwiseCheck(name="c", loc=LOC, shape=shape, output=out, inputs=tuple(inputs),
                            values=tuple(tuple(v) for v in values), values_loc=LOC)


def _plan(check: ElementwiseCheck) -> object:
    return elementwise(check, Suspects(Spec("t.yaml", "t", 2, {}, {}, {"c": check}), check))


def _enumerated(check: ElementwiseCheck) -> tuple[int, int, int] | None:
    """The first (tile, thread, value) whose coordinates differ on some side, by visiting every point."""
    out = check.output
    tiles = (check.shape[0] // out.tile[0]) * (check.shape[1] // out.tile[1])
    threads = max([out.threads] + [s.threads for s in check.inputs])
    for r, t, v in itertools.product(range(tiles), range(threads), range(out.values)):
        want = _coordinate(out, check.shape, r + out.tile_offset, t, v)
        for k, q in check.values[v]:
            side = check.inputs[k]
            if _coordinate(side, check.shape, r + side.tile_offset, t, q) != want:
                return r, t, v
    return None


TV = "(8,4):(4,1)"                       # 8 threads of 4 values over a 2x16 tile, thread t the indices 4t..4t+3
CASES = [
    # (shape, output side, input sides) on which the separable decision and the enumeration must agree
    ((4, 32), _side((2, 16), TV), [_side((2, 16), TV)]),
    ((4, 32), _side((2, 16), TV), [_side((2, 16), "(8,4):(1,8)")]),
    ((4, 32), _side((2, 16), TV), [_side((2, 16), TV, 1)]),
    ((8, 8), _side((1, 8)), [_side((1, 8))]),
    ((8, 8), _side((1, 8)), [_side((2, 4))]),
    ((8, 8), _side((8, 1)), [_side((1, 8))]),
    ((8, 8), _side((2, 4)), [_side((2, 4)), _side((2, 4), None, 0)]),
    ((4, 32), _side((2, 16), TV), [_side((2, 16), TV, 0, "tid ^ 1")]),
    ((4, 32), _side((2, 16), TV, 0, "7 - tid"), [_side((2, 16), TV, 0, "7 - tid")]),
    ((4, 32), _side((2, 16), TV, 0, "tid ^ 2"), [_side((2, 16), "(8,4):(1,8)", 0, "tid ^ 2")]),
]


@pytest.mark.parametrize("shape, out, inputs", CASES)
def test_the_decision_agrees_with_enumerating_every_point(shape: tuple[int, int], out: Side, inputs: list[Side]):
    check = _check(shape, out, inputs, [[(k, v) for k in range(len(inputs))] for v in range(out.values)])
    plan = _plan(check)
    assert isinstance(plan, list)
    facts = [i for i in plan if isinstance(i, Fact)]
    assert next(f for f in facts if "cover its tile" in f.title).holds
    coordinates = next(f for f in facts if "at its own coordinate" in f.title)
    found = _enumerated(check)
    assert coordinates.holds == (found is None)
    if found is not None:
        assert coordinates.point == {"tile": found[0], "thread": found[1], "value": found[2]}


def test_a_tile_that_does_not_divide_the_shape_is_unsupported():
    from verifier.theorems.claims import Unsupported
    check = _check((10, 8), _side((4, 8)), [_side((4, 8))], [[(0, v)] for v in range(32)])
    assert isinstance(_plan(check), Unsupported)


_CHECK = """version: 2
name: e
checks:
  c:
    elementwise: {body}
"""
_GOOD = "{shape: [8, 8], output: {tile: [1, 8]}, inputs: [{tile: [1, 8]}], values: [[[0, 0]]]}"


@pytest.mark.parametrize("body, why", [
    (_GOOD.replace("shape: [8, 8], ", ""), "is missing 'shape'"),
    (_GOOD.replace("shape: [8, 8]", "shape: [8]"), "'shape' of 'elementwise'"),
    (_GOOD.replace("output: {tile: [1, 8]}", "output: {tile: [1, 8], stride: 2}"), "unknown key 'stride'"),
    (_GOOD.replace("output: {tile: [1, 8]}", "output: {tile: [1, 8], thread_values: '(4,2):(1,4)x'}"),
     "'thread_values' of"),
    (_GOOD.replace("inputs: [{tile: [1, 8]}]", "inputs: []"), "must be a list of 1 to"),
    (_GOOD.replace("[[[0, 0]]]", "[[[1, 0]]]"), "item 0 must be a list of [input, value] pairs"),
    (_GOOD.replace("[[[0, 0]]]", "[]"), "must be a list of 1 to"),
    (_GOOD.replace("inputs: [{tile: [1, 8]}]", "inputs: [{tile: [1, 8], tile_offset: x}]"), "'tile_offset' of"),
    (_GOOD.replace("inputs: [{tile: [1, 8]}]", "inputs: [{tile: [1, 8], thread: tid}]"),
     "must be an expression of tid (the slice of its thread_values"),
    (_GOOD.replace("output: {tile: [1, 8]}", "output: {tile: [1, 8], thread_values: '(1,8):(0,1)', thread: 'tid +'}"),
     "'thread' of"),
])
def test_bad_elementwise_keys_are_refused_with_their_place(body: str, why: str, tmp_path: Path):
    spec = tmp_path / "e.yaml"
    spec.write_text(_CHECK.format(body=body), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert why in str(e.value) and str(e.value).startswith(str(spec) + ":"), str(e.value)


def test_a_check_of_the_good_keys_loads(tmp_path: Path):
    spec = tmp_path / "e.yaml"
    spec.write_text(_CHECK.format(body=_GOOD), encoding="utf-8")
    [check] = list(load_spec(spec, allow_outside=True).checks.values())
    assert isinstance(check, ElementwiseCheck) and check.output.tile == (1, 8) and check.values == (((0, 0),),)


@pytest.mark.parametrize("bits", [16, 128])
def test_a_tiled_copys_partition_of_one_tile_takes_its_values_in_layout_tvs_order(bits: int):
    """The reader reads value v of a thread's partition (its colexicographic index) as layout_tv's (t, v): CuTe's
    partition_S of a tensor of exactly the tiler's tile, for an atom of one value and of eight (a 128-bit copy of
    16-bit values), puts value v of thread t at layout_tv(t, v) of the tile."""
    from verifier.algebra.layout import Layout
    from verifier.algebra.syntax import parse_layout
    from verifier.cute.copy import CopyAtom, TiledCopy
    from verifier.cute.tensor import Tensor
    atom = CopyAtom(f"UniversalCopy<{bits}b>", Layout(1), Layout((1, bits)), Layout((1, bits)), Layout((1, bits)))
    tv = parse_layout("((32,4),(8,4)):((128,4),(16,1))")          # our elementwise kernel's, tile 16 x 256
    tiled = TiledCopy(atom.with_value_bits(16), tv, (16, 256))
    tile = Tensor(0, Layout((16, 256)))
    for t in range(int(tv.mode(0).size())):
        part = tiled.partition_S(tile, t)
        assert [int(part(v)) for v in range(part.size())] == [int(tv((t, v))) for v in range(int(tv.mode(1).size()))]
