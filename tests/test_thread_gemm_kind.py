"""Theorems 44 and 45 (the thread-gemm kind): each case of tests/specs/thread_gemm.yaml gets the verdict it documents
and is refuted by the fact that owns its mistake; the products' decision over numpy arrays agrees with visiting every
(thread, i, j, k) point one by one on random small fragments; the spec keys are validated at their place."""
from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from spec_report import assert_refuted_by, documented_report
from verifier.algebra.layout import Layout
from verifier.kinds.thread_gemm.config import K_CONDITIONS, Fragment, KLoop, Operand, ThreadGemmCheck
from verifier.kinds.thread_gemm.theorems import closed_form, k_tile_loop, loop_runs, thread_products
from verifier.specfile import SpecError, load_spec
from verifier.specfile.model import Loc
from verifier.theorems.claims import Fact

SPEC = Path(__file__).parent / "specs" / "thread_gemm.yaml"
FAILS_ON = {
    "a_by_the_columns_of_cs_threads": ("every product multiplies A's element of C's row",
                                       "thread 1, C value (i=0, j=0) is C(1, 0) of the tile; its product k=0 "
                                       "multiplies A(0, 0) by B(0, 0)"),
    "c_threads_collide": ("C's threads and values cover its 64x64 tile, each element once",
                          "thread 0's value (i=0, j=0) and thread 128's value (i=0, j=0) are both element (0, 0)"),
    "half_the_k_tile": ("multiplies every k of the 8-deep tile once", "thread 0's row i=0 takes k = [0, 1, 2, 3]"),
    "a_smem_overlaps": ("A's shared layout gives distinct coordinates", "(32, 0) and (0, 1) are both element 32"),
    "b_tile_of_another_block": ("B's tile of B is taken at C's block along C's columns",
                                "B's tile of B at blockIdx.x"),
    "b_one_k_tile_ahead": ("A's and B's fills copy the same k-tiles", "A at ['kt'], B at ['kt + 1']"),
    "a_copied_transposed": ("every value A copies from A lands at the coordinate it has in the global tile",
                            "thread 1's value 0 copies the global tile's (0, 1) to the shared tile's (1, 0)"),
    "a_fill_writes_half": ("A's fill writes every element of the shared tile", "no thread writes (32, 0)"),
    "a_fill_reads_past_its_tile": ("every value A copies from A is an element of its 64x8 global tile",
                                   "thread 128's value 0 reads index 512 of the global tile"),
    "b_copied_after_the_gemm": ("each pass's gemm multiplies its own k-tile: every operand's tile holds k-tile kt",
                                "pass kt = 0's gemm multiplies A's k-tile 0, B's k-tile -1 (none: no copy before it)"),
    "k_loop_one_short": ("the k-tile loop runs kt over 0, 1, ..., K-1, each once, for every k-tile count K >= 1",
                         "for (kt = 0; kt < K - 1; kt += 1): for K = 1 it runs kt = []"),
}
LOC = Loc("t.yaml", 1, 1)
# B's fill as the spec writes it, after B's fragment's values
B_FILL = ('        fill:\n          smem: "(64,8):(1,64)"\n          destination: {origins: "(32,8):(1,64)", values: '
          '"2:32"}\n          sources:\n            - {from: B')


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    return documented_report(SPEC)


@pytest.mark.parametrize("name, loop", [("raked", True), ("raked_threads_row_major", False),
                                        ("k_loop_to_k_minus_one_inclusive", True)])
def test_a_gemm_on_consistent_partitions_is_verified(name: str, loop: bool, report: dict[str, dict[str, object]]):
    case = report[name]
    assert case["verdict"] == "verified"
    assert [t["id"] for t in case["theorems"]] == ["gemm.thread_products", "gemm.shared_fill"] + \
        (["gemm.k_tile_loop"] if loop else [])                                                # type: ignore[index]


@pytest.mark.parametrize("name", sorted(FAILS_ON))
def test_each_refutation_names_the_fact_and_its_witness(name: str, report: dict[str, dict[str, object]]):
    assert_refuted_by(report[name], *FAILS_ON[name])


def _assert_refused(tmp_path: Path, text: str, edit: str, replacement: str, message: str) -> None:
    """`text` with `edit` replaced is bad input, refused with `message` at its place in the file."""
    assert edit in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(edit, replacement, 1), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(bad, allow_outside=True)
    assert message in str(e.value) and str(e.value).startswith(str(bad) + ":"), str(e.value)


def _fragment(origins: list[int], values: Layout, tile: tuple[int, int]) -> Fragment:
    return Fragment(tuple(origins), values, tile, LOC)


