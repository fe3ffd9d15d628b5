"""The symbolic encoding: expressions of layouts agree with the concrete algebra, widths are sound, the
decision procedures agree, and the solver's answers are reported faithfully."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import layouts
from verifier.algebra import Layout, parse_layout
from verifier.outcome import Status
from verifier.symbolic.backends import SMT2
from verifier.symbolic.decide import Procedure, Settings, decide, failures_with_numpy, forget
from verifier.symbolic.expr import (Var, and_, bit_width, compile_numpy, compile_py, eq, evaluate, lt, ne, not_, or_,
                                   postorder, to_text)
from verifier.symbolic.layouts import layout_expr
from verifier.symbolic.obligation import Obligation

CROSS = Settings(cross_check=True)


@settings(max_examples=150, deadline=None)
@given(layouts(), st.data())
def test_layout_expression_equals_the_layout(L, data):
    i = Var("i", int(L.size()))
    f = compile_py([layout_expr(L, i)], [i])
    for x in data.draw(st.lists(st.integers(0, int(L.size()) - 1), min_size=1, max_size=20)):
        assert f(x)[0] == L(x)


@settings(max_examples=80, deadline=None)
@given(layouts())
def test_numpy_and_python_backends_agree(L):
    import numpy as np
    i = Var("i", int(L.size()))
    e = layout_expr(L, i)
    py = compile_py([e], [i])
    got = compile_numpy([e], [i])(np.arange(i.size, dtype=np.int64))[0]
    assert [int(x) for x in np.broadcast_to(got, (i.size,))] == [py(x)[0] for x in range(i.size)]
    assert [evaluate([e], {"i": x})[0] for x in range(i.size)] == [py(x)[0] for x in range(i.size)]


def test_one_point_evaluation_agrees_with_the_compiled_function():
    """Every operator, predicates included, evaluated node by node at one point gives what compile_py gives."""
    x, y = Var("x", 37), Var("y", 23)
    exprs = [x + 3 * y, (x * 5) // 7, (x + y) % 6, (x * 3) & 0b1010, x ^ y, eq(x, y + 2), lt(x, y),
             and_(lt(x, 30), ne(y, 4)), or_(eq(x, 0), lt(y, 3)), not_(eq(x % 3, y % 3))]
    fn = compile_py(exprs, [x, y])
    for a in range(37):
        for b in range(23):
            assert evaluate(exprs, {"x": a, "y": b}) == list(fn(a, b))


def test_swizzled_layout_expression_equals_the_layout():
    L = parse_layout("Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))")
    i = Var("i", int(L.size()))
    f = compile_py([layout_expr(L, i)], [i])
    assert [f(x)[0] for x in range(int(L.size()))] == L.values()


def test_closed_form_of_the_copy_destination():
    t, v = Var("t", 32), Var("v", 8)
    assert to_text(layout_expr(parse_layout("(32,(2,4)):(2,(1,64))"), (t, v))) == "2*t + v%2 + 64*(v//2)"


def test_one_visitor_handles_deep_and_wide_trees():
    """Thousands of terms and nesting far beyond Python's recursion limit compile in every backend."""
    x = Var("x", 1 << 20)
    deep = x
    for k in range(3000):
        deep = (deep + (k % 7)) % (1 << 20)
    y = Var("y", 1 << 15)    # a smaller domain for the wide junction: enumerating it is not what is tested
    wide = and_(*[ne(y, u) for u in range(0, 20000, 3)])
    assert len(list(postorder([deep, wide]))) > 3000
    assert compile_py([deep, wide], [x, y])(5, 1)[0] == (5 + sum(k % 7 for k in range(3000))) % (1 << 20)
    ob = Obligation("wide", [y], wide)
    assert "(assert" in SMT2(ob.width()).script(ob.variables, ob.premise, ob.claim)
    e = failures_with_numpy(ob)
    assert e.first == {"y": 0} and e.failing == len(range(0, 20000, 3))


def test_width_is_derived_from_the_values_not_fixed():
    """Two layouts that differ by 2**16 must not be proved equal (a fixed 16-bit width would)."""
    i = Var("i", 4)
    a = layout_expr(Layout(4, 1), i)
    b = layout_expr(Layout((4, 2), (1, 1 << 16)), (i, Var("j", 2)))
    ob = Obligation("differ by 2**16", [i, Var("j", 2)], eq(a, b))
    assert bit_width(ob.claim) > 17
    d, _ = decide(ob, CROSS)
    assert d.status is Status.REFUTED and d.cross_check.status is Status.REFUTED


