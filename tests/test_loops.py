"""Exhaustive enumeration in plain Python (verifier/symbolic/loops.py) decides exactly as numpy's does: the same
verdict, the same first failing point, the same failure count, the same witness pair of an injectivity claim."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import shapes
from verifier.algebra import Layout
from verifier.algebra.inttuple import flatten_to_tuple
from verifier.jsoncodec import to_json
from verifier.specfile.loader import load_specs
from verifier.symbolic import decide as decide_module
from verifier.symbolic import loops
from verifier.symbolic.decide import (distinct_in_python, distinct_with_numpy, enumerate_obligation,
                                      failures_in_python, failures_with_numpy, forget)
from verifier.symbolic.expr import Var, and_, compile_py, implies, lt, ne, or_
from verifier.symbolic.expr import eq as eq_
from verifier.symbolic.layouts import layout_expr
from verifier.symbolic.obligation import Distinct, Obligation
from verifier.engine.runner import run_check

ROOT = Path(__file__).parent.parent


def _same(a, b) -> None:
    assert (a.first, a.failing, a.smallest) == (b.first, b.failing, b.smallest)


def _mode_vars(shape, suffix=""):
    """One variable per top-level mode of `shape` (the coordinate a layout expression is evaluated at)."""
    modes = shape if isinstance(shape, tuple) else (shape,)
    sizes = [1] * len(modes)
    for i, m in enumerate(modes):
        for leaf in flatten_to_tuple(m):
            sizes[i] *= leaf
    return [Var(f"x{i}{suffix}", n) for i, n in enumerate(sizes)]


@st.composite
def layout_pairs(draw):
    """Two layouts of one shape: equal, or differing in a stride (so both proofs and refutations occur)."""
    shape = draw(shapes(max_leaf=5, max_rank=3))
    n = len(flatten_to_tuple(shape))
    strides = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    other = list(strides)
    if draw(st.booleans()):
        other[draw(st.integers(0, n - 1))] = draw(st.integers(0, 40))

    def build(flat):
        it = iter(flat)

        def like(s):
            return tuple(like(e) for e in s) if isinstance(s, tuple) else next(it)
        return Layout(shape, like(shape))
    return build(strides), build(other)


@settings(max_examples=150, deadline=None)
@given(layout_pairs(), st.booleans(), st.data())
def test_python_and_numpy_agree_on_equalities(pair, with_premise, data):
    a, b = pair
    xs = _mode_vars(a.shape)
    coord = tuple(xs) if len(xs) > 1 else xs[0]
    premise = lt(xs[0], xs[-1]) if with_premise and len(xs) > 1 else and_()
    counted = data.draw(st.lists(st.sampled_from([v.name for v in xs]), unique=True, max_size=len(xs)))
    ob = Obligation("a = b", xs, eq_(layout_expr(a, coord), layout_expr(b, coord)), premise,
                    count_over=counted or None)
    _same(failures_in_python(ob), failures_with_numpy(ob))


@settings(max_examples=150, deadline=None)
@given(layout_pairs())
def test_python_and_numpy_agree_on_injectivity(pair):
    layout = pair[1]
    xs, ys = _mode_vars(layout.shape), _mode_vars(layout.shape, "_2")
    q1 = layout_expr(layout, tuple(xs) if len(xs) > 1 else xs[0])
    q2 = layout_expr(layout, tuple(ys) if len(ys) > 1 else ys[0])
    claim = implies(or_(*[ne(x, y) for x, y in zip(xs, ys)]), ne(q1, q2))
    ob = Obligation("injective", xs + ys, claim, distinct=Distinct(q1, tuple(xs), tuple(ys)))
    _same(distinct_in_python(ob), distinct_with_numpy(ob))


def test_a_refutation_is_counted_over_the_counted_variables_only():
    a, b, c = Var("a", 5), Var("b", 6), Var("c", 4)
    ob = Obligation("a + b + c < 9", [a, b, c], lt(a + b + c, 9), count_over=["a", "b"])
    py, np_ = failures_in_python(ob), failures_with_numpy(ob)
    _same(py, np_)
    assert py.first == {"a": 1, "b": 5, "c": 3}
    assert py.failing == len({(i, j) for i in range(5) for j in range(6) for k in range(4) if i + j + k >= 9})


def test_an_injectivity_refutation_names_the_first_pair_of_the_smallest_repeated_value():
    x, y = Var("x", 8), Var("y", 8)
    q1, q2 = (x % 3) * 2, (y % 3) * 2          # values 0, 2, 4: the first repeat of 0 is x=0, x=3
    ob = Obligation("injective", [x, y], implies(ne(x, y), ne(q1, q2)), distinct=Distinct(q1, (x,), (y,)))
    py = distinct_in_python(ob)
    _same(py, distinct_with_numpy(ob))
    assert py.first == {"x": 0, "y": 3} and py.failing == 3 + 3 + 1 and not py.smallest


def test_deep_and_wide_trees_compile_as_loop_nests():
    """A 3,000-deep chain of single-use sub-terms and a 6,667-term junction: the nest names sub-terms where
    inlining them would nest too deep for Python's parser, and computes what compile_py computes."""
    x, y = Var("x", 64), Var("y", 300)
    deep = x
    for k in range(3000):
        deep = (deep + (k % 7)) % (1 << 20)
    wide = and_(*[ne(y, u) for u in range(0, 20000, 3)])
    expected = compile_py([deep, wide], [x, y])
    ob = Obligation("deep and wide", [x, y], and_(lt(deep, 10 ** 6), wide))
    failing = loops.failing_points(ob.premise, ob.claim, [x, y])
    assert failing == [(i, j) for i in range(64) for j in range(300) if not all(expected(i, j))]
    assert loops.values(deep, [x]) == [expected(i, 0)[0] for i in range(64)]