def _naive(check: ThreadGemmCheck) -> bool:
    """Theorem 44 by visiting every point one at a time."""
    bm, bn, bk = check.tile
    a, b, c = check.a.fragment, check.b.fragment, check.c.fragment
    seen = sorted(c.index(t, (i, j)) for t in range(check.threads) for i in range(c.extent(0))
                  for j in range(c.extent(1)))
    if seen != list(range(bm * bn)):
        return False
    for t in range(check.threads):
        for i, j, k in itertools.product(range(c.extent(0)), range(c.extent(1)), range(a.extent(1))):
            ea, eb, ec = a.index(t, (i, k)), b.index(t, (j, k)), c.index(t, (i, j))
            if not (0 <= ea < bm * bk and 0 <= eb < bn * bk):
                return False
            if (ea % bm, ea // bm, eb % bn) != (ec % bm, eb // bn, ec // bm):
                return False
        for i in range(a.extent(0)):
            if sorted(a.index(t, (i, k)) // bm for k in range(a.extent(1))) != list(range(bk)):
                return False
    return True


def test_the_products_decision_agrees_with_visiting_every_point():
    """300 random 4x4x2 configurations on 4 threads (fragments of 2x2 values, origins and strides drawn near the
    correct ones): the numpy decision and the point-by-point one agree, and both verdicts occur."""
    rng = random.Random(44)
    verdicts = set()
    for _ in range(300):
        def strides(good: tuple[int, int]) -> tuple[int, int]:
            return tuple(g if rng.random() < 0.7 else rng.choice([0, 1, 2, 4, 8]) for g in good)  # type: ignore
        thr = [(t % 2, t // 2) for t in range(4)]
        a = _fragment([m if rng.random() < 0.85 else rng.randrange(4) for m, _ in thr],
                      Layout((2, 2), strides((2, 4))), (4, 2))
        b = _fragment([n if rng.random() < 0.85 else rng.randrange(4) for _, n in thr],
                      Layout((2, 2), strides((2, 4))), (4, 2))
        c = _fragment([m + 4 * n if rng.random() < 0.85 else rng.randrange(16) for m, n in thr],
                      Layout((2, 2), strides((2, 8))), (4, 4))
        check = ThreadGemmCheck(name="c", loc=LOC, tile=(4, 4, 2), threads=4, a=Operand("a", a),
                                b=Operand("b", b), c=Operand("c", c), tile_loc=LOC)
        plan = thread_products(check)
        assert isinstance(plan, list)
        holds = all(isinstance(f, Fact) and f.holds for f in plan)
        assert holds == _naive(check)
        verdicts.add(holds)
    assert verdicts == {True, False}


def test_the_k_tile_loops_closed_form_agrees_with_running_it():
    """2,000 random loops `for (v = start; v <cond> a*K + b; v += step)`: the closed form holds exactly when the loop
    runs 0..K-1 for every K from 1 to 40, and a loop refuted is refuted at the least K where it differs from 0..K-1
    (both verdicts occurring)."""
    rng = random.Random(46)
    verdicts = set()
    for _ in range(2000):
        loop = KLoop("kt", rng.choice([0, 0, 0, 1, -1, 2]), rng.choice(list(K_CONDITIONS)),
                     (rng.choice([1, 1, 1, 0, 2, -1]), rng.choice([0, 0, -1, 1, 2, -2])),
                     rng.choice([1, 1, 1, 2, 0, -1]), LOC)
        differs = [k for k in range(1, 41) if loop_runs(loop, k, k + 1) != (list(range(k)), False)]
        assert closed_form(loop) == (not differs), loop
        plan = k_tile_loop(loop)
        assert isinstance(plan, list) and len(plan) == 1 and isinstance(plan[0], Fact)
        fact = plan[0]
        assert fact.holds == (not differs)
        if differs:
            assert fact.point == {"k_tiles": differs[0]}, (loop, fact)
        verdicts.add(fact.holds)
    assert verdicts == {True, False}


@pytest.mark.parametrize("edit, message", [
    ('        values: "(4,8):(16,64)"\n' + B_FILL,
     "a's fragment has 8 k values, b's 4"),
    ('tile_at: [blockIdx.x, blockIdx.y]', "c must give 'tile_at'"),
    ('origins: "(16,16):(1,64)"', "'origins' of 'c' of 'thread_gemm' of check 'raked' must be a layout of the thread "
                                  "or a list of 256 integers"),
    ('tile: [64, 64, 8]', "'tile' of 'thread_gemm' of check 'raked' must be [BLK_M, BLK_N, BLK_K]"),
    ('smem: "(64,8):(1,64)"', "'smem' of 'fill' of 'a' of 'thread_gemm' of check 'raked' is not of the shared "
                              "tile's 64x8"),
    ('tile_at: blockIdx.x, k_tiles: [kt], origins: "(32,8):(1,64)", values: "2:32"',
     "a source of 4 values a thread, the destination 2"),
    ('k_tiles: [kt]', "'k_tiles' of source 0 of 'fill' of 'a'"),
    ('      threads: 256', "unknown key 'thread' in 'thread_gemm'"),
    ('bound: K,', "'bound' of 'k_loop' of 'thread_gemm' of check 'raked' must be a*K + b"),
    ('condition: "<"', "'condition' of 'k_loop' of 'thread_gemm' of check 'raked' must be one of <, <=, !="),
    (', step: 1,', "'k_loop' of 'thread_gemm' of check 'raked' is missing 'step'"),
    ('reads: {a: kt, b: kt}', "'reads' of 'k_loop' of 'thread_gemm' of check 'raked', b: 'k_tile' names k_tile: only "
                              "kt and K are read"),
])
def test_malformed_keys_are_refused_at_their_place(tmp_path: Path, edit: str, message: str):
    text = SPEC.read_text(encoding="utf-8")
    first = text[:text.index("  raked_threads_row_major:")]
    replacement = {
        '        values: "(4,8):(16,64)"\n' + B_FILL:
            '        values: "(4,4):(16,64)"\n' + B_FILL,
        'tile_at: [blockIdx.x, blockIdx.y]': '',
        'origins: "(16,16):(1,64)"': 'origins: [1, 2, 3]',
        'tile: [64, 64, 8]': 'tile: [64, 64]',
        'smem: "(64,8):(1,64)"': 'smem: "(64,4):(1,64)"',
        'tile_at: blockIdx.x, k_tiles: [kt], origins: "(32,8):(1,64)", values: "2:32"':
            'tile_at: blockIdx.x, k_tiles: [kt], origins: "(32,8):(1,64)", values: "4:16"',
        'k_tiles: [kt]': 'k_tiles: []',
        '      threads: 256': '      thread: 256',
        'bound: K,': 'bound: K*K,',
        'condition: "<"': 'condition: ">"',
        ', step: 1,': ',',
        'reads: {a: kt, b: kt}': 'reads: {a: kt, b: k_tile}',
    }[edit]
    _assert_refused(tmp_path, first, edit, replacement, message)


FILLS_SPEC = Path(__file__).parent / "specs" / "operand_fills.yaml"


def test_operand_fills_alone_are_proved_and_refuted_by_their_fact():
    """Theorem 45 without the products (an operand-fills check): two-stage tiles, one swizzled, verified; a second
    stage inside the first, and B's mainloop copying A's tile, refuted with their witnesses."""
    report = documented_report(FILLS_SPEC)
    assert report["two_stages"]["verdict"] == "verified"
    assert [t["id"] for t in report["two_stages"]["theorems"]] == ["gemm.shared_fill"]    # type: ignore[index]
    assert_refuted_by(report["stages_overlap"], "A's shared layout gives distinct coordinates of its 64x8 tile and "
                      "its 2 stages distinct elements", "(0, 4) of stage 0 and (0, 0) of stage 1 are both element 256")
    assert_refuted_by(report["b_partly_from_a"], "B's tile of A is taken at C's block along C's columns",
                      "B's tile of A at blockIdx.x")


@pytest.mark.parametrize("edit, replacement, message", [
    ("      tile_at: [blockIdx.x, blockIdx.y]\n      a:", "      a:", "'fills' of check 'two_stages' is missing "
                                                                      "'tile_at'"),
    ('smem: "Sw<2,2,3> o _0 o (64,8,2):(1,64,512)"', 'smem: "(32,8,2):(1,64,512)"',
     "'smem' of 'b' of 'fills' of check 'two_stages' is not of the shared tile's 64x8"),
    ("        tile: [64, 8]\n        smem: \"(64,8,2):(1,64,512)\"", "        smem: \"(64,8,2):(1,64,512)\"",
     "'a' of 'fills' of check 'two_stages' is missing 'tile'"),
])
def test_malformed_fills_are_refused_at_their_place(tmp_path: Path, edit: str, replacement: str, message: str):
    text = FILLS_SPEC.read_text(encoding="utf-8")
    first = text[:text.index("  stages_overlap:")]
    _assert_refused(tmp_path, first, edit, replacement, message)


def test_the_passes_decision_agrees_with_evaluating_every_pass():
    """300 random prefetch-shaped expressions (a prologue's k-tile at the first pass, the pass before's refill after
    it, clamped at a bound of K): Z3's answer is what evaluating every pass of K = 1..12 gives, its witness the least
    K and pass that go wrong -- both verdicts occurring."""
    from verifier.kinds.thread_gemm.pass_reads import first_wrong_pass
    rng = random.Random(46)
    verdicts = set()
    for _ in range(300):
        c0, d, e, f = rng.choice([0, 0, 1, -1]), rng.choice([1, 1, 2, 0]), rng.choice([0, 0, 1, -1]), \
            rng.choice([0, 0, 1])
        text = f"({c0} if kt == 0 else ((kt - 1) + {d} if (kt - 1) + {d} < K + {e} else (kt - 1) + {f}))"

        def held(kt: int, k: int, c0: int = c0, d: int = d, e: int = e, f: int = f) -> int:
            return c0 if kt == 0 else ((kt - 1) + d if (kt - 1) + d < k + e else (kt - 1) + f)
        wrong = [(k, kt) for k in range(1, 13) for kt in range(k) if held(kt, k) != kt]
        found = first_wrong_pass((("a", text),), "kt")
        assert (found is None) == (not wrong), text
        if found is not None:
            assert (found.k_tiles, found.pass_) == wrong[0] and found.held == (("a", held(*wrong[0][::-1])),), text
        verdicts.add(found is None)
    assert verdicts == {True, False}
