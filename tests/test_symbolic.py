"""The symbolic encoding: expressions of layouts agree with the concrete algebra, widths are sound,
and the solver's three answers are reported faithfully."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import layouts
from verifier.algebra import Layout, parse_layout
from verifier.symbolic.expr import Var, bit_width, compile_py, eq, to_text
from verifier.symbolic.layouts import layout_expr
from verifier.symbolic.solver import Obligation, prove


@settings(max_examples=150, deadline=None)
@given(layouts(), st.data())
def test_layout_expression_equals_the_layout(L, data):
    i = Var("i", int(L.size()))
    f = compile_py([layout_expr(L, i)], [i])
    for x in data.draw(st.lists(st.integers(0, int(L.size()) - 1), min_size=1, max_size=20)):
        assert f(x)[0] == L(x)


def test_swizzled_layout_expression_equals_the_layout():
    L = parse_layout("Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))")
    i = Var("i", int(L.size()))
    f = compile_py([layout_expr(L, i)], [i])
    assert [f(x)[0] for x in range(int(L.size()))] == L.values()


def test_closed_form_of_the_copy_destination():
    t, v = Var("t", 32), Var("v", 8)
    assert to_text(layout_expr(parse_layout("(32,(2,4)):(2,(1,64))"), (t, v))) == "2*t + v%2 + 64*(v//2)"


def test_width_is_derived_from_the_values_not_fixed():
    """Two layouts that differ by 2**16 must not be proved equal (a fixed 16-bit width would)."""
    i = Var("i", 4)
    a = layout_expr(Layout(4, 1), i)
    b = layout_expr(Layout((4, 2), (1, 1 << 16)), (i, Var("j", 2)))
    ob = Obligation("test", "differ by 2**16", [i, Var("j", 2)], eq(a, b))
    assert bit_width(ob.claim) > 17
    v = prove(ob)
    assert v.status == "counterexample" and v.counterexample == {"i": 0, "j": 1}


def test_proved_identity():
    F = parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))")
    t, v = Var("t", 32), Var("v", 8)
    lhs = layout_expr(F, (t, v))
    assert prove(Obligation("test", "F = F", [t, v], eq(lhs, layout_expr(F, (t, v))))).proved


def test_counterexample_is_the_smallest_and_counted():
    t, v = Var("t", 32), Var("v", 8)
    good = parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))")
    bad = parse_layout("((4,8),(2,2,2)):((32,1),(16,128,8))")
    r = prove(Obligation("test", "mutated", [t, v], eq(layout_expr(bad, (t, v)), layout_expr(good, (t, v)))))
    assert r.status == "counterexample"
    assert r.counterexample == {"t": 0, "v": 2}
    assert r.failing == 128


def test_unknown_is_never_reported_as_proved(monkeypatch):
    """A solver that gives up yields 'unknown' with its reason."""
    import z3

    class GiveUp:
        def __init__(self, *a, **k):
            pass

        def set(self, *a, **k):
            pass

        def add(self, *a):
            pass

        def from_string(self, text):
            pass

        def check(self):
            return z3.unknown

        def reason_unknown(self):
            return "timeout"
    monkeypatch.setattr(z3, "SolverFor", lambda logic: GiveUp())
    i = Var("i", 8)
    r = prove(Obligation("test", "anything", [i], eq(layout_expr(Layout(8, 1), i), i)))
    assert r.status == "unknown" and not r.proved and "timeout" in r.reason


@pytest.mark.parametrize("size", [256, 1 << 12, 1 << 16])
def test_bit_vector_proof_scales(size):
    i = Var("i", size)
    L = Layout((16, size // 16), (1, 16))
    assert prove(Obligation("test", "compact", [i], eq(layout_expr(L, i), i))).proved