def test_one_value_variables_and_constant_claims():
    a, one = Var("a", 3), Var("one", 1)
    assert loops.failing_points(and_(), ne(a + one, 1), [a, one]) == [(1, 0)]
    assert loops.failing_points(and_(), and_(), [a, one]) == []
    assert loops.values(a * 0 + 5, [a, one]) == [5, 5, 5]


def test_the_plain_python_budget_hands_over_to_numpy(monkeypatch):
    """Within the budget (and while numpy is not imported) small domains are enumerated in plain Python; after
    it, numpy enumerates them; a domain above PYTHON_POINTS always goes to numpy."""
    used = []
    monkeypatch.setattr(decide_module, "failures_in_python",
                        lambda ob: used.append("python") or failures_with_numpy(ob))
    monkeypatch.setattr(decide_module, "failures_with_numpy",
                        lambda ob: used.append("numpy") or failures_in_python(ob))
    monkeypatch.setattr(decide_module, "numpy_imported", lambda: False)
    a = Var("a", 100)
    ob = Obligation("a < 100", [a], lt(a, 100))
    monkeypatch.setattr(decide_module, "_python_points", 0)
    enumerate_obligation(ob)
    monkeypatch.setattr(decide_module, "_python_points", decide_module.PYTHON_BUDGET - 100)
    enumerate_obligation(ob)
    monkeypatch.setattr(decide_module, "_python_points", 0)
    big = Var("big", decide_module.PYTHON_POINTS + 1)
    enumerate_obligation(Obligation("big < size", [big], lt(big, big.size)))
    assert used == ["python", "numpy", "numpy"]


def test_numpy_already_imported_enumerates_everything(monkeypatch):
    monkeypatch.setattr(decide_module, "numpy_imported", lambda: True)
    used = []
    monkeypatch.setattr(decide_module, "failures_in_python",
                        lambda ob: used.append("python") or failures_with_numpy(ob))
    monkeypatch.setattr(decide_module, "_python_points", 0)
    a = Var("a", 10)
    decide_module.enumerate_obligation(Obligation("a < 10", [a], lt(a, 10)))
    assert used == []


def test_the_seed_spec_is_proved_without_importing_numpy():
    """numpy is imported only when used: the seed's obligations are enumerated in plain Python."""
    code = ("import sys; from verifier.commands import cli; sys.argv = ['verifier', 'prove', 'specs/sm80_f16.yaml', "
            "'--no-cache', '--format', 'json']\ntry:\n    cli.main()\nexcept SystemExit as e:\n    code = e.code\n"
            "sys.stderr.write('numpy imported' if 'numpy' in sys.modules else 'numpy not imported')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(p.stdout)
    assert report["summary"]["pass"] == report["summary"]["checks"] == 20, report["summary"]
    assert p.stderr.endswith("numpy not imported"), p.stderr[-500:]


def _without_seconds(value):
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


@pytest.mark.parametrize("spec", ["specs/mistakes.yaml", "specs/sm80_f16.yaml"])
def test_every_report_is_the_same_with_either_evaluator(monkeypatch, spec):
    """Every documented mistake (witnesses, counts, chains) reads the same, enumerated in plain Python or numpy."""
    def prove(points: int, budget: int) -> list:
        monkeypatch.setattr(decide_module, "PYTHON_POINTS", points)
        monkeypatch.setattr(decide_module, "PYTHON_BUDGET", budget)
        monkeypatch.setattr(decide_module, "_python_points", 0)
        monkeypatch.setattr(decide_module, "numpy_imported", lambda: False)
        forget()
        return [_without_seconds(to_json(run_check(s, c))) for s in load_specs([str(ROOT / spec)])
                for c in s.checks.values()]
    with_numpy, in_python = prove(0, 0), prove(1 << 20, 1 << 40)
    assert in_python == with_numpy
    assert any(c["verdict"] == "refuted" for c in in_python)