def test_proved_identity_is_cross_checked():
    F = parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))")
    t, v = Var("t", 32), Var("v", 8)
    d, _ = decide(Obligation("F = F", [t, v], eq(layout_expr(F, (t, v)), layout_expr(F, (t, v)) + 0)), CROSS)
    assert d.status is Status.PROVED


def test_counterexample_is_the_smallest_and_counted():
    t, v = Var("t", 32), Var("v", 8)
    good = parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))")
    bad = parse_layout("((4,8),(2,2,2)):((32,1),(16,128,8))")
    ob = Obligation("mutated", [t, v], eq(layout_expr(bad, (t, v)), layout_expr(good, (t, v))))
    d, e = decide(ob, CROSS)        # 256 points: enumeration decides, Z3 cross-checks
    assert d.status is Status.REFUTED and d.procedure is Procedure.ENUMERATION
    assert d.cross_check.procedure is Procedure.Z3 and d.cross_check.status is Status.REFUTED
    assert e.first == {"t": 0, "v": 2} and e.failing == 128
    d, e = decide(ob, Settings(cross_check=True, procedure=Procedure.Z3))   # forced: Z3, enumeration cross-checks
    assert d.status is Status.REFUTED and d.procedure is Procedure.Z3 and e.first == {"t": 0, "v": 2}


def test_the_procedure_follows_the_obligation_s_shape():
    """Small domains and non-power-of-two division are enumerated, large power-of-two domains go to Z3, and an
    injectivity claim is enumerated once per point."""
    from verifier.symbolic.decide import choose
    from verifier.symbolic.obligation import Distinct
    small, big = Var("i", 64), Var("i", 1 << 20)
    assert choose(Obligation("small", [small], lt(small, 64))) is Procedure.ENUMERATION
    assert choose(Obligation("big", [big], eq((big // 16) * 16 + big % 16, big))) is Procedure.Z3
    assert choose(Obligation("pitch", [big], eq((big // 648) * 648 + big % 648, big))) is Procedure.ENUMERATION
    a, b = Var("a", 1 << 20), Var("b", 1 << 20)
    pairs = Obligation("injective", [a, b], ne(a * 3, b * 3), premise=lt(a, b),
                       distinct=Distinct(a * 3, (a,), (b,)))
    assert choose(pairs) is Procedure.ENUMERATION
    d, _ = decide(pairs)
    assert d.status is Status.PROVED and d.procedure is Procedure.ENUMERATION
    clash = Obligation("not injective", [a, b], ne(a // 2, b // 2), premise=lt(a, b),
                       distinct=Distinct(a // 2, (a,), (b,)))
    d, e = decide(clash)
    assert d.status is Status.REFUTED and e.failing == (1 << 19) and d.witness["a"] < d.witness["b"]


FORCE_Z3 = Settings(procedure=Procedure.Z3)


@pytest.fixture(autouse=True)
def _fresh_decisions():
    """Every test decides afresh (the process-wide memo would answer for a solver a test replaced)."""
    forget()
    yield
    forget()


class _GiveUp:
    """A solver that always answers unknown."""

    def __init__(self, *a, **k):
        pass

    def set(self, *a, **k):
        pass

    def from_string(self, text):
        pass

    def check(self):
        import z3
        return z3.unknown

    def reason_unknown(self):
        return "timeout"


def test_unknown_is_never_reported_as_proved(monkeypatch):
    """Z3 giving up on a domain too large to enumerate leaves the obligation undecided, with the reason."""
    import z3
    monkeypatch.setattr(z3, "SolverFor", lambda logic, ctx=None: _GiveUp())
    i, j = Var("i", 1 << 12), Var("j", 1 << 12)
    d, _ = decide(Obligation("anything", [i, j], eq(layout_expr(Layout(8, 1), i % 8), i % 8)))
    assert d.status is Status.UNDECIDED and "timeout" in d.reason


def test_enumeration_decides_when_the_solver_gives_up(monkeypatch):
    """... and a small domain is decided by exhaustive enumeration instead, which the decision says."""
    import z3
    monkeypatch.setattr(z3, "SolverFor", lambda logic, ctx=None: _GiveUp())
    i = Var("i", 64)
    d, _ = decide(Obligation("in range", [i], lt(layout_expr(Layout(64, 1), i), 64)), FORCE_Z3)
    assert d.status is Status.PROVED and d.procedure is Procedure.ENUMERATION and "timeout" in d.reason


class _Lies(_GiveUp):
    """A solver that claims a counterexample that does not fail."""

    def check(self):
        import z3
        return z3.sat

    def model(self):
        import z3

        class M:
            def eval(self, term, model_completion=False):
                return z3.BitVecVal(0, term.size())          # i = 0, which does not fail `i < 8`
        return M()


def test_a_counterexample_that_does_not_fail_is_an_internal_error(monkeypatch):
    import z3
    monkeypatch.setattr(z3, "SolverFor", lambda logic, ctx=None: _Lies())
    i = Var("i", 8)
    d, _ = decide(Obligation("true", [i], lt(i, 8)), FORCE_Z3)
    assert d.status is Status.ERROR and "encoding" in d.reason


def test_a_cross_check_disagreement_is_an_internal_error(monkeypatch):
    """A proof the enumeration contradicts is never reported as a proof."""
    import z3

    class Proves(_GiveUp):
        def check(self):
            return z3.unsat
    monkeypatch.setattr(z3, "SolverFor", lambda logic, ctx=None: Proves())
    i = Var("i", 8)
    d, _ = decide(Obligation("false at 3", [i], ne(i, 3)), Settings(cross_check=True, procedure=Procedure.Z3))
    assert d.status is Status.ERROR and "disagreement" in d.reason and "{'i': 3}" in d.reason
    forget()
    d, _ = decide(Obligation("false at 3", [i], ne(i, 3)), CROSS)     # enumeration first, the lying Z3 second
    assert d.status is Status.ERROR and "disagreement" in d.reason


@pytest.mark.parametrize("size", [256, 1 << 12, 1 << 16])
def test_bit_vector_proof_scales(size):
    i = Var("i", size)
    L = Layout((16, size // 16), (1, 16))
    d, _ = decide(Obligation("compact", [i], eq(layout_expr(L, i), i)), CROSS)
    assert d.status is Status.PROVED and d.cross_check.status is Status.PROVED


def test_smallest_failure_finds_what_enumeration_finds():
    """Z3's binary search for the lexicographically smallest failing point agrees with enumerating the domain."""
    from verifier.symbolic.decide import smallest_failure
    from verifier.symbolic.expr import not_, or_
    from verifier.symbolic.obligation import Obligation
    a, b, c = Var("a", 64), Var("b", 128), Var("c", 32)
    lhs = (a * 128 + b) ^ ((c & 7) << 4)
    ob = Obligation("swizzle is the identity where a > 40 or c % 8 == 0", [a, b, c],
                    or_(eq(lhs, a * 128 + b), not_(lt(a, 41))), premise=not_(lt(c % 8, 1)))
    decision, _ = decide(ob, Settings())
    assert decision.witness is not None
    point, exact = smallest_failure(ob, decision.witness, timeout_s=5.0)
    assert exact and point == failures_with_numpy(ob).first == {"a": 0, "b": 0, "c": 1}


def test_the_search_for_the_smallest_counterexample_has_a_time_budget():
    """Out of budget, the search returns the failing point it has, marked as not the smallest."""
    from verifier.symbolic.decide import smallest_failure
    a, b = Var("a", 1 << 20), Var("b", 1 << 20)
    ob = Obligation("a + b is never 3", [a, b], ne(a + b, 3))
    start = {"a": 2, "b": 1}
    assert smallest_failure(ob, start, timeout_s=5.0, budget_s=0.0) == (start, False)
    assert smallest_failure(ob, start, timeout_s=5.0) == ({"a": 0, "b": 3}, True)


def test_z3_contexts_are_renewed_and_keep_every_verdict(monkeypatch):
    """Obligations share a Z3 context a few at a time (decide.CONTEXT_OBLIGATIONS); across a renewal each is still
    proved or refuted as on its own, and a refutation's point (read in that obligation's context) fails."""
    from verifier.symbolic import decide as decide_module
    monkeypatch.setattr(decide_module, "CONTEXT_OBLIGATIONS", 2)
    monkeypatch.setattr(decide_module, "_context", None)
    forget()
    contexts = []
    for n in range(5):
        i = Var(f"i{n}", 1 << 20)
        proved, _ = decide(Obligation("holds", [i], lt(i, 1 << 20)), FORCE_Z3)
        refuted, _ = decide(Obligation("fails at one point", [i], ne(i, 1000 + n)), FORCE_Z3)
        assert proved.status is Status.PROVED and proved.procedure is Procedure.Z3
        assert refuted.status is Status.REFUTED and refuted.witness == {f"i{n}": 1000 + n}
        contexts.append(decide_module._context)
    assert len({id(c) for c in contexts}) == 5      # two obligations a context, then a new one
    forget()


def test_numpy_is_loaded_with_one_blas_thread_and_the_environment_restored():
    """The prover calls no BLAS routine: OpenBLAS's pool is one thread (the process has no more threads after the
    import than before), the variable that asked for it is gone again, and a user's own setting wins."""
    import subprocess
    import sys
    code = ("import os, verifier.numeric as n; n.load_numpy(); "
            "print(open('/proc/self/status').read().split('Threads:')[1].split()[0], "
            "os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {k: v for k, v in __import__("os").environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split() == ["1", "None"]
    mine = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**env, "OPENBLAS_NUM_THREADS": "2"}).stdout
    assert mine.split() == ["2", "2"]


def test_division_by_a_non_power_of_two_reaches_z3_as_a_quotient_and_a_remainder():
    """x // k and x % k (k not a power of two) are one declared pair per (x, k), no bvudiv / bvurem: Z3 proves the
    identity they satisfy and refutes a wrong claim at the point enumeration finds first."""
    from verifier.symbolic.decide import smallest_failure
    x, y = Var("x", 1 << 20), Var("y", 6)
    e = x * 6 + y
    identity = Obligation("x = (x // 648) * 648 + x % 648", [x, y], eq((e // 648) * 648 + e % 648, e))
    text = SMT2(identity.width()).script(identity.variables, identity.premise, identity.claim)
    assert "bvudiv" not in text and "bvurem" not in text and text.count("declare-const") == 2 + 2
    d, _ = decide(identity, FORCE_Z3)
    assert d.status is Status.PROVED and d.procedure is Procedure.Z3
    small = Var("s", 1 << 12)
    wrong = Obligation("s // 24 == s // 25", [small], eq(small // 24, small // 25))
    d, e = decide(wrong, Settings(cross_check=True, procedure=Procedure.Z3))
    assert d.status is Status.REFUTED and d.procedure is Procedure.Z3 and d.cross_check.status is Status.REFUTED
    point, exact = smallest_failure(wrong, d.witness, timeout_s=5.0)
    assert exact and point == failures_with_numpy(wrong).first == {"s": 24}


@settings(max_examples=60, deadline=None)
@given(k=st.integers(3, 300).filter(lambda k: k & (k - 1)), m=st.integers(3, 97).filter(lambda m: m & (m - 1)),
       stride=st.integers(1, 40), offset=st.integers(0, 50), bound=st.integers(0, 60))
def test_z3_and_enumeration_agree_on_non_power_of_two_division(k, m, stride, offset, bound):
    """Random claims mixing quotients and remainders by non-powers of two: Z3 (forced) and the enumeration that
    cross-checks it reach the same verdict, and a refutation's point fails exactly."""
    a, b = Var("a", 96), Var("b", 40)
    e = a * stride + b + offset
    claim = or_(lt(e // k + (e % m) * 3, bound), eq(e % k, (e // m) % k))
    d, _ = decide(Obligation("mixed", [a, b], claim), Settings(cross_check=True, procedure=Procedure.Z3))
    assert d.status in (Status.PROVED, Status.REFUTED) and d.cross_check.status is d.status
    if d.status is Status.REFUTED:
        point = {"a": d.witness["a"], "b": d.witness["b"]}
        value = point["a"] * stride + point["b"] + offset
        assert not (value // k + (value % m) * 3 < bound or value % k == (value // m) % k)
